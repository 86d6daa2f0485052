`default_nettype none

/// Responder write contexts (docs/nic.md "Write contexts"; protocol §8.2-8.6): one context per
/// served WRITE / REKEY, from the WR_RDREQ to the WR_CMPL (or the silent expiry), and the one
/// place every event of a context is applied, so "one end per service" is a property of this
/// block alone. The twin of `onerma_ini_ops` (its READ landing is this block's WRITE landing).
///
/// - Service (§8.2): the WRITE/REKEY queue head is taken when a context is free and the
///   window reservation of ceil(length / 64) lines is granted in the same cycle; the WR_RDREQ
///   job goes to the sealer; its counter (`asg`) is the context's rdreq_counter, and the cycle
///   its last beat leaves (`sent`) makes the context live and starts its deadline
///   `now + server_timeout` (the protocol's t_s; the sealer may hold a frame behind others).
/// - WR_DATA acceptance (§8.4) at the header, against the context's flops and a copy of the
///   request; accepted: opener job `{hdr, tag, K_d, {chunk, ctx}}`, payload passed, else drained.
/// - Tag results: verified and no error decided: read out of the window into a host write
///   (WRITE) or a key install (REKEY); otherwise dropped from the window.
/// - The end, once nothing of the context is in flight: WR_CMPL {OK / REMOTE_ACCESS_ERROR}
///   under K_d, or nothing (expired, or its WR_RDREQ dropped); then the reservation is refunded
///   and the context freed.
module onerma_rsp_ctx #(
  parameter int unsigned NumCtx    = 16,
  parameter int unsigned TimeWidth = 32,
  // Derived, do not override.
  parameter int unsigned CtxW  = (NumCtx > 1) ? $clog2(NumCtx) : 1,
  parameter int unsigned MetaW = CtxW + onerma_pkg::ChunkIndexBits
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,

  // Time and configuration.
  input  logic [TimeWidth-1:0] now_i,
  /// Every WR_DATA whose last beat came before this time has been offered on `hdr_*` (and
  /// taken): the receive edge's `judged_o`. The deadline scan compares it, not `now_i`.
  input  logic [TimeWidth-1:0] judged_i,
  input  logic [TimeWidth-1:0] server_timeout_i,
  input  logic [31:0]          hold_ns_i,

  // The WRITE/REKEY queue head (onerma_rsp_queue wr_*, the entry's fields).
  input  logic                 srv_valid_i,
  output logic                 srv_ready_o,
  input  onerma_pkg::hdr_t     srv_hdr_i,
  input  logic [127:0]         srv_kd_i,
  input  logic [63:0]          srv_base_i,
  input  logic [15:0]          srv_gen_i,
  input  logic [7:0]           srv_key_gen_i,

  // Window reservation (onerma_window_alloc; taken in the service cycle) and refund.
  output logic                 rsv_valid_o,
  input  logic                 rsv_ready_i,
  output logic [6:0]           rsv_lines_o,
  /// A context is free (a head could be served now, given the reservation).
  output logic                 free_o,
  output logic                 refund_valid_o,
  output logic [6:0]           refund_lines_o,

  // Sealer jobs without payload; meta {kind (0 WR_RDREQ, 1 WR_CMPL), ctx}.
  output logic                 sj_valid_o,
  input  logic                 sj_ready_i,
  output onerma_pkg::hdr_t     sj_hdr_o,
  output logic [127:0]         sj_key_o,
  output logic [CtxW:0]        sj_meta_o,
  // The sealer's counter for a job of ctx (its acceptance), or the job discarded unsent.
  input  logic                 asg_i,
  input  logic [CtxW-1:0]      asg_ctx_i,
  input  logic [63:0]          asg_counter_i,
  input  logic                 sj_drop_i,
  input  logic [CtxW-1:0]      sj_drop_ctx_i,
  // The last beat of ctx's WR_RDREQ left the NIC: the context is live from here, and its
  // deadline counts from this cycle (the protocol's t_s, §8.2).
  input  logic                 sent_i,
  input  logic [CtxW-1:0]      sent_ctx_i,

  // onerma_rx_parse's WR_DATA descriptors (the frame complete, `t_rx` its last beat) and payload.
  input  logic                 hdr_valid_i,
  output logic                 hdr_ready_o,
  input  onerma_pkg::hdr_t     hdr_i,
  input  logic [127:0]         hdr_tag_i,
  input  logic [TimeWidth-1:0] hdr_t_rx_i,
  input  logic                 pay_valid_i,
  output logic                 pay_ready_o,
  input  logic                 pay_last_i,
  // The payload beat itself goes straight to the opener; this block only gates it.
  output logic                 opay_valid_o,
  input  logic                 opay_ready_i,

  // Opener jobs and their tag results (meta {chunk, ctx}).
  output logic                 oj_valid_o,
  input  logic                 oj_ready_i,
  output onerma_pkg::hdr_t     oj_hdr_o,
  output logic [127:0]         oj_tag_o,
  output logic [127:0]         oj_key_o,
  output logic [MetaW-1:0]     oj_meta_o,
  input  logic                 res_valid_i,
  output logic                 res_ready_o,
  input  logic                 res_ok_i,
  input  logic [MetaW-1:0]     res_meta_i,

  // onerma_window unwinds (owner = ctx).
  output logic                 uw_valid_o,
  input  logic                 uw_ready_i,
  output logic [CtxW-1:0]      uw_ctx_o,
  output logic [onerma_pkg::ChunkIndexBits-1:0] uw_chunk_o,
  output logic                 uw_read_o,
  /// The unwound chunk's context serves a REKEY (its read-out is a key install, not a host write).
  output logic                 uw_rekey_o,
  input  logic                 uw_done_i,
  input  logic [CtxW-1:0]      uw_done_ctx_i,
  input  logic [onerma_pkg::ChunkIndexBits-1:0] uw_done_chunk_i,

  // Host writes of verified WRITE chunks (an onerma_dma_wr client, data = the read-out).
  output logic                 hw_valid_o,
  input  logic                 hw_ready_i,
  output logic [63:0]          hw_addr_o,
  output logic [12:0]          hw_len_o,
  output logic [15:0]          hw_region_o,
  output logic [15:0]          hw_gen_o,
  output logic [CtxW+onerma_pkg::ChunkIndexBits-1:0] hw_tag_o,
  input  logic                 hw_rsp_valid_i,
  output logic                 hw_rsp_ready_o,
  input  logic [CtxW+onerma_pkg::ChunkIndexBits-1:0] hw_rsp_tag_i,
  input  logic                 hw_rsp_ok_i,

  // REKEY key installs (key = the read-out's first 16 bytes) and their results.
  output logic                 ins_valid_o,
  input  logic                 ins_ready_i,
  output logic [15:0]          ins_region_o,
  output logic [15:0]          ins_gen_o,
  output logic [7:0]           ins_key_gen_o,
  output logic [CtxW-1:0]      ins_ctx_o,
  input  logic                 ins_done_i,
  input  logic [CtxW-1:0]      ins_done_ctx_i,
  input  logic                 ins_ok_i,

  // Drop counters (protocol §12).
  output logic                 drop_stale_o,
  output logic                 drop_dup_o,
  output logic                 drop_auth_o
);

  import onerma_pkg::*;

  localparam int unsigned ChunkShift = $clog2(ChunkBytes);

  // Chunk states (§8.4 with the window and host steps made explicit), as onerma_ini_ops.
  typedef enum logic [2:0] {
    CsMissing  = 3'd0,
    CsPending  = 3'd1, // in an engine
    CsDropping = 3'd2, // lines being released from the window
    CsReading  = 3'd3, // verified, queued for or in the window read-out
    CsWriting  = 3'd4, // read out, host write / install not answered
    CsDone     = 3'd5
  } cst_e;

  typedef struct packed {
    logic [CtxW-1:0] ctx;
    logic [ChunkIndexBits-1:0] chunk;
    logic            read;
  } uw_t;

  typedef struct packed {
    logic [CtxW-1:0] ctx;
    logic [ChunkIndexBits-1:0] chunk;
    logic            rekey;
  } hwq_t;

  // ---------------------------------------------------------------------------------------
  // Memo copies (written at the service handshake, read while the context is in use).
  // ---------------------------------------------------------------------------------------
  hdr_t         req_mem   [NumCtx];
  logic [127:0] kd_mem    [NumCtx];
  logic [63:0]  base_mem  [NumCtx];
  logic [15:0]  gen_mem   [NumCtx];
  logic [7:0]   kg_mem    [NumCtx];
  // Written at the WR_RDREQ's counter.
  logic [63:0]          rdctr_mem [NumCtx];
  logic [TimeWidth-1:0] dl_mem    [NumCtx];

  // ---------------------------------------------------------------------------------------
  // Per-context state (flops).
  // ---------------------------------------------------------------------------------------
  logic [NumCtx-1:0]      use_q, use_d;     // in use (service to free)
  logic [NumCtx-1:0]      rqo_q, rqo_d;     // WR_RDREQ owed to the sealer
  logic [NumCtx-1:0]      cmo_q, cmo_d;     // WR_CMPL owed to the sealer
  logic [NumCtx-1:0]      sjf_q, sjf_d;     // a job handed to the sealer, no asg / drop yet
  logic [NumCtx-1:0]      snd_q, snd_d;     // WR_RDREQ counter known, not yet sent
  logic [NumCtx-1:0]      live_q, live_d;   // WR_RDREQ sent: WR_DATA can be taken
  logic [NumCtx-1:0]      late_q, late_d;   // the scan saw the deadline pass
  logic [NumCtx-1:0]      exp_q, exp_d;     // ends silently (expired, or WR_RDREQ dropped)
  logic [NumCtx-1:0]      err_q, err_d;     // status REMOTE_ACCESS_ERROR: no further write
  logic [NumCtx-1:0]      endg_q, endg_d;   // end decided (WR_CMPL owed / sent, or free owed)
  logic [NumCtx-1:0]      fin_q, fin_d;     // to be freed (refund)
  logic [NumCtx-1:0]      rekey_q, rekey_d;
  logic [NumCtx-1:0][2:0] nch_q, nch_d;
  cst_e [NumCtx-1:0][MaxChunks-1:0] cst_q, cst_d;

  function automatic logic [2:0] n_chunks(input logic [ChunkShift+2:0] len);
    // length <= 4096 (the request checks): at most MaxChunks chunks.
    return len[ChunkShift+2:ChunkShift] + 3'(len[ChunkShift-1:0] != '0);
  endfunction

  function automatic logic [12:0] chunk_len(input logic [15:0] len, input logic [ChunkIndexBits-1:0] k);
    logic [15:0] rest;
    rest = len - (16'(k) << ChunkShift);
    return (rest > 16'(ChunkBytes)) ? 13'(ChunkBytes) : rest[12:0];
  endfunction

  // ---------------------------------------------------------------------------------------
  // Service (§8.2): the lowest free context, with the reservation in the same cycle.
  // ---------------------------------------------------------------------------------------
  logic            have_free, srv_fire;
  logic [CtxW-1:0] free_idx;
  always_comb begin
    have_free = 1'b0;
    free_idx  = '0;
    for (int i = NumCtx - 1; i >= 0; i--) begin
      if (!use_q[i]) begin
        have_free = 1'b1;
        free_idx  = CtxW'(i);
      end
    end
  end

  assign rsv_valid_o = srv_valid_i && have_free;
  assign free_o      = have_free;
  assign rsv_lines_o = 7'((srv_hdr_i.length + 16'd63) >> 6);
  assign srv_ready_o = have_free && rsv_ready_i;
  assign srv_fire    = srv_valid_i && srv_ready_o;

  always_ff @(posedge clk_i) begin
    if (srv_fire) begin
      req_mem[free_idx]  <= srv_hdr_i;
      kd_mem[free_idx]   <= srv_kd_i;
      base_mem[free_idx] <= srv_base_i;
      gen_mem[free_idx]  <= srv_gen_i;
      kg_mem[free_idx]   <= srv_key_gen_i;
    end
  end

  // ---------------------------------------------------------------------------------------
  // Sealer jobs into a register: the WR_RDREQs first, in service order (an observer serves
  // the queue's requests in the order their WR_RDREQs appear, §8.2), then a context owing a
  // WR_CMPL, round-robin.
  // ---------------------------------------------------------------------------------------
  logic              sj_pick_valid, sj_load, sj_fire, sj_pick_kind;
  logic              cm_valid, rdq_valid;
  logic [CtxW-1:0]   sj_pick, cm_pick, rdq_head, sj_ptr_q, sj_ctx_q;
  logic              sj_q_valid, sj_kind_q;
  logic [31:0]       sj_hold_q;

  assign sj_fire = sj_q_valid && sj_ready_i;
  onerma_rr_pick #(.N(NumCtx)) u_sj_pick (
    .req_i(cmo_q), .ptr_i(sj_ptr_q), .valid_o(cm_valid), .idx_o(cm_pick)
  );
  // Each context at most once (its service to its WR_RDREQ's load), so never full.
  /* verilator lint_off PINCONNECTEMPTY */
  onerma_fifo #(.Width(CtxW), .Depth(NumCtx)) u_rdq (
    .clk_i, .rst_ni, .flush_i(1'b0),
    .in_valid_i(srv_fire), .in_ready_o(), .in_data_i(free_idx),
    .out_valid_o(rdq_valid), .out_ready_i(sj_load && !sj_pick_kind), .out_data_o(rdq_head),
    .count_o()
  );
  /* verilator lint_on PINCONNECTEMPTY */
  assign sj_pick_valid = rdq_valid || cm_valid;
  assign sj_pick_kind  = !rdq_valid;
  assign sj_pick       = rdq_valid ? rdq_head : cm_pick;
  assign sj_load       = sj_pick_valid && (!sj_q_valid || sj_ready_i);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      sj_q_valid <= 1'b0;
      sj_ctx_q   <= '0;
      sj_kind_q  <= 1'b0;
      sj_ptr_q   <= '0;
      sj_hold_q  <= '0;
    end else begin
      if (sj_load) begin
        sj_q_valid <= 1'b1;
        sj_ctx_q   <= sj_pick;
        sj_kind_q  <= sj_pick_kind;
        sj_hold_q  <= hold_ns_i;
        if (sj_pick_kind) sj_ptr_q <= (32'(sj_pick) == NumCtx - 1) ? '0 : sj_pick + 1'b1;
      end else if (sj_ready_i) begin
        sj_q_valid <= 1'b0;
      end
    end
  end

  hdr_t sj_req_h, sj_h;
  always_comb begin
    sj_req_h              = req_mem[sj_ctx_q];
    sj_h                  = sj_req_h;
    sj_h.dst_nic          = sj_req_h.src_nic;
    sj_h.ctx              = 16'(sj_ctx_q);
    sj_h.chunk_offset     = '0;
    sj_h.chunk_len        = '0;
    if (!sj_kind_q) begin
      sj_h.msg_type     = MsgTypeWrRdreq;
      sj_h.status       = StatusOk;
      sj_h.prev_counter = sj_req_h.counter;
      sj_h.hold_ns      = sj_hold_q;
    end else begin
      sj_h.msg_type     = MsgTypeWrCmpl;
      sj_h.status       = err_q[sj_ctx_q] ? StatusRemoteAccessError : StatusOk;
      sj_h.prev_counter = rdctr_mem[sj_ctx_q];
      sj_h.hold_ns      = '0;
    end
  end

  assign sj_valid_o = sj_q_valid;
  assign sj_hdr_o   = sj_h;
  assign sj_key_o   = kd_mem[sj_ctx_q];
  assign sj_meta_o  = {sj_kind_q, sj_ctx_q};

  // ---------------------------------------------------------------------------------------
  // WR_DATA acceptance (§8.4), one header per cycle.
  // ---------------------------------------------------------------------------------------
  logic                 route_in_ready, route_out_valid, route_out_pass;
  logic                 job_q_valid;
  hdr_t                 job_hdr_q;
  logic [127:0]         job_tag_q, job_key_q;
  logic [MetaW-1:0]     job_meta_q;

  logic                 hdr_fire;
  logic [CtxW-1:0]      hc;
  hdr_t                 hm;
  logic [ChunkIndexBits-1:0] h_chunk;
  logic                 h_in_range, h_ok, h_time, h_stale, h_dup, h_acc;
  logic [TimeWidth-1:0] h_diff;

  assign hdr_ready_o = (!job_q_valid || oj_ready_i) && route_in_ready;
  assign hdr_fire    = hdr_valid_i && hdr_ready_o;
  assign hc          = hdr_i.ctx[CtxW-1:0];
  assign h_in_range  = (32'(hdr_i.ctx) < NumCtx);
  assign hm          = req_mem[hc];
  assign h_chunk     = hdr_i.chunk_offset[ChunkShift+ChunkIndexBits-1:ChunkShift];

  always_comb begin
    h_ok    = h_in_range && use_q[hc] && live_q[hc] && !endg_q[hc] && !exp_q[hc] && !err_q[hc] &&
              (hdr_i.msg_type == MsgTypeWrData) &&
              (hdr_i.prev_counter == rdctr_mem[hc]) &&
              (hdr_i.src_nic == hm.src_nic) && (hdr_i.slot == hm.slot) &&
              (hdr_i.op_type == hm.op_type) && (hdr_i.pid == hm.pid) &&
              (hdr_i.region == hm.region) && (hdr_i.offset == hm.offset) &&
              (hdr_i.length == hm.length) &&
              (hdr_i.chunk_offset[ChunkShift-1:0] == '0) &&
              (hdr_i.chunk_offset < hdr_i.length) &&
              (hdr_i.chunk_len[15:13] == '0) &&
              (13'(hdr_i.chunk_len) == chunk_len(hdr_i.length, h_chunk));
    // The frame's last beat before the deadline, modulo 2^TimeWidth (exact).
    h_diff  = hdr_t_rx_i - dl_mem[hc];
    h_time  = h_diff[TimeWidth-1];
    h_stale = !(h_ok && h_time);
    h_dup   = !h_stale && (cst_q[hc][h_chunk] != CsMissing);
    h_acc   = !h_stale && !h_dup;
  end

  logic hdr_acc;
  assign hdr_acc      = hdr_fire && h_acc;
  assign drop_stale_o = hdr_fire && h_stale;
  assign drop_dup_o   = hdr_fire && h_dup;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      job_q_valid <= 1'b0;
    end else if (hdr_fire) begin
      job_q_valid <= h_acc;
    end else if (oj_ready_i) begin
      job_q_valid <= 1'b0;
    end
  end

  always_ff @(posedge clk_i) begin
    if (hdr_acc) begin
      job_hdr_q  <= hdr_i;
      job_tag_q  <= hdr_tag_i;
      job_key_q  <= kd_mem[hc];
      job_meta_q <= {h_chunk, hc};
    end
  end

  assign oj_valid_o = job_q_valid;
  assign oj_hdr_o   = job_hdr_q;
  assign oj_tag_o   = job_tag_q;
  assign oj_key_o   = job_key_q;
  assign oj_meta_o  = job_meta_q;

  // Payload routing, as onerma_ini_ops: one decision per frame with payload, in frame order;
  // a passed frame's payload waits while its job is still in the job register.
  logic       route_pop, route_head_wait, unjob_q;
  logic [1:0] route_count;
  onerma_fifo #(.Width(1), .Depth(2)) u_route (
    .clk_i, .rst_ni, .flush_i(1'b0),
    .in_valid_i(hdr_fire && (hdr_i.chunk_len != '0)), .in_ready_o(route_in_ready),
    .in_data_i(h_acc),
    .out_valid_o(route_out_valid), .out_ready_i(route_pop), .out_data_o(route_out_pass),
    .count_o(route_count)
  );
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) unjob_q <= 1'b0;
    else if (hdr_acc) unjob_q <= (hdr_i.chunk_len != '0);
    else if (oj_ready_i) unjob_q <= 1'b0;
  end
  assign route_head_wait = route_out_pass && unjob_q && (route_count == 2'd1);
  assign opay_valid_o = pay_valid_i && route_out_valid && route_out_pass && !route_head_wait;
  assign pay_ready_o  = route_out_valid && (!route_out_pass || (opay_ready_i && !route_head_wait));
  assign route_pop    = pay_valid_i && pay_ready_o && pay_last_i;

  // ---------------------------------------------------------------------------------------
  // Tag results: an unwind each (read iff verified and no error decided); a read also queues
  // the host write (WRITE) or the install (REKEY), in unwind order.
  // ---------------------------------------------------------------------------------------
  logic            uwq_in_ready, res_fire, r_read;
  logic [ChunkIndexBits-1:0] r_chunk;
  logic [CtxW-1:0] r_ctx;

  assign res_ready_o = uwq_in_ready;
  assign res_fire    = res_valid_i && res_ready_o;
  assign {r_chunk, r_ctx} = res_meta_i;
  assign r_read      = res_ok_i && !err_q[r_ctx];
  assign drop_auth_o = res_fire && !res_ok_i && !err_q[r_ctx];

  uw_t  uwq_out;
  logic uwq_out_valid, uw_fire;
  onerma_fifo #(.T(uw_t), .Depth(4)) u_uwq (
    .clk_i, .rst_ni, .flush_i(1'b0),
    .in_valid_i(res_fire), .in_ready_o(uwq_in_ready),
    .in_data_i('{ctx: r_ctx, chunk: r_chunk, read: r_read}),
    .out_valid_o(uwq_out_valid), .out_ready_i(uw_fire), .out_data_o(uwq_out),
    /* verilator lint_off PINCONNECTEMPTY */
    .count_o()
    /* verilator lint_on PINCONNECTEMPTY */
  );

  logic hwq_in_ready, hwq_out_valid, hwq_pop;
  hwq_t hwq_out;
  assign uw_valid_o = uwq_out_valid && (!uwq_out.read || hwq_in_ready);
  assign uw_fire    = uw_valid_o && uw_ready_i;
  assign uw_ctx_o   = uwq_out.ctx;
  assign uw_chunk_o = uwq_out.chunk;
  assign uw_read_o  = uwq_out.read;
  assign uw_rekey_o = rekey_q[uwq_out.ctx];

  onerma_fifo #(.T(hwq_t), .Depth(4)) u_hwq (
    .clk_i, .rst_ni, .flush_i(1'b0),
    .in_valid_i(uw_fire && uwq_out.read), .in_ready_o(hwq_in_ready),
    .in_data_i('{ctx: uwq_out.ctx, chunk: uwq_out.chunk, rekey: rekey_q[uwq_out.ctx]}),
    .out_valid_o(hwq_out_valid), .out_ready_i(hwq_pop), .out_data_o(hwq_out),
    /* verilator lint_off PINCONNECTEMPTY */
    .count_o()
    /* verilator lint_on PINCONNECTEMPTY */
  );

  hdr_t hq;
  assign hq          = req_mem[hwq_out.ctx];
  assign hwq_pop     = hwq_out.rekey ? ins_ready_i : hw_ready_i;
  assign hw_valid_o  = hwq_out_valid && !hwq_out.rekey;
  assign hw_addr_o   = base_mem[hwq_out.ctx] + hq.offset + (64'(hwq_out.chunk) << ChunkShift);
  assign hw_len_o    = chunk_len(hq.length, hwq_out.chunk);
  assign hw_region_o = hq.region;
  assign hw_gen_o    = gen_mem[hwq_out.ctx];
  assign hw_tag_o    = {hwq_out.ctx, hwq_out.chunk};
  assign hw_rsp_ready_o = 1'b1;

  assign ins_valid_o   = hwq_out_valid && hwq_out.rekey;
  assign ins_region_o  = hq.region;
  assign ins_gen_o     = gen_mem[hwq_out.ctx];
  assign ins_key_gen_o = kg_mem[hwq_out.ctx];
  assign ins_ctx_o     = hwq_out.ctx;

  // ---------------------------------------------------------------------------------------
  // Per-context values written by the WR_RDREQ's counter and by its sending.
  // ---------------------------------------------------------------------------------------
  logic asg_rdreq;
  assign asg_rdreq = asg_i && !endg_q[asg_ctx_i] &&
                     (sjf_q[asg_ctx_i] || (sj_fire && sj_ctx_q == asg_ctx_i));
  always_ff @(posedge clk_i) begin
    if (asg_rdreq) rdctr_mem[asg_ctx_i] <= asg_counter_i;
    if (sent_i && snd_q[sent_ctx_i]) dl_mem[sent_ctx_i] <= now_i + server_timeout_i;
  end

  // ---------------------------------------------------------------------------------------
  // Deadline scan: one context per cycle (TimerSlack = NumCtx cycles after `judged_i` passes
  // the deadline).
  // ---------------------------------------------------------------------------------------
  logic [CtxW-1:0]      scan_q;
  logic [TimeWidth-1:0] sc_diff;
  logic                 sc_late;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) scan_q <= '0;
    else scan_q <= (32'(scan_q) == NumCtx - 1) ? '0 : scan_q + 1'b1;
  end
  // Late once every WR_DATA that arrived before the deadline was judged (the protocol takes a
  // WR_DATA by its arrival, however long it waited behind others).
  assign sc_diff = judged_i - dl_mem[scan_q];
  assign sc_late = use_q[scan_q] && live_q[scan_q] && !sc_diff[TimeWidth-1];

  // ---------------------------------------------------------------------------------------
  // Frees: a context with its end done, round-robin, one per cycle, with its refund.
  // ---------------------------------------------------------------------------------------
  logic            fr_valid;
  logic [CtxW-1:0] fr_pick, fr_ptr_q;
  onerma_rr_pick #(.N(NumCtx)) u_fr_pick (
    .req_i(fin_q), .ptr_i(fr_ptr_q), .valid_o(fr_valid), .idx_o(fr_pick)
  );
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) fr_ptr_q <= '0;
    else if (fr_valid) fr_ptr_q <= (32'(fr_pick) == NumCtx - 1) ? '0 : fr_pick + 1'b1;
  end
  assign refund_valid_o = fr_valid;
  assign refund_lines_o = 7'((req_mem[fr_pick].length + 16'd63) >> 6);

  // ---------------------------------------------------------------------------------------
  // The per-context update: every event of the cycle applied to its context.
  // ---------------------------------------------------------------------------------------
  logic [CtxW-1:0] hw_rsp_ctx;
  logic [ChunkIndexBits-1:0] hw_rsp_chunk;
  assign {hw_rsp_ctx, hw_rsp_chunk} = hw_rsp_tag_i;

  logic [NumCtx-1:0] inflight;
  always_comb begin
    for (int unsigned ci = 0; ci < NumCtx; ci++) begin
      inflight[ci] = rqo_q[ci] || sjf_q[ci] || snd_q[ci] || (sj_q_valid && sj_ctx_q == CtxW'(ci));
      for (int unsigned c = 0; c < MaxChunks; c++) begin
        if (cst_q[ci][c] inside {CsPending, CsDropping, CsReading, CsWriting}) inflight[ci] = 1'b1;
      end
    end
  end

  always_comb begin
    use_d   = use_q;
    rqo_d   = rqo_q;
    cmo_d   = cmo_q;
    sjf_d   = sjf_q;
    snd_d   = snd_q;
    live_d  = live_q;
    late_d  = late_q;
    exp_d   = exp_q;
    err_d   = err_q;
    endg_d  = endg_q;
    fin_d   = fin_q;
    rekey_d = rekey_q;
    nch_d   = nch_q;
    cst_d   = cst_q;
    for (int unsigned ci = 0; ci < NumCtx; ci++) begin
      logic [CtxW-1:0] c;
      logic            missing, all_done, sj_out;
      c = CtxW'(ci);
      // Sealer: the job leaves the register; its counter or its discard.
      if (sj_load && sj_pick == c) begin
        if (sj_pick_kind) cmo_d[ci] = 1'b0;
        else rqo_d[ci] = 1'b0;
      end
      if (sj_fire && sj_ctx_q == c) sjf_d[ci] = 1'b1;
      // A counter, discard or send only for a job this context has out (robust to a stray one).
      sj_out = sjf_q[ci] || (sj_fire && sj_ctx_q == c);
      if (asg_i && asg_ctx_i == c && sj_out) begin
        sjf_d[ci] = 1'b0;
        if (endg_q[ci]) fin_d[ci] = 1'b1;
        else snd_d[ci] = 1'b1;
      end
      if (sent_i && sent_ctx_i == c && snd_q[ci]) begin
        snd_d[ci]  = 1'b0;
        live_d[ci] = 1'b1;
      end
      if (sj_drop_i && sj_drop_ctx_i == c && sj_out) begin
        sjf_d[ci] = 1'b0;
        if (endg_q[ci]) fin_d[ci] = 1'b1;
        else exp_d[ci] = 1'b1;  // WR_RDREQ never sent: no WR_DATA can come
      end
      // WR_DATA header accepted.
      if (hdr_acc && hc == c) cst_d[ci][h_chunk] = CsPending;
      // Tag result.
      if (res_fire && r_ctx == c) cst_d[ci][r_chunk] = r_read ? CsReading : CsDropping;
      // Window unwind finished.
      if (uw_done_i && uw_done_ctx_i == c) begin
        if (cst_q[ci][uw_done_chunk_i] == CsDropping) cst_d[ci][uw_done_chunk_i] = CsMissing;
        else cst_d[ci][uw_done_chunk_i] = CsWriting;
      end
      // Host write answered / key install done.
      if (hw_rsp_valid_i && hw_rsp_ctx == c) begin
        cst_d[ci][hw_rsp_chunk] = hw_rsp_ok_i ? CsDone : CsMissing;
        if (!hw_rsp_ok_i) err_d[ci] = 1'b1;
      end
      if (ins_done_i && ins_done_ctx_i == c) begin
        cst_d[ci][0] = ins_ok_i ? CsDone : CsMissing;
        if (!ins_ok_i) err_d[ci] = 1'b1;
      end
      // Deadline: seen by the scan; expired while a chunk is missing and no error decided.
      if (scan_q == c && sc_late) late_d[ci] = 1'b1;
      missing  = 1'b0;
      all_done = 1'b1;
      for (int unsigned k = 0; k < MaxChunks; k++) begin
        if (3'(k) < nch_q[ci] && cst_d[ci][k] == CsMissing) missing = 1'b1;
        if (3'(k) < nch_q[ci] && cst_q[ci][k] != CsDone) all_done = 1'b0;
      end
      if (use_q[ci] && !endg_q[ci] && late_d[ci] && missing && !err_d[ci]) exp_d[ci] = 1'b1;
      // The end, once nothing is in flight: silent, or a WR_CMPL owed.
      if (use_q[ci] && !endg_q[ci] && !inflight[ci] && (exp_q[ci] || err_q[ci] || all_done)) begin
        endg_d[ci] = 1'b1;
        if (exp_q[ci]) fin_d[ci] = 1'b1;
        else cmo_d[ci] = 1'b1;
      end
      // Freed.
      if (fr_valid && fr_pick == c) begin
        use_d[ci] = 1'b0;
        fin_d[ci] = 1'b0;
      end
      // Service: the context was free (last, so it sets the new service's state whatever
      // else named this index in the cycle).
      if (srv_fire && free_idx == c) begin
        use_d[ci]   = 1'b1;
        rqo_d[ci]   = 1'b1;
        cmo_d[ci]   = 1'b0;
        sjf_d[ci]   = 1'b0;
        snd_d[ci]   = 1'b0;
        live_d[ci]  = 1'b0;
        late_d[ci]  = 1'b0;
        exp_d[ci]   = 1'b0;
        err_d[ci]   = 1'b0;
        endg_d[ci]  = 1'b0;
        fin_d[ci]   = 1'b0;
        rekey_d[ci] = (srv_hdr_i.op_type == OpTypeRekey);
        nch_d[ci]   = n_chunks(srv_hdr_i.length[ChunkShift+2:0]);
        for (int unsigned k = 0; k < MaxChunks; k++) cst_d[ci][k] = CsMissing;
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      use_q   <= '0;
      rqo_q   <= '0;
      cmo_q   <= '0;
      sjf_q   <= '0;
      snd_q   <= '0;
      live_q  <= '0;
      late_q  <= '0;
      exp_q   <= '0;
      err_q   <= '0;
      endg_q  <= '0;
      fin_q   <= '0;
      rekey_q <= '0;
      nch_q   <= '0;
      cst_q   <= '0;
    end else begin
      use_q   <= use_d;
      rqo_q   <= rqo_d;
      cmo_q   <= cmo_d;
      sjf_q   <= sjf_d;
      snd_q   <= snd_d;
      live_q  <= live_d;
      late_q  <= late_d;
      exp_q   <= exp_d;
      err_q   <= err_d;
      endg_q  <= endg_d;
      fin_q   <= fin_d;
      rekey_q <= rekey_d;
      nch_q   <= nch_d;
      cst_q   <= cst_d;
    end
  end

`ifndef SYNTHESIS
  // The order this block relies on (the proof assumes it): a chunk's host write or install is
  // answered only after (or in the cycle of) its read-out's `uw_done`.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (rst_ni && hw_rsp_valid_i) begin
      assert (cst_q[hw_rsp_ctx][hw_rsp_chunk] == CsWriting ||
              (cst_q[hw_rsp_ctx][hw_rsp_chunk] == CsReading && uw_done_i &&
               uw_done_ctx_i == hw_rsp_ctx && uw_done_chunk_i == hw_rsp_chunk))
        else $error("onerma_rsp_ctx: host write answered before its read-out finished");
    end
    if (rst_ni && ins_done_i) begin
      assert (cst_q[ins_done_ctx_i][0] == CsWriting ||
              (cst_q[ins_done_ctx_i][0] == CsReading && uw_done_i &&
               uw_done_ctx_i == ins_done_ctx_i && uw_done_chunk_i == '0))
        else $error("onerma_rsp_ctx: install answered before its read-out finished");
    end
  end
`endif

  logic unused;
  assign unused = ^{hdr_i.dst_nic, hdr_i.counter, hdr_i.status, hdr_i.rsvd0, hdr_i.rsvd1,
                    hdr_i.hold_ns, hm, hq};

endmodule

`default_nettype wire
