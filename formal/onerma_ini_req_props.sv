`default_nettype none

// Properties of onerma_ini_req. One slot `s` (a symbolic constant) is followed: a shadow of its
// memo fields is written by the accept tap, and the job that a dispatch of `s` produces must
// carry the request built from the shadow as it was at the dispatch. A shadow FIFO of the
// dispatches (the output skid holds two; with none waiting a job is offered in its dispatch's
// cycle) gives every job's slot in order and, for `s`, the captured fields; with the output stream rule and the arm pulse this holds for every slot.
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
  input logic                 disp_i,
  input logic                 disp_room_o,
  input logic [SlotWidth-1:0] disp_slot_i,
  input logic [TimeWidth-1:0] disp_time_i,
  input logic                 arm_o,
  input logic [SlotWidth-1:0] arm_slot_o,
  input logic [TimeWidth-1:0] arm_deadline_o,
  input logic                 job_valid_o,
  input logic                 job_ready_i,
  input onerma_pkg::hdr_t     job_hdr_o,
  input logic [127:0]         job_key_o,
  input logic [SlotWidth-1:0] job_meta_o
);
  import onerma_pkg::*;

  logic [SlotWidth-1:0] s;
  always_ff @(posedge clk_i) s <= s;
  always_comb assume (32'(s) < NumSlots);

  logic past_valid_q = 1'b0;
  always_ff @(posedge clk_i) past_valid_q <= 1'b1;
  always_comb if (!past_valid_q) assume (!rst_ni);

  onerma_stream_check #(.Width($bits(hdr_t) + 128 + SlotWidth), .Assume(1'b0)) u_job (
    .clk_i, .rst_ni, .valid_i(job_valid_o), .ready_i(job_ready_i),
    .data_i({job_hdr_o, job_key_o, job_meta_o}));
  always_comb begin
    assume (32'(acc_slot_i) < NumSlots);
    assume (32'(disp_slot_i) < NumSlots);
    // onerma_dispatch pulses only with room.
    if (disp_i) assume (disp_room_o);
  end

  logic job_fire;
  assign job_fire = job_valid_o && job_ready_i;

  // Shadow of slot s's memo.
  cmd_t        sh_cmd_q;
  logic [31:0] sh_pid_q;
  logic        sh_valid_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) sh_valid_q <= 1'b0;
    else if (acc_fire_i && acc_slot_i == s) sh_valid_q <= 1'b1;
  end
  always_ff @(posedge clk_i) begin
    if (acc_fire_i && acc_slot_i == s) begin
      sh_cmd_q <= acc_cmd_i;
      sh_pid_q <= acc_pid_i;
    end
  end

  // The accept tap never names a slot in the cycle it is dispatched (the class queue is between
  // them), and a slot is dispatched only after an accept (it was queued).
  always_comb if (rst_ni && disp_i && disp_slot_i == s) begin
    assume (sh_valid_q);
    assume (!(acc_fire_i && acc_slot_i == s));
  end

  // Shadow FIFO of the dispatches in the output stage: slot, and s's fields at the dispatch.
  logic [1:0]           f_cnt_q;
  logic [SlotWidth-1:0] f_slot_q [2];
  logic                 f_is_s_q [2];
  cmd_t                 f_cmd_q  [2];
  logic [31:0]          f_pid_q  [2];
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      f_cnt_q <= '0;
    end else begin
      f_cnt_q <= f_cnt_q + 2'(disp_i) - 2'(job_fire);
    end
  end
  always_ff @(posedge clk_i) begin
    if (job_fire) begin
      f_slot_q[0] <= f_slot_q[1];
      f_is_s_q[0] <= f_is_s_q[1];
      f_cmd_q[0]  <= f_cmd_q[1];
      f_pid_q[0]  <= f_pid_q[1];
    end
    // The entry the dispatch lands in: after this cycle's pop, the count's slot (none when it is
    // taken straight through).
    if (disp_i && !(f_cnt_q == 2'd0 && job_fire)) begin
      f_slot_q[f_cnt_q - 2'(job_fire)] <= disp_slot_i;
      f_is_s_q[f_cnt_q - 2'(job_fire)] <= (disp_slot_i == s);
      f_cmd_q[f_cnt_q - 2'(job_fire)]  <= sh_cmd_q;
      f_pid_q[f_cnt_q - 2'(job_fire)]  <= sh_pid_q;
    end
  end

  // The job offered: the FIFO's head, or with none the dispatch of this cycle (fall-through).
  logic                 h_is_s;
  logic [SlotWidth-1:0] h_slot;
  cmd_t                 h_cmd;
  logic [31:0]          h_pid;
  assign h_is_s = (f_cnt_q != 2'd0) ? f_is_s_q[0] : (disp_slot_i == s);
  assign h_slot = (f_cnt_q != 2'd0) ? f_slot_q[0] : disp_slot_i;
  assign h_cmd  = (f_cnt_q != 2'd0) ? f_cmd_q[0] : sh_cmd_q;
  assign h_pid  = (f_cnt_q != 2'd0) ? f_pid_q[0] : sh_pid_q;

  hdr_t want;
  assign want = '{
    msg_type:     (h_cmd.op_type == 8'(OpTypeWrite)) ? MsgTypeWrReq :
                  (h_cmd.op_type == 8'(OpTypeRekey)) ? MsgTypeRekeyReq : MsgTypeRdReq,
    op_type:      op_type_e'(h_cmd.op_type),
    status:       StatusOk,
    rsvd0:        '0,
    src_nic:      '0,
    dst_nic:      h_cmd.remote_nic,
    counter:      '0,
    prev_counter: '0,
    pid:          h_pid,
    region:       h_cmd.remote_region,
    slot:         16'(h_slot),
    offset:       h_cmd.remote_offset,
    length:       h_cmd.length,
    chunk_offset: '0,
    chunk_len:    '0,
    ctx:          '0,
    hold_ns:      '0,
    rsvd1:        '0
  };

  // The skid's registers, in the job layout (onerma_ini_req's job_t).
  typedef struct packed {
    logic [7:0]           op_type;
    logic [15:0]          length;
    logic [31:0]          remote_nic;
    logic [15:0]          remote_region;
    logic [63:0]          remote_offset;
    logic [31:0]          pid;
    logic [127:0]         kd;
    logic [SlotWidth-1:0] slot;
  } f_job_t;
  f_job_t reg_job [2];
  logic   reg_valid [2];
  assign reg_job[0]   = f_job_t'(onerma_ini_req.u_out.out_bits_q);
  assign reg_job[1]   = f_job_t'(onerma_ini_req.u_out.skid_bits_q);
  assign reg_valid[0] = onerma_ini_req.u_out.out_valid_q;
  assign reg_valid[1] = onerma_ini_req.u_out.skid_valid_q;

  always_comb if (rst_ni) begin
    assert (arm_o == disp_i);
    if (arm_o) assert (arm_slot_o == disp_slot_i && arm_deadline_o == disp_time_i + op_timeout_i);
    assert (f_cnt_q <= 2'd2);
    assert (disp_room_o == (f_cnt_q != 2'd2));
    assert (job_valid_o == (f_cnt_q != 2'd0 || disp_i));
    if (job_valid_o) begin
      assert (job_meta_o == h_slot);
      if (h_is_s) assert (job_hdr_o == want && job_key_o == h_cmd.kd);
    end
    // Induction: the skid's registers are the shadow FIFO's entries.
    assert (reg_valid[0] == (f_cnt_q != 2'd0));
    assert (reg_valid[1] == (f_cnt_q == 2'd2));
    for (int unsigned e = 0; e < 2; e++) begin
      if (reg_valid[e]) begin
        assert (reg_job[e].slot == f_slot_q[e]);
        assert (f_is_s_q[e] == (f_slot_q[e] == s));
        if (f_is_s_q[e]) begin
          assert (reg_job[e].op_type == f_cmd_q[e].op_type);
          assert (reg_job[e].length == f_cmd_q[e].length);
          assert (reg_job[e].remote_nic == f_cmd_q[e].remote_nic);
          assert (reg_job[e].remote_region == f_cmd_q[e].remote_region);
          assert (reg_job[e].remote_offset == f_cmd_q[e].remote_offset);
          assert (reg_job[e].pid == f_pid_q[e]);
          assert (reg_job[e].kd == f_cmd_q[e].kd);
        end
      end
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

  always_comb if (rst_ni) begin
    cover (job_fire && job_meta_o == s && job_hdr_o.msg_type == MsgTypeWrReq);
    cover (f_cnt_q == 2'd2 && f_is_s_q[1]);  // s's job waits in the skid register
    cover (disp_i && disp_slot_i == s && job_fire);  // s's job taken straight through
  end

endmodule

bind onerma_ini_req onerma_ini_req_props #(
  .NumSlots (NumSlots),
  .TimeWidth(TimeWidth)
) u_props (.*);
`endif

`default_nettype wire
