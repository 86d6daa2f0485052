// One step of the AES-128 key expansion (FIPS-197 Sec. 5.2): round key i-1 -> round key i.
// Combinational; the iterative core calls it once per round so the schedule travels with the data
// and every block may use a different key without a precomputed key store.
`default_nettype none

module onerma_aes_key_step (
  input  logic [127:0] key_i,
  // Rcon[i] for the round key being produced: 01, 02, 04, ..., 80, 1b, 36.
  input  logic [7:0]   rcon_i,
  output logic [127:0] key_o
);

  logic [31:0] rot, sub;

  assign rot = onerma_aes_pkg::rot_word(key_i[31:0]);

  for (genvar i = 0; i < 4; i++) begin : g_sub
    onerma_aes_sbox u_sbox (
      .data_i(rot[8*i +: 8]),
      .data_o(sub[8*i +: 8])
    );
  end

  assign key_o = onerma_aes_pkg::key_next(key_i, sub, rcon_i);

endmodule

`default_nettype wire
