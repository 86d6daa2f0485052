// One step of the AES-128 key expansion (FIPS-197 Sec. 5.2): round key i-1 -> round key i.
// Combinational; the cores call it once per round so the schedule travels with the data and every
// block may use a different key without a precomputed key store.
`default_nettype none

module onerma_aes_key_step (
  input  logic [127:0] key_i,
  // Rcon[i] for the round key being produced: 01, 02, 04, ..., 80, 1b, 36.
  input  logic [7:0]   rcon_i,
  output logic [127:0] key_o
);

  logic [31:0] w0, w1, w2, w3;
  logic [31:0] rot, sub, temp;
  logic [31:0] n0, n1, n2, n3;

  // Word 0 is FIPS-197 bytes 0..3, i.e. the most significant word.
  assign {w0, w1, w2, w3} = key_i;

  // RotWord: [a0 a1 a2 a3] -> [a1 a2 a3 a0].
  assign rot = {w3[23:0], w3[31:24]};

  for (genvar i = 0; i < 4; i++) begin : g_sub
    onerma_aes_sbox u_sbox (
      .data_i(rot[8*i +: 8]),
      .data_o(sub[8*i +: 8])
    );
  end

  assign temp = sub ^ {rcon_i, 24'h0};
  assign n0 = w0 ^ temp;
  assign n1 = w1 ^ n0;
  assign n2 = w2 ^ n1;
  assign n3 = w3 ^ n2;
  assign key_o = {n0, n1, n2, n3};

endmodule

`default_nettype wire
