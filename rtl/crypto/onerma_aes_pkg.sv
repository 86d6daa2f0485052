// AES-128 building blocks shared by the S-box modules, the round, the key step and the
// pipelined core: one definition of the S-box table, Rcon, MixColumns and the key-expansion XORs.
//
// Byte order: FIPS-197 byte b (state row b % 4, column b / 4) is bits [127 - 8*b -: 8]
// (docs/conventions.md).
`default_nettype none

package onerma_aes_pkg;

  // The S-box (FIPS-197 Sec. 5.1.1), a 256-entry ROM: entry b is S(b). The one definition of the
  // table: onerma_aes_sbox reads it as a LUT ROM, onerma_aes_sbox_pair loads it into block RAM.
  // A table rather than a `case`: ECP5 area is the same (docs/crypto.md), and Verilator copies a
  // constant table into each block-RAM instance's memory cheaply, where calling a 256-way case
  // function in a 256-iteration initial loop produced 21 MB of C++ per AES core.
  // Lint sees the package with every top (xtask lint), most of which do not use the table.
  /* verilator lint_off UNUSEDPARAM */
  localparam logic [7:0] SBOX [256] = '{
    8'h63, 8'h7c, 8'h77, 8'h7b, 8'hf2, 8'h6b, 8'h6f, 8'hc5, 8'h30, 8'h01, 8'h67, 8'h2b, 8'hfe, 8'hd7, 8'hab, 8'h76,
    8'hca, 8'h82, 8'hc9, 8'h7d, 8'hfa, 8'h59, 8'h47, 8'hf0, 8'had, 8'hd4, 8'ha2, 8'haf, 8'h9c, 8'ha4, 8'h72, 8'hc0,
    8'hb7, 8'hfd, 8'h93, 8'h26, 8'h36, 8'h3f, 8'hf7, 8'hcc, 8'h34, 8'ha5, 8'he5, 8'hf1, 8'h71, 8'hd8, 8'h31, 8'h15,
    8'h04, 8'hc7, 8'h23, 8'hc3, 8'h18, 8'h96, 8'h05, 8'h9a, 8'h07, 8'h12, 8'h80, 8'he2, 8'heb, 8'h27, 8'hb2, 8'h75,
    8'h09, 8'h83, 8'h2c, 8'h1a, 8'h1b, 8'h6e, 8'h5a, 8'ha0, 8'h52, 8'h3b, 8'hd6, 8'hb3, 8'h29, 8'he3, 8'h2f, 8'h84,
    8'h53, 8'hd1, 8'h00, 8'hed, 8'h20, 8'hfc, 8'hb1, 8'h5b, 8'h6a, 8'hcb, 8'hbe, 8'h39, 8'h4a, 8'h4c, 8'h58, 8'hcf,
    8'hd0, 8'hef, 8'haa, 8'hfb, 8'h43, 8'h4d, 8'h33, 8'h85, 8'h45, 8'hf9, 8'h02, 8'h7f, 8'h50, 8'h3c, 8'h9f, 8'ha8,
    8'h51, 8'ha3, 8'h40, 8'h8f, 8'h92, 8'h9d, 8'h38, 8'hf5, 8'hbc, 8'hb6, 8'hda, 8'h21, 8'h10, 8'hff, 8'hf3, 8'hd2,
    8'hcd, 8'h0c, 8'h13, 8'hec, 8'h5f, 8'h97, 8'h44, 8'h17, 8'hc4, 8'ha7, 8'h7e, 8'h3d, 8'h64, 8'h5d, 8'h19, 8'h73,
    8'h60, 8'h81, 8'h4f, 8'hdc, 8'h22, 8'h2a, 8'h90, 8'h88, 8'h46, 8'hee, 8'hb8, 8'h14, 8'hde, 8'h5e, 8'h0b, 8'hdb,
    8'he0, 8'h32, 8'h3a, 8'h0a, 8'h49, 8'h06, 8'h24, 8'h5c, 8'hc2, 8'hd3, 8'hac, 8'h62, 8'h91, 8'h95, 8'he4, 8'h79,
    8'he7, 8'hc8, 8'h37, 8'h6d, 8'h8d, 8'hd5, 8'h4e, 8'ha9, 8'h6c, 8'h56, 8'hf4, 8'hea, 8'h65, 8'h7a, 8'hae, 8'h08,
    8'hba, 8'h78, 8'h25, 8'h2e, 8'h1c, 8'ha6, 8'hb4, 8'hc6, 8'he8, 8'hdd, 8'h74, 8'h1f, 8'h4b, 8'hbd, 8'h8b, 8'h8a,
    8'h70, 8'h3e, 8'hb5, 8'h66, 8'h48, 8'h03, 8'hf6, 8'h0e, 8'h61, 8'h35, 8'h57, 8'hb9, 8'h86, 8'hc1, 8'h1d, 8'h9e,
    8'he1, 8'hf8, 8'h98, 8'h11, 8'h69, 8'hd9, 8'h8e, 8'h94, 8'h9b, 8'h1e, 8'h87, 8'he9, 8'hce, 8'h55, 8'h28, 8'hdf,
    8'h8c, 8'ha1, 8'h89, 8'h0d, 8'hbf, 8'he6, 8'h42, 8'h68, 8'h41, 8'h99, 8'h2d, 8'h0f, 8'hb0, 8'h54, 8'hbb, 8'h16
  };
  /* verilator lint_on UNUSEDPARAM */

  // Rcon for the key of round r (1..10).
  function automatic logic [7:0] rcon(input int unsigned r);
    unique case (r)
      1:       return 8'h01;
      2:       return 8'h02;
      3:       return 8'h04;
      4:       return 8'h08;
      5:       return 8'h10;
      6:       return 8'h20;
      7:       return 8'h40;
      8:       return 8'h80;
      9:       return 8'h1b;
      10:      return 8'h36;
      default: return 8'h00;
    endcase
  endfunction

  // GF(2^8) multiplication by x modulo x^8 + x^4 + x^3 + x + 1.
  function automatic logic [7:0] xtime(input logic [7:0] a);
    return {a[6:0], 1'b0} ^ (a[7] ? 8'h1b : 8'h00);
  endfunction

  // The round after SubBytes: ShiftRows, MixColumns (skipped in the final round), AddRoundKey.
  // `sub` is the state after SubBytes.
  function automatic logic [127:0] shift_mix_add(input logic [127:0] sub,
                                                 input logic [127:0] round_key,
                                                 input logic         final_round);
    logic [7:0]   shr [16];
    logic [7:0]   mix [16];
    logic [127:0] out;
    // ShiftRows: row r is rotated left by r columns, so output column c takes input column c + r.
    for (int b = 0; b < 16; b++) begin
      shr[b] = sub[127 - 8*(4 * (((b / 4) + (b % 4)) % 4) + (b % 4)) -: 8];
    end
    // MixColumns with the {02,03,01,01} circulant; 3*a = xtime(a) ^ a.
    for (int c = 0; c < 4; c++) begin
      mix[4*c + 0] = xtime(shr[4*c]) ^ xtime(shr[4*c+1]) ^ shr[4*c+1] ^ shr[4*c+2] ^ shr[4*c+3];
      mix[4*c + 1] = shr[4*c] ^ xtime(shr[4*c+1]) ^ xtime(shr[4*c+2]) ^ shr[4*c+2] ^ shr[4*c+3];
      mix[4*c + 2] = shr[4*c] ^ shr[4*c+1] ^ xtime(shr[4*c+2]) ^ xtime(shr[4*c+3]) ^ shr[4*c+3];
      mix[4*c + 3] = xtime(shr[4*c]) ^ shr[4*c] ^ shr[4*c+1] ^ shr[4*c+2] ^ xtime(shr[4*c+3]);
    end
    for (int b = 0; b < 16; b++) begin
      out[127 - 8*b -: 8] = (final_round ? shr[b] : mix[b]) ^ round_key[127 - 8*b -: 8];
    end
    return out;
  endfunction

  // RotWord: [a0 a1 a2 a3] -> [a1 a2 a3 a0]; the key step looks up RotWord(w3) in the S-box.
  function automatic logic [31:0] rot_word(input logic [31:0] w);
    return {w[23:0], w[31:24]};
  endfunction

  // The key-expansion XORs (FIPS-197 Sec. 5.2) in two parts. FIPS-197 chains the words
  // (w[i] = w[i-4] ^ w[i-1]), so word 3 of the next key is the XOR of all four old words and the
  // S-box output: a chain of four XOR levels. key_prefix computes the old words' part alone
  // ({k0, k0^k1, k0^k1^k2, k0^k1^k2^k3}, no S-box output needed), so the pipelined core can
  // register it while the S-box lookups run, and key_from_prefix leaves one XOR per bit behind
  // the lookup (docs/crypto.md: the chain limited the EBR core to 90 MHz).
  // Word 0 is FIPS-197 bytes 0..3, i.e. the most significant word.
  function automatic logic [127:0] key_prefix(input logic [127:0] key);
    logic [31:0] p0, p1, p2, p3;
    p0 = key[127:96];
    p1 = p0 ^ key[95:64];
    p2 = p1 ^ key[63:32];
    p3 = p2 ^ key[31:0];
    return {p0, p1, p2, p3};
  endfunction

  // Round key i from key_prefix(round key i-1) and SubWord(RotWord(w3)) of round key i-1.
  function automatic logic [127:0] key_from_prefix(input logic [127:0] prefix,
                                                   input logic [31:0]  sub_word,
                                                   input logic [7:0]   rcon_i);
    logic [31:0] t;
    t = sub_word ^ {rcon_i, 24'h0};
    return prefix ^ {t, t, t, t};
  endfunction

  // Round key i-1 and SubWord(RotWord(w3)) of it -> round key i.
  function automatic logic [127:0] key_next(input logic [127:0] key,
                                            input logic [31:0]  sub_word,
                                            input logic [7:0]   rcon_i);
    return key_from_prefix(key_prefix(key), sub_word, rcon_i);
  endfunction

endpackage

`default_nettype wire
