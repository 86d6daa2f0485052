`default_nettype none

// Properties of onerma_submit, bound into it when FORMAL is defined.
//
// The RRT is abstract: a lookup may return any entry (the table may change between lookups).
// The command port is assumed to follow the stream rule and to never offer a busy slot; frees
// name busy slots. Asserted: every command taken ends exactly once (a bad-completion-region drop
// in its second cycle, or one accept handshake); the lookups name the command's completion
// region and then its local region; an accept makes the slot busy and carries the slot's seq
// count including this command; a push happens exactly for an accepted OK command, with the
// class and the deadline t_sub + dispatch_timeout + 1 of that command; a dropped command leaves
// its slot free; the accept stream follows the stream rule.
`ifdef FORMAL
module onerma_submit_props #(
  parameter int unsigned NumSlots    = 2,
  parameter int unsigned NumClasses  = 2,
  parameter int unsigned TimeWidth   = 4,
  parameter int unsigned RrtIdxWidth = 2,
  parameter int unsigned SlotWidth   = 1,
  parameter int unsigned ClassWidth  = 1
) (
  input logic                   clk_i,
  input logic                   rst_ni,
  input logic [TimeWidth-1:0]   dispatch_timeout_i,
  input logic                   sub_valid_i,
  input logic                   sub_ready_o,
  input logic [SlotWidth-1:0]   sub_slot_i,
  input logic [31:0]            sub_pid_i,
  input onerma_pkg::cmd_t       sub_cmd_i,
  input logic [TimeWidth-1:0]   sub_time_i,
  input logic [NumSlots-1:0]    busy_o,
  input logic                   rrt_valid_o,
  input logic [RrtIdxWidth-1:0] rrt_idx_o,
  input logic                   bad_cq_o,
  input logic                   acc_valid_o,
  input logic                   acc_ready_i,
  input logic [SlotWidth-1:0]   acc_slot_o,
  input logic [15:0]            acc_seq_o,
  input onerma_pkg::status_e    acc_status_o,
  input onerma_pkg::cmd_t       acc_cmd_o,
  input logic [TimeWidth-1:0]   acc_t_sub_o,
  input logic                   push_valid_o,
  input logic [SlotWidth-1:0]   push_slot_o,
  input logic [ClassWidth-1:0]  push_class_o,
  input logic [TimeWidth-1:0]   push_deadline_o,
  input logic                   free_i,
  input logic [SlotWidth-1:0]   free_slot_i,
  input logic                   take,
  input logic                   acc_fire,
  input logic [NumSlots-1:0]    busy_q
);

  import onerma_pkg::*;

  logic past_valid_q = 1'b0;
  always_ff @(posedge clk_i) past_valid_q <= 1'b1;
  always_comb if (!past_valid_q) assume (!rst_ni);

  // ---- Environment.
  onerma_stream_check #(
    .Width (SlotWidth + 32 + CmdTBits + TimeWidth),
    .Assume(1'b1)
  ) u_sub_rule (
    .clk_i,
    .rst_ni,
    .valid_i(sub_valid_i),
    .ready_i(sub_ready_o),
    .data_i ({sub_slot_i, sub_pid_i, sub_cmd_i, sub_time_i})
  );
  always_comb if (rst_ni) begin
    if (sub_valid_i) assume (32'(sub_slot_i) < NumSlots && !busy_o[sub_slot_i]);
    if (free_i) assume (32'(free_slot_i) < NumSlots && busy_q[free_slot_i]);
    // A free never names the slot being accepted in the same cycle (it is not busy yet).
    if (free_i && acc_fire) assume (free_slot_i != acc_slot_o);
  end

  // ---- Shadow of the command in flight and the slot counters.
  logic                 inflight_q;
  logic [SlotWidth-1:0] f_slot_q;
  cmd_t                 f_cmd_q;
  logic [TimeWidth-1:0] f_time_q;
  logic [1:0]           f_step_q;  // 1: completion lookup answered this cycle, 2: local lookup
  logic [15:0]          s_seq [NumSlots];
  logic [NumSlots-1:0]  s_busy;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      inflight_q <= 1'b0;
      f_step_q   <= '0;
      s_busy     <= '0;
      for (int unsigned s = 0; s < NumSlots; s++) s_seq[s] <= '0;
    end else begin
      if (free_i) s_busy[free_slot_i] <= 1'b0;
      if (acc_fire) begin
        s_busy[f_slot_q] <= 1'b1;
        s_seq[f_slot_q]  <= s_seq[f_slot_q] + 16'd1;
      end
      if (take) begin
        inflight_q <= 1'b1;
        f_slot_q   <= sub_slot_i;
        f_cmd_q    <= sub_cmd_i;
        f_time_q   <= sub_time_i;
        f_step_q   <= 2'd1;
      end else if (bad_cq_o || acc_fire) begin
        inflight_q <= 1'b0;
        f_step_q   <= '0;
      end else if (f_step_q == 2'd1) begin
        f_step_q <= 2'd2;
      end else if (f_step_q == 2'd2) begin
        f_step_q <= 2'd3;
      end
    end
  end

  always_comb if (rst_ni) begin
    assert (busy_q == s_busy);
    for (int unsigned i = 0; i < NumSlots; i++) assert (onerma_submit.seq_q[i] == s_seq[i]);
    if (inflight_q) begin
      assert (onerma_submit.slot_q == f_slot_q && onerma_submit.cmd_q == f_cmd_q);
      assert (onerma_submit.t_sub_q == f_time_q);
      assert (32'(f_slot_q) < NumSlots);
    end
    // Taking a command only when none is in flight, or in the cycle the last one is accepted.
    if (take) assert (!inflight_q || acc_fire);
    // Exactly one end per command.
    if (bad_cq_o) assert (inflight_q && f_step_q == 2'd1 && !acc_valid_o);
    // The accept is offered from the decision cycle (step 2) on, held in step 3 while it waits.
    if (acc_valid_o) assert (inflight_q && f_step_q >= 2'd2);
    if (inflight_q && f_step_q >= 2'd2) assert (acc_valid_o);
    if (inflight_q) assert (f_step_q != '0);
    if (inflight_q) assert (busy_o[f_slot_q]);
    assert (onerma_submit.state_q == (inflight_q ? f_step_q : 2'd0));
    // Lookups: the completion region at the take, the local region after a good one.
    if (take) assert (rrt_valid_o && rrt_idx_o == RrtIdxWidth'(sub_cmd_i.cq_region));
    if (!take && rrt_valid_o) assert (f_step_q == 2'd1 && rrt_idx_o == RrtIdxWidth'(f_cmd_q.local_region));
    if (inflight_q && f_step_q == 2'd1 && !bad_cq_o) assert (rrt_valid_o);
    // The accepted command.
    if (acc_valid_o) begin
      assert (acc_slot_o == f_slot_q && acc_cmd_o == f_cmd_q && acc_t_sub_o == f_time_q);
      assert (acc_seq_o == s_seq[f_slot_q] + 16'd1);
      assert (acc_status_o inside {StatusOk, StatusBadCommand, StatusLocalAccessError});
      if (acc_status_o == StatusOk) begin
        assert (32'(f_cmd_q.cos) < NumClasses && f_cmd_q.length != '0);
      end
    end
    assert (push_valid_o == (acc_fire && acc_status_o == StatusOk));
    if (push_valid_o) begin
      assert (push_slot_o == f_slot_q && push_class_o == ClassWidth'(f_cmd_q.cos));
      assert (push_deadline_o == f_time_q + dispatch_timeout_i + 1'b1);
    end
  end

  onerma_stream_check #(
    .Width (SlotWidth + 16 + 8 + CmdTBits + TimeWidth),
    .Assume(1'b0)
  ) u_acc_rule (
    .clk_i,
    .rst_ni,
    .valid_i(acc_valid_o),
    .ready_i(acc_ready_i),
    .data_i ({acc_slot_o, acc_seq_o, acc_status_o, acc_cmd_o, acc_t_sub_o})
  );

  // ---- Reachability.
  always_comb if (rst_ni) begin
    cover (bad_cq_o);
    cover (push_valid_o);
    cover (acc_fire && acc_status_o == StatusBadCommand);
    cover (acc_fire && acc_status_o == StatusLocalAccessError);
    cover (acc_fire && take);
    cover (acc_fire && f_step_q == 2'd3);  // an accept that waited, from the held registers
  end

endmodule

bind onerma_submit onerma_submit_props #(
  .NumSlots   (NumSlots),
  .NumClasses (NumClasses),
  .TimeWidth  (TimeWidth),
  .RrtIdxWidth(RrtIdxWidth),
  .SlotWidth  (SlotWidth),
  .ClassWidth (ClassWidth)
) u_props (.*);
`endif

`default_nettype wire
