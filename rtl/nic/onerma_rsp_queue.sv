`default_nettype none

/// Inbound request queues of the responder (protocol.md §9, decision H8): a READ FIFO and a
/// WRITE/REKEY FIFO sharing `Depth` entries, one occupancy count, and the age limit (S4).
///
/// - Storage: two `onerma_fifo` of `Depth` entries each; the shared count keeps their sum at
///   most `Depth`, so neither FIFO is ever offered a push while full (a FIFO holds `Depth` only
///   when the other is empty and the count is `Depth`, where `push_ready_o` is low). The
///   storage cost is 2x `Depth` entries; one RAM with linked lists is the area issue's.
/// - `count_o` (registered) is the entries in both FIFOs; `push_ready_o = count_o < Depth`
///   (from a registered flag). A push and up to two removals (taken or discarded heads) in one
///   cycle keep it exact. The NACK compare against `nack_depth` (§7.2 step 4) is the caller's.
/// - Age: a FIFO head whose age `now_i - time` (unsigned, modulo 2^TimeWidth) is `> max_age_i`
///   and that has not been offered yet is discarded instead of offered: popped, with one
///   `drop_age_o` pulse (at most one per FIFO per cycle). A head once offered stays offered
///   until taken even if it ages meanwhile (stream rule; within TimerSlack, §6.1).
/// - Judging cycle: a head is neither offered nor discarded in its first cycle at the head of its
///   FIFO. In that cycle its age for the next cycle (`now_i + 1 - time`) is compared against
///   `max_age_i` and registered, and the next cycle offers or discards it on that flag. So the
///   LUT-RAM read and the two carry chains of the age end at a flop instead of running through
///   the pop into the FIFO pointers (72 MHz out of context without the stage). Cost: a FIFO
///   passes at most one entry per two cycles (a request frame is two beats or more at 512 bits,
///   and its service takes far longer), and an `inq_max_age` write applies a cycle late.
/// - Within each FIFO, arrival order.
///
/// Contract: `now_i` advances by one each cycle (it is `nic_time`, §10; the age judged one cycle
/// ahead is exact only then). The age is modular, so the discard means "older than `max_age_i`"
/// only while an entry reaches its FIFO's head less than 2^TimeWidth cycles after `push_time_i`
/// (with 32 bits, seconds).
module onerma_rsp_queue #(
  /// InQueueDepth: entries shared by both FIFOs (default 32).
  parameter int unsigned Depth     = 32,
  /// Width of the time base (the low bits of `nic_time`).
  parameter int unsigned TimeWidth = 32,
  /// 1: a head once offered stays offered until taken (the stream rule), even if it ages
  /// meanwhile. 0: a head is offered only in a cycle its consumer can take it (valid depends on
  /// ready), so a head waiting for a busy consumer is judged every cycle and discarded the cycle
  /// it passes the age limit: the age rule of protocol §9 holds exactly (the NIC top's choice).
  parameter bit          HoldOffer = 1'b1,
  /// Width of the default entry type. Ignored when `entry_t` is overridden.
  parameter int unsigned EntryW    = 8,
  /// Entry payload (the request-check block's queued request, §7.2 step 5).
  parameter type         entry_t   = logic [EntryW-1:0],
  // Derived, do not override.
  parameter int unsigned CntW      = $clog2(Depth + 1)
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  /// NIC time (free-running, wraps).
  input  logic [TimeWidth-1:0] now_i,
  /// `inq_max_age` register.
  input  logic [31:0]          max_age_i,
  /// Push into exactly one FIFO (the request checks' enqueue, §7.2 step 5).
  input  logic                 push_valid_i,
  output logic                 push_ready_o,
  /// 0: READ FIFO, 1: WRITE/REKEY FIFO.
  input  logic                 push_wr_i,
  input  entry_t               push_entry_i,
  /// Arrival cycle (the frame's t_rx).
  input  logic [TimeWidth-1:0] push_time_i,
  /// Entries held by both FIFOs (registered).
  output logic [CntW-1:0]      count_o,
  /// READ FIFO head (valid/ready; once offered, held until taken).
  output logic                 rd_valid_o,
  input  logic                 rd_ready_i,
  output entry_t               rd_entry_o,
  output logic [TimeWidth-1:0] rd_time_o,
  /// WRITE/REKEY FIFO head.
  output logic                 wr_valid_o,
  input  logic                 wr_ready_i,
  output entry_t               wr_entry_o,
  output logic [TimeWidth-1:0] wr_time_o,
  /// An entry is at the WRITE/REKEY FIFO's head, offered or not (with HoldOffer = 0 the offer
  /// waits for ready, so the consumer's arbitration needs to know a head waits).
  output logic                 wr_head_o,
  /// One pulse per head discarded for age (bit 0 READ FIFO, bit 1 WRITE FIFO).
  output logic [1:0]           drop_age_o
);

  localparam logic [CntW-1:0] Full = CntW'(Depth);
  // The age compare in the wider of the two widths (zero-extended).
  localparam int unsigned     CmpW = (TimeWidth > 32) ? TimeWidth : 32;

  typedef struct packed {
    entry_t               entry;
    logic [TimeWidth-1:0] t;
  } slot_t;

  logic [CntW-1:0] count_q, count_d;
  logic            full_q;
  logic            push;
  logic [1:0]      f_in_valid, f_in_ready, f_out_valid, f_out_ready, f_pop;
  logic [1:0]      offered_q, seen_q, aged_q, aged_next, drop, give, take;
  slot_t           f_out [2];
  slot_t           push_slot;
  logic [1:0]      head_ready;
  logic [CntW-1:0] f_cnt [2];

  assign push_ready_o = !full_q;
  assign push         = push_valid_i && push_ready_o;
  assign count_o      = count_q;
  assign push_slot    = '{entry: push_entry_i, t: push_time_i};

  assign f_in_valid = {push && push_wr_i, push && !push_wr_i};
  assign head_ready = {wr_ready_i, rd_ready_i};

  for (genvar f = 0; f < 2; f++) begin : g_q
    logic [TimeWidth-1:0] age;

    onerma_fifo #(
      .Depth(Depth),
      .T    (slot_t)
    ) u_fifo (
      .clk_i,
      .rst_ni,
      .flush_i    (1'b0),
      .in_valid_i (f_in_valid[f]),
      .in_ready_o (f_in_ready[f]),
      .in_data_i  (push_slot),
      .out_valid_o(f_out_valid[f]),
      .out_ready_i(f_out_ready[f]),
      .out_data_o (f_out[f]),
      .count_o    (f_cnt[f])
    );

    assign age = now_i - f_out[f].t;
    // The age in the next cycle, (age + 1) mod 2^TimeWidth, is > max_age_i exactly when
    // age >= max_age_i, except for age = all ones (it wraps to 0).
    assign aged_next[f] = (CmpW'(age) >= CmpW'(max_age_i)) && !(&age);
    // A head is judged in its first cycle (seen_q low), then offered or discarded.
    assign give[f] = f_out_valid[f] && seen_q[f] && (offered_q[f] || !aged_q[f]) &&
                     (HoldOffer || head_ready[f]);
    assign drop[f] = f_out_valid[f] && seen_q[f] && !offered_q[f] && aged_q[f];
    assign take[f] = give[f] && head_ready[f];
    assign f_pop[f]       = take[f] || drop[f];
    assign f_out_ready[f] = f_pop[f];

    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        offered_q[f] <= 1'b0;
        seen_q[f]    <= 1'b0;
        aged_q[f]    <= 1'b0;
      end else begin
        offered_q[f] <= give[f] && !head_ready[f];
        // The head stays: next cycle it has been judged.
        seen_q[f]    <= f_out_valid[f] && !f_pop[f];
        aged_q[f]    <= aged_next[f];
      end
    end
  end

  assign rd_valid_o = give[0];
  assign rd_entry_o = f_out[0].entry;
  assign rd_time_o  = f_out[0].t;
  assign wr_valid_o = give[1];
  assign wr_entry_o = f_out[1].entry;
  assign wr_time_o  = f_out[1].t;
  assign wr_head_o  = f_out_valid[1];
  assign drop_age_o = drop;

  always_comb begin
    count_d = count_q + CntW'(push) - CntW'(f_pop[0]) - CntW'(f_pop[1]);
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      count_q <= '0;
      full_q  <= 1'b0;
    end else begin
      count_q <= count_d;
      full_q  <= (count_d == Full);
    end
  end

  // f_in_ready is high whenever push_ready_o is, and count_q is the sum of the FIFOs' counts
  // (see the header); the proof states both.
  logic unused;
  assign unused = ^{f_in_ready, f_cnt[0], f_cnt[1]};

`ifndef SYNTHESIS
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (rst_ni) begin
      assert (!(f_in_valid[0] && !f_in_ready[0]) && !(f_in_valid[1] && !f_in_ready[1]))
      else $error("onerma_rsp_queue: push into a full FIFO");
    end
  end
`endif

endmodule

`default_nettype wire
