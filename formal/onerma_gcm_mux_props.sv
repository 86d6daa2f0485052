`default_nettype none

// Properties of onerma_gcm_mux. The pool is the environment: its ready inputs are free, its
// outputs (dout, res) follow the stream rules. One message is followed: the one of client `c`
// with meta `m` (symbolic constants; client c offers meta m at most once), which makes the beat
// routing properties hold for every message at the cost of one.
`ifdef FORMAL
module onerma_gcm_mux_props #(
  parameter int unsigned NumClients = 2,
  parameter int unsigned LenW       = 6,
  parameter int unsigned MetaW      = 2,
  parameter int unsigned OrderDepth = 2,
  parameter int unsigned Lanes      = 1,
  // Derived, do not override (same as the mux's).
  parameter int unsigned CidW       = (NumClients > 1) ? $clog2(NumClients) : 1,
  parameter int unsigned PoolMetaW  = CidW + MetaW,
  parameter int unsigned BeatW      = LenW - 2,
  parameter int unsigned WordW      = Lanes * 128,
  // The mux's default payload types (yosys-slang does not take a type parameter through bind,
  // so they are rebuilt here; a different field order would decode the wrong bits and fail).
  localparam type        cdesc_t    = struct packed {
    logic [127:0]     key;
    logic [95:0]      iv;
    logic [LenW-1:0]  aad_len;
    logic [LenW-1:0]  pt_len;
    logic             decrypt;
    logic [127:0]     tag;
    logic [MetaW-1:0] meta;
  },
  localparam type        pdesc_t    = struct packed {
    logic [127:0]         key;
    logic [95:0]          iv;
    logic [LenW-1:0]      aad_len;
    logic [LenW-1:0]      pt_len;
    logic                 decrypt;
    logic [127:0]         tag;
    logic [PoolMetaW-1:0] meta;
  },
  localparam type        wdin_t     = struct packed {
    logic [WordW-1:0] data;
  },
  localparam type        cdout_t    = struct packed {
    logic [WordW-1:0] data;
    logic             last;
    logic [MetaW-1:0] meta;
  },
  localparam type        pdout_t    = struct packed {
    logic [WordW-1:0]     data;
    logic                 last;
    logic [PoolMetaW-1:0] meta;
  },
  localparam type        cres_t     = struct packed {
    logic [127:0]     tag;
    logic             auth_ok;
    logic [MetaW-1:0] meta;
  },
  localparam type        pres_t     = struct packed {
    logic [127:0]         tag;
    logic                 auth_ok;
    logic [PoolMetaW-1:0] meta;
  }
) (
  input logic                                  clk_i,
  input logic                                  rst_ni,
  input logic [NumClients-1:0]                 c_desc_valid_i,
  input logic [NumClients-1:0]                 c_desc_ready_o,
  input cdesc_t [NumClients-1:0]               c_desc_data_i,
  input logic [NumClients-1:0]                 c_din_valid_i,
  input logic [NumClients-1:0]                 c_din_ready_o,
  input wdin_t [NumClients-1:0]                c_din_data_i,
  input logic [NumClients-1:0]                 c_dout_valid_o,
  input logic [NumClients-1:0]                 c_dout_ready_i,
  input cdout_t                                c_dout_data_o,
  input logic [NumClients-1:0]                 c_res_valid_o,
  input logic [NumClients-1:0]                 c_res_ready_i,
  input cres_t                                 c_res_data_o,
  input logic                                  p_desc_valid_o,
  input logic                                  p_desc_ready_i,
  input pdesc_t                                p_desc_data_o,
  input logic                                  p_din_valid_o,
  input logic                                  p_din_ready_i,
  input wdin_t                                 p_din_data_o,
  input logic                                  p_dout_valid_i,
  input logic                                  p_dout_ready_o,
  input pdout_t                                p_dout_data_i,
  input logic                                  p_res_valid_i,
  input logic                                  p_res_ready_o,
  input pres_t                                 p_res_data_i,
  // Internals (connected by name through `.*`).
  input logic [BeatW-1:0]                      beat_q,
  input logic [CidW-1:0]                       arb_cid
);

  localparam int unsigned OutW   = BeatW + 4;
  localparam int unsigned OAddrW = (OrderDepth > 1) ? $clog2(OrderDepth) : 1;
  localparam int unsigned OCntW  = $clog2(OrderDepth + 1);

  // din words of a part (the pool's word format: each part starts in a new word).
  function automatic logic [BeatW-1:0] beats(input logic [LenW-1:0] len);
    logic [31:0] b16;
    b16 = (32'(len) + 32'd15) / 32'd16;
    return BeatW'((b16 + 32'(Lanes) - 32'd1) / 32'(Lanes));
  endfunction

  // Symbolic constants (registers holding their unconstrained initial value).
  logic [CidW-1:0]  c;
  logic [MetaW-1:0] m;
  always_ff @(posedge clk_i) begin
    c <= c;
    m <= m;
  end
  always_comb assume (32'(c) < NumClients);

  logic past_valid_q = 1'b0;
  always_ff @(posedge clk_i) past_valid_q <= 1'b1;
  always_comb if (!past_valid_q) assume (!rst_ni);

  // ---- Stream rules: assumed on the clients' desc, din and the pool's dout, res; asserted on
  // the pool's desc, din and the clients' dout, res.
  for (genvar i = 0; i < NumClients; i++) begin : g_client_rules
    onerma_stream_check #(.Width($bits(cdesc_t)), .Assume(1'b1)) u_desc (
      .clk_i, .rst_ni, .valid_i(c_desc_valid_i[i]), .ready_i(c_desc_ready_o[i]),
      .data_i(c_desc_data_i[i]));
    onerma_stream_check #(.Width(WordW), .Assume(1'b1)) u_din (
      .clk_i, .rst_ni, .valid_i(c_din_valid_i[i]), .ready_i(c_din_ready_o[i]),
      .data_i(c_din_data_i[i].data));
    onerma_stream_check #(.Width($bits(cdout_t)), .Assume(1'b0)) u_dout (
      .clk_i, .rst_ni, .valid_i(c_dout_valid_o[i]), .ready_i(c_dout_ready_i[i]),
      .data_i(c_dout_data_o));
    onerma_stream_check #(.Width($bits(cres_t)), .Assume(1'b0)) u_res (
      .clk_i, .rst_ni, .valid_i(c_res_valid_o[i]), .ready_i(c_res_ready_i[i]),
      .data_i(c_res_data_o));
  end
  onerma_stream_check #(.Width($bits(pdesc_t)), .Assume(1'b0)) u_pdesc (
    .clk_i, .rst_ni, .valid_i(p_desc_valid_o), .ready_i(p_desc_ready_i), .data_i(p_desc_data_o));
  onerma_stream_check #(.Width(WordW), .Assume(1'b0)) u_pdin (
    .clk_i, .rst_ni, .valid_i(p_din_valid_o), .ready_i(p_din_ready_i),
    .data_i(p_din_data_o.data));
  onerma_stream_check #(.Width($bits(pdout_t)), .Assume(1'b1)) u_pdout (
    .clk_i, .rst_ni, .valid_i(p_dout_valid_i), .ready_i(p_dout_ready_o), .data_i(p_dout_data_i));
  onerma_stream_check #(.Width($bits(pres_t)), .Assume(1'b1)) u_pres (
    .clk_i, .rst_ni, .valid_i(p_res_valid_i), .ready_i(p_res_ready_o), .data_i(p_res_data_i));

  // The pool only returns metas of clients that exist (it echoes what the mux gave it).
  always_comb begin
    assume (32'(p_dout_data_i.meta[PoolMetaW-1 -: CidW]) < NumClients);
    assume (32'(p_res_data_i.meta[PoolMetaW-1 -: CidW]) < NumClients);
  end
  // Routing does not look at the data: 8 live bits per beat keep the mix-up check meaningful.
  for (genvar i = 0; i < NumClients; i++) begin : g_narrow
    always_comb assume (c_din_data_i[i].data[WordW-1:8] == '0);
  end

  // ---- Handshakes.
  logic             pdesc_go, pdin_go;
  logic [BeatW-1:0] pdesc_beats;
  logic [CidW-1:0]  pdesc_cid;
  logic [MetaW-1:0] pdesc_meta;
  assign pdesc_go    = p_desc_valid_o && p_desc_ready_i;
  assign pdin_go     = p_din_valid_o && p_din_ready_i;
  assign pdesc_beats = beats(p_desc_data_o.aad_len) + beats(p_desc_data_o.pt_len);
  assign pdesc_cid   = p_desc_data_o.meta[PoolMetaW-1 -: CidW];
  assign pdesc_meta  = p_desc_data_o.meta[MetaW-1:0];

  logic [NumClients-1:0] cdesc_go, cdin_go;
  assign cdesc_go = c_desc_valid_i & c_desc_ready_o;
  assign cdin_go  = c_din_valid_i & c_din_ready_o;

  // ---- Descriptors: the pool's is a client's, unchanged but for the client id in the meta, in
  // the same cycle; the outputs go to the client the meta names, with its meta.
  always_comb if (rst_ni) begin
    assert ($countones(cdesc_go) <= 1);
    assert ($countones(cdin_go) <= 1);
    assert ($countones(c_dout_valid_o) <= 1);
    assert ($countones(c_res_valid_o) <= 1);
    assert (pdesc_go == (cdesc_go != '0));
    if (pdesc_go) begin
      assert (cdesc_go[pdesc_cid]);
      assert (p_desc_data_o.key == c_desc_data_i[pdesc_cid].key);
      assert (p_desc_data_o.iv == c_desc_data_i[pdesc_cid].iv);
      assert (p_desc_data_o.aad_len == c_desc_data_i[pdesc_cid].aad_len);
      assert (p_desc_data_o.pt_len == c_desc_data_i[pdesc_cid].pt_len);
      assert (p_desc_data_o.decrypt == c_desc_data_i[pdesc_cid].decrypt);
      assert (p_desc_data_o.tag == c_desc_data_i[pdesc_cid].tag);
      assert (pdesc_meta == c_desc_data_i[pdesc_cid].meta);
    end
    assert (pdin_go == (cdin_go != '0));
    for (int unsigned i = 0; i < NumClients; i++) begin
      assert (c_dout_valid_o[i] ==
              (p_dout_valid_i && p_dout_data_i.meta[PoolMetaW-1 -: CidW] == CidW'(i)));
      assert (c_res_valid_o[i] ==
              (p_res_valid_i && p_res_data_i.meta[PoolMetaW-1 -: CidW] == CidW'(i)));
      if (c_dout_valid_o[i] && c_dout_ready_i[i]) assert (p_dout_ready_o);
      if (c_res_valid_o[i] && c_res_ready_i[i]) assert (p_res_ready_o);
    end
    if (p_dout_valid_i && p_dout_ready_o) assert (c_dout_valid_o != '0);
    if (p_res_valid_i && p_res_ready_o) assert (c_res_valid_o != '0);
    assert (c_dout_data_o.data == p_dout_data_i.data && c_dout_data_o.last == p_dout_data_i.last
            && c_dout_data_o.meta == p_dout_data_i.meta[MetaW-1:0]);
    assert (c_res_data_o.tag == p_res_data_i.tag && c_res_data_o.auth_ok == p_res_data_i.auth_ok
            && c_res_data_o.meta == p_res_data_i.meta[MetaW-1:0]);
  end

  // ---- Beats: follow message (c, m). Pool side: the din beats owed to earlier descriptors
  // when it was accepted (the pool takes beats in descriptor order); client side: the beats
  // client c owed to its earlier messages then. Its k-th beat on the pool must be its k-th beat
  // from client c, in the same cycle.
  logic             m_in_q;
  logic [BeatW-1:0] m_beats_q;
  logic [OutW-1:0]  owed_q, ahead_q, c_owed_q, c_ahead_q;
  logic [BeatW:0]   m_pin_q, m_cin_q;

  always_comb if (rst_ni && m_in_q) assume (!(c_desc_valid_i[c] && c_desc_data_i[c].meta == m));

  logic m_pbeat, m_cbeat;  // this din beat is m's, seen from the pool / from client c
  assign m_pbeat = pdin_go && m_in_q && (ahead_q == '0) && (m_pin_q < (BeatW+1)'(m_beats_q));
  assign m_cbeat = cdin_go[c] && m_in_q && (c_ahead_q == '0) &&
                   (m_cin_q < (BeatW+1)'(m_beats_q));

  logic m_go;
  assign m_go = cdesc_go[c] && (c_desc_data_i[c].meta == m) && !m_in_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      m_in_q    <= 1'b0;
      owed_q    <= '0;
      ahead_q   <= '0;
      c_owed_q  <= '0;
      c_ahead_q <= '0;
      m_pin_q   <= '0;
      m_cin_q   <= '0;
    end else begin
      owed_q   <= owed_q + (pdesc_go ? OutW'(pdesc_beats) : '0) - OutW'(pdin_go);
      c_owed_q <= c_owed_q + (cdesc_go[c] ? OutW'(pdesc_beats) : '0) - OutW'(cdin_go[c]);
      if (m_go) begin
        m_in_q    <= 1'b1;
        m_beats_q <= pdesc_beats;
        ahead_q   <= owed_q - OutW'(pdin_go);
        c_ahead_q <= c_owed_q - OutW'(cdin_go[c]);
      end else begin
        if (pdin_go && ahead_q != '0) ahead_q <= ahead_q - OutW'(1);
        if (cdin_go[c] && c_ahead_q != '0) c_ahead_q <= c_ahead_q - OutW'(1);
      end
      if (m_pbeat) m_pin_q <= m_pin_q + 1'b1;
      if (m_cbeat) m_cin_q <= m_cin_q + 1'b1;
    end
  end

  always_comb if (rst_ni) begin
    assert (m_pbeat == m_cbeat);
    if (m_pbeat) assert (p_din_data_o.data == c_din_data_i[c].data);
    assert (m_pin_q == m_cin_q);
    if (m_in_q) assert (m_pin_q <= (BeatW+1)'(m_beats_q));
    else assert (m_pin_q == '0);
    // Nothing is taken from a client that owes no beats.
    if (c_owed_q == '0) assert (!cdin_go[c]);
    if (owed_q == '0) assert (!pdin_go);
  end

  // ---- Induction invariants: the order FIFO, per address, against the ghost counters.
  logic [OCntW-1:0]  o_cnt;
  logic [OAddrW-1:0] o_rptr;
  logic [CidW-1:0]   o_cid   [OrderDepth];
  logic [BeatW-1:0]  o_beats [OrderDepth];
  logic [OAddrW-1:0] o_qpos  [OrderDepth];
  logic              o_valid [OrderDepth];
  logic [OutW-1:0]   o_rem   [OrderDepth];
  assign o_cnt  = u_order.count_q;
  assign o_rptr = u_order.rptr_q;
  for (genvar a = 0; a < OrderDepth; a++) begin : g_omem
    assign o_cid[a]   = u_order.mem_q[a].cid;
    assign o_beats[a] = u_order.mem_q[a].beats;
    assign o_qpos[a]  = (OAddrW'(a) >= o_rptr) ? OAddrW'(a) - o_rptr
                                               : OAddrW'(a + OrderDepth) - o_rptr;
    assign o_valid[a] = (OCntW+1)'(o_qpos[a]) < (OCntW+1)'(o_cnt);
    assign o_rem[a]   = OutW'(o_beats[a]) - ((o_rptr == OAddrW'(a)) ? OutW'(beat_q) : '0);
  end

  logic [OutW-1:0] sum_all, sum_c;
  always_comb begin
    sum_all = '0;
    sum_c   = '0;
    for (int unsigned a = 0; a < OrderDepth; a++) begin
      if (o_valid[a]) begin
        sum_all = sum_all + o_rem[a];
        if (o_cid[a] == c) sum_c = sum_c + o_rem[a];
      end
    end
  end

  // Ghost: m's order FIFO address (meaningful while m still owes beats).
  logic [OAddrW-1:0] m_addr_q;
  always_ff @(posedge clk_i) begin
    if (m_go) m_addr_q <= u_order.wptr_q;
  end

  logic [OutW-1:0] sum_ahead, sum_c_ahead;
  always_comb begin
    sum_ahead   = '0;
    sum_c_ahead = '0;
    for (int unsigned a = 0; a < OrderDepth; a++) begin
      if (o_valid[a] && o_qpos[a] < o_qpos[m_addr_q]) begin
        sum_ahead = sum_ahead + o_rem[a];
        if (o_cid[a] == c) sum_c_ahead = sum_c_ahead + o_rem[a];
      end
    end
  end

  always_comb if (rst_ni) begin
    if (m_in_q && m_pin_q < (BeatW+1)'(m_beats_q)) begin
      assert (32'(m_addr_q) < OrderDepth);
      assert (o_valid[m_addr_q]);
      assert (o_cid[m_addr_q] == c);
      assert (o_beats[m_addr_q] == m_beats_q);
      assert (o_rem[m_addr_q] == OutW'(m_beats_q) - OutW'(m_pin_q));
      assert (ahead_q == sum_ahead);
      assert (c_ahead_q == sum_c_ahead);
      if (m_pin_q != '0) assert (o_rptr == m_addr_q);
    end
    assert (owed_q == sum_all);
    assert (c_owed_q == sum_c);
    for (int unsigned a = 0; a < OrderDepth; a++) begin
      if (o_valid[a]) begin
        assert (o_beats[a] != '0);
        assert (32'(o_cid[a]) < NumClients);
        if (o_rptr == OAddrW'(a)) assert (beat_q < o_beats[a]);
      end
    end
    if (o_cnt == '0) assert (beat_q == '0);
    assert (32'(o_cnt) <= OrderDepth);
    // The arbiter's pointers name clients that exist.
    assert (32'(u_arb.ptr_q) < NumClients);
    assert (32'(u_arb.lock_idx_q) < NumClients);
    assert (32'(o_rptr) < OrderDepth);
    assert (32'(u_order.wptr_q) == (32'(o_rptr) + 32'(o_cnt)) % OrderDepth);
  end

  // ---- Cover: m's beats all pass while another client's message is in the order FIFO too.
  always_comb if (rst_ni) begin
    cover (m_in_q && m_pin_q == (BeatW+1)'(m_beats_q) && m_beats_q >= BeatW'(2) && c != '0);
  end

endmodule

bind onerma_gcm_mux onerma_gcm_mux_props #(
  .NumClients(NumClients),
  .LenW      (LenW),
  .MetaW     (MetaW),
  .OrderDepth(OrderDepth),
  .Lanes     (Lanes)
) u_props (.*);
`endif

`default_nettype wire
