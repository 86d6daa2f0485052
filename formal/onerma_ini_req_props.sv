`default_nettype none

// Properties of onerma_ini_req. One slot `s` (a symbolic constant) is followed: a shadow of its
// memo fields is written by the accept tap, and the job that a dispatch of `s` produces must
// carry the request built from the shadow as it was at the dispatch. With the output stream
// rule, one job per dispatch in order, and the arm pulse, this holds for every slot.
`ifdef FORMAL
module onerma_ini_req_props #(
  parameter int unsigned NumSlots  = 4,
  parameter int unsigned TimeWidth = 8,
  parameter int unsigned SlotWidth = (NumSlots > 1) ? $clog2(NumSlots) : 1
) (
  input logic                 clk_i,
  input logic                 rst_ni,
  input logic [TimeWidth-1:0] op_timeout_i,
  input logic                 acc_fire_i,
  input logic [SlotWidth-1:0] acc_slot_i,
  input onerma_pkg::cmd_t     acc_cmd_i,
  input logic [31:0]          acc_pid_i,
  input logic                 disp_valid_i,
  input logic                 disp_ready_o,
  input logic [SlotWidth-1:0] disp_slot_i,
  input logic [TimeWidth-1:0] disp_time_i,
  input logic                 arm_o,
  input logic [SlotWidth-1:0] arm_slot_o,
  input logic [TimeWidth-1:0] arm_deadline_o,
  input logic                 job_valid_o,
  input logic                 job_ready_i,
  input onerma_pkg::hdr_t     job_hdr_o,
  input logic [127:0]         job_key_o,
  input logic [SlotWidth-1:0] job_meta_o,
  input logic                 out_valid_q,
  input logic [SlotWidth-1:0] out_slot_q
);
  import onerma_pkg::*;

  logic [SlotWidth-1:0] s;
  always_ff @(posedge clk_i) s <= s;
  always_comb assume (32'(s) < NumSlots);

  logic past_valid_q = 1'b0;
  always_ff @(posedge clk_i) past_valid_q <= 1'b1;
  always_comb if (!past_valid_q) assume (!rst_ni);

  onerma_stream_check #(.Width(SlotWidth + TimeWidth), .Assume(1'b1)) u_disp (
    .clk_i, .rst_ni, .valid_i(disp_valid_i), .ready_i(disp_ready_o),
    .data_i({disp_slot_i, disp_time_i}));
  onerma_stream_check #(.Width($bits(hdr_t) + 128 + SlotWidth), .Assume(1'b0)) u_job (
    .clk_i, .rst_ni, .valid_i(job_valid_o), .ready_i(job_ready_i),
    .data_i({job_hdr_o, job_key_o, job_meta_o}));
  always_comb begin
    assume (32'(acc_slot_i) < NumSlots);
    assume (32'(disp_slot_i) < NumSlots);
  end

  logic disp_fire, job_fire;
  assign disp_fire = disp_valid_i && disp_ready_o;
  assign job_fire  = job_valid_o && job_ready_i;

  // Shadow of slot s's memo, and the request it gives, captured at a dispatch of s.
  cmd_t        sh_cmd_q;
  logic [31:0] sh_pid_q;
  logic        sh_valid_q;
  hdr_t        want_q;
  logic [127:0] want_key_q;
  logic        pend_q;  // a job for s is in the output stage

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      sh_valid_q <= 1'b0;
      pend_q     <= 1'b0;
    end else begin
      if (acc_fire_i && acc_slot_i == s) sh_valid_q <= 1'b1;
      if (disp_fire && disp_slot_i == s) pend_q <= 1'b1;
      else if (job_fire) pend_q <= 1'b0;
    end
  end
  always_ff @(posedge clk_i) begin
    if (acc_fire_i && acc_slot_i == s) begin
      sh_cmd_q <= acc_cmd_i;
      sh_pid_q <= acc_pid_i;
    end
    if (disp_fire && disp_slot_i == s) begin
      want_key_q <= sh_cmd_q.kd;
      want_q <= '{
        msg_type:     (sh_cmd_q.op_type == 8'(OpTypeWrite)) ? MsgTypeWrReq :
                      (sh_cmd_q.op_type == 8'(OpTypeRekey)) ? MsgTypeRekeyReq : MsgTypeRdReq,
        op_type:      op_type_e'(sh_cmd_q.op_type),
        status:       StatusOk,
        rsvd0:        '0,
        src_nic:      '0,
        dst_nic:      sh_cmd_q.remote_nic,
        counter:      '0,
        prev_counter: '0,
        pid:          sh_pid_q,
        region:       sh_cmd_q.remote_region,
        slot:         16'(s),
        offset:       sh_cmd_q.remote_offset,
        length:       sh_cmd_q.length,
        chunk_offset: '0,
        chunk_len:    '0,
        ctx:          '0,
        hold_ns:      '0,
        rsvd1:        '0
      };
    end
  end

  // The accept tap never names a slot in the cycle it is dispatched (the class queue is between
  // them), and a slot is dispatched only after an accept (it was queued).
  always_comb if (rst_ni && disp_valid_i && disp_slot_i == s) begin
    assume (sh_valid_q);
    assume (!(acc_fire_i && acc_slot_i == s));
  end

  always_comb if (rst_ni) begin
    assert (arm_o == disp_fire);
    if (arm_o) assert (arm_slot_o == disp_slot_i && arm_deadline_o == disp_time_i + op_timeout_i);
    // The output stage holds one job; a dispatch enters it only when it is empty or leaving.
    if (disp_fire) assert (!job_valid_o || job_fire);
    assert (job_valid_o == out_valid_q);
    assert (job_meta_o == out_slot_q);
    if (pend_q) assert (job_valid_o && job_meta_o == s);
    if (job_valid_o && job_meta_o == s) begin
      assert (pend_q);
      assert (job_hdr_o == want_q);
      assert (job_key_o == want_key_q);
    end
  end

  // Induction invariant: the memo copy of s is its shadow.
  always_comb if (rst_ni && sh_valid_q) begin
    assert (onerma_ini_req.memo_mem[s].op_type == sh_cmd_q.op_type);
    assert (onerma_ini_req.memo_mem[s].length == sh_cmd_q.length);
    assert (onerma_ini_req.memo_mem[s].remote_nic == sh_cmd_q.remote_nic);
    assert (onerma_ini_req.memo_mem[s].remote_region == sh_cmd_q.remote_region);
    assert (onerma_ini_req.memo_mem[s].remote_offset == sh_cmd_q.remote_offset);
    assert (onerma_ini_req.memo_mem[s].pid == sh_pid_q);
    assert (onerma_ini_req.memo_mem[s].kd == sh_cmd_q.kd);
  end

  always_comb if (rst_ni) cover (job_fire && job_meta_o == s && job_hdr_o.msg_type == MsgTypeWrReq);

endmodule

bind onerma_ini_req onerma_ini_req_props #(
  .NumSlots (NumSlots),
  .TimeWidth(TimeWidth)
) u_props (.*);
`endif

`default_nettype wire
