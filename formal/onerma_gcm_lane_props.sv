`default_nettype none

// Properties of onerma_gcm_lane with the engine replaced by onerma_gcm_engine_abstract
// (AbstractEngine = 1: every din beat, AAD included, echoed on dout). One message is followed:
// the one whose meta is the symbolic `m` (offered at most once), and one of its beats, the
// symbolic `j`; so every property holds for every beat of every message. Within a lane
// everything is in message order, so m's words, dout words and result are told from the others'
// by counting what is owed ahead of it.
`ifdef FORMAL
module onerma_gcm_lane_props #(
  parameter int unsigned Lanes     = 2,
  parameter int unsigned WordDepth = 1,
  parameter int unsigned LenW      = 5,
  parameter int unsigned MetaW     = 8,
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
  .MetaW    ($bits(meta_t))
) u_props (.*);
`endif

`default_nettype wire
