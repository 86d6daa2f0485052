`default_nettype none

// Properties of onerma_dispatch, bound into it when FORMAL is defined.
//
// The class queues are abstracted: a head changes only when it is popped, and an expired head
// stays expired until it is popped (time only moves forward). The window, the completion path
// and the request builder answer arbitrarily. Asserted: only existing heads are popped, at most
// once per cycle per class; a dispatch takes exactly the granted class's live head, reserves
// with it and pulses {that slot, now}, only with the request builder's room; an expiry takes an
// expired head; an expired head is never dispatched; an expired head is passed over by at most
// NumClasses - 1 other expiries; the arbiter's inputs and the expiry stream follow the stream
// rule.
`ifdef FORMAL
module onerma_dispatch_props #(
  parameter int unsigned NumSlots   = 4,
  parameter int unsigned NumClasses = 3,
  parameter int unsigned TimeWidth  = 4,
  parameter int unsigned LinesWidth = 2,
  parameter int unsigned SlotWidth  = 2,
  parameter int unsigned ClassWidth = 2
) (
  input logic                                 clk_i,
  input logic                                 rst_ni,
  input logic [TimeWidth-1:0]                 now_i,
  input logic                                 enable_i,
  input logic [NumClasses-1:0]                head_valid_i,
  input logic [NumClasses-1:0][SlotWidth-1:0] head_slot_i,
  input logic [NumClasses-1:0]                head_expired_i,
  input logic [NumClasses-1:0]                pop_o,
  input logic [SlotWidth-1:0]                 look_slot_o,
  input logic [LinesWidth-1:0]                look_lines_i,
  input logic                                 rsv_valid_o,
  input logic                                 rsv_ready_i,
  input logic [LinesWidth-1:0]                rsv_lines_o,
  input logic                                 disp_room_i,
  input logic                                 disp_o,
  input logic [SlotWidth-1:0]                 disp_slot_o,
  input logic [TimeWidth-1:0]                 disp_time_o,
  input logic                                 exp_valid_o,
  input logic                                 exp_ready_i,
  input logic [SlotWidth-1:0]                 exp_slot_o,
  input logic [NumClasses-1:0]                req,
  input logic [NumClasses-1:0]                arb_ready,
  input logic [ClassWidth-1:0]                grant,
  input logic                                 dispatch,
  input logic                                 exp_fire,
  input logic [ClassWidth-1:0]                exp_idx,
  input logic [ClassWidth-1:0]                exp_ptr_q,
  input logic [NumClasses-1:0]                owed_q
);

  logic past_valid_q = 1'b0;
  always_ff @(posedge clk_i) past_valid_q <= 1'b1;
  always_comb if (!past_valid_q) assume (!rst_ni);

  // ---- Environment.
  logic [NumClasses-1:0]                valid_q, expired_q, pop_q;
  logic [NumClasses-1:0][SlotWidth-1:0] slot_q;
  logic                                 rst_q;
  always_ff @(posedge clk_i) begin
    valid_q   <= head_valid_i;
    expired_q <= head_expired_i;
    slot_q    <= head_slot_i;
    pop_q     <= pop_o;
    rst_q     <= rst_ni;
  end
  always_comb if (rst_ni) begin
    for (int unsigned c = 0; c < NumClasses; c++) begin
      if (head_expired_i[c]) assume (head_valid_i[c]);
      if (past_valid_q && rst_q && !pop_q[c]) begin
        assume (head_valid_i[c] == valid_q[c]);
        if (valid_q[c]) assume (head_slot_i[c] == slot_q[c]);
        if (expired_q[c]) assume (head_expired_i[c]);
      end
    end
  end

  // ---- Pops, dispatches and expiries.
  always_comb if (rst_ni) begin
    // Induction invariant: the arbiter's frozen grant names a requesting class.
    if (u_arb.lock_q) assert (req[u_arb.lock_idx_q] && 32'(u_arb.lock_idx_q) < NumClasses);
    assert (32'(u_arb.sptr_q) < NumClasses);
    assert ((pop_o & ~head_valid_i) == '0);
    assert (dispatch == (rsv_valid_o && rsv_ready_i));
    // A stopped NIC requests no reservation, so dispatches nothing.
    if (rsv_valid_o) assert (enable_i);
    if (dispatch) begin
      assert (head_valid_i[grant] && !head_expired_i[grant]);
      assert (look_slot_o == head_slot_i[grant]);
      assert (pop_o[grant]);
      assert (!(exp_fire && exp_idx == grant));
    end
    if (exp_fire) begin
      assert (head_expired_i[exp_idx]);
      assert (u_exp_out.in_data_i == head_slot_i[exp_idx]);
      assert (pop_o[exp_idx]);
    end
    assert ($countones(pop_o) == 32'(dispatch) + 32'(exp_fire));
    assert (rsv_lines_o == look_lines_i);
    for (int unsigned c = 0; c < NumClasses; c++) begin
      if (head_expired_i[c] && pop_o[c]) assert (exp_fire && exp_idx == ClassWidth'(c));
    end
  end

  // The dispatch pulse: {the head's slot, the cycle}, only with the consumer's room.
  always_comb if (rst_ni) begin
    assert (disp_o == dispatch);
    if (disp_o) begin
      assert (disp_room_i);
      assert (disp_slot_o == head_slot_i[grant]);
      assert (disp_time_o == now_i);
    end
  end

  // Expiry fairness: an expired head sees at most NumClasses - 1 expiries of other classes.
  localparam int unsigned PW = $clog2(NumClasses + 1);
  logic [NumClasses-1:0][PW-1:0] passed_q;
  for (genvar c = 0; c < NumClasses; c++) begin : g_fair
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) passed_q[c] <= '0;
      else if (!head_expired_i[c] || pop_o[c]) passed_q[c] <= '0;
      else if (exp_fire) passed_q[c] <= passed_q[c] + 1'b1;
    end
    // Round-robin distance from the pointer to c, plus the passes so far, never grows (the
    // induction invariant behind the bound).
    logic [31:0] rr_dist;
    assign rr_dist = (32'(c) >= 32'(exp_ptr_q)) ? 32'(c) - 32'(exp_ptr_q)
                                             : 32'(c) + NumClasses - 32'(exp_ptr_q);
    always_comb if (rst_ni) begin
      assert (32'(exp_ptr_q) < NumClasses);
      assert (32'(passed_q[c]) < NumClasses);
      if (head_expired_i[c]) assert (32'(passed_q[c]) + rr_dist <= NumClasses - 1);
    end
  end

  // ---- Stream rules: the arbiter's inputs (its proof assumes them), and every output.
  for (genvar c = 0; c < NumClasses; c++) begin : g_arb_in
    onerma_stream_check #(
      .Width (1),
      .Assume(1'b0)
    ) u_rule (
      .clk_i,
      .rst_ni,
      .valid_i(req[c]),
      .ready_i(arb_ready[c]),
      .data_i (1'b0)
    );
  end

  onerma_stream_check #(
    .Width (SlotWidth),
    .Assume(1'b0)
  ) u_exp_rule (
    .clk_i,
    .rst_ni,
    .valid_i(exp_valid_o),
    .ready_i(exp_ready_i),
    .data_i (exp_slot_o)
  );

  // ---- Reachability.
  logic empty_grant;
  assign empty_grant = u_arb.out_valid_o && u_arb.out_ready_i && !head_valid_i[grant];
  always_comb if (rst_ni) begin
    cover (dispatch && exp_fire);
    cover (empty_grant);
    cover (rsv_valid_o && !rsv_ready_i);
    cover (!enable_i && exp_fire);
    cover (u_arb.out_valid_o && head_expired_i[grant]);
    cover (onerma_dispatch.arb_valid && onerma_dispatch.live && !disp_room_i);
  end

endmodule

bind onerma_dispatch onerma_dispatch_props #(
  .NumSlots  (NumSlots),
  .NumClasses(NumClasses),
  .TimeWidth (TimeWidth),
  .LinesWidth(LinesWidth),
  .SlotWidth (SlotWidth),
  .ClassWidth(ClassWidth)
) u_props (.*);
`endif

`default_nettype wire
