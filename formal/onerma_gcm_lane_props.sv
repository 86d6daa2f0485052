`default_nettype none

// Properties of onerma_gcm_lane with the engine replaced by onerma_gcm_engine_abstract
// (AbstractEngine = 1: every din beat, AAD included, echoed on dout). One message is followed:
// the one whose meta is the symbolic `m` (offered at most once), and one of its beats, the
// symbolic `j`; so every property holds for every beat of every message. Within a lane
// everything is in message order, so m's words, dout words and result are told from the others'
// by counting what is owed ahead of it. The induction invariants at the end tie these counts to
// the lane's state (formal/onerma_gcm_lane.sby proves them by k-induction).
`ifdef FORMAL
module onerma_gcm_lane_props #(
  parameter int unsigned Lanes     = 2,
  parameter int unsigned WordDepth = 1,
  parameter int unsigned LenW      = 5,
  parameter int unsigned MetaW     = 8,
  parameter int unsigned FlagDepth = 12,  // the lane's (parts and flags FIFOs)
  // Derived, do not override (the lane's).
  parameter int unsigned BeatW     = LenW - 2,
  // The lane's default payload types (rebuilt: yosys-slang takes no type parameter through bind).
  localparam type        desc_t    = struct packed {
    logic [127:0]     key;
    logic [95:0]      iv;
    logic [LenW-1:0]  aad_len;
    logic [LenW-1:0]  pt_len;
    logic             decrypt;
    logic [127:0]     tag;
    logic [MetaW-1:0] meta;
  },
  localparam type        wdout_t   = struct packed {
    logic [Lanes*128-1:0] data;
    logic                 last;
    logic [MetaW-1:0]     meta;
  },
  localparam type        res_t     = struct packed {
    logic [127:0]     tag;
    logic             auth_ok;
    logic [MetaW-1:0] meta;
  }
) (
  input logic                 clk_i,
  input logic                 rst_ni,
  input logic                 desc_valid_i,
  input logic                 desc_ready_o,
  input desc_t                desc_data_i,
  input logic                 din_valid_i,
  input logic                 din_ready_o,
  input logic [Lanes*128-1:0] din_data_i,
  input logic                 dout_valid_o,
  input logic                 dout_ready_i,
  input wdout_t               dout_data_o,
  input logic                 res_valid_o,
  input logic                 res_ready_i,
  input res_t                 res_data_o
);

  localparam int unsigned CW = BeatW + 4;  // ghost counters of words and results

  function automatic logic [BeatW:0] beats(input logic [LenW-1:0] len);
    return (BeatW+1)'(onerma_gcm_pkg::beat_count(32'(len)));
  endfunction

  localparam int unsigned LogL = $clog2(Lanes);

  function automatic logic [BeatW:0] words(input logic [BeatW:0] n);
    return (BeatW+1)'(({1'b0, n} + (BeatW+2)'(Lanes - 1)) >> LogL);
  endfunction

  localparam logic [BeatW:0] LMask = (BeatW+1)'(Lanes - 1);

  // Symbolic constants (registers that keep their unconstrained initial value).
  logic [MetaW-1:0] m;
  logic [BeatW:0]   j;
  always_ff @(posedge clk_i) begin
    m <= m;
    j <= j;
  end

  logic past_valid_q = 1'b0;
  always_ff @(posedge clk_i) past_valid_q <= 1'b1;
  always_comb if (!past_valid_q) assume (!rst_ni);

  logic           desc_go, din_go, dout_go, res_go;
  logic [BeatW:0] d_ab, d_pb, d_words, d_dwords;
  assign desc_go  = desc_valid_i && desc_ready_o;
  assign din_go   = din_valid_i && din_ready_o;
  assign dout_go  = dout_valid_o && dout_ready_i;
  assign res_go   = res_valid_o && res_ready_i;
  assign d_ab     = beats(desc_data_i.aad_len);
  assign d_pb     = beats(desc_data_i.pt_len);
  assign d_words  = words(d_ab) + words(d_pb);
  // The abstract engine echoes AAD and payload as one run of beats, packed without a break.
  assign d_dwords = words(d_ab + d_pb);

  // ---- Stream rules: assumed on desc and din, asserted on dout and res.
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
    .Width (Lanes * 128),
    .Assume(1'b1)
  ) u_din_check (
    .clk_i  (clk_i),
    .rst_ni (rst_ni),
    .valid_i(din_valid_i),
    .ready_i(din_ready_o),
    .data_i (din_data_i)
  );

  onerma_stream_check #(
    .Width ($bits(wdout_t)),
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

  // 8 live bits per beat: beats stay distinguishable, the solver fast.
  for (genvar b = 0; b < Lanes; b++) begin : g_small
    always_comb assume (din_data_i[b*128+8 +: 120] == '0);
  end

  // ---- What is owed by all accepted messages.
  logic [CW-1:0] owed_w_q, owed_d_q, owed_r_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      owed_w_q <= '0;
      owed_d_q <= '0;
      owed_r_q <= '0;
    end else begin
      owed_w_q <= owed_w_q + (desc_go ? CW'(d_words) : '0) - CW'(din_go);
      owed_d_q <= owed_d_q + (desc_go ? CW'(d_dwords) : '0) - CW'(dout_go);
      owed_r_q <= owed_r_q + CW'(desc_go) - CW'(res_go);
    end
  end

  // The user's side of the din contract (a pool routes words only to a lane that took the
  // descriptor): no word that no accepted message owes.
  always_comb if (rst_ni) assume (!din_valid_i || owed_w_q != '0);

  // Nothing comes out that nobody owes.
  always_comb if (rst_ni) begin
    if (dout_valid_o) assert (owed_d_q != '0);
    if (res_valid_o) assert (owed_r_q != '0);
  end

  // ---- Follow message m and its beat j.
  logic           m_in_q, m_res_q;
  logic [BeatW:0] m_ab_q, m_pb_q;
  logic [CW-1:0]  aw_q, ad_q, ar_q;   // words, dout words, results owed ahead of m
  logic [BeatW:0] m_w_q, m_d_q;       // m's words taken, dout words given
  logic [127:0]   m_data_j_q;
  logic [BeatW:0] jw, jl;             // the din word of m holding beat j, and its lane

  always_comb if (rst_ni && m_in_q) assume (!(desc_valid_i && desc_data_i.meta == m));
  // j is one of m's beats.
  always_comb if (m_in_q) assume (j < m_ab_q + m_pb_q);

  always_comb begin
    if (j < m_ab_q) begin
      jw = j >> LogL;
      jl = j & LMask;
    end else begin
      jw = words(m_ab_q) + ((j - m_ab_q) >> LogL);
      jl = (j - m_ab_q) & LMask;
    end
  end

  logic           m_word, m_dout, m_res;
  logic [BeatW:0] m_words, m_dwords;
  assign m_words  = words(m_ab_q) + words(m_pb_q);
  assign m_dwords = words(m_ab_q + m_pb_q);
  assign m_word   = din_go && m_in_q && (aw_q == '0) && (m_w_q < m_words);
  assign m_dout   = dout_go && m_in_q && (ad_q == '0) && (m_d_q < m_dwords);
  assign m_res  = res_go && m_in_q && (ar_q == '0) && !m_res_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      m_in_q  <= 1'b0;
      m_res_q <= 1'b0;
      aw_q    <= '0;
      ad_q    <= '0;
      ar_q    <= '0;
      m_w_q   <= '0;
      m_d_q   <= '0;
    end else begin
      if (desc_go && desc_data_i.meta == m) begin
        m_in_q <= 1'b1;
        m_ab_q <= d_ab;
        m_pb_q <= d_pb;
        aw_q   <= owed_w_q - CW'(din_go);
        ad_q   <= owed_d_q - CW'(dout_go);
        ar_q   <= owed_r_q - CW'(res_go);
      end else begin
        if (din_go && aw_q != '0) aw_q <= aw_q - CW'(1);
        if (dout_go && ad_q != '0) ad_q <= ad_q - CW'(1);
        if (res_go && ar_q != '0) ar_q <= ar_q - CW'(1);
      end
      if (m_word) m_w_q <= m_w_q + 1'b1;
      if (m_dout) m_d_q <= m_d_q + 1'b1;
      if (m_res) m_res_q <= 1'b1;
    end
  end

  always_ff @(posedge clk_i) begin
    if (m_word && m_w_q == jw) m_data_j_q <= din_data_i[(Lanes - 1 - 32'(jl)) * 128 +: 128];
  end

  always_comb if (rst_ni) begin
    // m's dout words: its meta, its beats in order (beat j in word j / Lanes at lane
    // j % Lanes), last exactly on its final word, zero after its last beat.
    if (dout_valid_o && m_in_q && ad_q == '0 && m_d_q < m_dwords) begin
      assert (dout_data_o.meta == m);
      assert (dout_data_o.last == (m_d_q == m_dwords - 1'b1));
      if (m_d_q == (j >> LogL)) begin
        assert (dout_data_o.data[(Lanes - 1 - 32'(j & LMask)) * 128 +: 128] == m_data_j_q);
      end
      if (m_d_q == m_dwords - 1'b1 && j == m_ab_q + m_pb_q - 1'b1) begin
        for (int unsigned b = 0; b < Lanes; b++) begin
          if (32'(j & LMask) < b) begin
            assert (dout_data_o.data[(Lanes - 1 - b) * 128 +: 128] == '0);
          end
        end
      end
      // Its dout word leaves only after the word that carried the beat went in.
      if (m_d_q == (j >> LogL)) assert (m_w_q > jw);
    end
    // m's result: its meta, after all its words went in and all its dout words left.
    if (res_valid_o && m_in_q && ar_q == '0 && !m_res_q) begin
      assert (res_data_o.meta == m);
      assert (m_w_q == m_words);
      assert (m_d_q == m_dwords);
    end
    // A dout word of m never leaves before the din word that carried its last beat went in.
    if (dout_valid_o && m_in_q && ad_q == '0 && m_d_q < m_dwords) assert (m_w_q != '0);
  end

  // ---- Induction invariants. The assertions above are about the ghost counters of m; the ones
  // below tie those counters, and owed_*_q, to the state they count, so that every state that
  // satisfies all of them is one the properties hold in (k-induction, task prove). Internal state
  // is read hierarchically: the abstract engine (its f_* view in
  // formal/onerma_gcm_engine_abstract.sv: queue head H and the message S behind it, beat counter,
  // dout and result registers), the parts and flags FIFOs per queue position, the word buffer,
  // the serializer, the packer and the result count. A message's way: descriptor -> engine queue
  // (and the parts FIFO while it still takes beats, the flags FIFO until its result); words ->
  // word buffer -> beats -> engine -> dout register -> packer -> dout words; result -> the
  // engine's result register (R) -> res. Counts as 32-bit numbers throughout (they are small).
  localparam int unsigned FD      = FlagDepth;  // the parts and flags FIFOs' depth
  localparam int unsigned MaxPart = ((1 << LenW) - 1 + 15) / 16;  // beats of the longest part

  function automatic int unsigned wd(input int unsigned n);  // words of n beats
    return (n + Lanes - 1) >> LogL;
  endfunction

  // -- Engine.
  int unsigned      e_cnt, e_hb, e_sb, e_bq, e_dv, e_rv;
  logic [MetaW-1:0] e_hm, e_sm, e_dmeta, e_rmeta;
  logic             e_dlast;
  logic [127:0]     e_ddata;
  always_comb begin
    e_cnt   = 32'(onerma_gcm_lane.g_abstract.u_engine.f_cnt);
    e_hb    = 32'(onerma_gcm_lane.g_abstract.u_engine.head.beats);
    e_hm    = onerma_gcm_lane.g_abstract.u_engine.head.meta;
    e_sb    = 32'(onerma_gcm_lane.g_abstract.u_engine.f_second.beats);
    e_sm    = onerma_gcm_lane.g_abstract.u_engine.f_second.meta;
    e_bq    = 32'(onerma_gcm_lane.g_abstract.u_engine.beat_q);
    e_dv    = 32'(onerma_gcm_lane.g_abstract.u_engine.dout_valid_q);
    e_dlast = onerma_gcm_lane.g_abstract.u_engine.dout_last_q;
    e_dmeta = onerma_gcm_lane.g_abstract.u_engine.dout_meta_q;
    e_ddata = onerma_gcm_lane.g_abstract.u_engine.dout_data_q;
    e_rv    = 32'(onerma_gcm_lane.g_abstract.u_engine.res_valid_q);
    e_rmeta = onerma_gcm_lane.g_abstract.u_engine.res_meta_q;
  end

  // -- Parts FIFO (head I0 = the lane's `info`, I1 behind it) and flags FIFO (positions 0..2),
  // per queue position, read through constant addresses.
  int unsigned i_cnt, i_rptr, i_wptr, i_a0, i_p0, i_a1, i_p1;
  int unsigned g_cnt, g_rptr, g_wptr;
  logic        g0, g1, g2;
  always_comb begin
    i_cnt  = 32'(onerma_gcm_lane.u_info.count_q);
    i_rptr = 32'(onerma_gcm_lane.u_info.rptr_q);
    i_wptr = 32'(onerma_gcm_lane.u_info.wptr_q);
    i_a0   = 32'(onerma_gcm_lane.info.aad);
    i_p0   = 32'(onerma_gcm_lane.info.pt);
    g_cnt  = 32'(onerma_gcm_lane.u_flags.count_q);
    g_rptr = 32'(onerma_gcm_lane.u_flags.rptr_q);
    g_wptr = 32'(onerma_gcm_lane.u_flags.wptr_q);
    {i_a1, i_p1} = '0;
    {g0, g1, g2} = '0;
    for (int unsigned a = 0; a < FD; a++) begin
      if (i_rptr == a) begin
        i_a1 = 32'(onerma_gcm_lane.u_info.mem_q[(a + 1) % FD].aad);
        i_p1 = 32'(onerma_gcm_lane.u_info.mem_q[(a + 1) % FD].pt);
      end
      if (g_rptr == a) begin
        g0 = onerma_gcm_lane.u_flags.mem_q[a];
        g1 = onerma_gcm_lane.u_flags.mem_q[(a + 1) % FD];
        g2 = onerma_gcm_lane.u_flags.mem_q[(a + 2) % FD];
      end
    end
  end

  // -- Word buffer and serializer: beats of I0 taken by the engine (s_fed), its words popped from
  // the buffer (s_cw) and still to pop (s_rem); the words of I1.
  int unsigned buf_n, b_rptr, b_wptr, s_ph, s_cnt, s_lane, s_pb, s_fed, s_cw, s_rem, s_w1;
  always_comb begin
    buf_n  = 32'(onerma_gcm_lane.buf_count);
    b_rptr = 32'(onerma_gcm_lane.u_words.rptr_q);
    b_wptr = 32'(onerma_gcm_lane.u_words.wptr_q);
    s_ph   = 32'(onerma_gcm_lane.ph_q);
    s_cnt  = 32'(onerma_gcm_lane.cnt_q);
    s_lane = 32'(onerma_gcm_lane.lane_q);
    s_pb   = 32'(onerma_gcm_lane.part_beats);
    s_fed  = (s_ph != 0 ? i_a0 : 0) + s_cnt;
    s_cw   = (s_ph != 0 ? wd(i_a0) : 0) + (s_cnt >> LogL);
    s_rem  = (i_cnt >= 1) ? wd(i_a0) + wd(i_p0) - s_cw : 0;
    s_w1   = (i_cnt >= 2) ? wd(i_a1) + wd(i_p1) : 0;
  end

  // -- Packer: a full word waiting on dout, or p_n beats of a word being filled.
  int unsigned          p_full, p_n, p_pk;
  logic                 p_last;
  logic [MetaW-1:0]     p_meta;
  logic [127:0]         p_lane [Lanes];
  always_comb begin
    p_full = 32'(onerma_gcm_lane.full_q);
    p_n    = 32'(onerma_gcm_lane.n_q);
    p_last = onerma_gcm_lane.last_q;
    p_meta = onerma_gcm_lane.meta_q;
    // Beats of H that left the dout register (in the packer's word or gone).
    p_pk   = (e_bq > e_dv) ? e_bq - e_dv : 0;
    for (int unsigned b = 0; b < Lanes; b++) begin
      p_lane[b] = onerma_gcm_lane.acc_q[(Lanes - 1 - b) * 128 +: 128];
    end
  end

  // -- Dout words owed, by place: the packer's full word; the words from the packer's partial word
  // on of the message being packed (H once it took a beat, else the one whose last beat waits in
  // the dout register); H before its first beat; S.
  int unsigned w_pk, w_d, w_h, w_s;
  logic        r_gone, h_gone;
  always_comb begin
    w_pk = p_full;
    w_d  = (e_bq != 0) ? wd(p_n + e_dv + e_hb - e_bq) : e_dv;
    w_h  = (e_bq == 0 && e_cnt != 0) ? wd(e_hb) : 0;
    w_s  = (e_cnt == 2) ? wd(e_sb) : 0;
    // Last words gone of messages still owed a result: R's (if it has dout) unless its last beat
    // waits in the dout register or its last word in the packer; H's once it took all its beats
    // and nothing of it waits.
    r_gone = (e_rv != 0) && g0 && !(e_bq == 0 && e_dv != 0) &&
             !(p_full != 0 && p_last && e_bq == e_dv);
    h_gone = (e_cnt != 0) && e_bq == e_hb && e_hb != 0 && e_dv == 0 && p_full == 0;
  end

  // -- Where m is: in the result register (R), at the queue head (H) or behind it (S); in the
  // parts FIFO as I0 or I1 while it still takes beats. Its beats taken by the engine (m_fed), in
  // the dout register (m_dvm), packed (m_mp); m_pk: one of its words is in the packer.
  logic        m_live, m_r, m_h, m_s, m_i0, m_i1, m_pk;
  int unsigned m_tot, m_fed, m_dvm, m_mp;
  int unsigned jwi, jli;
  int unsigned  m_bw, m_bpos;  // m's words in the buffer; the queue position of its word jw
  logic         m_bj;          // m's word jw is in the buffer
  logic [127:0] m_buf_j, m_acc_j;
  always_comb begin
    m_live = m_in_q && !m_res_q;
    m_r    = m_live && e_rv != 0 && ar_q == '0;
    m_h    = m_live && e_cnt >= 1 && 32'(ar_q) == e_rv;
    m_s    = m_live && e_cnt == 2 && 32'(ar_q) == e_rv + 1;
    m_i0   = (m_h && i_cnt == e_cnt) || (m_s && i_cnt == 1);
    m_i1   = m_s && i_cnt == 2;
    m_tot  = 32'(m_ab_q) + 32'(m_pb_q);
    m_fed  = m_h ? e_bq : (m_s ? 0 : m_tot);
    m_dvm  = ((m_h && e_bq != 0) || (m_r && e_bq == 0)) ? e_dv : 0;
    m_mp   = m_fed - m_dvm;
    m_pk   = m_live && wd(m_mp) == 32'(m_d_q) + 1;
    jwi    = 32'(jw);
    jli    = 32'(jl);
    // The buffer holds I0's words not yet popped, then I1's.
    m_bw    = m_i0 ? ((buf_n < s_rem) ? buf_n : s_rem)
                   : ((m_i1 && buf_n > s_rem) ? buf_n - s_rem : 0);
    m_bpos  = m_i0 ? jwi - s_cw : s_rem + jwi;
    m_bj    = (m_i0 || m_i1) && jwi < 32'(m_w_q) && (!m_i0 || jwi >= s_cw);
    m_buf_j = '0;
    m_acc_j = '0;
    for (int unsigned a = 0; a < WordDepth; a++) begin
      for (int unsigned q = 0; q < WordDepth; q++) begin
        if (b_rptr == a && m_bpos == q) begin
          for (int unsigned b = 0; b < Lanes; b++) begin
            if (jli == b) begin
              m_buf_j = onerma_gcm_lane.u_words.mem_q[(a + q) % WordDepth]
                          .data[(Lanes - 1 - b) * 128 +: 128];
            end
          end
        end
      end
    end
    for (int unsigned b = 0; b < Lanes; b++) begin
      if (32'(j & LMask) == b) m_acc_j = p_lane[b];
    end
  end

  always_comb if (rst_ni) begin
    // -- FIFO pointers.
    assert (i_rptr < FD && i_wptr == (i_rptr + i_cnt) % FD);
    assert (g_rptr < FD && g_wptr == (g_rptr + g_cnt) % FD);
    // -- Results: a flag per message from its descriptor to its result, R's first; each flag says
    // whether the message has beats.
    assert (g_cnt == e_rv + e_cnt);
    assert (32'(owed_r_q) == g_cnt);
    if (e_cnt >= 1) assert ((e_rv != 0 ? g1 : g0) == (e_hb != 0));
    if (e_cnt == 2) assert ((e_rv != 0 ? g2 : g1) == (e_sb != 0));
    // -- The parts FIFO holds the queue's messages that still take beats, in order: all of them;
    // or all but H once H took its beats; or none, H having taken its beats and S having none.
    assert (i_cnt <= e_cnt);
    if (i_cnt == e_cnt) begin
      if (e_cnt >= 1) assert (i_a0 + i_p0 == e_hb);
      if (e_cnt == 2) assert (i_a1 + i_p1 == e_sb);
    end else begin
      assert (e_bq == e_hb);
      if (i_cnt == 1) assert (i_a0 + i_p0 == e_sb);
      if (i_cnt + 2 == e_cnt) assert (e_sb == 0);
    end
    if (i_cnt >= 1) assert (i_a0 <= MaxPart && i_p0 <= MaxPart);
    if (i_cnt >= 2) assert (i_a1 <= MaxPart && i_p1 <= MaxPart);
    // -- Serializer: at I0's next beat; nothing started while I0 waits behind H.
    if (i_cnt == 0 || i_cnt < e_cnt) assert (s_ph == 0 && s_cnt == 0 && s_lane == 0);
    if (i_cnt != 0) begin
      if (s_ph != 0) assert (i_a0 != 0 && i_p0 != 0);
      assert (s_cnt < s_pb || (s_pb == 0 && s_cnt == 0));
      assert (s_lane == (s_cnt & (Lanes - 1)));
      if (s_lane != 0) assert (buf_n != 0);
      if (i_cnt == e_cnt) assert (e_bq == s_fed);
    end
    // -- Words: promised = owed; buffered and owed = I0's words not popped plus I1's.
    assert ($signed(onerma_gcm_lane.promised_q) >= 0);
    assert (32'(onerma_gcm_lane.promised_q) == 32'(owed_w_q));
    assert (buf_n + 32'(owed_w_q) == s_rem + s_w1);
    assert (buf_n <= WordDepth && b_rptr < WordDepth && b_wptr == (b_rptr + buf_n) % WordDepth);
    // -- Engine dout register and packer. The dout register holds H's latest beat once H took
    // one, else R's last beat. The packer holds H's words once H packed a beat, else R's.
    if (e_dv != 0 && e_bq != 0) assert (e_dlast == (e_bq == e_hb));
    if (e_dv != 0 && e_bq == 0) assert (e_dlast && e_rv != 0 && g0);
    if (p_full != 0) assert (p_n == 0);
    if (p_pk != 0) begin
      if (p_full != 0) begin
        assert (p_last == (p_pk == e_hb));
        assert (p_pk == e_hb || (p_pk & (Lanes - 1)) == 0);
      end else begin
        assert (p_n == ((p_pk == e_hb) ? 0 : (p_pk & (Lanes - 1))));
      end
    end else begin
      if (p_full != 0 || p_n != 0) assert (e_rv != 0 && g0);
      if (p_full != 0) assert (p_last == !(e_bq == 0 && e_dv != 0));
      if (p_n != 0) assert (e_bq == 0 && e_dv != 0);
    end
    assert (32'(owed_d_q) == w_pk + w_d + w_h + w_s);
    assert (32'(onerma_gcm_lane.lasts_q) == 32'(r_gone) + 32'(h_gone));

    // -- Message m.
    if (!m_in_q) assert (m_w_q == '0 && m_d_q == '0 && !m_res_q);
    if (m_in_q) begin
      assert (32'(m_ab_q) <= MaxPart && 32'(m_pb_q) <= MaxPart);
      assert (m_w_q <= m_words && m_d_q <= m_dwords);
      if (m_w_q > jw) assert (m_data_j_q[127:8] == '0);
    end
    if (m_res_q) assert (m_w_q == m_words && m_d_q == m_dwords);
    if (m_live) begin
      assert (32'(ar_q) < g_cnt);
      if (m_r) assert (e_rmeta == m && g0 == (m_tot != 0));
      if (m_h) assert (e_hm == m && e_hb == m_tot);
      if (m_s) assert (e_sm == m && e_sb == m_tot);
      // Its words: taken = popped + buffered while it takes beats; all taken after.
      if (m_i0) begin
        assert (i_a0 == 32'(m_ab_q) && i_p0 == 32'(m_pb_q));
        assert (aw_q == '0 && 32'(m_w_q) == s_cw + m_bw);
      end else if (m_i1) begin
        assert (i_a1 == 32'(m_ab_q) && i_p1 == 32'(m_pb_q));
        assert (32'(aw_q) + buf_n == s_rem + 32'(m_w_q) && (aw_q == '0 || m_w_q == '0));
        assert (32'(m_w_q) == m_bw);
      end else begin
        assert (aw_q == '0 && m_w_q == m_words);
      end
      if (m_bj) assert (m_buf_j == m_data_j_q);
      if (m_fed > 32'(j)) assert (m_w_q > jw);
      // Its beat in the dout register.
      if (m_dvm != 0) begin
        assert (e_dmeta == m && e_dlast == (m_fed == m_tot));
        if (m_fed == 32'(j) + 1) assert (e_ddata == m_data_j_q);
      end
      // Its dout words: each packed one has left but possibly the one in the packer.
      assert (32'(m_d_q) <= wd(m_mp) && wd(m_mp) <= 32'(m_d_q) + 1);
      // The packer's word is m's exactly when m owns the packer (R's before H packs, then H's).
      if ((m_r && p_pk == 0) || (m_h && p_pk != 0)) assert (m_pk == (p_full != 0 || p_n != 0));
      if (m_pk) begin
        assert (ad_q == '0 && p_meta == m);
        if (m_r) assert (p_pk == 0);
        if (p_full != 0) begin
          assert (p_last == (m_mp == m_tot));
          assert (m_mp == m_tot || m_mp == Lanes * (32'(m_d_q) + 1));
        end else begin
          assert (p_n == m_mp - Lanes * 32'(m_d_q) && m_mp < m_tot);
        end
        if (32'(j >> LogL) == 32'(m_d_q) && 32'(j) < m_mp) assert (m_acc_j == m_data_j_q);
        for (int unsigned b = 0; b < Lanes; b++) begin
          if (b >= m_mp - Lanes * 32'(m_d_q)) assert (p_lane[b] == '0);
        end
      end else if (m_mp < m_tot) begin
        assert (m_mp == Lanes * 32'(m_d_q));
        if (m_mp != 0) assert (ad_q == '0 && p_full == 0 && p_n == 0);
      end
      if (m_tot != 0 && m_mp == m_tot) assert (ad_q == '0);
      // Dout words ahead of m before it packed a beat.
      if (m_tot != 0 && m_mp == 0) begin
        if (m_s) assert (32'(ad_q) == w_pk + w_d + w_h);
        else     assert (32'(ad_q) == p_full + 32'(e_bq == 0 && e_dv != 0 && !m_r));
      end
    end
  end

  // ---- Cover: m goes through whole, longer than the word buffer, with others around it.
  always_comb if (rst_ni) begin
    cover (m_res_q && (words(m_ab_q) + words(m_pb_q) > (BeatW+1)'(WordDepth)) && m_ab_q != 0
           && m_pb_q != 0);
    cover (m_res_q && ar_q == '0 && owed_r_q > 1 && m_pb_q == 1);
  end

endmodule

bind onerma_gcm_lane onerma_gcm_lane_props #(
  .Lanes    (Lanes),
  .WordDepth(WordDepth),
  .LenW     (LenW),
  .MetaW    ($bits(meta_t)),
  .FlagDepth(FlagDepth)
) u_props (.*);
`endif

`default_nettype wire
