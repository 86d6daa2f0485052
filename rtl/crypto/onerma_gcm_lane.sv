`default_nettype none

/// One AES-GCM engine (onerma_gcm_engine) behind word-wide data streams: din and dout carry
/// Lanes 128-bit beats per word, so a pool of Lanes engines can take and give a DataWidth
/// (= Lanes x 128 bits) stream at full rate. Theory of operation: docs/crypto.md, section
/// "Wide lanes (onerma_gcm_lane)".
///
/// Data formats (the engine's four streams, with din and dout widened):
/// - desc (desc_t): as the engine's. Taken only when the word buffer can hold the message's
///   words on top of every word already promised to it (at most WordDepth of them), so that once
///   a pool has handed a message to this lane its words never wait for the engine.
/// - din (wdin_t): the message's AAD words, then its payload words; each part starts in a new
///   word; beat j of a word in bits [(Lanes-j)*128-1 -: 128] (byte 0 of the word in the top
///   byte, the GCM beats' big-endian order continued across the word); a part's last word holds
///   ceil(part bytes / 16) mod Lanes beats (Lanes if 0), the rest is ignored. A word may come
///   only after its message's descriptor was taken (a pool routes words by descriptor).
/// - dout (wdout_t): the engine's payload beats packed Lanes to a word, the same beat order;
///   the word with the message's last beat carries last and is the only one that may be short
///   (the beats after it are zero); every beat of a word is of one message (meta).
/// - res (res_t): as the engine's, and never before the word with the message's last beat has
///   left on dout (the engine's own order, kept across the packing).
///
/// AbstractEngine = 1 (formal/ only) puts onerma_gcm_engine_abstract in place of the engine: it
/// echoes every din beat, AAD included, on dout.
module onerma_gcm_lane #(
  /// A power of two (1, 2, 4, ...): words are counted with shifts.
  parameter int unsigned Lanes          = 4,
  /// Words the input buffer holds. 34 holds two messages of a 64-byte header and a 1 KB payload
  /// at Lanes 4 (2 x 17 words), or one with a 2 KB chunk (33 words): the next descriptor is
  /// admitted while the previous message drains, so the engine's keystream is ready when its
  /// words arrive (docs/crypto.md). A longer message is admitted into an empty buffer.
  parameter int unsigned WordDepth      = 34,
  parameter bit          Pipelined      = 1'b1,
  parameter bit          SboxRam        = 1'b1,
  parameter int unsigned NumStages      = 4,
  parameter int unsigned LenW           = 16,
  parameter int unsigned InDepth        = 2,
  parameter int unsigned MsgDepth       = 8,
  parameter bit          AbstractEngine = 1'b0,
  parameter type         meta_t         = logic [7:0],
  parameter type         desc_t         = struct packed {
    logic [127:0]    key;
    logic [95:0]     iv;
    logic [LenW-1:0] aad_len;
    logic [LenW-1:0] pt_len;
    logic            decrypt;
    logic [127:0]    tag;
    meta_t           meta;
  },
  /// The engine's beat-wide dout payload.
  parameter type         dout_t         = struct packed {
    logic [127:0] data;
    logic         last;
    meta_t        meta;
  },
  parameter type         res_t          = struct packed {
    logic [127:0] tag;
    logic         auth_ok;
    meta_t        meta;
  },
  parameter type         wdin_t         = struct packed {
    logic [Lanes*128-1:0] data;
  },
  parameter type         wdout_t        = struct packed {
    logic [Lanes*128-1:0] data;
    logic                 last;
    meta_t                meta;
  },
  /// Messages taken and not yet given their result (the order FIFO of "has dout").
  parameter int unsigned FlagDepth      = MsgDepth + 4
) (
  input  logic   clk_i,
  input  logic   rst_ni,

  input  logic   desc_valid_i,
  output logic   desc_ready_o,
  input  desc_t  desc_data_i,

  input  logic   din_valid_i,
  output logic   din_ready_o,
  input  wdin_t  din_data_i,

  output logic   dout_valid_o,
  input  logic   dout_ready_i,
  output wdout_t dout_data_o,

  output logic   res_valid_o,
  input  logic   res_ready_i,
  output res_t   res_data_o
);

  localparam int unsigned BeatW  = LenW - 2;   // beats of one part
  localparam int unsigned LaneW  = (Lanes > 1) ? $clog2(Lanes) : 1;
  localparam int unsigned LogL   = $clog2(Lanes);
  localparam int unsigned CntW   = $clog2(WordDepth + 1);
  // Signed room: promised words may exceed the free entries while a message longer than the
  // buffer streams through it.
  localparam int unsigned RoomW  = BeatW + 3;
  localparam int unsigned FlagCW = $clog2(FlagDepth + 1);

  if ((1 << LogL) != Lanes) begin : g_lanes_pow2
    $error("onerma_gcm_lane: Lanes must be a power of two");
  end

  typedef struct packed {
    logic [BeatW-1:0] aad;  // AAD beats
    logic [BeatW-1:0] pt;   // payload beats
  } parts_t;

  function automatic logic [BeatW-1:0] beats(input logic [LenW-1:0] len);
    return BeatW'(onerma_gcm_pkg::beat_count(32'(len)));
  endfunction

  function automatic logic [BeatW-1:0] words(input logic [BeatW-1:0] n);
    return BeatW'(({1'b0, n} + (BeatW+1)'(Lanes - 1)) >> LogL);
  endfunction

  // ---------------------------------------------------------------------------------------------
  // Descriptor admission: engine ready, both order FIFOs ready, and room for the words.
  // ---------------------------------------------------------------------------------------------
  logic                    e_desc_valid, e_desc_ready;
  logic                    info_in_ready, flag_in_ready, desc_go;
  parts_t                  desc_parts;
  logic [BeatW-1:0]        desc_words, desc_need;
  logic [CntW-1:0]         buf_count;
  logic signed [RoomW-1:0] promised_q, room;
  logic                    word_go;
  logic                    has_dout;

  assign desc_parts = '{aad: beats(desc_data_i.aad_len), pt: beats(desc_data_i.pt_len)};
  assign desc_words = words(desc_parts.aad) + words(desc_parts.pt);
  assign desc_need  = (32'(desc_words) > WordDepth) ? BeatW'(WordDepth) : desc_words;
  assign room       = RoomW'(WordDepth) - RoomW'(buf_count) - promised_q;
  assign has_dout   = AbstractEngine ? ((desc_parts.aad | desc_parts.pt) != '0)
                                     : (desc_parts.pt != '0);

  assign desc_ready_o = e_desc_ready && info_in_ready && flag_in_ready &&
                        (room >= RoomW'(desc_need));
  assign desc_go      = desc_valid_i && desc_ready_o;
  assign e_desc_valid = desc_go;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      promised_q <= '0;
    end else begin
      promised_q <= promised_q + (desc_go ? RoomW'(desc_words) : '0) - RoomW'(word_go);
    end
  end

  // ---------------------------------------------------------------------------------------------
  // Word buffer and serializer.
  // ---------------------------------------------------------------------------------------------
  logic   buf_valid, buf_pop;
  wdin_t  buf_word;
  logic   info_valid, info_pop;
  parts_t info;

  onerma_fifo #(
    .T    (wdin_t),
    .Depth(WordDepth)
  ) u_words (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .flush_i    (1'b0),
    .in_valid_i (din_valid_i),
    .in_ready_o (din_ready_o),
    .in_data_i  (din_data_i),
    .out_valid_o(buf_valid),
    .out_ready_i(buf_pop),
    .out_data_o (buf_word),
    .count_o    (buf_count)
  );

  assign word_go = din_valid_i && din_ready_o;

  onerma_fifo #(
    .T    (parts_t),
    .Depth(FlagDepth)
  ) u_info (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .flush_i    (1'b0),
    .in_valid_i (desc_go),
    .in_ready_o (info_in_ready),
    .in_data_i  (desc_parts),
    .out_valid_o(info_valid),
    .out_ready_i(info_pop),
    .out_data_o (info),
    /* verilator lint_off PINCONNECTEMPTY */
    .count_o    ()
    /* verilator lint_on PINCONNECTEMPTY */
  );

  // ph_q: 0 while in the AAD part. An empty AAD part is skipped at once.
  logic             ph_q, in_pt, part_end, msg_end;
  logic [BeatW-1:0] cnt_q, part_beats;
  logic [LaneW-1:0] lane_q;
  logic             e_din_valid, e_din_ready, beat_go;
  onerma_gcm_pkg::din_t e_din;

  assign in_pt      = ph_q || (info.aad == '0);
  assign part_beats = in_pt ? info.pt : info.aad;
  assign part_end   = (cnt_q == part_beats - BeatW'(1));
  assign msg_end    = in_pt || (info.pt == '0);

  assign e_din_valid = buf_valid && info_valid && (part_beats != '0);
  assign e_din.data  = buf_word.data[(Lanes - 1 - 32'(lane_q)) * 128 +: 128];
  assign beat_go     = e_din_valid && e_din_ready;
  assign buf_pop     = beat_go && (part_end || (32'(lane_q) == Lanes - 1));
  // A message without beats leaves the info FIFO at once; the others at their last beat.
  assign info_pop    = info_valid && ((part_beats == '0) || (beat_go && part_end && msg_end));

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ph_q   <= 1'b0;
      cnt_q  <= '0;
      lane_q <= '0;
    end else if (beat_go) begin
      if (part_end) begin
        cnt_q  <= '0;
        lane_q <= '0;
        ph_q   <= !msg_end;
      end else begin
        cnt_q  <= cnt_q + BeatW'(1);
        lane_q <= (32'(lane_q) == Lanes - 1) ? '0 : lane_q + LaneW'(1);
      end
    end
  end

  // ---------------------------------------------------------------------------------------------
  // Engine.
  // ---------------------------------------------------------------------------------------------
  logic  e_dout_valid, e_dout_ready, e_res_valid, e_res_ready;
  dout_t e_dout;
  res_t  e_res;

  if (AbstractEngine) begin : g_abstract
    onerma_gcm_engine_abstract #(
      .LenW  (LenW),
      .meta_t(meta_t),
      .desc_t(desc_t),
      .dout_t(dout_t),
      .res_t (res_t)
    ) u_engine (
      .clk_i       (clk_i),
      .rst_ni      (rst_ni),
      .desc_valid_i(e_desc_valid),
      .desc_ready_o(e_desc_ready),
      .desc_data_i (desc_data_i),
      .din_valid_i (e_din_valid),
      .din_ready_o (e_din_ready),
      .din_data_i  (e_din),
      .dout_valid_o(e_dout_valid),
      .dout_ready_i(e_dout_ready),
      .dout_data_o (e_dout),
      .res_valid_o (e_res_valid),
      .res_ready_i (e_res_ready),
      .res_data_o  (e_res)
    );
  end else begin : g_real
    onerma_gcm_engine #(
      .Pipelined(Pipelined),
      .SboxRam  (SboxRam),
      .NumStages(NumStages),
      .LenW     (LenW),
      .InDepth  (InDepth),
      .MsgDepth (MsgDepth),
      .meta_t   (meta_t),
      .desc_t   (desc_t),
      .dout_t   (dout_t),
      .res_t    (res_t)
    ) u_engine (
      .clk_i       (clk_i),
      .rst_ni      (rst_ni),
      .desc_valid_i(e_desc_valid),
      .desc_ready_o(e_desc_ready),
      .desc_data_i (desc_data_i),
      .din_valid_i (e_din_valid),
      .din_ready_o (e_din_ready),
      .din_data_i  (e_din),
      .dout_valid_o(e_dout_valid),
      .dout_ready_i(e_dout_ready),
      .dout_data_o (e_dout),
      .res_valid_o (e_res_valid),
      .res_ready_i (e_res_ready),
      .res_data_o  (e_res)
    );
  end

  // ---------------------------------------------------------------------------------------------
  // Packer: the engine's dout beats into words. The word register is the output register; a
  // new word's first beat may enter in the cycle the full word leaves.
  // ---------------------------------------------------------------------------------------------
  logic                 full_q, last_q, out_go, fill, pk_go;
  logic [LaneW-1:0]     n_q;
  logic [Lanes*128-1:0] acc_q;
  meta_t                meta_q;

  assign out_go       = full_q && dout_ready_i;
  assign e_dout_ready = !full_q || dout_ready_i;
  assign pk_go        = e_dout_valid && e_dout_ready;
  assign fill         = e_dout.last || (32'(n_q) == Lanes - 1);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      full_q <= 1'b0;
      n_q    <= '0;
    end else begin
      if (pk_go) begin
        full_q <= fill;
        n_q    <= fill ? '0 : n_q + LaneW'(1);
      end else if (out_go) begin
        full_q <= 1'b0;
      end
    end
  end

  // Datapath registers: no reset (docs/architecture.md).
  always_ff @(posedge clk_i) begin
    if (pk_go) begin
      if (n_q == '0) begin
        acc_q <= {e_dout.data, {(Lanes - 1) * 128{1'b0}}};
      end else begin
        acc_q[(Lanes - 1 - 32'(n_q)) * 128 +: 128] <= e_dout.data;
      end
      last_q <= e_dout.last;
      meta_q <= e_dout.meta;
    end
  end

  assign dout_valid_o = full_q;
  assign dout_data_o  = '{data: acc_q, last: last_q, meta: meta_q};

  // ---------------------------------------------------------------------------------------------
  // Results: in message order, each after its last word has left. lasts_q counts last words that
  // left minus results of messages with dout that left (each message with dout has one).
  // ---------------------------------------------------------------------------------------------
  logic              flag_valid, flag, res_go, last_out;
  logic [FlagCW-1:0] lasts_q;

  onerma_fifo #(
    .T    (logic),
    .Depth(FlagDepth)
  ) u_flags (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .flush_i    (1'b0),
    .in_valid_i (desc_go),
    .in_ready_o (flag_in_ready),
    .in_data_i  (has_dout),
    .out_valid_o(flag_valid),
    .out_ready_i(res_go),
    .out_data_o (flag),
    /* verilator lint_off PINCONNECTEMPTY */
    .count_o    ()
    /* verilator lint_on PINCONNECTEMPTY */
  );

  assign last_out    = out_go && last_q;
  assign res_valid_o = e_res_valid && flag_valid && (!flag || (lasts_q != '0));
  assign e_res_ready = res_ready_i && flag_valid && (!flag || (lasts_q != '0));
  assign res_go      = res_valid_o && res_ready_i;
  assign res_data_o  = e_res;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      lasts_q <= '0;
    end else begin
      lasts_q <= lasts_q + FlagCW'(last_out) - FlagCW'(res_go && flag);
    end
  end

endmodule

`default_nettype wire
