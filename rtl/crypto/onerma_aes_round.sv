// One AES encryption round (FIPS-197 Sec. 5.1): SubBytes, ShiftRows, MixColumns, AddRoundKey.
// Purely combinational so the same module serves the unrolled pipeline (one instance per stage,
// registered by the caller) and the iterative core (one instance, fed back through a register).
//
// Byte order: FIPS-197 byte b (state row b % 4, column b / 4) is bits [127 - 8*b -: 8]
// (docs/conventions.md).
`default_nettype none

module onerma_aes_round (
  input  logic [127:0] state_i,
  input  logic [127:0] round_key_i,
  // The tenth round has no MixColumns. An input rather than a parameter because the iterative core
  // selects it at run time; the pipelined core ties it to a constant and synthesis removes the mux.
  input  logic         final_i,
  output logic [127:0] state_o
);

  logic [7:0] in_b  [16];
  logic [7:0] sub_b [16];
  logic [7:0] shr_b [16];
  logic [7:0] mix_b [16];

  // GF(2^8) multiplication by x modulo x^8 + x^4 + x^3 + x + 1.
  function automatic logic [7:0] xtime(input logic [7:0] a);
    return {a[6:0], 1'b0} ^ (a[7] ? 8'h1b : 8'h00);
  endfunction

  for (genvar b = 0; b < 16; b++) begin : g_byte
    assign in_b[b] = state_i[127 - 8*b -: 8];

    onerma_aes_sbox u_sbox (
      .data_i(in_b[b]),
      .data_o(sub_b[b])
    );

    // ShiftRows: row r is rotated left by r columns, so output column c takes input column c + r.
    localparam int Row = b % 4;
    localparam int Col = b / 4;
    assign shr_b[b] = sub_b[4 * ((Col + Row) % 4) + Row];
  end

  for (genvar c = 0; c < 4; c++) begin : g_col
    logic [7:0] a0, a1, a2, a3;
    assign a0 = shr_b[4*c + 0];
    assign a1 = shr_b[4*c + 1];
    assign a2 = shr_b[4*c + 2];
    assign a3 = shr_b[4*c + 3];
    // MixColumns with the {02,03,01,01} circulant; 3*a = xtime(a) ^ a.
    assign mix_b[4*c + 0] = xtime(a0) ^ xtime(a1) ^ a1 ^ a2 ^ a3;
    assign mix_b[4*c + 1] = a0 ^ xtime(a1) ^ xtime(a2) ^ a2 ^ a3;
    assign mix_b[4*c + 2] = a0 ^ a1 ^ xtime(a2) ^ xtime(a3) ^ a3;
    assign mix_b[4*c + 3] = xtime(a0) ^ a0 ^ a1 ^ a2 ^ xtime(a3);
  end

  for (genvar b = 0; b < 16; b++) begin : g_out
    assign state_o[127 - 8*b -: 8] = (final_i ? shr_b[b] : mix_b[b]) ^ round_key_i[127 - 8*b -: 8];
  end

endmodule

`default_nettype wire
