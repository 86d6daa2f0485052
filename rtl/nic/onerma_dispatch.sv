`default_nettype none

/// Dispatch stage of the initiator (protocol.md §2.3): takes ops from the class queue heads into
/// service, or out of the queues as DISPATCH_TIMEOUT.
///
/// - **Expiry path.** Every cycle one expired head (round-robin among the expired classes) is
///   popped and handed to the completion path (`exp_*`). It never waits for the window or for
///   the arbiter, so a queued op's DISPATCH_TIMEOUT completion is not delayed by a full window.
///   An expired head waits at most `NumClasses - 1` expiry pops of other classes (round-robin);
///   the popped slot goes out through a skid buffer.
/// - **Dispatch path.** `onerma_class_arb` picks among the classes (strict priority with the
///   anti-starvation bound). A picked class whose head is live enters service when the window
///   admits it (`rsv_ready_i`, the 4 KB rule) and the request builder has room
///   (`disp_room_i`): in that cycle the head is popped, `ceil(length / 64)` lines are reserved
///   and `disp_o` pulses with `{slot, t_disp}`. `t_disp` is that cycle. The dispatch is a pulse,
///   not a stream: the builder reads its memo in the same cycle into its own output skid, whose
///   registered ready is `disp_room_i` (so no ready path runs through here), which saves the
///   cycle a second skid here would cost on the command-to-wire path (docs/nic.md).
/// - **Why the arbiter sees "class non-empty" and not the head.** The arbiter freezes its grant
///   while its output waits (for the window, typically), and its inputs follow the stream rule:
///   a waiting input may not be withdrawn. An expiry removes heads at any time, and may empty a
///   class that is waiting. So the arbiter's request of a class is "non-empty, or waiting since
///   the previous cycle" (`owed_q`): a class emptied by an expiry while it waits keeps its request
///   until it is granted, and that grant dispatches nothing (an *empty grant*). The head slot is
///   resolved at the transfer, so a head that expired and was replaced is never dispatched.
///   A granted class whose head is expired waits for the expiry path (at most `NumClasses`
///   cycles while `exp_ready_i` is high).
///
/// **Stopped NIC** (`enable_i` low, `nic_enable` = 0, protocol §1.1): no head enters service
/// (no reservation is requested); the expiry path runs as usual, so every queued op still leaves,
/// as DISPATCH_TIMEOUT at its deadline, unless the NIC is enabled again first.
///
/// The reservation port is a request the window grants when it admits (`rsv_ready_i` comes from
/// a flop of `onerma_window_alloc`); it is withdrawn when the picked head expires, which is why
/// the allocator treats it as a request and not as a stream.
module onerma_dispatch #(
  parameter int unsigned NumSlots   = 64,
  parameter int unsigned NumClasses = 4,
  /// Anti-starvation bound of the class arbiter (protocol §2.3: 16).
  parameter int unsigned MaxStarve  = 16,
  parameter int unsigned TimeWidth  = 32,
  /// Width of a line count (`MAX_OP_BYTES / WINDOW_LINE_BYTES` = 64 lines).
  parameter int unsigned LinesWidth = 7,
  // Derived, do not override.
  parameter int unsigned SlotWidth  = (NumSlots > 1) ? $clog2(NumSlots) : 1,
  parameter int unsigned ClassWidth = (NumClasses > 1) ? $clog2(NumClasses) : 1
) (
  input  logic                                 clk_i,
  input  logic                                 rst_ni,
  input  logic [TimeWidth-1:0]                 now_i,
  /// `nic_enable`: low, nothing is dispatched (expiries go on).
  input  logic                                 enable_i,
  // Class queue heads (onerma_class_queues).
  input  logic [NumClasses-1:0]                head_valid_i,
  input  logic [NumClasses-1:0][SlotWidth-1:0] head_slot_i,
  input  logic [NumClasses-1:0]                head_expired_i,
  output logic [NumClasses-1:0]                pop_o,
  /// Lines of the op on `look_slot_o` (combinational lookup in the slot memo).
  output logic [SlotWidth-1:0]                 look_slot_o,
  input  logic [LinesWidth-1:0]                look_lines_i,
  // Window reservation (onerma_window_alloc).
  output logic                                 rsv_valid_o,
  input  logic                                 rsv_ready_i,
  output logic [LinesWidth-1:0]                rsv_lines_o,
  // Ops entering service: a pulse, taken whenever `disp_room_i` is high (a registered ready
  // of the consumer that must not depend on `disp_o`).
  input  logic                                 disp_room_i,
  output logic                                 disp_o,
  output logic [SlotWidth-1:0]                 disp_slot_o,
  output logic [TimeWidth-1:0]                 disp_time_o,
  // Ops leaving as DISPATCH_TIMEOUT.
  output logic                                 exp_valid_o,
  input  logic                                 exp_ready_i,
  output logic [SlotWidth-1:0]                 exp_slot_o
);

  // ---- Expiry path.
  logic                  exp_any, exp_fire, exp_skid_ready;
  logic [ClassWidth-1:0] exp_idx, exp_ptr_q;

  onerma_rr_pick #(
    .N(NumClasses)
  ) u_exp_pick (
    .req_i  (head_expired_i),
    .ptr_i  (exp_ptr_q),
    .valid_o(exp_any),
    .idx_o  (exp_idx)
  );

  // The popped head goes into a skid, so the pick is consumed in the cycle it is made and the
  // completion path's back-pressure never has to hold a pick (or the round-robin pointer).
  assign exp_fire = exp_any && exp_skid_ready;

  onerma_skid #(
    .Width(SlotWidth)
  ) u_exp_out (
    .clk_i,
    .rst_ni,
    .in_valid_i (exp_fire),
    .in_ready_o (exp_skid_ready),
    .in_data_i  (head_slot_i[exp_idx]),
    .out_valid_o(exp_valid_o),
    .out_ready_i(exp_ready_i),
    .out_data_o (exp_slot_o)
  );

  // ---- Dispatch path.
  logic [NumClasses-1:0] req, arb_ready, owed_q;
  logic                  arb_valid, arb_ready_out;
  logic [ClassWidth-1:0] grant;
  logic                  live, dispatch;
  logic [0:0]            unused_arb_data;

  assign req = head_valid_i | owed_q;

  onerma_class_arb #(
    .NumClasses(NumClasses),
    .MaxStarve (MaxStarve),
    .Width     (1)
  ) u_arb (
    .clk_i,
    .rst_ni,
    .in_valid_i (req),
    .in_ready_o (arb_ready),
    .in_data_i  ('0),
    .out_valid_o(arb_valid),
    .out_ready_i(arb_ready_out),
    .out_data_o (unused_arb_data),
    .out_idx_o  (grant)
  );

  // The granted class has a head that may enter service now.
  assign live          = head_valid_i[grant] && !head_expired_i[grant];
  assign look_slot_o   = head_slot_i[grant];
  assign rsv_lines_o   = look_lines_i;
  assign rsv_valid_o   = arb_valid && live && disp_room_i && enable_i;
  assign dispatch      = rsv_valid_o && rsv_ready_i;
  // An empty grant completes at once; an expired head waits for the expiry path.
  assign arb_ready_out = dispatch || !head_valid_i[grant];

  always_comb begin
    pop_o = '0;
    if (exp_fire) pop_o[exp_idx] = 1'b1;
    if (dispatch) pop_o[grant] = 1'b1;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      owed_q    <= '0;
      exp_ptr_q <= '0;
    end else begin
      // Requested and not served this cycle: the request must stay up next cycle.
      owed_q <= req & ~arb_ready;
      if (exp_fire) begin
        exp_ptr_q <= (exp_idx == ClassWidth'(NumClasses - 1)) ? '0 : exp_idx + 1'b1;
      end
    end
  end

  assign disp_o      = dispatch;
  assign disp_slot_o = look_slot_o;
  assign disp_time_o = now_i;

  // The arbiter carries no payload: the class index is the choice.
  logic unused;
  assign unused = ^unused_arb_data;

endmodule

`default_nettype wire
