`default_nettype none

// Properties of onerma_class_arb, bound into every instance when FORMAL is defined.
`ifdef FORMAL
module onerma_class_arb_props #(
  parameter int unsigned NumClasses  = 4,
  parameter int unsigned MaxStarve   = 0,
  parameter int unsigned Width       = 8,
  parameter int unsigned IdxWidth    = 2,
  parameter int unsigned StarveWidth = 1
) (
  input logic                                   clk_i,
  input logic                                   rst_ni,
  input logic [NumClasses-1:0]                  in_valid_i,
  input logic [NumClasses-1:0]                  in_ready_o,
  input logic [NumClasses-1:0][Width-1:0]       in_data_i,
  input logic                                   out_valid_o,
  input logic                                   out_ready_i,
  input logic [Width-1:0]                       out_data_o,
  input logic [IdxWidth-1:0]                    out_idx_o,
  input logic                                   lock_q,
  input logic [IdxWidth-1:0]                    lock_idx_q,
  input logic [IdxWidth-1:0]                    sptr_q,
  input logic [NumClasses-1:0][StarveWidth-1:0] starve_q,
  input logic [NumClasses-1:0]                  starve_req
);

  localparam int unsigned N = NumClasses;

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

  // ---- Stream rules: assumed on every class, asserted on the output (the index travels with
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

  // ---- Reference "passed over in a row" counters, written from the spec, not the RTL signals.
  logic [N-1:0][7:0] ref_pass_q;
  for (genvar c = 0; c < N; c++) begin : g_ref
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) ref_pass_q[c] <= '0;
      else if (!in_valid_i[c] || (xfer && 32'(out_idx_o) == c)) ref_pass_q[c] <= '0;
      else if (xfer && 32'(ref_pass_q[c]) < MaxStarve) ref_pass_q[c] <= ref_pass_q[c] + 1'b1;
    end
  end

  logic [N-1:0] ref_starving;
  for (genvar c = 0; c < N; c++) begin : g_starving
    assign ref_starving[c] = MaxStarve > 0 && in_valid_i[c] && 32'(ref_pass_q[c]) == MaxStarve;
  end

  // ---- Grant and output.
  always_comb if (rst_ni) begin
    assert (32'(out_idx_o) < N);
    assert (out_valid_o == (|in_valid_i));
    if (out_valid_o) assert (in_valid_i[out_idx_o]);
    assert (in_ready_o == (N'(xfer) << out_idx_o));
    assert ($onehot0(in_ready_o));
    assert (out_data_o == in_data_i[out_idx_o]);
    assert (32'(sptr_q) < N);
    assert (32'(lock_idx_q) < N);
    assert (starve_req == ref_starving);
    for (int c = 0; c < N; c++) begin
      assert (32'(ref_pass_q[c]) <= MaxStarve);
      assert (32'(starve_q[c]) == 32'(ref_pass_q[c]));
    end
    // Policy on fresh decisions: starving classes first; otherwise the lowest valid index.
    if (out_valid_o && !lock_q) begin
      if (|ref_starving) begin
        assert (ref_starving[out_idx_o]);
      end else begin
        for (int j = 0; j < N; j++) if (j < 32'(out_idx_o)) assert (!in_valid_i[j]);
      end
    end
  end

  always_comb if (live) begin
    assert (lock_q == past_out_stall_q);
    if (lock_q) assert (lock_idx_q == past_out_idx_q);
  end

  // ---- Bounded wait (MaxStarve > 0): a class that holds valid sees at most
  // MaxStarve + NumClasses - 1 transfers to other classes. `f` is any class.
  logic [IdxWidth-1:0] f;
  always_ff @(posedge clk_i) f <= f;
  always_comb assume (32'(f) < N);

  logic       active_q;
  logic [7:0] cnt_q;
  wire        other_xfer = xfer && out_idx_o != f;
  wire  [7:0] cur_cnt    = active_q ? cnt_q : 8'd0;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      active_q <= 1'b0;
      cnt_q    <= '0;
    end else begin
      active_q <= in_valid_i[f] && !(xfer && out_idx_o == f);
      cnt_q    <= cur_cnt + 8'(other_xfer && in_valid_i[f]);
    end
  end

  if (MaxStarve > 0) begin : g_bound
    always_comb if (rst_ni && active_q) begin
      assert (32'(cnt_q) <= MaxStarve + N - 1);
      if (32'(cnt_q) < MaxStarve) begin
        assert (32'(ref_pass_q[f]) == 32'(cnt_q));
      end else begin
        assert (32'(ref_pass_q[f]) == MaxStarve);
        assert (32'(cnt_q) - MaxStarve + fwd(f, sptr_q) <= N - 1);
        if (lock_q && lock_idx_q != f) begin
          assert (ref_starving[lock_idx_q]);
          assert (fwd(lock_idx_q, sptr_q) < fwd(f, sptr_q));
        end
      end
    end
    always_comb if (rst_ni) begin
      // Anti-starvation actually fires: a lower class wins while class 0 waits.
      cover (xfer && out_idx_o != '0 && in_valid_i[0]);
      // A starving class waits behind another starving one (round-robin among them). The
      // bound above is not tight for every configuration (e.g. 3 classes, MaxStarve 2: at most
      // 3), so the cover asks for one round-robin step, not the full bound.
      cover (active_q && 32'(cnt_q) == MaxStarve + 1 && xfer && out_idx_o == f);
    end
  end else begin : g_strict
    always_comb if (rst_ni) cover (xfer && 32'(out_idx_o) == N - 1);
  end
  always_comb if (rst_ni && lock_q && lock_idx_q == f) assert (active_q);

endmodule

bind onerma_class_arb onerma_class_arb_props #(
  .NumClasses (NumClasses),
  .MaxStarve  (MaxStarve),
  .Width      ($bits(T)),
  .IdxWidth   (IdxWidth),
  .StarveWidth(StarveWidth)
) u_props (.*);
`endif

`default_nettype wire
