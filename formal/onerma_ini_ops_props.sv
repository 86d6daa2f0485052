`default_nettype none

// Properties of onerma_ini_ops. One slot `s` (a symbolic constant) is followed through every
// event of its ops by shadows kept from the ports only: busy (accept to free), queued, the
// record owed (accept to record issue), the request in flight (arm to asg / req_drop), the
// counter of the last asg, and per chunk the steps of a chunk (opener job issued, in the engine,
// unwind owed, unwind in the window, host write owed, host write issued, written), the reply and
// control jobs, the re-arm (verified WR_RDREQ to WR_DATA start) and the WR_DATA sender (start to
// done). The neighbours answer only what they were given (assumed with the shadows); the other
// slots are unconstrained. Asserted: one record per accepted command, issued only with nothing of
// the op in flight; a read-out unwind and a host write only for a chunk verified while the op was
// in service; opener jobs only for a live op with its counters; the refund; the output streams.
// The induction invariants tie the slot's flops, the FIFO contents and the divider to the
// shadows.
`ifdef FORMAL
module onerma_ini_ops_props #(
  parameter int unsigned NumSlots  = 2,
  parameter int unsigned TimeWidth = 6,
  parameter int unsigned SlotWidth = (NumSlots > 1) ? $clog2(NumSlots) : 1,
  parameter int unsigned MetaW     = SlotWidth + 2 + onerma_pkg::ChunkIndexBits,
  parameter int unsigned TagW      = SlotWidth + onerma_pkg::ChunkIndexBits
) (
  input logic                 clk_i,
  input logic                 rst_ni,
  input logic                 acc_valid_i,
  input logic [SlotWidth-1:0] acc_slot_i,
  input onerma_pkg::status_e  acc_status_i,
  input onerma_pkg::cmd_t     acc_cmd_i,
  input logic [63:0]          acc_local_addr_i,
  input logic [15:0]          acc_local_gen_i,
  input logic                 exp_valid_i,
  input logic [SlotWidth-1:0] exp_slot_i,
  input logic                 arm_i,
  input logic [SlotWidth-1:0] arm_slot_i,
  input logic                 asg_i,
  input logic [SlotWidth-1:0] asg_slot_i,
  input logic [63:0]          asg_counter_i,
  input logic                 req_drop_i,
  input logic [SlotWidth-1:0] req_drop_slot_i,
  input logic                 hdr_valid_i,
  input logic                 hdr_ready_o,
  input onerma_pkg::hdr_t     hdr_i,
  input logic [127:0]         hdr_tag_i,
  input logic [TimeWidth-1:0] hdr_t_rx_i,
  input logic                 pay_valid_i,
  input logic                 pay_ready_o,
  input logic                 pay_last_i,
  input logic                 opay_valid_o,
  input logic                 opay_ready_i,
  input logic                 job_valid_o,
  input logic                 job_ready_i,
  input onerma_pkg::hdr_t     job_hdr_o,
  input logic [127:0]         job_tag_o,
  input logic [127:0]         job_key_o,
  input logic [MetaW-1:0]     job_meta_o,
  input logic                 res_valid_i,
  input logic                 res_ready_o,
  input logic                 res_ok_i,
  input logic [MetaW-1:0]     res_meta_i,
  input logic                 uw_valid_o,
  input logic                 uw_ready_i,
  input logic [SlotWidth-1:0] uw_slot_o,
  input logic [onerma_pkg::ChunkIndexBits-1:0] uw_chunk_o,
  input logic                 uw_read_o,
  input logic                 uw_done_i,
  input logic [SlotWidth-1:0] uw_done_slot_i,
  input logic [onerma_pkg::ChunkIndexBits-1:0] uw_done_chunk_i,
  input logic                 hw_valid_o,
  input logic                 hw_ready_i,
  input logic [63:0]          hw_addr_o,
  input logic [12:0]          hw_len_o,
  input logic [15:0]          hw_region_o,
  input logic [15:0]          hw_gen_o,
  input logic [TagW-1:0]      hw_tag_o,
  input logic                 hw_rsp_valid_i,
  input logic [TagW-1:0]      hw_rsp_tag_i,
  input logic                 hw_rsp_ok_i,
  input logic                 wds_valid_o,
  input logic                 wds_ready_i,
  input logic [SlotWidth-1:0] wds_slot_o,
  input logic [63:0]          wds_counter_o,
  input logic [15:0]          wds_ctx_o,
  input logic                 wd_fail_i,
  input logic [SlotWidth-1:0] wd_fail_slot_i,
  input logic                 wd_done_i,
  input logic [SlotWidth-1:0] wd_done_slot_i,
  input logic [NumSlots-1:0]  live_o,
  input logic                 rec_valid_o,
  input logic                 rec_ready_i,
  input logic [SlotWidth-1:0] rec_slot_o,
  input onerma_pkg::status_e  rec_status_o,
  input logic [7:0]           rec_op_type_o,
  input logic [15:0]          rec_seq_o,
  input logic [TimeWidth-1:0] rec_t_sub_o,
  input logic [TimeWidth-1:0] rec_t_disp_o,
  input logic                 rec_dispatched_o,
  input logic [63:0]          rec_cq_addr_o,
  input logic [15:0]          rec_cq_region_o,
  input logic [15:0]          rec_cq_gen_o,
  input logic                 recd_valid_i,
  input logic [SlotWidth-1:0] recd_slot_i,
  input logic                 free_o,
  input logic [SlotWidth-1:0] free_slot_o,
  input logic                 refund_valid_o,
  input logic [6:0]           refund_lines_o
);
  import onerma_pkg::*;

  // Chunks: MaxChunks per op of at most 4096 bytes, ChunkBytes each, CIB bits of index.
  localparam int unsigned CIB = ChunkIndexBits;
  localparam int unsigned CS  = $clog2(ChunkBytes);
  localparam int unsigned NC  = MaxChunks;

  // The DUT's encodings (phase_e, cst_e, kinds, dv_e in onerma_ini_ops.sv).
  localparam logic [2:0] PhFree = 3'd0, PhQueued = 3'd1, PhService = 3'd2, PhEnding = 3'd3,
                         PhRecord = 3'd4;
  localparam logic [2:0] CsMissing = 3'd0, CsPending = 3'd1, CsDropping = 3'd2,
                         CsReading = 3'd3, CsWriting = 3'd4, CsDone = 3'd5;
  localparam logic [1:0] KindChunk = 2'd0, KindReply = 2'd1, KindRdreq = 2'd2, KindCmpl = 2'd3;
  localparam logic [1:0] DvIdle = 2'd0, DvRun = 2'd1, DvArm = 2'd2;

  logic [SlotWidth-1:0] s;
  always_ff @(posedge clk_i) s <= s;
  always_comb assume (32'(s) < NumSlots);

  logic past_valid_q = 1'b0;
  always_ff @(posedge clk_i) past_valid_q <= 1'b1;
  always_comb if (!past_valid_q) assume (!rst_ni);

  // ---- (6) Stream rules: assumed on the inputs, asserted on the outputs.
  onerma_stream_check #(.Width($bits(hdr_t) + 128 + TimeWidth), .Assume(1'b1)) u_hdr (
    .clk_i, .rst_ni, .valid_i(hdr_valid_i), .ready_i(hdr_ready_o),
    .data_i({hdr_i, hdr_tag_i, hdr_t_rx_i}));
  onerma_stream_check #(.Width(1), .Assume(1'b1)) u_pay (
    .clk_i, .rst_ni, .valid_i(pay_valid_i), .ready_i(pay_ready_o), .data_i(pay_last_i));
  onerma_stream_check #(.Width(1 + MetaW), .Assume(1'b1)) u_res (
    .clk_i, .rst_ni, .valid_i(res_valid_i), .ready_i(res_ready_o),
    .data_i({res_ok_i, res_meta_i}));
  onerma_stream_check #(.Width(1), .Assume(1'b0)) u_opay (
    .clk_i, .rst_ni, .valid_i(opay_valid_o), .ready_i(opay_ready_i), .data_i(pay_last_i));
  // The outputs that name a slot are checked for the streams of s: the other slots' neighbours
  // are not constrained (they could rewrite a memo under a waiting record), and s is any slot,
  // so the rule holds for every stream.
  logic job_v_s, uw_v_s, hw_v_s, wds_v_s, rec_v_s;
  assign job_v_s = job_valid_o && job_meta_o[SlotWidth-1:0] == s;
  assign uw_v_s  = uw_valid_o && uw_slot_o == s;
  assign hw_v_s  = hw_valid_o && hw_tag_o[TagW-1:CIB] == s;
  assign wds_v_s = wds_valid_o && wds_slot_o == s;
  assign rec_v_s = rec_valid_o && rec_slot_o == s;
  onerma_stream_check #(.Width($bits(hdr_t) + 256 + MetaW), .Assume(1'b0)) u_job (
    .clk_i, .rst_ni, .valid_i(job_v_s), .ready_i(job_ready_i),
    .data_i({job_hdr_o, job_tag_o, job_key_o, job_meta_o}));
  onerma_stream_check #(.Width(SlotWidth + CIB + 1), .Assume(1'b0)) u_uw (
    .clk_i, .rst_ni, .valid_i(uw_v_s), .ready_i(uw_ready_i),
    .data_i({uw_slot_o, uw_chunk_o, uw_read_o}));
  onerma_stream_check #(.Width(64 + 13 + 32 + TagW), .Assume(1'b0)) u_hw (
    .clk_i, .rst_ni, .valid_i(hw_v_s), .ready_i(hw_ready_i),
    .data_i({hw_addr_o, hw_len_o, hw_region_o, hw_gen_o, hw_tag_o}));
  onerma_stream_check #(.Width(SlotWidth + 80), .Assume(1'b0)) u_wds (
    .clk_i, .rst_ni, .valid_i(wds_v_s), .ready_i(wds_ready_i),
    .data_i({wds_slot_o, wds_counter_o, wds_ctx_o}));
  onerma_stream_check #(.Width(SlotWidth + 8 + 8 + 16 + 2 * TimeWidth + 1 + 64 + 32),
                        .Assume(1'b0)) u_rec (
    .clk_i, .rst_ni, .valid_i(rec_v_s), .ready_i(rec_ready_i),
    .data_i({rec_slot_o, rec_status_o, rec_op_type_o, rec_seq_o, rec_t_sub_o, rec_t_disp_o,
             rec_dispatched_o, rec_cq_addr_o, rec_cq_region_o, rec_cq_gen_o}));

  // ---- Port events of slot s.
  logic [1:0] j_kind, r_kind;
  logic [CIB-1:0] j_chunk, r_chunk, hw_chunk, hr_chunk;
  logic [SlotWidth-1:0] j_slot, r_slot, hw_slot, hr_slot;
  assign {j_kind, j_chunk, j_slot}  = job_meta_o;
  assign {r_kind, r_chunk, r_slot}  = res_meta_i;
  assign {hw_slot, hw_chunk}        = hw_tag_o;
  assign {hr_slot, hr_chunk}        = hw_rsp_tag_i;

  logic acc_s, arm_s, exp_s, asg_s, drop_s, hdr_fire, job_s, job_fire_s, res_s, res_fire_s;
  logic uw_s, uw_fire_s, uwd_s, hw_s, hw_fire_s, hr_s, wds_s, wds_fire_s, wdf_s, wdd_s;
  logic rec_load_s, rec_s, rec_fire_s, recd_s;
  assign acc_s      = acc_valid_i && acc_slot_i == s;
  assign arm_s      = arm_i && arm_slot_i == s;
  assign exp_s      = exp_valid_i && exp_slot_i == s;
  assign asg_s      = asg_i && asg_slot_i == s;
  assign drop_s     = req_drop_i && req_drop_slot_i == s;
  assign hdr_fire   = hdr_valid_i && hdr_ready_o;
  assign job_s      = job_valid_o && j_slot == s;
  assign job_fire_s = job_s && job_ready_i;
  assign res_s      = res_valid_i && r_slot == s;
  assign res_fire_s = res_s && res_ready_o;
  assign uw_s       = uw_valid_o && uw_slot_o == s;
  assign uw_fire_s  = uw_s && uw_ready_i;
  assign uwd_s      = uw_done_i && uw_done_slot_i == s;
  assign hw_s       = hw_valid_o && hw_slot == s;
  assign hw_fire_s  = hw_s && hw_ready_i;
  assign hr_s       = hw_rsp_valid_i && hr_slot == s;
  assign wds_s      = wds_valid_o && wds_slot_o == s;
  assign wds_fire_s = wds_s && wds_ready_i;
  assign wdf_s      = wd_fail_i && wd_fail_slot_i == s;
  assign wdd_s      = wd_done_i && wd_done_slot_i == s;
  // "Record issue": the slot leaves ENDING into the record stage (its refund is in that cycle).
  assign rec_load_s = onerma_ini_ops.rec_load && onerma_ini_ops.rec_pick == s;
  assign rec_s      = rec_valid_o && rec_slot_o == s;
  assign rec_fire_s = rec_s && rec_ready_i;
  assign recd_s     = recd_valid_i && recd_slot_i == s;

  // ---- Shadows of slot s.
  logic        busy_q, queued_q, owed_q, recout_q, rans_q;
  logic        disp_q, reqfly_q, ctr_ok_q;
  logic [63:0] ctr_q;
  logic [7:0]  op_q;
  logic [15:0] len_q;
  logic [2:0]  nch_q;
  logic [NC-1:0] eng_q, uwo_q, uwo_rd_q, uwa_q, uwa_rd_q, hwo_q, hwf_q, dn_q;
  logic        eng_rep_q, eng_rdq_q, eng_cmpl_q;
  logic        rdok_q, rarm_q, wd_q;
  logic [63:0] laddr_q;
  logic [15:0] lregion_q, lgen_q;
  logic        stfix_q;     // the ending status is known from the ports: refused, or expired
  status_e     stval_q;
  logic [63:0] cand_ctr_q, rd_ctr_q;
  logic [15:0] cand_ctx_q, rd_ctx_q;

  function automatic logic [2:0] n_chunks(input logic [15:0] len);
    return 3'(len >> CS) + 3'(len[CS-1:0] != '0);
  endfunction

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      busy_q     <= 1'b0;
      queued_q   <= 1'b0;
      owed_q     <= 1'b0;
      recout_q   <= 1'b0;
      rans_q     <= 1'b0;
      disp_q     <= 1'b0;
      reqfly_q   <= 1'b0;
      ctr_ok_q   <= 1'b0;
      eng_q      <= '0;
      uwo_q      <= '0;
      uwo_rd_q   <= '0;
      uwa_q      <= '0;
      uwa_rd_q   <= '0;
      hwo_q      <= '0;
      hwf_q      <= '0;
      dn_q       <= '0;
      eng_rep_q  <= 1'b0;
      eng_rdq_q  <= 1'b0;
      eng_cmpl_q <= 1'b0;
      rdok_q     <= 1'b0;
      rarm_q     <= 1'b0;
      wd_q       <= 1'b0;
      stfix_q    <= 1'b0;
    end else begin
      if (exp_s) stfix_q <= 1'b1;
      if (acc_s) begin
        stfix_q  <= (acc_status_i != StatusOk);
        busy_q   <= 1'b1;
        queued_q <= (acc_status_i == StatusOk);
        owed_q   <= 1'b1;
        disp_q   <= 1'b0;
        ctr_ok_q <= 1'b0;
        dn_q     <= '0;
        rdok_q   <= 1'b0;
      end
      if (arm_s || exp_s) queued_q <= 1'b0;
      if (arm_s) begin
        disp_q   <= 1'b1;
        reqfly_q <= 1'b1;
      end
      if (asg_s) ctr_ok_q <= 1'b1;
      if (asg_s || drop_s) reqfly_q <= 1'b0;
      if (job_fire_s) begin
        unique case (j_kind)
          KindChunk: eng_q[j_chunk] <= 1'b1;
          KindReply: eng_rep_q <= 1'b1;
          KindRdreq: eng_rdq_q <= 1'b1;
          default:   eng_cmpl_q <= 1'b1;
        endcase
      end
      if (res_fire_s) begin
        unique case (r_kind)
          KindChunk: begin
            eng_q[r_chunk]    <= 1'b0;
            uwo_q[r_chunk]    <= 1'b1;
            uwo_rd_q[r_chunk] <= res_ok_i && live_o[s];
          end
          KindReply: eng_rep_q <= 1'b0;
          KindRdreq: begin
            eng_rdq_q <= 1'b0;
            if (res_ok_i && live_o[s]) begin
              rdok_q <= 1'b1;
              rarm_q <= 1'b1;
            end
          end
          default: eng_cmpl_q <= 1'b0;
        endcase
      end
      if (uw_fire_s) begin
        uwo_q[uw_chunk_o]    <= 1'b0;
        uwa_q[uw_chunk_o]    <= 1'b1;
        uwa_rd_q[uw_chunk_o] <= uw_read_o;
        if (uw_read_o) hwo_q[uw_chunk_o] <= 1'b1;
      end
      if (uwd_s) uwa_q[uw_done_chunk_i] <= 1'b0;
      if (hw_fire_s) begin
        hwo_q[hw_chunk] <= 1'b0;
        hwf_q[hw_chunk] <= 1'b1;
      end
      if (hr_s) begin
        hwf_q[hr_chunk] <= 1'b0;
        if (hw_rsp_ok_i) dn_q[hr_chunk] <= 1'b1;
      end
      if (wds_fire_s) begin
        rarm_q <= 1'b0;
        wd_q   <= 1'b1;
      end
      if (wdd_s) wd_q <= 1'b0;
      if (rec_load_s) begin
        owed_q   <= 1'b0;
        recout_q <= 1'b1;
      end
      if (rec_fire_s) begin
        recout_q <= 1'b0;
        rans_q   <= 1'b1;
      end
      if (recd_s) begin
        rans_q <= 1'b0;
        busy_q <= 1'b0;
      end
    end
  end
  always_ff @(posedge clk_i) begin
    if (acc_s) begin
      laddr_q   <= acc_local_addr_i;
      lregion_q <= acc_cmd_i.local_region;
      lgen_q    <= acc_local_gen_i;
      stval_q   <= acc_status_i;
      op_q  <= acc_cmd_i.op_type;
      len_q <= acc_cmd_i.length;
      nch_q <= n_chunks(acc_cmd_i.length);
    end
    if (exp_s) stval_q <= StatusDispatchTimeout;
    if (asg_s) ctr_q <= asg_counter_i;
    if (job_fire_s && j_kind == KindRdreq) begin
      cand_ctr_q <= job_hdr_o.counter;
      cand_ctx_q <= job_hdr_o.ctx;
    end
    if (res_fire_s && r_kind == KindRdreq && res_ok_i && live_o[s]) begin
      rd_ctr_q <= cand_ctr_q;
      rd_ctx_q <= cand_ctx_q;
    end
  end

  // Opener jobs of s waiting in the job register.
  logic [NC-1:0] jq;
  logic          jq_rep, jq_rdq, jq_cmpl;
  always_comb begin
    for (int c = 0; c < NC; c++) jq[c] = job_s && j_kind == KindChunk && j_chunk == CIB'(c);
    jq_rep  = job_s && j_kind == KindReply;
    jq_rdq  = job_s && j_kind == KindRdreq;
    jq_cmpl = job_s && j_kind == KindCmpl;
  end

  // Anything of the op in flight (what (2) asks to be empty at the record).
  logic any_fly;
  assign any_fly = (jq | eng_q | uwo_q | uwa_q | hwo_q | hwf_q) != '0 || jq_rep || jq_rdq ||
                   jq_cmpl || eng_rep_q || eng_rdq_q || eng_cmpl_q || reqfly_q || wd_q ||
                   rarm_q;

  // ---- The neighbours: they name s only for what s gave them.
  always_comb begin
    assume (32'(acc_slot_i) < NumSlots);
    // onerma_submit: a busy slot is never accepted; an accepted command is well formed.
    if (acc_s) begin
      assume (!busy_q);
      if (acc_status_i == StatusOk) begin
        assume (acc_cmd_i.length != '0 && acc_cmd_i.length <= 16'd4096);
        assume (acc_cmd_i.op_type inside {8'(OpTypeRead), 8'(OpTypeWrite), 8'(OpTypeRekey)});
      end
    end
    // onerma_dispatch / onerma_ini_req: a queued slot expires or is dispatched, not both.
    if (exp_s) assume (queued_q);
    if (arm_s) assume (queued_q);
    assume (!(arm_s && exp_s));
    // The sealer: one asg or drop per request.
    if (asg_s || drop_s) assume (reqfly_q);
    assume (!(asg_s && drop_s));
    // The opener: results only of jobs it took.
    if (res_s) begin
      unique case (r_kind)
        KindChunk: assume (eng_q[r_chunk]);
        KindReply: assume (eng_rep_q);
        KindRdreq: assume (eng_rdq_q);
        default:   assume (eng_cmpl_q);
      endcase
    end
    // The window: done only for an unwind it took.
    if (uwd_s) assume (uwa_q[uw_done_chunk_i]);
    // The host write DMA: an answer only for a write it took, after the window's done of that
    // chunk (the read-out's last beats leave the window after uw_done, the DMA answers after
    // its last beat).
    if (hr_s) assume (hwf_q[hr_chunk] && !uwa_q[hr_chunk]);
    // The WR_DATA sender: reports only between start and done.
    if (wdf_s || wdd_s) assume (wd_q);
    // The completion writer: an answer only for a record it took.
    if (recd_s) assume (rans_q);
  end

  // ---- (1) One record per accepted command; (2) nothing in flight then; (5) refund.
  always_comb if (rst_ni) begin
    if (rec_load_s) begin
      assert (owed_q);
      assert (!any_fly);
      assert (refund_valid_o == disp_q);
      // A READ refunds its ceil(length / 64) lines; a WRITE / REKEY reserved none (protocol §2.3).
      if (refund_valid_o) assert (refund_lines_o == ((op_q == 8'(OpTypeRead)) ?
                                                     7'((len_q + 16'd63) >> 6) : 7'd0));
    end
    if (refund_valid_o) assert (onerma_ini_ops.rec_load);
    if (rec_s) begin
      assert (recout_q);
      assert (rec_dispatched_o == disp_q);
      assert (rec_op_type_o == op_q);
      if (stfix_q) assert (rec_status_o == stval_q);
    end
    if (rec_fire_s) assert (!any_fly);
    if (free_o) assert (free_slot_o == recd_slot_i);
    assert (free_o == recd_valid_i);
  end

  // ---- (3) A read-out unwind only for a chunk verified while the op was in service (the shadow
  // of its result), a drop for every other chunk; a host write only after its read-out.
  always_comb if (rst_ni) begin
    if (uw_s) begin
      assert (uwo_q[uw_chunk_o]);
      assert (uw_read_o == uwo_rd_q[uw_chunk_o]);
    end
    if (hw_s) begin
      assert (hwo_q[hw_chunk]);
      assert (hw_addr_o == laddr_q + (64'(hw_chunk) << CS));
      assert (hw_region_o == lregion_q && hw_gen_o == lgen_q);
      assert (hw_len_o == ((len_q - (16'(hw_chunk) << CS) > 16'(ChunkBytes)) ? 13'(ChunkBytes) :
                           13'(len_q - (16'(hw_chunk) << CS))));
    end
  end

  // ---- (4) Opener jobs: only for an op in service with its request counter known (at the
  // header's acceptance), the frame answering that counter; a chunk in range that was missing.
  logic          hdr_s_q, hdr_ok_q;
  logic [NC-1:0] missing;
  logic [CIB-1:0] h_chunk;
  assign h_chunk = hdr_i.chunk_offset[CS+CIB-1:CS];
  always_comb
    for (int c = 0; c < NC; c++)
      missing[c] = !(jq[c] || eng_q[c] || uwo_q[c] || uwa_q[c] || hwo_q[c] || hwf_q[c] || dn_q[c]);
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      hdr_s_q  <= 1'b0;
      hdr_ok_q <= 1'b0;
    end else begin
      hdr_s_q  <= hdr_fire && hdr_i.slot == 16'(s);
      hdr_ok_q <= live_o[s] && ctr_ok_q &&
                  (hdr_i.msg_type != MsgTypeRdResp ||
                   (op_q == 8'(OpTypeRead) && 3'(h_chunk) < nch_q && missing[h_chunk]));
    end
  end
  always_comb if (rst_ni) begin
    // A job is in the register the cycle after its header only if it was accepted.
    if (hdr_s_q && job_s) assert (hdr_ok_q);
    if (job_s) begin
      assert (ctr_ok_q);
      assert (job_hdr_o.slot == 16'(s));
      if (j_kind == KindCmpl) begin
        assert (job_hdr_o.msg_type == MsgTypeWrCmpl);
        assert (rdok_q && job_hdr_o.prev_counter == rd_ctr_q && job_hdr_o.ctx == rd_ctx_q);
      end else begin
        assert (job_hdr_o.prev_counter == ctr_q);
      end
      if (j_kind == KindChunk) begin
        assert (job_hdr_o.msg_type == MsgTypeRdResp);
        assert (op_q == 8'(OpTypeRead));
        assert (job_hdr_o.chunk_offset[CS+CIB-1:CS] == j_chunk);
        assert (3'(j_chunk) < nch_q);
      end
      if (j_kind == KindRdreq) assert (job_hdr_o.msg_type == MsgTypeWrRdreq);
      if (j_kind == KindReply)
        assert (job_hdr_o.msg_type inside {MsgTypeNack, MsgTypeAccessErr, MsgTypeAuthFail});
    end
    // The WR_DATA sender is started once per verified WR_RDREQ, with its counter and context.
    if (wds_s) begin
      assert (rarm_q);
      assert (wds_counter_o == rd_ctr_q && wds_ctx_o == rd_ctx_q);
    end
  end

  // ---- Induction invariants.
  logic [2:0] ph;
  assign ph = onerma_ini_ops.phase_q[s];
  // FIFO contents: entries of s per chunk.
  localparam int unsigned SW = SlotWidth;
  logic [NC-1:0][2:0] uwq_n, uwq_rd_n, hwq_n;
  // u_rmq has NumSlots entries (a power of two in every proof configuration).
  localparam int unsigned RmqAW = (NumSlots > 1) ? $clog2(NumSlots) : 1;
  logic [$clog2(NumSlots+1)-1:0] rmq_n;
  // u_uwq and u_hwq hold 4 entries each: {slot, chunk, read} and {slot, chunk}.
  logic [3:0][SW+CIB:0]   uwe;
  logic [3:0][SW+CIB-1:0] hwe;
  logic [NumSlots-1:0][SW-1:0] rme;
  for (genvar gi = 0; gi < 4; gi++) begin : g_fifo_e
    assign uwe[gi] = onerma_ini_ops.u_uwq.mem_q[2'(onerma_ini_ops.u_uwq.rptr_q + 2'(gi))];
    assign hwe[gi] = onerma_ini_ops.u_hwq.mem_q[2'(onerma_ini_ops.u_hwq.rptr_q + 2'(gi))];
  end
  for (genvar gi = 0; gi < NumSlots; gi++) begin : g_rmq_e
    assign rme[gi] =
        onerma_ini_ops.u_rmq.mem_q[RmqAW'(onerma_ini_ops.u_rmq.rptr_q + RmqAW'(gi))].slot;
  end
  always_comb begin
    uwq_n    = '0;
    uwq_rd_n = '0;
    hwq_n    = '0;
    rmq_n    = '0;
    for (int i = 0; i < 4; i++) begin
      if (3'(i) < onerma_ini_ops.u_uwq.count_q && uwe[i][SW+CIB:CIB+1] == s) begin
        uwq_n[uwe[i][CIB:1]] = uwq_n[uwe[i][CIB:1]] + 3'd1;
        if (uwe[i][0]) uwq_rd_n[uwe[i][CIB:1]] = uwq_rd_n[uwe[i][CIB:1]] + 3'd1;
      end
      if (3'(i) < onerma_ini_ops.u_hwq.count_q && hwe[i][SW+CIB-1:CIB] == s)
        hwq_n[hwe[i][CIB-1:0]] = hwq_n[hwe[i][CIB-1:0]] + 3'd1;
    end
    for (int i = 0; i < NumSlots; i++)
      if (32'(i) < 32'(onerma_ini_ops.u_rmq.count_q) && rme[i] == s) rmq_n = rmq_n + 1'b1;
  end

  logic [NC-1:0][2:0] cst_s;
  assign cst_s = onerma_ini_ops.cst_q[s];
  logic dv_s;
  assign dv_s = onerma_ini_ops.dv_q != DvIdle && onerma_ini_ops.dv_slot_q == s;

  always_comb if (rst_ni) begin
    // FIFO pointers and counts.
    assert (onerma_ini_ops.u_uwq.count_q <= 3'd4);
    assert (onerma_ini_ops.u_uwq.wptr_q == 2'(onerma_ini_ops.u_uwq.rptr_q + onerma_ini_ops.u_uwq.count_q));
    assert (onerma_ini_ops.u_hwq.count_q <= 3'd4);
    assert (onerma_ini_ops.u_hwq.wptr_q == 2'(onerma_ini_ops.u_hwq.rptr_q + onerma_ini_ops.u_hwq.count_q));
    assert (32'(onerma_ini_ops.u_rmq.count_q) <= NumSlots);
    assert (onerma_ini_ops.u_rmq.wptr_q ==
            RmqAW'(onerma_ini_ops.u_rmq.rptr_q + onerma_ini_ops.u_rmq.count_q));
    assert (onerma_ini_ops.u_route.count_q <= 2'd2);
    assert (onerma_ini_ops.u_route.wptr_q == 1'(onerma_ini_ops.u_route.rptr_q + onerma_ini_ops.u_route.count_q));
    // Phase: legal, and the shadows' view of it.
    assert (ph <= PhRecord);
    assert (busy_q == (ph != PhFree));
    assert (queued_q == (ph == PhQueued));
    assert (owed_q == (ph inside {PhQueued, PhService, PhEnding}));
    assert ((ph == PhRecord) == (recout_q || rans_q));
    assert (!(recout_q && rans_q));
    assert (recout_q == (onerma_ini_ops.rec_q_valid && onerma_ini_ops.rec_slot_q == s));
    assert (live_o[s] == (ph == PhService));
    // Dispatch, request and counter.
    assert (onerma_ini_ops.disp_q[s] == disp_q);
    assert (onerma_ini_ops.req_fly_q[s] == reqfly_q);
    assert (onerma_ini_ops.ctr_ok_q[s] == ctr_ok_q);
    if (ctr_ok_q) assert (onerma_ini_ops.req_ctr_mem[s] == ctr_q);
    if (reqfly_q) assert (disp_q && !ctr_ok_q);
    if (ctr_ok_q) assert (disp_q);
    if (disp_q) assert (ph != PhQueued);
    if (ph == PhService) assert (disp_q);
    if (ph == PhQueued) assert (!disp_q && !ctr_ok_q);
    // The memo copy of s.
    if (busy_q) begin
      assert (onerma_ini_ops.echo_mem[s].length == len_q);
      assert (onerma_ini_ops.echo_mem[s].op_type == op_q);
      assert (onerma_ini_ops.isrd_q[s] == (op_q == 8'(OpTypeRead)));
      assert (onerma_ini_ops.nch_q[s] == nch_q);
      assert (onerma_ini_ops.local_mem[s].addr == laddr_q);
      assert (onerma_ini_ops.local_mem[s].region == lregion_q);
      assert (onerma_ini_ops.local_mem[s].gen == lgen_q);
      if (stfix_q) assert (onerma_ini_ops.status_q[s] == stval_q && !disp_q);
      if (queued_q) assert (!stfix_q);
      assert (nch_q == n_chunks(len_q));
      if (queued_q || disp_q) begin
        assert (len_q != '0 && len_q <= 16'd4096);
        assert (op_q inside {8'(OpTypeRead), 8'(OpTypeWrite), 8'(OpTypeRekey)});
      end
    end
    // Nothing in flight outside service and ending.
    if (!(ph inside {PhService, PhEnding})) assert (!any_fly);
    if (ph == PhQueued) assert (dn_q == '0);
    // Chunks.
    for (int c = 0; c < NC; c++) begin
      assert (cst_s[c] <= CsDone);
      assert (uwq_n[c] == 3'(uwo_q[c]));
      if (uwo_q[c]) assert (uwq_rd_n[c] == 3'(uwo_rd_q[c]));
      assert (hwq_n[c] == 3'(hwo_q[c]));
      assert (!(jq[c] && eng_q[c]));
      assert (32'(jq[c]) + 32'(eng_q[c]) + 32'(uwo_q[c]) + 32'(uwa_q[c]) <= 1);
      if (hwo_q[c] || hwf_q[c]) assert (!uwo_q[c] && !(uwa_q[c] && !uwa_rd_q[c]));
      assert (!(hwo_q[c] && hwf_q[c]));
      if (uwa_q[c] && uwa_rd_q[c]) assert (hwo_q[c] || hwf_q[c]);
      if (dn_q[c]) assert (!jq[c] && !eng_q[c] && !uwo_q[c] && !uwa_q[c] && !hwo_q[c] && !hwf_q[c]);
      if ((jq[c] || eng_q[c] || uwo_q[c] || uwa_q[c] || hwo_q[c] || hwf_q[c] || dn_q[c]))
        assert (op_q == 8'(OpTypeRead) && 3'(c) < nch_q && disp_q && ctr_ok_q);
      assert ((cst_s[c] == CsMissing) == missing[c]);
      assert ((cst_s[c] == CsPending) == (jq[c] || eng_q[c]));
      assert ((cst_s[c] == CsDropping) == ((uwo_q[c] && !uwo_rd_q[c]) || (uwa_q[c] && !uwa_rd_q[c])));
      assert ((cst_s[c] == CsReading) == ((uwo_q[c] && uwo_rd_q[c]) || (uwa_q[c] && uwa_rd_q[c])));
      assert ((cst_s[c] == CsWriting) == (!uwo_q[c] && !uwa_q[c] && (hwo_q[c] || hwf_q[c])));
      assert ((cst_s[c] == CsDone) == dn_q[c]);
    end
    // Replies and control frames in an engine.
    assert (onerma_ini_ops.rep_pend_q[s] == (jq_rep || eng_rep_q));
    assert (!(jq_rep && eng_rep_q));
    assert (onerma_ini_ops.ctl_pend_q[s] == (jq_rdq || jq_cmpl || eng_rdq_q || eng_cmpl_q));
    assert (32'(jq_rdq) + 32'(jq_cmpl) + 32'(eng_rdq_q) + 32'(eng_cmpl_q) <= 1);
    if (jq_rep || eng_rep_q || jq_rdq || jq_cmpl || eng_rdq_q || eng_cmpl_q)
      assert (disp_q && ctr_ok_q);
    if (jq_rdq || eng_rdq_q || rdok_q) assert (op_q != 8'(OpTypeRead));
    // WRITE: read-back request, re-arm, sender.
    assert (onerma_ini_ops.rdreq_ok_q[s] == rdok_q);
    if (rdok_q) begin
      assert (onerma_ini_ops.engaged_q[s]);
      assert (onerma_ini_ops.rdreq_ctr_mem[s] == rd_ctr_q);
      assert (onerma_ini_ops.ctx_mem[s] == rd_ctx_q);
      assert (!jq_rdq && !eng_rdq_q);
      assert (disp_q && ctr_ok_q);
    end
    if (jq_cmpl || eng_cmpl_q) assert (rdok_q);
    if (jq_rdq) begin
      assert (onerma_ini_ops.cand_ctr_mem[s] == job_hdr_o.counter);
      assert (onerma_ini_ops.cand_ctx_mem[s] == job_hdr_o.ctx);
    end
    if (eng_rdq_q) begin
      assert (onerma_ini_ops.cand_ctr_mem[s] == cand_ctr_q);
      assert (onerma_ini_ops.cand_ctx_mem[s] == cand_ctx_q);
    end
    assert (onerma_ini_ops.rearm_q[s] == rarm_q);
    assert (onerma_ini_ops.wd_busy_q[s] == wd_q);
    if (rarm_q || wd_q) assert (rdok_q);
    assert (!(rarm_q && wd_q));
    assert (32'(rmq_n) + 32'(dv_s) == 32'(rarm_q));
    assert (onerma_ini_ops.armwait_q[s] ==
            (rmq_n != '0 || (dv_s && onerma_ini_ops.dv_q inside {DvRun, DvArm})));
    if (dv_s && onerma_ini_ops.dv_q == DvRun)
      assert (32'(onerma_ini_ops.bit_q) < TimeWidth);
    // The job register.
    if (job_s)
      assert (j_kind != KindChunk || onerma_ini_ops.job_hdr_q.chunk_offset[CS+CIB-1:CS] == j_chunk);
  end

  // ---- Covers.
  logic drop_seen_q, wds_seen_q, cmpl_seen_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      drop_seen_q <= 1'b0;
      wds_seen_q  <= 1'b0;
      cmpl_seen_q <= 1'b0;
    end else begin
      if (acc_s) begin
        drop_seen_q <= 1'b0;
        wds_seen_q  <= 1'b0;
        cmpl_seen_q <= 1'b0;
      end
      if (uw_fire_s && !uw_read_o) drop_seen_q <= 1'b1;
      if (wds_fire_s) wds_seen_q <= 1'b1;
      if (res_fire_s && r_kind == KindCmpl && res_ok_i && live_o[s]) cmpl_seen_q <= 1'b1;
    end
  end
  always_comb if (rst_ni) begin
    // A READ of two chunks completes OK.
    cover (rec_fire_s && rec_status_o == StatusOk && op_q == 8'(OpTypeRead) && nch_q == 3'd2);
    // A TIMEOUT after a chunk was dropped from the window.
    cover (rec_fire_s && rec_status_o == StatusTimeout && drop_seen_q);
    // A WRITE whose WR_DATA sender was started and whose WR_CMPL ended it.
    cover (rec_fire_s && op_q == 8'(OpTypeWrite) && wds_seen_q && cmpl_seen_q);
  end

endmodule

bind onerma_ini_ops onerma_ini_ops_props #(
  .NumSlots (NumSlots),
  .TimeWidth(TimeWidth)
) u_props (.*);
`endif

`default_nettype wire
