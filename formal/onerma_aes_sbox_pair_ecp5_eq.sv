// Miter for formal/onerma_aes_sbox_pair_ecp5.sby: onerma_aes_sbox_pair built with the generic S-box
// ROM primitive (rtl/crypto/onerma_aes_sbox_rom.sv) and with the ECP5 one (fpga/ecp5/, DP16KD with
// its output register, simulated by formal/onerma_dp16kd_model.sv), both with Ram = 1, fed the
// same free inputs every cycle. Both builds have the same top name; the .sby renames each after
// reading it, hence the instance names below. Ports are the flattened [15:0] vectors yosys gives
// the unpacked [2] arrays (element 0 in bits 15:8).
//
// From the 5th cycle on (4 edges: the pipelines' depth; their registers start arbitrary) the
// outputs must be equal, and equal to S() of the inputs 4 edges earlier (onerma_aes_pkg::SBOX),
// which pins the latency to exactly 4 edges and does not rely on the generic module being right.
`default_nettype none

module onerma_aes_sbox_pair_ecp5_eq (
  input logic        clk_i,
  input logic [15:0] data_i
);

  logic [15:0] generic_o, ecp5_o;

  onerma_aes_sbox_pair_generic u_generic (
    .clk_i,
    .data_i,
    .data_o(generic_o)
  );

  onerma_aes_sbox_pair_ecp5 u_ecp5 (
    .clk_i,
    .data_i,
    .data_o(ecp5_o)
  );

  // Formal-only initial value: counts the first 4 edges.
  logic [2:0]  edges_q = 3'd0;
  logic [3:0][15:0] in_q;  // in_q[i]: data_i i + 1 edges ago

  always_ff @(posedge clk_i) begin
    if (edges_q != 3'd4) edges_q <= edges_q + 3'd1;
    in_q <= {in_q[2:0], data_i};
  end

  always_comb begin
    if (edges_q == 3'd4) begin
      assert (ecp5_o == generic_o);
      assert (ecp5_o == {onerma_aes_pkg::SBOX[in_q[3][15:8]], onerma_aes_pkg::SBOX[in_q[3][7:0]]});
    end
  end

endmodule

`default_nettype wire
