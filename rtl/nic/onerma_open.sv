`default_nettype none

/// Receive opener: hands each accepted frame to the GCM pool for authentication and decryption
/// (protocol.md §3.1, §3.2): descriptor `{K, iv = {src_nic, counter}, aad_len 64, pt_len =
/// chunk_len, decrypt, tag}`, then the header (the AAD) and the payload as din words of the
/// pool's format (`Lanes` 128-bit beats per word, docs/crypto.md "Wide lanes"). The plaintext and
/// the result come back from the pool (through `onerma_gcm_mux`) with the job's meta and go
/// straight to their users; this block only feeds the pool.
///
/// - Job `{hdr, tag, key, meta}` (valid/ready), then, iff `hdr.chunk_len != 0`, its payload:
///   exactly ceil(chunk_len / (DataWidth/8)) beats in AXI lane order (byte 0 in bits [7:0]),
///   `last` on the final one (what `onerma_rx_parse` delivers). Jobs and payloads in the same
///   order.
/// - **Words** (`Lanes` = L, 1 or DataWidth/128): a din word holds L beats of one part, beat 0 in
///   the top bits and GCM byte order within it, so a word is its bytes in order from the top
///   byte down; each part starts in a new word. The header is 4/L words (word k =
///   `hdr[511 - 128*L*k -: 128*L]`). A payload beat is DataWidth/(128*L) words: at L = 1 it is
///   split into 16-byte beats, at L = DataWidth/128 it is exactly one word, its bytes reversed
///   (payload byte j to word bits [128*L-1-8j -: 8]); a chunk's last beat is then its part's
///   last word and no splitting or packing is needed. The two settings are the only ones where
///   a payload beat is a whole number of words.
/// - **Staging** (the GCM sharing contract, docs/nic.md): a message's descriptor is offered only
///   when all of its payload is in this block's stage FIFO, so its words then follow at one per
///   cycle and never hold the pool's shared stream. The stage holds `StageBeats` 16-byte beats
///   (>= ChunkBytes / 16, one whole chunk) as StageBeats/L words, and payload is taken whenever there is
///   room, whatever the pool does, so the receive edge never waits on the engines of another
///   client.
/// - One message at a time on the pool side: descriptor, then its 4/L + ceil(chunk_len / (16L))
///   words (the count the pool's route expects for aad_len 64, pt_len chunk_len).
module onerma_open #(
  /// Payload input width: 128, 256 or 512.
  parameter int unsigned DataWidth  = 512,
  parameter int unsigned MetaWidth  = 8,
  /// Stage FIFO in 16-byte beats; at least ChunkBytes / 16 (one chunk).
  parameter int unsigned StageBeats = 2 * onerma_pkg::ChunkBytes / 16,
  /// Jobs waiting (descriptor information and their payload length).
  parameter int unsigned JobDepth   = 2,
  parameter int unsigned LenW       = 16,
  /// 128-bit beats per din word: 1, or DataWidth/128 (a payload beat is then one word).
  parameter int unsigned Lanes      = 1,
  parameter type         desc_t     = struct packed {
    logic [127:0]         key;
    logic [95:0]          iv;
    logic [LenW-1:0]      aad_len;
    logic [LenW-1:0]      pt_len;
    logic                 decrypt;
    logic [127:0]         tag;
    logic [MetaWidth-1:0] meta;
  },
  /// The pool's din word (Lanes = 1: the layout of onerma_gcm_pkg::din_t).
  parameter type         wdin_t     = struct packed {
    logic [Lanes*128-1:0] data;
  }
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,

  input  logic                 job_valid_i,
  output logic                 job_ready_o,
  input  onerma_pkg::hdr_t     job_hdr_i,
  input  logic [127:0]         job_tag_i,
  input  logic [127:0]         job_key_i,
  input  logic [MetaWidth-1:0] job_meta_i,

  input  logic                 pay_valid_i,
  output logic                 pay_ready_o,
  input  logic [DataWidth-1:0] pay_data_i,
  input  logic                 pay_last_i,

  output logic                 desc_valid_o,
  input  logic                 desc_ready_i,
  output desc_t                desc_data_o,
  output logic                 din_valid_o,
  input  logic                 din_ready_i,
  output wdin_t                din_data_o
);

  localparam int unsigned WordW      = Lanes * 128;
  localparam int unsigned LanesW     = $clog2(Lanes);
  localparam int unsigned Rb         = DataWidth / WordW;  // din words per payload beat
  localparam int unsigned RbW        = (Rb > 1) ? $clog2(Rb) : 1;
  localparam int unsigned HdrWords   = 4 / Lanes;          // the 64-byte header in words
  localparam int unsigned HdrIdxW    = (HdrWords > 1) ? $clog2(HdrWords) : 1;
  localparam int unsigned StageWords = StageBeats / Lanes;
  localparam int unsigned StageCW    = $clog2(StageBeats + 1);
  localparam int unsigned ChunkBeats = onerma_pkg::ChunkBytes / 16;
  // A message's din words (header and one chunk) and a counter of them.
  localparam int unsigned WW         = $clog2(HdrWords + ChunkBeats / Lanes + 1);

  if (!(DataWidth == 128 || DataWidth == 256 || DataWidth == 512)) begin : g_bad_width
    $error("onerma_open: DataWidth must be 128, 256 or 512");
  end
  if (!(Lanes == 1 || Lanes == DataWidth / 128)) begin : g_bad_lanes
    $error("onerma_open: Lanes must be 1 or DataWidth/128");
  end
  if (StageBeats < ChunkBeats) begin : g_bad_stage
    $error("onerma_open: StageBeats must hold one chunk (ChunkBytes / 16 beats)");
  end

  typedef struct packed {
    onerma_pkg::hdr_t     hdr;
    logic [127:0]         tag;
    logic [127:0]         key;
    logic [MetaWidth-1:0] meta;
  } job_t;

  // din words of a payload of len bytes: ceil(len / (16 * Lanes)), the pool's count.
  function automatic logic [WW-1:0] words(input logic [15:0] len);
    return WW'((32'(len) + 32'(16 * Lanes) - 32'd1) >> (4 + LanesW));
  endfunction

  // ---------------------------------------------------------------------------------------------
  // Job queue and the filler's length queue, written together.
  // ---------------------------------------------------------------------------------------------
  logic jq_in_ready, lq_in_ready, job_fire;
  logic jq_valid, jq_pop;
  job_t jq_head;
  logic lq_valid, lq_pop;
  logic [WW-1:0] lq_head;

  assign job_ready_o = jq_in_ready && lq_in_ready;
  assign job_fire    = job_valid_i && job_ready_o;

  onerma_fifo #(
    .T    (job_t),
    .Depth(JobDepth)
  ) u_jq (
    .clk_i,
    .rst_ni,
    .flush_i    (1'b0),
    .in_valid_i (job_fire),
    .in_ready_o (jq_in_ready),
    .in_data_i  ('{hdr: job_hdr_i, tag: job_tag_i, key: job_key_i, meta: job_meta_i}),
    .out_valid_o(jq_valid),
    .out_ready_i(jq_pop),
    .out_data_o (jq_head),
    /* verilator lint_off PINCONNECTEMPTY */
    .count_o    ()
    /* verilator lint_on PINCONNECTEMPTY */
  );

  onerma_fifo #(
    .Width(WW),
    .Depth(JobDepth)
  ) u_lq (
    .clk_i,
    .rst_ni,
    .flush_i    (1'b0),
    .in_valid_i (job_fire),
    .in_ready_o (lq_in_ready),
    .in_data_i  (words(job_hdr_i.chunk_len)),
    .out_valid_o(lq_valid),
    .out_ready_i(lq_pop),
    .out_data_o (lq_head),
    /* verilator lint_off PINCONNECTEMPTY */
    .count_o    ()
    /* verilator lint_on PINCONNECTEMPTY */
  );

  // ---------------------------------------------------------------------------------------------
  // Filler: payload beats as din words (byte-swapped to GCM order) into the stage; at Lanes = 1
  // a payload beat is split into Rb words, else it is one.
  // ---------------------------------------------------------------------------------------------
  logic                 split_valid_q;
  logic [DataWidth-1:0] split_q;
  logic [RbW-1:0]       split_idx_q;
  logic [WW-1:0]           fill_q;          // words of the filling message staged so far
  logic                 pq_in_ready, pq_push, fill_done;
  logic [WordW-1:0]     pq_in;
  logic                 split_end;       // the held payload beat's last word goes now
  logic [StageCW-1:0]   staged_q;        // messages wholly staged, not yet described

  // The held payload beat's word k in GCM order (byte 0 of the word in its top byte).
  always_comb begin
    pq_in = '0;
    for (int unsigned k = 0; k < Rb; k++) begin
      if (split_idx_q == RbW'(k)) begin
        for (int unsigned b = 0; b < 16 * Lanes; b++) begin
          pq_in[WordW - 1 - 8*b -: 8] = split_q[WordW*k + 8*b +: 8];
        end
      end
    end
  end

  // A word is pushed while the filling message still needs beats; a zero-length message
  // is staged at once.
  assign pq_push     = split_valid_q && lq_valid && (fill_q < lq_head) && pq_in_ready;
  assign fill_done   = lq_valid && ((fill_q == lq_head) || (pq_push && fill_q + WW'(1) == lq_head));
  assign lq_pop      = fill_done;
  assign split_end   = pq_push && ((32'(split_idx_q) == Rb - 1) || (fill_q + WW'(1) == lq_head));
  assign pay_ready_o = !split_valid_q || split_end;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      split_valid_q <= 1'b0;
      split_idx_q   <= '0;
      fill_q        <= '0;
    end else begin
      if (pay_valid_i && pay_ready_o) begin
        split_valid_q <= 1'b1;
        split_idx_q   <= '0;
      end else if (split_end) begin
        split_valid_q <= 1'b0;
      end else if (pq_push) begin
        split_idx_q <= split_idx_q + RbW'(1);
      end
      if (fill_done) begin
        fill_q <= '0;
      end else if (pq_push) begin
        fill_q <= fill_q + WW'(1);
      end
    end
  end

  always_ff @(posedge clk_i) begin
    if (pay_valid_i && pay_ready_o) begin
      split_q <= pay_data_i;
    end
  end

  logic             pq_valid, pq_pop;
  logic [WordW-1:0] pq_head;

  onerma_fifo #(
    .Width(WordW),
    .Depth(StageWords)
  ) u_pq (
    .clk_i,
    .rst_ni,
    .flush_i    (1'b0),
    .in_valid_i (pq_push),
    .in_ready_o (pq_in_ready),
    .in_data_i  (pq_in),
    .out_valid_o(pq_valid),
    .out_ready_i(pq_pop),
    .out_data_o (pq_head),
    /* verilator lint_off PINCONNECTEMPTY */
    .count_o    ()
    /* verilator lint_on PINCONNECTEMPTY */
  );

  // ---------------------------------------------------------------------------------------------
  // Pool side: descriptor of the head job once staged, then its words.
  // ---------------------------------------------------------------------------------------------
  logic             in_msg_q;       // the head job's descriptor was taken; its words are going out
  logic [WW-1:0]       din_idx_q;      // words of the message sent so far (header, then payload)
  logic [WW-1:0]       din_total;
  logic             desc_fire, din_fire, din_last;
  logic [WordW-1:0] hdr_word;       // header word din_idx_q

  assign desc_valid_o = jq_valid && !in_msg_q && (staged_q != '0);
  assign desc_fire    = desc_valid_o && desc_ready_i;
  assign desc_data_o  = '{
    key:     jq_head.key,
    iv:      {jq_head.hdr.src_nic, jq_head.hdr.counter},
    aad_len: LenW'(onerma_pkg::HdrBytes),
    pt_len:  LenW'(jq_head.hdr.chunk_len),
    decrypt: 1'b1,
    tag:     jq_head.tag,
    meta:    jq_head.meta
  };

  if (HdrWords > 1) begin : g_hdr_words
    assign hdr_word = jq_head.hdr[511 - WordW * din_idx_q[HdrIdxW-1:0] -: WordW];
  end else begin : g_hdr_word
    assign hdr_word = jq_head.hdr;
  end

  assign din_total = WW'(HdrWords) + words(jq_head.hdr.chunk_len);
  // Header words from the job, payload words from the stage (there by the staging rule).
  assign din_valid_o     = in_msg_q && ((din_idx_q < WW'(HdrWords)) || pq_valid);
  assign din_data_o.data = (din_idx_q < WW'(HdrWords)) ? hdr_word : pq_head;
  assign din_fire = din_valid_o && din_ready_i;
  assign din_last = din_fire && (din_idx_q + WW'(1) == din_total);
  assign pq_pop   = din_fire && (din_idx_q >= WW'(HdrWords));
  assign jq_pop   = din_last;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      in_msg_q  <= 1'b0;
      din_idx_q <= '0;
      staged_q  <= '0;
    end else begin
      if (desc_fire) begin
        in_msg_q  <= 1'b1;
        din_idx_q <= '0;
      end else if (din_last) begin
        in_msg_q <= 1'b0;
      end else if (din_fire) begin
        din_idx_q <= din_idx_q + WW'(1);
      end
      staged_q <= staged_q + StageCW'(fill_done) - StageCW'(desc_fire);
    end
  end

`ifndef SYNTHESIS
  // The payload contract: no payload beat before its job.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (rst_ni && pay_valid_i && pay_ready_o) begin
      assert (lq_valid) else $error("onerma_open: payload beat without a job");
    end
  end
`endif

  // The beat count comes from the header's chunk_len; `last` is redundant here.
  logic unused;
  assign unused = pay_last_i;

endmodule

`default_nettype wire
