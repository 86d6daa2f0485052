`default_nettype none

// Properties of onerma_window_alloc, bound into it when FORMAL is defined.
//
// A shadow ledger (reservations outstanding, and which lines are bound) is kept beside the
// design. The owner contract of the module header is assumed; everything the allocator promises
// is asserted against the shadow: free + reserved = Lines, the admission flag, a take never
// finds the pool empty unless a line is released in the same cycle (then it waits exactly that
// cycle), a taken line is never one already bound, the pool holds exactly the unbound lines, and
// idle means nothing reserved and nothing bound.
`ifdef FORMAL
module onerma_window_alloc_props #(
  parameter int unsigned Lines      = 4,
  parameter int unsigned AdmitLines = 2,
  parameter int unsigned MaxOpLines = 2,
  parameter int unsigned LineWidth  = 2,
  parameter int unsigned CountWidth = 3,
  parameter int unsigned OpWidth    = 2
) (
  input logic                  clk_i,
  input logic                  rst_ni,
  input logic                  rsv_valid_i,
  input logic                  rsv_ready_o,
  input logic [OpWidth-1:0]    rsv_lines_i,
  input logic                  refund_valid_i,
  input logic [OpWidth-1:0]    refund_lines_i,
  input logic                  take_valid_i,
  input logic                  take_ready_o,
  input logic [LineWidth-1:0]  take_line_o,
  input logic                  rel_valid_i,
  input logic [LineWidth-1:0]  rel_line_i,
  input logic [CountWidth-1:0] credit_o,
  input logic                  idle_o,
  input logic [CountWidth-1:0] credit_q,
  input logic                  admit_q,
  input logic [CountWidth-1:0] fresh_q,
  input logic                  fifo_in_ready
);

  localparam int unsigned Depth = Lines;
  localparam int unsigned AddrW = (Depth > 1) ? $clog2(Depth) : 1;
  localparam int unsigned W     = CountWidth + 2;

  logic past_valid_q = 1'b0;
  always_ff @(posedge clk_i) past_valid_q <= 1'b1;
  always_comb if (!past_valid_q) assume (!rst_ni);

  // ---- Shadow ledger.
  logic [W-1:0]     rsv_total_q;
  logic [Lines-1:0] held_q;
  logic [W-1:0]     held_cnt;
  wire rsv_fire  = rsv_valid_i && rsv_ready_o;
  wire take_fire = take_valid_i && take_ready_o;

  always_comb begin
    held_cnt = '0;
    for (int unsigned l = 0; l < Lines; l++) held_cnt = held_cnt + W'(held_q[l]);
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rsv_total_q <= '0;
      held_q      <= '0;
    end else begin
      rsv_total_q <= rsv_total_q + (rsv_fire ? W'(rsv_lines_i) : '0)
                                 - (refund_valid_i ? W'(refund_lines_i) : '0);
      if (take_fire) held_q[take_line_o] <= 1'b1;
      if (rel_valid_i) held_q[rel_line_i] <= 1'b0;
    end
  end

  // ---- The owner contract (assumed).
  // The reservation is a request the allocator grants or not each cycle (the dispatch stage
  // withdraws it when its op expires): no stream rule is assumed on it.

  always_comb if (rst_ni) begin
    if (rsv_valid_i) assume (32'(rsv_lines_i) <= MaxOpLines);
    if (refund_valid_i) assume (32'(refund_lines_i) <= MaxOpLines);
    // Bound lines never exceed the reservations; a line released this cycle counts as free.
    assume (held_cnt + W'(take_valid_i) + (refund_valid_i ? W'(refund_lines_i) : '0)
            <= rsv_total_q + W'(rel_valid_i));
    if (rel_valid_i) assume (32'(rel_line_i) < Lines && held_q[rel_line_i]);
  end

  // ---- Accounting.
  logic [CountWidth-1:0] f_cnt;
  logic [AddrW-1:0]      f_rptr;
  logic [LineWidth-1:0]  f_mem  [Depth];
  logic                  f_live [Depth];
  logic [AddrW-1:0]      f_wptr;
  assign f_cnt  = u_pool.count_q;
  assign f_rptr = u_pool.rptr_q;
  assign f_wptr = u_pool.wptr_q;
  for (genvar a = 0; a < Depth; a++) begin : g_mem
    logic [AddrW:0] qpos;
    assign f_mem[a]  = u_pool.mem_q[a];
    assign qpos      = (AddrW'(a) >= f_rptr) ? (AddrW+1)'(a) - (AddrW+1)'(f_rptr)
                                             : (AddrW+1)'(a + Depth) - (AddrW+1)'(f_rptr);
    assign f_live[a] = 32'(qpos) < 32'(f_cnt);
  end

  always_comb if (rst_ni) begin
    // Bounds first: with them the sums below cannot wrap.
    assert (32'(credit_q) <= Lines);
    assert (32'(rsv_total_q) <= Lines);
    assert (32'(f_cnt) <= Depth);
    assert (32'(f_rptr) < Depth && 32'(f_wptr) < Depth);
    assert (W'(credit_q) + rsv_total_q == W'(Lines));
    assert (credit_o == credit_q);
    assert (rsv_ready_o == (32'(credit_q) >= AdmitLines));
    assert (admit_q == rsv_ready_o);
    assert (32'(fresh_q) <= Lines);
    // The pool FIFO's own pointer invariant (its proof states it in onerma_fifo_props.sv).
    assert (32'(f_wptr) == (32'(f_rptr) + 32'(f_cnt)) % Depth);
    // The pool (never-used lines and the FIFO) holds exactly the unbound lines.
    assert (W'(Lines) - W'(fresh_q) + W'(f_cnt) == W'(Lines) - held_cnt);
    // Every line handed out so far is either bound or in the FIFO, once.
    for (int unsigned l = 0; l < Lines; l++) begin
      if (held_q[l]) assert (32'(l) < 32'(fresh_q));
    end
    for (int unsigned a = 0; a < Depth; a++) begin
      if (f_live[a]) begin
        assert (32'(f_mem[a]) < 32'(fresh_q));
        assert (!held_q[f_mem[a]]);
        for (int unsigned b = 0; b < Depth; b++) begin
          if (b != a && f_live[b]) assert (f_mem[a] != f_mem[b]);
        end
      end
    end
    // Never over-allocated: only a same-cycle release can leave a take waiting (one cycle).
    if (take_valid_i && !take_ready_o) assert (rel_valid_i);
    if (take_fire) assert (32'(take_line_o) < Lines && !held_q[take_line_o]);
    if (rel_valid_i) assert (fifo_in_ready);
    assert (idle_o == (rsv_total_q == '0 && held_cnt == '0));
  end

  // ---- Reachability.
  logic was_busy_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) was_busy_q <= 1'b0;
    else if (!idle_o) was_busy_q <= 1'b1;
  end
  always_comb if (rst_ni) begin
    cover (take_fire && fresh_q == CountWidth'(Lines));  // a recycled line handed out again
    cover (credit_q == '0);
    cover (rsv_valid_i && !rsv_ready_o);
    cover (take_valid_i && !take_ready_o);
    cover (was_busy_q && idle_o && fresh_q == CountWidth'(Lines));
  end

endmodule

bind onerma_window_alloc onerma_window_alloc_props #(
  .Lines     (Lines),
  .AdmitLines(AdmitLines),
  .MaxOpLines(MaxOpLines),
  .LineWidth (LineWidth),
  .CountWidth(CountWidth),
  .OpWidth   (OpWidth)
) u_props (.*);
`endif

`default_nettype wire
