`default_nettype none

// Properties of onerma_dma_rd, bound into it when FORMAL is defined.
//
// The AXI4 port's contract is onerma_axi4_check (master side: AR rules asserted, R rules
// assumed), tied to the shadows below by invariants.
//
// Environment (assumed): the client request stream and the R channel follow the stream rule; a
// request's len is 1..MaxLen (the proof's narrowing); each client numbers its requests' tags
// 0, 1, 2, ...; R beats come only for bursts whose AR handshake is done, in AR order, with RLAST
// on each burst's last beat. The RRT answer, every ready and the commit pulse are free inputs.
//
// Asserted, with shadows fed by the ports only:
// - every lookup is of the engine's request's region, or of the request taken in its cycle;
// - every AR, in the first cycle it is offered, follows in the previous cycle a lookup answer of
//   the request's region that passes §4.1 for the whole request (computed here), with no commit
//   in the lookup or the answer cycle; it is the next burst of that request (address and beats
//   of the 4 KB / MaxBurstBeats cut), lies inside the request and the region, does not cross
//   4 KB, and never follows a failed check of the same request. The answer's expectations are
//   registered in its cycle: the next request may be taken (and looked up) in that cycle, and
//   then the AR must be the answered request's last burst;
// - responses: never more than accepted, in order per client (tags);
// - quiesce_o is 0 while a burst offered before the latest commit has not had its last R beat;
// - stream rules on every output stream.
`ifdef FORMAL
module onerma_dma_rd_props #(
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
  input logic [NumClients-1:0]                  rd_valid_o,
  input logic [NumClients-1:0]                  rd_ready_i,
  input logic [NumClients-1:0][DataWidth-1:0]   rd_data_o,
  input logic [NumClients-1:0]                  rd_last_o,
  input logic [NumClients-1:0]                  rd_err_o,
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
  input logic                                   m_axi_arvalid_o,
  input logic                                   m_axi_arready_i,
  input logic [IdWidth-1:0]                     m_axi_arid_o,
  input logic [AddrWidth-1:0]                   m_axi_araddr_o,
  input logic [7:0]                             m_axi_arlen_o,
  input logic [2:0]                             m_axi_arsize_o,
  input logic [1:0]                             m_axi_arburst_o,
  input logic                                   m_axi_rvalid_i,
  input logic                                   m_axi_rready_o,
  input logic [IdWidth-1:0]                     m_axi_rid_i,
  input logic [DataWidth-1:0]                   m_axi_rdata_i,
  input logic [1:0]                             m_axi_rresp_i,
  input logic                                   m_axi_rlast_i
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
      .Width (DataWidth + 2),
      .Assume(1'b0)
    ) u_rd_rule (
      .clk_i,
      .rst_ni,
      .valid_i(rd_valid_o[c]),
      .ready_i(rd_ready_i[c]),
      .data_i ({rd_last_o[c], rd_err_o[c], rd_data_o[c]})
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
  // The AXI4 read channels: onerma_axi4_check, master side (AR asserted; R assumed: beats only
  // for bursts whose AR handshake is done, in AR order, ARLEN + 1 beats with RLAST on the
  // last). The write channels are not this block's (tied idle).
  localparam int unsigned RCntW = $clog2(MaxOutstanding + 1);
  logic [RCntW-1:0] f_ax_rout;
  logic [7:0]       f_ax_wbeat, f_ax_wlen, f_ax_rbeat, f_ax_rlen;
  logic [0:0]       f_ax_out, f_ax_done, f_ax_hs;
  onerma_axi4_check #(
    .IdWidth  (IdWidth),
    .AddrWidth(AddrWidth),
    .DataWidth(DataWidth),
    .Master   (1'b1),
    .MaxWrites(1),
    .MaxReads (MaxOutstanding)
  ) u_axi (
    .clk_i, .rst_ni,
    .awvalid_i(1'b0), .awready_i(1'b0), .awid_i('0), .awaddr_i('0), .awlen_i('0),
    .awsize_i ('0), .awburst_i('0),
    .wvalid_i (1'b0), .wready_i(1'b0), .wdata_i('0), .wstrb_i('0), .wlast_i(1'b0),
    .bvalid_i (1'b0), .bready_i(1'b0), .bid_i('0), .bresp_i('0),
    .arvalid_i(m_axi_arvalid_o), .arready_i(m_axi_arready_i), .arid_i(m_axi_arid_o),
    .araddr_i (m_axi_araddr_o), .arlen_i(m_axi_arlen_o), .arsize_i(m_axi_arsize_o),
    .arburst_i(m_axi_arburst_o),
    .rvalid_i (m_axi_rvalid_i), .rready_i(m_axi_rready_o), .rid_i(m_axi_rid_i),
    .rdata_i  (m_axi_rdata_i), .rresp_i(m_axi_rresp_i), .rlast_i(m_axi_rlast_i),
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
  logic                   f_ar_held_q, f_new_ar, f_b_fire, f_b_cur;
  // The answer of the previous cycle, as the AR it allows: a take in its cycle (f_tk_ans_q)
  // means the AR, if any, is the answered request's and must be its last burst.
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

  assign f_new_ar  = m_axi_arvalid_o && !f_ar_held_q;
  assign f_b_fire  = m_axi_rvalid_i && m_axi_rready_o && m_axi_rlast_i;  // a burst completes
  assign f_b_cur   = f_old_q == '0;   // the B belongs to the engine's request
  assign f_out_next = f_out_q + CntW'(f_new_ar) - CntW'(f_b_fire);

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
      f_ar_held_q     <= 1'b0;
      f_tag_in_q      <= '0;
      f_tag_out_q     <= '0;
      f_open_q        <= '0;
    end else begin
      f_look_q        <= rrt_valid_o && rrt_ready_i;
      f_tk_ans_q      <= f_take && f_look_q;
      f_look_commit_q <= rrt_valid_o && rrt_ready_i && rrt_commit_i;
      f_ok_q          <= f_look_q && !f_look_commit_q && !rrt_commit_i && f_pass;
      f_ar_held_q     <= m_axi_arvalid_o && !m_axi_arready_i;
      f_out_q         <= f_out_next;
      if (rrt_commit_i) begin
        f_drain_q <= f_out_next;
      end else if (f_b_fire && f_drain_q != '0) begin
        f_drain_q <= f_drain_q - 1'b1;
      end
      if (f_look_q && !f_look_commit_q && !rrt_commit_i && !f_pass) f_dead_q <= 1'b1;
      f_old_q <= f_old_q + CntW'(f_new_ar && f_tk_ans_q) - CntW'(f_b_fire && !f_b_cur);
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
    if (f_new_ar && !f_tk_ans_q) f_next_q <= {f_next_q[64:OffW] + (65 - OffW)'(f_beats), OffW'(0)};
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

  // ---- R beats per burst (environment): a queue of the handshaked bursts' ARLEN.
  logic [7:0]      f_rq [WqDepth];
  logic [CntW-1:0] f_rn_q;        // AR handshake done, last R beat not yet
  logic [7:0]      f_rbeat_q;
  logic            f_r_fire, f_ar_fire;
  assign f_r_fire  = m_axi_rvalid_i && m_axi_rready_o;
  assign f_ar_fire = m_axi_arvalid_o && m_axi_arready_i;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      f_rn_q    <= '0;
      f_rbeat_q <= '0;
    end else begin
      f_rn_q <= f_rn_q + CntW'(f_ar_fire) - CntW'(f_b_fire);
      if (f_r_fire) f_rbeat_q <= f_b_fire ? '0 : f_rbeat_q + 1'b1;
    end
  end
  always_ff @(posedge clk_i) begin
    if (f_b_fire) begin
      for (int unsigned i = 0; i + 1 < WqDepth; i++) f_rq[i] <= f_rq[i + 1];
    end
    if (f_ar_fire) f_rq[f_rn_q - CntW'(f_b_fire)] <= m_axi_arlen_o;
  end

  // (The R rule itself is onerma_axi4_check's assumption above.) Its model is this one:
  always_comb if (rst_ni) begin
    assert (32'(f_ax_rout) == 32'(f_rn_q) && f_ax_rbeat == f_rbeat_q);
    if (f_rn_q != '0) assert (f_ax_rlen == f_rq[0]);
    assert (f_ax_out == '0 && f_ax_done == '0 && f_ax_hs == '0);
  end

  // ---- The assertions.
  always_comb if (rst_ni) begin
    // A lookup is of the engine's request's region, or of the request taken in its cycle.
    if (rrt_valid_o && rrt_ready_i) begin
      if (f_take) assert (rrt_idx_o == req_region_i[f_take_c]);
      else assert (f_live_q && rrt_idx_o == f_region_q);
    end
    if (f_new_ar) begin
      // A passing check of the answered request in the previous cycle, no commit since, and
      // no failed check of that request before.
      assert (f_live_q && f_ok_q && !f_exp_dead_q);
      // The next burst of its cut; its last if the next request was taken meanwhile.
      assert ({1'b0, m_axi_araddr_o} == f_exp_addr_q);
      assert (13'(m_axi_arlen_o) + 13'd1 == f_exp_beats_q);
      if (f_tk_ans_q) assert (f_exp_last_q);
      assert (m_axi_arsize_o == 3'(OffW) && m_axi_arburst_o == 2'b01);
      // Inside the request and the region; within one 4 KB page.
      assert (m_axi_araddr_o >= f_exp_addr0_q && {1'b0, m_axi_araddr_o} < f_exp_end_q);
      assert (m_axi_araddr_o >= f_base_q && {1'b0, m_axi_araddr_o} < f_rend_q);
      assert ({1'b0, m_axi_araddr_o[63:OffW], OffW'(0)} + 65'(m_axi_arlen_o) * 65'(Bytes) <
              f_exp_end_q);
      assert (32'(m_axi_araddr_o[11:OffW]) + 32'(m_axi_arlen_o) < PageBeats);
      assert (f_out_q < CntW'(MaxOutstanding));
    end
    if (f_b_fire) assert (f_out_q != '0);
    if (quiesce_o) assert (f_drain_q == '0);
    for (int unsigned c = 0; c < NumClients; c++) begin
      if (rsp_valid_o[c]) assert (f_open_q[c] != '0 && rsp_tag_o[c] == f_tag_out_q[c]);
    end
  end

  // ---- Invariants that k-induction needs (design state against the shadows): the engine's.
  localparam int unsigned SegDepth = 4;
  // onerma_dma_rd's engine states (its eng_e encoding).
  localparam logic [2:0] FEIdle = 3'd0, FEWait = 3'd1, FELook = 3'd2, FEAns = 3'd3,
                         FEDiscard = 3'd4, FEEnd = 3'd5;
  logic [2:0] f_eng;
  assign f_eng = 3'(onerma_dma_rd.eng_q);
  logic [ClientWidth-1:0] f_client_q;
  always_ff @(posedge clk_i) if (f_take) f_client_q <= f_take_c;

  function automatic logic [12:0] f_rem(input logic [63:0] a);
    return 13'((f_end - {1'b0, a[63:OffW], OffW'(0)} + 65'(Bytes - 1)) >> OffW);
  endfunction

  logic        f_eng_on;  // EWait, ELook, EAns or EDiscard: cutting the request
  logic [64:0] f_after;   // the address after the burst offered this cycle
  assign f_eng_on = f_eng inside {FEWait, FELook, FEAns, FEDiscard};
  assign f_after  = {f_next_q[64:OffW] + (65 - OffW)'(f_beats), OffW'(0)};

  always_comb if (rst_ni) begin
    if (f_eng != FEIdle) begin
      assert (f_live_q && onerma_dma_rd.cur_client_q == f_client_q);
      assert (onerma_dma_rd.cur_q.addr == f_addr_q && onerma_dma_rd.cur_q.len == f_len_q);
      assert (onerma_dma_rd.cur_q.region == f_region_q && onerma_dma_rd.cur_q.gen == f_gen_q);
      assert (onerma_dma_rd.cur_q.perm == f_perm_q);
      assert (onerma_dma_rd.cur_q.tag == f_tag_in_q[f_client_q] - 1'b1);
    end
    if (f_live_q) begin
      assert (f_next_q >= {1'b0, f_addr_q} && f_next_q < f_end + 65'(Bytes));
      if (f_next_q != {1'b0, f_addr_q}) assert (f_next_q[OffW-1:0] == '0);
      assert (f_len_q != '0 && 32'(f_len_q) <= MaxLen);
    end
    if (f_eng_on) begin
      assert (f_next_q < f_end);
      assert ({1'b0, onerma_dma_rd.baddr_q} == ((f_new_ar && !f_tk_ans_q) ? f_after : f_next_q));
      assert (onerma_dma_rd.left_q == f_rem(onerma_dma_rd.baddr_q));
      assert (onerma_dma_rd.left_q != '0);
      assert (onerma_dma_rd.first_q == (onerma_dma_rd.baddr_q == f_addr_q));
    end
    // A take is a lookup: the engine answers next cycle, and the AR of the answer it took in
    // is offered then.
    if (f_tk_ans_q) assert (f_eng == FEAns && f_new_ar);
    if (f_dead_q && f_eng != FEIdle) assert (f_eng inside {FEDiscard, FEEnd});
    assert (f_look_q == (f_eng == FEAns));
    assert (onerma_dma_rd.look_commit_q == f_look_commit_q);
    if (f_ar_held_q) assert (onerma_dma_rd.ar_q);
    if (f_eng == FELook) begin
      // The resources EWait reserved for the burst.
      assert (!onerma_dma_rd.ar_q && 32'(onerma_dma_rd.out_q) < MaxOutstanding);
      assert (onerma_dma_rd.seg_ready);
    end
    // Counters.
    assert (32'(onerma_dma_rd.out_q) == 32'(f_out_q) + 32'(f_new_ar));
    assert (32'(onerma_dma_rd.drain_q) == 32'(f_drain_q));
    assert (f_rn_q + CntW'(f_ar_held_q) == f_out_q && 32'(f_rn_q) <= MaxOutstanding);
    assert (32'(f_out_q) <= MaxOutstanding && 32'(f_drain_q) <= MaxOutstanding);
    assert (32'(f_old_q) <= MaxOutstanding && f_old_q <= f_out_q);
    if (f_rn_q != '0) assert (f_rbeat_q <= f_rq[0]);
    else assert (f_rbeat_q == '0);
    assert (32'(onerma_dma_rd.u_rsp.count_q) <= 2 && 32'(onerma_dma_rd.u_rsp.rptr_q) < 2);
    assert (32'(onerma_dma_rd.u_rsp.wptr_q) ==
            (32'(onerma_dma_rd.u_rsp.rptr_q) + 32'(onerma_dma_rd.u_rsp.count_q)) % 2);
    assert (32'(onerma_dma_rd.u_seg.count_q) <= SegDepth && 32'(onerma_dma_rd.u_seg.rptr_q) < SegDepth);
    assert (32'(onerma_dma_rd.u_seg.wptr_q) ==
            (32'(onerma_dma_rd.u_seg.rptr_q) + 32'(onerma_dma_rd.u_seg.count_q)) % SegDepth);
  end

  // ---- R path, output skid and responses, for any MaxOutstanding.
  // The AXI checker's read queue is f_rq. The offered bursts whose last R beat has not come,
  // oldest first, are f_rq[0 .. f_rn_q - 1], then the one in the AR register; the issue segments
  // in u_seg are theirs, in order, ARLEN + 1 beats each (besides the head's in its flush step,
  // whose burst is through), and the head has taken the oldest burst's R beats so far. Segments
  // of one request follow each other (first .. last, the rest maybe still with the engine) with
  // the request's client beats, offset and flush, and their AXI beats add up to the request's;
  // e_q (client beats of the request emitted) matches the head's place. The response of every
  // request not yet answered is, oldest first: in u_rsp, a last beat in the output skid, a last
  // segment, or still the engine's; per client their tags count up from the next expected.
  localparam int unsigned StW      = $bits(dma_status_e);
  localparam int unsigned OTag     = StW;                       // o_t's fields in the skid bits
  localparam int unsigned OLast    = StW + TagWidth + 1;
  localparam int unsigned OClient  = OLast + 1 + DataWidth;
  localparam int unsigned MaxCB    = (MaxLen + Bytes - 1) / Bytes;  // client beats, at most
  localparam int unsigned MaxAB    = (MaxLen + 2 * Bytes - 2) / Bytes;  // AXI beats, at most
  localparam int unsigned RspDepth = 2;

  // u_seg's entries by place (0: the head), the fields used here.
  logic [SegDepth-1:0]                  f_s_in, f_s_first, f_s_last, f_s_issue, f_s_flush;
  logic [SegDepth-1:0][12:0]            f_s_beats, f_s_cbeats;
  logic [SegDepth-1:0][OffW-1:0]        f_s_off;
  logic [SegDepth-1:0][ClientWidth-1:0] f_s_client;
  logic [SegDepth-1:0][TagWidth-1:0]    f_s_tag;
  always_comb begin
    for (int unsigned i = 0; i < SegDepth; i++) begin
      f_s_in[i]     = i < 32'(onerma_dma_rd.u_seg.count_q);
      f_s_first[i]  = onerma_dma_rd.u_seg.mem_q[(32'(onerma_dma_rd.u_seg.rptr_q) + i) % SegDepth].first;
      f_s_last[i]   = onerma_dma_rd.u_seg.mem_q[(32'(onerma_dma_rd.u_seg.rptr_q) + i) % SegDepth].last;
      f_s_issue[i]  = onerma_dma_rd.u_seg.mem_q[(32'(onerma_dma_rd.u_seg.rptr_q) + i) % SegDepth].issue;
      f_s_flush[i]  = onerma_dma_rd.u_seg.mem_q[(32'(onerma_dma_rd.u_seg.rptr_q) + i) % SegDepth].flush;
      f_s_beats[i]  = onerma_dma_rd.u_seg.mem_q[(32'(onerma_dma_rd.u_seg.rptr_q) + i) % SegDepth].beats;
      f_s_cbeats[i] = onerma_dma_rd.u_seg.mem_q[(32'(onerma_dma_rd.u_seg.rptr_q) + i) % SegDepth].cbeats;
      f_s_off[i]    = onerma_dma_rd.u_seg.mem_q[(32'(onerma_dma_rd.u_seg.rptr_q) + i) % SegDepth].off;
      f_s_client[i] = onerma_dma_rd.u_seg.mem_q[(32'(onerma_dma_rd.u_seg.rptr_q) + i) % SegDepth].client;
      f_s_tag[i]    = onerma_dma_rd.u_seg.mem_q[(32'(onerma_dma_rd.u_seg.rptr_q) + i) % SegDepth].tag;
    end
  end

  logic [WqDepth-1:0][7:0] f_bl;
  logic [3:0]  f_nb, f_k;
  logic        f_iss_ok, f_grp_ok, f_grp_open, f_tags_ok;
  logic [15:0] f_need;
  logic [12:0] f_p_cb;
  logic [OffW-1:0] f_p_off;
  logic        f_p_fl, f_eng_fl, f_jfirst;
  logic [NumClients-1:0][CntW-1:0] f_n_rsp;
  logic [ClientWidth-1:0] f_rc;
  logic [TagWidth-1:0]    f_rt;

  assign f_eng_fl = onerma_dma_rd.cur_q.addr[OffW-1:0] != '0 &&
                    onerma_dma_rd.nbeats_q == onerma_dma_rd.cbeats_q;
  assign f_jfirst = onerma_dma_rd.seg.first && onerma_dma_rd.j_q == '0 && !onerma_dma_rd.fl_q;

  always_comb begin
    f_bl = '0;
    for (int unsigned i = 0; i < WqDepth; i++) begin
      if (i < 32'(f_rn_q)) f_bl[i] = f_rq[i];
    end
    if (m_axi_arvalid_o && 32'(f_rn_q) < WqDepth) f_bl[f_rn_q] = m_axi_arlen_o;
    f_nb = 4'(f_rn_q) + 4'(m_axi_arvalid_o);
    // Issue segments against the bursts; segments grouped by request.
    f_iss_ok   = 1'b1;
    f_grp_ok   = 1'b1;
    f_grp_open = 1'b0;
    f_need     = '0;
    f_p_cb     = '0;
    f_p_off    = '0;
    f_p_fl     = 1'b0;
    f_k        = '0;
    for (int unsigned i = 0; i < SegDepth; i++) begin
      if (f_s_in[i]) begin
        // An issue segment (the head's in its flush step has had its R beats): the next burst.
        if (f_s_issue[i] && !(i == 0 && onerma_dma_rd.fl_q)) begin
          if (32'(f_k) >= WqDepth || f_k >= f_nb || f_s_beats[i] != 13'(f_bl[f_k]) + 13'd1) begin
            f_iss_ok = 1'b0;
          end
          f_k = f_k + 1'b1;
        end
        // f_need: the AXI beats of the segment's request from the segment's start on.
        if (f_grp_open) begin
          // A later segment of the same request.
          if (f_s_first[i] || f_s_cbeats[i] != f_p_cb || f_s_off[i] != f_p_off ||
              f_s_flush[i] != f_p_fl) begin
            f_grp_ok = 1'b0;
          end
        end else if (i == 0 && onerma_dma_rd.fl_q) begin
          // The head in its flush step (its place is asserted below).
          f_need = 16'(f_s_beats[0]);
        end else if (i == 0 && !f_jfirst) begin
          // The head past its request's first beat: from e_q and its AXI beat j_q.
          f_need = 16'(f_s_cbeats[0]) + 16'(onerma_dma_rd.j_q) - 16'(onerma_dma_rd.e_q) -
                   16'(f_s_flush[0]);
        end else begin
          // A request's first segment: ceil((off + len) / Bytes) AXI beats.
          if (!f_s_first[i]) f_grp_ok = 1'b0;
          f_need = 16'(f_s_cbeats[i]) + 16'(f_s_off[i] != '0 && !f_s_flush[i]);
        end
        f_p_cb  = f_s_cbeats[i];
        f_p_off = f_s_off[i];
        f_p_fl  = f_s_flush[i];
        if (f_s_last[i]) begin
          if (f_need != 16'(f_s_beats[i])) f_grp_ok = 1'b0;
          f_grp_open = 1'b0;
        end else begin
          if (f_need <= 16'(f_s_beats[i])) f_grp_ok = 1'b0;
          f_need     = f_need - 16'(f_s_beats[i]);
          f_grp_open = 1'b1;
        end
      end
    end
    // Responses owed, oldest first.
    f_n_rsp   = '0;
    f_tags_ok = 1'b1;
    f_rc      = '0;
    f_rt      = '0;
    for (int unsigned i = 0; i < RspDepth; i++) begin
      if (i < 32'(onerma_dma_rd.u_rsp.count_q)) begin
        f_rc = onerma_dma_rd.u_rsp.mem_q[(32'(onerma_dma_rd.u_rsp.rptr_q) + i) % RspDepth].client;
        f_rt = onerma_dma_rd.u_rsp.mem_q[(32'(onerma_dma_rd.u_rsp.rptr_q) + i) % RspDepth].tag;
        if (f_rt != f_tag_out_q[f_rc] + TagWidth'(f_n_rsp[f_rc])) f_tags_ok = 1'b0;
        f_n_rsp[f_rc] = f_n_rsp[f_rc] + 1'b1;
      end
    end
    // The output skid's two registers, older (output) first.
    for (int unsigned k = 0; k < 2; k++) begin
      if (k == 0 ? onerma_dma_rd.u_o.out_valid_q && onerma_dma_rd.u_o.out_bits_q[OLast]
                 : onerma_dma_rd.u_o.skid_valid_q && onerma_dma_rd.u_o.skid_bits_q[OLast]) begin
        f_rc = k == 0 ? onerma_dma_rd.u_o.out_bits_q[OClient +: ClientWidth]
                      : onerma_dma_rd.u_o.skid_bits_q[OClient +: ClientWidth];
        f_rt = k == 0 ? onerma_dma_rd.u_o.out_bits_q[OTag +: TagWidth]
                      : onerma_dma_rd.u_o.skid_bits_q[OTag +: TagWidth];
        if (f_rt != f_tag_out_q[f_rc] + TagWidth'(f_n_rsp[f_rc])) f_tags_ok = 1'b0;
        f_n_rsp[f_rc] = f_n_rsp[f_rc] + 1'b1;
      end
    end
    for (int unsigned i = 0; i < SegDepth; i++) begin
      if (f_s_in[i] && f_s_last[i]) begin
        f_rc = f_s_client[i];
        f_rt = f_s_tag[i];
        if (f_rt != f_tag_out_q[f_rc] + TagWidth'(f_n_rsp[f_rc])) f_tags_ok = 1'b0;
        f_n_rsp[f_rc] = f_n_rsp[f_rc] + 1'b1;
      end
    end
    if (f_eng_on) begin
      f_rc = onerma_dma_rd.cur_client_q;
      f_rt = onerma_dma_rd.cur_q.tag;
      if (f_rt != f_tag_out_q[f_rc] + TagWidth'(f_n_rsp[f_rc])) f_tags_ok = 1'b0;
      f_n_rsp[f_rc] = f_n_rsp[f_rc] + 1'b1;
    end
  end

  always_comb if (rst_ni) begin
    // The AXI checker's read queue.
    for (int unsigned i = 0; i < MaxOutstanding; i++) begin
      if (i < 32'(f_rn_q)) assert (u_axi.rq_q[i].len == f_rq[i] && u_axi.rq_q[i].id == '0);
    end
    // The engine's request: its client beats and AXI beats.
    if (f_eng_on) begin
      assert (onerma_dma_rd.cbeats_q == 13'((32'(f_len_q) + Bytes - 1) / Bytes));
      assert (onerma_dma_rd.nbeats_q == f_rem(f_addr_q));
    end
    // Segments.
    for (int unsigned i = 0; i < SegDepth; i++) begin
      if (f_s_in[i]) begin
        assert (f_s_beats[i] != '0 && 32'(f_s_beats[i]) <= MaxAB);
        assert (f_s_cbeats[i] != '0 && 32'(f_s_cbeats[i]) <= MaxCB);
        if (f_s_flush[i]) assert (f_s_off[i] != '0);
      end
    end
    // Every offered burst without its last R beat has its issue segment; requests' segments.
    assert (f_iss_ok && 32'(f_k) == 32'(f_nb));
    assert (f_grp_ok);
    if (onerma_dma_rd.u_seg.count_q == '0) begin
      // Every pushed segment of the engine's request has left: e_q is its client beats so far.
      if (f_eng_on && !onerma_dma_rd.first_q) begin
        assert (onerma_dma_rd.e_q < onerma_dma_rd.cbeats_q);
        assert (16'(onerma_dma_rd.cbeats_q) - 16'(onerma_dma_rd.e_q) - 16'(f_eng_fl) ==
                16'(onerma_dma_rd.left_q));
      end
    end else begin
      // The last queued segment's request goes on in the engine exactly when the engine has
      // pushed a segment of its request and not its last.
      assert (f_grp_open == (f_eng_on && !onerma_dma_rd.first_q));
      if (f_grp_open) begin
        assert (f_p_cb == onerma_dma_rd.cbeats_q && f_p_off == onerma_dma_rd.cur_q.addr[OffW-1:0] &&
                f_p_fl == f_eng_fl && f_need == 16'(onerma_dma_rd.left_q));
      end
    end
    // The R path's place; the head takes the oldest burst's R beats.
    if (onerma_dma_rd.seg_valid) begin
      assert (onerma_dma_rd.j_q < onerma_dma_rd.seg.beats);
      if (!f_jfirst) assert (onerma_dma_rd.e_q < onerma_dma_rd.seg.cbeats);
      if (onerma_dma_rd.fl_q) begin
        assert (onerma_dma_rd.seg.last && onerma_dma_rd.seg.flush && onerma_dma_rd.j_q == '0);
        assert (onerma_dma_rd.e_q + 13'd1 == onerma_dma_rd.seg.cbeats);
      end
    end else begin
      assert (onerma_dma_rd.j_q == '0 && !onerma_dma_rd.fl_q);
    end
    if (onerma_dma_rd.seg_valid && onerma_dma_rd.seg.issue && !onerma_dma_rd.fl_q) begin
      assert (8'(onerma_dma_rd.j_q) == f_rbeat_q);
    end else begin
      assert (f_rbeat_q == '0);
    end
    // The output skid and the responses.
    if (onerma_dma_rd.u_o.skid_valid_q) assert (onerma_dma_rd.u_o.out_valid_q);
    assert (f_tags_ok);
    for (int unsigned c = 0; c < NumClients; c++) begin
      assert (f_open_q[c] == f_n_rsp[c]);
      assert (f_tag_in_q[c] == f_tag_out_q[c] + TagWidth'(f_open_q[c]));
    end
  end

  // ---- Reachability.
  always_comb if (rst_ni) begin
    cover (f_new_ar && f_beats == 13'(MaxBurstBeats));
    cover (f_b_fire && f_rn_q == 2);
    cover (rsp_valid_o[0] && rsp_ready_i[0] && rsp_status_o[0] == DmaStatusOk);
    cover (rsp_valid_o[1] && rsp_ready_i[1] && rsp_status_o[1] == DmaStatusRegion);
    cover (rsp_valid_o[0] && rsp_ready_i[0] && rsp_status_o[0] == DmaStatusSlverr);
    cover (rd_valid_o[1] && rd_ready_i[1] && rd_err_o[1] && rd_last_o[1]);
    cover (f_new_ar && m_axi_araddr_o[11:OffW] == '1);
    cover (quiesce_o && f_out_q != '0);
    cover (!quiesce_o && past_valid_q);
    // A request taken (and looked up) in the answer cycle of the previous one's last burst,
    // twice in a row: one single-burst request per cycle.
    cover (f_take && f_eng == FEAns && f_tk_ans_q);
    // An answer without the resources for its burst: the engine waits and looks up again.
    cover (f_eng == FEAns && !onerma_dma_rd.interfered && !onerma_dma_rd.stop &&
           onerma_dma_rd.check_ok && !onerma_dma_rd.res_ok);
  end

endmodule

bind onerma_dma_rd onerma_dma_rd_props #(
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
