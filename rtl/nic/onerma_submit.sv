`default_nettype none

/// Submission checks of the initiator (protocol.md §2.2): every command from the command port
/// is dropped (bad completion region), or accepted (the slot becomes busy, `seq` increments) with
/// a status: BAD_COMMAND or LOCAL_ACCESS_ERROR (it completes at once) or OK (it joins its class
/// queue with its dispatch deadline).
///
/// - Two lookups on the initiator's RRT port (H11): the completion region, then the local
///   region; the command's checks run on the entries as they were in the cycle of each lookup.
/// - `t_sub` is `sub_time_i`, the cycle of the command's doorbell beat (the command port passes
///   it), so DISPATCH_TIMEOUT counts from the doorbell whatever waited in between.
/// - One command at a time, two cycles each: the completion lookup (the cycle the command is
///   taken), then the completion checks with the local lookup; in the third cycle the local
///   checks decide the status and the accept is offered from them directly (`SLocal`), and the
///   next command is taken in that cycle when the accept goes through. An accept that waits
///   (`acc_ready_i` low) is held in registers (`SOut`), so the RRT answer is used only in the
///   cycle after its lookup. That is the 2-cycle rate H11 allows, and one cycle less from the
///   doorbell to the class queue (the command-to-wire latency, docs/nic.md).
/// - `busy_o` is the slots that are busy or have a command in here, so the command port refuses
///   a second command to a slot before the first is decided.
/// - `free_i` ends a slot's op (the completion record is written): the slot is free again.
module onerma_submit #(
  parameter int unsigned NumSlots   = 64,
  parameter int unsigned NumClasses = 4,
  parameter int unsigned TimeWidth  = 32,
  parameter int unsigned RrtIdxWidth = 16,
  // Derived, do not override.
  parameter int unsigned SlotWidth  = (NumSlots > 1) ? $clog2(NumSlots) : 1,
  parameter int unsigned ClassWidth = (NumClasses > 1) ? $clog2(NumClasses) : 1
) (
  input  logic                          clk_i,
  input  logic                          rst_ni,
  input  logic [TimeWidth-1:0]          dispatch_timeout_i,
  // Submissions (onerma_cmd_port).
  input  logic                          sub_valid_i,
  output logic                          sub_ready_o,
  input  logic [SlotWidth-1:0]          sub_slot_i,
  input  logic [31:0]                   sub_pid_i,
  input  onerma_pkg::cmd_t              sub_cmd_i,
  input  logic [TimeWidth-1:0]          sub_time_i,
  output logic [NumSlots-1:0]           busy_o,
  // RRT lookups (onerma_rrt port 0): entry one cycle after the index.
  output logic                          rrt_valid_o,
  output logic [RrtIdxWidth-1:0]        rrt_idx_o,
  input  onerma_pkg::rrt_entry_t        rrt_entry_i,
  input  logic [15:0]                   rrt_gen_i,
  // A command dropped for its completion region (§2.2 step 1): err_bad_cq.
  output logic                          bad_cq_o,
  // Accepted commands.
  output logic                          acc_valid_o,
  input  logic                          acc_ready_i,
  output logic [SlotWidth-1:0]          acc_slot_o,
  output logic [15:0]                   acc_seq_o,
  output onerma_pkg::status_e           acc_status_o,
  output onerma_pkg::cmd_t              acc_cmd_o,
  output logic [31:0]                   acc_pid_o,
  output logic [TimeWidth-1:0]          acc_t_sub_o,
  output logic [63:0]                   acc_cq_addr_o,
  output logic [15:0]                   acc_cq_gen_o,
  output logic [63:0]                   acc_local_addr_o,
  output logic [15:0]                   acc_local_gen_o,
  // Class queue push for status OK (always accepted by onerma_class_queues).
  output logic                          push_valid_o,
  output logic [SlotWidth-1:0]          push_slot_o,
  output logic [ClassWidth-1:0]         push_class_o,
  output logic [TimeWidth-1:0]          push_deadline_o,
  // The op on a slot has ended.
  input  logic                          free_i,
  input  logic [SlotWidth-1:0]          free_slot_i
);

  import onerma_pkg::*;

  typedef enum logic [1:0] {
    SIdle,
    SCq,
    SLocal,
    SOut
  } state_e;

  state_e               state_q;
  logic [SlotWidth-1:0] slot_q;
  logic [31:0]          pid_q;
  cmd_t                 cmd_q;
  logic [TimeWidth-1:0] t_sub_q;
  logic [63:0]          cq_addr_q, local_addr_q;
  logic [15:0]          cq_gen_q, local_gen_q;
  status_e              status_q;
  logic [NumSlots-1:0]  busy_q;
  logic [15:0]          seq_q [NumSlots];
  logic                 take, acc_fire;

  // ---- §2.2 step 1: the completion region (a 16-byte record inside a writable region the
  // slot's PID owns). All sums are 65 bits: no overflow.
  logic cq_ok;
  assign cq_ok = rrt_entry_i.valid && rrt_entry_i.perm_local_write &&
                 rrt_entry_i.owner_pid == pid_q && cmd_q.cq_offset[3:0] == 4'h0 &&
                 {1'b0, cmd_q.cq_offset} + 65'd16 <= {1'b0, rrt_entry_i.size};

  // ---- §2.2 step 2: BAD_COMMAND (the command alone), then LOCAL_ACCESS_ERROR.
  logic is_read, is_write, is_rekey, bad_command, local_ok;
  assign is_read  = cmd_q.op_type == 8'(OpTypeRead);
  assign is_write = cmd_q.op_type == 8'(OpTypeWrite);
  assign is_rekey = cmd_q.op_type == 8'(OpTypeRekey);
  assign bad_command = !(is_read || is_write || is_rekey) ||
                       cmd_q.length == '0 || 32'(cmd_q.length) > MaxOpBytes ||
                       (is_rekey && (32'(cmd_q.length) != RekeyBytes || cmd_q.remote_offset != '0)) ||
                       32'(cmd_q.cos) >= NumClasses ||
                       cmd_q.rsvd0 != '0 || cmd_q.rsvd1 != '0;
  assign local_ok = rrt_entry_i.valid && rrt_entry_i.owner_pid == pid_q &&
                    (is_read ? rrt_entry_i.perm_local_write : rrt_entry_i.perm_local_read) &&
                    {1'b0, cmd_q.local_offset} + 65'(cmd_q.length) <= {1'b0, rrt_entry_i.size};

  // SLocal decides: the accept is offered from the local checks; SOut holds a waiting one.
  logic        deciding;
  logic [63:0] local_addr_d;
  status_e     status_d, status;
  assign deciding     = (state_q == SLocal);
  assign local_addr_d = rrt_entry_i.base_addr + cmd_q.local_offset;
  assign status_d     = bad_command ? StatusBadCommand
                      : !local_ok   ? StatusLocalAccessError
                      :               StatusOk;
  assign status       = deciding ? status_d : status_q;

  assign take        = sub_valid_i && sub_ready_o;
  assign acc_fire    = acc_valid_o && acc_ready_i;
  assign sub_ready_o = (state_q == SIdle) || acc_fire;
  assign rrt_valid_o = take || (state_q == SCq && cq_ok);
  assign rrt_idx_o   = take ? RrtIdxWidth'(sub_cmd_i.cq_region)
                            : RrtIdxWidth'(cmd_q.local_region);
  assign bad_cq_o    = (state_q == SCq) && !cq_ok;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q <= SIdle;
    end else begin
      unique case (state_q)
        SIdle:   if (take) state_q <= SCq;
        SCq:     state_q <= cq_ok ? SLocal : SIdle;
        SLocal,
        SOut:    state_q <= !acc_fire ? SOut : take ? SCq : SIdle;
        default: state_q <= SIdle;
      endcase
    end
  end

  // Datapath registers: loaded when the step that owns them runs.
  always_ff @(posedge clk_i) begin
    if (take) begin
      slot_q  <= sub_slot_i;
      pid_q   <= sub_pid_i;
      cmd_q   <= sub_cmd_i;
      t_sub_q <= sub_time_i;
    end
    if (state_q == SCq) begin
      cq_addr_q <= rrt_entry_i.base_addr + cmd_q.cq_offset;
      cq_gen_q  <= rrt_gen_i;
    end
    if (deciding) begin
      local_addr_q <= local_addr_d;
      local_gen_q  <= rrt_gen_i;
      status_q     <= status_d;
    end
  end

  // ---- Slot state.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      busy_q <= '0;
      for (int unsigned s = 0; s < NumSlots; s++) seq_q[s] <= '0;
    end else begin
      if (free_i) busy_q[free_slot_i] <= 1'b0;
      if (acc_fire) begin
        busy_q[slot_q] <= 1'b1;
        seq_q[slot_q]  <= seq_q[slot_q] + 16'd1;
      end
    end
  end

  always_comb begin
    busy_o = busy_q;
    if (state_q != SIdle) busy_o[slot_q] = 1'b1;
  end

  assign acc_valid_o      = deciding || (state_q == SOut);
  assign acc_slot_o       = slot_q;
  // The seq of this command: the count including it.
  assign acc_seq_o        = seq_q[slot_q] + 16'd1;
  assign acc_status_o     = status;
  assign acc_cmd_o        = cmd_q;
  assign acc_pid_o        = pid_q;
  assign acc_t_sub_o      = t_sub_q;
  assign acc_cq_addr_o    = cq_addr_q;
  assign acc_cq_gen_o     = cq_gen_q;
  assign acc_local_addr_o = deciding ? local_addr_d : local_addr_q;
  assign acc_local_gen_o  = deciding ? rrt_gen_i : local_gen_q;

  assign push_valid_o    = acc_fire && (status == StatusOk);
  assign push_slot_o     = slot_q;
  assign push_class_o    = ClassWidth'(cmd_q.cos);
  assign push_deadline_o = t_sub_q + dispatch_timeout_i + 1'b1;

  // Unused entry fields at the command checks: remote permissions and the key.
  logic unused;
  assign unused = ^{rrt_entry_i.perm_remote_read, rrt_entry_i.perm_remote_write,
                    rrt_entry_i.perm_remote_rekey, rrt_entry_i.rsvd0, rrt_entry_i.key,
                    cmd_q.cos[7:ClassWidth]};

`ifndef SYNTHESIS
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (rst_ni) begin
      assert (!(take && busy_o[sub_slot_i]))
      else $error("onerma_submit: command for busy slot %0d", sub_slot_i);
      assert (!(free_i && !busy_q[free_slot_i]))
      else $error("onerma_submit: free of idle slot %0d", free_slot_i);
    end
  end
`endif

endmodule

`default_nettype wire
