`default_nettype none

/// Valid/ready stream rules, one checker for every stream: after reset, valid stays high until
/// ready, and the payload stays stable while valid && !ready.
///
/// PROVISIONAL copy written by the engine helper for the GCM pool proof (issue 14), with the
/// interface fixed in the issue's brief; the scaffold helper's version replaces it (it adds the
/// simulation assertions and the X checks). This copy only has the formal body.
module onerma_stream_check #(
  parameter int unsigned Width  = 1,
  parameter bit          Assume = 1'b0 // formal only: 1 = the rules are assumptions (an input
                                       // of the proof's top), 0 = assertions
) (
  input logic             clk_i,
  input logic             rst_ni,
  input logic             valid_i,
  input logic             ready_i,
  input logic [Width-1:0] data_i
);

`ifdef FORMAL
  // Formal-only initial value: the first cycle has no past.
  logic             past_valid_q = 1'b0;
  logic             stall_q;
  logic [Width-1:0] data_q;

  always_ff @(posedge clk_i) begin
    past_valid_q <= 1'b1;
    stall_q      <= rst_ni && valid_i && !ready_i;
    data_q       <= data_i;
  end

  if (Assume) begin : g_assume
    always_comb if (rst_ni && past_valid_q && stall_q) begin
      assume (valid_i);
      assume (data_i == data_q);
    end
  end else begin : g_assert
    always_comb if (rst_ni && past_valid_q && stall_q) begin
      assert (valid_i);
      assert (data_i == data_q);
    end
  end
`else
  // Assume only matters to a proof.
  /* verilator lint_off UNUSEDPARAM */
  localparam bit UnusedAssume = Assume;
  /* verilator lint_on UNUSEDPARAM */
  logic unused;
  assign unused = ^{clk_i, rst_ni, valid_i, ready_i, data_i};
`endif

endmodule

`default_nettype wire
