// ECP5 variant of the primitive rtl/crypto/onerma_aes_sbox_rom.sv: same module name, ports and
// latency (data_o[k] = S(addr_i[k]) 2 edges after addr_i[k] was presented), one DP16KD with its
// output register. onerma_aes_sbox_rom.core reads this file instead of the generic one under the
// use flag `ecp5` (the cores' synth_ecp5 targets); formal/onerma_aes_sbox_pair_ecp5.sby proves
// onerma_aes_sbox_pair equal with either file.
//
// Why: yosys 0.70 maps the generic ROM to a DP16KD without its output register (its BRAM map
// hard-codes REGMODE "NOREG" and memory_libmap has no option for it), and nextpnr-ecp5 models that
// EBR clock-to-out as 5.83 ns plus >= 2.3 ns of routing to even the adjacent flop, which bounds
// the pipelined AES core at ~110-125 MHz. With REGMODE "OUTREG" the EBR's own output register
// takes the place of the generic file's flop behind the read, so the 2 edges are: the EBR
// address register (1), the EBR output register (2).
//
// The ROM contents are computed from onerma_aes_pkg::SBOX (the one definition of the table).
// Layout, taken from yosys's own ECP5 mapping of the generic ROM (share/lattice/brams_map_16kd.v,
// and checked against the INITVAL values yosys writes for it, docs/crypto.md): with
// DATA_WIDTH 9 the EBR holds 2048 9-bit entries, addressed by AD13..AD3 (AD2..AD0 unused); two
// entries share an 18-bit word, entry 2w in bits 8:0 and entry 2w+1 in bits 17:9, and word w is
// bits 20*(w%16) +: 18 of INITVAL_(w/16) (the top 2 bits of each 20-bit slot are unused).
`default_nettype none

module onerma_aes_sbox_rom (
  input  logic       clk_i,
  input  logic [7:0] addr_i [2],
  output logic [7:0] data_o [2]
);

  // INITVAL_<row>: 16 words of 18 bits in 20-bit slots; entries 0..255 fill rows 0..7.
  function automatic logic [319:0] initval(input int unsigned row);
    logic [319:0] v;
    v = '0;
    for (int unsigned slot = 0; slot < 16; slot++) begin
      for (int unsigned half = 0; half < 2; half++) begin
        // Entry 2w + half of the 9-bit view; the ninth (parity) bit stays 0.
        int unsigned e;
        e = 2 * (16 * row + slot) + half;
        if (e < 256) begin
          v[20*slot + 9*half +: 8] = onerma_aes_pkg::SBOX[e];
        end
      end
    end
    return v;
  endfunction

  // EBR outputs, from its output register; bits 17:8 unused (bit 8 is the 9-bit mode's parity
  // bit, 17:9 are unused in 9-bit mode).
  /* verilator lint_off UNUSEDSIGNAL */
  logic [17:0] rd_a, rd_b;
  /* verilator lint_on UNUSEDSIGNAL */

  assign data_o[0] = rd_a[7:0];
  assign data_o[1] = rd_b[7:0];

  // Port A serves lookup 0, port B lookup 1. Never written: write enables and data low, the
  // chip select pins low matching CSDECODE 0b000; clock enables high so the address register
  // loads every cycle like the rest of the pipeline (which has no enables); resets low and GSR
  // off, the S-box data needs no reset (only control state is reset, docs/conventions.md).
  DP16KD #(
    .DATA_WIDTH_A(9),
    .DATA_WIDTH_B(9),
    .REGMODE_A("OUTREG"),
    .REGMODE_B("OUTREG"),
    .RESETMODE("SYNC"),
    .ASYNC_RESET_RELEASE("SYNC"),
    .CSDECODE_A("0b000"),
    .CSDECODE_B("0b000"),
    .WRITEMODE_A("NORMAL"),
    .WRITEMODE_B("NORMAL"),
    .GSR("DISABLED"),
    .INITVAL_00(initval('h00)),
    .INITVAL_01(initval('h01)),
    .INITVAL_02(initval('h02)),
    .INITVAL_03(initval('h03)),
    .INITVAL_04(initval('h04)),
    .INITVAL_05(initval('h05)),
    .INITVAL_06(initval('h06)),
    .INITVAL_07(initval('h07)),
    .INITVAL_08(initval('h08)),
    .INITVAL_09(initval('h09)),
    .INITVAL_0A(initval('h0a)),
    .INITVAL_0B(initval('h0b)),
    .INITVAL_0C(initval('h0c)),
    .INITVAL_0D(initval('h0d)),
    .INITVAL_0E(initval('h0e)),
    .INITVAL_0F(initval('h0f)),
    .INITVAL_10(initval('h10)),
    .INITVAL_11(initval('h11)),
    .INITVAL_12(initval('h12)),
    .INITVAL_13(initval('h13)),
    .INITVAL_14(initval('h14)),
    .INITVAL_15(initval('h15)),
    .INITVAL_16(initval('h16)),
    .INITVAL_17(initval('h17)),
    .INITVAL_18(initval('h18)),
    .INITVAL_19(initval('h19)),
    .INITVAL_1A(initval('h1a)),
    .INITVAL_1B(initval('h1b)),
    .INITVAL_1C(initval('h1c)),
    .INITVAL_1D(initval('h1d)),
    .INITVAL_1E(initval('h1e)),
    .INITVAL_1F(initval('h1f)),
    .INITVAL_20(initval('h20)),
    .INITVAL_21(initval('h21)),
    .INITVAL_22(initval('h22)),
    .INITVAL_23(initval('h23)),
    .INITVAL_24(initval('h24)),
    .INITVAL_25(initval('h25)),
    .INITVAL_26(initval('h26)),
    .INITVAL_27(initval('h27)),
    .INITVAL_28(initval('h28)),
    .INITVAL_29(initval('h29)),
    .INITVAL_2A(initval('h2a)),
    .INITVAL_2B(initval('h2b)),
    .INITVAL_2C(initval('h2c)),
    .INITVAL_2D(initval('h2d)),
    .INITVAL_2E(initval('h2e)),
    .INITVAL_2F(initval('h2f)),
    .INITVAL_30(initval('h30)),
    .INITVAL_31(initval('h31)),
    .INITVAL_32(initval('h32)),
    .INITVAL_33(initval('h33)),
    .INITVAL_34(initval('h34)),
    .INITVAL_35(initval('h35)),
    .INITVAL_36(initval('h36)),
    .INITVAL_37(initval('h37)),
    .INITVAL_38(initval('h38)),
    .INITVAL_39(initval('h39)),
    .INITVAL_3A(initval('h3a)),
    .INITVAL_3B(initval('h3b)),
    .INITVAL_3C(initval('h3c)),
    .INITVAL_3D(initval('h3d)),
    .INITVAL_3E(initval('h3e)),
    .INITVAL_3F(initval('h3f))
  ) u_ebr (
    .CLKA(clk_i), .CEA(1'b1), .OCEA(1'b1), .WEA(1'b0), .RSTA(1'b0),
    .CSA2(1'b0), .CSA1(1'b0), .CSA0(1'b0),
    .ADA13(1'b0), .ADA12(1'b0), .ADA11(1'b0),
    .ADA10(addr_i[0][7]), .ADA9(addr_i[0][6]), .ADA8(addr_i[0][5]), .ADA7(addr_i[0][4]),
    .ADA6(addr_i[0][3]), .ADA5(addr_i[0][2]), .ADA4(addr_i[0][1]), .ADA3(addr_i[0][0]),
    .ADA2(1'b0), .ADA1(1'b0), .ADA0(1'b0),
    .DIA17(1'b0), .DIA16(1'b0), .DIA15(1'b0), .DIA14(1'b0), .DIA13(1'b0), .DIA12(1'b0),
    .DIA11(1'b0), .DIA10(1'b0), .DIA9(1'b0), .DIA8(1'b0), .DIA7(1'b0), .DIA6(1'b0),
    .DIA5(1'b0), .DIA4(1'b0), .DIA3(1'b0), .DIA2(1'b0), .DIA1(1'b0), .DIA0(1'b0),
    .DOA17(rd_a[17]), .DOA16(rd_a[16]), .DOA15(rd_a[15]), .DOA14(rd_a[14]), .DOA13(rd_a[13]),
    .DOA12(rd_a[12]), .DOA11(rd_a[11]), .DOA10(rd_a[10]), .DOA9(rd_a[9]), .DOA8(rd_a[8]),
    .DOA7(rd_a[7]), .DOA6(rd_a[6]), .DOA5(rd_a[5]), .DOA4(rd_a[4]), .DOA3(rd_a[3]),
    .DOA2(rd_a[2]), .DOA1(rd_a[1]), .DOA0(rd_a[0]),

    .CLKB(clk_i), .CEB(1'b1), .OCEB(1'b1), .WEB(1'b0), .RSTB(1'b0),
    .CSB2(1'b0), .CSB1(1'b0), .CSB0(1'b0),
    .ADB13(1'b0), .ADB12(1'b0), .ADB11(1'b0),
    .ADB10(addr_i[1][7]), .ADB9(addr_i[1][6]), .ADB8(addr_i[1][5]), .ADB7(addr_i[1][4]),
    .ADB6(addr_i[1][3]), .ADB5(addr_i[1][2]), .ADB4(addr_i[1][1]), .ADB3(addr_i[1][0]),
    .ADB2(1'b0), .ADB1(1'b0), .ADB0(1'b0),
    .DIB17(1'b0), .DIB16(1'b0), .DIB15(1'b0), .DIB14(1'b0), .DIB13(1'b0), .DIB12(1'b0),
    .DIB11(1'b0), .DIB10(1'b0), .DIB9(1'b0), .DIB8(1'b0), .DIB7(1'b0), .DIB6(1'b0),
    .DIB5(1'b0), .DIB4(1'b0), .DIB3(1'b0), .DIB2(1'b0), .DIB1(1'b0), .DIB0(1'b0),
    .DOB17(rd_b[17]), .DOB16(rd_b[16]), .DOB15(rd_b[15]), .DOB14(rd_b[14]), .DOB13(rd_b[13]),
    .DOB12(rd_b[12]), .DOB11(rd_b[11]), .DOB10(rd_b[10]), .DOB9(rd_b[9]), .DOB8(rd_b[8]),
    .DOB7(rd_b[7]), .DOB6(rd_b[6]), .DOB5(rd_b[5]), .DOB4(rd_b[4]), .DOB3(rd_b[3]),
    .DOB2(rd_b[2]), .DOB1(rd_b[1]), .DOB0(rd_b[0])
  );

endmodule

`default_nettype wire
