`default_nettype none

// Properties of onerma_gcm_pool, proven with the engines replaced by onerma_gcm_engine_abstract
// (AbstractEngines = 1; see onerma_gcm_pool.sby). One message is followed: the one whose meta is
// the anyconst `m` (the environment offers that meta at most once), which makes every property
// hold for every message at the cost of one.
`ifdef FORMAL
module onerma_gcm_pool_props #(
  parameter int unsigned NumEngines = 2,
  parameter int unsigned LenW       = 6,
  parameter int unsigned MetaW      = 8
) (
  input logic                  clk_i,
  input logic                  rst_ni,
  input logic                  desc_valid_i,
  input logic                  desc_ready_o,
  input logic [127:0]          desc_key_i,
  input logic [95:0]           desc_iv_i,
  input logic [LenW-1:0]       desc_aad_len_i,
  input logic [LenW-1:0]       desc_pt_len_i,
  input logic                  desc_decrypt_i,
  input logic [127:0]          desc_tag_i,
  input logic [MetaW-1:0]      desc_meta_i,
  input logic                  din_valid_i,
  input logic                  din_ready_o,
  input logic [127:0]          din_data_i,
  input logic                  dout_valid_o,
  input logic                  dout_ready_i,
  input logic [127:0]          dout_data_o,
  input logic                  dout_last_o,
  input logic [MetaW-1:0]      dout_meta_o,
  input logic                  res_valid_o,
  input logic                  res_ready_i,
  input logic [MetaW-1:0]      res_meta_o,
  input logic [NumEngines-1:0] e_desc_ready,
  input logic                  route_in_ready
);

  localparam int unsigned BeatW = LenW - 2;
  // Beats of accepted messages not yet taken on din: route FIFO entries times beats each.
  localparam int unsigned OutW  = BeatW + 4;

  function automatic logic [BeatW-1:0] beats(input logic [LenW-1:0] len);
    return BeatW'((32'(len) + 32'd15) >> 4);
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

  logic             desc_go, din_go, dout_go, res_go;
  logic [BeatW-1:0] desc_beats;
  assign desc_go    = desc_valid_i && desc_ready_o;
  assign din_go     = din_valid_i && din_ready_o;
  assign dout_go    = dout_valid_o && dout_ready_i;
  assign res_go     = res_valid_o && res_ready_i;
  assign desc_beats = beats(desc_aad_len_i) + beats(desc_pt_len_i);

  // ---- Environment: input stream rule on desc and din.
  logic       desc_stall_q, din_stall_q;
  logic [LenW-1:0] desc_aad_q, desc_pt_q;
  logic [MetaW-1:0] desc_meta_q;
  logic [127:0] din_data_q;
  always_ff @(posedge clk_i) begin
    desc_stall_q <= rst_ni && desc_valid_i && !desc_ready_o;
    din_stall_q  <= rst_ni && din_valid_i && !din_ready_o;
    desc_aad_q   <= desc_aad_len_i;
    desc_pt_q    <= desc_pt_len_i;
    desc_meta_q  <= desc_meta_i;
    din_data_q   <= din_data_i;
  end
  // Routing does not look at the data: 8 live bits per beat keep the mix-up check meaningful
  // (beats are told apart) and the solver fast.
  always_comb assume (din_data_i[127:8] == '0);

  always_comb if (rst_ni && past_valid_q) begin
    if (desc_stall_q) begin
      assume (desc_valid_i);
      assume (desc_aad_len_i == desc_aad_q && desc_pt_len_i == desc_pt_q);
      assume (desc_meta_i == desc_meta_q);
    end
    if (din_stall_q) begin
      assume (din_valid_i && din_data_i == din_data_q);
    end
  end

  // ---- Follow message m.
  logic             m_in_q, m_res_q;       // descriptor taken / result given
  logic [BeatW-1:0] m_beats_q;             // its AAD + payload beats
  logic [OutW-1:0]  ahead_q;               // din beats still owed to earlier messages
  logic [OutW-1:0]  owed_q;                // din beats owed to all accepted messages
  logic [BeatW:0]   m_din_q, m_dout_q;     // its beats taken on din / given on dout
  logic [127:0]     m_data_j_q;            // its beat j as it went in

  always_comb if (rst_ni && m_in_q) assume (!(desc_valid_i && desc_meta_i == m && !desc_stall_q));

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
      if (desc_go && desc_meta_i == m) begin
        m_in_q    <= 1'b1;
        m_beats_q <= desc_beats;
        ahead_q   <= owed_q - OutW'(din_go);
      end else if (din_go && ahead_q != '0) begin
        ahead_q <= ahead_q - OutW'(1);
      end
      if (m_beat) m_din_q <= m_din_q + 1'b1;
      if (dout_go && dout_meta_o == m) m_dout_q <= m_dout_q + 1'b1;
      if (res_go && res_meta_o == m) m_res_q <= 1'b1;
    end
  end

  always_ff @(posedge clk_i) begin
    if (m_beat && m_din_q == (BeatW+1)'(j)) m_data_j_q <= din_data_i;
  end

  // ---- No invention, no duplication, no mix-up.
  always_comb if (rst_ni) begin
    if (res_valid_o && res_meta_o == m) begin
      assert (m_in_q && !m_res_q);
      // Its result comes after all its beats went in (an engine finishes what it started).
      assert (m_din_q == (BeatW+1)'(m_beats_q));
    end
    if (dout_valid_o && dout_meta_o == m) begin
      assert (m_in_q);
      assert (m_dout_q < m_din_q);
      assert (dout_last_o == (m_dout_q == (BeatW+1)'(m_beats_q) - 1'b1));
      if (m_dout_q == (BeatW+1)'(j)) assert (dout_data_o == m_data_j_q);
    end
    assert (m_din_q <= (BeatW+1)'(m_beats_q) || !m_in_q);
    assert (m_dout_q <= m_din_q);
    if (!m_in_q) assert (m_din_q == '0 && m_dout_q == '0 && !m_res_q);
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
  localparam int unsigned MaxStall = 2;  // onerma_gcm_engine_abstract's default
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
`endif

  // ---- Cover: m goes through with beats while another message is in flight.
  always_comb if (rst_ni) begin
    cover (res_go && res_meta_o == m && m_beats_q > 1 && owed_q != '0);
    cover (dout_go && dout_meta_o == m && m_dout_q == (BeatW+1)'(j) && j != '0);
  end

endmodule

bind onerma_gcm_pool onerma_gcm_pool_props #(
  .NumEngines(NumEngines),
  .LenW      (LenW),
  .MetaW     ($bits(meta_t))
) u_props (.*);
`endif

`default_nettype wire
