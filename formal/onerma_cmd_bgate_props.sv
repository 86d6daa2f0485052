`default_nettype none

// Properties of onerma_cmd_bgate (the command port's B at the NIC edge), bound into it when
// FORMAL is defined.
//
// Assumed (what formal/onerma_cmd_port.sby proves of the command port, and the submission
// checks' timing): the command port's B and its submission stream keep the stream rule and are
// idle in reset; a verdict (bad_cq_i or acc_valid_i, never both) comes only for a submission
// taken and not yet decided; at most two submissions are first offered between two B handshakes
// of the port (a burst has at most one doorbell, and a burst's last beat waits for the port's B
// register, so only a later burst's torn doorbell can come before the B is taken).
//
// Asserted, against shadows fed by the ports: the edge's B keeps the AXI4 rules (idle in reset,
// BVALID held with a stable BRESP and BID until BREADY: onerma_stream_check); the edge's B
// transfers are the port's B transfers (BID and response), in order, none lost or added; a B is offered only once the verdicts of
// every submission first offered up to the cycle its port B was taken are in; its response is
// SLVERR iff one of the verdicts it carries (those submissions, less the earlier Bs') was a
// drop, else the port's.
`ifdef FORMAL
module onerma_cmd_bgate_props #(
  parameter int unsigned Depth   = 4,
  parameter int unsigned IdWidth = 4,
  parameter int unsigned VqBits  = 12,
  parameter int unsigned VqW     = 4
) (
  input logic              clk_i,
  input logic              rst_ni,
  input logic              cp_bvalid_i,
  input logic              cp_bready_o,
  input logic [1:0]        cp_bresp_i,
  input logic [IdWidth-1:0] cp_bid_i,
  input logic              sub_valid_i,
  input logic              sub_ready_i,
  input logic              bad_cq_i,
  input logic              acc_valid_i,
  input logic              s_axi_bvalid_o,
  input logic              s_axi_bready_i,
  input logic [1:0]        s_axi_bresp_o,
  input logic [IdWidth-1:0] s_axi_bid_o,
  // Internal state (invariants).
  input logic              sub_held_q,
  input logic [1:0]        since_q,
  input logic [VqBits-1:0] vq_bits_q,
  input logic [VqW-1:0]    vq_n_q
);

  localparam int unsigned CW = 8;  // shadow counts, mod 256 (differences stay below 2 * Depth + 3)
  localparam int unsigned HB = 64; // verdict history, indexed by verdict number mod 64

  logic past_valid_q = 1'b0;
  always_ff @(posedge clk_i) past_valid_q <= 1'b1;
  always_comb if (!past_valid_q) assume (!rst_ni);

  // ---- Environment.
  onerma_stream_check #(.Width(IdWidth + 2), .Assume(1'b1)) u_cp_b (
    .clk_i, .rst_ni, .valid_i(cp_bvalid_i), .ready_i(cp_bready_o), .data_i({cp_bid_i, cp_bresp_i}));
  onerma_stream_check #(.Width(1), .Assume(1'b1)) u_sub (
    .clk_i, .rst_ni, .valid_i(sub_valid_i), .ready_i(sub_ready_i), .data_i(1'b0));
  always_comb if (!rst_ni) assume (!cp_bvalid_i && !sub_valid_i);

  logic          f_held_sub_q, f_sub_new, f_cp_fire, f_fire, f_held_q;
  logic [1:0]    f_since_q;
  logic [CW-1:0] f_first_q, f_taken_q, f_dec_q, f_cons_q;
  logic [HB-1:0] f_drop_q;
  // Port Bs taken and not yet out at the edge, oldest first: response and the count of
  // submissions first offered up to its cycle.
  logic [1:0]    f_resp_q [Depth + 1];
  logic [IdWidth-1:0] f_id_q [Depth + 1];
  logic [CW-1:0] f_need_q [Depth + 1];
  logic [3:0]    f_qn_q;

  assign f_sub_new = sub_valid_i && !f_held_sub_q;
  assign f_cp_fire = cp_bvalid_i && cp_bready_o;
  assign f_fire    = s_axi_bvalid_o && s_axi_bready_i;

  always_comb if (rst_ni) begin
    if (bad_cq_i || acc_valid_i) assume (f_taken_q != f_dec_q && !(bad_cq_i && acc_valid_i));
    if (f_sub_new) assume (f_since_q < 2'd2);
  end

  // The verdicts the head carries: numbers f_cons_q .. f_need_q[0] - 1; one of them a drop.
  logic f_head_bad;
  always_comb begin
    f_head_bad = 1'b0;
    for (int unsigned i = 0; i < 4; i++) begin
      if (CW'(i) < f_need_q[0] - f_cons_q && f_drop_q[6'(f_cons_q + CW'(i))]) f_head_bad = 1'b1;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      f_held_sub_q <= 1'b0;
      f_since_q    <= '0;
      f_first_q    <= '0;
      f_taken_q    <= '0;
      f_dec_q      <= '0;
      f_cons_q     <= '0;
      f_qn_q       <= '0;
      f_held_q     <= 1'b0;
    end else begin
      f_held_sub_q <= sub_valid_i && !sub_ready_i;
      f_since_q    <= f_cp_fire ? 2'd0 : f_since_q + 2'(f_sub_new);
      f_first_q    <= f_first_q + CW'(f_sub_new);
      f_taken_q    <= f_taken_q + CW'(sub_valid_i && sub_ready_i);
      f_dec_q      <= f_dec_q + CW'(bad_cq_i || acc_valid_i);
      f_held_q     <= s_axi_bvalid_o && !s_axi_bready_i;
      if (f_fire) f_cons_q <= f_need_q[0];
      f_qn_q <= f_qn_q + 4'(f_cp_fire) - 4'(f_fire);
    end
  end
  always_ff @(posedge clk_i) begin
    if (bad_cq_i || acc_valid_i) f_drop_q[6'(f_dec_q)] <= bad_cq_i;
    for (int unsigned i = 0; i < Depth + 1; i++) begin
      if (f_fire) begin
        if (i + 1 < Depth + 1) begin
          f_resp_q[i] <= f_resp_q[i + 1];
          f_id_q[i]   <= f_id_q[i + 1];
          f_need_q[i] <= f_need_q[i + 1];
        end
      end
    end
    if (f_cp_fire) begin
      f_resp_q[4'(f_qn_q) - 4'(f_fire)] <= cp_bresp_i;
      f_id_q[4'(f_qn_q) - 4'(f_fire)]   <= cp_bid_i;
      f_need_q[4'(f_qn_q) - 4'(f_fire)] <= f_first_q + CW'(f_sub_new);
    end
  end

  // ---- The edge's AXI4 B rules and its responses.
  onerma_stream_check #(.Width(IdWidth + 2), .Assume(1'b0)) u_b (
    .clk_i, .rst_ni, .valid_i(s_axi_bvalid_o), .ready_i(s_axi_bready_i),
    .data_i({s_axi_bid_o, s_axi_bresp_o}));
  always_comb if (!rst_ni) assert (!s_axi_bvalid_o);

  always_comb if (rst_ni) begin
    assert (32'(f_qn_q) <= Depth);
    if (s_axi_bvalid_o) begin
      assert (f_qn_q != '0);
      // Every submission first offered up to its port B's cycle is decided.
      assert (f_dec_q - f_cons_q >= f_need_q[0] - f_cons_q);
      assert (s_axi_bresp_o == (f_head_bad ? 2'b10 : f_resp_q[0]));
      assert (s_axi_bid_o == f_id_q[0]);
    end
  end

  // ---- Invariants (k-induction): the design's state is the shadows'.
  always_comb if (rst_ni) begin
    assert (sub_held_q == f_held_sub_q && since_q == f_since_q);
    assert (f_since_q <= 2'd2);
    assert (32'(onerma_cmd_bgate.u_q.count_q) == 32'(f_qn_q));
    assert (32'(onerma_cmd_bgate.u_q.rptr_q) < Depth);
    assert (onerma_cmd_bgate.u_q.full_q == (32'(onerma_cmd_bgate.u_q.count_q) == Depth));
    assert (onerma_cmd_bgate.u_q.nonempty_q == (onerma_cmd_bgate.u_q.count_q != '0));
    assert (32'(onerma_cmd_bgate.u_q.wptr_q) ==
            (32'(onerma_cmd_bgate.u_q.rptr_q) + 32'(onerma_cmd_bgate.u_q.count_q)) % Depth);
    // Counts: taken <= first offered; decided <= taken; consumed <= decided is not required
    // (a B may wait), but consumed <= every queued need <= first offered.
    assert (f_taken_q - f_cons_q <= f_first_q - f_cons_q);
    assert (f_dec_q - f_cons_q <= f_taken_q - f_cons_q);
    assert (f_first_q - f_taken_q <= CW'(1));
    assert (f_first_q - f_cons_q <= CW'(2 * Depth + 2));
    assert (f_held_sub_q == (f_first_q != f_taken_q));
    assert (CW'(vq_n_q) == f_dec_q - f_cons_q);
    for (int unsigned i = 0; i < VqBits; i++) begin
      if (CW'(i) < f_dec_q - f_cons_q) assert (vq_bits_q[i] == f_drop_q[6'(f_cons_q + CW'(i))]);
      else assert (!vq_bits_q[i]);
    end
    for (int unsigned i = 0; i < Depth; i++) begin
      if (i < 32'(f_qn_q)) begin
        assert (f_need_q[i] - f_cons_q <= f_first_q - f_cons_q);
        assert (onerma_cmd_bgate.u_q.mem_q[(32'(onerma_cmd_bgate.u_q.rptr_q) + i) % Depth].resp ==
                f_resp_q[i]);
        assert (onerma_cmd_bgate.u_q.mem_q[(32'(onerma_cmd_bgate.u_q.rptr_q) + i) % Depth].id ==
                f_id_q[i]);
        if (i == 0) begin
          assert (f_need_q[0] - f_cons_q <= CW'(2));
          assert (CW'(onerma_cmd_bgate.u_q.mem_q[32'(onerma_cmd_bgate.u_q.rptr_q)].subs) ==
                  f_need_q[0] - f_cons_q);
        end else begin
          assert (f_need_q[i] - f_cons_q >= f_need_q[i - 1] - f_cons_q);
          assert (f_need_q[i] - f_need_q[i - 1] <= CW'(2));
          assert (CW'(onerma_cmd_bgate.u_q.mem_q[(32'(onerma_cmd_bgate.u_q.rptr_q) + i) % Depth].subs) ==
                  f_need_q[i] - f_need_q[i - 1]);
        end
      end
    end
    // Submissions first offered since the last port B: those after the youngest queued B.
    if (f_qn_q != '0) assert (f_first_q - f_need_q[f_qn_q - 1'b1] == CW'(f_since_q));
    else assert (f_first_q - f_cons_q == CW'(f_since_q));
    if (f_held_q) assert (s_axi_bvalid_o);
  end

  // ---- Reachability.
  always_comb if (rst_ni) begin
    cover (f_fire && s_axi_bresp_o == 2'b10 && f_resp_q[0] == 2'b00);
    cover (f_held_q && sub_valid_i);                  // a doorbell offered while a B waits
    cover (f_held_q && bad_cq_i && !s_axi_bresp_o[1]); // a drop while an OKAY B waits
    cover (f_qn_q == 4'(Depth) && f_fire);            // the queue full
    cover (f_fire && f_need_q[0] - f_cons_q == CW'(2)); // a B carrying two verdicts
    cover (f_fire && f_need_q[0] == f_cons_q && past_valid_q); // a B carrying none
  end

endmodule

bind onerma_cmd_bgate onerma_cmd_bgate_props #(
  .Depth  (Depth),
  .IdWidth(IdWidth),
  .VqBits(VqBits),
  .VqW   (VqW)
) u_props (.*);
`endif

`default_nettype wire
