`default_nettype none

// Properties of onerma_rsp_ctx. One context `c` (a symbolic constant) is followed through every
// event of its services by shadows kept from the ports: busy (service to free), the WR_RDREQ
// (owed, in the sealer without a counter, its counter), the WR_CMPL handed to the sealer, and per
// chunk the steps of a chunk (opener job issued, in the engine, unwind owed, unwind in the window,
// host write / install owed, issued, answered OK), and the error decided by an answer. The
// neighbours answer only what they were given (assumed with the shadows); the other contexts are
// unconstrained. Asserted: one end per service (at most one WR_CMPL, one free); a host write or
// install only for a chunk verified while no error was decided, after its read-out; a chunk
// never both in flight and done, and an opener job only for a missing chunk of a live context;
// a WR_CMPL only with nothing in flight, its status the error shadow; the refund only with
// nothing in flight and every unwind done; the output streams of c. The induction invariants
// tie c's flops and the FIFO contents to the shadows.
`ifdef FORMAL
module onerma_rsp_ctx_props #(
  parameter int unsigned NumCtx    = 2,
  parameter int unsigned TimeWidth = 6,
  parameter int unsigned CtxW      = (NumCtx > 1) ? $clog2(NumCtx) : 1,
  parameter int unsigned MetaW     = CtxW + onerma_pkg::ChunkIndexBits
) (
  input logic                 clk_i,
  input logic                 rst_ni,
  input logic                 srv_valid_i,
  input logic                 srv_ready_o,
  input onerma_pkg::hdr_t     srv_hdr_i,
  input logic [127:0]         srv_kd_i,
  input logic [63:0]          srv_base_i,
  input logic [15:0]          srv_gen_i,
  input logic [7:0]           srv_key_gen_i,
  input logic                 refund_valid_o,
  input logic [6:0]           refund_lines_o,
  input logic                 sj_valid_o,
  input logic                 sj_ready_i,
  input onerma_pkg::hdr_t     sj_hdr_o,
  input logic [127:0]         sj_key_o,
  input logic [CtxW:0]        sj_meta_o,
  input logic                 asg_i,
  input logic [CtxW-1:0]      asg_ctx_i,
  input logic [63:0]          asg_counter_i,
  input logic                 sj_drop_i,
  input logic [CtxW-1:0]      sj_drop_ctx_i,
  input logic                 sent_i,
  input logic [CtxW-1:0]      sent_ctx_i,
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
  input logic                 oj_valid_o,
  input logic                 oj_ready_i,
  input onerma_pkg::hdr_t     oj_hdr_o,
  input logic [127:0]         oj_tag_o,
  input logic [127:0]         oj_key_o,
  input logic [MetaW-1:0]     oj_meta_o,
  input logic                 res_valid_i,
  input logic                 res_ready_o,
  input logic                 res_ok_i,
  input logic [MetaW-1:0]     res_meta_i,
  input logic                 uw_valid_o,
  input logic                 uw_ready_i,
  input logic [CtxW-1:0]      uw_ctx_o,
  input logic [onerma_pkg::ChunkIndexBits-1:0] uw_chunk_o,
  input logic                 uw_read_o,
  input logic                 uw_done_i,
  input logic [CtxW-1:0]      uw_done_ctx_i,
  input logic [onerma_pkg::ChunkIndexBits-1:0] uw_done_chunk_i,
  input logic                 hw_valid_o,
  input logic                 hw_ready_i,
  input logic [63:0]          hw_addr_o,
  input logic [12:0]          hw_len_o,
  input logic [15:0]          hw_region_o,
  input logic [15:0]          hw_gen_o,
  input logic [CtxW+onerma_pkg::ChunkIndexBits-1:0] hw_tag_o,
  input logic                 hw_rsp_valid_i,
  input logic [CtxW+onerma_pkg::ChunkIndexBits-1:0] hw_rsp_tag_i,
  input logic                 hw_rsp_ok_i,
  input logic                 ins_valid_o,
  input logic                 ins_ready_i,
  input logic [15:0]          ins_region_o,
  input logic [15:0]          ins_gen_o,
  input logic [7:0]           ins_key_gen_o,
  input logic [CtxW-1:0]      ins_ctx_o,
  input logic                 ins_done_i,
  input logic [CtxW-1:0]      ins_done_ctx_i,
  input logic                 ins_ok_i
);
  import onerma_pkg::*;

  // Chunks: MaxChunks per op of at most 4096 bytes, ChunkBytes each, CIB bits of index.
  localparam int unsigned CIB = ChunkIndexBits;
  localparam int unsigned CS  = $clog2(ChunkBytes);
  localparam int unsigned NC  = MaxChunks;

  // The DUT's chunk-state encoding (cst_e in onerma_rsp_ctx.sv).
  localparam logic [2:0] CsMissing = 3'd0, CsPending = 3'd1, CsDropping = 3'd2,
                         CsReading = 3'd3, CsWriting = 3'd4, CsDone = 3'd5;

  logic [CtxW-1:0] c;
  always_ff @(posedge clk_i) c <= c;
  always_comb assume (32'(c) < NumCtx);

  logic past_valid_q = 1'b0;
  always_ff @(posedge clk_i) past_valid_q <= 1'b1;
  always_comb if (!past_valid_q) assume (!rst_ni);

  // ---- Stream rules: assumed on the inputs, asserted on the outputs of c.
  onerma_stream_check #(.Width($bits(hdr_t) + 128 + 64 + 16 + 8), .Assume(1'b1)) u_srv (
    .clk_i, .rst_ni, .valid_i(srv_valid_i), .ready_i(srv_ready_o),
    .data_i({srv_hdr_i, srv_kd_i, srv_base_i, srv_gen_i, srv_key_gen_i}));
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

  logic [CIB-1:0]  j_chunk, r_chunk, hw_chunk, hr_chunk;
  logic [CtxW-1:0] j_ctx, r_ctx, hw_ctx, hr_ctx;
  assign {j_chunk, j_ctx}   = oj_meta_o;
  assign {r_chunk, r_ctx}   = res_meta_i;
  assign {hw_ctx, hw_chunk} = hw_tag_o;
  assign {hr_ctx, hr_chunk} = hw_rsp_tag_i;

  logic sj_c, oj_c, uw_c, hw_c, ins_c;
  assign sj_c  = sj_valid_o && sj_meta_o[CtxW-1:0] == c;
  assign oj_c  = oj_valid_o && j_ctx == c;
  assign uw_c  = uw_valid_o && uw_ctx_o == c;
  assign hw_c  = hw_valid_o && hw_ctx == c;
  assign ins_c = ins_valid_o && ins_ctx_o == c;
  onerma_stream_check #(.Width($bits(hdr_t) + 128 + CtxW + 1), .Assume(1'b0)) u_sj (
    .clk_i, .rst_ni, .valid_i(sj_c), .ready_i(sj_ready_i),
    .data_i({sj_hdr_o, sj_key_o, sj_meta_o}));
  onerma_stream_check #(.Width($bits(hdr_t) + 256 + MetaW), .Assume(1'b0)) u_oj (
    .clk_i, .rst_ni, .valid_i(oj_c), .ready_i(oj_ready_i),
    .data_i({oj_hdr_o, oj_tag_o, oj_key_o, oj_meta_o}));
  onerma_stream_check #(.Width(CtxW + CIB + 1), .Assume(1'b0)) u_uw (
    .clk_i, .rst_ni, .valid_i(uw_c), .ready_i(uw_ready_i),
    .data_i({uw_ctx_o, uw_chunk_o, uw_read_o}));
  onerma_stream_check #(.Width(64 + 13 + 32 + CtxW + CIB), .Assume(1'b0)) u_hw (
    .clk_i, .rst_ni, .valid_i(hw_c), .ready_i(hw_ready_i),
    .data_i({hw_addr_o, hw_len_o, hw_region_o, hw_gen_o, hw_tag_o}));
  onerma_stream_check #(.Width(40 + CtxW), .Assume(1'b0)) u_ins (
    .clk_i, .rst_ni, .valid_i(ins_c), .ready_i(ins_ready_i),
    .data_i({ins_region_o, ins_gen_o, ins_key_gen_o, ins_ctx_o}));

  // ---- Port events of context c.
  logic sent_c;
  assign sent_c  = sent_i && sent_ctx_i == c;
  logic srv_c, sjf_c, sjf_rq, sjf_cm, asg_c, drop_c, hdr_fire, ojf_c, res_c, resf_c;
  logic uwf_c, uwd_c, hwf_c, hr_c, insf_c, insd_c, free_c;
  assign srv_c   = srv_valid_i && srv_ready_o && onerma_rsp_ctx.free_idx == c;
  assign sjf_c   = sj_c && sj_ready_i;
  assign sjf_rq  = sjf_c && !sj_meta_o[CtxW];
  assign sjf_cm  = sjf_c && sj_meta_o[CtxW];
  assign asg_c   = asg_i && asg_ctx_i == c;
  assign drop_c  = sj_drop_i && sj_drop_ctx_i == c;
  assign hdr_fire = hdr_valid_i && hdr_ready_o;
  assign ojf_c   = oj_c && oj_ready_i;
  assign res_c   = res_valid_i && r_ctx == c;
  assign resf_c  = res_c && res_ready_o;
  assign uwf_c   = uw_c && uw_ready_i;
  assign uwd_c   = uw_done_i && uw_done_ctx_i == c;
  assign hwf_c   = hw_c && hw_ready_i;
  assign hr_c    = hw_rsp_valid_i && hr_ctx == c;
  assign insf_c  = ins_c && ins_ready_i;
  assign insd_c  = ins_done_i && ins_done_ctx_i == c;
  // The free: the refund port's pick (the refund pulse is in that cycle).
  assign free_c  = onerma_rsp_ctx.fr_valid && onerma_rsp_ctx.fr_pick == c;

  // ---- Shadows of c.
  logic        busy_q, rq_q, sjo_q, snd_q, live_q, cm_q, err_q, rekey_q;
  logic [63:0] ctr_q, base_q, off_q;
  logic [15:0] len_q, region_q, gen_q;
  logic [7:0]  kg_q;
  logic [2:0]  nch_q;
  logic [NC-1:0] eng_q, uwo_q, uwo_rd_q, uwa_q, uwa_rd_q, hwo_q, hwq_q, dn_q;

  function automatic logic [2:0] n_chunks(input logic [15:0] len);
    return 3'(len >> CS) + 3'(len[CS-1:0] != '0);
  endfunction

  // The counter of the WR_RDREQ (not of a WR_CMPL, handed over earlier or in this cycle).
  logic asg_rq;
  assign asg_rq  = asg_c && !cm_q && !sjf_cm;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      busy_q  <= 1'b0;
      rq_q    <= 1'b0;
      sjo_q   <= 1'b0;
      snd_q   <= 1'b0;
      live_q  <= 1'b0;
      cm_q    <= 1'b0;
      err_q   <= 1'b0;
      eng_q   <= '0;
      uwo_q   <= '0;
      uwo_rd_q <= '0;
      uwa_q   <= '0;
      uwa_rd_q <= '0;
      hwo_q   <= '0;
      hwq_q   <= '0;
      dn_q    <= '0;
    end else begin
      if (srv_c) begin
        busy_q <= 1'b1;
        rq_q   <= 1'b1;
        snd_q  <= 1'b0;
        live_q <= 1'b0;
        cm_q   <= 1'b0;
        err_q  <= 1'b0;
        dn_q   <= '0;
      end
      if (sjf_rq) rq_q <= 1'b0;
      if (sjf_cm) cm_q <= 1'b1;
      if (sjf_c) sjo_q <= 1'b1;
      if (asg_c || drop_c) sjo_q <= 1'b0;
      if (asg_rq) snd_q <= 1'b1;
      if (sent_c) begin
        snd_q  <= 1'b0;
        live_q <= 1'b1;
      end
      if (ojf_c) eng_q[j_chunk] <= 1'b1;
      if (resf_c) begin
        eng_q[r_chunk]    <= 1'b0;
        uwo_q[r_chunk]    <= 1'b1;
        uwo_rd_q[r_chunk] <= res_ok_i && !err_q;
      end
      if (uwf_c) begin
        uwo_q[uw_chunk_o]    <= 1'b0;
        uwa_q[uw_chunk_o]    <= 1'b1;
        uwa_rd_q[uw_chunk_o] <= uw_read_o;
        if (uw_read_o) hwo_q[uw_chunk_o] <= 1'b1;
      end
      if (uwd_c) uwa_q[uw_done_chunk_i] <= 1'b0;
      if (hwf_c) begin
        hwo_q[hw_chunk] <= 1'b0;
        hwq_q[hw_chunk] <= 1'b1;
      end
      if (insf_c) begin
        hwo_q[0] <= 1'b0;
        hwq_q[0] <= 1'b1;
      end
      if (hr_c) begin
        hwq_q[hr_chunk] <= 1'b0;
        if (hw_rsp_ok_i) dn_q[hr_chunk] <= 1'b1;
        else err_q <= 1'b1;
      end
      if (insd_c) begin
        hwq_q[0] <= 1'b0;
        if (ins_ok_i) dn_q[0] <= 1'b1;
        else err_q <= 1'b1;
      end
      if (free_c) busy_q <= 1'b0;
    end
  end
  always_ff @(posedge clk_i) begin
    if (srv_c) begin
      base_q   <= srv_base_i;
      off_q    <= srv_hdr_i.offset;
      len_q    <= srv_hdr_i.length;
      region_q <= srv_hdr_i.region;
      gen_q    <= srv_gen_i;
      kg_q     <= srv_key_gen_i;
      rekey_q  <= (srv_hdr_i.op_type == OpTypeRekey);
      nch_q    <= n_chunks(srv_hdr_i.length);
    end
    if (asg_rq) ctr_q <= asg_counter_i;
  end

  // Opener jobs of c waiting in the job register.
  logic [NC-1:0] jq;
  always_comb for (int k = 0; k < NC; k++) jq[k] = oj_c && j_chunk == CIB'(k);

  logic [NC-1:0] fly;
  logic          any_fly;
  always_comb
    for (int k = 0; k < NC; k++)
      fly[k] = jq[k] || eng_q[k] || uwo_q[k] || uwa_q[k] || hwo_q[k] || hwq_q[k];
  assign any_fly = fly != '0;

  // The chunks of the service: bit k set for k < nch_q.
  logic [NC-1:0] nmask;
  always_comb for (int k = 0; k < NC; k++) nmask[k] = 3'(k) < nch_q;

  // ---- The neighbours: they name c only for what c gave them.
  always_comb begin
    // The WRITE/REKEY queue: requests the checks passed (length 1..4096, a REKEY 16 bytes).
    if (srv_valid_i) begin
      assume (srv_hdr_i.length != '0 && srv_hdr_i.length <= 16'd4096);
      assume (srv_hdr_i.op_type inside {OpTypeWrite, OpTypeRekey});
      if (srv_hdr_i.op_type == OpTypeRekey) assume (srv_hdr_i.length == 16'd16);
    end
    // The sealer: one counter or discard per job taken, in its cycle or later.
    if (asg_c || drop_c) assume (sjo_q || sjf_c);
    assume (!(asg_c && drop_c));
    // The sealer sends a WR_RDREQ it gave a counter, once, in a later cycle.
    if (sent_c) assume (snd_q);
    // The opener: results only of jobs it took.
    if (res_c) assume (eng_q[r_chunk]);
    // The window: done only for an unwind it took.
    if (uwd_c) assume (uwa_q[uw_done_chunk_i]);
    // The DMA / the install port: an answer only for a request taken, after its read-out.
    if (hr_c) assume (hwq_q[hr_chunk] && !uwa_q[hr_chunk] && !rekey_q);
    if (insd_c) assume (hwq_q[0] && !uwa_q[0] && rekey_q);
  end

  // ---- (1) One end per service; (4) WR_CMPL only with nothing in flight; (5) the refund.
  always_comb if (rst_ni) begin
    if (srv_c) assert (!busy_q);
    if (sj_c) begin
      assert (busy_q);
      if (sj_meta_o[CtxW]) begin
        assert (!cm_q && !any_fly && !rq_q && !sjo_q && !snd_q && live_q);
        assert (sj_hdr_o.msg_type == MsgTypeWrCmpl);
        assert (sj_hdr_o.status == (err_q ? StatusRemoteAccessError : StatusOk));
        assert (sj_hdr_o.prev_counter == ctr_q);
        assert (err_q || (dn_q & nmask) == nmask);
      end else begin
        assert (rq_q);
        assert (sj_hdr_o.msg_type == MsgTypeWrRdreq);
      end
      assert (sj_hdr_o.ctx == 16'(c));
    end
    if (free_c) begin
      assert (busy_q && !any_fly && !rq_q && !sjo_q && !snd_q);
      assert (refund_lines_o == 7'((len_q + 16'd63) >> 6));
    end
    if (refund_valid_o) assert (onerma_rsp_ctx.fr_valid);
  end

  // ---- (2) A read-out unwind only for a chunk verified while no error was decided; a host
  // write / install only after its read-out, with the context's fields.
  always_comb if (rst_ni) begin
    if (uw_c) begin
      assert (uwo_q[uw_chunk_o]);
      assert (uw_read_o == uwo_rd_q[uw_chunk_o]);
    end
    if (hw_c) begin
      assert (hwo_q[hw_chunk] && !rekey_q);
      assert (hw_addr_o == base_q + off_q + (64'(hw_chunk) << CS));
      assert (hw_region_o == region_q && hw_gen_o == gen_q);
      assert (hw_len_o == ((len_q - (16'(hw_chunk) << CS) > 16'(ChunkBytes)) ? 13'(ChunkBytes) :
                           13'(len_q - (16'(hw_chunk) << CS))));
    end
    if (ins_c) begin
      assert (hwo_q[0] && rekey_q);
      assert (ins_region_o == region_q && ins_gen_o == gen_q && ins_key_gen_o == kg_q);
    end
  end

  // ---- (3) Opener jobs: only the cycle after a header accepted for a missing chunk in range
  // of a live context; no chunk both in flight and done.
  logic hdr_c_q, hdr_ok_q;
  logic [NC-1:0] missing;
  logic [CIB-1:0] h_chunk;
  assign h_chunk = hdr_i.chunk_offset[CS+CIB-1:CS];
  always_comb for (int k = 0; k < NC; k++) missing[k] = !fly[k] && !dn_q[k];
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      hdr_c_q  <= 1'b0;
      hdr_ok_q <= 1'b0;
    end else begin
      hdr_c_q  <= hdr_fire && hdr_i.ctx == 16'(c);
      hdr_ok_q <= busy_q && live_q && !cm_q && !err_q && 3'(h_chunk) < nch_q &&
                  missing[h_chunk] && hdr_i.prev_counter == ctr_q;
    end
  end
  always_comb if (rst_ni) begin
    if (hdr_c_q && oj_c) assert (hdr_ok_q);
    if (oj_c) assert (busy_q && live_q && 3'(j_chunk) < nch_q);
    for (int k = 0; k < NC; k++) if (dn_q[k]) assert (!fly[k]);
  end

  // ---- Induction invariants.
  localparam int unsigned CW = CtxW;
  logic [NC-1:0][2:0] uwq_n, uwq_rd_n, hwq_n;
  // u_uwq and u_hwq hold 4 entries each: {ctx, chunk, read} and {ctx, chunk, rekey}.
  logic [3:0][CW+CIB:0] uwe;
  logic [3:0][CW+CIB:0] hwe;
  for (genvar gi = 0; gi < 4; gi++) begin : g_fifo_e
    assign uwe[gi] = onerma_rsp_ctx.u_uwq.mem_q[2'(onerma_rsp_ctx.u_uwq.rptr_q + 2'(gi))];
    assign hwe[gi] = onerma_rsp_ctx.u_hwq.mem_q[2'(onerma_rsp_ctx.u_hwq.rptr_q + 2'(gi))];
  end
  always_comb begin
    uwq_n    = '0;
    uwq_rd_n = '0;
    hwq_n    = '0;
    for (int i = 0; i < 4; i++) begin
      if (3'(i) < onerma_rsp_ctx.u_uwq.count_q && uwe[i][CW+CIB:CIB+1] == c) begin
        uwq_n[uwe[i][CIB:1]] = uwq_n[uwe[i][CIB:1]] + 3'd1;
        if (uwe[i][0]) uwq_rd_n[uwe[i][CIB:1]] = uwq_rd_n[uwe[i][CIB:1]] + 3'd1;
      end
      if (3'(i) < onerma_rsp_ctx.u_hwq.count_q && hwe[i][CW+CIB:CIB+1] == c) begin
        hwq_n[hwe[i][CIB:1]] = hwq_n[hwe[i][CIB:1]] + 3'd1;
        assert (hwe[i][0] == rekey_q);
      end
    end
  end

  logic [NC-1:0][2:0] cst_c;
  assign cst_c = onerma_rsp_ctx.cst_q[c];
  logic sjreg_c, sjreg_rq, sjreg_cm;
  assign sjreg_c  = onerma_rsp_ctx.sj_q_valid && onerma_rsp_ctx.sj_ctx_q == c;
  assign sjreg_rq = sjreg_c && !onerma_rsp_ctx.sj_kind_q;
  assign sjreg_cm = sjreg_c && onerma_rsp_ctx.sj_kind_q;

  // The WR_RDREQ order FIFO: c is in it (once) iff c owes its WR_RDREQ.
  localparam int unsigned RdqAw = (NumCtx > 1) ? $clog2(NumCtx) : 1;
  logic [$clog2(NumCtx + 1)-1:0] rdq_n, rqo_n;
  always_comb begin
    rqo_n = '0;
    for (int i = 0; i < NumCtx; i++) rqo_n = rqo_n + $clog2(NumCtx + 1)'(onerma_rsp_ctx.rqo_q[i]);
  end
  always_comb begin
    rdq_n = '0;
    for (int i = 0; i < NumCtx; i++) begin
      if ($clog2(NumCtx + 1)'(i) < onerma_rsp_ctx.u_rdq.count_q &&
          onerma_rsp_ctx.u_rdq.mem_q[RdqAw'(onerma_rsp_ctx.u_rdq.rptr_q + RdqAw'(i))] == c)
        rdq_n = rdq_n + 1'b1;
    end
  end

  always_comb if (rst_ni) begin
    assert (onerma_rsp_ctx.u_rdq.count_q <= $clog2(NumCtx + 1)'(NumCtx));
    assert (onerma_rsp_ctx.u_rdq.wptr_q ==
            RdqAw'(onerma_rsp_ctx.u_rdq.rptr_q + RdqAw'(onerma_rsp_ctx.u_rdq.count_q)));
    assert (rdq_n == $clog2(NumCtx + 1)'(onerma_rsp_ctx.rqo_q[c]));
    assert (onerma_rsp_ctx.u_rdq.count_q == rqo_n);
    for (int i = 0; i < NumCtx; i++) begin
      if (onerma_rsp_ctx.rqo_q[i])
        assert (onerma_rsp_ctx.use_q[i] && !onerma_rsp_ctx.fin_q[i] && !onerma_rsp_ctx.endg_q[i]);
    end
    // Entries: distinct contexts, each owing its WR_RDREQ.
    for (int i = 0; i < NumCtx; i++) begin
      if ($clog2(NumCtx + 1)'(i) < onerma_rsp_ctx.u_rdq.count_q) begin
        assert (onerma_rsp_ctx.rqo_q[onerma_rsp_ctx.u_rdq.mem_q[RdqAw'(onerma_rsp_ctx.u_rdq.rptr_q + RdqAw'(i))]]);
        for (int j = i + 1; j < NumCtx; j++) begin
          if ($clog2(NumCtx + 1)'(j) < onerma_rsp_ctx.u_rdq.count_q)
            assert (onerma_rsp_ctx.u_rdq.mem_q[RdqAw'(onerma_rsp_ctx.u_rdq.rptr_q + RdqAw'(i))] !=
                    onerma_rsp_ctx.u_rdq.mem_q[RdqAw'(onerma_rsp_ctx.u_rdq.rptr_q + RdqAw'(j))]);
        end
      end
    end
  end

  always_comb if (rst_ni) begin
    // FIFO pointers and counts.
    assert (onerma_rsp_ctx.u_uwq.count_q <= 3'd4);
    assert (onerma_rsp_ctx.u_uwq.wptr_q == 2'(onerma_rsp_ctx.u_uwq.rptr_q + onerma_rsp_ctx.u_uwq.count_q));
    assert (onerma_rsp_ctx.u_hwq.count_q <= 3'd4);
    assert (onerma_rsp_ctx.u_hwq.wptr_q == 2'(onerma_rsp_ctx.u_hwq.rptr_q + onerma_rsp_ctx.u_hwq.count_q));
    assert (onerma_rsp_ctx.u_route.count_q <= 2'd2);
    assert (onerma_rsp_ctx.u_route.wptr_q == 1'(onerma_rsp_ctx.u_route.rptr_q + onerma_rsp_ctx.u_route.count_q));
    // The context's flops and the shadows.
    assert (onerma_rsp_ctx.use_q[c] == busy_q);
    assert (rq_q == (onerma_rsp_ctx.rqo_q[c] || sjreg_rq));
    assert (!(onerma_rsp_ctx.rqo_q[c] && sjreg_c));
    assert (!(onerma_rsp_ctx.cmo_q[c] && sjreg_c));
    assert (!(onerma_rsp_ctx.rqo_q[c] && onerma_rsp_ctx.cmo_q[c]));
    assert (onerma_rsp_ctx.sjf_q[c] == sjo_q);
    assert (onerma_rsp_ctx.live_q[c] == live_q);
    assert (onerma_rsp_ctx.snd_q[c] == snd_q);
    if (snd_q) assert (busy_q && !live_q && !rq_q && !sjo_q && !cm_q && !any_fly && !err_q &&
                       !onerma_rsp_ctx.endg_q[c] && !onerma_rsp_ctx.exp_q[c] &&
                       !onerma_rsp_ctx.late_q[c] && dn_q == '0);
    if (live_q) assert (!rq_q);
    assert (onerma_rsp_ctx.err_q[c] == err_q);
    if (sjreg_c) assert (busy_q && !sjo_q);
    if (rq_q) assert (busy_q && !sjo_q && !live_q && !cm_q && !onerma_rsp_ctx.endg_q[c]);
    if (rq_q || (sjo_q && !cm_q)) assert (!onerma_rsp_ctx.exp_q[c] && !onerma_rsp_ctx.late_q[c] && !err_q);
    if (!live_q) assert (!onerma_rsp_ctx.late_q[c]);
    if (sjo_q) assert (busy_q);
    if (sjo_q && !cm_q) assert (!live_q && !onerma_rsp_ctx.endg_q[c]);
    if (cm_q) assert (onerma_rsp_ctx.endg_q[c] && !onerma_rsp_ctx.cmo_q[c] && !sjreg_c);
    if (sjreg_cm || onerma_rsp_ctx.cmo_q[c])
      assert (onerma_rsp_ctx.endg_q[c] && !cm_q && !sjo_q && !onerma_rsp_ctx.exp_q[c] && live_q);
    if (onerma_rsp_ctx.fin_q[c]) assert (onerma_rsp_ctx.endg_q[c] && !sjo_q && !sjreg_c &&
                                         !onerma_rsp_ctx.cmo_q[c]);
    // endg stays set after the free until the next service.
    if (onerma_rsp_ctx.endg_q[c]) assert (!any_fly && !rq_q);
    if (busy_q && onerma_rsp_ctx.endg_q[c] && !onerma_rsp_ctx.fin_q[c] && !sjo_q)
      assert (sjreg_cm || onerma_rsp_ctx.cmo_q[c]);
    if (busy_q && onerma_rsp_ctx.endg_q[c] && !onerma_rsp_ctx.exp_q[c] && !err_q)
      assert ((dn_q & nmask) == nmask);
    if (busy_q && !onerma_rsp_ctx.endg_q[c]) assert (!onerma_rsp_ctx.fin_q[c] && !cm_q &&
                                                     !onerma_rsp_ctx.cmo_q[c]);
    if (!busy_q) assert (!onerma_rsp_ctx.fin_q[c] && !rq_q && !onerma_rsp_ctx.cmo_q[c] &&
                         !any_fly && !sjo_q && !sjreg_c && !snd_q);
    if (busy_q) begin
      assert (onerma_rsp_ctx.req_mem[c].length == len_q);
      assert (onerma_rsp_ctx.req_mem[c].offset == off_q);
      assert (onerma_rsp_ctx.req_mem[c].region == region_q);
      assert (onerma_rsp_ctx.base_mem[c] == base_q);
      assert (onerma_rsp_ctx.gen_mem[c] == gen_q);
      assert (onerma_rsp_ctx.kg_mem[c] == kg_q);
      assert (onerma_rsp_ctx.rekey_q[c] == rekey_q);
      assert (onerma_rsp_ctx.nch_q[c] == nch_q);
      assert (nch_q == n_chunks(len_q));
      assert (len_q != '0 && len_q <= 16'd4096);
      if (rekey_q) assert (len_q == 16'd16);
      assert ((onerma_rsp_ctx.req_mem[c].op_type == OpTypeRekey) == rekey_q);
    end
    if (live_q || snd_q) assert (onerma_rsp_ctx.rdctr_mem[c] == ctr_q);
    if (any_fly) assert (live_q && busy_q);
    if (busy_q && dn_q != '0) assert (live_q);
    // Chunks.
    for (int k = 0; k < NC; k++) begin
      assert (cst_c[k] <= CsDone);
      assert (uwq_n[k] == 3'(uwo_q[k]));
      if (uwo_q[k]) assert (uwq_rd_n[k] == 3'(uwo_rd_q[k]));
      assert (hwq_n[k] == 3'(hwo_q[k]));
      assert (32'(jq[k]) + 32'(eng_q[k]) + 32'(uwo_q[k]) + 32'(uwa_q[k]) <= 1);
      if (hwo_q[k] || hwq_q[k]) assert (!uwo_q[k] && !(uwa_q[k] && !uwa_rd_q[k]));
      assert (!(hwo_q[k] && hwq_q[k]));
      if (uwa_q[k] && uwa_rd_q[k]) assert (hwo_q[k] || hwq_q[k]);
      if ((hwo_q[k] || hwq_q[k]) && rekey_q) assert (k == 0);
      if (fly[k] || dn_q[k]) assert (3'(k) < nch_q);
      if (dn_q[k]) assert (!fly[k]);
      assert ((cst_c[k] == CsMissing) == missing[k]);
      assert ((cst_c[k] == CsPending) == (jq[k] || eng_q[k]));
      assert ((cst_c[k] == CsDropping) == ((uwo_q[k] && !uwo_rd_q[k]) || (uwa_q[k] && !uwa_rd_q[k])));
      assert ((cst_c[k] == CsReading) == ((uwo_q[k] && uwo_rd_q[k]) || (uwa_q[k] && uwa_rd_q[k])));
      assert ((cst_c[k] == CsWriting) == (!uwo_q[k] && !uwa_q[k] && (hwo_q[k] || hwq_q[k])));
      assert ((cst_c[k] == CsDone) == dn_q[k]);
    end
    // The job register of c.
    if (oj_c) begin
      assert (onerma_rsp_ctx.job_hdr_q.chunk_offset[CS+CIB-1:CS] == j_chunk);
      assert (onerma_rsp_ctx.job_hdr_q.prev_counter == ctr_q);
    end
  end

  // ---- Covers.
  logic wr_err_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) wr_err_q <= 1'b0;
    else if (srv_c) wr_err_q <= 1'b0;
    else if (hr_c && !hw_rsp_ok_i) wr_err_q <= 1'b1;
  end
  always_comb if (rst_ni) begin
    // A WRITE of two chunks ends with WR_CMPL OK.
    cover (sjf_cm && !err_q && nch_q == 3'd2 && !rekey_q);
    // A WRITE ends with WR_CMPL REMOTE_ACCESS_ERROR after a host write error.
    cover (sjf_cm && wr_err_q);
    // A REKEY installed and answered OK.
    cover (sjf_cm && !err_q && rekey_q);
    // A context expires silently after its WR_RDREQ was sent.
    cover (free_c && !cm_q && live_q);
  end

endmodule

bind onerma_rsp_ctx onerma_rsp_ctx_props #(
  .NumCtx   (NumCtx),
  .TimeWidth(TimeWidth)
) u_props (.*);
`endif

`default_nettype wire
