`default_nettype none

// Properties of onerma_cmd_bgate (the command port's B at the NIC edge), bound into it when
// FORMAL is defined.
//
// Assumed (what formal/onerma_cmd_port.sby proves of the command port, and the submission
// checks' timing): the command port's B and its submission stream keep the stream rule and are
// idle in reset; a verdict (bad_cq_i or acc_valid_i, never both) comes only for a submission
// taken and not yet decided.
//
// Asserted: the edge's B keeps the AXI4 rules (idle in reset, BVALID held with a stable BRESP
// until BREADY: onerma_stream_check); every edge transfer is exactly a transfer of the command
// port's B; a B is first offered only while no submission is offered or undecided (so its
// doorbell's verdict is known); at its first offer its response is SLVERR iff a drop came since
// the last B that carried one, else the command port's.
`ifdef FORMAL
module onerma_cmd_bgate_props (
  input logic       clk_i,
  input logic       rst_ni,
  input logic       cp_bvalid_i,
  input logic       cp_bready_o,
  input logic [1:0] cp_bresp_i,
  input logic       sub_valid_i,
  input logic       sub_ready_i,
  input logic       bad_cq_i,
  input logic       acc_valid_i,
  input logic       s_axi_bvalid_o,
  input logic       s_axi_bready_i,
  input logic [1:0] s_axi_bresp_o,
  // Internal state (invariants).
  input logic       verdict_q,
  input logic       bad_q,
  input logic       shown_q,
  input logic       shown_bad_q
);

  logic past_valid_q = 1'b0;
  always_ff @(posedge clk_i) past_valid_q <= 1'b1;
  always_comb if (!past_valid_q) assume (!rst_ni);

  // ---- Environment.
  onerma_stream_check #(.Width(2), .Assume(1'b1)) u_cp_b (
    .clk_i, .rst_ni, .valid_i(cp_bvalid_i), .ready_i(cp_bready_o), .data_i(cp_bresp_i));
  onerma_stream_check #(.Width(1), .Assume(1'b1)) u_sub (
    .clk_i, .rst_ni, .valid_i(sub_valid_i), .ready_i(sub_ready_i), .data_i(1'b0));
  always_comb if (!rst_ni) assume (!cp_bvalid_i && !sub_valid_i);

  logic f_pend_q, f_bad_q, f_held_q, f_off_bad_q, f_new_b, f_fire, f_off_bad;
  assign f_new_b   = s_axi_bvalid_o && !f_held_q;
  assign f_fire    = s_axi_bvalid_o && s_axi_bready_i;
  assign f_off_bad = f_held_q ? f_off_bad_q : f_bad_q;  // the drop flag the B was offered with

  always_comb if (rst_ni) begin
    if (bad_cq_i || acc_valid_i) assume (f_pend_q && !(bad_cq_i && acc_valid_i));
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      f_pend_q    <= 1'b0;
      f_bad_q     <= 1'b0;
      f_held_q    <= 1'b0;
      f_off_bad_q <= 1'b0;
    end else begin
      if (sub_valid_i && sub_ready_i) f_pend_q <= 1'b1;
      else if (bad_cq_i || acc_valid_i) f_pend_q <= 1'b0;
      if (bad_cq_i) f_bad_q <= 1'b1;
      else if (f_fire && f_off_bad) f_bad_q <= 1'b0;
      f_held_q    <= s_axi_bvalid_o && !s_axi_bready_i;
      f_off_bad_q <= f_off_bad;
    end
  end

  // ---- The edge's AXI4 B rules.
  onerma_stream_check #(.Width(2), .Assume(1'b0)) u_b (
    .clk_i, .rst_ni, .valid_i(s_axi_bvalid_o), .ready_i(s_axi_bready_i), .data_i(s_axi_bresp_o));
  always_comb if (!rst_ni) assert (!s_axi_bvalid_o);

  always_comb if (rst_ni) begin
    if (s_axi_bvalid_o) assert (cp_bvalid_i);
    assert (f_fire == (cp_bvalid_i && cp_bready_o));
    if (f_new_b) begin
      assert (!sub_valid_i && !f_pend_q);
      assert (s_axi_bresp_o == (f_bad_q ? 2'b10 : cp_bresp_i));
    end
  end

  // ---- Invariants (k-induction).
  always_comb if (rst_ni) begin
    assert (verdict_q == f_pend_q && bad_q == f_bad_q && shown_q == f_held_q);
    if (f_held_q) assert (shown_bad_q == f_off_bad_q);
  end

  // ---- Reachability.
  always_comb if (rst_ni) begin
    cover (f_fire && s_axi_bresp_o == 2'b10 && cp_bresp_i == 2'b00);
    cover (f_held_q && sub_valid_i);                // a doorbell taken while a B waits
    cover (f_held_q && bad_cq_i && !s_axi_bresp_o[1]); // a drop while an OKAY B waits
    cover (f_new_b && f_bad_q && past_valid_q);
  end

endmodule

bind onerma_cmd_bgate onerma_cmd_bgate_props u_props (.*);
`endif

`default_nettype wire
