`default_nettype none

/// Data stage of the AES-GCM engine: walks each message's AAD beats, payload beats and length
/// block, XORs the keystream into the payload (dout) and forms the GHASH blocks.
///
/// Data formats:
/// - din (onerma_gcm_pkg::din_t): ceil(aad_len/16) AAD beats, then ceil(pt_len/16) payload
///   beats; byte 0 of the part in bits [127:120]; bytes past the end of a part are ignored.
/// - info (info_t, from onerma_gcm_desc through the engine's info FIFO): one per message, in
///   message order.
/// - ks: one 128-bit keystream block per payload beat, in order (onerma_gcm_sort).
/// - blk (to onerma_ghash): {data, pow, final, last} per GHASH block: AAD, ciphertext, then the
///   length block (last). pow is the power of H the block is multiplied by minus one: Lanes - 1,
///   or for the last Lanes blocks of a message (final) the blocks left minus one.
/// - dout (dout_t): {data, last, meta} per payload beat, bytes past the end zeroed, last on the
///   message's last payload beat.
///
/// The message being worked on is a register copy of the info FIFO's head (cur_q), loaded as the
/// previous message's length block goes, so no cycle is lost between messages. Its position is
/// kept in registers: the part (phase_q), the beats left in the part (left_q; end_q = last beat
/// of the part) and the GHASH blocks left including the length block (rem_q; final_q = rem_q
/// <= Lanes). Every flag the handshakes use is a register, so that the data path is the only
/// logic between the FIFO heads and the skids behind this stage.
module onerma_gcm_data #(
  /// onerma_ghash's lane count (the pipelined multiplier's latency, 1 when iterative).
  parameter int unsigned Lanes   = 5,
  parameter int unsigned LenW    = 16,
  /// Input beat buffer (beats).
  parameter int unsigned InDepth = 2,
  parameter type         meta_t  = logic [7:0],
  /// Per-message info; the engine passes its own (see onerma_gcm_desc), this default is for
  /// standalone use.
  parameter type         info_t  = struct packed {
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
  },
  /// The engine's dout payload (onerma_gcm_engine's dout_t).
  parameter type         dout_t  = struct packed {
    logic [127:0] data;
    logic         last;
    meta_t        meta;
  },
  // Derived, do not override.
  parameter int unsigned PowW    = (Lanes > 1) ? $clog2(Lanes) : 1
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,

  input  logic                 din_valid_i,
  output logic                 din_ready_o,
  input  onerma_gcm_pkg::din_t din_data_i,

  input  logic                 info_valid_i,
  output logic                 info_ready_o,
  input  info_t                info_i,

  input  logic                 ks_valid_i,
  output logic                 ks_ready_o,
  input  logic [127:0]         ks_i,

  output logic                 blk_valid_o,
  input  logic                 blk_ready_i,
  output logic [127:0]         blk_data_o,
  output logic [PowW-1:0]      blk_pow_o,
  output logic                 blk_final_o,
  output logic                 blk_last_o,

  output logic                 dout_valid_o,
  input  logic                 dout_ready_i,
  output dout_t                dout_data_o
);

  import onerma_gcm_pkg::*;

  localparam int unsigned BeatW = LenW - 3;
  localparam int unsigned IdxW  = LenW - 2;

  typedef struct packed {
    logic [127:0]    data;
    logic [PowW-1:0] pow;
    logic            final_blk;
    logic            last;
  } gblk_t;

  // ---- Input beats.
  logic   in_valid, in_ready;
  din_t   in_beat;

  // The FIFO occupancy count is not needed: its ready is enough.
  /* verilator lint_off PINCONNECTEMPTY */
  onerma_fifo #(
    .T    (din_t),
    .Depth(InDepth)
  ) u_in_fifo (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .flush_i    (1'b0),
    .in_valid_i (din_valid_i),
    .in_ready_o (din_ready_o),
    .in_data_i  (din_data_i),
    .out_valid_o(in_valid),
    .out_ready_i(in_ready),
    .out_data_o (in_beat),
    .count_o    ()
  );
  /* verilator lint_on PINCONNECTEMPTY */

  // ---- Position.
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

  logic             is_aad, is_pt, is_len, load, go;
  logic             gblk_ready, dbeat_ready;

  assign is_aad = (phase_q == PhAad);
  assign is_pt  = (phase_q == PhPt);
  assign is_len = (phase_q == PhLen);

  always_comb begin : step
    unique case (phase_q)
      PhLen:   go = cur_valid_q && gblk_ready;
      PhPt:    go = cur_valid_q && in_valid && ks_valid_i && dbeat_ready && gblk_ready;
      default: go = cur_valid_q && in_valid && gblk_ready;
    endcase
  end

  assign in_ready     = go && !is_len;
  assign ks_ready_o   = go && is_pt;
  assign load         = info_valid_i && (!cur_valid_q || (go && is_len));
  assign info_ready_o = load;

  // ---- Data path.
  // part_mask: the bytes of the current beat that belong to its part (all but in a part's last
  // beat). It is a register (mask_q), loaded with the position registers: decoded from cur_q's
  // lengths in front of the data path (length nibble -> 128-bit mask -> AND -> XOR -> muxes ->
  // GHASH skid, 6 LUT levels) it was the engine's critical path in context.
  //
  // The GHASH block is one expression per bit whose selects are registers loaded with the
  // position: (in ^ (ks & xks)) & mask | len, with xks = "encrypting payload" (the ciphertext
  // is in ^ ks; AAD and decrypt ciphertext are the input), the mask zero in the length block and
  // len_q the length block's bits there and zero elsewhere. Most bits are one LUT4 (in, ks, xks,
  // mask). Decoding phase and decrypt into a 3-way mux per bit was the worst path in context
  // (3 LUT levels, 6.7 ns routing across the input and keystream FIFOs). xks is copied per
  // 32-bit slice (onerma_dup_reg): each copy drives 32 LUTs, not 128.
  localparam int unsigned XksCopies = 4;

  logic [15:0]          mask_q;
  logic [127:0]         part_mask, out_data, ks_sel, len_q, len_blk;
  logic                 xks_d;
  logic [XksCopies-1:0] xks_q;
  gblk_t                gblk;
  dout_t                dbeat;

  assign part_mask = bit_mask(mask_q);

  for (genvar c = 0; c < XksCopies; c++) begin : g_xks
    onerma_dup_reg #(
      .Width(1)
    ) u_xks (
      .clk_i (clk_i),
      .rst_ni(rst_ni),
      .d_i   (xks_d),
      .q_o   (xks_q[c])
    );
  end

  // A slice per copy (not a loop over bits: a simulator then ANDs whole words).
  always_comb begin : ks_select
    for (int unsigned c = 0; c < XksCopies; c++) begin
      ks_sel[c*(128/XksCopies) +: 128/XksCopies] =
        ks_i[c*(128/XksCopies) +: 128/XksCopies] & {(128/XksCopies){xks_q[c]}};
    end
  end

  assign out_data = (in_beat.data ^ ks_i) & part_mask;
  assign len_blk  = len_block(32'(cur_q.aad_len), 32'(cur_q.pt_len));

  always_comb begin : ghash_block
    gblk.data      = ((in_beat.data ^ ks_sel) & part_mask) | len_q;
    gblk.final_blk = final_q;
    gblk.pow       = final_q ? PowW'(rem_q - IdxW'(1)) : PowW'(Lanes - 1);
    gblk.last      = is_len;
  end

  always_comb begin : dout_beat
    dbeat.data = out_data;
    dbeat.last = end_q;
    dbeat.meta = cur_q.meta;
  end

  // ---- Registers.
  always_ff @(posedge clk_i or negedge rst_ni) begin : cur_valid_reg
    if (!rst_ni) begin
      cur_valid_q <= 1'b0;
    end else if (load) begin
      cur_valid_q <= 1'b1;
    end else if (go && is_len) begin
      cur_valid_q <= 1'b0;
    end
  end

  // xks: set for payload beats when encrypting.
  always_comb begin : next_xks
    xks_d = xks_q[0];
    if (load) begin
      xks_d = (info_i.first_phase == PhPt) && !info_i.decrypt;
    end else if (go && end_q) begin
      xks_d = is_aad && cur_q.has_pt && !cur_q.decrypt;
    end
  end

  // Only cur_valid_q is reset: the position registers are loaded with every message.
  always_ff @(posedge clk_i) begin : position_regs
    if (load) begin
      len_q   <= (info_i.first_phase == PhLen) ?
                 len_block(32'(info_i.aad_len), 32'(info_i.pt_len)) : '0;
      cur_q   <= info_i;
      rem_q   <= info_i.n_total;
      final_q <= info_i.total_final;
      phase_q <= info_i.first_phase;
      left_q  <= info_i.first_left;
      end_q   <= info_i.first_end;
      mask_q  <= info_i.first_mask;
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

  // ---- Outputs.
  // Two skid buffers in series between this stage and GHASH: the first sits by this stage's
  // muxes, the second by GHASH's input. With one, the worst path in context ran phase_q ->
  // mask/XOR/mux (1.5 ns of logic) -> a 3.1 ns net to the skid.
  logic  g0_valid, g0_ready;
  gblk_t g0_blk, g_blk;

  onerma_skid #(
    .T(gblk_t)
  ) u_gblk0_skid (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .in_valid_i (go),
    .in_ready_o (gblk_ready),
    .in_data_i  (gblk),
    .out_valid_o(g0_valid),
    .out_ready_i(g0_ready),
    .out_data_o (g0_blk)
  );

  onerma_skid #(
    .T(gblk_t)
  ) u_gblk_skid (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .in_valid_i (g0_valid),
    .in_ready_o (g0_ready),
    .in_data_i  (g0_blk),
    .out_valid_o(blk_valid_o),
    .out_ready_i(blk_ready_i),
    .out_data_o (g_blk)
  );

  assign blk_data_o  = g_blk.data;
  assign blk_pow_o   = g_blk.pow;
  assign blk_final_o = g_blk.final_blk;
  assign blk_last_o  = g_blk.last;

  onerma_skid #(
    .T(dout_t)
  ) u_dout_skid (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .in_valid_i (go && is_pt),
    .in_ready_o (dbeat_ready),
    .in_data_i  (dbeat),
    .out_valid_o(dout_valid_o),
    .out_ready_i(dout_ready_i),
    .out_data_o (dout_data_o)
  );

endmodule

`default_nettype wire
