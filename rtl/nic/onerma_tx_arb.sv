`default_nettype none

/// The transmit edge: `NumSrc` AXI4-Stream packet sources onto the one network stream
/// `m_axis_tx` (one message per packet, protocol §3.1).
///
/// - Packets never interleave: a source's first beat wins the round-robin arbiter
///   (`onerma_rr_arb`, whose pointer moves once per packet, so every waiting source sends one
///   packet before another source sends a second), and from then until its `tlast` the output is
///   that source's stream alone.
/// - No bubble between packets: while a packet is in progress the other sources' first beats
///   stay offered to the arbiter, which holds its pick (its output is not taken), so the cycle
///   after a `tlast` transfer already presents the next packet's first beat.
/// - A source may pause inside a packet (valid low); the output then pauses too, and nothing else
///   is sent.
/// - The output is combinational from the inputs and two flops (`busy_q`, `cur_q`): valid, data
///   and the sources' ready depend on this cycle's inputs; a register slice, if the network
///   interface needs one, goes after it.
module onerma_tx_arb #(
  /// Packet sources, >= 1.
  parameter int unsigned NumSrc    = 2,
  parameter int unsigned DataWidth = 512,
  // Derived, do not override.
  parameter int unsigned Bytes     = DataWidth / 8,
  parameter int unsigned IdxWidth  = (NumSrc > 1) ? $clog2(NumSrc) : 1
) (
  input  logic                              clk_i,
  input  logic                              rst_ni,

  input  logic [NumSrc-1:0]                 s_axis_tvalid_i,
  output logic [NumSrc-1:0]                 s_axis_tready_o,
  input  logic [NumSrc-1:0][DataWidth-1:0]  s_axis_tdata_i,
  input  logic [NumSrc-1:0][Bytes-1:0]      s_axis_tkeep_i,
  input  logic [NumSrc-1:0]                 s_axis_tlast_i,

  output logic                              m_axis_tx_tvalid_o,
  input  logic                              m_axis_tx_tready_i,
  output logic [DataWidth-1:0]              m_axis_tx_tdata_o,
  output logic [Bytes-1:0]                  m_axis_tx_tkeep_o,
  output logic                              m_axis_tx_tlast_o,
  /// The source of the beat on `m_axis_tx`.
  output logic [IdxWidth-1:0]               m_axis_tx_src_o
);

  typedef struct packed {
    logic [DataWidth-1:0] data;
    logic [Bytes-1:0]     keep;
    logic                 last;
  } beat_t;

  logic                busy_q;   // a packet is in progress (its first beat was sent)
  logic [IdxWidth-1:0] cur_q;    // its source
  beat_t [NumSrc-1:0]  beats;
  logic [NumSrc-1:0]   arb_valid, arb_ready;
  logic                arb_out_valid, arb_out_ready;
  beat_t               arb_out, cur_beat;
  logic [IdxWidth-1:0] arb_idx;
  logic                out_fire;

  for (genvar i = 0; i < NumSrc; i++) begin : g_src
    assign beats[i] = '{data: s_axis_tdata_i[i], keep: s_axis_tkeep_i[i], last: s_axis_tlast_i[i]};
    // Every source offers its packet's first beat to the arbiter; the source in a packet offers
    // nothing (its first beat was taken, so withdrawing is no stream-rule break).
    assign arb_valid[i] = s_axis_tvalid_i[i] && !(busy_q && cur_q == IdxWidth'(i));
  end

  // The arbiter's output is taken only between packets: inside a packet it holds its pick.
  onerma_rr_arb #(
    .N(NumSrc),
    .T(beat_t)
  ) u_arb (
    .clk_i,
    .rst_ni,
    .in_valid_i (arb_valid),
    .in_ready_o (arb_ready),
    .in_data_i  (beats),
    .out_valid_o(arb_out_valid),
    .out_ready_i(arb_out_ready),
    .out_data_o (arb_out),
    .out_idx_o  (arb_idx)
  );

  // AND-OR select of the packet's source (no barrel shifter on a packed array).
  always_comb begin
    cur_beat = '0;
    for (int unsigned i = 0; i < NumSrc; i++) begin
      cur_beat |= beats[i] & {$bits(beat_t){cur_q == IdxWidth'(i)}};
    end
  end

  assign arb_out_ready      = !busy_q && m_axis_tx_tready_i;
  assign m_axis_tx_tvalid_o = busy_q ? |(s_axis_tvalid_i & (NumSrc'(1) << cur_q)) : arb_out_valid;
  assign m_axis_tx_tdata_o  = busy_q ? cur_beat.data : arb_out.data;
  assign m_axis_tx_tkeep_o  = busy_q ? cur_beat.keep : arb_out.keep;
  assign m_axis_tx_tlast_o  = busy_q ? cur_beat.last : arb_out.last;
  assign m_axis_tx_src_o    = busy_q ? cur_q : arb_idx;
  assign out_fire           = m_axis_tx_tvalid_o && m_axis_tx_tready_i;

  always_comb begin
    s_axis_tready_o = arb_ready;
    if (busy_q) begin
      s_axis_tready_o = '0;
      s_axis_tready_o[cur_q] = m_axis_tx_tready_i;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      busy_q <= 1'b0;
      cur_q  <= '0;
    end else if (out_fire) begin
      busy_q <= !m_axis_tx_tlast_o;
      cur_q  <= m_axis_tx_src_o;
    end
  end

`ifndef SYNTHESIS
  onerma_stream_check #(
    .Width(DataWidth + Bytes + 1 + IdxWidth)
  ) u_out_check (
    .clk_i,
    .rst_ni,
    .valid_i(m_axis_tx_tvalid_o),
    .ready_i(m_axis_tx_tready_i),
    .data_i ({m_axis_tx_tdata_o, m_axis_tx_tkeep_o, m_axis_tx_tlast_o, m_axis_tx_src_o})
  );
`endif

endmodule

`default_nettype wire
