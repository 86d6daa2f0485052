`default_nettype none

// Properties of onerma_tx_arb, bound into it when FORMAL is defined.
//
// The sources' stream rules are assumed, the output's asserted. A shadow of the packet in
// progress is kept from the output alone (source of its first beat, until a beat with tlast);
// asserted: a beat of another source never appears inside a packet (no interleaving), every
// output beat is exactly the offered beat of the source it names, and a source's beat is taken
// exactly when it leaves on the output (beat conservation per source, cycle by cycle); no bubble
// between packets (between packets, any offered first beat makes the output valid).
`ifdef FORMAL
module onerma_tx_arb_props #(
  parameter int unsigned NumSrc    = 2,
  parameter int unsigned DataWidth = 16,
  parameter int unsigned Bytes     = 2,
  parameter int unsigned IdxWidth  = 1
) (
  input logic                             clk_i,
  input logic                             rst_ni,
  input logic [NumSrc-1:0]                s_axis_tvalid_i,
  input logic [NumSrc-1:0]                s_axis_tready_o,
  input logic [NumSrc-1:0][DataWidth-1:0] s_axis_tdata_i,
  input logic [NumSrc-1:0][Bytes-1:0]     s_axis_tkeep_i,
  input logic [NumSrc-1:0]                s_axis_tlast_i,
  input logic                             m_axis_tx_tvalid_o,
  input logic                             m_axis_tx_tready_i,
  input logic [DataWidth-1:0]             m_axis_tx_tdata_o,
  input logic [Bytes-1:0]                 m_axis_tx_tkeep_o,
  input logic                             m_axis_tx_tlast_o,
  input logic [IdxWidth-1:0]              m_axis_tx_src_o,
  input logic                             busy_q,
  input logic [IdxWidth-1:0]              cur_q
);

  logic past_valid_q = 1'b0;
  always_ff @(posedge clk_i) past_valid_q <= 1'b1;
  always_comb if (!past_valid_q) assume (!rst_ni);

  for (genvar i = 0; i < NumSrc; i++) begin : g_src
    onerma_stream_check #(.Width(DataWidth + Bytes + 1), .Assume(1'b1)) u_rule (
      .clk_i, .rst_ni, .valid_i(s_axis_tvalid_i[i]), .ready_i(s_axis_tready_o[i]),
      .data_i({s_axis_tdata_i[i], s_axis_tkeep_i[i], s_axis_tlast_i[i]}));
  end
  onerma_stream_check #(.Width(DataWidth + Bytes + 1 + IdxWidth), .Assume(1'b0)) u_out_rule (
    .clk_i, .rst_ni, .valid_i(m_axis_tx_tvalid_o), .ready_i(m_axis_tx_tready_i),
    .data_i({m_axis_tx_tdata_o, m_axis_tx_tkeep_o, m_axis_tx_tlast_o, m_axis_tx_src_o}));

  // ---- Shadow of the packet in progress, from the output.
  logic                f_busy_q;
  logic [IdxWidth-1:0] f_cur_q;
  logic                out_fire;
  assign out_fire = m_axis_tx_tvalid_o && m_axis_tx_tready_i;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      f_busy_q <= 1'b0;
      f_cur_q  <= '0;
    end else if (out_fire) begin
      f_busy_q <= !m_axis_tx_tlast_o;
      f_cur_q  <= m_axis_tx_src_o;
    end
  end

  // Per-source beats taken minus beats sent (must stay 0).
  always_comb if (rst_ni) begin
    // No interleaving.
    if (f_busy_q && m_axis_tx_tvalid_o) assert (m_axis_tx_src_o == f_cur_q);
    // The output beat is the named source's offered beat.
    if (m_axis_tx_tvalid_o) begin
      assert (32'(m_axis_tx_src_o) < NumSrc);
      assert (s_axis_tvalid_i[m_axis_tx_src_o]);
      assert (m_axis_tx_tdata_o == s_axis_tdata_i[m_axis_tx_src_o]);
      assert (m_axis_tx_tkeep_o == s_axis_tkeep_i[m_axis_tx_src_o]);
      assert (m_axis_tx_tlast_o == s_axis_tlast_i[m_axis_tx_src_o]);
    end
    // Conservation: a source's beat is taken exactly when it leaves.
    for (int unsigned i = 0; i < NumSrc; i++) begin
      assert ((s_axis_tvalid_i[i] && s_axis_tready_o[i]) ==
              (out_fire && m_axis_tx_src_o == IdxWidth'(i)));
    end
    // No bubble between packets.
    if (!f_busy_q && s_axis_tvalid_i != '0) assert (m_axis_tx_tvalid_o);
    // Induction invariants.
    assert (busy_q == f_busy_q);
    if (busy_q) assert (cur_q == f_cur_q && 32'(cur_q) < NumSrc);
    assert (32'(u_arb.ptr_q) < NumSrc);
    if (u_arb.lock_q) begin
      assert (32'(u_arb.lock_idx_q) < NumSrc);
      assert (!(busy_q && u_arb.lock_idx_q == cur_q));
    end
  end
  for (genvar i = 0; i < NumSrc; i++) begin : g_inv
    always_comb if (rst_ni && u_arb.lock_q && u_arb.lock_idx_q == IdxWidth'(i)) begin
      assert (g_src[i].u_rule.stall_q);
    end
  end

  // ---- Reachability.
  logic [1:0] f_pkts_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) f_pkts_q <= '0;
    else if (out_fire && m_axis_tx_tlast_o && f_pkts_q != 2'd3) f_pkts_q <= f_pkts_q + 1'b1;
  end
  always_comb if (rst_ni) begin
    // A packet of one source ends while another source waits: the next starts at once.
    cover (out_fire && m_axis_tx_tlast_o && f_busy_q && s_axis_tvalid_i != (NumSrc'(1) << f_cur_q)
           && (s_axis_tvalid_i & ~(NumSrc'(1) << f_cur_q)) != '0);
    cover (f_busy_q && !m_axis_tx_tvalid_o);
    cover (f_pkts_q == 2'd3 && out_fire && m_axis_tx_src_o == IdxWidth'(NumSrc - 1));
  end

endmodule

bind onerma_tx_arb onerma_tx_arb_props #(
  .NumSrc   (NumSrc),
  .DataWidth(DataWidth),
  .Bytes    (Bytes),
  .IdxWidth (IdxWidth)
) u_props (.*);
`endif

`default_nettype wire
