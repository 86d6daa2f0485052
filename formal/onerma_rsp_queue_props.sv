`default_nettype none

// Properties of onerma_rsp_queue, bound into it when FORMAL is defined.
//
// Assumed: a reset in the first cycle, and now_i advancing by one each cycle (it is nic_time);
// pushes, head readies and max_age_i are free. Asserted:
// - count_o equals the FIFOs' occupancy and a count kept from the ports alone (pushes taken,
//   heads taken, drop pulses); it never exceeds Depth; push_ready_o exactly when it is below;
//   no push reaches a full FIFO;
// - per FIFO, a followed entry (any push, picked by a free input) comes out in order: the
//   entries ahead of it (a shadow counter) leave first, then it is the head with its own entry
//   and arrival time;
// - a head is neither offered nor dropped in its first cycle at the head (the judging cycle);
//   then it is first offered only when not aged, and a drop pulse comes only for an aged,
//   never-offered head, which leaves the FIFO in that cycle; "aged" against the previous
//   cycle's max_age_i (the judging cycle's: a write applies one cycle late);
// - the stream rules on both heads (onerma_stream_check).
// Induction invariants: the FIFO pointers agree with the counts (the FIFOs' flag invariants
// come from formal/onerma_fifo_flags.sv), an offered flag only for a judged head, a judged
// head's registered age flag, the followed entry's storage slot holds it.
`ifdef FORMAL
module onerma_rsp_queue_props #(
  parameter int unsigned Depth     = 4,
  parameter int unsigned TimeWidth = 6,
  parameter int unsigned EntryW    = 2,
  parameter int unsigned CntW      = 3,
  parameter bit          HoldOffer = 1'b1
) (
  input logic                 clk_i,
  input logic                 rst_ni,
  input logic [TimeWidth-1:0] now_i,
  input logic [31:0]          max_age_i,
  input logic                 push_valid_i,
  input logic                 push_ready_o,
  input logic                 push_wr_i,
  input logic [EntryW-1:0]    push_entry_i,
  input logic [TimeWidth-1:0] push_time_i,
  input logic [CntW-1:0]      count_o,
  input logic                 rd_valid_o,
  input logic                 rd_ready_i,
  input logic [EntryW-1:0]    rd_entry_o,
  input logic [TimeWidth-1:0] rd_time_o,
  input logic                 wr_valid_o,
  input logic                 wr_ready_i,
  input logic [EntryW-1:0]    wr_entry_o,
  input logic [TimeWidth-1:0] wr_time_o,
  input logic [1:0]           drop_age_o,
  // Internals (connected by name through `.*`).
  input logic [CntW-1:0]      count_q,
  input logic                 full_q,
  input logic [1:0]           offered_q,
  input logic [1:0]           seen_q,
  input logic [1:0]           aged_q,
  input logic [1:0]           f_in_valid,
  input logic [1:0]           f_in_ready,
  input logic [1:0]           f_out_valid,
  input logic [1:0]           f_pop
);

  localparam int unsigned AddrW = (Depth > 1) ? $clog2(Depth) : 1;
  localparam int unsigned CmpW  = (TimeWidth > 32) ? TimeWidth : 32;

  logic past_valid_q = 1'b0;
  always_ff @(posedge clk_i) past_valid_q <= 1'b1;
  always_comb if (!past_valid_q) assume (!rst_ni);

  // nic_time: one step per cycle.
  logic [TimeWidth-1:0] now_q;
  logic [31:0]          max_age_q;
  always_ff @(posedge clk_i) begin
    now_q     <= now_i;
    max_age_q <= max_age_i;
  end
  always_comb if (past_valid_q && rst_ni) assume (now_i == now_q + 1'b1);

  // Free input (setundef -anyseq in the .sby): which push of each FIFO is followed.
  logic [1:0] pick;

  function automatic logic is_aged(input logic [TimeWidth-1:0] now,
                                   input logic [TimeWidth-1:0] t,
                                   input logic [31:0]          max_age);
    logic [TimeWidth-1:0] age;
    age = now - t;
    return CmpW'(age) > CmpW'(max_age);
  endfunction

  // ---- Stream rules on both heads (asserted).
  onerma_stream_check #(.Width(EntryW + TimeWidth), .Assume(1'b0)) u_rd_check (
    .clk_i, .rst_ni, .valid_i(rd_valid_o), .ready_i(rd_ready_i), .data_i({rd_entry_o, rd_time_o}));
  onerma_stream_check #(.Width(EntryW + TimeWidth), .Assume(1'b0)) u_wr_check (
    .clk_i, .rst_ni, .valid_i(wr_valid_o), .ready_i(wr_ready_i), .data_i({wr_entry_o, wr_time_o}));

  // ---- The count from the ports alone.
  logic [CntW-1:0] s_cnt;
  logic            s_push, s_take_rd, s_take_wr;
  assign s_push    = push_valid_i && push_ready_o;
  assign s_take_rd = rd_valid_o && rd_ready_i;
  assign s_take_wr = wr_valid_o && wr_ready_i;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) s_cnt <= '0;
    else s_cnt <= s_cnt + CntW'(s_push) - CntW'(s_take_rd) - CntW'(s_take_wr)
                  - CntW'(drop_age_o[0]) - CntW'(drop_age_o[1]);
  end

  // The FIFOs' internals.
  logic [CntW-1:0]  fc    [2];
  logic [AddrW-1:0] frptr [2];
  logic [AddrW-1:0] fwptr [2];
  assign fc[0]    = g_q[0].u_fifo.count_q;
  assign fc[1]    = g_q[1].u_fifo.count_q;
  assign frptr[0] = g_q[0].u_fifo.rptr_q;
  assign frptr[1] = g_q[1].u_fifo.rptr_q;
  assign fwptr[0] = g_q[0].u_fifo.wptr_q;
  assign fwptr[1] = g_q[1].u_fifo.wptr_q;

  // The head of each FIFO as stored (whether offered or not).
  logic [EntryW-1:0]    h_entry [2];
  logic [TimeWidth-1:0] h_time  [2];
  assign h_entry[0] = g_q[0].u_fifo.out_data_o.entry;
  assign h_time[0]  = g_q[0].u_fifo.out_data_o.t;
  assign h_entry[1] = g_q[1].u_fifo.out_data_o.entry;
  assign h_time[1]  = g_q[1].u_fifo.out_data_o.t;

  logic [1:0] head_valid, head_ready;
  assign head_valid = {wr_valid_o, rd_valid_o};
  assign head_ready = {wr_ready_i, rd_ready_i};

  always_comb if (rst_ni) begin
    assert (count_o == count_q);
    assert (count_q == s_cnt);
    assert (32'(count_q) == 32'(fc[0]) + 32'(fc[1]));
    assert (32'(count_q) <= Depth);
    assert (push_ready_o == (32'(count_q) < Depth));
    assert (full_q == (32'(count_q) == Depth));
    for (int unsigned f = 0; f < 2; f++) begin
      // No push into a full FIFO; exactly the selected FIFO is pushed.
      if (f_in_valid[f]) assert (f_in_ready[f]);
      assert (f_in_valid[f] == (s_push && (push_wr_i == f[0])));
      // FIFO pointer invariant (onerma_fifo_props.sv states it for the FIFO's own proof).
      assert (32'(fwptr[f]) == (32'(frptr[f]) + 32'(fc[f])) % Depth);
      assert (32'(frptr[f]) < Depth);
      assert (32'(fc[f]) <= Depth);
      if (seen_q[f]) assert (f_out_valid[f]);
      if (offered_q[f]) assert (seen_q[f]);
      if (seen_q[f]) assert (aged_q[f] == is_aged(now_i, h_time[f], max_age_q));
      // Offered only a stored head after its judging cycle, and first offered only when not
      // aged.
      if (head_valid[f]) assert (f_out_valid[f] && seen_q[f]);
      if (head_valid[f] && !offered_q[f]) assert (!is_aged(now_i, h_time[f], max_age_q));
      // A drop pulse only for an aged, never-offered head, which leaves now; no head is both
      // offered and dropped.
      if (drop_age_o[f]) begin
        assert (f_out_valid[f] && seen_q[f] && !offered_q[f]);
        assert (is_aged(now_i, h_time[f], max_age_q));
        assert (f_pop[f] && !head_valid[f]);
      end
      // A judged head is offered or dropped, never left idle.
      if (f_out_valid[f] && seen_q[f]) begin
        assert (head_valid[f] || drop_age_o[f] || (!HoldOffer && !head_ready[f]));
      end
      if (!HoldOffer) assert (!offered_q[f]);
      // The FIFO pops exactly on a taken or dropped head.
      assert (f_pop[f] == ((head_valid[f] && head_ready[f]) || drop_age_o[f]));
    end
    assert (rd_entry_o == h_entry[0] && rd_time_o == h_time[0]);
    assert (wr_entry_o == h_entry[1] && wr_time_o == h_time[1]);
  end

  // ---- Per FIFO, a followed entry comes out in order.
  for (genvar f = 0; f < 2; f++) begin : g_follow
    logic                 trk;
    logic [CntW-1:0]      ahead;
    logic [EntryW-1:0]    fe;
    logic [TimeWidth-1:0] ft;
    logic                 start;
    logic [EntryW-1:0]    m_entry;
    logic [TimeWidth-1:0] m_time;
    logic [AddrW-1:0]     slot;

    assign start = f_in_valid[f] && pick[f] && !trk;
    assign slot  = AddrW'((32'(frptr[f]) + 32'(ahead)) % Depth);
    if (f == 0) begin : g_m0
      assign m_entry = g_q[0].u_fifo.mem_q[slot].entry;
      assign m_time  = g_q[0].u_fifo.mem_q[slot].t;
    end else begin : g_m1
      assign m_entry = g_q[1].u_fifo.mem_q[slot].entry;
      assign m_time  = g_q[1].u_fifo.mem_q[slot].t;
    end

    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        trk   <= 1'b0;
        ahead <= '0;
      end else if (start) begin
        trk   <= 1'b1;
        // Entries ahead after this cycle's pop (a pop takes one of those held now).
        ahead <= fc[f] - CntW'(f_pop[f]);
      end else if (trk && f_pop[f]) begin
        if (ahead == '0) trk <= 1'b0;
        else ahead <= ahead - 1'b1;
      end
    end

    // The followed entry's value (read only while trk).
    always_ff @(posedge clk_i) begin
      if (rst_ni && start) begin
        fe <= push_entry_i;
        ft <= push_time_i;
      end
    end

    always_comb if (rst_ni && trk) begin
      assert (32'(ahead) < 32'(fc[f]));
      assert (m_entry == fe && m_time == ft);
      if (ahead == '0) begin
        // The followed entry is the head: offered or dropped with its own entry and time.
        assert (f_out_valid[f]);
        assert (h_entry[f] == fe && h_time[f] == ft);
      end
    end

    always_comb if (rst_ni) begin
      cover (trk && ahead == '0 && drop_age_o[f]);
      cover (trk && ahead == '0 && head_valid[f] && head_ready[f] && 32'(fc[f]) >= 2);
    end
  end

  // A READ head seen fresh and not offered (its consumer busy) in the previous cycle.
  logic waited_fresh_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) waited_fresh_q <= 1'b0;
    else waited_fresh_q <= f_out_valid[0] && seen_q[0] && !aged_q[0] && !head_valid[0];
  end

  // HoldOffer 0: a head judged fresh waits for its consumer, ages, and is discarded.
  if (!HoldOffer) begin : g_cover_wait
    always_comb if (rst_ni) cover (drop_age_o[0] && waited_fresh_q);
  end


  // ---- Reachability.
  always_comb if (rst_ni) begin
    cover (32'(count_q) == Depth && fc[0] != '0 && fc[1] != '0);   // full, both FIFOs in use
    cover (32'(count_q) == Depth && push_valid_i);                  // a push refused (NACK depth)
    cover (drop_age_o == 2'b11);                                    // both FIFOs discard
    cover (rd_valid_o && wr_valid_o);                               // both heads offered
    cover (rd_valid_o && wr_valid_o && rd_ready_i && wr_ready_i && s_push);
  end

endmodule

bind onerma_rsp_queue onerma_rsp_queue_props #(
  .Depth    (Depth),
  .TimeWidth(TimeWidth),
  .EntryW   ($bits(entry_t)),
  .CntW     (CntW),
  .HoldOffer(HoldOffer)
) u_props (.*);
`endif

`default_nettype wire
