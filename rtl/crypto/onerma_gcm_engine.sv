`default_nettype none

/// AES-128-GCM engine (NIST SP 800-38D, 96-bit IV, 128-bit tag), encrypt and decrypt, a new key
/// with every message. Format and timing: docs/crypto.md, section "GCM engine".
///
/// Streams (all valid/ready):
/// - desc: one per message {key, iv, aad_len, pt_len (bytes), decrypt, tag (expected tag when
///   decrypting, ignored when encrypting), meta}.
/// - din: then ceil(aad_len/16) AAD beats followed by ceil(pt_len/16) payload beats, 128 bits
///   each, byte 0 of the message part in bits [127:120]; the bytes past the end of a part in its
///   last beat are ignored (the engine zeroes them).
/// - dout: one beat per payload beat (ciphertext when encrypting, plaintext when decrypting),
///   same order, bytes past the end zeroed; last marks the message's last payload beat.
/// - res: one per message in message order {tag (computed), auth_ok, meta}. auth_ok is 1 when
///   encrypting and tag == expected tag when decrypting. Decrypted data leaves on dout before
///   res says whether it is authentic: the user must hold it until auth_ok (docs/crypto.md).
///
/// Structure: an issuer feeds the AES core (onerma_aes_core) with, per message, the block 0^128
/// (gives H), J0 = IV || 1 (gives the tag mask) and the counter blocks IV || 2, 3, ...; the AES
/// results are sorted into three FIFOs by a 2-bit kind carried as AES meta. The issuer runs ahead
/// of the data as far as the FIFOs allow, so H and the mask of the next message are ready before
/// its data arrives. H goes to the power unit (onerma_ghash_powers); the data stage XORs the
/// keystream into the payload and feeds AAD, ciphertext and the length block to onerma_ghash; the
/// tag stage combines S with the mask and compares.
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
  parameter type         meta_t    = logic [7:0]
) (
  input  logic              clk_i,
  input  logic              rst_ni,

  input  logic              desc_valid_i,
  output logic              desc_ready_o,
  input  logic [127:0]      desc_key_i,
  input  logic [95:0]       desc_iv_i,
  input  logic [LenW-1:0]   desc_aad_len_i,
  input  logic [LenW-1:0]   desc_pt_len_i,
  input  logic              desc_decrypt_i,
  input  logic [127:0]      desc_tag_i,
  input  meta_t             desc_meta_i,

  input  logic              din_valid_i,
  output logic              din_ready_o,
  input  logic [127:0]      din_data_i,

  output logic              dout_valid_o,
  input  logic              dout_ready_i,
  output logic [127:0]      dout_data_o,
  output logic              dout_last_o,
  output meta_t             dout_meta_o,

  output logic              res_valid_o,
  input  logic              res_ready_i,
  output logic [127:0]      res_tag_o,
  output logic              res_auth_ok_o,
  output meta_t             res_meta_o
);

  // onerma_ghash's lane count: the pipelined multiplier's latency.
  localparam int unsigned Lanes = Pipelined ? onerma_gf128_pkg::PipeLatency : 1;
  localparam int unsigned PowW  = (Lanes > 1) ? $clog2(Lanes) : 1;
  // Beats per part fit in LenW - 3 bits; a block index over AAD + payload + length in LenW - 2.
  localparam int unsigned BeatW = LenW - 3;
  localparam int unsigned IdxW  = LenW - 2;
  // Slices of the descriptor skid buffers, each with its own valid flops (~42 bits each).
  localparam int unsigned DescSlices = 8;
  // 16-bit lanes of the tag compare, one "differs" flag each.
  localparam int unsigned TagLanes = 8;

  typedef enum logic [1:0] {
    KindH    = 2'd0,
    KindMask = 2'd1,
    KindKs   = 2'd2
  } kind_e;

  typedef enum logic [1:0] {
    PhAad = 2'd0,
    PhPt  = 2'd1,
    PhLen = 2'd2
  } phase_e;

  // Everything the data stage needs per message, computed between the descriptor's two skid
  // buffers so that the data stage loads its position registers straight from the info FIFO
  // and otherwise only compares registers with constants. Recomputing the block counts from the
  // FIFO head every cycle limited the engine to ~48 MHz; decoding the first part and its mask
  // from the FIFO's distributed-RAM read at load time limited it to 99.5 MHz in context
  // (docs/crypto.md). Byte masks keep the bytes of a beat that belong to its part.
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

  // The descriptor after its first skid buffer: as received, with its two beat counts.
  typedef struct packed {
    logic [127:0]     key;
    logic [95:0]      iv;
    logic [127:0]     tag;
    logic [LenW-1:0]  aad_len;
    logic [LenW-1:0]  pt_len;
    logic [BeatW-1:0] n_aad;
    logic [BeatW-1:0] n_pt;
    logic             aad_small;   // n_aad < Lanes
    logic             pt_small;    // n_pt < Lanes
    logic             decrypt;
    meta_t            meta;
  } desc0_t;

  // The descriptor after its second skid buffer: the issuer's key and IV, the tag for the tag
  // stage, and the data stage's info, already computed.
  typedef struct packed {
    logic [127:0] key;
    logic [95:0]  iv;
    logic [127:0] tag;
    info_t        info;
  } desc_t;

  typedef struct packed {
    logic [127:0] tag;
    logic         decrypt;
    meta_t        meta;
  } rinfo_t;

  typedef struct packed {
    logic [127:0]    data;
    logic [PowW-1:0] pow;
    logic            final_blk;
    logic            last;
  } gblk_t;

  typedef struct packed {
    logic [127:0] data;
    logic         last;
    meta_t        meta;
  } dbeat_t;

  typedef struct packed {
    logic [127:0] tag;
    logic [127:0] diff;
    logic         decrypt;
    meta_t        meta;
  } rchk_t;

  typedef struct packed {
    logic [127:0]        tag;
    logic [TagLanes-1:0] lane_ne;
    logic                decrypt;
    meta_t               meta;
  } rcmp_t;

  typedef struct packed {
    logic [127:0] tag;
    logic         auth_ok;
    meta_t        meta;
  } res_t;

  function automatic logic [BeatW-1:0] beats(input logic [LenW-1:0] len);
    return BeatW'((32'(len) + 32'd15) >> 4);
  endfunction

  // Byte mask keeping the first nbytes bytes of a beat (nbytes = 0 means all 16); bit 15 is
  // byte 0 (bits [127:120]).
  function automatic logic [15:0] keep_mask(input logic [3:0] nbytes);
    return (nbytes == 4'd0) ? '1 : ~(16'hffff >> nbytes);
  endfunction

  // The GCM length block [len(A)]64 || [len(C)]64, lengths in bits.
  function automatic logic [127:0] len_block(input logic [LenW-1:0] aad_len,
                                             input logic [LenW-1:0] pt_len);
    return {(64 - LenW - 3)'(0), aad_len, 3'b0, (64 - LenW - 3)'(0), pt_len, 3'b0};
  endfunction

  function automatic logic [127:0] bit_mask(input logic [15:0] bytes);
    logic [127:0] m;
    for (int unsigned i = 0; i < 16; i++) begin
      m[8*i +: 8] = {8{bytes[i]}};
    end
    return m;
  endfunction

  // The FIFO occupancy counts are not needed: the FIFOs' own ready signals are enough.
  /* verilator lint_off PINCONNECTEMPTY */

  // ---------------------------------------------------------------------------------------------
  // Issuer: AES requests H, mask, counter blocks.
  // ---------------------------------------------------------------------------------------------
  logic              iss_busy_q;
  logic              iss_done_q;  // the head descriptor is issued: it leaves the skid now
  kind_e             iss_kind_q;
  logic [31:0]       iss_ctr_q;
  logic [BeatW-1:0]  iss_left_q;  // counter blocks still to issue, the current one included

  logic              info_in_ready, rinfo_in_ready, iss_start;
  logic              dsc_valid, dsc_ready;
  desc_t             dsc;
  logic              aes_in_ready, aes_issue;
  logic              aes_out_valid, aes_out_ready, aes_core_valid, aes_core_ready;
  logic [127:0]      aes_out_block, aes_core_block;
  kind_e             aes_out_kind, aes_core_kind;
  logic              d0_valid, d0_ready;
  desc0_t            d0;
  info_t             desc_info;

  // The descriptor passes two skid buffers, and the data stage's per-message info is computed
  // between them, one carry chain per stage: the beat counts in front of the first, the block
  // total and the first part behind it. The info FIFO is then written straight
  // from registers. Behind one skid (two carry chains and a compare into the FIFO's write data)
  // this arithmetic was the engine's in-context critical path at 82.4 MHz; all in front of it,
  // at 105.5 MHz (docs/crypto.md). The skids are needed anyway: the second one's registers
  // are the issuer's key and IV, and with the port driving the issuer directly the path from
  // the sender's flop was the engine's critical path (14.5 ns, mostly routing). The fields
  // go to places far apart (key and IV to the AES core, tag to the tag stage, info to the data
  // stage), so each slice has its own copy of the skid's valid flops (one valid net to 330 bits
  // ran 9.5 ns).
  onerma_skid #(.T(desc0_t), .Slices(DescSlices)) u_desc0_skid (
    .clk_i(clk_i), .rst_ni(rst_ni),
    .in_valid_i(desc_valid_i), .in_ready_o(desc_ready_o),
    .in_data_i('{key: desc_key_i, iv: desc_iv_i, tag: desc_tag_i, aad_len: desc_aad_len_i,
                 pt_len: desc_pt_len_i, n_aad: beats(desc_aad_len_i),
                 n_pt: beats(desc_pt_len_i),
                 aad_small: (32'(desc_aad_len_i) <= 32'(16 * (Lanes - 1))),
                 pt_small: (32'(desc_pt_len_i) <= 32'(16 * (Lanes - 1))),
                 decrypt: desc_decrypt_i, meta: desc_meta_i}),
    .out_valid_o(d0_valid), .out_ready_i(d0_ready), .out_data_o(d0)
  );

  always_comb begin
    desc_info.aad_len     = d0.aad_len;
    desc_info.pt_len      = d0.pt_len;
    desc_info.n_pt        = d0.n_pt;
    desc_info.pt_one      = (d0.n_pt == BeatW'(1));
    desc_info.has_pt      = (d0.n_pt != '0);
    desc_info.aad_last    = keep_mask(d0.aad_len[3:0]);
    desc_info.pt_last     = keep_mask(d0.pt_len[3:0]);
    if (d0.n_aad != '0) begin
      desc_info.first_phase = PhAad;
      desc_info.first_left  = d0.n_aad;
      desc_info.first_end   = (d0.n_aad == BeatW'(1));
      desc_info.first_mask  = desc_info.first_end ? desc_info.aad_last : '1;
    end else if (desc_info.has_pt) begin
      desc_info.first_phase = PhPt;
      desc_info.first_left  = d0.n_pt;
      desc_info.first_end   = desc_info.pt_one;
      desc_info.first_mask  = desc_info.pt_one ? desc_info.pt_last : '1;
    end else begin
      desc_info.first_phase = PhLen;
      desc_info.first_left  = '0;
      desc_info.first_end   = 1'b0;
      desc_info.first_mask  = '0;  // the length block takes no input bytes
    end
    desc_info.n_total     = IdxW'(d0.n_aad) + IdxW'(d0.n_pt) + IdxW'(1);
    // n_total <= Lanes without waiting for n_total: both counts are below Lanes (flags from the
    // lengths, in front of the first skid), so their low bits add exactly. The sum and its
    // compare in series were the in-context worst path between the two skids.
    desc_info.total_final = d0.aad_small && d0.pt_small &&
                            ((PowW + 1)'(d0.n_aad[PowW-1:0]) + (PowW + 1)'(d0.n_pt[PowW-1:0])
                             < (PowW + 1)'(Lanes));
    desc_info.decrypt     = d0.decrypt;
    desc_info.meta        = d0.meta;
  end

  onerma_skid #(.T(desc_t), .Slices(DescSlices)) u_desc_skid (
    .clk_i(clk_i), .rst_ni(rst_ni),
    .in_valid_i(d0_valid), .in_ready_o(d0_ready),
    .in_data_i('{key: d0.key, iv: d0.iv, tag: d0.tag, info: desc_info}),
    .out_valid_o(dsc_valid), .out_ready_i(dsc_ready), .out_data_o(dsc)
  );

  // The issuer works on the descriptor in place, at the head of its skid buffer: the AES core
  // takes the key and IV straight from the skid's registers, and the descriptor leaves the skid
  // the cycle after its last block is issued (iss_done_q). Copying key and IV out at the start
  // instead needed ~220 flops whose load enable was the start decode (or copies of the busy
  // flop, next to their flops across the AES core): those nets were the engine's in-context
  // worst paths at speed grade 6 and 8 (docs/crypto.md). The skid's pop is now a flop, and
  // each message costs the issuer one more cycle (2 + payload blocks + 1). The benchmarks do not
  // see it: the issuer runs ahead of the data by the keystream FIFO, and short messages are
  // limited by the power table of H (12 cycles per message).
  assign iss_start     = dsc_valid && !iss_busy_q && !iss_done_q && info_in_ready &&
                         rinfo_in_ready;
  assign dsc_ready     = iss_done_q;
  assign aes_issue     = iss_busy_q && aes_in_ready;

  logic  iss_busy_d;
  kind_e iss_kind_d;

  always_comb begin
    iss_busy_d = iss_busy_q;
    iss_kind_d = iss_kind_q;
    if (iss_start) begin
      iss_busy_d = 1'b1;
      iss_kind_d = KindH;
    end else if (aes_issue) begin
      unique case (iss_kind_q)
        KindH:   iss_kind_d = KindMask;
        KindMask: begin
          iss_kind_d = KindKs;
          iss_busy_d = (iss_left_q != '0);
        end
        // iss_left_q still counts the block going in now.
        default: iss_busy_d = (iss_left_q != BeatW'(1));
      endcase
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      iss_busy_q <= 1'b0;
      iss_done_q <= 1'b0;
      iss_kind_q <= KindH;
    end else begin
      iss_busy_q <= iss_busy_d;
      iss_done_q <= iss_busy_q && !iss_busy_d;
      iss_kind_q <= iss_kind_d;
    end
  end

  always_ff @(posedge clk_i) begin
    if (!iss_busy_q) begin
      iss_ctr_q  <= 32'd1;
      iss_left_q <= dsc.info.n_pt;
    end else if (aes_issue && (iss_kind_q != KindH)) begin
      // inc32 of SP 800-38D: the 32-bit counter wraps on its own.
      iss_ctr_q <= iss_ctr_q + 32'd1;
      if (iss_kind_q == KindKs) begin
        iss_left_q <= iss_left_q - BeatW'(1);
      end
    end
  end

  onerma_aes_core #(
    .Pipelined(Pipelined),
    .SboxRam  (SboxRam),
    .meta_t   (kind_e)
  ) u_aes (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .in_valid_i (iss_busy_q),
    .in_ready_o (aes_in_ready),
    .in_key_i   (dsc.key),
    .in_block_i ((iss_kind_q == KindH) ? 128'h0 : {dsc.iv, iss_ctr_q}),
    .in_meta_i  (iss_kind_q),
    .out_valid_o(aes_core_valid),
    .out_ready_i(aes_core_ready),
    .out_block_o(aes_core_block),
    .out_meta_o (aes_core_kind)
  );

  // AES results pass a skid buffer before they are sorted: the sort reads the kind to pick the
  // FIFO whose ready pops the result, and straight from the AES output FIFO (distributed RAM
  // read -> kind decode -> pop -> the core's credit counter) that was a 14.8 ns path.
  typedef struct packed {
    logic [127:0] block;
    kind_e        kind;
  } aes_res_t;
  aes_res_t aes_res;

  onerma_skid #(.T(aes_res_t)) u_aes_skid (
    .clk_i(clk_i), .rst_ni(rst_ni),
    .in_valid_i(aes_core_valid), .in_ready_o(aes_core_ready),
    .in_data_i('{block: aes_core_block, kind: aes_core_kind}),
    .out_valid_o(aes_out_valid), .out_ready_i(aes_out_ready), .out_data_o(aes_res)
  );
  assign aes_out_block = aes_res.block;
  assign aes_out_kind  = aes_res.kind;

  // AES results, sorted by kind.
  logic         h_push_ready, mask_push_ready, ks_push_ready;
  logic         h_valid, h_ready;
  logic [127:0] h_data;
  logic         mask_valid, mask_ready;
  logic [127:0] mask_data;
  logic         ks_valid, ks_ready;
  logic [127:0] ks_data;

  always_comb begin
    unique case (aes_out_kind)
      KindH:    aes_out_ready = h_push_ready;
      KindMask: aes_out_ready = mask_push_ready;
      default:  aes_out_ready = ks_push_ready;
    endcase
  end

  onerma_fifo #(.Width(128), .Depth(2)) u_h_fifo (
    .clk_i(clk_i), .rst_ni(rst_ni), .flush_i(1'b0),
    .in_valid_i(aes_out_valid && (aes_out_kind == KindH)), .in_ready_o(h_push_ready),
    .in_data_i(aes_out_block),
    .out_valid_o(h_valid), .out_ready_i(h_ready), .out_data_o(h_data), .count_o()
  );

  onerma_fifo #(.Width(128), .Depth(MsgDepth)) u_mask_fifo (
    .clk_i(clk_i), .rst_ni(rst_ni), .flush_i(1'b0),
    .in_valid_i(aes_out_valid && (aes_out_kind == KindMask)), .in_ready_o(mask_push_ready),
    .in_data_i(aes_out_block),
    .out_valid_o(mask_valid), .out_ready_i(mask_ready), .out_data_o(mask_data), .count_o()
  );

  // 16 deep so the issuer runs far enough ahead that the next message's H and its powers are ready
  // before its data: with 4 the engine lost ~10 cycles at every 4 KB message boundary.
  onerma_fifo #(.Width(128), .Depth(16)) u_ks_fifo (
    .clk_i(clk_i), .rst_ni(rst_ni), .flush_i(1'b0),
    .in_valid_i(aes_out_valid && (aes_out_kind == KindKs)), .in_ready_o(ks_push_ready),
    .in_data_i(aes_out_block),
    .out_valid_o(ks_valid), .out_ready_i(ks_ready), .out_data_o(ks_data), .count_o()
  );

  // ---------------------------------------------------------------------------------------------
  // H powers for GHASH, one table per message, computed ahead.
  // ---------------------------------------------------------------------------------------------
  logic                 pw_valid, pw_ready;
  logic [Lanes*128-1:0] pw_data;
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
    .pow_valid_o(pw_valid),
    .pow_ready_i(pw_ready),
    .pow_o      (pw_data)
  );

  onerma_fifo #(.Width(Lanes*128), .Depth(1)) u_pow_fifo (
    .clk_i(clk_i), .rst_ni(rst_ni), .flush_i(1'b0),
    .in_valid_i(pw_valid), .in_ready_o(pw_ready), .in_data_i(pw_data),
    .out_valid_o(pow_valid), .out_ready_i(pow_ready), .out_data_o(pow_data), .count_o()
  );

  // ---------------------------------------------------------------------------------------------
  // Per-message bookkeeping from the descriptor.
  // ---------------------------------------------------------------------------------------------
  logic   info_valid, info_ready;
  info_t  info;
  logic   rinfo_valid, rinfo_ready;
  rinfo_t rinfo;

  onerma_fifo #(.T(info_t), .Depth(MsgDepth)) u_info_fifo (
    .clk_i(clk_i), .rst_ni(rst_ni), .flush_i(1'b0),
    .in_valid_i(iss_start), .in_ready_o(info_in_ready), .in_data_i(dsc.info),
    .out_valid_o(info_valid), .out_ready_i(info_ready), .out_data_o(info), .count_o()
  );

  // The expected tag travels from the descriptor to the tag stage at the far end of the engine.
  // A skid buffer in front of its FIFO takes the distance: written straight from the start
  // decode, the FIFO's write enable ran 7.4 ns of routing (in context, speed grade 6).
  logic   rinfo_w_valid, rinfo_w_ready;
  rinfo_t rinfo_w;

  onerma_skid #(.T(rinfo_t)) u_rinfo_skid (
    .clk_i(clk_i), .rst_ni(rst_ni),
    .in_valid_i(iss_start), .in_ready_o(rinfo_in_ready),
    .in_data_i('{tag: dsc.tag, decrypt: dsc.info.decrypt, meta: dsc.info.meta}),
    .out_valid_o(rinfo_w_valid), .out_ready_i(rinfo_w_ready), .out_data_o(rinfo_w)
  );

  onerma_fifo #(.T(rinfo_t), .Depth(MsgDepth)) u_rinfo_fifo (
    .clk_i(clk_i), .rst_ni(rst_ni), .flush_i(1'b0),
    .in_valid_i(rinfo_w_valid), .in_ready_o(rinfo_w_ready), .in_data_i(rinfo_w),
    .out_valid_o(rinfo_valid), .out_ready_i(rinfo_ready), .out_data_o(rinfo), .count_o()
  );

  // ---------------------------------------------------------------------------------------------
  // Data stage: AAD beats, payload beats, then the length block, for the message at the head of
  // the info FIFO.
  // ---------------------------------------------------------------------------------------------
  logic             in_valid, in_ready;
  logic [127:0]     in_data;

  onerma_fifo #(.Width(128), .Depth(InDepth)) u_in_fifo (
    .clk_i(clk_i), .rst_ni(rst_ni), .flush_i(1'b0),
    .in_valid_i(din_valid_i), .in_ready_o(din_ready_o), .in_data_i(din_data_i),
    .out_valid_o(in_valid), .out_ready_i(in_ready), .out_data_o(in_data), .count_o()
  );

  // The message being worked on is a register copy of the info FIFO's head (cur_q), loaded as the
  // previous message's length block goes, so no cycle is lost between messages. Its position is
  // kept in registers: the part (phase_q), the beats left in the part (left_q, end_q = last beat
  // of the part) and the GHASH blocks left including the length block (rem_q, final_q = rem_q
  // <= Lanes). Every flag the handshakes use is a register.
  logic             cur_valid_q;
  // The fields used only at load time (first_*, n_total, total_final) are not read from the
  // copy; synthesis drops their flops.
  /* verilator lint_off UNUSEDSIGNAL */
  info_t            cur_q;
  /* verilator lint_on UNUSEDSIGNAL */
  phase_e           phase_q;
  logic [BeatW-1:0] left_q;
  logic             end_q;
  logic [IdxW-1:0]  rem_q;
  logic             final_q;

  logic             is_aad, is_pt, is_len, load;
  logic             gblk_ready, dbeat_ready, go;
  logic [127:0]     part_mask, out_data, ks_sel;
  gblk_t            gblk;
  dbeat_t           dbeat;

  assign is_aad = (phase_q == PhAad);
  assign is_pt  = (phase_q == PhPt);
  assign is_len = (phase_q == PhLen);

  // part_mask: the bytes of the current beat that belong to its part (all but in a part's last
  // beat). It is a register, loaded with the position registers: as a decode of cur_q's lengths in
  // front of the data path it was the engine's critical path in context (90.0 MHz: length nibble
  // -> 128-bit mask -> AND -> XOR -> muxes -> GHASH skid, 6 LUT levels).
  logic [15:0] mask_q;
  assign part_mask = bit_mask(mask_q);

  // The GHASH block is one expression per bit, its selects registers loaded with the position:
  // (in ^ (ks & xks)) & mask | len, with xks = "encrypting payload" (the ciphertext is in ^ ks;
  // AAD and decrypt ciphertext are the input), the mask zero in the length block and len_q the
  // length block's bits there and zero elsewhere. Most bits are one LUT4 (in, ks, xks, mask).
  // Decoding phase and decrypt into a 3-way mux per bit was the in-context worst path at speed
  // grade 6 (3 LUT levels, 6.7 ns routing across the input and keystream FIFOs). xks is copied
  // per 32-bit slice (onerma_dup_reg): each copy drives 32 LUTs, not 128.
  localparam int unsigned XksCopies = 4;
  logic                 xks_d;
  logic [XksCopies-1:0] xks_q;
  logic [127:0]         len_q, len_blk;

  for (genvar c = 0; c < XksCopies; c++) begin : g_xks
    onerma_dup_reg #(.Width(1)) u_xks (.clk_i, .rst_ni, .d_i(xks_d), .q_o(xks_q[c]));
  end

  // A slice per copy (not a loop over bits: a simulator then ANDs whole words).
  always_comb begin
    for (int unsigned c = 0; c < XksCopies; c++) begin
      ks_sel[c*(128/XksCopies) +: 128/XksCopies] =
        ks_data[c*(128/XksCopies) +: 128/XksCopies] & {(128/XksCopies){xks_q[c]}};
    end
  end

  assign out_data = (in_data ^ ks_data) & part_mask;
  assign len_blk  = len_block(cur_q.aad_len, cur_q.pt_len);

  always_comb begin
    unique case (phase_q)
      PhLen:   go = cur_valid_q && gblk_ready;
      PhPt:    go = cur_valid_q && in_valid && ks_valid && dbeat_ready && gblk_ready;
      default: go = cur_valid_q && in_valid && gblk_ready;
    endcase
  end

  assign in_ready   = go && !is_len;
  assign ks_ready   = go && is_pt;
  assign load       = info_valid && (!cur_valid_q || (go && is_len));
  assign info_ready = load;

  always_comb begin
    gblk.data      = ((in_data ^ ks_sel) & part_mask) | len_q;
    gblk.final_blk = final_q;
    gblk.pow       = final_q ? PowW'(rem_q - IdxW'(1)) : PowW'(Lanes - 1);
    gblk.last      = is_len;
  end

  assign dbeat = '{data: out_data, last: end_q, meta: cur_q.meta};

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      cur_valid_q <= 1'b0;
    end else if (load) begin
      cur_valid_q <= 1'b1;
    end else if (go && is_len) begin
      cur_valid_q <= 1'b0;
    end
  end

  // xks: set for payload beats when encrypting; len_q: the length block while it goes.
  always_comb begin
    xks_d = xks_q[0];
    if (load) begin
      xks_d = (info.first_phase == PhPt) && !info.decrypt;
    end else if (go && end_q) begin
      xks_d = is_aad && cur_q.has_pt && !cur_q.decrypt;
    end
  end

  // Only cur_valid_q is reset: the position registers are loaded with every message.
  always_ff @(posedge clk_i) begin
    if (load) begin
      len_q   <= (info.first_phase == PhLen) ? len_block(info.aad_len, info.pt_len) : '0;
      cur_q   <= info;
      rem_q   <= info.n_total;
      final_q <= info.total_final;
      phase_q <= info.first_phase;
      left_q  <= info.first_left;
      end_q   <= info.first_end;
      mask_q  <= info.first_mask;
    end else if (go) begin
      rem_q   <= rem_q - IdxW'(1);
      final_q <= (rem_q <= IdxW'(Lanes + 1));
      if (!end_q) begin
        left_q <= left_q - BeatW'(1);
        end_q  <= (left_q == BeatW'(2));
        mask_q <= (left_q != BeatW'(2)) ? '1 : (is_aad ? cur_q.aad_last : cur_q.pt_last);
      end else if (is_aad && cur_q.has_pt) begin
        phase_q <= PhPt;
        left_q  <= cur_q.n_pt;
        end_q   <= cur_q.pt_one;
        mask_q  <= cur_q.pt_one ? cur_q.pt_last : '1;
      end else begin
        phase_q <= PhLen;
        end_q   <= 1'b0;
        mask_q  <= '0;
        len_q   <= len_blk;
      end
    end
  end

  // Two skid buffers in series between the data stage and GHASH: the first sits by the data
  // stage's muxes, the second by GHASH's input. With one, the in-context worst path at speed
  // grade 6 ran phase_q -> mask/XOR/mux (1.5 ns of logic) -> a 3.1 ns net to the skid.
  logic   g0_valid, g0_ready, g_valid, g_ready;
  gblk_t  g0_blk, g_blk;

  onerma_skid #(.T(gblk_t)) u_gblk0_skid (
    .clk_i(clk_i), .rst_ni(rst_ni),
    .in_valid_i(go), .in_ready_o(gblk_ready), .in_data_i(gblk),
    .out_valid_o(g0_valid), .out_ready_i(g0_ready), .out_data_o(g0_blk)
  );

  onerma_skid #(.T(gblk_t)) u_gblk_skid (
    .clk_i(clk_i), .rst_ni(rst_ni),
    .in_valid_i(g0_valid), .in_ready_o(g0_ready), .in_data_i(g0_blk),
    .out_valid_o(g_valid), .out_ready_i(g_ready), .out_data_o(g_blk)
  );

  dbeat_t dout_beat;

  onerma_skid #(.T(dbeat_t)) u_dout_skid (
    .clk_i(clk_i), .rst_ni(rst_ni),
    .in_valid_i(go && is_pt), .in_ready_o(dbeat_ready), .in_data_i(dbeat),
    .out_valid_o(dout_valid_o), .out_ready_i(dout_ready_i), .out_data_o(dout_beat)
  );

  assign dout_data_o = dout_beat.data;
  assign dout_last_o = dout_beat.last;
  assign dout_meta_o = dout_beat.meta;

  // ---------------------------------------------------------------------------------------------
  // GHASH and tag.
  // ---------------------------------------------------------------------------------------------
  logic         s_valid, s_ready;
  logic [127:0] s_data;

  onerma_ghash #(
    .Pipelined(Pipelined),
    .NumStages(NumStages)
  ) u_ghash (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .blk_valid_i(g_valid),
    .blk_ready_o(g_ready),
    .blk_data_i (g_blk.data),
    .blk_pow_i  (g_blk.pow),
    .blk_final_i(g_blk.final_blk),
    .blk_last_i (g_blk.last),
    .pow_valid_i(pow_valid),
    .pow_ready_o(pow_ready),
    .pow_i      (pow_data),
    .s_valid_o  (s_valid),
    .s_ready_i  (s_ready),
    .s_o        (s_data)
  );

  // Three register stages between the FIFO heads and the result, so that no cycle holds more
  // than two LUT levels of the check: (1) the tag S ^ mask and its difference from the expected
  // tag (one 3-input XOR per bit); (2) one "lane differs" flag per 16-bit lane (a 16-input OR);
  // (3) auth_ok from the flags. With the 128-bit compare in one cycle it was the engine's worst
  // path in context at speed grade 6 (7 LUT/mux levels, 8.9 ns; docs/crypto.md).
  logic         chk_push_ready, tag_go;
  logic         chk_valid, chk_ready, cmp_valid, cmp_ready;
  logic [127:0] tag_now;
  rchk_t        chk_in, chk;
  rcmp_t        cmp_in, cmp;
  res_t         res_in, res_out;

  assign tag_go      = s_valid && mask_valid && rinfo_valid && chk_push_ready;
  assign s_ready     = tag_go;
  assign mask_ready  = tag_go;
  assign rinfo_ready = tag_go;
  assign tag_now     = s_data ^ mask_data;
  assign chk_in      = '{tag: tag_now, diff: tag_now ^ rinfo.tag, decrypt: rinfo.decrypt,
                         meta: rinfo.meta};

  onerma_skid #(.T(rchk_t)) u_chk_skid (
    .clk_i(clk_i), .rst_ni(rst_ni),
    .in_valid_i(tag_go), .in_ready_o(chk_push_ready), .in_data_i(chk_in),
    .out_valid_o(chk_valid), .out_ready_i(chk_ready), .out_data_o(chk)
  );

  always_comb begin
    cmp_in = '{tag: chk.tag, lane_ne: '0, decrypt: chk.decrypt, meta: chk.meta};
    for (int unsigned l = 0; l < TagLanes; l++) begin
      cmp_in.lane_ne[l] = |chk.diff[16*l +: 16];
    end
  end

  onerma_skid #(.T(rcmp_t)) u_cmp_skid (
    .clk_i(clk_i), .rst_ni(rst_ni),
    .in_valid_i(chk_valid), .in_ready_o(chk_ready), .in_data_i(cmp_in),
    .out_valid_o(cmp_valid), .out_ready_i(cmp_ready), .out_data_o(cmp)
  );

  assign res_in = '{tag: cmp.tag, auth_ok: !cmp.decrypt || (cmp.lane_ne == '0), meta: cmp.meta};

  onerma_skid #(.T(res_t)) u_res_skid (
    .clk_i(clk_i), .rst_ni(rst_ni),
    .in_valid_i(cmp_valid), .in_ready_o(cmp_ready), .in_data_i(res_in),
    .out_valid_o(res_valid_o), .out_ready_i(res_ready_i), .out_data_o(res_out)
  );

  assign res_tag_o     = res_out.tag;
  assign res_auth_ok_o = res_out.auth_ok;
  assign res_meta_o    = res_out.meta;

  /* verilator lint_on PINCONNECTEMPTY */

endmodule

`default_nettype wire
