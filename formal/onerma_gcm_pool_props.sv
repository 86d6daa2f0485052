`default_nettype none

// Properties of onerma_gcm_pool, proven with the engines replaced by onerma_gcm_engine_abstract
// (AbstractEngines = 1; see onerma_gcm_pool.sby). One message is followed: the one whose meta is
// the anyconst `m` (the environment offers that meta at most once), which makes every property
// hold for every message at the cost of one.
`ifdef FORMAL
module onerma_gcm_pool_props #(
  parameter int unsigned NumEngines = 2,
  parameter int unsigned LenW       = 6,
  parameter int unsigned MetaW      = 8,
  // Derived, do not override (same as the pool's).
  parameter int unsigned EngW       = (NumEngines > 1) ? $clog2(NumEngines) : 1,
  parameter int unsigned BeatW      = LenW - 2,
  // The pool's default payload types for LenW and a MetaW-bit meta. (yosys-slang does not take
  // a type parameter through bind, so they are rebuilt here; a different field order would
  // decode the wrong bits and fail the proof.)
  localparam type        desc_t     = struct packed {
    logic [127:0]     key;
    logic [95:0]      iv;
    logic [LenW-1:0]  aad_len;
    logic [LenW-1:0]  pt_len;
    logic             decrypt;
    logic [127:0]     tag;
    logic [MetaW-1:0] meta;
  },
  localparam type        dout_t     = struct packed {
    logic [127:0]     data;
    logic             last;
    logic [MetaW-1:0] meta;
  },
  localparam type        res_t      = struct packed {
    logic [127:0]     tag;
    logic             auth_ok;
    logic [MetaW-1:0] meta;
  }
) (
  input logic                  clk_i,
  input logic                  rst_ni,
  input logic                  desc_valid_i,
  input logic                  desc_ready_o,
  input desc_t                 desc_data_i,
  input logic                  din_valid_i,
  input logic                  din_ready_o,
  input onerma_gcm_pkg::din_t  din_data_i,
  input logic                  dout_valid_o,
  input logic                  dout_ready_i,
  input dout_t                 dout_data_o,
  input logic                  res_valid_o,
  input logic                  res_ready_i,
  input res_t                  res_data_o,
  input logic [NumEngines-1:0] e_desc_ready,
  input logic                  route_in_ready,
  // Pool internals for the induction invariants (connected by name through `.*`).
  input logic [EngW-1:0]       pick,
  input logic [BeatW-1:0]      beat_q
);

  // Beats of accepted messages not yet taken on din: route FIFO entries times beats each.
  localparam int unsigned OutW  = BeatW + 4;

  function automatic logic [BeatW-1:0] beats(input logic [LenW-1:0] len);
    return BeatW'(onerma_gcm_pkg::beat_count(32'(len)));
  endfunction

  // Symbolic constants: registers that hold their unconstrained initial value (read_slang has no
  // $anyconst, and an undriven anyconst wire would become a per-cycle input under setundef).
  logic [MetaW-1:0] m;
  logic [BeatW-1:0] j;
  always_ff @(posedge clk_i) begin
    m <= m;
    j <= j;
  end

  logic past_valid_q = 1'b0;
  always_ff @(posedge clk_i) past_valid_q <= 1'b1;
  always_comb if (!past_valid_q) assume (!rst_ni);

  // The payload fields the properties look at.
  logic [LenW-1:0]  desc_aad_len, desc_pt_len;
  logic [MetaW-1:0] desc_meta, dout_meta, res_meta;
  logic [127:0]     din_data, dout_data;
  logic             dout_last;
  assign desc_aad_len = desc_data_i.aad_len;
  assign desc_pt_len  = desc_data_i.pt_len;
  assign desc_meta    = desc_data_i.meta;
  assign din_data     = din_data_i.data;
  assign dout_data    = dout_data_o.data;
  assign dout_last    = dout_data_o.last;
  assign dout_meta    = dout_data_o.meta;
  assign res_meta     = res_data_o.meta;

  logic             desc_go, din_go, dout_go, res_go;
  logic [BeatW-1:0] desc_beats;
  assign desc_go    = desc_valid_i && desc_ready_o;
  assign din_go     = din_valid_i && din_ready_o;
  assign dout_go    = dout_valid_o && dout_ready_i;
  assign res_go     = res_valid_o && res_ready_i;
  assign desc_beats = beats(desc_aad_len) + beats(desc_pt_len);

  // ---- Stream rules: assumed on the inputs desc and din, asserted on the outputs dout and res.
  onerma_stream_check #(
    .Width ($bits(desc_t)),
    .Assume(1'b1)
  ) u_desc_check (
    .clk_i  (clk_i),
    .rst_ni (rst_ni),
    .valid_i(desc_valid_i),
    .ready_i(desc_ready_o),
    .data_i (desc_data_i)
  );

  onerma_stream_check #(
    .Width ($bits(din_data_i)),
    .Assume(1'b1)
  ) u_din_check (
    .clk_i  (clk_i),
    .rst_ni (rst_ni),
    .valid_i(din_valid_i),
    .ready_i(din_ready_o),
    .data_i (din_data_i)
  );

  onerma_stream_check #(
    .Width ($bits(dout_t)),
    .Assume(1'b0)
  ) u_dout_check (
    .clk_i  (clk_i),
    .rst_ni (rst_ni),
    .valid_i(dout_valid_o),
    .ready_i(dout_ready_i),
    .data_i (dout_data_o)
  );

  onerma_stream_check #(
    .Width ($bits(res_t)),
    .Assume(1'b0)
  ) u_res_check (
    .clk_i  (clk_i),
    .rst_ni (rst_ni),
    .valid_i(res_valid_o),
    .ready_i(res_ready_i),
    .data_i (res_data_o)
  );

  // Routing does not look at the data: 8 live bits per beat keep the mix-up check meaningful
  // (beats are told apart) and the solver fast.
  always_comb assume (din_data[127:8] == '0);

  // ---- Follow message m.
  logic             m_in_q, m_res_q;       // descriptor taken / result given
  logic [BeatW-1:0] m_beats_q;             // its AAD + payload beats
  logic [OutW-1:0]  ahead_q;               // din beats still owed to earlier messages
  logic [OutW-1:0]  owed_q;                // din beats owed to all accepted messages
  logic [BeatW:0]   m_din_q, m_dout_q;     // its beats taken on din / given on dout
  logic [127:0]     m_data_j_q;            // its beat j as it went in

  // The environment offers meta m for one message only: once it is taken, never again. (Its
  // offer ends with the handshake, so the stream rule never asks to repeat it.)
  always_comb if (rst_ni && m_in_q) assume (!(desc_valid_i && desc_meta == m));

  logic m_beat;  // this din beat belongs to m
  assign m_beat = din_go && m_in_q && (ahead_q == '0) && (m_din_q < (BeatW+1)'(m_beats_q));

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      m_in_q   <= 1'b0;
      m_res_q  <= 1'b0;
      ahead_q  <= '0;
      owed_q   <= '0;
      m_din_q  <= '0;
      m_dout_q <= '0;
    end else begin
      owed_q <= owed_q + (desc_go ? OutW'(desc_beats) : '0) - OutW'(din_go);
      if (desc_go && desc_meta == m) begin
        m_in_q    <= 1'b1;
        m_beats_q <= desc_beats;
        ahead_q   <= owed_q - OutW'(din_go);
      end else if (din_go && ahead_q != '0) begin
        ahead_q <= ahead_q - OutW'(1);
      end
      if (m_beat) m_din_q <= m_din_q + 1'b1;
      if (dout_go && dout_meta == m) m_dout_q <= m_dout_q + 1'b1;
      if (res_go && res_meta == m) m_res_q <= 1'b1;
    end
  end

  always_ff @(posedge clk_i) begin
    if (m_beat && m_din_q == (BeatW+1)'(j)) m_data_j_q <= din_data;
  end

  // ---- No invention, no duplication, no mix-up.
  always_comb if (rst_ni) begin
    if (res_valid_o && res_meta == m) begin
      assert (m_in_q && !m_res_q);
      // Its result comes after all its beats went in (an engine finishes what it started).
      assert (m_din_q == (BeatW+1)'(m_beats_q));
    end
    if (dout_valid_o && dout_meta == m) begin
      assert (m_in_q);
      assert (m_dout_q < m_din_q);
      assert (dout_last == (m_dout_q == (BeatW+1)'(m_beats_q) - 1'b1));
      if (m_dout_q == (BeatW+1)'(j)) assert (dout_data == m_data_j_q);
    end
    assert (m_din_q <= (BeatW+1)'(m_beats_q) || !m_in_q);
    assert (m_dout_q <= m_din_q);
    if (!m_in_q) assert (m_din_q == '0 && m_dout_q == '0 && !m_res_q);
  end

  // ---- Induction invariants. The assertions above are about m's counters; the ones below tie
  // those counters (and owed_q / ahead_q) to the state they abstract, so that every state that
  // satisfies all of them is one the properties hold in, and k-induction closes at depth 1.
  // Internal state is read hierarchically: the route FIFO, the arbiters, and the abstract
  // engines' f_* view (formal/onerma_gcm_engine_abstract.sv).
  // Solver notes: nothing is indexed by a variable (an out-of-range index reads x, which setundef
  // turns into free inputs); the route FIFO is described per address, not per queue position
  // (a pop would rotate everything); and owed_q / ahead_q are tied to it entry by entry through
  // ghost counters, not by a sum over the FIFO (with the sum, NumEngines = 3 did not finish).
  localparam int unsigned MaxStall = 2;  // onerma_gcm_engine_abstract's default
  localparam int unsigned RDepth   = 2 * NumEngines;  // the pool's RouteDepth
  localparam int unsigned RAddrW   = (RDepth > 1) ? $clog2(RDepth) : 1;
  localparam int unsigned RCntW    = $clog2(RDepth + 1);
  localparam int unsigned StW      = $clog2(MaxStall + 2);

  // -- Route FIFO: per address, its queue position (0 = head, the entry din serves now).
  logic [RCntW-1:0]  r_cnt;
  logic [RAddrW-1:0] r_rptr, r_wptr;
  logic [EngW-1:0]   r_eng   [RDepth];
  logic [BeatW-1:0]  r_beats [RDepth];
  logic [RAddrW-1:0] r_qpos  [RDepth];
  logic              r_valid [RDepth];
  logic              r_second[RDepth];  // an entry of the same engine is ahead of it

  assign r_cnt  = u_route_fifo.count_q;
  assign r_rptr = u_route_fifo.rptr_q;
  assign r_wptr = u_route_fifo.wptr_q;
  for (genvar a = 0; a < RDepth; a++) begin : g_rmem
    assign r_eng[a]   = u_route_fifo.mem_q[a].eng;
    assign r_beats[a] = u_route_fifo.mem_q[a].beats;
    assign r_qpos[a]  = (RAddrW'(a) >= r_rptr) ? RAddrW'(a) - r_rptr
                                                : RAddrW'(a + RDepth) - r_rptr;
    assign r_valid[a] = (RCntW+1)'(r_qpos[a]) < (RCntW+1)'(r_cnt);
  end
  always_comb begin
    for (int unsigned a = 0; a < RDepth; a++) begin
      r_second[a] = 1'b0;
      for (int unsigned b = 0; b < RDepth; b++) begin
        if (b != a && r_valid[b] && r_eng[b] == r_eng[a] && r_qpos[b] < r_qpos[a]) begin
          r_second[a] = 1'b1;
        end
      end
    end
  end

  // -- Engines: queue (head, the one behind it), beat counter, output registers, stall counter.
  logic [1:0]       e_cnt    [NumEngines];
  logic             e_hpend  [NumEngines];  // head still takes din beats
  logic             e_spend  [NumEngines];  // the one behind it has din beats
  logic [BeatW-1:0] e_hbeats [NumEngines], e_sbeats [NumEngines], e_beat [NumEngines];
  logic [MetaW-1:0] e_hmeta  [NumEngines], e_smeta  [NumEngines];
  logic             e_dv     [NumEngines], e_dlast  [NumEngines], e_rv [NumEngines];
  logic [MetaW-1:0] e_dmeta  [NumEngines], e_rmeta  [NumEngines];
  logic [127:0]     e_ddata  [NumEngines];
  logic [StW-1:0]   e_stall  [NumEngines];
  for (genvar e = 0; e < NumEngines; e++) begin : g_ev
    assign e_cnt[e]    = g_eng[e].g_abstract.u_engine.f_cnt;
    assign e_hpend[e]  = g_eng[e].g_abstract.u_engine.f_head_pend;
    assign e_spend[e]  = g_eng[e].g_abstract.u_engine.f_second_pend;
    assign e_hbeats[e] = g_eng[e].g_abstract.u_engine.head.beats;
    assign e_hmeta[e]  = g_eng[e].g_abstract.u_engine.head.meta;
    assign e_sbeats[e] = g_eng[e].g_abstract.u_engine.f_second.beats;
    assign e_smeta[e]  = g_eng[e].g_abstract.u_engine.f_second.meta;
    assign e_beat[e]   = g_eng[e].g_abstract.u_engine.beat_q;
    assign e_dv[e]     = g_eng[e].g_abstract.u_engine.dout_valid_q;
    assign e_dlast[e]  = g_eng[e].g_abstract.u_engine.dout_last_q;
    assign e_dmeta[e]  = g_eng[e].g_abstract.u_engine.dout_meta_q;
    assign e_ddata[e]  = g_eng[e].g_abstract.u_engine.dout_data_q;
    assign e_rv[e]     = g_eng[e].g_abstract.u_engine.res_valid_q;
    assign e_rmeta[e]  = g_eng[e].g_abstract.u_engine.res_meta_q;
    assign e_stall[e]  = g_eng[e].g_abstract.u_engine.stall_cnt_q;
  end

  // -- Ghosts: the engine that took m, and m's route FIFO address (meaningful while m_in_q, and
  // for the address while m still owes beats).
  logic [EngW-1:0]   m_eng_q;
  logic [RAddrW-1:0] m_raddr_q;
  always_ff @(posedge clk_i) begin
    if (desc_go && desc_meta == m && !m_in_q) begin
      m_eng_q   <= pick;
      m_raddr_q <= r_wptr;
    end
  end

  // -- Ghost per route entry: the din beats owed ahead of it, kept exactly like ahead_q is for m
  // (set from owed_q when the entry is written, one less per din beat until 0). Chaining these
  // entry to entry ties owed_q and ahead_q to the FIFO contents without a sum over all entries,
  // which the solver handles badly (every push and pop would re-associate the sum).
  logic [OutW-1:0] r_before_q [RDepth];
  logic [OutW-1:0] r_rem      [RDepth];  // the entry's beats still to come
  for (genvar a = 0; a < RDepth; a++) begin : g_before
    always_ff @(posedge clk_i) begin
      if (desc_go && desc_beats != '0 && r_wptr == RAddrW'(a)) begin
        r_before_q[a] <= owed_q - OutW'(din_go);
      end else if (din_go && r_before_q[a] != '0) begin
        r_before_q[a] <= r_before_q[a] - OutW'(1);
      end
    end
    assign r_rem[a] = OutW'(r_beats[a]) - ((r_rptr == RAddrW'(a)) ? OutW'(beat_q) : '0);
  end

  // -- Where meta m sits in each engine: queue head / behind it, result and dout registers.
  logic m_h [NumEngines], m_s [NumEngines], m_r [NumEngines], m_d [NumEngines];
  always_comb begin
    for (int unsigned e = 0; e < NumEngines; e++) begin
      m_h[e] = (e_cnt[e] != 2'd0) && (e_hmeta[e] == m);
      m_s[e] = (e_cnt[e] == 2'd2) && (e_smeta[e] == m);
      m_r[e] = e_rv[e] && (e_rmeta[e] == m);
      m_d[e] = e_dv[e] && (e_dmeta[e] == m);
    end
  end

  // -- Selections: m's engine (me_*), the route head (hd_*) and its engine (he_*), m's route
  // entry (mr_*); and the number of route entries naming each engine.
  logic             me_h, me_s, me_r, me_d, me_hpend, me_dlast;
  logic [BeatW-1:0] me_hbeats, me_sbeats, me_beat;
  logic [127:0]     me_ddata;
  logic [EngW-1:0]  hd_eng;
  logic [BeatW-1:0] hd_beats;
  logic             he_hpend;
  logic [BeatW-1:0] he_beat;
  logic              mr_valid, mr_second;
  logic [EngW-1:0]   mr_eng;
  logic [BeatW-1:0]  mr_beats;
  logic [RAddrW-1:0] mr_qpos;
  logic [OutW-1:0]   mr_before;
  logic [RCntW:0]    e_nroute [NumEngines];
  always_comb begin
    {me_h, me_s, me_r, me_d, me_hpend, me_dlast} = '0;
    {me_hbeats, me_sbeats, me_beat, me_ddata}     = '0;
    {hd_eng, hd_beats, he_hpend, he_beat}         = '0;
    {mr_valid, mr_second, mr_eng, mr_beats, mr_qpos, mr_before} = '0;
    for (int unsigned a = 0; a < RDepth; a++) begin
      if (r_rptr == RAddrW'(a)) begin
        hd_eng   = r_eng[a];
        hd_beats = r_beats[a];
      end
      if (m_raddr_q == RAddrW'(a)) begin
        mr_valid  = r_valid[a];
        mr_second = r_second[a];
        mr_eng    = r_eng[a];
        mr_beats  = r_beats[a];
        mr_qpos   = r_qpos[a];
        mr_before = r_before_q[a];
      end
    end
    for (int unsigned e = 0; e < NumEngines; e++) begin
      e_nroute[e] = '0;
      for (int unsigned a = 0; a < RDepth; a++) begin
        if (r_valid[a] && r_eng[a] == EngW'(e)) e_nroute[e] = e_nroute[e] + 1'b1;
      end
      if (m_eng_q == EngW'(e)) begin
        me_h      = m_h[e];
        me_s      = m_s[e];
        me_r      = m_r[e];
        me_d      = m_d[e];
        me_hpend  = e_hpend[e];
        me_dlast  = e_dlast[e];
        me_hbeats = e_hbeats[e];
        me_sbeats = e_sbeats[e];
        me_beat   = e_beat[e];
        me_ddata  = e_ddata[e];
      end
      if (hd_eng == EngW'(e)) begin
        he_hpend = e_hpend[e];
        he_beat  = e_beat[e];
      end
    end
  end

  logic m_pend;  // m still owes din beats
  assign m_pend = m_in_q && (m_din_q < (BeatW+1)'(m_beats_q));

  always_comb if (rst_ni) begin
    // -- Route FIFO shape.
    assert (32'(r_cnt) <= RDepth);
    assert (32'(r_rptr) < RDepth);
    assert (32'(r_wptr) < RDepth);
    assert (32'(r_wptr) == ((32'(r_rptr) + 32'(r_cnt) >= RDepth) ? 32'(r_rptr) + 32'(r_cnt) - RDepth
                                                                   : 32'(r_rptr) + 32'(r_cnt)));
    // -- Route entries = the engines' pending messages, in order, with their beat counts: an
    // engine's first entry is its head unless the head already has all its beats, its second
    // entry is the message behind the head.
    for (int unsigned a = 0; a < RDepth; a++) begin
      if (r_valid[a]) begin
        assert (32'(r_eng[a]) < NumEngines);
        assert (r_beats[a] != '0);
        for (int unsigned e = 0; e < NumEngines; e++) begin
          if (r_eng[a] == EngW'(e)) begin
            if (!r_second[a] && e_hpend[e]) assert (r_beats[a] == e_hbeats[e]);
            else                            assert (r_beats[a] == e_sbeats[e]);
          end
        end
      end
    end
    for (int unsigned e = 0; e < NumEngines; e++) begin
      assert (e_nroute[e] == (RCntW+1)'(2'(e_hpend[e]) + 2'(e_spend[e])));
      // An engine only counts beats of the message at the route head.
      if (e_hpend[e] && !(r_cnt != '0 && hd_eng == EngW'(e))) assert (e_beat[e] == '0);
    end
    // -- The pool's beat counter = the head engine's, or 0 while that engine still finishes an
    // earlier message; owed_q = the beats still to come for all route entries.
    if (r_cnt == '0) begin
      assert (beat_q == '0);
    end else begin
      assert (beat_q < hd_beats);
      assert (beat_q == (he_hpend ? he_beat : '0));
    end
    // owed_q: the beats ahead of the newest entry plus its own; an entry's beats-ahead = the
    // previous entry's plus that entry's remaining beats; the head has none ahead.
    if (r_cnt == '0) assert (owed_q == '0);
    for (int unsigned a = 0; a < RDepth; a++) begin
      // (a + 1) % RDepth: the address after a.
      if (r_valid[a]) begin
        if (r_rptr == RAddrW'(a)) assert (r_before_q[a] == '0);
        if (r_wptr == RAddrW'((a + 1) % RDepth)) begin
          assert (owed_q == r_before_q[a] + r_rem[a]);
        end else begin
          assert (r_valid[(a + 1) % RDepth]);
          assert (r_before_q[(a + 1) % RDepth] == r_before_q[a] + r_rem[a]);
        end
      end
    end
    // -- Arbiters never lock onto a nonexistent input (NumEngines not a power of two).
    assert (32'(u_dout_arb.lock_idx_q) < NumEngines);
    assert (32'(u_res_arb.lock_idx_q) < NumEngines);

    // -- Meta m appears nowhere before m is taken, and afterwards only where m is: in one queue
    // slot or the result register of its engine until the result leaves, and in that engine's
    // dout register while m's latest beat waits there.
    for (int unsigned e = 0; e < NumEngines; e++) begin
      if (m_h[e] || m_s[e] || m_r[e]) assert (m_in_q && !m_res_q && m_eng_q == EngW'(e));
      if (m_d[e]) assert (m_in_q && m_eng_q == EngW'(e));
    end
    if (m_in_q) begin
      assert (32'(m_eng_q) < NumEngines);
      assert (2'(me_h) + 2'(me_s) + 2'(me_r) == 2'(!m_res_q));
      // In the queue: its beat count; at the head the engine's beat counter is m's, behind the
      // head nothing went in yet.
      if (me_h) assert (me_hbeats == m_beats_q && (BeatW+1)'(me_beat) == m_din_q);
      if (me_s) assert (me_sbeats == m_beats_q && m_din_q == '0);
      if (me_r || m_res_q) assert (m_din_q == (BeatW+1)'(m_beats_q));
      // dout: the engine's dout register holds m's latest beat until it is taken.
      if (me_d) begin
        assert (m_dout_q + 1'b1 == m_din_q);
        assert (me_dlast == (m_din_q == (BeatW+1)'(m_beats_q)));
        if (m_dout_q == (BeatW+1)'(j)) assert (me_ddata == m_data_j_q);
      end else begin
        assert (m_dout_q == m_din_q);
      end
      // While m owes beats: its route entry is live, second for its engine exactly when m waits
      // behind a head that owes beats too, and ahead_q = the din beats before it.
      if (m_pend) begin
        assert (mr_valid && mr_eng == m_eng_q && mr_beats == m_beats_q);
        assert (mr_second == (me_s && me_hpend));
        if (mr_qpos == '0) begin
          assert (ahead_q == '0);
          assert ((BeatW+1)'(beat_q) == m_din_q);
        end else begin
          assert (ahead_q == mr_before);
          assert (m_din_q == '0);
        end
      end
    end
  end

  // ---- Liveness of dispatch: an offered descriptor is taken at once when an engine can take it
  // and its beats have a route slot.
  always_comb if (rst_ni && desc_valid_i && (|e_desc_ready) &&
                  (route_in_ready || desc_beats == '0)) begin
    assert (desc_ready_o);
  end

`ifdef LIVE
  // ---- No message is ever stuck: with a fair environment (sinks always ready, beats always
  // offered) something moves within a bounded number of cycles while m is unfinished. Each move
  // uses up a finite amount of work (m's beats, its result, and the finitely many messages
  // before it), so m finishes.
  localparam int unsigned Quiet    = MaxStall + NumEngines + 2;
  logic [7:0] quiet_q;
  always_comb if (rst_ni) begin
    assume (dout_ready_i);
    assume (res_ready_i);
    assume (din_valid_i);
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      quiet_q <= '0;
    end else if (!m_in_q || m_res_q || din_go || dout_go || res_go) begin
      quiet_q <= '0;
    end else if (quiet_q != '1) begin
      quiet_q <= quiet_q + 8'd1;
    end
  end
  always_comb if (rst_ni) assert (32'(quiet_q) <= Quiet);

  // Induction invariants for the bound. With the sinks always ready the arbiters never lock, so
  // a valid dout or result register is taken in the same cycle; a quiet cycle thus has none. In
  // a quiet streak some engine is owed an action and is stalling: the engine at the route head
  // (its head takes the beat, or its finished head gives its result first), or m's engine whose
  // head has all its beats (gives its result). That engine's stall counter has counted every
  // cycle of the streak, so quiet_q <= its stall counter <= MaxStall. When it stops stalling it
  // takes a beat (not quiet) or loads its result register, which leaves the next cycle:
  // quiet_q <= MaxStall + 1 < Quiet.
  logic             any_rv, me_done;
  logic [StW-1:0]   me_stall, he_stall;
  always_comb begin
    any_rv   = 1'b0;
    me_done  = 1'b0;
    me_stall = '0;
    he_stall = '0;
    for (int unsigned e = 0; e < NumEngines; e++) begin
      any_rv = any_rv || e_rv[e];
      if (m_eng_q == EngW'(e)) begin
        me_done  = (e_cnt[e] != 2'd0) && !e_hpend[e];
        me_stall = e_stall[e];
      end
      if (hd_eng == EngW'(e)) he_stall = e_stall[e];
    end
  end
  always_comb if (rst_ni) begin
    assert (!u_dout_arb.lock_q && !u_res_arb.lock_q);
    assert (32'(quiet_q) <= MaxStall + 1);
    if (m_in_q && !m_res_q && quiet_q != '0) begin
      for (int unsigned e = 0; e < NumEngines; e++) assert (!e_dv[e]);
      assert ((any_rv && 32'(quiet_q) <= MaxStall + 1) ||
              (me_done && 32'(quiet_q) <= 32'(me_stall)) ||
              (r_cnt != '0 && 32'(quiet_q) <= 32'(he_stall)));
    end
  end

  // Cover (task cover_live): the fairness assumptions leave room for m to finish, and the
  // invariant's bound MaxStall + 1 is reached, so it is tight.
  always_comb if (rst_ni) begin
    cover (res_go && res_meta == m && m_beats_q > 1);
    cover (32'(quiet_q) == MaxStall + 1);
  end
`endif

  // ---- Cover: m goes through with beats while another message is in flight.
  always_comb if (rst_ni) begin
    cover (res_go && res_meta == m && m_beats_q > 1 && owed_q != '0);
    cover (dout_go && dout_meta == m && m_dout_q == (BeatW+1)'(j) && j != '0);
  end

endmodule

bind onerma_gcm_pool onerma_gcm_pool_props #(
  .NumEngines(NumEngines),
  .LenW      (LenW),
  .MetaW     ($bits(meta_t))
) u_props (.*);
`endif

`default_nettype wire
