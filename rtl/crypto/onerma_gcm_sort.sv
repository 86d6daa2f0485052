`default_nettype none

/// Result sort of the AES-GCM engine: AES results go to the H, mask or keystream FIFO by the
/// kind they carry (onerma_gcm_issuer tags each request, onerma_aes_core returns the tag).
///
/// Data formats:
/// - in: {block (128 bits), kind (onerma_gcm_pkg::kind_e)} from the AES core, in issue order.
/// - h, mask, ks: the 128-bit results of each kind, in issue order.
///
/// Why a skid buffer in front of the sort: the sort reads the kind to pick the FIFO whose ready
/// pops the result; straight from the AES output FIFO (distributed RAM read -> kind decode -> pop
/// -> the core's credit counter) that was a 14.8 ns path.
/// Why the depths: the mask FIFO holds one mask per message in flight (MsgDepth); the keystream
/// FIFO is 16 deep so the issuer runs far enough ahead that the next message's H and its powers
/// are ready before its data (with 4 the engine lost ~10 cycles at every 4 KB message boundary).
module onerma_gcm_sort #(
  parameter int unsigned MsgDepth = 8
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,

  input  logic                  in_valid_i,
  output logic                  in_ready_o,
  input  logic [127:0]          in_block_i,
  input  onerma_gcm_pkg::kind_e in_kind_i,

  output logic                  h_valid_o,
  input  logic                  h_ready_i,
  output logic [127:0]          h_o,

  output logic                  mask_valid_o,
  input  logic                  mask_ready_i,
  output logic [127:0]          mask_o,

  output logic                  ks_valid_o,
  input  logic                  ks_ready_i,
  output logic [127:0]          ks_o
);

  import onerma_gcm_pkg::*;

  typedef struct packed {
    logic [127:0] block;
    kind_e        kind;
  } aes_res_t;

  aes_res_t res;
  logic     res_valid, res_ready;
  logic     h_push_ready, mask_push_ready, ks_push_ready;

  onerma_skid #(
    .T(aes_res_t)
  ) u_skid (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .in_valid_i (in_valid_i),
    .in_ready_o (in_ready_o),
    .in_data_i  ('{block: in_block_i, kind: in_kind_i}),
    .out_valid_o(res_valid),
    .out_ready_i(res_ready),
    .out_data_o (res)
  );

  always_comb begin : pop_by_kind
    unique case (res.kind)
      KindH:    res_ready = h_push_ready;
      KindMask: res_ready = mask_push_ready;
      default:  res_ready = ks_push_ready;
    endcase
  end

  // The FIFO occupancy counts are not needed: the FIFOs' own ready signals are enough.
  /* verilator lint_off PINCONNECTEMPTY */
  onerma_fifo #(
    .Width(128),
    .Depth(2)
  ) u_h_fifo (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .flush_i    (1'b0),
    .in_valid_i (res_valid && (res.kind == KindH)),
    .in_ready_o (h_push_ready),
    .in_data_i  (res.block),
    .out_valid_o(h_valid_o),
    .out_ready_i(h_ready_i),
    .out_data_o (h_o),
    .count_o    ()
  );

  onerma_fifo #(
    .Width(128),
    .Depth(MsgDepth)
  ) u_mask_fifo (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .flush_i    (1'b0),
    .in_valid_i (res_valid && (res.kind == KindMask)),
    .in_ready_o (mask_push_ready),
    .in_data_i  (res.block),
    .out_valid_o(mask_valid_o),
    .out_ready_i(mask_ready_i),
    .out_data_o (mask_o),
    .count_o    ()
  );

  onerma_fifo #(
    .Width(128),
    .Depth(16)
  ) u_ks_fifo (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .flush_i    (1'b0),
    .in_valid_i (res_valid && (res.kind == KindKs)),
    .in_ready_o (ks_push_ready),
    .in_data_i  (res.block),
    .out_valid_o(ks_valid_o),
    .out_ready_i(ks_ready_i),
    .out_data_o (ks_o),
    .count_o    ()
  );
  /* verilator lint_on PINCONNECTEMPTY */

endmodule

`default_nettype wire
