`default_nettype none

/// Initiator request builder (protocol.md §2.3, §7.1, §8.1): for each op that enters service,
/// the hop-1 request for the transmit sealer and the op timer's deadline.
///
/// - Keeps its own copy of the slot memo fields a request needs (op type, length, remote NIC,
///   region and offset, the slot's PID, K_d), written from `onerma_submit`'s accept handshake.
///   Every reader of the memo has its own copy (docs/nic.md), so nothing waits for a read port.
/// - A dispatch (`onerma_dispatch`'s pulse) reads the copy in its own cycle (the copy is read
///   asynchronously), and the job `{hdr, key = K_d, meta = slot}` is offered to `onerma_seal`
///   (which fills in `src_nic` and the counter, and reports the counter with its `asg` pulse):
///   in the same cycle when nothing waits (fall-through, the command-to-wire path of
///   docs/nic.md), else from the output skid, which also takes a fall-through job the sealer did
///   not take (so an offered job stays still). The skid's registered ready is `disp_room_o`: a
///   dispatch only happens with room, and one dispatch per cycle goes through while the sealer
///   takes every job.
/// - The header: RD_REQ / WR_REQ / REKEY_REQ by op type, status OK, `dst_nic` = the remote NIC,
///   `prev_counter` 0, PID, region, slot, offset, length; chunk fields, `ctx`, `hold_ns` and
///   reserved bits 0.
/// - At the dispatch `arm_o` pulses with `t_disp + op_timeout` (§2.3), for the op table, which
///   owns the op timer's write port.
module onerma_ini_req #(
  parameter int unsigned NumSlots  = 64,
  parameter int unsigned TimeWidth = 32,
  // Derived, do not override.
  parameter int unsigned SlotWidth = (NumSlots > 1) ? $clog2(NumSlots) : 1
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  input  logic [TimeWidth-1:0] op_timeout_i,

  // onerma_submit's accept handshake (a tap: this block never stalls it).
  input  logic                 acc_fire_i,
  input  logic [SlotWidth-1:0] acc_slot_i,
  input  onerma_pkg::cmd_t     acc_cmd_i,
  input  logic [31:0]          acc_pid_i,

  // onerma_dispatch's pulse; `disp_room_o` is registered (a dispatch without room is an error).
  input  logic                 disp_i,
  output logic                 disp_room_o,
  input  logic [SlotWidth-1:0] disp_slot_i,
  input  logic [TimeWidth-1:0] disp_time_i,

  output logic                 arm_o,
  output logic [SlotWidth-1:0] arm_slot_o,
  output logic [TimeWidth-1:0] arm_deadline_o,

  // To onerma_seal.
  output logic                 job_valid_o,
  input  logic                 job_ready_i,
  output onerma_pkg::hdr_t     job_hdr_o,
  output logic [127:0]         job_key_o,
  output logic [SlotWidth-1:0] job_meta_o
);

  import onerma_pkg::*;

  typedef struct packed {
    logic [7:0]   op_type;
    logic [15:0]  length;
    logic [31:0]  remote_nic;
    logic [15:0]  remote_region;
    logic [63:0]  remote_offset;
    logic [31:0]  pid;
    logic [127:0] kd;
  } memo_t;

  memo_t memo_mem [NumSlots];

  always_ff @(posedge clk_i) begin
    if (acc_fire_i) begin
      memo_mem[acc_slot_i] <= '{
        op_type:       acc_cmd_i.op_type,
        length:        acc_cmd_i.length,
        remote_nic:    acc_cmd_i.remote_nic,
        remote_region: acc_cmd_i.remote_region,
        remote_offset: acc_cmd_i.remote_offset,
        pid:           acc_pid_i,
        kd:            acc_cmd_i.kd
      };
    end
  end

  // The command fields a request does not carry (the local side of the op, the class).
  logic unused_cmd;
  assign unused_cmd = ^{acc_cmd_i.cos, acc_cmd_i.local_region, acc_cmd_i.cq_region,
                        acc_cmd_i.rsvd0, acc_cmd_i.local_offset, acc_cmd_i.cq_offset,
                        acc_cmd_i.rsvd1};

  typedef struct packed {
    memo_t                memo;
    logic [SlotWidth-1:0] slot;
  } job_t;

  job_t job_in, job_out;
  assign job_in = '{memo: memo_mem[disp_slot_i], slot: disp_slot_i};

  // The output stage. A job offered straight from the dispatch and not taken enters the skid,
  // whose output offers the same job from the next cycle on.
  logic skid_valid, direct;
  assign direct = disp_i && !skid_valid;

  onerma_skid #(
    .T(job_t)
  ) u_out (
    .clk_i,
    .rst_ni,
    .in_valid_i (disp_i && !(direct && job_ready_i)),
    .in_ready_o (disp_room_o),
    .in_data_i  (job_in),
    .out_valid_o(skid_valid),
    .out_ready_i(job_ready_i),
    .out_data_o (job_out)
  );

  memo_t                out_memo;
  logic [SlotWidth-1:0] out_slot;
  assign job_valid_o = skid_valid || direct;
  assign out_memo    = skid_valid ? job_out.memo : job_in.memo;
  assign out_slot    = skid_valid ? job_out.slot : job_in.slot;

  assign arm_o          = disp_i;
  assign arm_slot_o     = disp_slot_i;
  assign arm_deadline_o = disp_time_i + op_timeout_i;

  msg_type_e msg;
  always_comb begin
    unique case (out_memo.op_type)
      8'(OpTypeWrite): msg = MsgTypeWrReq;
      8'(OpTypeRekey): msg = MsgTypeRekeyReq;
      // onerma_submit completes every other op type as BAD_COMMAND: only READ gets here.
      default:         msg = MsgTypeRdReq;
    endcase
  end

  assign job_key_o   = out_memo.kd;
  assign job_meta_o  = out_slot;
  assign job_hdr_o   = '{
    msg_type:     msg,
    op_type:      op_type_e'(out_memo.op_type),
    status:       StatusOk,
    rsvd0:        '0,
    src_nic:      '0,
    dst_nic:      out_memo.remote_nic,
    counter:      '0,
    prev_counter: '0,
    pid:          out_memo.pid,
    region:       out_memo.remote_region,
    slot:         16'(out_slot),
    offset:       out_memo.remote_offset,
    length:       out_memo.length,
    chunk_offset: '0,
    chunk_len:    '0,
    ctx:          '0,
    hold_ns:      '0,
    rsvd1:        '0
  };

`ifndef SYNTHESIS
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (rst_ni) begin
      assert (!(disp_i && !disp_room_o))
      else $error("onerma_ini_req: dispatch without room");
    end
  end
`endif

endmodule

`default_nettype wire
