// One AES encryption round (FIPS-197 Sec. 5.1): SubBytes, ShiftRows, MixColumns, AddRoundKey.
// Purely combinational, for the iterative core (one instance, fed back through a register). The
// pipelined core splits the round over two register stages instead (onerma_aes_core.sv).
`default_nettype none

module onerma_aes_round (
  input  logic [127:0] state_i,
  input  logic [127:0] round_key_i,
  // The tenth round has no MixColumns. An input rather than a parameter because the iterative core
  // selects it at run time.
  input  logic         final_i,
  output logic [127:0] state_o
);

  logic [127:0] sub;

  for (genvar b = 0; b < 16; b++) begin : g_byte
    onerma_aes_sbox u_sbox (
      .data_i(state_i[127 - 8*b -: 8]),
      .data_o(sub[127 - 8*b -: 8])
    );
  end

  assign state_o = onerma_aes_pkg::shift_mix_add(sub, round_key_i, final_i);

endmodule

`default_nettype wire
