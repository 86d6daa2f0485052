`default_nettype none

/// Solicitation window allocator (protocol.md §5): the line credit and the pool of free lines.
///
/// Two ledgers, kept apart on purpose:
/// - **Credit** (`credit_o`): lines not reserved by any op or write context. An owner reserves
///   `ceil(length / 64)` lines when it is admitted (`rsv_*`, only while at least `AdmitLines` are
///   unreserved: the 4 KB admission rule of §2.3 and §8.2) and refunds the same number when it
///   ends (`refund_*`). This is the window's accounting: free + reserved = `Lines`.
/// - **Pool**: physical lines not bound to data. An owner takes a line (`take_*`) when a beat of
///   its payload is about to be written, and releases it (`rel_*`) when the beat has left the SRAM
///   (host write done, or the chunk discarded). Binding lines as the beats arrive, instead of at
///   admission, costs one pool pop per payload beat, which the receive path does anyway.
///
/// Owner contract (what the rest of the NIC guarantees; the proof assumes it, simulation checks
/// it through the `ifndef SYNTHESIS` assertions below): an owner holds at most as many bound lines
/// as it reserved, releases only lines it holds, and refunds its reservation only after it has
/// released every line (protocol.md §5, S2: capacity returns after the bytes left the SRAM).
/// Under it a take always finds a free line (`take_ready_o` is then always 1), so nothing here
/// ever waits or fails: formal/onerma_window_alloc_props.sv proves it.
///
/// The pool is a counter of never-used lines (after reset lines 0, 1, ... are handed out in
/// order, so no reset-time fill of a free list is needed) plus a FIFO of released lines.
module onerma_window_alloc #(
  /// Window lines of `WINDOW_LINE_BYTES` (default 1024; small configuration 128).
  parameter int unsigned Lines      = 1024,
  /// Unreserved lines an admission needs: `DISPATCH_QUANTUM_BYTES / WINDOW_LINE_BYTES`.
  parameter int unsigned AdmitLines = 64,
  /// Largest reservation: `MAX_OP_BYTES / WINDOW_LINE_BYTES`; at most `AdmitLines`.
  parameter int unsigned MaxOpLines = 64,
  // Derived, do not override.
  parameter int unsigned LineWidth  = (Lines > 1) ? $clog2(Lines) : 1,
  parameter int unsigned CountWidth = $clog2(Lines + 1),
  parameter int unsigned OpWidth    = $clog2(MaxOpLines + 1)
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  /// Reserve `rsv_lines_i` (0..MaxOpLines; 0 for a WRITE / REKEY initiator) lines; granted in a cycle where `rsv_ready_o` (at
  /// least `AdmitLines` unreserved, from a flop). A request, not a stream: it may be withdrawn.
  input  logic                  rsv_valid_i,
  output logic                  rsv_ready_o,
  input  logic [OpWidth-1:0]    rsv_lines_i,
  /// Return a reservation (always accepted).
  input  logic                  refund_valid_i,
  input  logic [OpWidth-1:0]    refund_lines_i,
  /// Bind a free line; `take_line_o` is valid while `take_ready_o`.
  input  logic                  take_valid_i,
  output logic                  take_ready_o,
  output logic [LineWidth-1:0]  take_line_o,
  /// Release a bound line (always accepted).
  input  logic                  rel_valid_i,
  input  logic [LineWidth-1:0]  rel_line_i,
  /// Unreserved lines.
  output logic [CountWidth-1:0] credit_o,
  /// Nothing reserved and every line in the pool.
  output logic                  idle_o
);

  if (MaxOpLines > AdmitLines || AdmitLines > Lines || MaxOpLines == 0) begin : g_bad_params
    $error("onerma_window_alloc: need 0 < MaxOpLines <= AdmitLines <= Lines");
  end

  localparam logic [CountWidth-1:0] AllLines = CountWidth'(Lines);
  localparam logic [CountWidth-1:0] Admit    = CountWidth'(AdmitLines);

  logic [CountWidth-1:0] credit_q, credit_d;
  // Registered `credit >= AdmitLines`: the ready of the dispatch gate starts at a flop.
  logic                  admit_q;
  // Lines [fresh_q, Lines) have never been handed out.
  logic [CountWidth-1:0] fresh_q;
  logic                  fresh_left;
  logic                  rsv_fire, take_fire;
  logic                  fifo_in_ready, fifo_out_valid;
  logic [LineWidth-1:0]  fifo_out_data;
  logic [CountWidth-1:0] fifo_count;

  assign rsv_ready_o  = admit_q;
  assign rsv_fire     = rsv_valid_i && rsv_ready_o;
  assign fresh_left   = (fresh_q != AllLines);
  assign take_ready_o = fresh_left || fifo_out_valid;
  assign take_line_o  = fresh_left ? fresh_q[LineWidth-1:0] : fifo_out_data;
  assign take_fire    = take_valid_i && take_ready_o;
  assign credit_o     = credit_q;
  assign idle_o       = (credit_q == AllLines) && (fifo_count == fresh_q);

  always_comb begin
    credit_d = credit_q;
    if (rsv_fire) begin
      credit_d = credit_d - CountWidth'(rsv_lines_i);
    end
    if (refund_valid_i) begin
      credit_d = credit_d + CountWidth'(refund_lines_i);
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      credit_q <= AllLines;
      admit_q  <= 1'b1;
      fresh_q  <= '0;
    end else begin
      credit_q <= credit_d;
      admit_q  <= (credit_d >= Admit);
      if (take_fire && fresh_left) begin
        fresh_q <= fresh_q + 1'b1;
      end
    end
  end

  onerma_fifo #(
    .Width(LineWidth),
    .Depth(Lines)
  ) u_pool (
    .clk_i,
    .rst_ni,
    .flush_i    (1'b0),
    .in_valid_i (rel_valid_i),
    .in_ready_o (fifo_in_ready),
    .in_data_i  (rel_line_i),
    .out_valid_o(fifo_out_valid),
    .out_ready_i(take_valid_i && !fresh_left),
    .out_data_o (fifo_out_data),
    .count_o    (fifo_count)
  );

`ifndef SYNTHESIS
  // The owner contract, checked in every simulation that holds this block. The formal proof
  // assumes the same contract and proves everything else.
  // Sampled like the block's own flops, so `rst_ni` is never used as a synchronous signal.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (rst_ni) begin
      assert (!(take_valid_i && !take_ready_o))
      else $error("onerma_window_alloc: take with no free line (owner took beyond its reservation)");
      assert (!(rel_valid_i && !fifo_in_ready))
      else $error("onerma_window_alloc: release into a full pool (a line released twice)");
      assert (!(refund_valid_i && (32'(credit_q) + 32'(refund_lines_i) > Lines)))
      else $error("onerma_window_alloc: refund beyond the reservations");
    end
  end
`endif

endmodule

`default_nettype wire
