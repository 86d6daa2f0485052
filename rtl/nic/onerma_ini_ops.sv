`default_nettype none

/// Initiator op table (docs/nic.md "The op table"): the dynamic state of every slot's op, and
/// the one place every event of an op is applied, so "exactly one completion record per
/// accepted command" is a property of this block alone.
///
/// - Phases FREE -> QUEUED -> SERVICE -> ENDING -> RECORD -> FREE (or FREE -> ENDING for a
///   command refused at submission, QUEUED -> ENDING for DISPATCH_TIMEOUT).
/// - Response acceptance (protocol §7.4 steps 1-2, §7.5, §8.3, §8.5) at the frame's header,
///   against the slot's phase, counters, deadline (exact: `t_rx < deadline`) and a copy of the
///   memo; accepted frames go to the opener with K_d (0 for AUTH_FAIL) and meta
///   `{kind, chunk, slot}`, their payload passed, the others' payload drained.
/// - Tag results: a verified chunk of an op in SERVICE is read out of the window into a host
///   write (`hw_*`), every other chunk is dropped from the window; a reply ends the op while it
///   is still not engaged; a WR_RDREQ re-arms the timer (§6.2, an exact divider) and then
///   starts the WR_DATA sender; a WR_CMPL ends the op with its status.
/// - An op leaves ENDING for RECORD only when nothing of it is in flight (a chunk or reply in an
///   engine, a chunk in the window, a host write, its request or WR_DATA in the sealer, a
///   re-arm), so a later op of the slot never meets an event of an earlier one.
module onerma_ini_ops #(
  parameter int unsigned NumSlots  = 64,
  parameter int unsigned TimeWidth = 32,
  // Derived, do not override.
  parameter int unsigned SlotWidth = (NumSlots > 1) ? $clog2(NumSlots) : 1,
  parameter int unsigned MetaW     = SlotWidth + 2 + onerma_pkg::ChunkIndexBits,
  parameter int unsigned TagW      = SlotWidth + onerma_pkg::ChunkIndexBits
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,

  // Configuration.
  input  logic [TimeWidth-1:0] op_timeout_i,
  input  logic [31:0]          max_hold_ns_i,
  input  logic [31:0]          clk_period_ps_i,

  // onerma_submit's accept stream (always taken).
  input  logic                 acc_valid_i,
  output logic                 acc_ready_o,
  input  logic [SlotWidth-1:0] acc_slot_i,
  input  logic [15:0]          acc_seq_i,
  input  onerma_pkg::status_e  acc_status_i,
  input  onerma_pkg::cmd_t     acc_cmd_i,
  input  logic [31:0]          acc_pid_i,
  input  logic [TimeWidth-1:0] acc_t_sub_i,
  input  logic [63:0]          acc_cq_addr_i,
  input  logic [15:0]          acc_cq_gen_i,
  input  logic [63:0]          acc_local_addr_i,
  input  logic [15:0]          acc_local_gen_i,

  // onerma_dispatch's expiry stream (always taken).
  input  logic                 exp_valid_i,
  output logic                 exp_ready_o,
  input  logic [SlotWidth-1:0] exp_slot_i,

  // onerma_ini_req's arm pulse: the op entered service (t_disp = deadline - op_timeout).
  input  logic                 arm_i,
  input  logic [SlotWidth-1:0] arm_slot_i,
  input  logic [TimeWidth-1:0] arm_deadline_i,

  // The sealer took the op's request (`asg`) or dropped it unsent.
  input  logic                 asg_i,
  input  logic [SlotWidth-1:0] asg_slot_i,
  input  logic [63:0]          asg_counter_i,
  input  logic                 req_drop_i,
  input  logic [SlotWidth-1:0] req_drop_slot_i,

  // onerma_rx_parse's initiator descriptors and payload.
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

  // Opener jobs.
  output logic                 job_valid_o,
  input  logic                 job_ready_i,
  output onerma_pkg::hdr_t     job_hdr_o,
  output logic [127:0]         job_tag_o,
  output logic [127:0]         job_key_o,
  output logic [MetaW-1:0]     job_meta_o,

  // Tag results of the opener's jobs (meta as given).
  input  logic                 res_valid_i,
  output logic                 res_ready_o,
  input  logic                 res_ok_i,
  input  logic [MetaW-1:0]     res_meta_i,

  // onerma_window unwinds of the slots' chunks.
  output logic                 uw_valid_o,
  input  logic                 uw_ready_i,
  output logic [SlotWidth-1:0] uw_slot_o,
  output logic [onerma_pkg::ChunkIndexBits-1:0] uw_chunk_o,
  output logic                 uw_read_o,
  input  logic                 uw_done_i,
  input  logic [SlotWidth-1:0] uw_done_slot_i,
  input  logic [onerma_pkg::ChunkIndexBits-1:0] uw_done_chunk_i,

  // Host writes of verified chunks (an onerma_dma_wr client; data from the window read-out).
  output logic                 hw_valid_o,
  input  logic                 hw_ready_i,
  output logic [63:0]          hw_addr_o,
  output logic [12:0]          hw_len_o,
  output logic [15:0]          hw_region_o,
  output logic [15:0]          hw_gen_o,
  output logic [TagW-1:0]      hw_tag_o,
  input  logic                 hw_rsp_valid_i,
  output logic                 hw_rsp_ready_o,
  input  logic [TagW-1:0]      hw_rsp_tag_i,
  input  logic                 hw_rsp_ok_i,

  // onerma_op_timer: its requests (always taken) and its one write port.
  input  logic                 to_valid_i,
  output logic                 to_ready_o,
  input  logic [SlotWidth-1:0] to_slot_i,
  output logic                 tmr_arm_o,
  output logic [SlotWidth-1:0] tmr_slot_o,
  output logic [TimeWidth-1:0] tmr_deadline_o,

  // The WR_DATA sender: start after an accepted WR_RDREQ; fail and done reports.
  output logic                 wds_valid_o,
  input  logic                 wds_ready_i,
  output logic [SlotWidth-1:0] wds_slot_o,
  output logic [63:0]          wds_counter_o,
  output logic [15:0]          wds_ctx_o,
  input  logic                 wd_fail_i,
  input  logic [SlotWidth-1:0] wd_fail_slot_i,
  input  logic                 wd_done_i,
  input  logic [SlotWidth-1:0] wd_done_slot_i,
  // Slots whose op is in service (the WR_DATA sender sends nothing for the others).
  output logic [NumSlots-1:0]  live_o,

  // Completion records to onerma_ini_cpl, and its done reports (always taken).
  output logic                 rec_valid_o,
  input  logic                 rec_ready_i,
  output logic [SlotWidth-1:0] rec_slot_o,
  output onerma_pkg::status_e  rec_status_o,
  output logic [7:0]           rec_op_type_o,
  output logic [15:0]          rec_seq_o,
  output logic [TimeWidth-1:0] rec_t_sub_o,
  output logic [TimeWidth-1:0] rec_t_disp_o,
  output logic                 rec_dispatched_o,
  output logic [63:0]          rec_cq_addr_o,
  output logic [15:0]          rec_cq_region_o,
  output logic [15:0]          rec_cq_gen_o,
  input  logic                 recd_valid_i,
  output logic                 recd_ready_o,
  input  logic [SlotWidth-1:0] recd_slot_i,

  // The slot is free again (onerma_submit) and the op's reservation refunded (window_alloc).
  output logic                 free_o,
  output logic [SlotWidth-1:0] free_slot_o,
  output logic                 refund_valid_o,
  output logic [6:0]           refund_lines_o,

  // Drop counters (protocol §12).
  // Up to two stale frames a cycle: a header refused, and a result the op can no longer use.
  output logic [1:0]           drop_stale_o,
  output logic                 drop_dup_o,
  output logic                 drop_auth_o,
  output logic                 drop_hold_o
);

  import onerma_pkg::*;

  localparam int unsigned ChunkShift = $clog2(ChunkBytes);

  typedef enum logic [2:0] {
    PhFree    = 3'd0,
    PhQueued  = 3'd1,
    PhService = 3'd2,
    PhEnding  = 3'd3,
    PhRecord  = 3'd4
  } phase_e;

  // Chunk states of a READ (§7.4) with the window and host-write steps made explicit.
  typedef enum logic [2:0] {
    CsMissing  = 3'd0,
    CsPending  = 3'd1, // in an engine
    CsDropping = 3'd2, // lines being released from the window
    CsReading  = 3'd3, // verified, queued for or in the window read-out
    CsWriting  = 3'd4, // read out, host write not answered
    CsDone     = 3'd5
  } cst_e;

  // Kinds of opener jobs (meta[MetaW-1 -: 2]).
  localparam logic [1:0] KindChunk = 2'd0;
  localparam logic [1:0] KindReply = 2'd1;
  localparam logic [1:0] KindRdreq = 2'd2;
  localparam logic [1:0] KindCmpl  = 2'd3;

  typedef struct packed {
    logic [7:0]   op_type;
    logic [15:0]  length;
    logic [31:0]  remote_nic;
    logic [15:0]  remote_region;
    logic [63:0]  remote_offset;
    logic [31:0]  pid;
    logic [127:0] kd;
  } echo_t;

  typedef struct packed {
    logic [15:0]          seq;
    logic [TimeWidth-1:0] t_sub;
    logic [63:0]          cq_addr;
    logic [15:0]          cq_region;
    logic [15:0]          cq_gen;
  } cpl_memo_t;

  typedef struct packed {
    logic [63:0] addr;
    logic [15:0] region;
    logic [15:0] gen;
  } local_t;

  typedef struct packed {
    logic [SlotWidth-1:0] slot;
    logic [ChunkIndexBits-1:0] chunk;
    logic                 read;
  } uw_t;

  typedef struct packed {
    logic [SlotWidth-1:0] slot;
    logic [ChunkIndexBits-1:0] chunk;
  } hwq_t;

  typedef struct packed {
    logic [SlotWidth-1:0] slot;
    logic [TimeWidth-1:0] t_rx;
    logic [31:0]          hold_ns;
  } rm_t;

  // ---------------------------------------------------------------------------------------
  // Memo copies (written at the accept handshake; each reader has its own fields).
  // ---------------------------------------------------------------------------------------
  echo_t     echo_mem  [NumSlots];
  cpl_memo_t cpl_mem   [NumSlots];
  local_t    local_mem [NumSlots];

  logic acc_fire;
  assign acc_ready_o = 1'b1;
  assign acc_fire    = acc_valid_i;

  always_ff @(posedge clk_i) begin
    if (acc_fire) begin
      echo_mem[acc_slot_i] <= '{
        op_type:       acc_cmd_i.op_type,
        length:        acc_cmd_i.length,
        remote_nic:    acc_cmd_i.remote_nic,
        remote_region: acc_cmd_i.remote_region,
        remote_offset: acc_cmd_i.remote_offset,
        pid:           acc_pid_i,
        kd:            acc_cmd_i.kd
      };
      cpl_mem[acc_slot_i] <= '{
        seq:       acc_seq_i,
        t_sub:     acc_t_sub_i,
        cq_addr:   acc_cq_addr_i,
        cq_region: acc_cmd_i.cq_region,
        cq_gen:    acc_cq_gen_i
      };
      local_mem[acc_slot_i] <= '{
        addr:   acc_local_addr_i,
        region: acc_cmd_i.local_region,
        gen:    acc_local_gen_i
      };
    end
  end

  // Per-op values written by one event each, no reset (read only in the phases that follow
  // their write).
  logic [63:0]          req_ctr_mem   [NumSlots];
  logic [63:0]          rdreq_ctr_mem [NumSlots];
  logic [15:0]          ctx_mem       [NumSlots];
  logic [63:0]          cand_ctr_mem  [NumSlots];
  logic [15:0]          cand_ctx_mem  [NumSlots];
  logic [TimeWidth-1:0] t_disp_mem    [NumSlots];
  logic [TimeWidth-1:0] deadline_mem  [NumSlots];

  // ---------------------------------------------------------------------------------------
  // Per-slot state (flops).
  // ---------------------------------------------------------------------------------------
  phase_e [NumSlots-1:0]        phase_q, phase_d;
  cst_e   [NumSlots-1:0][MaxChunks-1:0]   cst_q, cst_d;
  logic   [NumSlots-1:0]        engaged_q, engaged_d;   // RD_RESP header or WR_RDREQ accepted
  logic   [NumSlots-1:0]        rep_pend_q, rep_pend_d; // a NACK / ACCESS_ERR / AUTH_FAIL in an engine
  logic   [NumSlots-1:0]        ctl_pend_q, ctl_pend_d; // a WR_RDREQ or WR_CMPL in an engine
  logic   [NumSlots-1:0]        rdreq_ok_q, rdreq_ok_d;
  logic   [NumSlots-1:0]        rearm_q, rearm_d;       // re-arm (divider) not yet written
  logic   [NumSlots-1:0]        wd_busy_q, wd_busy_d;   // WR_DATA sender started, not done
  logic   [NumSlots-1:0]        req_fly_q, req_fly_d;   // request not yet taken by the sealer
  logic   [NumSlots-1:0]        ctr_ok_q, ctr_ok_d;     // request counter known
  logic   [NumSlots-1:0]        disp_q, disp_d;         // entered service
  logic   [NumSlots-1:0]        isrd_q, isrd_d;         // a READ (else WRITE or REKEY)
  logic   [NumSlots-1:0][2:0]   nch_q, nch_d;           // chunks of the op
  logic   [NumSlots-1:0]        armwait_q, armwait_d;   // re-arm not yet written: no timeout
  status_e [NumSlots-1:0]       status_q, status_d;     // ending status
  status_e [NumSlots-1:0]       rst_q, rst_d;           // status a pending reply / WR_CMPL carries

  function automatic logic [2:0] n_chunks(input logic [ChunkShift+2:0] len);
    // length <= 4096 (onerma_submit): at most MaxChunks chunks.
    return len[ChunkShift+2:ChunkShift] + 3'(len[ChunkShift-1:0] != '0);
  endfunction

  function automatic logic [12:0] chunk_len(input logic [15:0] len, input logic [ChunkIndexBits-1:0] k);
    logic [15:0] rest;
    rest = len - (16'(k) << ChunkShift);
    return (rest > 16'(ChunkBytes)) ? 13'(ChunkBytes) : rest[12:0];
  endfunction

  // ---------------------------------------------------------------------------------------
  // Response acceptance (one header per cycle).
  // ---------------------------------------------------------------------------------------
  logic                 route_in_ready, route_out_valid, route_out_pass;
  logic                 job_q_valid;
  hdr_t                 job_hdr_q;
  logic [127:0]         job_tag_q, job_key_q;
  logic [MetaW-1:0]     job_meta_q;

  logic                 hdr_fire;
  logic [SlotWidth-1:0] hs;
  logic                 h_in_range, h_live, h_echo, h_prev_req, h_time;
  logic [TimeWidth-1:0] h_diff;
  echo_t                hm;
  logic [ChunkIndexBits-1:0] h_chunk;
  logic                 h_stale, h_dup, h_hold, h_acc;
  logic [1:0]           h_kind;
  status_e              h_status;
  logic [127:0]         h_key;
  logic                 h_is_read, h_is_wr;

  assign hdr_ready_o = (!job_q_valid || job_ready_i) && route_in_ready;
  assign hdr_fire    = hdr_valid_i && hdr_ready_o;
  assign hs          = hdr_i.slot[SlotWidth-1:0];
  assign h_in_range  = (32'(hdr_i.slot) < NumSlots);
  assign hm          = echo_mem[hs];
  assign h_chunk     = hdr_i.chunk_offset[ChunkShift+ChunkIndexBits-1:ChunkShift];
  assign h_is_read   = isrd_q[hs];
  assign h_is_wr     = !isrd_q[hs];

  always_comb begin
    h_live     = h_in_range && (phase_q[hs] == PhService) && ctr_ok_q[hs];
    h_echo     = (8'(hdr_i.op_type) == hm.op_type) && (hdr_i.src_nic == hm.remote_nic) &&
                 (hdr_i.pid == hm.pid) && (hdr_i.region == hm.remote_region) &&
                 (hdr_i.offset == hm.remote_offset) && (hdr_i.length == hm.length);
    h_prev_req = (hdr_i.prev_counter == req_ctr_mem[hs]);
    // Deadlines are compared exactly at a frame's acceptance (§6.1): its last beat before the
    // deadline, modulo 2^TimeWidth as the op timer compares.
    h_diff     = hdr_t_rx_i - deadline_mem[hs];
    h_time     = h_diff[TimeWidth-1];
    h_stale    = 1'b1;
    h_dup      = 1'b0;
    h_hold     = 1'b0;
    h_kind     = KindChunk;
    h_status   = StatusOk;
    h_key      = hm.kd;
    unique case (hdr_i.msg_type)
      MsgTypeRdResp: begin
        h_kind  = KindChunk;
        h_stale = !(h_is_read && h_prev_req &&
                    (hdr_i.chunk_offset[ChunkShift-1:0] == '0) &&
                    (hdr_i.chunk_offset < hdr_i.length) &&
                    (13'(hdr_i.chunk_len) == chunk_len(hdr_i.length, h_chunk)) &&
                    (hdr_i.chunk_len[15:13] == '0));
        h_dup   = (cst_q[hs][h_chunk] != CsMissing);
      end
      MsgTypeNack, MsgTypeAccessErr, MsgTypeAuthFail: begin
        h_kind   = KindReply;
        h_stale  = !(h_prev_req && !engaged_q[hs]);
        h_dup    = rep_pend_q[hs];
        h_status = (hdr_i.msg_type == MsgTypeNack)     ? StatusNack :
                   (hdr_i.msg_type == MsgTypeAuthFail) ? StatusRemoteAuthenticationFailure :
                                                         StatusRemoteAccessError;
        if (hdr_i.msg_type == MsgTypeAuthFail) h_key = '0;
      end
      MsgTypeWrRdreq: begin
        h_kind  = KindRdreq;
        h_stale = !(h_is_wr && h_prev_req && !engaged_q[hs]);
        h_hold  = (hdr_i.hold_ns > max_hold_ns_i);
        h_dup   = ctl_pend_q[hs];
      end
      MsgTypeWrCmpl: begin
        h_kind   = KindCmpl;
        h_stale  = !(h_is_wr && rdreq_ok_q[hs] &&
                     (hdr_i.prev_counter == rdreq_ctr_mem[hs]) && (hdr_i.ctx == ctx_mem[hs]));
        h_dup    = ctl_pend_q[hs];
        h_status = hdr_i.status;
      end
      default: h_stale = 1'b1; // requests never reach the initiator (onerma_rx_parse)
    endcase
    h_stale = h_stale || !h_live || !h_echo || !h_time;
    h_hold  = h_hold && !h_stale;
    h_dup   = h_dup && !h_stale && !h_hold;
    h_acc   = !h_stale && !h_hold && !h_dup;
  end

  logic hdr_acc;
  logic res_stale;
  assign hdr_acc      = hdr_fire && h_acc;
  assign drop_stale_o = 2'(hdr_fire && h_stale) + 2'(res_stale);
  assign drop_hold_o  = hdr_fire && h_hold;
  assign drop_dup_o   = hdr_fire && h_dup;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      job_q_valid <= 1'b0;
    end else if (hdr_fire) begin
      job_q_valid <= h_acc;
    end else if (job_ready_i) begin
      job_q_valid <= 1'b0;
    end
  end

  always_ff @(posedge clk_i) begin
    if (hdr_acc) begin
      job_hdr_q  <= hdr_i;
      job_tag_q  <= hdr_tag_i;
      job_key_q  <= h_key;
      job_meta_q <= {h_kind, h_chunk, hs};
    end
  end

  assign job_valid_o = job_q_valid;
  assign job_hdr_o   = job_hdr_q;
  assign job_tag_o   = job_tag_q;
  assign job_key_o   = job_key_q;
  assign job_meta_o  = job_meta_q;

  // Candidate read-back counter and context of an accepted WR_RDREQ (one per slot in flight).
  logic [TimeWidth-1:0] cand_trx_mem  [NumSlots];
  logic [31:0]          cand_hold_mem [NumSlots];
  always_ff @(posedge clk_i) begin
    if (hdr_acc && h_kind == KindRdreq) begin
      cand_ctr_mem[hs]  <= hdr_i.counter;
      cand_ctx_mem[hs]  <= hdr_i.ctx;
      cand_trx_mem[hs]  <= hdr_t_rx_i;
      cand_hold_mem[hs] <= hdr_i.hold_ns;
    end
  end

  // Payload routing: one decision per frame with payload, in frame order. The opener takes a
  // payload beat only after its job (its contract), so a passed frame's payload waits while its
  // job is still in the job register (`unjob_q`). That frame is always the newest entry: every
  // header handshake hands the register's previous job over in the same cycle.
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
    else if (job_ready_i) unjob_q <= 1'b0;
  end
  assign route_head_wait = route_out_pass && unjob_q && (route_count == 2'd1);
  assign opay_valid_o = pay_valid_i && route_out_valid && route_out_pass && !route_head_wait;
  assign pay_ready_o  = route_out_valid && (!route_out_pass || (opay_ready_i && !route_head_wait));
  assign route_pop    = pay_valid_i && pay_ready_o && pay_last_i;

  // ---------------------------------------------------------------------------------------
  // Tag results.
  // ---------------------------------------------------------------------------------------
  logic                 uwq_in_ready, rmq_in_ready;
  logic                 res_fire;
  logic [1:0]           r_kind;
  logic [ChunkIndexBits-1:0] r_chunk;
  logic [SlotWidth-1:0] r_slot;
  logic                 r_live;

  assign res_ready_o = uwq_in_ready && rmq_in_ready;
  assign res_fire    = res_valid_i && res_ready_o;
  assign {r_kind, r_chunk, r_slot} = res_meta_i;
  assign r_live      = (phase_q[r_slot] == PhService);
  // A verified reply or read-back request the op can no longer use is a stale frame; a failed
  // tag of a live op is drop_auth (the model counts neither for an op that already ended).
  assign res_stale   = res_fire && res_ok_i && (r_kind != KindChunk) &&
                       !(r_live && !(r_kind == KindReply && engaged_q[r_slot]));
  assign drop_auth_o = res_fire && !res_ok_i && r_live;

  logic uw_push;
  uw_t  uwq_in, uwq_out;
  logic uwq_out_valid;
  assign uw_push = res_fire && (r_kind == KindChunk);
  assign uwq_in  = '{slot: r_slot, chunk: r_chunk, read: res_ok_i && r_live};

  onerma_fifo #(.T(uw_t), .Depth(4)) u_uwq (
    .clk_i, .rst_ni, .flush_i(1'b0),
    .in_valid_i(uw_push), .in_ready_o(uwq_in_ready), .in_data_i(uwq_in),
    .out_valid_o(uwq_out_valid), .out_ready_i(uw_valid_o && uw_ready_i), .out_data_o(uwq_out),
    /* verilator lint_off PINCONNECTEMPTY */
    .count_o()
    /* verilator lint_on PINCONNECTEMPTY */
  );

  logic hwq_in_ready, hwq_out_valid, hw_fire;
  hwq_t hwq_out;
  assign uw_valid_o = uwq_out_valid && (!uwq_out.read || hwq_in_ready);
  assign uw_slot_o  = uwq_out.slot;
  assign uw_chunk_o = uwq_out.chunk;
  assign uw_read_o  = uwq_out.read;

  onerma_fifo #(.T(hwq_t), .Depth(4)) u_hwq (
    .clk_i, .rst_ni, .flush_i(1'b0),
    .in_valid_i(uw_valid_o && uw_ready_i && uwq_out.read), .in_ready_o(hwq_in_ready),
    .in_data_i('{slot: uwq_out.slot, chunk: uwq_out.chunk}),
    .out_valid_o(hwq_out_valid), .out_ready_i(hw_ready_i), .out_data_o(hwq_out),
    /* verilator lint_off PINCONNECTEMPTY */
    .count_o()
    /* verilator lint_on PINCONNECTEMPTY */
  );

  local_t hl;
  assign hl          = local_mem[hwq_out.slot];
  assign hw_valid_o  = hwq_out_valid;
  assign hw_fire     = hw_valid_o && hw_ready_i;
  assign hw_addr_o   = hl.addr + (64'(hwq_out.chunk) << ChunkShift);
  assign hw_len_o    = chunk_len(echo_mem[hwq_out.slot].length, hwq_out.chunk);
  assign hw_region_o = hl.region;
  assign hw_gen_o    = hl.gen;
  assign hw_tag_o    = {hwq_out.slot, hwq_out.chunk};
  assign hw_rsp_ready_o = 1'b1;

  // ---------------------------------------------------------------------------------------
  // WRITE re-arm (§6.2): deadline = t_rx + ceil(hold_ns * 1000 * (1 + 2 tol) / period) + 1,
  // by an exact restoring divider, one quotient bit per cycle.
  // ---------------------------------------------------------------------------------------
  localparam int unsigned NumW = 64;  // hold_ns * 1000 * (1e6 + 2 tol) < 2^62
  localparam int unsigned DenW = 52;  // period_ps * 1e6 < 2^52
  localparam logic [31:0] TolNum = 32'(64'd1000 * (64'd1_000_000 + 64'd2 * 64'(ClockTolerancePpm)));

  logic rmq_out_valid, rm_take;
  rm_t  rmq_out;
  // One entry per slot at most (a WRITE accepts one WR_RDREQ): the queue never fills, so a
  // WR_RDREQ's tag result is never refused while the divider waits for the WR_DATA sender,
  // which may wait for the sealer, which may wait for this result's engine (the GCM sharing
  // contract: results are always taken).
  onerma_fifo #(.T(rm_t), .Depth(NumSlots)) u_rmq (
    .clk_i, .rst_ni, .flush_i(1'b0),
    .in_valid_i(res_fire && (r_kind == KindRdreq) && res_ok_i && r_live),
    .in_ready_o(rmq_in_ready),
    .in_data_i('{slot: r_slot, t_rx: cand_trx_mem[r_slot], hold_ns: cand_hold_mem[r_slot]}),
    .out_valid_o(rmq_out_valid), .out_ready_i(rm_take), .out_data_o(rmq_out),
    /* verilator lint_off PINCONNECTEMPTY */
    .count_o()
    /* verilator lint_on PINCONNECTEMPTY */
  );

  typedef enum logic [1:0] {DvIdle, DvRun, DvArm, DvStart} dv_e;
  dv_e                   dv_q;
  logic [NumW+DenW-1:0]  rem_q;
  logic [DenW-1:0]       den_q;
  logic [TimeWidth-1:0]  quo_q;
  logic [$clog2(TimeWidth+1)-1:0] bit_q;
  logic [SlotWidth-1:0]  dv_slot_q;
  logic [TimeWidth-1:0]  dv_trx_q;
  logic [NumW+DenW-1:0]  dv_sub;
  logic                  dv_ge;
  logic                  dv_arm, dv_wds;

  assign rm_take = (dv_q == DvIdle) && rmq_out_valid;
  assign dv_sub  = (NumW+DenW)'(den_q) << bit_q;
  assign dv_ge   = (rem_q >= dv_sub);
  assign dv_arm  = (dv_q == DvArm) && !arm_i;
  assign dv_wds  = (dv_q == DvStart) && wds_ready_i;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      dv_q      <= DvIdle;
      rem_q     <= '0;
      den_q     <= '0;
      quo_q     <= '0;
      bit_q     <= '0;
      dv_slot_q <= '0;
      dv_trx_q  <= '0;
    end else begin
      unique case (dv_q)
        DvIdle: if (rm_take) begin
          den_q     <= DenW'(64'(clk_period_ps_i) * 64'd1_000_000);
          rem_q     <= (NumW+DenW)'(64'(rmq_out.hold_ns) * 64'(TolNum)) +
                       (NumW+DenW)'(64'(clk_period_ps_i) * 64'd1_000_000) - 1'b1;
          quo_q     <= '0;
          bit_q     <= ($clog2(TimeWidth+1))'(TimeWidth - 1);
          dv_slot_q <= rmq_out.slot;
          dv_trx_q  <= rmq_out.t_rx;
          dv_q      <= DvRun;
        end
        DvRun: begin
          if (dv_ge) begin
            rem_q <= rem_q - dv_sub;
          end
          quo_q <= {quo_q[TimeWidth-2:0], dv_ge};
          if (bit_q == '0) dv_q <= DvArm;
          else bit_q <= bit_q - 1'b1;
        end
        // The op stays in service while its re-arm is pending (timeouts are ignored then).
        DvArm:   if (dv_arm) dv_q <= DvStart;
        DvStart: if (dv_wds) dv_q <= DvIdle;
        default: dv_q <= DvIdle;
      endcase
    end
  end

  assign tmr_arm_o      = arm_i || dv_arm;
  assign tmr_slot_o     = arm_i ? arm_slot_i : dv_slot_q;
  assign tmr_deadline_o = arm_i ? arm_deadline_i : (dv_trx_q + quo_q + 1'b1);

  assign wds_valid_o   = (dv_q == DvStart);
  assign wds_slot_o    = dv_slot_q;
  assign wds_counter_o = rdreq_ctr_mem[dv_slot_q];
  assign wds_ctx_o     = ctx_mem[dv_slot_q];

  // ---------------------------------------------------------------------------------------
  // Per-op values written by events.
  // ---------------------------------------------------------------------------------------
  always_ff @(posedge clk_i) begin
    if (asg_i) req_ctr_mem[asg_slot_i] <= asg_counter_i;
    if (arm_i) t_disp_mem[arm_slot_i] <= arm_deadline_i - op_timeout_i;
    if (tmr_arm_o) deadline_mem[tmr_slot_o] <= tmr_deadline_o;
    if (res_fire && r_kind == KindRdreq && res_ok_i && r_live) begin
      rdreq_ctr_mem[r_slot] <= cand_ctr_mem[r_slot];
      ctx_mem[r_slot]       <= cand_ctx_mem[r_slot];
    end
  end

  // ---------------------------------------------------------------------------------------
  // Completion records: a slot in ENDING with nothing in flight, round-robin.
  // ---------------------------------------------------------------------------------------
  logic [NumSlots-1:0]  inflight, rec_req;
  // A frame of the op accepted at its header (`t_rx < deadline`) is still in an engine: the
  // protocol judges it at its last beat (§6.1), so the op timer waits for its tag result.
  logic [NumSlots-1:0]  tag_wait;
  logic                 rec_pick_valid, rec_load;
  logic [SlotWidth-1:0] rec_pick, rec_ptr_q;
  logic                 rec_q_valid;
  logic [SlotWidth-1:0] rec_slot_q;

  always_comb begin
    for (int unsigned s = 0; s < NumSlots; s++) begin
      inflight[s] = rep_pend_q[s] || ctl_pend_q[s] || wd_busy_q[s] || req_fly_q[s] ||
                    rearm_q[s];
      for (int unsigned c = 0; c < MaxChunks; c++) begin
        if (cst_q[s][c] inside {CsPending, CsDropping, CsReading, CsWriting}) inflight[s] = 1'b1;
      end
      rec_req[s] = (phase_q[s] == PhEnding) && !inflight[s];
      tag_wait[s] = rep_pend_q[s] || ctl_pend_q[s];
      for (int unsigned c = 0; c < MaxChunks; c++) begin
        if (cst_q[s][c] == CsPending) tag_wait[s] = 1'b1;
      end
    end
  end

  onerma_rr_pick #(.N(NumSlots)) u_rec_pick (
    .req_i(rec_req), .ptr_i(rec_ptr_q), .valid_o(rec_pick_valid), .idx_o(rec_pick)
  );
  assign rec_load = rec_pick_valid && (!rec_q_valid || rec_ready_i);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rec_q_valid <= 1'b0;
      rec_slot_q  <= '0;
      rec_ptr_q   <= '0;
    end else begin
      if (rec_load) begin
        rec_q_valid <= 1'b1;
        rec_slot_q  <= rec_pick;
        rec_ptr_q   <= (32'(rec_pick) == NumSlots - 1) ? '0 : rec_pick + 1'b1;
      end else if (rec_ready_i) begin
        rec_q_valid <= 1'b0;
      end
    end
  end

  cpl_memo_t rc;
  assign rc               = cpl_mem[rec_slot_q];
  assign rec_valid_o      = rec_q_valid;
  assign rec_slot_o       = rec_slot_q;
  assign rec_status_o     = status_q[rec_slot_q];
  assign rec_op_type_o    = echo_mem[rec_slot_q].op_type;
  assign rec_seq_o        = rc.seq;
  assign rec_t_sub_o      = rc.t_sub;
  assign rec_t_disp_o     = t_disp_mem[rec_slot_q];
  assign rec_dispatched_o = disp_q[rec_slot_q];
  assign rec_cq_addr_o    = rc.cq_addr;
  assign rec_cq_region_o  = rc.cq_region;
  assign rec_cq_gen_o     = rc.cq_gen;
  assign recd_ready_o     = 1'b1;

  // The reservation (ceil(length / 64) lines at dispatch) returns when the record is issued:
  // by then no line of the op is in the window (S2).
  logic [15:0] rf_len;
  assign rf_len         = echo_mem[rec_pick].length;
  assign refund_valid_o = rec_load && disp_q[rec_pick];
  // A READ's lines; a WRITE / REKEY reserved none at dispatch (protocol §2.3).
  assign refund_lines_o = isrd_q[rec_pick] ? 7'((rf_len + 16'd63) >> 6) : 7'd0;

  assign free_o      = recd_valid_i;
  assign free_slot_o = recd_slot_i;

  assign exp_ready_o = 1'b1;
  assign to_ready_o  = 1'b1;

  // ---------------------------------------------------------------------------------------
  // The per-slot update: every event of the cycle applied to its slot.
  // ---------------------------------------------------------------------------------------
  logic [SlotWidth-1:0] hw_rsp_slot;
  logic [ChunkIndexBits-1:0] hw_rsp_chunk;
  assign {hw_rsp_slot, hw_rsp_chunk} = hw_rsp_tag_i;

  always_comb begin
    phase_d    = phase_q;
    cst_d      = cst_q;
    engaged_d  = engaged_q;
    rep_pend_d = rep_pend_q;
    ctl_pend_d = ctl_pend_q;
    rdreq_ok_d = rdreq_ok_q;
    rearm_d    = rearm_q;
    wd_busy_d  = wd_busy_q;
    req_fly_d  = req_fly_q;
    ctr_ok_d   = ctr_ok_q;
    disp_d     = disp_q;
    isrd_d     = isrd_q;
    nch_d      = nch_q;
    armwait_d  = armwait_q;
    status_d   = status_q;
    rst_d      = rst_q;
    for (int unsigned si = 0; si < NumSlots; si++) begin
      logic [SlotWidth-1:0] s;
      logic                 end_now;
      status_e              end_st;
      logic                 all_done;
      s        = SlotWidth'(si);
      end_now  = 1'b0;
      end_st   = StatusOk;
      // Accept: the slot was free (onerma_submit's busy bits).
      if (acc_fire && acc_slot_i == s) begin
        phase_d[si]    = (acc_status_i == StatusOk) ? PhQueued : PhEnding;
        status_d[si]   = acc_status_i;
        for (int unsigned c = 0; c < MaxChunks; c++) cst_d[si][c] = CsMissing;
        isrd_d[si]     = (acc_cmd_i.op_type == 8'(OpTypeRead));
        nch_d[si]      = n_chunks(acc_cmd_i.length[ChunkShift+2:0]);
        armwait_d[si]  = 1'b0;
        engaged_d[si]  = 1'b0;
        rep_pend_d[si] = 1'b0;
        ctl_pend_d[si] = 1'b0;
        rdreq_ok_d[si] = 1'b0;
        rearm_d[si]    = 1'b0;
        wd_busy_d[si]  = 1'b0;
        req_fly_d[si]  = 1'b0;
        ctr_ok_d[si]   = 1'b0;
        disp_d[si]     = 1'b0;
      end
      if (exp_valid_i && exp_slot_i == s && phase_q[si] == PhQueued) begin
        phase_d[si]  = PhEnding;
        status_d[si] = StatusDispatchTimeout;
      end
      if (arm_i && arm_slot_i == s && phase_q[si] == PhQueued) begin
        phase_d[si]   = PhService;
        disp_d[si]    = 1'b1;
        req_fly_d[si] = 1'b1;
      end
      if (asg_i && asg_slot_i == s) begin
        req_fly_d[si] = 1'b0;
        ctr_ok_d[si]  = 1'b1;
      end
      if (req_drop_i && req_drop_slot_i == s) begin
        req_fly_d[si] = 1'b0;
      end
      // Header accepted.
      if (hdr_acc && hs == s) begin
        unique case (h_kind)
          KindChunk: begin
            cst_d[si][h_chunk] = CsPending;
            engaged_d[si]      = 1'b1;
          end
          KindReply: begin
            rep_pend_d[si] = 1'b1;
            rst_d[si]      = h_status;
          end
          KindRdreq: ctl_pend_d[si] = 1'b1;
          default: begin
            ctl_pend_d[si] = 1'b1;
            rst_d[si]      = h_status;
          end
        endcase
      end
      // Tag result.
      if (res_fire && r_slot == s) begin
        unique case (r_kind)
          KindChunk: cst_d[si][r_chunk] = uwq_in.read ? CsReading : CsDropping;
          KindReply: begin
            rep_pend_d[si] = 1'b0;
            if (res_ok_i && r_live && !engaged_q[si]) begin
              end_now = 1'b1;
              end_st  = rst_q[si];
            end
          end
          KindRdreq: begin
            ctl_pend_d[si] = 1'b0;
            if (res_ok_i && r_live) begin
              rdreq_ok_d[si] = 1'b1;
              engaged_d[si]  = 1'b1;
              rearm_d[si]    = 1'b1;
              armwait_d[si]  = 1'b1;
            end
          end
          default: begin
            ctl_pend_d[si] = 1'b0;
            if (res_ok_i && r_live) begin
              end_now = 1'b1;
              end_st  = rst_q[si];
            end
          end
        endcase
      end
      // Window unwind finished.
      if (uw_done_i && uw_done_slot_i == s) begin
        if (cst_q[si][uw_done_chunk_i] == CsDropping) cst_d[si][uw_done_chunk_i] = CsMissing;
        else cst_d[si][uw_done_chunk_i] = CsWriting;
      end
      // Host write answered.
      if (hw_rsp_valid_i && hw_rsp_slot == s) begin
        cst_d[si][hw_rsp_chunk] = hw_rsp_ok_i ? CsDone : CsMissing;
        if (!hw_rsp_ok_i && phase_q[si] == PhService) begin
          end_now = 1'b1;
          end_st  = StatusLocalAccessError;
        end
      end
      // WRITE: re-arm written and sender started; sender reports.
      if (dv_arm && dv_slot_q == s) armwait_d[si] = 1'b0;
      // The sender reports done for every start, live or not.
      if (dv_wds && dv_slot_q == s) begin
        rearm_d[si]   = 1'b0;
        wd_busy_d[si] = 1'b1;
      end
      if (wd_fail_i && wd_fail_slot_i == s && phase_q[si] == PhService && !end_now) begin
        end_now = 1'b1;
        end_st  = StatusLocalAccessError;
      end
      if (wd_done_i && wd_done_slot_i == s) begin
        wd_busy_d[si] = 1'b0;
      end
      // READ: every chunk written.
      all_done = isrd_q[si];
      for (int unsigned c = 0; c < MaxChunks; c++) begin
        if (3'(c) < nch_q[si] && cst_d[si][c] != CsDone) all_done = 1'b0;
      end
      if (all_done && phase_q[si] == PhService && !end_now) begin
        end_now = 1'b1;
        end_st  = StatusOk;
      end
      // The op timer, ignored while a re-arm is being computed (the new deadline is later) and
      // while a frame accepted in time awaits its tag result (`tag_wait`: at most the receive
      // crypto latency, and no frame is accepted from the deadline on).
      if (to_valid_i && to_slot_i == s && phase_q[si] == PhService && !armwait_q[si] &&
          !tag_wait[si] && !end_now) begin
        end_now = 1'b1;
        end_st  = StatusTimeout;
      end
      if (end_now && phase_q[si] == PhService) begin
        phase_d[si]  = PhEnding;
        status_d[si] = end_st;
      end
      if (rec_load && rec_pick == s) phase_d[si] = PhRecord;
      if (recd_valid_i && recd_slot_i == s && phase_q[si] == PhRecord) phase_d[si] = PhFree;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      phase_q    <= '0;
      cst_q      <= '0;
      isrd_q     <= '0;
      nch_q      <= '0;
      armwait_q  <= '0;
      engaged_q  <= '0;
      rep_pend_q <= '0;
      ctl_pend_q <= '0;
      rdreq_ok_q <= '0;
      rearm_q    <= '0;
      wd_busy_q  <= '0;
      req_fly_q  <= '0;
      ctr_ok_q   <= '0;
      disp_q     <= '0;
      status_q   <= '0;
      rst_q      <= '0;
    end else begin
      phase_q    <= phase_d;
      cst_q      <= cst_d;
      engaged_q  <= engaged_d;
      rep_pend_q <= rep_pend_d;
      ctl_pend_q <= ctl_pend_d;
      rdreq_ok_q <= rdreq_ok_d;
      rearm_q    <= rearm_d;
      wd_busy_q  <= wd_busy_d;
      req_fly_q  <= req_fly_d;
      ctr_ok_q   <= ctr_ok_d;
      disp_q     <= disp_d;
      isrd_q     <= isrd_d;
      nch_q      <= nch_d;
      armwait_q  <= armwait_d;
      status_q   <= status_d;
      rst_q      <= rst_d;
    end
  end

  for (genvar gs = 0; gs < NumSlots; gs++) begin : g_live
    assign live_o[gs] = (phase_q[gs] == PhService);
  end

`ifndef SYNTHESIS
  // The order the op table relies on (the proof assumes it): a chunk's host write is answered
  // only after its read-out finished (`uw_done`), which the window and the DMA give by
  // construction (the write's last beat leaves the window after the chunk's last line).
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (rst_ni && hw_rsp_valid_i) begin
      assert (cst_q[hw_rsp_slot][hw_rsp_chunk] == CsWriting)
        else $error("onerma_ini_ops: host write answered before its read-out finished");
    end
  end
`endif

  logic unused;
  assign unused = ^{hw_fire, hdr_i.dst_nic, hdr_i.counter, acc_cmd_i};

endmodule

`default_nettype wire
