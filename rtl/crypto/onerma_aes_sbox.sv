// The AES S-box (FIPS-197 Sec. 5.1.1), combinational: a ROM read of onerma_aes_pkg::SBOX.
//
// Kept as its own module on purpose: on ECP5 a ROM in its own hierarchy maps to ~5-6x fewer
// LUT4s than the same table flattened into the round logic or written as GF(2^8) inversion
// (docs/crypto.md has the numbers). The keep_hierarchy attribute stops yosys' flatten pass from
// merging it into the caller.
`default_nettype none

(* keep_hierarchy *)
module onerma_aes_sbox (
  input  logic [7:0] data_i,
  output logic [7:0] data_o
);

  assign data_o = onerma_aes_pkg::SBOX[data_i];

endmodule

`default_nettype wire
