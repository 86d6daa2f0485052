`default_nettype none

/// Transmit sealer (protocol.md §3.1, §3.2, §10): every outgoing message gets the NIC's next
/// message counter, is AES-GCM sealed through the engine pool (onerma_gcm_pool) and leaves as one
/// AXI4-Stream packet hdr (64 B) | ciphertext (chunk_len B) | tag (16 B).
///
/// Interfaces:
/// - Job (valid/ready): `{hdr, key, meta}`. `hdr.src_nic` and `hdr.counter` are replaced by
///   `nic_addr_i` and the assigned counter; every other field is sent as given. Iff
///   `hdr.chunk_len != 0` (at most MaxLen) a payload stream follows with exactly
///   ceil(chunk_len / Bytes) beats, `pay_last_i` on the final one. Payload beats are in AXI
///   lane order, byte 0 of a beat in `pay_data_i[7:0]` (what `onerma_dma_rd` delivers, and the
///   order of every other NIC stream); the stage stores them reversed, in the layouts'
///   big-endian order the GCM beats use (pure wiring). Bytes after chunk_len in the last beat
///   are ignored. The next job is taken the cycle after the last beat.
/// - Payload abort: `pay_err_i` is qualified by the payload handshake (e.g. `onerma_dma_rd`'s
///   `rd_err`). If any payload beat of a job carries it, the job is dropped at its last beat: the
///   message was not yet staged (a message is staged, and so described and sealed, only at its
///   last beat), so its stage is freed in that cycle with no descriptor, no din beat and no
///   frame; `drop_o` pulses in that cycle (no ready) with the job's meta on `drop_meta_o`. The
///   counter assigned at acceptance is not reused (counters need only strictly increase, §3.2).
/// - Counter (§10): `{epoch_i, count}`; `ctr_reset_i` (epoch written) sets count := 1 (also the
///   reset value) and blocks acceptance in that cycle. A job is accepted only while
///   count < 2^CountW - 1, so the last usable count is 2^CountW - 2 (protocol: 2^48 - 2) and the
///   counter never wraps; `exhausted_o` is high from the acceptance that used the last value on
///   (or count = 2^CountW - 1). On acceptance `asg_*_o` pulse in that cycle (no ready).
///   CountW < 48 exists for tests and proofs only (the count is zero-extended to 48 bits).
/// - Crypto: one descriptor per job on `desc_*` (key, iv = {nic_addr, counter}, aad_len 64,
///   pt_len = chunk_len, decrypt 0, meta = stage), then on `din_*` the header's 4 / Lanes words
///   and the payload's ceil(chunk_len / (16 Lanes)) words, in the pool's word format (Lanes
///   128-bit beats, beat 0 in the top bits; with Lanes = DataWidth / 128 a word is a stored
///   row, so a 64 B READ reply is 2 words at 512 bits instead of 8 beats). A descriptor is offered only once the whole message is
///   stored (header and payload), in staging order, without waiting for earlier messages' beats;
///   a message's din beats are offered only after its descriptor handshake, in descriptor order,
///   and from its first beat to its last `din_valid_o` never drops, so the pool's shared din
///   stream is never held by a partly staged message. `dout_*` words
///   (any stage, interleaved) are written back in place, Lanes lanes of a row at once; `res_*` gives the tag, which is written
///   right after the ciphertext (byte-exact). Only the low clog2(NumStage) bits of the gcm meta
///   are used (the top may put a client id above them).
/// - Output (AXI4-Stream): one packet per message, frames whole and in staging order (= acceptance
///   order = descriptor order = counter order): a message's frame leaves once it is finished (tag
///   and last ciphertext beat written) and every message staged before it has left, so a short
///   frame waits behind a whole chunk staged earlier (head-of-line blocking, so that the wire
///   order is the counter order: observers infer dispatch order from request frames); first byte
///   in `m_axis_tdata[7:0]`; `m_axis_tkeep` all ones except on the last beat (a contiguous
///   prefix).
///
/// Storage (RAM, no reset): two copies of the header per stage (512 bits wide: one read by the
/// din feeder, one by the output), the key per stage, the plaintext (DataWidth rows), the
/// ciphertext and tag (DataWidth / 128 lanes of 128 bits with byte enables). Bookkeeping (free
/// stages, per-stage length and write-back state, the three stage queues) is reset.
module onerma_seal #(
  /// Payload and AXI4-Stream width: 128, 256 or 512 (64 must be a multiple of DataWidth / 8).
  parameter int unsigned DataWidth    = 512,
  /// Messages in flight (stages), >= 2.
  parameter int unsigned NumStage     = 4,
  /// Width of the requester's job meta (echoed on asg_meta_o).
  parameter int unsigned MetaWidth    = 8,
  /// Width of the meta on the pool's streams, >= clog2(NumStage).
  parameter int unsigned GcmMetaWidth = 8,
  /// The pool's length width.
  parameter int unsigned LenW         = 16,
  /// Largest chunk_len (protocol CHUNK_BYTES; smaller only to shrink proofs).
  parameter int unsigned MaxLen       = onerma_pkg::ChunkBytes,
  /// Width of the message count (protocol 48; smaller only for tests and proofs).
  parameter int unsigned CountW       = 48,
  /// 128-bit beats per pool din / dout word (the pool's `Lanes`): 1, or DataWidth / 128 (a
  /// header or payload row is then one word, passed without lane selection).
  parameter int unsigned Lanes        = 1,
  /// Payload types of the pool's streams (as onerma_gcm_pool's with meta of GcmMetaWidth).
  parameter type         desc_t       = struct packed {
    logic [127:0]            key;
    logic [95:0]             iv;
    logic [LenW-1:0]         aad_len;
    logic [LenW-1:0]         pt_len;
    logic                    decrypt;
    logic [127:0]            tag;
    logic [GcmMetaWidth-1:0] meta;
  },
  parameter type         wdin_t       = struct packed {
    logic [Lanes*128-1:0] data;
  },
  parameter type         dout_t       = struct packed {
    logic [Lanes*128-1:0]    data;
    logic                    last;
    logic [GcmMetaWidth-1:0] meta;
  },
  parameter type         res_t        = struct packed {
    logic [127:0]            tag;
    logic                    auth_ok;
    logic [GcmMetaWidth-1:0] meta;
  },
  // Derived, do not override.
  parameter int unsigned Bytes        = DataWidth / 8
) (
  input  logic                     clk_i,
  input  logic                     rst_ni,

  input  logic [31:0]              nic_addr_i,
  input  logic [15:0]              epoch_i,
  input  logic                     ctr_reset_i,
  output logic                     exhausted_o,

  input  logic                     job_valid_i,
  output logic                     job_ready_o,
  input  onerma_pkg::hdr_t         job_hdr_i,
  input  logic [127:0]             job_key_i,
  input  logic [MetaWidth-1:0]     job_meta_i,

  input  logic                     pay_valid_i,
  output logic                     pay_ready_o,
  input  logic [DataWidth-1:0]     pay_data_i,
  input  logic                     pay_last_i,
  input  logic                     pay_err_i,

  output logic                     asg_valid_o,
  output logic [MetaWidth-1:0]     asg_meta_o,
  output logic [63:0]              asg_counter_o,

  output logic                     drop_o,
  output logic [MetaWidth-1:0]     drop_meta_o,

  /// The last beat of a frame left (`m_axis` handshake with tlast), with its job's meta: the
  /// cycle the protocol calls "sent" (a server's write context deadline counts from it, §8.2).
  output logic                     sent_valid_o,
  output logic [MetaWidth-1:0]     sent_meta_o,

  output logic                     desc_valid_o,
  input  logic                     desc_ready_i,
  output desc_t                    desc_data_o,

  output logic                     din_valid_o,
  input  logic                     din_ready_i,
  output wdin_t                    din_data_o,

  input  logic                     dout_valid_i,
  output logic                     dout_ready_o,
  input  dout_t                    dout_data_i,

  input  logic                     res_valid_i,
  output logic                     res_ready_o,
  input  res_t                     res_data_i,

  output logic                     m_axis_tvalid,
  input  logic                     m_axis_tready,
  output logic [DataWidth-1:0]     m_axis_tdata,
  output logic [DataWidth/8-1:0]   m_axis_tkeep,
  output logic                     m_axis_tlast
);

  localparam int unsigned NL       = DataWidth / 128;                 // 128-bit lanes per row
  localparam int unsigned HdrRows  = 64 / Bytes;                      // rows of the header
  localparam int unsigned PayRows  = (MaxLen + Bytes - 1) / Bytes;    // plaintext rows / stage
  localparam int unsigned CtRows   = (MaxLen + 16 + Bytes - 1) / Bytes;  // ciphertext + tag
  localparam int unsigned MaxWords = (MaxLen + 15) / 16;              // 128-bit payload words
  localparam int unsigned MaxBeats = (80 + MaxLen + Bytes - 1) / Bytes;  // output beats
  localparam int unsigned StW      = (NumStage > 1) ? $clog2(NumStage) : 1;
  localparam int unsigned LW       = $clog2(MaxLen + 1);
  localparam int unsigned WW       = $clog2(MaxWords + 1);
  localparam int unsigned FW       = $clog2(MaxWords + 4 + 1);        // din words of a message
  localparam int unsigned OW       = $clog2(MaxBeats + 1);
  localparam int unsigned PW       = $clog2(NumStage * PayRows);
  localparam int unsigned CW       = $clog2(NumStage * CtRows);
  localparam int unsigned LaneW    = (NL > 1) ? $clog2(NL) : 1;
  localparam int unsigned HpW      = (HdrRows > 1) ? $clog2(HdrRows) : 1;
  localparam int unsigned KeepW    = $clog2(Bytes);
  localparam int unsigned WordW    = Lanes * 128;                     // pool din / dout word
  localparam int unsigned LpR      = NL / Lanes;                      // words per row
  localparam int unsigned HdrWords = 4 / Lanes;                       // din words of the header

  if (DataWidth != 128 && DataWidth != 256 && DataWidth != 512) begin : g_bad_width
    $error("onerma_seal: DataWidth must be 128, 256 or 512");
  end
  if (Lanes != 1 && Lanes != NL) begin : g_bad_lanes
    $error("onerma_seal: Lanes must be 1 or DataWidth / 128");
  end
  if (NumStage < 2 || GcmMetaWidth < StW || MaxLen < 1 || MaxLen > onerma_pkg::ChunkBytes || CountW < 2 ||
      CountW > 48 || LenW < 7 || (1 << LenW) <= MaxLen) begin : g_bad_params
    $error("onerma_seal: bad NumStage, GcmMetaWidth, MaxLen, CountW or LenW");
  end

  // Byte i (0 = first) of a big-endian row to AXI-Stream lane i.
  function automatic logic [DataWidth-1:0] to_lanes(input logic [DataWidth-1:0] row);
    logic [DataWidth-1:0] r;
    for (int unsigned i = 0; i < Bytes; i++) begin
      r[8*i +: 8] = row[DataWidth-1-8*i -: 8];
    end
    return r;
  endfunction

  // The pool's count: the header's words, then the payload's (each part starts a new word).
  function automatic logic [FW-1:0] din_words(input logic [LW-1:0] len);
    return FW'(HdrWords) + FW'((32'(len) + 32'(16 * Lanes) - 32'd1) / 32'(16 * Lanes));
  endfunction

  function automatic logic [OW-1:0] out_beats(input logic [LW-1:0] len);
    return OW'((32'(len) + 32'd80 + 32'(Bytes) - 32'd1) / 32'(Bytes));
  endfunction

  // ---------------------------------------------------------------------------------------------
  // Stage bookkeeping and the message counter.
  // ---------------------------------------------------------------------------------------------
  logic [NumStage-1:0] free_q;
  logic [LW-1:0]       len_q [NumStage];
  logic [WW-1:0]       wcnt_q [NumStage];      // ciphertext words written back
  logic [NumStage-1:0] dout_done_q, tag_done_q;
  logic [CountW-1:0]   count_q;

  logic                any_free, job_fire, pay_fire;
  logic [StW-1:0]      alloc;
  logic [LW-1:0]       job_len;
  onerma_pkg::hdr_t    hdr_fill;
  logic                in_busy_q;
  logic [StW-1:0]      in_stage_q;
  logic [PW-1:0]       in_row_q;
  logic                in_err_q;      // a beat of the payload being received carried pay_err_i
  logic [MetaWidth-1:0] in_meta_q;
  logic                pay_end, pay_drop;

  always_comb begin
    any_free = 1'b0;
    alloc    = '0;
    for (int s = NumStage - 1; s >= 0; s--) begin
      if (free_q[s]) begin
        any_free = 1'b1;
        alloc    = StW'(s);
      end
    end
  end

  assign exhausted_o   = (count_q == '1);
  assign job_ready_o   = !in_busy_q && any_free && !exhausted_o && !ctr_reset_i;
  assign job_fire      = job_valid_i && job_ready_o;
  assign job_len       = LW'(job_hdr_i.chunk_len);
  assign asg_valid_o   = job_fire;
  assign asg_meta_o    = job_meta_i;
  assign asg_counter_o = {epoch_i, 48'(count_q)};

  always_comb begin
    hdr_fill         = job_hdr_i;
    hdr_fill.src_nic = nic_addr_i;
    hdr_fill.counter = asg_counter_o;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      count_q <= CountW'(1);
    end else if (ctr_reset_i) begin
      count_q <= CountW'(1);
    end else if (job_fire) begin
      count_q <= count_q + CountW'(1);
    end
  end

  // ---------------------------------------------------------------------------------------------
  // Input: header, key and plaintext into the stage.
  // ---------------------------------------------------------------------------------------------
  logic [511:0] hdr_a_mem [NumStage];
  logic [511:0] hdr_b_mem [NumStage];
  logic [223:0] kiv_mem [NumStage];  // {key, iv}
  logic [DataWidth-1:0] pt_mem [NumStage * PayRows];

  assign pay_ready_o = in_busy_q;
  assign pay_fire    = pay_valid_i && pay_ready_o;
  // The last beat: the message is staged, or dropped if any of its beats carried an error.
  assign pay_end     = pay_fire && pay_last_i;
  assign pay_drop    = pay_end && (in_err_q || pay_err_i);
  assign drop_o      = pay_drop;
  assign drop_meta_o = in_meta_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      in_busy_q  <= 1'b0;
      in_stage_q <= '0;
      in_row_q   <= '0;
      in_err_q   <= 1'b0;
      in_meta_q  <= '0;
    end else if (job_fire) begin
      in_busy_q  <= (job_len != '0);
      in_stage_q <= alloc;
      in_row_q   <= PW'(32'(alloc) * PayRows);
      in_err_q   <= 1'b0;
      in_meta_q  <= job_meta_i;
    end else if (pay_fire) begin
      in_busy_q <= !pay_last_i;
      in_row_q  <= in_row_q + PW'(1);
      in_err_q  <= in_err_q || pay_err_i;
    end
  end

  // Lane order in, big-endian rows stored: byte k of the beat to bits [DataWidth-1-8k -: 8].
  logic [DataWidth-1:0] pay_be;
  always_comb begin
    for (int unsigned k = 0; k < DataWidth / 8; k++) begin
      pay_be[DataWidth - 1 - 8 * k -: 8] = pay_data_i[8 * k +: 8];
    end
  end

  always_ff @(posedge clk_i) begin
    if (job_fire) begin
      hdr_a_mem[alloc] <= hdr_fill;
      hdr_b_mem[alloc] <= hdr_fill;
      kiv_mem[alloc]   <= {job_key_i, nic_addr_i, asg_counter_o};
    end
    if (pay_fire) begin
      pt_mem[in_row_q] <= pay_be;
    end
  end

  // Staged messages in staging order (= acceptance order).
  logic           rdy_push, rdy_valid, rdy_pop, rdy_in_ready;
  logic [StW-1:0] rdy_stage;

  // A message is staged at its acceptance without payload, or at its last payload beat unless
  // dropped (job and payload beats are never taken in one cycle). A job without payload whose
  // descriptor can be offered at once (below) skips the queue.
  logic           d_free, d_byp, stg_push;
  logic [StW-1:0] stg_stage;
  logic [LW-1:0]  stg_len;
  assign stg_push  = (job_fire && (job_len == '0)) || (pay_end && !pay_drop);
  assign stg_stage = job_fire ? alloc : in_stage_q;
  assign stg_len   = job_fire ? job_len : len_q[in_stage_q];
  assign rdy_push  = stg_push && !d_byp;

  onerma_fifo #(
    .Width(StW),
    .Depth(NumStage)
  ) u_rdy_q (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .flush_i    (1'b0),
    .in_valid_i (rdy_push),
    .in_ready_o (rdy_in_ready),
    .in_data_i  (stg_stage),
    .out_valid_o(rdy_valid),
    .out_ready_i(rdy_pop),
    .out_data_o (rdy_stage),
    /* verilator lint_off PINCONNECTEMPTY */
    .count_o    ()
    /* verilator lint_on PINCONNECTEMPTY */
  );

  // ---------------------------------------------------------------------------------------------
  // Descriptors, in staging order, as soon as a message is staged: the engines start on H and the
  // tag mask while earlier messages' beats are still on din. A staged message waits in the queue,
  // then its key and IV are read (one cycle) into the descriptor register. A job without payload
  // is staged at acceptance; if nothing is queued, being read or offered (`d_free`, flops only) it
  // goes straight into the descriptor register from the job ports (`d_byp`), two cycles earlier.
  // In `d_free` cycles the register loads the job ports whether or not a job comes: its content
  // is looked at only while `desc_valid_q`, so the load enable stays a flop expression.
  // ---------------------------------------------------------------------------------------------
  logic           dcap_q;           // kiv read last cycle: load the descriptor
  logic [StW-1:0] dstage_q;
  logic [223:0]   kiv_rd_q;
  logic           desc_valid_q, desc_fire, d_start;
  desc_t          desc_q;

  assign d_free       = !rdy_valid && !dcap_q && !desc_valid_q;
  assign d_byp        = job_fire && (job_len == '0) && d_free;
  assign d_start      = rdy_valid && !dcap_q && (!desc_valid_q || desc_ready_i);
  assign rdy_pop      = d_start;
  assign desc_valid_o = desc_valid_q;
  assign desc_data_o  = desc_q;
  assign desc_fire    = desc_valid_q && desc_ready_i;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      dcap_q       <= 1'b0;
      dstage_q     <= '0;
      desc_valid_q <= 1'b0;
    end else begin
      dcap_q <= d_start;
      if (d_start) begin
        dstage_q <= rdy_stage;
      end else if (d_free) begin
        dstage_q <= alloc;
      end
      if (dcap_q || d_byp) begin
        desc_valid_q <= 1'b1;
      end else if (desc_ready_i) begin
        desc_valid_q <= 1'b0;
      end
    end
  end

  always_ff @(posedge clk_i) begin
    if (d_start) begin
      kiv_rd_q <= kiv_mem[rdy_stage];
    end
    if (dcap_q) begin
      desc_q         <= '0;
      desc_q.key     <= kiv_rd_q[223:96];
      desc_q.iv      <= kiv_rd_q[95:0];
      desc_q.aad_len <= LenW'(64);
      desc_q.pt_len  <= LenW'(len_q[dstage_q]);
      desc_q.meta    <= GcmMetaWidth'(dstage_q);
    end else if (d_free) begin
      desc_q         <= '0;
      desc_q.key     <= job_key_i;
      desc_q.iv      <= {nic_addr_i, asg_counter_o};
      desc_q.aad_len <= LenW'(64);
      desc_q.pt_len  <= '0;
      desc_q.meta    <= GcmMetaWidth'(alloc);
    end
  end

  // Staged messages in staging order, which is also descriptor order and so the order of their
  // din words, waiting for the fetch (below). Their words are fetched from staging on, before
  // the descriptor is taken, so that they are ready when the pool's shared din stream turns to
  // this client: fetched after the descriptor they left the stream idle for three cycles per
  // message (measured: 64 B READs on 4 engines). Words are offered only once their descriptor is
  // taken (`tk_q` below). A message staged while the fetch is free and nothing waits starts its
  // fetch at once (`f_direct`) and never enters the queue.
  logic           iss_valid, iss_pop, iss_in_ready, iss_push, f_direct;
  logic [StW-1:0] iss_stage;

  assign iss_push = stg_push && !f_direct;

  onerma_fifo #(
    .Width(StW),
    .Depth(NumStage)
  ) u_iss_q (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .flush_i    (1'b0),
    .in_valid_i (iss_push),
    .in_ready_o (iss_in_ready),
    .in_data_i  (stg_stage),
    .out_valid_o(iss_valid),
    .out_ready_i(iss_pop),
    .out_data_o (iss_stage),
    /* verilator lint_off PINCONNECTEMPTY */
    .count_o    ()
    /* verilator lint_on PINCONNECTEMPTY */
  );

  // The same stages, in the same order, kept until their frame starts: frames leave in this
  // order (descriptor order = staging order = counter order), so the wire order is the counter
  // order, which an observer inferring dispatch order from request frames needs. Pushed at the
  // descriptor handshake rather than at staging: the order is the same and a message can finish
  // only once described. The head's done flags stay set until its stage is reused.
  logic           send_valid, send_pop, send_in_ready;
  logic [StW-1:0] send_stage;

  onerma_fifo #(
    .Width(StW),
    .Depth(NumStage)
  ) u_send_q (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .flush_i    (1'b0),
    .in_valid_i (desc_fire),
    .in_ready_o (send_in_ready),
    .in_data_i  (dstage_q),
    .out_valid_o(send_valid),
    .out_ready_i(send_pop),
    .out_data_o (send_stage),
    /* verilator lint_off PINCONNECTEMPTY */
    .count_o    ()
    /* verilator lint_on PINCONNECTEMPTY */
  );

  // ---------------------------------------------------------------------------------------------
  // din: fetch the message's words (header, then payload; a word is `Lanes` beats, so with
  // Lanes = NL a whole header or plaintext row) through a 2-word FIFO. A read is
  // issued while the words stored plus the one in flight, minus the one leaving, stay below 2;
  // so from a message's first word on, its next word is always stored or in flight and din_valid
  // never drops before the message's last word. A word read while the FIFO is empty is offered
  // from the read register and enters the FIFO only if it is not taken (fall-through): with the
  // direct start, a message staged on an idle sealer has its first word on din two cycles
  // later, in the cycle its bypassed descriptor can first reach the head of the pool's order.
  // ---------------------------------------------------------------------------------------------
  typedef struct packed {
    logic [WordW-1:0] data;
    logic             last;
  } fword_t;

  logic           f_active_q;
  logic [StW-1:0] f_stage_q;
  logic [FW-1:0]  f_idx_q, f_n_q;
  logic           f_issue, f_last, f_start, f_push, f_pop;
  logic [1:0]     f_count;
  logic           f_in_ready, f_out_valid, din_fire;
  fword_t         f_in, f_out, f_head;
  // Read pipeline (one cycle, the RAM's output register).
  logic           rd_valid_q, rd_hdr_q, rd_last_q;
  logic [1:0]     rd_hword_q;
  logic [LaneW-1:0] rd_lane_q;
  logic [511:0]   hdr_a_rd_q;
  logic [DataWidth-1:0] pt_rd_q;
  logic [PW-1:0]  pt_addr;
  logic [FW-1:0]  pword;

  assign f_issue  = f_active_q &&
                    ((3'(f_count) + 3'(rd_valid_q) - 3'(din_fire)) < 3'd2);
  assign f_last   = f_issue && (f_idx_q == f_n_q - FW'(1));
  assign f_start  = (iss_valid || stg_push) && (!f_active_q || f_last);
  assign f_direct = f_start && !iss_valid;
  assign iss_pop  = f_start && iss_valid;
  assign pword    = f_idx_q - FW'(HdrWords);
  assign pt_addr  = PW'(32'(f_stage_q) * PayRows + 32'(pword) / LpR);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      f_active_q <= 1'b0;
      f_stage_q  <= '0;
      f_idx_q    <= '0;
      f_n_q      <= '0;
      rd_valid_q <= 1'b0;
    end else begin
      rd_valid_q <= f_issue;
      if (f_start) begin
        f_active_q <= 1'b1;
        f_stage_q  <= iss_valid ? iss_stage : stg_stage;
        f_idx_q    <= '0;
        f_n_q      <= din_words(iss_valid ? len_q[iss_stage] : stg_len);
      end else if (f_last) begin
        f_active_q <= 1'b0;
      end else if (f_issue) begin
        f_idx_q <= f_idx_q + FW'(1);
      end
    end
  end

  // No reset: qualified by rd_valid_q.
  always_ff @(posedge clk_i) begin
    if (f_issue) begin
      rd_hdr_q   <= (f_idx_q < FW'(HdrWords));
      rd_hword_q <= f_idx_q[1:0];
      rd_lane_q  <= LaneW'(32'(pword) % LpR);
      rd_last_q  <= (f_idx_q == f_n_q - FW'(1));
      if (f_idx_q < FW'(HdrWords)) begin
        hdr_a_rd_q <= hdr_a_mem[f_stage_q];
      end else begin
        pt_rd_q <= pt_mem[pt_addr];
      end
    end
  end

  always_comb begin
    f_in.last = rd_last_q;
    if (rd_hdr_q) begin
      f_in.data = hdr_a_rd_q[511 - WordW * 32'(rd_hword_q) -: WordW];
    end else begin
      f_in.data = pt_rd_q[DataWidth - 1 - WordW * 32'(rd_lane_q) -: WordW];
    end
  end

  assign f_pop  = f_out_valid && din_fire;
  assign f_push = rd_valid_q && !(!f_out_valid && din_fire);

  onerma_fifo #(
    .T    (fword_t),
    .Depth(2)
  ) u_fetch_q (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .flush_i    (1'b0),
    .in_valid_i (f_push),
    .in_ready_o (f_in_ready),
    .in_data_i  (f_in),
    .out_valid_o(f_out_valid),
    .out_ready_i(f_pop),
    .out_data_o (f_out),
    .count_o    (f_count)
  );

  // Messages whose descriptor the pool took and whose last din word has not left. Fetching and
  // describing both go in staging order, so the word at the head belongs to the oldest message
  // with words left, which is a taken one iff there is any.
  logic [StW:0] tk_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      tk_q <= '0;
    end else begin
      tk_q <= tk_q + (StW + 1)'(desc_fire) - (StW + 1)'(din_fire && f_head.last);
    end
  end

  assign f_head          = f_out_valid ? f_out : f_in;
  assign din_valid_o     = (f_out_valid || rd_valid_q) && (tk_q != '0);
  assign din_data_o.data = f_head.data;
  assign din_fire        = din_valid_o && din_ready_i;

  // ---------------------------------------------------------------------------------------------
  // Write-back: ciphertext words (dout) and the tag (res), one write per cycle, the tag first.
  // A dout word covers `Lanes` lanes of one row; the tag, at any byte offset, one lane per cycle
  // (two when it straddles lanes).
  // ---------------------------------------------------------------------------------------------
  logic           dout_fire, res_fire;
  logic [StW-1:0] d_stage, r_stage;
  logic           tag_busy_q, tag_ph_q;
  logic [StW-1:0] tag_stage_q;
  logic [127:0]   tag_q;
  logic [NL-1:0]        ct_we;
  logic [CW-1:0]        ct_row;
  logic [NL-1:0][127:0] ct_wdata;
  logic [NL-1:0][15:0]  ct_be;
  logic [LaneW-1:0]     t_lane, d_lane0;
  logic [31:0]          d_rem;          // payload bytes from the dout word's first byte on
  logic [WW-1:0]  d_word, t_word;
  logic [3:0]     t_off;
  logic           tag_fin;

  assign d_stage      = StW'(dout_data_i.meta);
  assign r_stage      = StW'(res_data_i.meta);
  assign dout_ready_o = !tag_busy_q;
  assign res_ready_o  = !tag_busy_q;
  assign dout_fire    = dout_valid_i && dout_ready_o;
  assign res_fire     = res_valid_i && res_ready_o;
  assign d_word       = wcnt_q[d_stage];
  assign t_off        = 4'(len_q[tag_stage_q]);
  assign t_word       = WW'(len_q[tag_stage_q] >> 4) + WW'(tag_ph_q);
  assign tag_fin      = tag_busy_q && (tag_ph_q || (t_off == 4'd0));

  assign t_lane  = LaneW'(32'(t_word) % NL);
  assign d_lane0 = LaneW'((32'(d_word) % LpR) * Lanes);
  assign d_rem   = 32'(len_q[d_stage]) - 32'(d_word) * 32'(16 * Lanes);

  always_comb begin
    ct_we    = '0;
    ct_row   = '0;
    ct_wdata = '0;
    ct_be    = '0;
    if (tag_busy_q) begin
      ct_we[t_lane]    = 1'b1;
      ct_row           = CW'(32'(tag_stage_q) * CtRows + 32'(t_word) / NL);
      ct_wdata[t_lane] = tag_ph_q ? (tag_q << (8 * (16 - 32'(t_off))))
                                  : (tag_q >> (8 * 32'(t_off)));
      ct_be[t_lane]    = tag_ph_q ? ~(16'hffff >> t_off) : (16'hffff >> t_off);
    end else if (dout_fire) begin
      ct_row = CW'(32'(d_stage) * CtRows + 32'(d_word) / LpR);
      // Beat j of the word (top bits first) to lane d_lane0 + j; on the message's last word
      // only the bytes before chunk_len are written, so a tag written earlier stays intact.
      for (int unsigned j = 0; j < Lanes; j++) begin
        ct_we[32'(d_lane0) + j]    = 1'b1;
        ct_wdata[32'(d_lane0) + j] = dout_data_i.data[WordW - 1 - 128 * j -: 128];
        if (!dout_data_i.last || d_rem >= 16 * (j + 1)) begin
          ct_be[32'(d_lane0) + j] = '1;
        end else if (d_rem > 16 * j) begin
          ct_be[32'(d_lane0) + j] = onerma_gcm_pkg::keep_mask(4'(d_rem - 16 * j));
        end
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      tag_busy_q  <= 1'b0;
      tag_ph_q    <= 1'b0;
      tag_stage_q <= '0;
    end else if (res_fire) begin
      tag_busy_q  <= 1'b1;
      tag_ph_q    <= 1'b0;
      tag_stage_q <= r_stage;
    end else if (tag_fin) begin
      tag_busy_q <= 1'b0;
    end else if (tag_busy_q) begin
      tag_ph_q <= 1'b1;
    end
  end

  always_ff @(posedge clk_i) begin
    if (res_fire) begin
      tag_q <= res_data_i.tag;
    end
  end

  // A stage is complete when its tag and its last ciphertext word are written (never both in one
  // cycle: dout waits while the tag is written). A message completed by its tag (the usual order:
  // the engine gives the result after the last dout beat) may start its frame in the same cycle
  // if it is the oldest not yet sent (`fin_tag`, flops only; below). One completed by its last
  // dout word starts a cycle later: a same-cycle start would put the pool's dout valid on the
  // output's enables.
  logic fin_tag;
  assign fin_tag = tag_fin && dout_done_q[tag_stage_q];

  // Output side, declared here for the bookkeeping.
  logic           o_free;
  logic [StW-1:0] o_stage_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      free_q      <= '1;
      dout_done_q <= '0;
      tag_done_q  <= '0;
      for (int s = 0; s < NumStage; s++) begin
        len_q[s]  <= '0;
        wcnt_q[s] <= '0;
      end
    end else begin
      if (job_fire) begin
        free_q[alloc]      <= 1'b0;
        len_q[alloc]       <= job_len;
        wcnt_q[alloc]      <= '0;
        dout_done_q[alloc] <= (job_len == '0);
        tag_done_q[alloc]  <= 1'b0;
      end
      if (o_free) begin
        free_q[o_stage_q] <= 1'b1;
      end
      // A dropped message's stage (never the one being read out: that one was staged).
      if (pay_drop) begin
        free_q[in_stage_q] <= 1'b1;
      end
      if (dout_fire) begin
        wcnt_q[d_stage] <= wcnt_q[d_stage] + WW'(1);
        if (dout_data_i.last) begin
          dout_done_q[d_stage] <= 1'b1;
        end
      end
      if (tag_fin) begin
        tag_done_q[tag_stage_q] <= 1'b1;
      end
    end
  end

  // Ciphertext and tag: NL lanes of 128 bits with byte enables.
  logic [NL-1:0][127:0] ct_rd_q;
  logic [CW-1:0]        o_ct_addr;
  logic                 o_issue, o_hdr;

  for (genvar l = 0; l < NL; l++) begin : g_ct
    logic [127:0] mem [NumStage * CtRows];
    always_ff @(posedge clk_i) begin
      if (ct_we[l]) begin
        for (int unsigned b = 0; b < 16; b++) begin
          if (ct_be[l][b]) begin
            mem[ct_row][8*b +: 8] <= ct_wdata[l][8*b +: 8];
          end
        end
      end
    end
    always_ff @(posedge clk_i) begin
      if (o_issue && !o_hdr) begin
        ct_rd_q[l] <= mem[o_ct_addr];
      end
    end
  end

  // ---------------------------------------------------------------------------------------------
  // Output: one frame at a time, rows through a 2-entry FIFO (same credit rule as the fetch).
  // Three shortcuts for a frame that finds the output idle, none of them on a path from another
  // block's valid: the frame of the oldest message starts in the cycle its tag write completes it
  // (`fin_tag`); a frame started while no frame is being read issues its first (header) row in
  // the start cycle (`o_first`); and a row read while the FIFO is empty is offered on m_axis from
  // the read registers, entering the FIFO only if not taken.
  // ---------------------------------------------------------------------------------------------
  typedef struct packed {
    logic [DataWidth-1:0] row;
    logic [Bytes-1:0]     keep;
    logic                 last;
    logic [MetaWidth-1:0] meta;
  } obeat_t;

  // Each stage's job meta, for `sent_meta_o`.
  logic [MetaWidth-1:0] meta_q [NumStage];
  logic [MetaWidth-1:0] ord_meta_q;
  always_ff @(posedge clk_i) begin
    if (job_fire) meta_q[alloc] <= job_meta_i;
  end

  logic           o_active_q;
  logic [OW-1:0]  o_beat_q, o_n_q;
  logic [LW-1:0]  o_len_q;
  logic           o_last, o_start, axis_fire;
  logic [1:0]     o_count;
  logic           o_in_ready, o_out_valid;
  obeat_t         o_in, o_out;
  logic           ord_valid_q, ord_hdr_q, ord_last_q;
  logic [HpW-1:0] ord_part_q;
  logic [Bytes-1:0] ord_keep_q;
  logic [511:0]   hdr_b_rd_q;
  logic [KeepW-1:0] o_rem;

  logic           s_valid, o_credit, o_first, o_last_act;
  logic [StW-1:0] s_stage, rd_stage;

  // The next frame: the oldest message not yet sent, once complete (or completed by its tag
  // right now). A later message completed first waits behind it.
  assign s_stage    = send_stage;
  assign s_valid    = send_valid && ((dout_done_q[s_stage] && tag_done_q[s_stage]) ||
                                    (fin_tag && tag_stage_q == s_stage));
  assign o_credit   = (3'(o_count) + 3'(ord_valid_q) - 3'(axis_fire)) < 3'd2;
  // A frame is at least 80 bytes, so at least two rows: its first row is never its last, and
  // o_last needs a frame being read.
  assign o_last_act = o_active_q && o_credit && (o_beat_q == o_n_q - OW'(1));
  assign o_start    = s_valid && (!o_active_q || o_last_act);
  assign o_first    = o_start && !o_active_q;
  assign send_pop    = o_start;
  assign o_issue    = (o_active_q || o_first) && o_credit;
  assign o_last     = o_last_act;
  assign o_free     = o_last;
  assign rd_stage   = o_active_q ? o_stage_q : s_stage;
  // A first row is a header row, so the ciphertext address needs only the registers.
  assign o_hdr      = !o_active_q || (o_beat_q < OW'(HdrRows));
  assign o_ct_addr  = CW'(32'(o_stage_q) * CtRows + 32'(o_beat_q) - HdrRows);
  assign o_rem      = KeepW'(32'(o_len_q) + 32'd80);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      o_active_q  <= 1'b0;
      o_stage_q   <= '0;
      o_beat_q    <= '0;
      o_n_q       <= '0;
      o_len_q     <= '0;
      ord_valid_q <= 1'b0;
    end else begin
      ord_valid_q <= o_issue;
      if (o_start) begin
        o_active_q <= 1'b1;
        o_stage_q  <= s_stage;
        o_beat_q   <= OW'(o_first && o_issue);
        o_n_q      <= out_beats(len_q[s_stage]);
        o_len_q    <= len_q[s_stage];
      end else if (o_last) begin
        o_active_q <= 1'b0;
      end else if (o_issue) begin
        o_beat_q <= o_beat_q + OW'(1);
      end
    end
  end

  always_ff @(posedge clk_i) begin
    if (o_issue) begin
      ord_hdr_q  <= o_hdr;
      ord_part_q <= o_active_q ? HpW'(o_beat_q) : '0;
      ord_last_q <= o_last;
      ord_meta_q <= meta_q[rd_stage];
      ord_keep_q <= (o_last && (o_rem != '0)) ? ~({Bytes{1'b1}} << o_rem) : '1;
      if (o_hdr) begin
        hdr_b_rd_q <= hdr_b_mem[rd_stage];
      end
    end
  end

  always_comb begin
    o_in.keep = ord_keep_q;
    o_in.last = ord_last_q;
    o_in.meta = ord_meta_q;
    if (ord_hdr_q) begin
      o_in.row = hdr_b_rd_q[511 - DataWidth * 32'(ord_part_q) -: DataWidth];
    end else begin
      for (int unsigned l = 0; l < NL; l++) begin
        o_in.row[DataWidth - 1 - 128 * l -: 128] = ct_rd_q[l];  // lane 0 = bytes 0..15
      end
    end
  end

  obeat_t o_beat;

  onerma_fifo #(
    .T    (obeat_t),
    .Depth(2)
  ) u_out_q (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .flush_i    (1'b0),
    .in_valid_i (ord_valid_q && (o_out_valid || !m_axis_tready)),
    .in_ready_o (o_in_ready),
    .in_data_i  (o_in),
    .out_valid_o(o_out_valid),
    .out_ready_i(axis_fire && o_out_valid),
    .out_data_o (o_out),
    .count_o    (o_count)
  );

  // The FIFO's head, or with the FIFO empty the row read last cycle.
  assign o_beat        = o_out_valid ? o_out : o_in;
  assign m_axis_tvalid = o_out_valid || ord_valid_q;
  assign m_axis_tdata  = to_lanes(o_beat.row);
  assign m_axis_tkeep  = o_beat.keep;
  assign m_axis_tlast  = o_beat.last;
  assign axis_fire     = m_axis_tvalid && m_axis_tready;
  assign sent_valid_o  = axis_fire && o_beat.last;
  assign sent_meta_o   = o_beat.meta;

  // Not used: the requester's own ready signals of internal FIFOs that never fill by
  // construction (stages bound the queues, credits bound the read FIFOs), auth_ok (always 1 when
  // encrypting) and the meta bits above the stage index.
  logic unused;
  assign unused = ^{rdy_in_ready, iss_in_ready, send_in_ready, f_in_ready, o_in_ready,
                    res_data_i.auth_ok,
                    dout_data_i.meta, res_data_i.meta};

`ifndef SYNTHESIS
  // The queues and read FIFOs never refuse a push (simulation check of the credit rules).
  // Sampled like the block's own flops, so `rst_ni` is never used as a synchronous signal.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (rst_ni) begin
      assert (!rdy_push || rdy_in_ready);
      assert (!iss_push || iss_in_ready);
      assert (!desc_fire || send_in_ready);
      assert (!f_push || f_in_ready);
      assert (!ord_valid_q || o_in_ready);
    end
  end
`endif

endmodule

`default_nettype wire
