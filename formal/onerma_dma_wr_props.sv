`default_nettype none

// Properties of onerma_dma_wr, bound into it when FORMAL is defined.
//
// The AXI4 port's contract is onerma_axi4_check (master side: AW and W rules asserted, B rules
// assumed), tied to the shadows below by invariants.
//
// Environment (assumed): the client request and data streams and the B channel follow the
// stream rule; a request's len is 1..MaxLen (the proof's narrowing); each client numbers its
// requests' tags 0, 1, 2, ...; a B comes only for a burst whose W beats are all done. The RRT
// answer (entry and gen), every ready and the commit pulse are free inputs.
//
// Asserted, with shadows fed by the ports only:
// - every AW, in the first cycle it is offered, follows in the previous cycle a lookup answer of
//   the request's region that passes §4.1 for the whole request (computed here), with no commit
//   in the lookup or the answer cycle; it is the next burst of that request (address and beats
//   of the 4 KB / MaxBurstBeats cut), lies inside the request and the region, does not cross
//   4 KB, and does not come after a failed check of the same request. The answer's expectations
//   are registered in its cycle: the next request may be taken (and looked up) in that cycle,
//   and then the AW must be the answered request's last burst;
// - W: beats only for offered bursts, AWLEN + 1 beats per burst, WLAST exactly on the last;
// - responses: exactly the accepted requests', in order per client (tags), never more;
// - quiesce_o is 0 while a burst offered before the latest commit has no B;
// - stream rules on every output stream (requests' ready side is the arbiter's).
`ifdef FORMAL
module onerma_dma_wr_props #(
  parameter int unsigned NumClients     = 2,
  parameter int unsigned DataWidth      = 128,
  parameter int unsigned AddrWidth      = 64,
  parameter int unsigned IdWidth        = 1,
  parameter int unsigned MaxBurstBeats  = 2,
  parameter int unsigned MaxOutstanding = 2,
  parameter int unsigned TagWidth       = 3,
  parameter int unsigned RrtIdxWidth    = 2,
  parameter int unsigned Bytes          = 16,
  parameter int unsigned ClientWidth    = 1,
  parameter int unsigned MaxLen         = 48
) (
  input logic                                   clk_i,
  input logic                                   rst_ni,
  input logic [NumClients-1:0]                  req_valid_i,
  input logic [NumClients-1:0]                  req_ready_o,
  input logic [NumClients-1:0][AddrWidth-1:0]   req_addr_i,
  input logic [NumClients-1:0][12:0]            req_len_i,
  input logic [NumClients-1:0][RrtIdxWidth-1:0] req_region_i,
  input logic [NumClients-1:0][15:0]            req_gen_i,
  input logic [NumClients-1:0][4:0]             req_perm_i,
  input logic [NumClients-1:0][TagWidth-1:0]    req_tag_i,
  input logic [NumClients-1:0]                  wd_valid_i,
  input logic [NumClients-1:0]                  wd_ready_o,
  input logic [NumClients-1:0][DataWidth-1:0]   wd_data_i,
  input logic [NumClients-1:0]                  wd_last_i,
  input logic [NumClients-1:0]                  rsp_valid_o,
  input logic [NumClients-1:0]                  rsp_ready_i,
  input logic [NumClients-1:0][TagWidth-1:0]    rsp_tag_o,
  input onerma_pkg::dma_status_e [NumClients-1:0] rsp_status_o,
  input logic                                   rrt_valid_o,
  input logic                                   rrt_ready_i,
  input logic [RrtIdxWidth-1:0]                 rrt_idx_o,
  input onerma_pkg::rrt_entry_t                 rrt_entry_i,
  input logic [15:0]                            rrt_gen_i,
  input logic                                   rrt_commit_i,
  input logic                                   quiesce_o,
  input logic                                   m_axi_awvalid_o,
  input logic                                   m_axi_awready_i,
  input logic [IdWidth-1:0]                     m_axi_awid_o,
  input logic [AddrWidth-1:0]                   m_axi_awaddr_o,
  input logic [7:0]                             m_axi_awlen_o,
  input logic [2:0]                             m_axi_awsize_o,
  input logic [1:0]                             m_axi_awburst_o,
  input logic                                   m_axi_wvalid_o,
  input logic                                   m_axi_wready_i,
  input logic [DataWidth-1:0]                   m_axi_wdata_o,
  input logic [Bytes-1:0]                       m_axi_wstrb_o,
  input logic                                   m_axi_wlast_o,
  input logic                                   m_axi_bvalid_i,
  input logic                                   m_axi_bready_o,
  input logic [IdWidth-1:0]                     m_axi_bid_i,
  input logic [1:0]                             m_axi_bresp_i
);

  import onerma_pkg::*;

  localparam int unsigned OffW      = $clog2(Bytes);
  localparam int unsigned PageBeats = 4096 / Bytes;
  localparam int unsigned WqDepth   = MaxOutstanding + 1;
  localparam int unsigned CntW      = 4;

  logic past_valid_q = 1'b0;
  always_ff @(posedge clk_i) past_valid_q <= 1'b1;
  always_comb if (!past_valid_q) assume (!rst_ni);

  // ---- Environment.
  for (genvar c = 0; c < NumClients; c++) begin : g_env
    onerma_stream_check #(
      .Width (AddrWidth + 13 + RrtIdxWidth + 16 + 5 + TagWidth),
      .Assume(1'b1)
    ) u_req_rule (
      .clk_i,
      .rst_ni,
      .valid_i(req_valid_i[c]),
      .ready_i(req_ready_o[c]),
      .data_i ({req_addr_i[c], req_len_i[c], req_region_i[c], req_gen_i[c], req_perm_i[c],
                req_tag_i[c]})
    );
    onerma_stream_check #(
      .Width (DataWidth + 1),
      .Assume(1'b1)
    ) u_wd_rule (
      .clk_i,
      .rst_ni,
      .valid_i(wd_valid_i[c]),
      .ready_i(wd_ready_o[c]),
      .data_i ({wd_last_i[c], wd_data_i[c]})
    );
    onerma_stream_check #(
      .Width (TagWidth + 2),
      .Assume(1'b0)
    ) u_rsp_rule (
      .clk_i,
      .rst_ni,
      .valid_i(rsp_valid_o[c]),
      .ready_i(rsp_ready_i[c]),
      .data_i ({rsp_tag_o[c], rsp_status_o[c]})
    );
  end
  // The AXI4 write channels: onerma_axi4_check, master side (AW and W asserted, B assumed:
  // a B only after its burst's AW handshake and last W beat, oldest first). The read channels
  // are not this block's (tied idle).
  localparam int unsigned WCntW = $clog2(MaxOutstanding + 1);
  logic [WCntW-1:0] f_ax_out, f_ax_done, f_ax_hs;
  logic [7:0]       f_ax_wbeat, f_ax_wlen, f_ax_rbeat, f_ax_rlen;
  logic [0:0]       f_ax_rout;
  onerma_axi4_check #(
    .IdWidth  (IdWidth),
    .AddrWidth(AddrWidth),
    .DataWidth(DataWidth),
    .Master   (1'b1),
    .MaxWrites(MaxOutstanding),
    .MaxReads (1)
  ) u_axi (
    .clk_i, .rst_ni,
    .awvalid_i(m_axi_awvalid_o), .awready_i(m_axi_awready_i), .awid_i(m_axi_awid_o),
    .awaddr_i (m_axi_awaddr_o), .awlen_i(m_axi_awlen_o), .awsize_i(m_axi_awsize_o),
    .awburst_i(m_axi_awburst_o),
    .wvalid_i (m_axi_wvalid_o), .wready_i(m_axi_wready_i), .wdata_i(m_axi_wdata_o),
    .wstrb_i  (m_axi_wstrb_o), .wlast_i(m_axi_wlast_o),
    .bvalid_i (m_axi_bvalid_i), .bready_i(m_axi_bready_o), .bid_i(m_axi_bid_i),
    .bresp_i  (m_axi_bresp_i),
    .arvalid_i(1'b0), .arready_i(1'b0), .arid_i('0), .araddr_i('0), .arlen_i('0),
    .arsize_i ('0), .arburst_i('0),
    .rvalid_i (1'b0), .rready_i(1'b0), .rid_i('0), .rdata_i('0), .rresp_i('0), .rlast_i(1'b0),
    .wr_out_o (f_ax_out), .wr_done_o(f_ax_done), .wr_hs_o(f_ax_hs), .w_beat_o(f_ax_wbeat),
    .w_len_o  (f_ax_wlen), .rd_out_o(f_ax_rout), .r_beat_o(f_ax_rbeat), .r_len_o(f_ax_rlen)
  );
  onerma_stream_check #(
    .Width (RrtIdxWidth),
    .Assume(1'b0)
  ) u_rrt_rule (
    .clk_i,
    .rst_ni,
    .valid_i(rrt_valid_o),
    .ready_i(rrt_ready_i),
    .data_i (rrt_idx_o)
  );

  // Tags per client count 0, 1, 2, ...; lengths narrowed.
  logic [NumClients-1:0][TagWidth-1:0] f_tag_in_q, f_tag_out_q;
  logic [NumClients-1:0][CntW-1:0]     f_open_q;   // accepted, no response yet
  always_comb if (rst_ni) begin
    for (int unsigned c = 0; c < NumClients; c++) begin
      if (req_valid_i[c]) begin
        assume (req_tag_i[c] == f_tag_in_q[c]);
        assume (req_len_i[c] != '0 && 32'(req_len_i[c]) <= MaxLen);
      end
    end
  end

  // ---- Shadow of the engine's request, its cut and its lookups.
  logic                   f_take;
  logic [ClientWidth-1:0] f_take_c;
  always_comb begin
    f_take   = 1'b0;
    f_take_c = '0;
    for (int unsigned c = 0; c < NumClients; c++) begin
      if (req_valid_i[c] && req_ready_o[c]) begin
        f_take   = 1'b1;
        f_take_c = ClientWidth'(c);
      end
    end
  end

  logic [AddrWidth-1:0]   f_addr_q;
  logic [64:0]            f_next_q;  // 65 bits: a request may end at 2^64
  logic [12:0]            f_len_q;
  logic [RrtIdxWidth-1:0] f_region_q;
  logic [15:0]            f_gen_q;
  logic [4:0]             f_perm_q;
  logic                   f_live_q;     // a request has been taken
  logic                   f_dead_q;     // its check failed (an answer not voided by a commit)
  logic                   f_look_q, f_look_commit_q, f_ok_q;
  logic [CntW-1:0]        f_out_q, f_old_q, f_drain_q, f_out_next;
  logic                   f_aw_held_q, f_new_aw, f_b_fire, f_b_cur;
  // The answer of the previous cycle, as the AW it allows: a take in its cycle (f_tk_ans_q)
  // means the AW, if any, is the answered request's and must be its last burst.
  logic                   f_tk_ans_q, f_exp_dead_q, f_exp_last_q;
  logic [64:0]            f_exp_addr_q, f_exp_end_q;
  logic [63:0]            f_exp_addr0_q;
  logic [12:0]            f_exp_beats_q;

  logic [4:0]  f_have;
  logic [64:0] f_end, f_reg_end;
  logic        f_pass;
  assign f_have    = {rrt_entry_i.perm_remote_read, rrt_entry_i.perm_remote_write,
                      rrt_entry_i.perm_remote_rekey, rrt_entry_i.perm_local_read,
                      rrt_entry_i.perm_local_write};
  assign f_end     = {1'b0, f_addr_q} + {52'd0, f_len_q};
  assign f_reg_end = {1'b0, rrt_entry_i.base_addr} + {1'b0, rrt_entry_i.size};
  assign f_pass    = rrt_entry_i.valid && rrt_gen_i == f_gen_q &&
                     (f_have & f_perm_q) == f_perm_q &&
                     f_addr_q >= rrt_entry_i.base_addr && f_end <= f_reg_end &&
                     f_end <= {1'b1, 64'd0};

  logic [63:0] f_base_q;
  logic [64:0] f_rend_q;

  assign f_new_aw  = m_axi_awvalid_o && !f_aw_held_q;
  assign f_b_fire  = m_axi_bvalid_i && m_axi_bready_o;
  assign f_b_cur   = f_old_q == '0;   // the B belongs to the engine's request
  assign f_out_next = f_out_q + CntW'(f_new_aw) - CntW'(f_b_fire);

  // The next burst of the request from f_next_q: to the 4 KB boundary, MaxBurstBeats, the end.
  logic [64:0] f_beat_base, f_stop;
  logic [64:0] f_page_end, f_max_end;
  logic [12:0] f_beats;
  assign f_beat_base = {f_next_q[64:OffW], OffW'(0)};
  assign f_page_end  = {f_next_q[64:12], 12'd0} + 65'd4096;
  assign f_max_end   = f_beat_base + 65'(MaxBurstBeats * Bytes);
  always_comb begin
    f_stop = f_end;
    if (f_page_end < f_stop) f_stop = f_page_end;
    if (f_max_end < f_stop) f_stop = f_max_end;
  end
  assign f_beats = 13'((f_stop - f_beat_base + 65'(Bytes - 1)) >> OffW);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      f_live_q        <= 1'b0;
      f_dead_q        <= 1'b0;
      f_look_q        <= 1'b0;
      f_tk_ans_q      <= 1'b0;
      f_look_commit_q <= 1'b0;
      f_ok_q          <= 1'b0;
      f_out_q         <= '0;
      f_old_q         <= '0;
      f_drain_q       <= '0;
      f_aw_held_q     <= 1'b0;
      f_tag_in_q      <= '0;
      f_tag_out_q     <= '0;
      f_open_q        <= '0;
    end else begin
      f_look_q        <= rrt_valid_o && rrt_ready_i;
      f_tk_ans_q      <= f_take && f_look_q;
      f_look_commit_q <= rrt_valid_o && rrt_ready_i && rrt_commit_i;
      f_ok_q          <= f_look_q && !f_look_commit_q && !rrt_commit_i && f_pass;
      f_aw_held_q     <= m_axi_awvalid_o && !m_axi_awready_i;
      f_out_q         <= f_out_next;
      if (rrt_commit_i) begin
        f_drain_q <= f_out_next;
      end else if (f_b_fire && f_drain_q != '0) begin
        f_drain_q <= f_drain_q - 1'b1;
      end
      if (f_look_q && !f_look_commit_q && !rrt_commit_i && !f_pass) f_dead_q <= 1'b1;
      f_old_q <= f_old_q + CntW'(f_new_aw && f_tk_ans_q) - CntW'(f_b_fire && !f_b_cur);
      if (f_take) begin
        f_live_q   <= 1'b1;
        f_dead_q   <= 1'b0;
        f_old_q    <= f_out_next;
      end
      for (int unsigned c = 0; c < NumClients; c++) begin
        if (req_valid_i[c] && req_ready_o[c]) f_tag_in_q[c] <= f_tag_in_q[c] + 1'b1;
        if (rsp_valid_o[c] && rsp_ready_i[c]) f_tag_out_q[c] <= f_tag_out_q[c] + 1'b1;
        f_open_q[c] <= f_open_q[c] + CntW'(req_valid_i[c] && req_ready_o[c]) -
                       CntW'(rsp_valid_o[c] && rsp_ready_i[c]);
      end
    end
  end

  // The request's fields (meaningful once f_live_q).
  always_ff @(posedge clk_i) begin
    if (f_new_aw && !f_tk_ans_q) f_next_q <= {f_next_q[64:OffW] + (65 - OffW)'(f_beats), OffW'(0)};
    if (f_look_q) begin
      f_exp_dead_q  <= f_dead_q;
      f_exp_last_q  <= f_stop == f_end;
      f_exp_addr_q  <= f_next_q;
      f_exp_addr0_q <= f_addr_q;
      f_exp_end_q   <= f_end;
      f_exp_beats_q <= f_beats;
    end
    if (f_take) begin
      f_addr_q   <= req_addr_i[f_take_c];
      f_next_q   <= {1'b0, req_addr_i[f_take_c]};
      f_len_q    <= req_len_i[f_take_c];
      f_region_q <= req_region_i[f_take_c];
      f_gen_q    <= req_gen_i[f_take_c];
      f_perm_q   <= req_perm_i[f_take_c];
    end
  end

  always_ff @(posedge clk_i) begin
    if (f_look_q) begin
      f_base_q <= rrt_entry_i.base_addr;
      f_rend_q <= f_reg_end;
    end
  end

  // ---- W beats per burst: a queue of the offered bursts' AWLEN.
  logic [7:0]            f_wq [WqDepth];
  logic [CntW-1:0]       f_wn_q;        // bursts offered, W not complete
  logic [CntW-1:0]       f_wdone_q;     // W complete, no B yet
  logic [7:0]            f_wbeat_q;
  logic                  f_w_fire, f_w_end;
  assign f_w_fire = m_axi_wvalid_o && m_axi_wready_i;
  assign f_w_end  = f_w_fire && m_axi_wlast_o;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      f_wn_q    <= '0;
      f_wdone_q <= '0;
      f_wbeat_q <= '0;
    end else begin
      f_wn_q    <= f_wn_q + CntW'(f_new_aw) - CntW'(f_w_end);
      f_wdone_q <= f_wdone_q + CntW'(f_w_end) - CntW'(f_b_fire);
      if (f_w_fire) f_wbeat_q <= f_w_end ? '0 : f_wbeat_q + 1'b1;
    end
  end
  always_ff @(posedge clk_i) begin
    if (f_w_end) begin
      for (int unsigned i = 0; i + 1 < WqDepth; i++) f_wq[i] <= f_wq[i + 1];
    end
    if (f_new_aw) f_wq[f_wn_q - CntW'(f_w_end)] <= m_axi_awlen_o;
  end

  // A B only for the oldest burst, after its AW handshake and its last W beat (AXI4).
  logic [CntW-1:0] f_hs_q;   // AW handshake done, no B yet
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) f_hs_q <= '0;
    else f_hs_q <= f_hs_q + CntW'(m_axi_awvalid_o && m_axi_awready_i) - CntW'(f_b_fire);
  end
  // (The B rule itself is onerma_axi4_check's assumption above.) Its model is this one:
  always_comb if (rst_ni) begin
    assert (f_ax_out == f_out_q && f_ax_done == f_wdone_q);
    assert (f_ax_hs == f_hs_q && f_ax_wbeat == f_wbeat_q && f_ax_rout == '0);
    if (f_wn_q != '0) assert (f_ax_wlen == f_wq[0]);
    // Its queue of offered bursts: W complete first, then f_wq's, every ID 0.
    for (int unsigned i = 0; i < MaxOutstanding; i++) begin
      if (i < 32'(f_out_q)) assert (u_axi.wq_q[i].id == '0);
      if (i >= 32'(f_wdone_q) && i < 32'(f_out_q)) assert (u_axi.wq_q[i].len == f_wq[i - 32'(f_wdone_q)]);
    end
  end

  // ---- The assertions.
  always_comb if (rst_ni) begin
    // A lookup is of the engine's request's region, or of the request taken in its cycle.
    if (rrt_valid_o && rrt_ready_i) begin
      if (f_take) assert (rrt_idx_o == req_region_i[f_take_c]);
      else assert (f_live_q && rrt_idx_o == f_region_q);
    end
    if (f_new_aw) begin
      // A passing check of the answered request in the previous cycle, no commit since, and
      // no failed check of that request before.
      assert (f_live_q && f_ok_q && !f_exp_dead_q);
      // The next burst of its cut; its last if the next request was taken meanwhile.
      assert ({1'b0, m_axi_awaddr_o} == f_exp_addr_q);
      assert (13'(m_axi_awlen_o) + 13'd1 == f_exp_beats_q);
      if (f_tk_ans_q) assert (f_exp_last_q);
      assert (m_axi_awsize_o == 3'(OffW) && m_axi_awburst_o == 2'b01);
      // Inside the request and the region; within one 4 KB page.
      assert (m_axi_awaddr_o >= f_exp_addr0_q && {1'b0, m_axi_awaddr_o} < f_exp_end_q);
      assert (m_axi_awaddr_o >= f_base_q && {1'b0, m_axi_awaddr_o} < f_rend_q);
      assert ({1'b0, m_axi_awaddr_o[63:OffW], OffW'(0)} + 65'(m_axi_awlen_o) * 65'(Bytes) <
              f_exp_end_q);
      assert (32'(m_axi_awaddr_o[11:OffW]) + 32'(m_axi_awlen_o) < PageBeats);
      assert (f_wn_q < CntW'(WqDepth));
      assert (f_out_q < CntW'(MaxOutstanding));
    end
    if (f_w_fire) begin
      assert (f_wn_q != '0);
      assert (m_axi_wlast_o == (f_wbeat_q == f_wq[0]));
    end
    if (f_b_fire) assert (f_out_q != '0);
    if (quiesce_o) assert (f_drain_q == '0);
    for (int unsigned c = 0; c < NumClients; c++) begin
      if (rsp_valid_o[c]) assert (f_open_q[c] != '0 && rsp_tag_o[c] == f_tag_out_q[c]);
    end
  end

  // ---- Invariants that k-induction needs (design state against the shadows); the W path's
  // follow below.
  localparam int unsigned SegDepth = 4;
  // onerma_dma_wr's engine states (its eng_e encoding).
  localparam logic [2:0] FEIdle = 3'd0, FEWait = 3'd1, FELook = 3'd2, FEAns = 3'd3,
                         FEDiscard = 3'd4, FEEnd = 3'd5;
  logic [2:0] f_eng;
  assign f_eng = 3'(onerma_dma_wr.eng_q);
  localparam int unsigned EvDepth  = MaxOutstanding + 2;
  logic [ClientWidth-1:0] f_client_q;
  always_ff @(posedge clk_i) if (f_take) f_client_q <= f_take_c;

  function automatic logic [12:0] f_rem(input logic [63:0] a);
    return 13'((f_end - {1'b0, a[63:OffW], OffW'(0)} + 65'(Bytes - 1)) >> OffW);
  endfunction

  logic        f_eng_on;  // EWait, ELook, EAns or EDiscard: cutting the request
  logic [64:0] f_after;   // the address after the burst offered this cycle
  logic [3:0]  f_n_issued, f_head_issued;
  logic [CntW-1:0] f_n_burst;
  logic [NumClients-1:0][CntW-1:0] f_n_end;
  logic                   f_tags_ok;
  logic [ClientWidth-1:0] f_ev_c;
  logic [1:0]  f_skid_n;
  assign f_eng_on = f_eng inside {FEWait, FELook,
                                                FEAns, FEDiscard};
  assign f_after  = {f_next_q[64:OffW] + (65 - OffW)'(f_beats), OffW'(0)};
  assign f_skid_n = 2'(onerma_dma_wr.u_w.out_valid_q) + 2'(onerma_dma_wr.u_w.skid_valid_q);

  always_comb begin
    f_n_issued = '0;
    for (int unsigned i = 0; i < SegDepth; i++) begin
      if (i < 32'(onerma_dma_wr.u_seg.count_q) &&
          onerma_dma_wr.u_seg.mem_q[(32'(onerma_dma_wr.u_seg.rptr_q) + i) % SegDepth].issue) begin
        f_n_issued = f_n_issued + 1'b1;
      end
    end
    f_head_issued = 4'(onerma_dma_wr.seg_valid && onerma_dma_wr.seg.issue);
    f_n_burst = '0;
    f_n_end   = '0;
    f_tags_ok = 1'b1;
    f_ev_c    = '0;
    for (int unsigned i = 0; i < EvDepth; i++) begin
      if (i < 32'(onerma_dma_wr.u_ev.count_q)) begin
        if (onerma_dma_wr.u_ev.mem_q[(32'(onerma_dma_wr.u_ev.rptr_q) + i) % EvDepth].burst) begin
          f_n_burst = f_n_burst + 1'b1;
        end
        if (onerma_dma_wr.u_ev.mem_q[(32'(onerma_dma_wr.u_ev.rptr_q) + i) % EvDepth].is_end) begin
          f_ev_c = onerma_dma_wr.u_ev.mem_q[(32'(onerma_dma_wr.u_ev.rptr_q) + i) % EvDepth].client;
          if (onerma_dma_wr.u_ev.mem_q[(32'(onerma_dma_wr.u_ev.rptr_q) + i) % EvDepth].tag !=
              f_tag_out_q[f_ev_c] + TagWidth'(f_n_end[f_ev_c])) begin
            f_tags_ok = 1'b0;
          end
          f_n_end[f_ev_c] = f_n_end[f_ev_c] + 1'b1;
        end
      end
    end
  end

  always_comb if (rst_ni) begin
    // The engine's request and cut.
    if (f_eng != FEIdle) begin
      assert (f_live_q && onerma_dma_wr.cur_client_q == f_client_q);
      assert (onerma_dma_wr.cur_q.addr == f_addr_q && onerma_dma_wr.cur_q.len == f_len_q);
      assert (onerma_dma_wr.cur_q.region == f_region_q && onerma_dma_wr.cur_q.gen == f_gen_q);
      assert (onerma_dma_wr.cur_q.perm == f_perm_q);
      assert (onerma_dma_wr.cur_q.tag == f_tag_in_q[f_client_q] - 1'b1);
      assert (f_len_q != '0 && 32'(f_len_q) <= MaxLen);
      assert (onerma_dma_wr.cbeats_q == 13'((32'(f_len_q) + Bytes - 1) / Bytes));
    end
    if (f_live_q) begin
      assert (f_next_q >= {1'b0, f_addr_q} && f_next_q < f_end + 65'(Bytes));
      if (f_next_q != {1'b0, f_addr_q}) assert (f_next_q[OffW-1:0] == '0);
      assert (f_len_q != '0 && 32'(f_len_q) <= MaxLen);
    end
    if (f_eng_on) begin
      assert (f_next_q < f_end);
      assert ({1'b0, onerma_dma_wr.baddr_q} == ((f_new_aw && !f_tk_ans_q) ? f_after : f_next_q));
      assert (onerma_dma_wr.left_q == f_rem(onerma_dma_wr.baddr_q));
      assert (onerma_dma_wr.left_q != '0);
      assert ({1'b0, onerma_dma_wr.baddr_q} < f_end);
      assert (onerma_dma_wr.first_q == (onerma_dma_wr.baddr_q == f_addr_q));
      if (onerma_dma_wr.baddr_q != f_addr_q) assert (onerma_dma_wr.baddr_q[OffW-1:0] == '0);
    end
    // A take is a lookup: the engine answers next cycle, and the AW of the answer it took in
    // is offered then.
    if (f_tk_ans_q) assert (f_eng == FEAns && f_new_aw);
    if (f_dead_q && f_eng != FEIdle) begin
      assert (f_eng inside {FEDiscard, FEEnd});
    end
    assert (f_look_q == (f_eng == FEAns));
    assert (onerma_dma_wr.look_commit_q == f_look_commit_q);
    if (f_aw_held_q) assert (onerma_dma_wr.aw_q);
    // Counters.
    assert (32'(onerma_dma_wr.out_q) == 32'(f_out_q) + 32'(f_new_aw));
    assert (32'(onerma_dma_wr.drain_q) == 32'(f_drain_q));
    assert (f_wn_q + f_wdone_q == f_out_q);
    assert (f_hs_q + CntW'(f_aw_held_q) == f_out_q);
    if (f_eng == FELook) begin
      // The resources EWait reserved for the burst.
      assert (!onerma_dma_wr.aw_q && 32'(onerma_dma_wr.out_q) < MaxOutstanding);
      assert (onerma_dma_wr.seg_ready && onerma_dma_wr.ev_ready);
    end
    assert (32'(f_wn_q) <= MaxOutstanding && 32'(f_wdone_q) <= MaxOutstanding);
    assert (32'(f_old_q) <= MaxOutstanding);
    // The FIFOs' pointers and counts.
    assert (32'(onerma_dma_wr.u_seg.count_q) <= SegDepth && 32'(onerma_dma_wr.u_seg.rptr_q) < SegDepth);
    assert (32'(onerma_dma_wr.u_seg.wptr_q) ==
            (32'(onerma_dma_wr.u_seg.rptr_q) + 32'(onerma_dma_wr.u_seg.count_q)) % SegDepth);
    assert (32'(onerma_dma_wr.u_ev.count_q) <= EvDepth && 32'(onerma_dma_wr.u_ev.rptr_q) < EvDepth);
    assert (32'(onerma_dma_wr.u_ev.wptr_q) ==
            (32'(onerma_dma_wr.u_ev.rptr_q) + 32'(onerma_dma_wr.u_ev.count_q)) % EvDepth);
    assert (32'(f_n_burst) == 32'(onerma_dma_wr.out_q));
    assert (32'(f_out_q) <= MaxOutstanding && 32'(f_drain_q) <= MaxOutstanding);
    assert (f_old_q <= f_out_q);
    // Responses: END entries per client in tag order, then the engine's request.
    assert (f_tags_ok);
    for (int unsigned c = 0; c < NumClients; c++) begin
      assert (f_open_q[c] == f_n_end[c] + CntW'(f_eng != FEIdle &&
                                                32'(f_client_q) == c));
      assert (f_tag_in_q[c] == f_tag_out_q[c] + TagWidth'(f_open_q[c]));
      assert (32'(f_open_q[c]) <= EvDepth + 1);
    end
  end

  // ---- W-path invariants for any MaxOutstanding. The bursts offered whose W is not through,
  // oldest first: f_wq[0 .. f_wn_q - 1], then the one offered for the first time this cycle
  // (its segment is already queued). The issue segments still in u_seg are the youngest of
  // them, in order; the W beats owed equal the beats those segments have not pushed plus the
  // skid's; the skid's WLAST bits follow from its place in the oldest bursts.
  localparam int unsigned NB = WqDepth + 1;
  logic [NB-1:0][7:0] f_bl;
  logic [3:0]         f_nb, f_k;
  logic [15:0]        f_owed, f_unpushed;
  logic               f_segs_ok;
  always_comb begin
    f_bl = '0;
    for (int unsigned i = 0; i < WqDepth; i++) begin
      if (i < 32'(f_wn_q)) f_bl[i] = f_wq[i];
    end
    if (f_new_aw && 32'(f_wn_q) < NB) f_bl[f_wn_q] = m_axi_awlen_o;
    f_nb   = 4'(f_wn_q) + 4'(f_new_aw);
    f_owed = '0;
    for (int unsigned i = 0; i < NB; i++) begin
      if (i < 32'(f_nb)) f_owed = f_owed + 16'(f_bl[i]) + 16'd1;
    end
    f_owed     = f_owed - 16'(f_wbeat_q);
    f_unpushed = '0;
    f_segs_ok  = 1'b1;
    f_k        = f_nb - f_n_issued;
    for (int unsigned i = 0; i < SegDepth; i++) begin
      if (i < 32'(onerma_dma_wr.u_seg.count_q) &&
          onerma_dma_wr.u_seg.mem_q[(32'(onerma_dma_wr.u_seg.rptr_q) + i) % SegDepth].issue) begin
        f_unpushed = f_unpushed +
                     16'(onerma_dma_wr.u_seg.mem_q[(32'(onerma_dma_wr.u_seg.rptr_q) + i) % SegDepth].beats);
        if (32'(f_k) >= NB ||
            onerma_dma_wr.u_seg.mem_q[(32'(onerma_dma_wr.u_seg.rptr_q) + i) % SegDepth].beats !=
            13'(f_bl[f_k]) + 13'd1) begin
          f_segs_ok = 1'b0;
        end
        f_k = f_k + 1'b1;
      end
    end
    if (f_head_issued != '0) f_unpushed = f_unpushed - 16'(onerma_dma_wr.j_q);
  end

  always_comb if (rst_ni) begin
    assert (32'(onerma_dma_wr.out_q) <= MaxOutstanding);
    assert (f_n_issued <= f_nb);
    assert (f_segs_ok);
    assert (f_owed == f_unpushed + 16'(f_skid_n));
    for (int unsigned i = 0; i < SegDepth; i++) begin
      if (i < 32'(onerma_dma_wr.u_seg.count_q)) begin
        assert (onerma_dma_wr.u_seg.mem_q[(32'(onerma_dma_wr.u_seg.rptr_q) + i) % SegDepth].beats != '0);
        assert (32'(onerma_dma_wr.u_seg.mem_q[(32'(onerma_dma_wr.u_seg.rptr_q) + i) % SegDepth].beats) <=
                (MaxLen + Bytes - 1) / Bytes + 1);
      end
    end
    if (onerma_dma_wr.seg_valid) assert (onerma_dma_wr.j_q < onerma_dma_wr.seg.beats);
    else assert (onerma_dma_wr.j_q == '0);
    if (f_nb == '0) assert (f_wbeat_q == '0);
    else assert (f_wbeat_q <= f_bl[0]);
    if (onerma_dma_wr.u_w.skid_valid_q) assert (onerma_dma_wr.u_w.out_valid_q);
    if (onerma_dma_wr.u_w.out_valid_q) begin
      assert (f_nb != '0 && m_axi_wlast_o == (f_wbeat_q == f_bl[0]));
      if (onerma_dma_wr.u_w.skid_valid_q) begin
        if (m_axi_wlast_o) assert (f_nb >= 4'd2 && onerma_dma_wr.u_w.skid_bits_q[0] == (f_bl[1] == '0));
        else assert (onerma_dma_wr.u_w.skid_bits_q[0] == (f_wbeat_q + 8'd1 == f_bl[0]));
      end
    end
  end

  // ---- Reachability.
  always_comb if (rst_ni) begin
    cover (f_new_aw && f_beats == 13'(MaxBurstBeats));
    cover (f_w_end && f_wn_q == 2);
    cover (rsp_valid_o[0] && rsp_ready_i[0] && rsp_status_o[0] == DmaStatusOk);
    cover (rsp_valid_o[1] && rsp_ready_i[1] && rsp_status_o[1] == DmaStatusRegion);
    cover (rsp_valid_o[0] && rsp_ready_i[0] && rsp_status_o[0] == DmaStatusSlverr);
    cover (f_new_aw && m_axi_awaddr_o[11:OffW] == '1);
    cover (quiesce_o && f_out_q != '0);
    cover (!quiesce_o && past_valid_q);
    // A request taken in the cycle the previous one ends after a failed check, while an AW is
    // still held.
    cover (f_take && f_eng == FEEnd && f_aw_held_q);
    // A request taken (and looked up) in the answer cycle of the previous one's last burst,
    // twice in a row: one single-burst request per cycle.
    cover (f_take && f_eng == FEAns && f_tk_ans_q);
    // An answer without the resources for its burst: the engine waits and looks up again.
    cover (f_eng == FEAns && !onerma_dma_wr.interfered && !onerma_dma_wr.stop &&
           onerma_dma_wr.check_ok && !onerma_dma_wr.res_ok);
  end

endmodule

bind onerma_dma_wr onerma_dma_wr_props #(
  .NumClients    (NumClients),
  .DataWidth     (DataWidth),
  .AddrWidth     (AddrWidth),
  .IdWidth       (IdWidth),
  .MaxBurstBeats (MaxBurstBeats),
  .MaxOutstanding(MaxOutstanding),
  .TagWidth      (TagWidth),
  .RrtIdxWidth   (RrtIdxWidth),
  .Bytes         (Bytes),
  .ClientWidth   (ClientWidth)
) u_props (.*);
`endif

`default_nettype wire
