`default_nettype none

/// AES-128-GCM engine (NIST SP 800-38D, 96-bit IV, 128-bit tag), encrypt and decrypt, a new key
/// with every message. Theory of operation: docs/crypto.md, section "GCM engine".
///
/// Data formats (four valid/ready streams, one packed-struct payload each):
/// - desc (desc_t): one per message {key, iv, aad_len, pt_len (bytes), decrypt, tag (expected
///   tag when decrypting, ignored when encrypting), meta}.
/// - din (onerma_gcm_pkg::din_t): then ceil(aad_len/16) AAD beats followed by ceil(pt_len/16)
///   payload beats, 128 bits each, byte 0 of the message part in bits [127:120]; the bytes past
///   the end of a part in its last beat are ignored (the engine zeroes them).
/// - dout (dout_t): one beat {data, last, meta} per payload beat (ciphertext when encrypting,
///   plaintext when decrypting), same order, bytes past the end zeroed; last marks the message's
///   last payload beat.
/// - res (res_t): one per message in message order {tag (computed), auth_ok, meta}. auth_ok is 1
///   when encrypting and tag == expected tag when decrypting. Decrypted data leaves on dout
///   before res says whether it is authentic: the user must hold it until auth_ok.
///
/// Payload types: desc_t, dout_t and res_t depend on LenW and meta_t, so they are parameter
/// types whose defaults are built from those two (SystemVerilog has no parameterized typedef
/// outside a class, and the pool's proof runs with LenW = 6). A module that instantiates the
/// engine passes its own types of the same fields, so one definition serves its whole hierarchy
/// (onerma_gcm_pool does). din_t has no parameter and lives in onerma_gcm_pkg. None of them is a
/// layout of spec/layouts.json: those are host and wire formats with a fixed byte size.
///
/// Structure, one stage per module, wired here:
///   desc -> onerma_gcm_desc -> onerma_gcm_issuer -> onerma_aes_core -> onerma_gcm_sort, which
///           splits the AES results: H         -> onerma_ghash_powers -> onerma_ghash
///                                   mask      -> onerma_gcm_tag
///                                   keystream -> onerma_gcm_data
///   issuer start: info FIFO -> onerma_gcm_data; expected-tag skid + FIFO -> onerma_gcm_tag
///   din -> onerma_gcm_data -> dout, and its GHASH blocks -> onerma_ghash -> S -> onerma_gcm_tag
///       -> res
///
/// The issuer runs ahead of the data as far as the FIFOs allow, so that H and the mask of the
/// next message are ready before its data arrives.
module onerma_gcm_engine #(
  /// 1: pipelined AES (1 block/cycle) and GHASH with onerma_gf128_pkg::PipeLatency lanes.
  /// 0: iterative AES (II 10) and an iterative GHASH multiplier (II NumStages + 3): small, about
  /// 128/10 bits per cycle.
  parameter bit          Pipelined = 1'b1,
  /// Pipelined only: AES S-boxes in block RAM (1, 100 EBR on ECP5) or LUTs (0).
  parameter bit          SboxRam   = 1'b1,
  /// Digits of the iterative GF(2^128) multipliers (divides 16): the power unit's (both
  /// implementations) and, when Pipelined = 0, GHASH's. Fewer digits: faster, larger.
  parameter int unsigned NumStages = 4,
  /// Width of aad_len and pt_len in bytes (16: up to 65535 B each).
  parameter int unsigned LenW      = 16,
  /// Input beat buffer (beats); a whole message fits with ceil(max bytes / 16), which lets a
  /// pool hand a message to a slow engine at full rate.
  parameter int unsigned InDepth   = 2,
  /// Messages accepted but not yet finished (bounds the info and result-side FIFOs). 8 lets the
  /// issuer run far enough ahead to hide the AES latency plus the H powers on 64 B messages
  /// (with 2 info entries: 26.8 cycles per 64 B message instead of 16.5); 16 measured no better.
  parameter int unsigned MsgDepth  = 8,
  parameter type         meta_t    = logic [7:0],
  /// Descriptor payload.
  parameter type         desc_t    = struct packed {
    logic [127:0]    key;
    logic [95:0]     iv;
    logic [LenW-1:0] aad_len;
    logic [LenW-1:0] pt_len;
    logic            decrypt;
    logic [127:0]    tag;
    meta_t           meta;
  },
  /// dout payload.
  parameter type         dout_t    = struct packed {
    logic [127:0] data;
    logic         last;
    meta_t        meta;
  },
  /// Result payload.
  parameter type         res_t     = struct packed {
    logic [127:0] tag;
    logic         auth_ok;
    meta_t        meta;
  }
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,

  input  logic                 desc_valid_i,
  output logic                 desc_ready_o,
  input  desc_t                desc_data_i,

  input  logic                 din_valid_i,
  output logic                 din_ready_o,
  input  onerma_gcm_pkg::din_t din_data_i,

  output logic                 dout_valid_o,
  input  logic                 dout_ready_i,
  output dout_t                dout_data_o,

  output logic                 res_valid_o,
  input  logic                 res_ready_i,
  output res_t                 res_data_o
);

  import onerma_gcm_pkg::*;

  // onerma_ghash's lane count: the pipelined multiplier's latency.
  localparam int unsigned Lanes = Pipelined ? onerma_gf128_pkg::PipeLatency : 1;
  localparam int unsigned PowW  = (Lanes > 1) ? $clog2(Lanes) : 1;
  // Beats per part fit in LenW - 3 bits; a block index over AAD + payload + length in LenW - 2.
  localparam int unsigned BeatW = LenW - 3;
  localparam int unsigned IdxW  = LenW - 2;

  // Everything the data stage needs per message, computed by onerma_gcm_desc (there: why).
  // Byte masks keep the bytes of a beat that belong to its part.
  typedef struct packed {
    logic [LenW-1:0]  aad_len;     // for the length block
    logic [LenW-1:0]  pt_len;
    logic [BeatW-1:0] n_pt;        // payload beats
    logic             pt_one;      // n_pt == 1
    logic             has_pt;      // n_pt != 0
    logic [15:0]      aad_last;    // byte mask of the last AAD beat
    logic [15:0]      pt_last;     // byte mask of the last payload beat
    phase_e           first_phase; // the first part: AAD, payload, or only the length block
    logic [BeatW-1:0] first_left;  // its beats
    logic             first_end;   // it has one beat
    logic [15:0]      first_mask;  // byte mask of its first beat
    logic [IdxW-1:0]  n_total;     // AAD + payload beats + 1 (the length block)
    logic             total_final; // n_total <= Lanes: the first block is already a final one
    logic             decrypt;
    meta_t            meta;
  } info_t;

  // What the tag stage needs per message from the descriptor.
  typedef struct packed {
    logic [127:0] tag;
    logic         decrypt;
    meta_t        meta;
  } exp_t;

  // ---- Descriptor intake and issuer.
  logic         dsc_valid, dsc_ready;
  logic [127:0] dsc_key, dsc_tag;
  logic [95:0]  dsc_iv;
  info_t        dsc_info;
  logic         start, info_in_ready, exp_in_ready;
  logic         aes_in_valid, aes_in_ready;
  logic [127:0] aes_in_key, aes_in_block;
  kind_e        aes_in_kind;

  onerma_gcm_desc #(
    .Lanes (Lanes),
    .LenW  (LenW),
    .meta_t(meta_t),
    .desc_t(desc_t),
    .info_t(info_t)
  ) u_desc (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .in_valid_i (desc_valid_i),
    .in_ready_o (desc_ready_o),
    .in_data_i  (desc_data_i),
    .out_valid_o(dsc_valid),
    .out_ready_i(dsc_ready),
    .out_key_o  (dsc_key),
    .out_iv_o   (dsc_iv),
    .out_tag_o  (dsc_tag),
    .out_info_o (dsc_info)
  );

  onerma_gcm_issuer #(
    .LenW(LenW)
  ) u_issuer (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .in_valid_i   (dsc_valid),
    .in_ready_o   (dsc_ready),
    .in_key_i     (dsc_key),
    .in_iv_i      (dsc_iv),
    .in_n_pt_i    (dsc_info.n_pt),
    .start_o      (start),
    .start_ready_i(info_in_ready && exp_in_ready),
    .aes_valid_o  (aes_in_valid),
    .aes_ready_i  (aes_in_ready),
    .aes_key_o    (aes_in_key),
    .aes_block_o  (aes_in_block),
    .aes_kind_o   (aes_in_kind)
  );

  // ---- AES and the sort of its results.
  logic         aes_out_valid, aes_out_ready;
  logic [127:0] aes_out_block;
  kind_e        aes_out_kind;

  onerma_aes_core #(
    .Pipelined(Pipelined),
    .SboxRam  (SboxRam),
    .meta_t   (kind_e)
  ) u_aes (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .in_valid_i (aes_in_valid),
    .in_ready_o (aes_in_ready),
    .in_key_i   (aes_in_key),
    .in_block_i (aes_in_block),
    .in_meta_i  (aes_in_kind),
    .out_valid_o(aes_out_valid),
    .out_ready_i(aes_out_ready),
    .out_block_o(aes_out_block),
    .out_meta_o (aes_out_kind)
  );

  logic         h_valid, h_ready, mask_valid, mask_ready, ks_valid, ks_ready;
  logic [127:0] h_data, mask_data, ks_data;

  onerma_gcm_sort #(
    .MsgDepth(MsgDepth)
  ) u_sort (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .in_valid_i  (aes_out_valid),
    .in_ready_o  (aes_out_ready),
    .in_block_i  (aes_out_block),
    .in_kind_i   (aes_out_kind),
    .h_valid_o   (h_valid),
    .h_ready_i   (h_ready),
    .h_o         (h_data),
    .mask_valid_o(mask_valid),
    .mask_ready_i(mask_ready),
    .mask_o      (mask_data),
    .ks_valid_o  (ks_valid),
    .ks_ready_i  (ks_ready),
    .ks_o        (ks_data)
  );

  // ---- H powers for GHASH, one table per message, computed ahead (the unit holds the table in
  // use and the next one, so it needs no FIFO behind it).
  logic                 pow_valid, pow_ready;
  logic [Lanes*128-1:0] pow_data;

  onerma_ghash_powers #(
    .NumStages(NumStages),
    .Lanes    (Lanes)
  ) u_powers (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .h_valid_i  (h_valid),
    .h_ready_o  (h_ready),
    .h_i        (h_data),
    .pow_valid_o(pow_valid),
    .pow_ready_i(pow_ready),
    .pow_o      (pow_data)
  );

  // ---- Per-message bookkeeping, written as the issuer starts a message.
  // The FIFO occupancy counts are not needed: the FIFOs' own ready signals are enough.
  /* verilator lint_off PINCONNECTEMPTY */
  logic  info_valid, info_ready, exp_valid, exp_ready, exp_w_valid, exp_w_ready;
  info_t info;
  exp_t  exp_w, exp_r;

  onerma_fifo #(
    .T    (info_t),
    .Depth(MsgDepth)
  ) u_info_fifo (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .flush_i    (1'b0),
    .in_valid_i (start),
    .in_ready_o (info_in_ready),
    .in_data_i  (dsc_info),
    .out_valid_o(info_valid),
    .out_ready_i(info_ready),
    .out_data_o (info),
    .count_o    ()
  );

  // The expected tag travels from the descriptor to the tag stage at the far end of the engine.
  // A skid buffer in front of its FIFO takes the distance: written straight from the start
  // decode, the FIFO's write enable ran 7.4 ns of routing.
  onerma_skid #(
    .T(exp_t)
  ) u_exp_skid (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .in_valid_i (start),
    .in_ready_o (exp_in_ready),
    .in_data_i  ('{tag: dsc_tag, decrypt: dsc_info.decrypt, meta: dsc_info.meta}),
    .out_valid_o(exp_w_valid),
    .out_ready_i(exp_w_ready),
    .out_data_o (exp_w)
  );

  onerma_fifo #(
    .T    (exp_t),
    .Depth(MsgDepth)
  ) u_exp_fifo (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .flush_i    (1'b0),
    .in_valid_i (exp_w_valid),
    .in_ready_o (exp_w_ready),
    .in_data_i  (exp_w),
    .out_valid_o(exp_valid),
    .out_ready_i(exp_ready),
    .out_data_o (exp_r),
    .count_o    ()
  );
  /* verilator lint_on PINCONNECTEMPTY */

  // ---- Data stage, GHASH, tag.
  logic            blk_valid, blk_ready, blk_final, blk_last;
  logic [127:0]    blk_data;
  logic [PowW-1:0] blk_pow;
  logic            s_valid, s_ready;
  logic [127:0]    s_data;

  onerma_gcm_data #(
    .Lanes  (Lanes),
    .LenW   (LenW),
    .InDepth(InDepth),
    .meta_t (meta_t),
    .info_t (info_t),
    .dout_t (dout_t)
  ) u_data (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .din_valid_i (din_valid_i),
    .din_ready_o (din_ready_o),
    .din_data_i  (din_data_i),
    .info_valid_i(info_valid),
    .info_ready_o(info_ready),
    .info_i      (info),
    .ks_valid_i  (ks_valid),
    .ks_ready_o  (ks_ready),
    .ks_i        (ks_data),
    .blk_valid_o (blk_valid),
    .blk_ready_i (blk_ready),
    .blk_data_o  (blk_data),
    .blk_pow_o   (blk_pow),
    .blk_final_o (blk_final),
    .blk_last_o  (blk_last),
    .dout_valid_o(dout_valid_o),
    .dout_ready_i(dout_ready_i),
    .dout_data_o (dout_data_o)
  );

  onerma_ghash #(
    .Pipelined(Pipelined),
    .NumStages(NumStages)
  ) u_ghash (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .blk_valid_i(blk_valid),
    .blk_ready_o(blk_ready),
    .blk_data_i (blk_data),
    .blk_pow_i  (blk_pow),
    .blk_final_i(blk_final),
    .blk_last_i (blk_last),
    .pow_valid_i(pow_valid),
    .pow_ready_o(pow_ready),
    .pow_i      (pow_data),
    .s_valid_o  (s_valid),
    .s_ready_i  (s_ready),
    .s_o        (s_data)
  );

  onerma_gcm_tag #(
    .meta_t(meta_t),
    .res_t (res_t)
  ) u_tag (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .s_valid_i    (s_valid),
    .s_ready_o    (s_ready),
    .s_i          (s_data),
    .mask_valid_i (mask_valid),
    .mask_ready_o (mask_ready),
    .mask_i       (mask_data),
    .exp_valid_i  (exp_valid),
    .exp_ready_o  (exp_ready),
    .exp_tag_i    (exp_r.tag),
    .exp_decrypt_i(exp_r.decrypt),
    .exp_meta_i   (exp_r.meta),
    .res_valid_o  (res_valid_o),
    .res_ready_i  (res_ready_i),
    .res_data_o   (res_data_o)
  );

endmodule

`default_nettype wire
