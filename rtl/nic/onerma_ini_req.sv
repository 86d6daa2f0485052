`default_nettype none

/// Initiator request builder (protocol.md §2.3, §7.1, §8.1): for each op that enters service,
/// the hop-1 request for the transmit sealer and the op timer's deadline.
///
/// - Keeps its own copy of the slot memo fields a request needs (op type, length, remote NIC,
///   region and offset, the slot's PID, K_d), written from `onerma_submit`'s accept handshake.
///   Every reader of the memo has its own copy (docs/nic.md), so nothing waits for a read port.
/// - A dispatch (`onerma_dispatch`'s stream) reads the copy; one cycle later the job
///   `{hdr, key = K_d, meta = slot}` is offered to `onerma_seal` (which fills in `src_nic` and
///   the counter, and reports the counter with its `asg` pulse). The header: RD_REQ / WR_REQ /
///   REKEY_REQ by op type, status OK, `dst_nic` = the remote NIC, `prev_counter` 0, PID, region,
///   slot, offset, length; chunk fields, `ctx`, `hold_ns` and reserved bits 0.
/// - At the dispatch handshake `arm_o` pulses with `t_disp + op_timeout` (§2.3), for the op
///   table, which owns the op timer's write port.
/// - One dispatch per cycle while the sealer takes every job (a one-entry output stage; the
///   memo read is the stage's register).
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

  // onerma_dispatch's output stream.
  input  logic                 disp_valid_i,
  output logic                 disp_ready_o,
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

  logic                 disp_fire, job_fire;
  logic                 out_valid_q;
  logic [SlotWidth-1:0] out_slot_q;
  memo_t                out_memo;

  assign disp_ready_o = !out_valid_q || job_ready_i;
  assign disp_fire    = disp_valid_i && disp_ready_o;
  assign job_fire     = job_valid_o && job_ready_i;

  // The memo read register is the output stage: it loads only on a dispatch handshake, so the
  // offered job stays stable while the sealer stalls.
  always_ff @(posedge clk_i) begin
    if (disp_fire) begin
      out_memo <= memo_mem[disp_slot_i];
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      out_valid_q <= 1'b0;
      out_slot_q  <= '0;
    end else begin
      if (disp_fire) begin
        out_valid_q <= 1'b1;
        out_slot_q  <= disp_slot_i;
      end else if (job_fire) begin
        out_valid_q <= 1'b0;
      end
    end
  end

  assign arm_o          = disp_fire;
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

  assign job_valid_o = out_valid_q;
  assign job_key_o   = out_memo.kd;
  assign job_meta_o  = out_slot_q;
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
    slot:         16'(out_slot_q),
    offset:       out_memo.remote_offset,
    length:       out_memo.length,
    chunk_offset: '0,
    chunk_len:    '0,
    ctx:          '0,
    hold_ns:      '0,
    rsvd1:        '0
  };

endmodule

`default_nettype wire
