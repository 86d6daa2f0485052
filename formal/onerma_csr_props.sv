`default_nettype none

// Properties of onerma_csr's AXI4-Lite slave port, bound into it when FORMAL is defined.
//
// The port's contract is onerma_axil_check with Master = 0: the AXI4-Lite master's rules are
// assumed (handshake rules on AW, W and AR; VALID low in reset; at most MaxOut unanswered per
// channel, more than the block can hold: one AW and one W in the write guard, three ARs in the
// generated cpuif's request register and response buffer), and the slave's are asserted:
// BVALID / RVALID low in reset, held with a stable response until READY, a B only for an AW and
// a W not yet answered, an R only for an AR not yet answered (one response per request).
// The configuration inputs (slot_busy_i, counters, err_set_i, rrt_quiesce_i, msg_count_i) are
// free. The invariants below tie the checker's counters to the write guard and to the
// generated regblock's AXI4-Lite cpuif (its request registers and two-entry response buffer;
// the regblock answers a request in the cycle it takes it), which is what k-induction needs.
`ifdef FORMAL
module onerma_csr_props #(
  parameter int unsigned AddrWidth = 9
) (
  input logic                 clk_i,
  input logic                 rst_ni,
  input logic                 s_axil_awvalid_i,
  input logic                 s_axil_awready_o,
  input logic [AddrWidth-1:0] s_axil_awaddr_i,
  input logic                 s_axil_wvalid_i,
  input logic                 s_axil_wready_o,
  input logic [31:0]          s_axil_wdata_i,
  input logic [3:0]           s_axil_wstrb_i,
  input logic                 s_axil_bvalid_o,
  input logic                 s_axil_bready_i,
  input logic [1:0]           s_axil_bresp_o,
  input logic                 s_axil_arvalid_i,
  input logic                 s_axil_arready_o,
  input logic [AddrWidth-1:0] s_axil_araddr_i,
  input logic                 s_axil_rvalid_o,
  input logic                 s_axil_rready_i,
  input logic [31:0]          s_axil_rdata_o,
  input logic [1:0]           s_axil_rresp_o,
  // Internal state (invariants).
  input logic                 aw_full_q,
  input logic                 w_full_q,
  input logic                 aw_sent_q,
  input logic                 w_sent_q
);

  localparam int unsigned MaxOut = 4;
  localparam int unsigned CntW   = $clog2(MaxOut + 1);

  logic past_valid_q = 1'b0;
  always_ff @(posedge clk_i) past_valid_q <= 1'b1;
  always_comb if (!past_valid_q) assume (!rst_ni);

  logic [CntW-1:0] f_aw, f_w, f_ar;

  onerma_axil_check #(
    .AddrWidth(AddrWidth),
    .DataWidth(32),
    .Master   (1'b0),
    .MaxOut   (MaxOut)
  ) u_axil (
    .clk_i,
    .rst_ni,
    .awvalid_i(s_axil_awvalid_i),
    .awready_i(s_axil_awready_o),
    .awaddr_i (s_axil_awaddr_i),
    .wvalid_i (s_axil_wvalid_i),
    .wready_i (s_axil_wready_o),
    .wdata_i  (s_axil_wdata_i),
    .wstrb_i  (s_axil_wstrb_i),
    .bvalid_i (s_axil_bvalid_o),
    .bready_i (s_axil_bready_i),
    .bresp_i  (s_axil_bresp_o),
    .arvalid_i(s_axil_arvalid_i),
    .arready_i(s_axil_arready_o),
    .araddr_i (s_axil_araddr_i),
    .rvalid_i (s_axil_rvalid_o),
    .rready_i (s_axil_rready_i),
    .rdata_i  (s_axil_rdata_o),
    .rresp_i  (s_axil_rresp_o),
    .aw_out_o (f_aw),
    .w_out_o  (f_w),
    .ar_out_o (f_ar)
  );

  // ---- Invariants: the guard and the regblock's cpuif against the checker's counts.
  // onerma_csr's guard_e encoding: GuardIdle = 0, GuardFwd = 1, GuardErr = 2.
  logic [1:0] f_state;
  assign f_state = 2'(onerma_csr.state_q);

  logic [1:0] f_nbuf;       // entries in the regblock's response buffer
  logic [1:0] f_nbuf_wr, f_nbuf_rd;
  logic       f_rb_awv, f_rb_wv, f_rb_arv;
  assign f_nbuf   = onerma_csr.u_regs.axil_resp_wptr - onerma_csr.u_regs.axil_resp_rptr;
  assign f_rb_awv = onerma_csr.u_regs.axil_awvalid;
  assign f_rb_wv  = onerma_csr.u_regs.axil_wvalid;
  assign f_rb_arv = onerma_csr.u_regs.axil_arvalid;
  always_comb begin
    f_nbuf_wr = '0;
    f_nbuf_rd = '0;
    for (int unsigned i = 0; i < 2; i++) begin
      if (i < 32'(f_nbuf)) begin
        if (onerma_csr.u_regs.axil_resp_buffer_is_wr[(32'(onerma_csr.u_regs.axil_resp_rptr) + i) % 2]) begin
          f_nbuf_wr = f_nbuf_wr + 2'd1;
        end else begin
          f_nbuf_rd = f_nbuf_rd + 2'd1;
        end
      end
    end
  end

  always_comb if (rst_ni) begin
    assert (f_state != 2'd3);
    // The regblock: requests answered in the cycle they are taken, so its in-flight count is
    // its response buffer's fill.
    assert (f_nbuf <= 2'd2);
    assert (onerma_csr.u_regs.axil_n_in_flight == f_nbuf);
    // Writes: the guard holds the one unanswered AW and W.
    assert (32'(f_aw) == 32'(aw_full_q));
    assert (32'(f_w) == 32'(w_full_q));
    if (f_state != 2'd0) assert (aw_full_q && w_full_q);
    if (f_state == 2'd1) begin
      assert (f_nbuf_wr <= 2'd1);
      if (f_nbuf_wr != '0) begin
        assert (aw_sent_q && w_sent_q && !f_rb_awv && !f_rb_wv);
      end else begin
        assert (f_rb_awv == aw_sent_q && f_rb_wv == w_sent_q);
      end
    end else begin
      assert (f_nbuf_wr == '0 && !f_rb_awv && !f_rb_wv && !aw_sent_q && !w_sent_q);
    end
    // Reads: the cpuif's request register and the buffer's read entries.
    assert (32'(f_ar) == 32'(f_rb_arv) + 32'(f_nbuf_rd));
  end

  // ---- Reachability.
  always_comb if (rst_ni) begin
    cover (s_axil_bvalid_o && s_axil_bready_i && s_axil_bresp_o == 2'b00);
    cover (s_axil_bvalid_o && s_axil_bready_i && s_axil_bresp_o == 2'b10);
    cover (s_axil_rvalid_o && s_axil_rready_i && f_ar == 3);
    cover (s_axil_bvalid_o && !s_axil_bready_i && f_ar != 0);
    cover (s_axil_rvalid_o && f_nbuf_wr != 0);
  end

endmodule

bind onerma_csr onerma_csr_props #(
  .AddrWidth(AddrWidth)
) u_props (.*);
`endif

`default_nettype wire
