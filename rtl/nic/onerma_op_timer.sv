`default_nettype none

/// Op timers of the initiator (protocol.md §6.1): one deadline per slot, checked by a scan.
///
/// Instead of a counter per op ticking every cycle, each slot has a stored deadline (the low
/// `TimeWidth` bits of `nic_time`) and an armed bit, and a pointer visits one slot per cycle and
/// compares its deadline with `now_i`. A deadline `D` is therefore acted on at some cycle in
/// `[D, D + NumSlots - 1]` while the consumer takes every timeout at once (`to_ready_i` high):
/// the detection delay is `TimerSlack = NumSlots` (protocol §6.1, A2).
///
/// - `arm` writes a slot's deadline and arms it (dispatch: `t_disp + op_timeout`; an accepted
///   WR_RDREQ re-arms with the hold of §6.2); `disarm` stops it (the op ended). At most one
///   write per cycle (the slot table serializes them).
/// - **Timeout request.** `to_valid_o` names the visited slot when it is armed and its deadline
///   has been reached. It is a request, not a stream: the scan stays on that slot while
///   `to_ready_i` is low, and the request disappears if the slot is disarmed or re-armed
///   meanwhile, so the consumer never receives a timeout for an op that already ended or got a
///   later deadline. A write to the visited slot in the same cycle suppresses the request (the
///   new deadline is after now, or the slot is disarmed), and the scan moves on.
///
/// Contract (assumed by the proof): an armed deadline lies at least 1 and less than half the time
/// range after the cycle it is written (so a write that suppresses a visit never hides a deadline
/// already reached), and a timed-out slot is taken or disarmed within half the range.
module onerma_op_timer #(
  parameter int unsigned NumSlots  = 64,
  parameter int unsigned TimeWidth = 32,
  // Derived, do not override.
  parameter int unsigned SlotWidth = (NumSlots > 1) ? $clog2(NumSlots) : 1
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  input  logic [TimeWidth-1:0] now_i,
  input  logic                 arm_i,
  input  logic                 disarm_i,
  input  logic [SlotWidth-1:0] wr_slot_i,
  input  logic [TimeWidth-1:0] wr_deadline_i,
  output logic                 to_valid_o,
  input  logic                 to_ready_i,
  output logic [SlotWidth-1:0] to_slot_o
);

  localparam logic [SlotWidth-1:0] LastSlot = SlotWidth'(NumSlots - 1);

  logic [TimeWidth-1:0] dl_q [NumSlots];
  logic [NumSlots-1:0]  armed_q;
  logic [SlotWidth-1:0] ptr_q;
  logic [TimeWidth-1:0] left;
  logic                 wr_here, due, hold;

  // Reached once now - deadline, taken as a signed number, is >= 0.
  assign left       = now_i - dl_q[ptr_q];
  assign wr_here    = (arm_i || disarm_i) && (wr_slot_i == ptr_q);
  assign due        = armed_q[ptr_q] && !left[TimeWidth-1] && !wr_here;
  assign to_valid_o = due;
  assign to_slot_o  = ptr_q;
  // The scan waits on a due slot the consumer cannot take yet.
  assign hold       = due && !to_ready_i;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      armed_q <= '0;
      ptr_q   <= '0;
    end else begin
      if (arm_i) begin
        armed_q[wr_slot_i] <= 1'b1;
      end else if (disarm_i) begin
        armed_q[wr_slot_i] <= 1'b0;
      end
      if (!hold) begin
        ptr_q <= (ptr_q == LastSlot) ? '0 : ptr_q + 1'b1;
      end
    end
  end

  // No reset: a deadline is read only while its slot is armed, and arming writes it.
  always_ff @(posedge clk_i) begin
    if (arm_i) begin
      dl_q[wr_slot_i] <= wr_deadline_i;
    end
  end

`ifndef SYNTHESIS
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (rst_ni) begin
      assert (!(arm_i && disarm_i))
      else $error("onerma_op_timer: arm and disarm in one cycle");
      assert (!((arm_i || disarm_i) && 32'(wr_slot_i) >= NumSlots))
      else $error("onerma_op_timer: slot %0d of %0d", wr_slot_i, NumSlots);
    end
  end
`endif

endmodule

`default_nettype wire
