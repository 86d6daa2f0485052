`default_nettype none

/// Class queues of the initiator (protocol.md §2.3, H9): one FIFO of slot ids per class of
/// service, as linked lists threaded through a slot-indexed next-pointer table.
///
/// - A slot is in at most one queue at a time (the slot table queues a slot only at its
///   submission and a busy slot is never submitted again), so one next pointer per slot is
///   all the storage: `NumSlots` x log2(NumSlots) bits instead of `NumClasses` FIFOs of
///   `NumSlots` entries each.
/// - Each entry carries its dispatch deadline (`t_sub + dispatch_timeout + 1`, the first cycle
///   at which it is expired, §2.3). The head's deadline sits in a per-class register, so
///   `head_expired_o` of every class is one compare against `now_i` each cycle: every expiry is
///   seen at its exact cycle (queues are in submission order, so no entry behind a head expires
///   before it).
/// - Any set of classes may pop their head in one cycle (dispatch of one class and an expiry in
///   another), and a push may come in the same cycle, also into a class being popped.
///
/// Contract (assumed by formal/onerma_class_queues.sby, asserted in simulation): a pushed slot
/// is in no queue, pops name non-empty classes, and a deadline lies less than 2^(TimeWidth-1)
/// cycles after the cycle it is pushed in (times wrap; comparisons are modular).
module onerma_class_queues #(
  /// Command slots (default 64; small configuration 8).
  parameter int unsigned NumSlots   = 64,
  /// Classes of service (default 4; small configuration 2).
  parameter int unsigned NumClasses = 4,
  /// Width of the time base (the low bits of `nic_time`, protocol §13.1).
  parameter int unsigned TimeWidth  = 32,
  // Derived, do not override.
  parameter int unsigned SlotWidth  = (NumSlots > 1) ? $clog2(NumSlots) : 1,
  parameter int unsigned ClassWidth = (NumClasses > 1) ? $clog2(NumClasses) : 1
) (
  input  logic                                 clk_i,
  input  logic                                 rst_ni,
  input  logic [TimeWidth-1:0]                 now_i,
  /// Append `push_slot_i` to class `push_class_i`; always accepted.
  input  logic                                 push_valid_i,
  input  logic [SlotWidth-1:0]                 push_slot_i,
  input  logic [ClassWidth-1:0]                push_class_i,
  input  logic [TimeWidth-1:0]                 push_deadline_i,
  /// Per class: remove the head this cycle.
  input  logic [NumClasses-1:0]                pop_i,
  output logic [NumClasses-1:0]                head_valid_o,
  output logic [NumClasses-1:0][SlotWidth-1:0] head_slot_o,
  /// The head's deadline has been reached: it must not be dispatched any more.
  output logic [NumClasses-1:0]                head_expired_o
);

  logic [SlotWidth-1:0]  next_q [NumSlots];
  logic [TimeWidth-1:0]  dl_q   [NumSlots];
  logic [NumClasses-1:0]                nonempty_q;
  logic [NumClasses-1:0][SlotWidth-1:0] head_q, tail_q;
  logic [NumClasses-1:0][TimeWidth-1:0] head_dl_q;

  assign head_valid_o = nonempty_q;
  assign head_slot_o  = head_q;

  for (genvar c = 0; c < NumClasses; c++) begin : g_class
    logic                 push_here, single;
    logic [SlotWidth-1:0] succ;
    logic [TimeWidth-1:0] wait_left;

    assign push_here = push_valid_i && (push_class_i == ClassWidth'(c));
    // One entry left: a pop empties the class (a same-cycle push then starts it afresh).
    assign single    = (head_q[c] == tail_q[c]);
    assign succ      = next_q[head_q[c]];
    // Expired once now - deadline, taken as a signed number, is >= 0.
    assign wait_left = now_i - head_dl_q[c];
    assign head_expired_o[c] = nonempty_q[c] && !wait_left[TimeWidth-1];

    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        nonempty_q[c] <= 1'b0;
        head_q[c]     <= '0;
        tail_q[c]     <= '0;
        head_dl_q[c]  <= '0;
      end else begin
        if (push_here && (!nonempty_q[c] || (pop_i[c] && single))) begin
          nonempty_q[c] <= 1'b1;
          head_q[c]     <= push_slot_i;
          head_dl_q[c]  <= push_deadline_i;
        end else if (pop_i[c] && single) begin
          nonempty_q[c] <= 1'b0;
        end else if (pop_i[c]) begin
          head_q[c]    <= succ;
          head_dl_q[c] <= dl_q[succ];
        end
        if (push_here) begin
          tail_q[c] <= push_slot_i;
        end
      end
    end
  end

  // No reset: only entries reachable from a head are ever read, and each was written when its
  // slot was pushed.
  always_ff @(posedge clk_i) begin
    if (push_valid_i) begin
      dl_q[push_slot_i] <= push_deadline_i;
      if (nonempty_q[push_class_i] && !(pop_i[push_class_i] && (head_q[push_class_i] ==
                                                               tail_q[push_class_i]))) begin
        next_q[tail_q[push_class_i]] <= push_slot_i;
      end
    end
  end

`ifndef SYNTHESIS
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (rst_ni) begin
      assert ((pop_i & ~nonempty_q) == '0)
      else $error("onerma_class_queues: pop of an empty class");
      assert (!push_valid_i || 32'(push_class_i) < NumClasses)
      else $error("onerma_class_queues: push to class %0d of %0d", push_class_i, NumClasses);
    end
  end
`endif

endmodule

`default_nettype wire
