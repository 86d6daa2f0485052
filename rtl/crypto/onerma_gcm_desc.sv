`default_nettype none

/// Descriptor intake of the AES-GCM engine: two skid buffers, and between them the per-message
/// arithmetic that the data stage would otherwise do at the head of its info FIFO.
///
/// Data formats:
/// - in (desc_t): {key, iv, aad_len, pt_len (bytes), decrypt, tag (expected), meta}, as the
///   engine's descriptor stream (onerma_gcm_engine).
/// - out: the issuer's key and IV, the expected tag for the tag stage, and info (info_t), what
///   the data stage needs for the message: lengths, beat counts, byte masks of the last beats,
///   the first part and its first beat, the GHASH block total (AAD + payload beats + the length
///   block) and whether the first block is already among the last Lanes blocks of the message.
///
/// Why the arithmetic sits here, one carry chain per register stage (the beat counts in front of
/// the first skid, the block total and the first part behind it): the data stage then loads its
/// position registers straight from the info FIFO and otherwise compares registers with
/// constants. Recomputing the counts from the FIFO head every cycle, or decoding the first part
/// from the FIFO's distributed-RAM read, or all of this behind one skid, was each in turn the
/// engine's critical path in context.
///
/// Why two skids: the second one's registers are the issuer's key and IV (a descriptor port
/// driving the issuer directly put the sender's flop on the critical path). The fields go to
/// places far apart (key and IV to the AES core, tag to the tag stage, info to the data stage),
/// so each skid is cut into Slices, each with its own copy of the valid flops (one valid net to
/// 330 bits was a 9.5 ns route).
module onerma_gcm_desc #(
  /// onerma_ghash's lane count (the pipelined multiplier's latency, 1 when iterative).
  parameter int unsigned Lanes  = 5,
  parameter int unsigned LenW   = 16,
  parameter type         meta_t = logic [7:0],
  /// The engine's descriptor payload (onerma_gcm_engine's desc_t).
  parameter type         desc_t = struct packed {
    logic [127:0]    key;
    logic [95:0]     iv;
    logic [LenW-1:0] aad_len;
    logic [LenW-1:0] pt_len;
    logic            decrypt;
    logic [127:0]    tag;
    meta_t           meta;
  },
  /// The data stage's per-message info. The engine passes its own info_t (onerma_gcm_engine), so
  /// this stage and the data stage use one definition; this default is for standalone use.
  parameter type         info_t = struct packed {
    logic [LenW-1:0]                  aad_len;
    logic [LenW-1:0]                  pt_len;
    logic [LenW-4:0]                  n_pt;
    logic                             pt_one;
    logic                             has_pt;
    logic [15:0]                      aad_last;
    logic [15:0]                      pt_last;
    onerma_gcm_pkg::phase_e           first_phase;
    logic [LenW-4:0]                  first_left;
    logic                             first_end;
    logic [15:0]                      first_mask;
    logic [LenW-3:0]                  n_total;
    logic                             total_final;
    logic                             decrypt;
    meta_t                            meta;
  }
) (
  input  logic         clk_i,
  input  logic         rst_ni,

  input  logic         in_valid_i,
  output logic         in_ready_o,
  input  desc_t        in_data_i,

  output logic         out_valid_o,
  input  logic         out_ready_i,
  output logic [127:0] out_key_o,
  output logic [95:0]  out_iv_o,
  output logic [127:0] out_tag_o,
  output info_t        out_info_o
);

  import onerma_gcm_pkg::*;

  localparam int unsigned PowW  = (Lanes > 1) ? $clog2(Lanes) : 1;
  // Beats per part fit in LenW - 3 bits; a block index over AAD + payload + length in LenW - 2.
  localparam int unsigned BeatW = LenW - 3;
  localparam int unsigned IdxW  = LenW - 2;
  // Slices of each skid buffer, each with its own valid flops (~42 bits each).
  localparam int unsigned Slices = 8;

  // The descriptor after the first skid: as received, with its two beat counts.
  typedef struct packed {
    logic [127:0]     key;
    logic [95:0]      iv;
    logic [127:0]     tag;
    logic [LenW-1:0]  aad_len;
    logic [LenW-1:0]  pt_len;
    logic [BeatW-1:0] n_aad;
    logic [BeatW-1:0] n_pt;
    logic             aad_small;  // n_aad < Lanes
    logic             pt_small;   // n_pt < Lanes
    logic             decrypt;
    meta_t            meta;
  } desc0_t;

  // The descriptor after the second skid.
  typedef struct packed {
    logic [127:0] key;
    logic [95:0]  iv;
    logic [127:0] tag;
    info_t        info;
  } desc1_t;

  desc0_t d0_in, d0;
  logic   d0_valid, d0_ready;
  info_t  info;
  desc1_t d1;

  always_comb begin : d0_counts
    d0_in.key       = in_data_i.key;
    d0_in.iv        = in_data_i.iv;
    d0_in.tag       = in_data_i.tag;
    d0_in.aad_len   = in_data_i.aad_len;
    d0_in.pt_len    = in_data_i.pt_len;
    d0_in.n_aad     = BeatW'(beat_count(32'(in_data_i.aad_len)));
    d0_in.n_pt      = BeatW'(beat_count(32'(in_data_i.pt_len)));
    d0_in.aad_small = (32'(in_data_i.aad_len) <= 32'(16 * (Lanes - 1)));
    d0_in.pt_small  = (32'(in_data_i.pt_len) <= 32'(16 * (Lanes - 1)));
    d0_in.decrypt   = in_data_i.decrypt;
    d0_in.meta      = in_data_i.meta;
  end

  onerma_skid #(
    .T     (desc0_t),
    .Slices(Slices)
  ) u_skid0 (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .in_valid_i (in_valid_i),
    .in_ready_o (in_ready_o),
    .in_data_i  (d0_in),
    .out_valid_o(d0_valid),
    .out_ready_i(d0_ready),
    .out_data_o (d0)
  );

  always_comb begin : info_calc
    info.aad_len  = d0.aad_len;
    info.pt_len   = d0.pt_len;
    info.n_pt     = d0.n_pt;
    info.pt_one   = (d0.n_pt == BeatW'(1));
    info.has_pt   = (d0.n_pt != '0);
    info.aad_last = keep_mask(d0.aad_len[3:0]);
    info.pt_last  = keep_mask(d0.pt_len[3:0]);
    if (d0.n_aad != '0) begin
      info.first_phase = PhAad;
      info.first_left  = d0.n_aad;
      info.first_end   = (d0.n_aad == BeatW'(1));
      info.first_mask  = info.first_end ? info.aad_last : '1;
    end else if (info.has_pt) begin
      info.first_phase = PhPt;
      info.first_left  = d0.n_pt;
      info.first_end   = info.pt_one;
      info.first_mask  = info.pt_one ? info.pt_last : '1;
    end else begin
      info.first_phase = PhLen;
      info.first_left  = '0;
      info.first_end   = 1'b0;
      info.first_mask  = '0;  // the length block takes no input bytes
    end
    info.n_total     = IdxW'(d0.n_aad) + IdxW'(d0.n_pt) + IdxW'(1);
    // n_total <= Lanes without waiting for n_total: both counts are below Lanes (flags from the
    // lengths, in front of the first skid), so their low bits add exactly. The sum and its
    // compare in series were the worst path between the two skids.
    info.total_final = d0.aad_small && d0.pt_small &&
                       ((PowW + 1)'(d0.n_aad[PowW-1:0]) + (PowW + 1)'(d0.n_pt[PowW-1:0])
                        < (PowW + 1)'(Lanes));
    info.decrypt     = d0.decrypt;
    info.meta        = d0.meta;
  end

  onerma_skid #(
    .T     (desc1_t),
    .Slices(Slices)
  ) u_skid1 (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .in_valid_i (d0_valid),
    .in_ready_o (d0_ready),
    .in_data_i  ('{key: d0.key, iv: d0.iv, tag: d0.tag, info: info}),
    .out_valid_o(out_valid_o),
    .out_ready_i(out_ready_i),
    .out_data_o (d1)
  );

  assign out_key_o  = d1.key;
  assign out_iv_o   = d1.iv;
  assign out_tag_o  = d1.tag;
  assign out_info_o = d1.info;

endmodule

`default_nettype wire
