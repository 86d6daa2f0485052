`default_nettype none

/// Synchronous first-word-fall-through FIFO.
///
/// - Any `Depth >= 1`, not only powers of two: the pointers wrap explicitly at `Depth`.
/// - `out_data_o` is the head entry, valid while `out_valid_o`; a pop and a push may happen in the
///   same cycle.
/// - `in_ready_o` depends only on the occupancy register and `flush_i`, never on `out_ready_i`:
///   a full FIFO does not accept in the cycle it is popped. This keeps the ready path short when
///   FIFOs are chained, at the cost of one bubble per full-pop.
/// - `flush_i` empties the FIFO at the next edge. `in_ready_o` is low during a flush so no
///   accepted word is ever dropped; a pop in a flush cycle still completes normally.
/// - Storage is a plain array without reset so it maps to distributed RAM / EBR.
module onerma_fifo #(
  /// Width of the default payload type. Ignored when `T` is overridden.
  parameter int unsigned Width = 8,
  /// Number of entries, >= 1.
  parameter int unsigned Depth = 4,
  /// Payload type.
  parameter type T = logic [Width-1:0],
  // Derived, do not override.
  parameter int unsigned AddrWidth  = (Depth > 1) ? $clog2(Depth) : 1,
  parameter int unsigned CountWidth = $clog2(Depth + 1)
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  /// Synchronous clear of all entries.
  input  logic                  flush_i,
  input  logic                  in_valid_i,
  output logic                  in_ready_o,
  input  T                      in_data_i,
  output logic                  out_valid_o,
  input  logic                  out_ready_i,
  output T                      out_data_o,
  /// Number of entries currently stored.
  output logic [CountWidth-1:0] count_o
);

  localparam logic [AddrWidth-1:0]  LastAddr = AddrWidth'(Depth - 1);
  localparam logic [CountWidth-1:0] Full     = CountWidth'(Depth);

  T                      mem_q [Depth];
  logic [AddrWidth-1:0]  wptr_q, wptr_d;
  logic [AddrWidth-1:0]  rptr_q, rptr_d;
  logic [CountWidth-1:0] count_q, count_d;
  // Registered copies of count_q == Full and count_q != 0: ready, valid and the write enables
  // then start at a flop instead of a count compare (the push fans out to every distributed-RAM
  // cell of a wide FIFO; with the compare in front it limited the AES core to 92-99 MHz on ECP5).
  logic                  full_q, nonempty_q;
  logic                  push, pop;

  assign in_ready_o  = !full_q && !flush_i;
  assign out_valid_o = nonempty_q;
  assign out_data_o  = mem_q[rptr_q];
  assign count_o     = count_q;

  assign push = in_valid_i && in_ready_o;
  assign pop  = out_valid_o && out_ready_i;

  always_comb begin
    wptr_d  = wptr_q;
    rptr_d  = rptr_q;
    count_d = count_q;
    if (flush_i) begin
      wptr_d  = '0;
      rptr_d  = '0;
      count_d = '0;
    end else begin
      if (push) begin
        wptr_d = (wptr_q == LastAddr) ? '0 : wptr_q + 1'b1;
      end
      if (pop) begin
        rptr_d = (rptr_q == LastAddr) ? '0 : rptr_q + 1'b1;
      end
      if (push && !pop) begin
        count_d = count_q + 1'b1;
      end else if (pop && !push) begin
        count_d = count_q - 1'b1;
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      wptr_q     <= '0;
      rptr_q     <= '0;
      count_q    <= '0;
      full_q     <= 1'b0;
      nonempty_q <= 1'b0;
    end else begin
      wptr_q     <= wptr_d;
      rptr_q     <= rptr_d;
      count_q    <= count_d;
      full_q     <= (count_d == Full);
      nonempty_q <= (count_d != '0);
    end
  end

  // No reset: datapath storage, written only through `push` so stale contents are never read.
  always_ff @(posedge clk_i) begin
    if (push) begin
      mem_q[wptr_q] <= in_data_i;
    end
  end

`ifndef SYNTHESIS
  // The stream rules on both sides in every simulation (Verilator `--assert`), so a test of any
  // top that holds this block also checks its streams. Yosys (synthesis, and formal, where the
  // bound properties instantiate the same checker) never sees these instances.
  // A flush withdraws an offered word and empties the FIFO, so the rules restart like after a
  // reset.
  logic check_rst_n;
  assign check_rst_n = rst_ni && !flush_i;

  onerma_stream_check #(
    .Width($bits(T))
  ) u_in_check (
    .clk_i,
    .rst_ni (check_rst_n),
    .valid_i(in_valid_i),
    .ready_i(in_ready_o),
    .data_i (in_data_i)
  );

  onerma_stream_check #(
    .Width($bits(T))
  ) u_out_check (
    .clk_i,
    .rst_ni (check_rst_n),
    .valid_i(out_valid_o),
    .ready_i(out_ready_i),
    .data_i (out_data_o)
  );
`endif

endmodule

`default_nettype wire
