`default_nettype none

/// Tag stage of the AES-GCM engine: the tag S ^ E_K(J0), its compare with the expected tag, the
/// result.
///
/// Data formats:
/// - s: GHASH's S per message (onerma_ghash), in message order.
/// - mask: E_K(J0) per message (onerma_gcm_sort), in message order.
/// - exp: {tag (expected), decrypt, meta} per message from the descriptor, in message order.
/// - res (res_t): {tag (computed), auth_ok, meta}; auth_ok is 1 when encrypting, and tag ==
///   expected tag when decrypting.
///
/// Why three register stages between the FIFO heads and the result, so that no cycle holds more
/// than two LUT levels of the check: (1) the tag and its difference from the expected tag (one
/// 3-input XOR per bit); (2) one "lane differs" flag per 16-bit lane (a 16-input OR, with
/// TagLanes = 8); (3) auth_ok from the flags. With the 128-bit compare in one cycle it was the engine's worst path
/// in context (7 LUT/mux levels, 8.9 ns).
module onerma_gcm_tag #(
  /// Lanes of the compare stage (divides 128), one "differs" flag each. (Also the first
  /// parameter because Verilator 5.006 cannot parse a struct default of a type parameter in a
  /// list that starts with a type parameter.)
  parameter int unsigned TagLanes = 8,
  parameter type         meta_t   = logic [7:0],
  /// The engine's result payload (onerma_gcm_engine's res_t).
  parameter type         res_t    = struct packed {
    logic [127:0] tag;
    logic         auth_ok;
    meta_t        meta;
  }
) (
  input  logic         clk_i,
  input  logic         rst_ni,

  input  logic         s_valid_i,
  output logic         s_ready_o,
  input  logic [127:0] s_i,

  input  logic         mask_valid_i,
  output logic         mask_ready_o,
  input  logic [127:0] mask_i,

  input  logic         exp_valid_i,
  output logic         exp_ready_o,
  input  logic [127:0] exp_tag_i,
  input  logic         exp_decrypt_i,
  input  meta_t        exp_meta_i,

  output logic         res_valid_o,
  input  logic         res_ready_i,
  output res_t         res_data_o
);

  localparam int unsigned LaneW = 128 / TagLanes;

  typedef struct packed {
    logic [127:0] tag;
    logic [127:0] diff;
    logic         decrypt;
    meta_t        meta;
  } chk_t;

  typedef struct packed {
    logic [127:0]        tag;
    logic [TagLanes-1:0] lane_ne;
    logic                decrypt;
    meta_t               meta;
  } cmp_t;

  logic         go, chk_push_ready;
  logic         chk_valid, chk_ready, cmp_valid, cmp_ready;
  logic [127:0] tag_now;
  chk_t         chk_in, chk;
  cmp_t         cmp_in, cmp;
  res_t         res_in;

  assign go           = s_valid_i && mask_valid_i && exp_valid_i && chk_push_ready;
  assign s_ready_o    = go;
  assign mask_ready_o = go;
  assign exp_ready_o  = go;

  always_comb begin : stage1
    tag_now        = s_i ^ mask_i;
    chk_in.tag     = tag_now;
    chk_in.diff    = tag_now ^ exp_tag_i;
    chk_in.decrypt = exp_decrypt_i;
    chk_in.meta    = exp_meta_i;
  end

  onerma_skid #(
    .T(chk_t)
  ) u_chk_skid (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .in_valid_i (go),
    .in_ready_o (chk_push_ready),
    .in_data_i  (chk_in),
    .out_valid_o(chk_valid),
    .out_ready_i(chk_ready),
    .out_data_o (chk)
  );

  always_comb begin : stage2
    cmp_in.tag     = chk.tag;
    cmp_in.decrypt = chk.decrypt;
    cmp_in.meta    = chk.meta;
    for (int unsigned l = 0; l < TagLanes; l++) begin
      cmp_in.lane_ne[l] = |chk.diff[LaneW*l +: LaneW];
    end
  end

  onerma_skid #(
    .T(cmp_t)
  ) u_cmp_skid (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .in_valid_i (chk_valid),
    .in_ready_o (chk_ready),
    .in_data_i  (cmp_in),
    .out_valid_o(cmp_valid),
    .out_ready_i(cmp_ready),
    .out_data_o (cmp)
  );

  always_comb begin : stage3
    res_in.tag     = cmp.tag;
    res_in.auth_ok = !cmp.decrypt || (cmp.lane_ne == '0);
    res_in.meta    = cmp.meta;
  end

  onerma_skid #(
    .T(res_t)
  ) u_res_skid (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .in_valid_i (cmp_valid),
    .in_ready_o (cmp_ready),
    .in_data_i  (res_in),
    .out_valid_o(res_valid_o),
    .out_ready_i(res_ready_i),
    .out_data_o (res_data_o)
  );

endmodule

`default_nettype wire
