`default_nettype none

// Properties of onerma_op_timer, bound into it when FORMAL is defined.
//
// Shadow: per slot, armed and deadline. Assumed: at most one write per cycle, to a slot in
// range; an armed deadline is ahead of now by less than half the time range; the consumer
// leaves a timeout request waiting at most MaxHold cycles in a row. Asserted: a timeout is
// requested only for an armed slot whose deadline has been reached and that is not being
// written; the stored state equals the shadow; and every reached deadline is requested within
// (MaxHold + 1) * (NumSlots - 1) + MaxHold cycles (the detection delay), with the induction
// invariant that makes the bound provable.
`ifdef FORMAL
module onerma_op_timer_props #(
  parameter int unsigned NumSlots  = 3,
  parameter int unsigned TimeWidth = 5,
  parameter int unsigned SlotWidth = 2
) (
  input logic                 clk_i,
  input logic                 rst_ni,
  input logic [TimeWidth-1:0] now_i,
  input logic                 arm_i,
  input logic                 disarm_i,
  input logic [SlotWidth-1:0] wr_slot_i,
  input logic [TimeWidth-1:0] wr_deadline_i,
  input logic                 to_valid_o,
  input logic                 to_ready_i,
  input logic [SlotWidth-1:0] to_slot_o,
  input logic [TimeWidth-1:0] dl_q [NumSlots],
  input logic [NumSlots-1:0]  armed_q,
  input logic [SlotWidth-1:0] ptr_q
);

  localparam int unsigned MaxHold = 2;
  localparam int unsigned Bound   = (MaxHold + 1) * (NumSlots - 1) + MaxHold;
  localparam int unsigned WW      = 8;

  logic past_valid_q = 1'b0;
  always_ff @(posedge clk_i) past_valid_q <= 1'b1;
  always_comb if (!past_valid_q) assume (!rst_ni);

  logic [TimeWidth-1:0] now_q;
  always_ff @(posedge clk_i) now_q <= now_i;
  always_comb if (past_valid_q && rst_ni) assume (now_i == now_q + 1'b1);

  function automatic logic reached(input logic [TimeWidth-1:0] dl, input logic [TimeWidth-1:0] t);
    logic [TimeWidth-1:0] d;
    d = t - dl;
    return !d[TimeWidth-1];
  endfunction

  // ---- Shadow and environment.
  logic [NumSlots-1:0]  s_armed;
  logic [TimeWidth-1:0] s_dl [NumSlots];
  logic [WW-1:0]        hold_q;
  logic [WW-1:0]        waited_q [NumSlots];
  wire take = to_valid_o && to_ready_i;
  wire hold = to_valid_o && !to_ready_i;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      s_armed <= '0;
      hold_q  <= '0;
    end else begin
      if (arm_i) begin
        s_armed[wr_slot_i] <= 1'b1;
        s_dl[wr_slot_i]    <= wr_deadline_i;
      end else if (disarm_i) begin
        s_armed[wr_slot_i] <= 1'b0;
      end
      hold_q <= hold ? hold_q + 1'b1 : '0;
    end
  end

  always_comb if (rst_ni) begin
    assume (!(arm_i && disarm_i));
    if (arm_i || disarm_i) assume (32'(wr_slot_i) < NumSlots);
    // Strictly ahead, by less than half the time range (op_timeout and holds are >= 1 cycle).
    if (arm_i) assume (wr_deadline_i != now_i && !((wr_deadline_i - now_i) >> (TimeWidth - 1)));
    if (32'(hold_q) >= MaxHold) assume (!hold);
  end

  // Cycles each armed slot has spent with its deadline reached and not yet requested-and-taken.
  for (genvar s = 0; s < NumSlots; s++) begin : g_wait
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) waited_q[s] <= '0;
      else if ((arm_i || disarm_i) && wr_slot_i == SlotWidth'(s)) waited_q[s] <= '0;
      else if (take && to_slot_o == SlotWidth'(s)) waited_q[s] <= '0;
      else if (s_armed[s] && reached(s_dl[s], now_i)) waited_q[s] <= waited_q[s] + 1'b1;
      else waited_q[s] <= '0;
    end
  end

  // ---- Assertions.
  always_comb if (rst_ni) begin
    assert (32'(ptr_q) < NumSlots);
    assert (armed_q == s_armed);
    assert (32'(hold_q) <= MaxHold);
    if (hold_q != '0) assert (s_armed[ptr_q] && reached(s_dl[ptr_q], now_i - 1'b1));
    if (to_valid_o) begin
      assert (s_armed[to_slot_o] && reached(s_dl[to_slot_o], now_i));
      assert (!((arm_i || disarm_i) && wr_slot_i == to_slot_o));
    end
    for (int unsigned s = 0; s < NumSlots; s++) begin
      if (s_armed[s]) assert (dl_q[s] == s_dl[s]);
      begin
        automatic int unsigned rr_dist = (s >= 32'(ptr_q)) ? s - 32'(ptr_q)
                                                            : s + NumSlots - 32'(ptr_q);
        // The slot's turn comes within (MaxHold + 1) cycles per slot ahead of it.
        if (waited_q[s] != '0) begin
          assert (32'(waited_q[s]) + (MaxHold + 1) * rr_dist
                  <= (MaxHold + 1) * (NumSlots - 1) + 32'(hold_q) + 1);
        end
        assert (32'(waited_q[s]) <= Bound + 1);
      end
    end
  end

  // ---- Reachability.
  always_comb if (rst_ni) begin
    cover (take && hold_q == WW'(MaxHold));
    cover (to_valid_o && disarm_i);
    cover (s_armed[0] && reached(s_dl[0], now_i) && arm_i && wr_slot_i == '0);
  end

endmodule

bind onerma_op_timer onerma_op_timer_props #(
  .NumSlots (NumSlots),
  .TimeWidth(TimeWidth),
  .SlotWidth(SlotWidth)
) u_props (.*);
`endif

`default_nettype wire
