`default_nettype none

/// The command port's B channel at the NIC edge (docs/nic.md "The NIC top"): protocol §2.2, a
/// command dropped for its completion region is answered SLVERR.
///
/// The command port answers a burst from the cycle after its last beat, when the doorbell's
/// submission is offered, and the submission checks decide 1-3 cycles later: a B not yet offered
/// waits while a submission is offered or undecided, and a drop turns the next B offered into
/// SLVERR. (A doorbell on a beat before its burst's last, a torn write, is decided before that
/// burst's B too.)
///
/// AXI4: a B once offered stays offered, with the same response, until BREADY, whatever
/// submission follows (a later burst's doorbell beat may be taken while the B waits); a verdict
/// that comes while it waits applies to the next B.
module onerma_cmd_bgate (
  input  logic       clk_i,
  input  logic       rst_ni,
  // The command port's B.
  input  logic       cp_bvalid_i,
  output logic       cp_bready_o,
  input  logic [1:0] cp_bresp_i,
  // Its submission stream and the submission checks' verdict.
  input  logic       sub_valid_i,
  input  logic       sub_ready_i,
  input  logic       bad_cq_i,
  input  logic       acc_valid_i,
  // The edge.
  output logic       s_axi_bvalid_o,
  input  logic       s_axi_bready_i,
  output logic [1:0] s_axi_bresp_o
);

  logic verdict_q, bad_q, shown_q, shown_bad_q, b_hold, b_bad, b_fire;

  assign b_hold         = (sub_valid_i || verdict_q) && !shown_q;
  assign b_bad          = shown_q ? shown_bad_q : bad_q;
  assign b_fire         = s_axi_bvalid_o && s_axi_bready_i;
  assign s_axi_bvalid_o = cp_bvalid_i && !b_hold;
  assign cp_bready_o    = s_axi_bready_i && !b_hold;
  assign s_axi_bresp_o  = b_bad ? 2'b10 : cp_bresp_i;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      verdict_q   <= 1'b0;
      bad_q       <= 1'b0;
      shown_q     <= 1'b0;
      shown_bad_q <= 1'b0;
    end else begin
      if (sub_valid_i && sub_ready_i) verdict_q <= 1'b1;
      else if (bad_cq_i || acc_valid_i) verdict_q <= 1'b0;
      if (bad_cq_i) bad_q <= 1'b1;
      else if (b_fire && b_bad) bad_q <= 1'b0;
      shown_q     <= s_axi_bvalid_o && !s_axi_bready_i;
      shown_bad_q <= b_bad;
    end
  end

endmodule

`default_nettype wire
