`default_nettype none

/// The receive edge (protocol.md §3.1, §3.3): store-and-forward of every frame from the network
/// stream, the header checks of §3.3, the destination check, and steering of the accepted frames
/// to the initiator or the responder as a descriptor stream and a payload stream each.
///
/// - **Store-and-forward.** A frame's verdict is decided in the cycle its last beat is accepted
///   (its "now", §1) and nothing leaves before it: payload beats wait in a data FIFO
///   (`BufBeats`), the verdict (with header, tag and `t_rx`) in a descriptor FIFO (`DescDepth`).
///   Only payload beats are stored: the header is kept in a register and travels with the
///   verdict, the tag is cut out at the last beat, so a frame stores `ceil(chunk_len / Bytes)`
///   beats, and none at all when its header already fails §3.3 or names another NIC. A frame
///   longer than a maximal legal frame (64 + ChunkBytes + 16 bytes) is never stored beyond its
///   claimed payload (at most `ChunkBytes / Bytes` beats), its remaining beats are drained at
///   full rate and it is counted once, at its last beat.
/// - **Checks.** Exactly `wire::parse` of the golden model, then `dst_nic == nic_addr_i`:
///   malformed wins over misaddressed. A stopped NIC (`enable_i` low in the cycle of the last
///   beat, protocol §1.1) answers to no address: every well-formed frame is misaddressed. The header checks run on the header as it completes
///   (registered), the length, oversize and `tkeep` checks at the last beat.
/// - **Outputs.** The descriptor FIFO's head steers: a forwarded frame's descriptor is offered on
///   the destination's descriptor stream; after it is accepted, its payload beats are offered on
///   that destination's payload stream (`keep` masks the tail, `last` on the final beat, no beat
///   when `chunk_len = 0`). **Ordering contract:** per destination, descriptors and payloads are
///   in frame order, and a frame's descriptor is accepted before its first payload beat is
///   offered; a consumer takes the descriptor first. A dropped frame that stored beats has its
///   beats discarded at one per cycle. The buffer is shared and in order, so a stalled
///   destination blocks the other (head-of-line blocking).
/// - `drop_malformed_o` / `drop_misaddressed_o`: one cycle per dropped frame, the cycle after
///   its last beat was accepted.
/// - Throughput: the input takes one beat per cycle while the outputs are ready (a frame of `B`
///   beats stores at most `B - 1` and the output spends one cycle per descriptor and one per
///   stored beat).
module onerma_rx_parse #(
  /// Stream width in bits: 128, 256 or 512 (the 64-byte header is exactly 64 / Bytes beats).
  parameter int unsigned DataWidth  = 512,
  /// Payload bytes of a chunk (protocol constant CHUNK_BYTES). Only the proof overrides it, with
  /// a smaller value that reaches the oversize and full-buffer cases within its depth.
  parameter int unsigned ChunkBytes = onerma_pkg::ChunkBytes,
  /// Data FIFO depth in beats, >= ChunkBytes * 8 / DataWidth (one maximal payload); the default
  /// holds two, so a frame can enter while the previous one leaves.
  parameter int unsigned BufBeats   = 2 * ChunkBytes * 8 / DataWidth,
  /// Descriptor FIFO depth (frames decided and not yet steered out), >= 1.
  parameter int unsigned DescDepth  = 4,
  parameter int unsigned TimeWidth  = 32,
  // Derived, do not override.
  parameter int unsigned Bytes      = DataWidth / 8
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  /// This NIC's fabric address (constant while enabled, protocol §1).
  input  logic [31:0]          nic_addr_i,
  /// `nic_enable`, sampled at each frame's last beat.
  input  logic                 enable_i,
  /// NIC time; a frame's `t_rx` is its value in the cycle the last beat is accepted.
  input  logic [TimeWidth-1:0] now_i,

  // Network receive stream (AXI4-Stream; first byte of a message in tdata[7:0]).
  input  logic                 s_axis_rx_tvalid_i,
  output logic                 s_axis_rx_tready_o,
  input  logic [DataWidth-1:0] s_axis_rx_tdata_i,
  input  logic [Bytes-1:0]     s_axis_rx_tkeep_i,
  input  logic                 s_axis_rx_tlast_i,

  // Initiator: RD_RESP, WR_RDREQ, WR_CMPL, NACK, AUTH_FAIL, ACCESS_ERR.
  output logic                 ini_desc_valid_o,
  input  logic                 ini_desc_ready_i,
  output onerma_pkg::hdr_t     ini_desc_hdr_o,
  output logic [127:0]         ini_desc_tag_o,
  output logic [TimeWidth-1:0] ini_desc_t_rx_o,
  output logic                 ini_pay_valid_o,
  input  logic                 ini_pay_ready_i,
  output logic [DataWidth-1:0] ini_pay_data_o,
  output logic [Bytes-1:0]     ini_pay_keep_o,
  output logic                 ini_pay_last_o,

  // Responder: RD_REQ, WR_REQ, REKEY_REQ, WR_DATA.
  output logic                 rsp_desc_valid_o,
  input  logic                 rsp_desc_ready_i,
  output onerma_pkg::hdr_t     rsp_desc_hdr_o,
  output logic [127:0]         rsp_desc_tag_o,
  output logic [TimeWidth-1:0] rsp_desc_t_rx_o,
  output logic                 rsp_pay_valid_o,
  input  logic                 rsp_pay_ready_i,
  output logic [DataWidth-1:0] rsp_pay_data_o,
  output logic [Bytes-1:0]     rsp_pay_keep_o,
  output logic                 rsp_pay_last_o,

  // Counter pulses (protocol §12).
  output logic                 drop_malformed_o,
  output logic                 drop_misaddressed_o,
  /// Every frame whose last beat came before this time has had its verdict taken (its
  /// descriptor handed on, or its drop decided): the `t_rx` of the oldest frame still in the
  /// descriptor FIFO, else now. A server acts on a write context's deadline only once this has
  /// passed it, so a WR_DATA that arrived in time is judged before its context expires.
  output logic [TimeWidth-1:0] judged_o
);

  import onerma_pkg::*;

  localparam int unsigned HdrBeats     = HdrBytes / Bytes;
  localparam int unsigned MaxFrame     = HdrBytes + ChunkBytes + TagBytes;
  /// Beats of the longest legal frame; a frame with a beat beyond them is oversize.
  localparam int unsigned MaxBeats     = (MaxFrame + Bytes - 1) / Bytes;
  localparam int unsigned MaxPayBeats  = ChunkBytes / Bytes;
  localparam int unsigned BeatW        = $clog2(MaxBeats + 1);
  localparam int unsigned LaneW        = $clog2(Bytes);
  localparam int unsigned LenW         = 17;
  localparam int unsigned ChunkW       = $clog2(ChunkBytes);

  if (DataWidth != 128 && DataWidth != 256 && DataWidth != 512) begin : g_bad_width
    $error("onerma_rx_parse: DataWidth must be 128, 256 or 512");
  end
  if (ChunkBytes < Bytes || ChunkBytes % Bytes != 0 || (ChunkBytes & (ChunkBytes - 1)) != 0)
  begin : g_bad_chunk
    $error("onerma_rx_parse: ChunkBytes must be a power of two and a multiple of Bytes");
  end
  if (BufBeats < MaxPayBeats) begin : g_bad_buf
    $error("onerma_rx_parse: BufBeats must hold one maximal payload (ChunkBytes * 8 / DataWidth)");
  end

  onerma_pkg::hdr_t hdr_next;  // the header with the offered beat in its place

  // ---------------------------------------------------------------------------------------------
  // §3.3 on a header alone (wire::well_formed, plus what Hdr::from_bytes refuses: unknown enums
  // and nonzero reserved bits).
  // Evaluated on hdr_next, the header as it completes.
  logic hdr_good;
  always_comb begin : p_hdr_checks
    logic [7:0]  mt, ot, st;
    logic [31:0] len, off, size;
    logic        known, payload, len_ok, chunk_ok, op_ok, status_ok, prev_ok, ctx_ok, hold_ok;
    logic        hop1;
    mt = 8'(hdr_next.msg_type);
    ot = 8'(hdr_next.op_type);
    st = 8'(hdr_next.status);
    known = mt >= 8'(MsgTypeRdReq) && mt <= 8'(MsgTypeAccessErr) && ot >= 8'(OpTypeRead) &&
            ot <= 8'(OpTypeRekey) && st <= 8'(StatusBadCommand) &&
            hdr_next.rsvd0 == '0 && hdr_next.rsvd1 == '0;
    len     = 32'(hdr_next.length);
    off     = 32'(hdr_next.chunk_offset);
    len_ok  = len != 0 && len <= MaxOpBytes;
    payload = mt == 8'(MsgTypeRdResp) || mt == 8'(MsgTypeWrData);
    // Size of chunk off / ChunkBytes of an op of len bytes (0 beyond its end), as wire::chunk_len.
    size = (off >= len) ? 32'd0 : ((len - off > ChunkBytes) ? 32'(ChunkBytes) : len - off);
    if (payload) begin
      // A chunk at or beyond the op's end does not exist (protocol §3.3).
      chunk_ok = off[ChunkW-1:0] == '0 && off < len && 32'(hdr_next.chunk_len) == size;
    end else begin
      chunk_ok = hdr_next.chunk_len == '0 && hdr_next.chunk_offset == '0;
    end
    unique case (mt)
      8'(MsgTypeRdReq), 8'(MsgTypeRdResp): op_ok = ot == 8'(OpTypeRead);
      8'(MsgTypeWrReq): op_ok = ot == 8'(OpTypeWrite);
      8'(MsgTypeRekeyReq): op_ok = ot == 8'(OpTypeRekey);
      8'(MsgTypeWrRdreq), 8'(MsgTypeWrData), 8'(MsgTypeWrCmpl):
        op_ok = ot == 8'(OpTypeWrite) || ot == 8'(OpTypeRekey);
      default: op_ok = 1'b1;
    endcase
    unique case (mt)
      8'(MsgTypeWrCmpl): status_ok = st == 8'(StatusOk) || st == 8'(StatusRemoteAccessError);
      8'(MsgTypeNack): status_ok = st == 8'(StatusNack);
      8'(MsgTypeAuthFail): status_ok = st == 8'(StatusRemoteAuthenticationFailure);
      8'(MsgTypeAccessErr): status_ok = st == 8'(StatusRemoteAccessError);
      default: status_ok = st == 8'(StatusOk);
    endcase
    hop1    = mt == 8'(MsgTypeRdReq) || mt == 8'(MsgTypeWrReq) || mt == 8'(MsgTypeRekeyReq);
    prev_ok = !hop1 || hdr_next.prev_counter == '0;
    ctx_ok  = mt == 8'(MsgTypeWrRdreq) || mt == 8'(MsgTypeWrData) || mt == 8'(MsgTypeWrCmpl) ||
              hdr_next.ctx == '0;
    hold_ok = mt == 8'(MsgTypeWrRdreq) || hdr_next.hold_ns == '0;
    hdr_good = known && len_ok && chunk_ok && op_ok && status_ok && prev_ok && ctx_ok && hold_ok;
  end

  // Messages for the initiator; every other known type goes to the responder.
  function automatic logic for_initiator(logic [7:0] mt);
    return mt == 8'(MsgTypeRdResp) || mt == 8'(MsgTypeWrRdreq) || mt == 8'(MsgTypeWrCmpl) ||
           mt == 8'(MsgTypeNack) || mt == 8'(MsgTypeAuthFail) || mt == 8'(MsgTypeAccessErr);
  endfunction

  // ---------------------------------------------------------------------------------------------
  // Input side.
  typedef struct packed {
    logic                 fwd;       // forwarded (else dropped with stored beats to discard)
    logic                 to_ini;    // destination: initiator (else responder)
    logic                 has_data;  // stored beats follow in the data FIFO
    hdr_t                 hdr;
    logic [127:0]         tag;
    logic [TimeWidth-1:0] t_rx;
  } verdict_t;

  typedef struct packed {
    logic                 last;      // the frame's last stored beat
    logic [DataWidth-1:0] data;
  } beat_t;

  logic                 in_fire, in_last;
  logic [BeatW-1:0]     beat_q;          // index of the beat being offered (saturates)
  logic                 bad_keep_q;      // a beat before the last had tkeep != all ones
  logic                 stored_q;        // a beat of this frame was stored
  hdr_t                 hdr_q;           // the header (datapath, not reset)
  logic                 hdr_ok_q, dst_ok_q, to_ini_q;
  logic [BeatW-1:0]     pay_beats_q;     // ceil(chunk_len / Bytes), meaningful when hdr_ok_q
  logic [LenW-1:0]      exp_len_q;       // 80 + chunk_len
  logic [127:0]         prev16_q;        // the last 16 lanes of the previous beat
  logic [DataWidth-1:0] swapped;         // the beat, byte 0 in the most significant bits
  logic                 hdr_beat_last, in_hdr_done, store_beat, end_beat;
  logic                 keep_full, keep_prefix, malformed, misaddressed, fwd, has_data;
  logic [LaneW:0]       n_bytes;
  logic [LenW-1:0]      frame_len;
  logic [127:0]         tag;
  logic                 df_in_ready, vf_in_ready, df_push, vf_push;
  verdict_t             vf_in;
  beat_t                df_in;
  logic                 drop_mal_q, drop_mis_q;

  for (genvar i = 0; i < Bytes; i++) begin : g_swap
    assign swapped[DataWidth-1-8*i -: 8] = s_axis_rx_tdata_i[8*i +: 8];
  end

  assign in_fire       = s_axis_rx_tvalid_i && s_axis_rx_tready_o;
  assign in_last       = s_axis_rx_tlast_i;
  assign hdr_beat_last = beat_q == BeatW'(HdrBeats - 1);
  assign in_hdr_done   = beat_q >= BeatW'(HdrBeats);

  // The header with the offered beat in its place (used at the header's last beat).
  always_comb begin
    hdr_next = hdr_q;
    for (int unsigned b = 0; b < HdrBeats; b++) begin
      if (beat_q == BeatW'(b)) begin
        hdr_next[HdrTBits-1-b*DataWidth -: DataWidth] = swapped;
      end
    end
  end

  // A payload beat claimed by a header that passed: stored. Nothing else is.
  assign store_beat = in_hdr_done && hdr_ok_q && dst_ok_q &&
                      beat_q < BeatW'(HdrBeats) + pay_beats_q;
  assign end_beat   = in_last || beat_q == BeatW'(HdrBeats) + pay_beats_q - 1'b1;

  // tkeep: all ones before the last beat; a non-empty prefix (lanes 0..k) on the last.
  assign keep_full   = &s_axis_rx_tkeep_i;
  assign keep_prefix = s_axis_rx_tkeep_i[0] &&
                       (s_axis_rx_tkeep_i & (s_axis_rx_tkeep_i + 1'b1)) == '0;
  always_comb begin
    n_bytes = '0;
    for (int unsigned i = 0; i < Bytes; i++) begin
      if (s_axis_rx_tkeep_i[i]) n_bytes = (LaneW + 1)'(i + 1);
    end
  end
  assign frame_len = (LenW'(beat_q) << LaneW) + LenW'(n_bytes);

  // Verdict at the last beat: wire::parse (short, length, header rules, which include
  // chunk_len <= ChunkBytes and so bound the length), plus oversize and tkeep; then dst_nic.
  assign malformed    = !in_hdr_done || !hdr_ok_q || beat_q == BeatW'(MaxBeats) ||
                        bad_keep_q || !keep_prefix || frame_len != exp_len_q;
  assign misaddressed = !malformed && !(dst_ok_q && enable_i);
  assign fwd          = !malformed && dst_ok_q && enable_i;
  assign has_data     = stored_q || store_beat;

  // The tag: the last 16 bytes of {previous beat's last 16 lanes, this beat's n_bytes lanes}.
  // An AND-OR select on the one-hot end of the tkeep prefix (a priority chain of 2:1 muxes over
  // the Bytes positions cost 4x the LUTs at 512 bits).
  logic [Bytes:1]          tag_at;  // tag_at[n]: the last beat has n valid lanes
  logic [8*(16+Bytes)-1:0] tag_win; // byte k of the window in bits [8k +: 8]
  assign tag_win = {s_axis_rx_tdata_i, prev16_q};
  for (genvar n = 1; n <= Bytes; n++) begin : g_tag_at
    if (n < Bytes) begin : g_mid
      assign tag_at[n] = s_axis_rx_tkeep_i[n-1] && !s_axis_rx_tkeep_i[n];
    end else begin : g_top
      assign tag_at[n] = s_axis_rx_tkeep_i[n-1];
    end
  end
  always_comb begin
    tag = '0;
    for (int unsigned n = 1; n <= Bytes; n++) begin
      for (int unsigned t = 0; t < 16; t++) begin
        tag[127-8*t -: 8] |= tag_win[8*(n+t) +: 8] & {8{tag_at[n]}};
      end
    end
  end

  assign df_push = in_fire && store_beat;
  assign vf_push = in_fire && in_last && (fwd || has_data);
  // Ready from flops only: the descriptor FIFO must have room at every beat (so a last beat is
  // never refused for it), the data FIFO at a beat that is stored.
  assign s_axis_rx_tready_o = vf_in_ready && (!store_beat || df_in_ready);

  assign df_in = '{last: end_beat, data: s_axis_rx_tdata_i};
  assign vf_in = '{fwd: fwd, to_ini: to_ini_q, has_data: has_data, hdr: hdr_q, tag: tag,
                   t_rx: now_i};

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      beat_q     <= '0;
      bad_keep_q <= 1'b0;
      stored_q   <= 1'b0;
      hdr_ok_q   <= 1'b0;
      dst_ok_q   <= 1'b0;
      drop_mal_q <= 1'b0;
      drop_mis_q <= 1'b0;
    end else begin
      drop_mal_q <= in_fire && in_last && malformed;
      drop_mis_q <= in_fire && in_last && misaddressed;
      if (in_fire) begin
        if (in_last) begin
          beat_q     <= '0;
          bad_keep_q <= 1'b0;
          stored_q   <= 1'b0;
          hdr_ok_q   <= 1'b0;
          dst_ok_q   <= 1'b0;
        end else begin
          if (beat_q != BeatW'(MaxBeats)) beat_q <= beat_q + 1'b1;
          if (!keep_full) bad_keep_q <= 1'b1;
          if (store_beat) stored_q <= 1'b1;
          if (hdr_beat_last) begin
            hdr_ok_q <= hdr_good;
            dst_ok_q <= hdr_next.dst_nic == nic_addr_i;
          end
        end
      end
    end
  end

  // Datapath registers (read only when the control state says they belong to this frame).
  always_ff @(posedge clk_i) begin
    if (in_fire) begin
      prev16_q <= s_axis_rx_tdata_i[DataWidth-1 -: 128];
      if (!in_hdr_done) hdr_q <= hdr_next;
      if (hdr_beat_last) begin
        to_ini_q    <= for_initiator(8'(hdr_next.msg_type));
        pay_beats_q <= BeatW'((32'(hdr_next.chunk_len) + Bytes - 1) >> LaneW);
        exp_len_q   <= LenW'(HdrBytes + TagBytes) + LenW'(hdr_next.chunk_len);
      end
    end
  end

  assign drop_malformed_o    = drop_mal_q;
  assign drop_misaddressed_o = drop_mis_q;

  // ---------------------------------------------------------------------------------------------
  // Buffers.
  logic     df_out_valid, df_pop, vf_out_valid, vf_pop;
  beat_t    df_out;
  verdict_t vf_out;
  logic [$clog2(BufBeats + 1)-1:0]  df_count;
  logic [$clog2(DescDepth + 1)-1:0] vf_count;

  onerma_fifo #(
    .Depth(BufBeats),
    .T    (beat_t)
  ) u_data (
    .clk_i,
    .rst_ni,
    .flush_i    (1'b0),
    .in_valid_i (df_push),
    .in_ready_o (df_in_ready),
    .in_data_i  (df_in),
    .out_valid_o(df_out_valid),
    .out_ready_i(df_pop),
    .out_data_o (df_out),
    .count_o    (df_count)
  );

  onerma_fifo #(
    .Depth(DescDepth),
    .T    (verdict_t)
  ) u_desc (
    .clk_i,
    .rst_ni,
    .flush_i    (1'b0),
    .in_valid_i (vf_push),
    .in_ready_o (vf_in_ready),
    .in_data_i  (vf_in),
    .out_valid_o(vf_out_valid),
    .out_ready_i(vf_pop),
    .out_data_o (vf_out),
    .count_o    (vf_count)
  );

  // ---------------------------------------------------------------------------------------------
  // Output side: steer the head frame.
  logic           desc_sent_q;   // the head frame's descriptor was accepted
  logic           desc_valid, desc_ready, desc_fire, data_phase, pay_valid, pay_ready;
  logic [Bytes-1:0] tail_keep;
  logic [LaneW-1:0] tail;

  assign desc_valid = vf_out_valid && vf_out.fwd && !desc_sent_q;
  assign desc_ready = vf_out.to_ini ? ini_desc_ready_i : rsp_desc_ready_i;
  assign desc_fire  = desc_valid && desc_ready;
  assign data_phase = vf_out_valid && vf_out.has_data && (desc_sent_q || !vf_out.fwd);
  assign pay_valid  = data_phase && vf_out.fwd && df_out_valid;
  assign pay_ready  = vf_out.to_ini ? ini_pay_ready_i : rsp_pay_ready_i;
  assign df_pop     = data_phase && df_out_valid && (!vf_out.fwd || pay_ready);
  assign vf_pop     = (desc_fire && !vf_out.has_data) || (df_pop && df_out.last);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      desc_sent_q <= 1'b0;
    end else if (vf_pop) begin
      desc_sent_q <= 1'b0;
    end else if (desc_fire) begin
      desc_sent_q <= 1'b1;
    end
  end

  assign tail      = vf_out.hdr.chunk_len[LaneW-1:0];
  assign tail_keep = (tail == '0) ? '1 : ~({Bytes{1'b1}} << tail);

  assign judged_o = vf_out_valid ? vf_out.t_rx : now_i;

  assign ini_desc_valid_o = desc_valid && vf_out.to_ini;
  assign rsp_desc_valid_o = desc_valid && !vf_out.to_ini;
  assign ini_desc_hdr_o   = vf_out.hdr;
  assign rsp_desc_hdr_o   = vf_out.hdr;
  assign ini_desc_tag_o   = vf_out.tag;
  assign rsp_desc_tag_o   = vf_out.tag;
  assign ini_desc_t_rx_o  = vf_out.t_rx;
  assign rsp_desc_t_rx_o  = vf_out.t_rx;

  assign ini_pay_valid_o  = pay_valid && vf_out.to_ini;
  assign rsp_pay_valid_o  = pay_valid && !vf_out.to_ini;
  assign ini_pay_data_o   = df_out.data;
  assign rsp_pay_data_o   = df_out.data;
  assign ini_pay_keep_o   = df_out.last ? tail_keep : '1;
  assign rsp_pay_keep_o   = df_out.last ? tail_keep : '1;
  assign ini_pay_last_o   = df_out.last;
  assign rsp_pay_last_o   = df_out.last;

  // Occupancy is not needed: ready comes from the FIFOs' own flags.
  logic unused_counts;
  assign unused_counts = ^{df_count, vf_count};

`ifndef SYNTHESIS
  // The stream rules on the input (assumed of the network side) and on every output, in every
  // simulation (Verilator `--assert`); the proof binds its own copies.
  onerma_stream_check #(
    .Width(DataWidth + Bytes + 1)
  ) u_in_check (
    .clk_i,
    .rst_ni,
    .valid_i(s_axis_rx_tvalid_i),
    .ready_i(s_axis_rx_tready_o),
    .data_i ({s_axis_rx_tdata_i, s_axis_rx_tkeep_i, s_axis_rx_tlast_i})
  );
  onerma_stream_check #(
    .Width(HdrTBits + 128 + TimeWidth)
  ) u_ini_desc_check (
    .clk_i,
    .rst_ni,
    .valid_i(ini_desc_valid_o),
    .ready_i(ini_desc_ready_i),
    .data_i ({ini_desc_hdr_o, ini_desc_tag_o, ini_desc_t_rx_o})
  );
  onerma_stream_check #(
    .Width(HdrTBits + 128 + TimeWidth)
  ) u_rsp_desc_check (
    .clk_i,
    .rst_ni,
    .valid_i(rsp_desc_valid_o),
    .ready_i(rsp_desc_ready_i),
    .data_i ({rsp_desc_hdr_o, rsp_desc_tag_o, rsp_desc_t_rx_o})
  );
  onerma_stream_check #(
    .Width(DataWidth + Bytes + 1)
  ) u_ini_pay_check (
    .clk_i,
    .rst_ni,
    .valid_i(ini_pay_valid_o),
    .ready_i(ini_pay_ready_i),
    .data_i ({ini_pay_data_o, ini_pay_keep_o, ini_pay_last_o})
  );
  onerma_stream_check #(
    .Width(DataWidth + Bytes + 1)
  ) u_rsp_pay_check (
    .clk_i,
    .rst_ni,
    .valid_i(rsp_pay_valid_o),
    .ready_i(rsp_pay_ready_i),
    .data_i ({rsp_pay_data_o, rsp_pay_keep_o, rsp_pay_last_o})
  );
`endif

endmodule

`default_nettype wire
