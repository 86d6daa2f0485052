// Derived region key unit (docs/protocol.md):
//   K_d = AES-128-Encrypt(key = K_r, block = {initiator_nic, pid, op_type, 56'h0})
// with byte 0 of the block = initiator_nic[31:24]. The block is the generated
// onerma_pkg::kd_block_t (spec/layouts.json), so the layout has one definition shared with Rust.
// op_type codes: READ = 1, WRITE = 2, REKEY = 3; the unit derives whatever code it is given
// (rejecting bad codes is the command decoder's job).
//
// A thin valid/ready wrapper around onerma_aes_core: the block is pure wiring, so the stream
// contract, ordering, back-pressure and Latency are exactly the core's.
`default_nettype none

module onerma_kd_unit #(
  /// 1: pipelined AES core, one derivation per cycle. 0: iterative core, one per 10 cycles.
  parameter bit  Pipelined = 1'b1,
  /// Pipelined only: S-boxes in block RAM (1) or LUTs (0); see onerma_aes_core.
  parameter bit  SboxRam   = 1'b1,
  /// Side-band payload returned with K_d (e.g. a command slot), in order.
  parameter type meta_t    = logic [7:0]
) (
  input  logic         clk_i,
  input  logic         rst_ni,

  input  logic         in_valid_i,
  output logic         in_ready_o,
  input  logic [127:0] in_kr_i,
  input  logic [31:0]  in_initiator_nic_i,
  input  logic [31:0]  in_pid_i,
  input  onerma_pkg::op_type_e in_op_type_i,
  input  meta_t        in_meta_i,

  output logic         out_valid_o,
  input  logic         out_ready_i,
  output logic [127:0] out_kd_o,
  output meta_t        out_meta_o
);

  onerma_pkg::kd_block_t block;

  always_comb begin
    block               = '0;  // reserved bits are zero
    block.initiator_nic = in_initiator_nic_i;
    block.pid           = in_pid_i;
    block.op_type       = in_op_type_i;
  end

  onerma_aes_core #(
    .Pipelined(Pipelined),
    .SboxRam  (SboxRam),
    .meta_t   (meta_t)
  ) u_aes (
    .clk_i,
    .rst_ni,
    .in_valid_i,
    .in_ready_o,
    .in_key_i   (in_kr_i),
    .in_block_i (block),
    .in_meta_i,
    .out_valid_o,
    .out_ready_i,
    .out_block_o(out_kd_o),
    .out_meta_o
  );

endmodule

`default_nettype wire
