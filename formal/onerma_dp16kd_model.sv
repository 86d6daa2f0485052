// Behavioural model of the Lattice ECP5 DP16KD block RAM, for formal checks of fpga/ecp5/ files
// only (formal/onerma_aes_sbox_pair_ecp5.sby). Named DP16KD, as Lattice names the primitive, so the
// instances in fpga/ecp5/ resolve to it unchanged.
//
// Why our own model: yosys 0.70 has none (share/lattice/cells_sim_ecp5.v and share/ecp5/cells_sim.v
// declare DP16KD as a black box), and Lattice's simulation library is not among our tools.
//
// It models the subset we use and asserts that instances stay inside it: ROM use (write enables
// low), DATA_WIDTH 9 on both ports, output register on or off (REGMODE), chip selects matching
// CSDECODE "0b000", resets low. Behaviour, per Lattice TN1264 (ECP5 Memory Usage Guide): a port
// reads the entry at AD13..AD3 on the rising clock edge when its CE is high (the address
// register); with REGMODE "OUTREG" the read data goes through one more register, loaded on the
// rising edge when OCE is high; DO8..DO0 carry the entry, DO17..DO9 are left undriven (free in
// the proof: nothing may depend on them).
//
// Memory contents: the INITVAL layout of yosys's ECP5 mapping (share/lattice/brams_map_16kd.v):
// 18-bit word w is bits 20*(w%16) +: 18 of INITVAL_(w/16), 9-bit entry 2w + h is bits 9*h +: 9 of
// word w. fpga/ecp5/onerma_aes_sbox_rom.sv writes the same layout; that it is yosys's (and so the
// one that works on hardware through nextpnr/ecppack) was checked by comparing the INITVAL values
// with those yosys writes for the generic ROM (docs/crypto.md).
`default_nettype none

module DP16KD #(
  parameter DATA_WIDTH_A = 18,
  parameter DATA_WIDTH_B = 18,
  parameter REGMODE_A = "NOREG",
  parameter REGMODE_B = "NOREG",
  parameter RESETMODE = "SYNC",
  parameter ASYNC_RESET_RELEASE = "SYNC",
  parameter CSDECODE_A = "0b000",
  parameter CSDECODE_B = "0b000",
  parameter WRITEMODE_A = "NORMAL",
  parameter WRITEMODE_B = "NORMAL",
  parameter GSR = "ENABLED",
  parameter INITVAL_00 = 320'h0, parameter INITVAL_01 = 320'h0, parameter INITVAL_02 = 320'h0,
  parameter INITVAL_03 = 320'h0, parameter INITVAL_04 = 320'h0, parameter INITVAL_05 = 320'h0,
  parameter INITVAL_06 = 320'h0, parameter INITVAL_07 = 320'h0, parameter INITVAL_08 = 320'h0,
  parameter INITVAL_09 = 320'h0, parameter INITVAL_0A = 320'h0, parameter INITVAL_0B = 320'h0,
  parameter INITVAL_0C = 320'h0, parameter INITVAL_0D = 320'h0, parameter INITVAL_0E = 320'h0,
  parameter INITVAL_0F = 320'h0, parameter INITVAL_10 = 320'h0, parameter INITVAL_11 = 320'h0,
  parameter INITVAL_12 = 320'h0, parameter INITVAL_13 = 320'h0, parameter INITVAL_14 = 320'h0,
  parameter INITVAL_15 = 320'h0, parameter INITVAL_16 = 320'h0, parameter INITVAL_17 = 320'h0,
  parameter INITVAL_18 = 320'h0, parameter INITVAL_19 = 320'h0, parameter INITVAL_1A = 320'h0,
  parameter INITVAL_1B = 320'h0, parameter INITVAL_1C = 320'h0, parameter INITVAL_1D = 320'h0,
  parameter INITVAL_1E = 320'h0, parameter INITVAL_1F = 320'h0, parameter INITVAL_20 = 320'h0,
  parameter INITVAL_21 = 320'h0, parameter INITVAL_22 = 320'h0, parameter INITVAL_23 = 320'h0,
  parameter INITVAL_24 = 320'h0, parameter INITVAL_25 = 320'h0, parameter INITVAL_26 = 320'h0,
  parameter INITVAL_27 = 320'h0, parameter INITVAL_28 = 320'h0, parameter INITVAL_29 = 320'h0,
  parameter INITVAL_2A = 320'h0, parameter INITVAL_2B = 320'h0, parameter INITVAL_2C = 320'h0,
  parameter INITVAL_2D = 320'h0, parameter INITVAL_2E = 320'h0, parameter INITVAL_2F = 320'h0,
  parameter INITVAL_30 = 320'h0, parameter INITVAL_31 = 320'h0, parameter INITVAL_32 = 320'h0,
  parameter INITVAL_33 = 320'h0, parameter INITVAL_34 = 320'h0, parameter INITVAL_35 = 320'h0,
  parameter INITVAL_36 = 320'h0, parameter INITVAL_37 = 320'h0, parameter INITVAL_38 = 320'h0,
  parameter INITVAL_39 = 320'h0, parameter INITVAL_3A = 320'h0, parameter INITVAL_3B = 320'h0,
  parameter INITVAL_3C = 320'h0, parameter INITVAL_3D = 320'h0, parameter INITVAL_3E = 320'h0,
  parameter INITVAL_3F = 320'h0
) (
  input  wire DIA17, DIA16, DIA15, DIA14, DIA13, DIA12, DIA11, DIA10, DIA9,
              DIA8, DIA7, DIA6, DIA5, DIA4, DIA3, DIA2, DIA1, DIA0,
  input  wire ADA13, ADA12, ADA11, ADA10, ADA9, ADA8, ADA7,
              ADA6, ADA5, ADA4, ADA3, ADA2, ADA1, ADA0,
  input  wire CEA, OCEA, CLKA, WEA, RSTA, CSA2, CSA1, CSA0,
  output wire DOA17, DOA16, DOA15, DOA14, DOA13, DOA12, DOA11, DOA10, DOA9,
              DOA8, DOA7, DOA6, DOA5, DOA4, DOA3, DOA2, DOA1, DOA0,
  input  wire DIB17, DIB16, DIB15, DIB14, DIB13, DIB12, DIB11, DIB10, DIB9,
              DIB8, DIB7, DIB6, DIB5, DIB4, DIB3, DIB2, DIB1, DIB0,
  input  wire ADB13, ADB12, ADB11, ADB10, ADB9, ADB8, ADB7,
              ADB6, ADB5, ADB4, ADB3, ADB2, ADB1, ADB0,
  input  wire CEB, OCEB, CLKB, WEB, RSTB, CSB2, CSB1, CSB0,
  output wire DOB17, DOB16, DOB15, DOB14, DOB13, DOB12, DOB11, DOB10, DOB9,
              DOB8, DOB7, DOB6, DOB5, DOB4, DOB3, DOB2, DOB1, DOB0
);

  if (DATA_WIDTH_A != 9 || DATA_WIDTH_B != 9) begin : g_width_check
    $error("DP16KD model: only DATA_WIDTH 9 is modelled");
  end
  if ((REGMODE_A != "NOREG" && REGMODE_A != "OUTREG")
      || (REGMODE_B != "NOREG" && REGMODE_B != "OUTREG")) begin : g_regmode_check
    $error("DP16KD model: REGMODE must be NOREG or OUTREG");
  end
  if (CSDECODE_A != "0b000" || CSDECODE_B != "0b000") begin : g_csdecode_check
    $error("DP16KD model: only CSDECODE 0b000 is modelled");
  end

  // INITVAL_3F is the most significant, so word w starts at bit 20 * w.
  localparam logic [64*320-1:0] InitAll = {
    INITVAL_3F, INITVAL_3E, INITVAL_3D, INITVAL_3C, INITVAL_3B, INITVAL_3A, INITVAL_39, INITVAL_38,
    INITVAL_37, INITVAL_36, INITVAL_35, INITVAL_34, INITVAL_33, INITVAL_32, INITVAL_31, INITVAL_30,
    INITVAL_2F, INITVAL_2E, INITVAL_2D, INITVAL_2C, INITVAL_2B, INITVAL_2A, INITVAL_29, INITVAL_28,
    INITVAL_27, INITVAL_26, INITVAL_25, INITVAL_24, INITVAL_23, INITVAL_22, INITVAL_21, INITVAL_20,
    INITVAL_1F, INITVAL_1E, INITVAL_1D, INITVAL_1C, INITVAL_1B, INITVAL_1A, INITVAL_19, INITVAL_18,
    INITVAL_17, INITVAL_16, INITVAL_15, INITVAL_14, INITVAL_13, INITVAL_12, INITVAL_11, INITVAL_10,
    INITVAL_0F, INITVAL_0E, INITVAL_0D, INITVAL_0C, INITVAL_0B, INITVAL_0A, INITVAL_09, INITVAL_08,
    INITVAL_07, INITVAL_06, INITVAL_05, INITVAL_04, INITVAL_03, INITVAL_02, INITVAL_01, INITVAL_00
  };

  logic [8:0] mem [2048];

  // Memory initialisation (the one use of `initial` our conventions allow).
  initial begin
    for (int e = 0; e < 2048; e++) begin
      mem[e] = InitAll[20 * (e / 2) + 9 * (e % 2) +: 9];
    end
  end

  // Outside the modelled subset: writes, resets, deselected ports.
  always_comb begin
    assert (!WEA && !WEB);
    assert (!RSTA && !RSTB);
    assert ({CSA2, CSA1, CSA0} == 3'b000 && {CSB2, CSB1, CSB0} == 3'b000);
  end

  wire [10:0] addr_a = {ADA13, ADA12, ADA11, ADA10, ADA9, ADA8, ADA7, ADA6, ADA5, ADA4, ADA3};
  wire [10:0] addr_b = {ADB13, ADB12, ADB11, ADB10, ADB9, ADB8, ADB7, ADB6, ADB5, ADB4, ADB3};
  logic [8:0] rd_a_q, rd_b_q;    // behind the address register
  logic [8:0] out_a_q, out_b_q;  // the output register (used with OUTREG)

  always_ff @(posedge CLKA) begin
    if (CEA) rd_a_q <= mem[addr_a];
    if (OCEA) out_a_q <= rd_a_q;
  end

  always_ff @(posedge CLKB) begin
    if (CEB) rd_b_q <= mem[addr_b];
    if (OCEB) out_b_q <= rd_b_q;
  end

  assign {DOA8, DOA7, DOA6, DOA5, DOA4, DOA3, DOA2, DOA1, DOA0} =
      REGMODE_A == "OUTREG" ? out_a_q : rd_a_q;
  assign {DOB8, DOB7, DOB6, DOB5, DOB4, DOB3, DOB2, DOB1, DOB0} =
      REGMODE_B == "OUTREG" ? out_b_q : rd_b_q;

endmodule

`default_nettype wire
