`default_nettype none

// Properties of onerma_class_queues, bound into it when FORMAL is defined.
//
// A shadow keeps every class queue as a plain array of (slot, deadline) in order. The contract
// of the module header is assumed; asserted: each class's head, validity and expiry flag equal
// the shadow's, and (the induction invariant that makes it provable for any starting state) the
// linked list walked from the head is exactly the shadow's order, with the tail and the stored
// deadlines matching.
`ifdef FORMAL
module onerma_class_queues_props #(
  parameter int unsigned NumSlots   = 4,
  parameter int unsigned NumClasses = 2,
  parameter int unsigned TimeWidth  = 4,
  parameter int unsigned SlotWidth  = 2,
  parameter int unsigned ClassWidth = 1
) (
  input logic                                 clk_i,
  input logic                                 rst_ni,
  input logic [TimeWidth-1:0]                 now_i,
  input logic                                 push_valid_i,
  input logic [SlotWidth-1:0]                 push_slot_i,
  input logic [ClassWidth-1:0]                push_class_i,
  input logic [TimeWidth-1:0]                 push_deadline_i,
  input logic [NumClasses-1:0]                pop_i,
  input logic [NumClasses-1:0]                head_valid_o,
  input logic [NumClasses-1:0][SlotWidth-1:0] head_slot_o,
  input logic [NumClasses-1:0]                head_expired_o,
  input logic [SlotWidth-1:0]                 next_q [NumSlots],
  input logic [TimeWidth-1:0]                 dl_q   [NumSlots],
  input logic [NumClasses-1:0][SlotWidth-1:0] tail_q,
  input logic [NumClasses-1:0][TimeWidth-1:0] head_dl_q
);

  localparam int unsigned CntW = $clog2(NumSlots + 1);

  logic past_valid_q = 1'b0;
  always_ff @(posedge clk_i) past_valid_q <= 1'b1;
  always_comb if (!past_valid_q) assume (!rst_ni);

  // Time advances by one each cycle (it is nic_time), so "deadline less than half the time
  // range ahead" is a property of the inputs that stays true.
  logic [TimeWidth-1:0] now_q;
  always_ff @(posedge clk_i) now_q <= now_i;
  always_comb if (past_valid_q && rst_ni) assume (now_i == now_q + 1'b1);

  // ---- Shadow queues.
  logic [SlotWidth-1:0] s_slot [NumClasses][NumSlots];
  logic [TimeWidth-1:0] s_dl   [NumClasses][NumSlots];
  logic [CntW-1:0]      s_cnt  [NumClasses];
  logic [NumSlots-1:0]  queued;

  always_comb begin
    queued = '0;
    for (int unsigned c = 0; c < NumClasses; c++) begin
      for (int unsigned i = 0; i < NumSlots; i++) begin
        if (32'(i) < 32'(s_cnt[c])) queued[s_slot[c][i]] = 1'b1;
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int unsigned c = 0; c < NumClasses; c++) s_cnt[c] <= '0;
    end else begin
      for (int unsigned c = 0; c < NumClasses; c++) begin
        automatic logic [CntW-1:0] n = s_cnt[c];
        if (pop_i[c]) begin
          for (int unsigned i = 0; i + 1 < NumSlots; i++) begin
            s_slot[c][i] <= s_slot[c][i+1];
            s_dl[c][i]   <= s_dl[c][i+1];
          end
          n = n - 1'b1;
        end
        if (push_valid_i && push_class_i == ClassWidth'(c)) begin
          s_slot[c][n] <= push_slot_i;
          s_dl[c][n]   <= push_deadline_i;
          n = n + 1'b1;
        end
        s_cnt[c] <= n;
      end
    end
  end

  // ---- Contract (assumed).
  // The sign of a modular time difference: 1 when `a` lies before `b`.
  function automatic logic earlier(input logic [TimeWidth-1:0] a, input logic [TimeWidth-1:0] b);
    logic [TimeWidth-1:0] d;
    d = a - b;
    return d[TimeWidth-1];
  endfunction

  localparam logic [TimeWidth-1:0] HalfMax = {1'b0, {(TimeWidth-1){1'b1}}};

  always_comb if (rst_ni) begin
    if (push_valid_i) begin
      assume (32'(push_class_i) < NumClasses);
      assume (32'(push_slot_i) < NumSlots);
      assume (!queued[push_slot_i]);
      // Ahead of now by less than half the time range (the deadline is t_sub + timeout + 1).
      assume (!earlier(push_deadline_i, now_i));
      // Per class, deadlines in push order never decrease (dispatch_timeout is constant while
      // the NIC is enabled), so nothing behind a head expires before it.
      if (s_cnt[push_class_i] != '0) begin
        assume (!earlier(push_deadline_i, s_dl[push_class_i][s_cnt[push_class_i] - 1'b1]));
      end
    end
    for (int unsigned c = 0; c < NumClasses; c++) begin
      if (pop_i[c]) assume (s_cnt[c] != '0);
      // An expired head leaves within half the time range (the NIC removes one per cycle), so
      // the modular compare never sees a deadline that far in the past.
      if (s_cnt[c] != '0 && (now_i - s_dl[c][0]) == HalfMax) assume (pop_i[c]);
    end
  end

  // ---- The queues equal the shadow.
  always_comb if (rst_ni) begin
    for (int unsigned c = 0; c < NumClasses; c++) begin
      assert (32'(s_cnt[c]) <= NumSlots);
      assert (head_valid_o[c] == (s_cnt[c] != '0));
      if (s_cnt[c] != '0) begin
        assert (head_slot_o[c] == s_slot[c][0]);
        assert (head_dl_q[c] == s_dl[c][0]);
        assert (tail_q[c] == s_slot[c][s_cnt[c] - 1'b1]);
        // Expired exactly when the shadow head's deadline has been reached.
        assert (head_expired_o[c] == !earlier(now_i, s_dl[c][0]));
      end else begin
        assert (!head_expired_o[c]);
      end
      for (int unsigned i = 0; i < NumSlots; i++) begin
        if (32'(i) < 32'(s_cnt[c])) begin
          assert (32'(s_slot[c][i]) < NumSlots);
          assert (dl_q[s_slot[c][i]] == s_dl[c][i]);
          if (32'(i) + 1 < 32'(s_cnt[c])) assert (next_q[s_slot[c][i]] == s_slot[c][i+1]);
          // Each slot appears once over all queues.
          for (int unsigned d = 0; d < NumClasses; d++) begin
            for (int unsigned j = 0; j < NumSlots; j++) begin
              if (32'(j) < 32'(s_cnt[d]) && !(c == d && i == j)) assert (s_slot[c][i] != s_slot[d][j]);
            end
          end
        end
      end
    end
  end

  // ---- Reachability.
  always_comb if (rst_ni) begin
    cover (s_cnt[0] == CntW'(NumSlots));                   // every slot in one class
    cover (push_valid_i && pop_i[push_class_i] && s_cnt[push_class_i] == CntW'(1));
    cover ($countones(pop_i) >= 2 && push_valid_i);        // two classes pop while one pushes
    cover (head_expired_o[NumClasses-1] && s_cnt[NumClasses-1] > CntW'(1));
  end

endmodule

bind onerma_class_queues onerma_class_queues_props #(
  .NumSlots  (NumSlots),
  .NumClasses(NumClasses),
  .TimeWidth (TimeWidth),
  .SlotWidth (SlotWidth),
  .ClassWidth(ClassWidth)
) u_props (.*);
`endif

`default_nettype wire
