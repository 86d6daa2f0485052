`default_nettype none

/// Valid/ready stream rules, written once for every proof and every simulation.
///
/// Rules, counted from the first cycle after reset (`rst_ni` high in this and the previous
/// cycle; a low `rst_ni` restarts them, so a block may feed `rst_ni && !flush` to treat a flush
/// like a reset):
/// - `valid_i` high without `ready_i` stays high until the transfer;
/// - `data_i` does not change while `valid_i && !ready_i`;
/// - simulation only: `valid_i` is never X, nor `data_i` while `valid_i` is high.
///
/// Under `FORMAL` (read_slang) the rules are assumptions (`Assume = 1`: the stream is an input
/// of the proof's top) or assertions (`Assume = 0`), with the module's own past-value
/// registers. Under `SYNTHESIS` the module is empty. In simulation the rules are clocked
/// immediate assertions, evaluated by Verilator only with `--assert`; they sample at the rising
/// edge, so a test bench that changes inputs between edges is judged on what the edge sees.
/// The X rules mean something only in a four-state simulator: Verilator is two-state, so
/// `$isunknown` is constant 0 there and those two assertions can never fire under Verilator.
module onerma_stream_check #(
  /// Payload width, >= 1.
  parameter int unsigned Width  = 1,
  /// Formal only: 1 = the rules are assumptions (an input of the proof's top), 0 = assertions.
  parameter bit          Assume = 1'b0
) (
  input logic             clk_i,
  input logic             rst_ni,
  input logic             valid_i,
  input logic             ready_i,
  input logic [Width-1:0] data_i
);

`ifdef FORMAL
  // Formal-only initial value: no stall before the first cycle. The stall flag includes
  // `rst_ni`, so a reset in the previous cycle clears it; `held` adds this cycle's reset.
  logic             stall_q = 1'b0;
  logic [Width-1:0] data_q;
  logic             held;

  always_ff @(posedge clk_i) begin
    stall_q <= rst_ni && valid_i && !ready_i;
    data_q  <= data_i;
  end

  assign held = rst_ni && stall_q;

  if (Assume) begin : g_assume
    always_comb if (held) begin
      assume (valid_i);
      assume (data_i == data_q);
    end
  end else begin : g_assert
    always_comb if (held) begin
      assert (valid_i);
      assert (data_i == data_q);
    end
  end
`elsif SYNTHESIS
  // Nothing: the rules cost no logic in a build.
`else
  // The same rules for a simulator, checked at the rising edge on the values the edge samples.
  // The stall flag is reset like the block's own flops, so no signal is used both as an
  // asynchronous and as a synchronous reset.
  logic             stall_q;
  logic [Width-1:0] data_q;

  always_ff @(posedge clk_i) begin
    data_q <= data_i;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      stall_q <= 1'b0;
    end else begin
      stall_q <= valid_i && !ready_i;
      assert (!$isunknown(valid_i))
      else $error("stream: valid is X");
      if (valid_i) begin
        assert (!$isunknown(data_i))
        else $error("stream: data is X while valid");
      end
      if (stall_q) begin
        assert (valid_i)
        else $error("stream: valid dropped before ready");
        assert (data_i == data_q)
        else $error("stream: data changed while valid and not ready");
      end
    end
  end

  // Only the formal branch reads it; keeps -Wall quiet about the parameter here.
  logic unused_assume;
  assign unused_assume = Assume;
`endif

endmodule

`default_nettype wire
