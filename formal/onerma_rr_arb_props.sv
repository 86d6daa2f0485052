`default_nettype none

// Properties of onerma_rr_arb, bound into every instance when FORMAL is defined.
`ifdef FORMAL
module onerma_rr_arb_props #(
  parameter int unsigned N        = 4,
  parameter int unsigned Width    = 8,
  parameter int unsigned IdxWidth = 2
) (
  input logic                       clk_i,
  input logic                       rst_ni,
  input logic [N-1:0]               in_valid_i,
  input logic [N-1:0]               in_ready_o,
  input logic [N-1:0][Width-1:0]    in_data_i,
  input logic                       out_valid_o,
  input logic                       out_ready_i,
  input logic [Width-1:0]           out_data_o,
  input logic [IdxWidth-1:0]        out_idx_o,
  input logic [IdxWidth-1:0]        ptr_q,
  input logic                       lock_q,
  input logic [IdxWidth-1:0]        lock_idx_q
);

  // Cyclic distance from `p` forward to `a`: how many inputs the search visits before `a`.
  function automatic int unsigned fwd(input logic [IdxWidth-1:0] a,
                                      input logic [IdxWidth-1:0] p);
    return (a >= p) ? 32'(a) - 32'(p) : 32'(a) + N - 32'(p);
  endfunction

  // Formal-only initial value: marks the first cycle so the reset assumption can hold there.
  logic past_valid_q = 1'b0;
  logic past_rst_q;
  logic past_out_stall_q;
  logic [IdxWidth-1:0] past_out_idx_q;

  always_ff @(posedge clk_i) begin
    past_valid_q     <= 1'b1;
    past_rst_q       <= rst_ni;
    past_out_stall_q <= out_valid_o && !out_ready_i;
    past_out_idx_q   <= out_idx_o;
  end

  always_comb if (!past_valid_q) assume (!rst_ni);

  wire live = past_valid_q && rst_ni && past_rst_q;
  wire xfer = out_valid_o && out_ready_i;

  // ---- Stream rules: assumed on every input, asserted on the output (the index travels with
  // the data, so it is part of the checked payload).
  onerma_arb_check #(
    .N       (N),
    .Width   (Width),
    .IdxWidth(IdxWidth),
    .InAssume(1'b1)
  ) u_rules (
    .clk_i,
    .rst_ni,
    .in_valid_i,
    .in_ready_i (in_ready_o),
    .in_data_i,
    .out_valid_i(out_valid_o),
    .out_ready_i,
    .out_idx_i  (out_idx_o),
    .out_data_i (out_data_o)
  );

  // ---- Grant and output.
  always_comb if (rst_ni) begin
    assert (32'(out_idx_o) < N);
    // Work conserving, and a grant only goes to a valid requester.
    assert (out_valid_o == (|in_valid_i));
    if (out_valid_o) assert (in_valid_i[out_idx_o]);
    // Exactly the granted input sees ready, and only on a transfer: one-hot or zero.
    assert (in_ready_o == (N'(xfer) << out_idx_o));
    assert ($onehot0(in_ready_o));
    assert (out_data_o == in_data_i[out_idx_o]);
    // Internal state the induction relies on.
    assert (32'(ptr_q) < N);
    assert (32'(lock_idx_q) < N);
  end

  always_comb if (live) begin
    assert (lock_q == past_out_stall_q);
    if (lock_q) assert (lock_idx_q == past_out_idx_q);
  end

  // ---- Bounded wait for one symbolic input `f` (self-holding register = any constant).
  // Counts transfers to other inputs while `f` keeps valid high. The grant that was already
  // frozen on the output when `f` raised valid was decided without `f`, so it is not counted
  // (`skip`); every grant decided while `f` waits is, and there are at most N-1 of those.
  logic [IdxWidth-1:0] f;
  always_ff @(posedge clk_i) f <= f;
  always_comb assume (32'(f) < N);

  logic active_q, skip_q;
  logic [IdxWidth:0] cnt_q;
  logic              start, cur_skip, other_xfer;
  logic [IdxWidth:0] cur_cnt;

  assign start      = in_valid_i[f] && !active_q;
  assign cur_skip   = start ? (lock_q && lock_idx_q != f) : skip_q;
  assign cur_cnt    = start ? '0 : cnt_q;
  assign other_xfer = xfer && out_idx_o != f;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      active_q <= 1'b0;
      skip_q   <= 1'b0;
      cnt_q    <= '0;
    end else begin
      active_q <= in_valid_i[f] && !(xfer && out_idx_o == f);
      skip_q   <= cur_skip && !other_xfer;
      cnt_q    <= cur_cnt + (IdxWidth+1)'(other_xfer && !cur_skip);
    end
  end

  always_comb if (rst_ni && active_q) begin
    assert (32'(cnt_q) <= N - 1);
    if (skip_q) begin
      assert (lock_q && lock_idx_q != f && cnt_q == '0);
    end else begin
      assert (32'(cnt_q) + fwd(f, ptr_q) <= N - 1);
      if (lock_q && lock_idx_q != f) assert (fwd(lock_idx_q, ptr_q) < fwd(f, ptr_q));
    end
  end
  always_comb if (rst_ni && lock_q && lock_idx_q == f) assert (active_q);

  // ---- Cover: the bound is reached (it is tight), and an input is granted back to back.
  always_comb if (rst_ni) begin
    cover (active_q && 32'(cnt_q) == N - 1 && xfer && out_idx_o == f);
    cover (live && past_out_stall_q && xfer);
  end

endmodule

bind onerma_rr_arb onerma_rr_arb_props #(
  .N       (N),
  .Width   ($bits(T)),
  .IdxWidth(IdxWidth)
) u_props (.*);
`endif

`default_nettype wire
