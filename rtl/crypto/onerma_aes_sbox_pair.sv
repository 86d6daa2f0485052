// Two registered AES S-box lookups (FIPS-197 Sec. 5.1.1): data_o[k] = S(data_i[k]) 4 (Ram = 1) or
// 1 (Ram = 0) edges after data_i[k] was presented (onerma_aes_core's SboxLat); no enable (the
// pipelined core never stalls, docs/crypto.md). The registers are part of the lookup so the
// S-box can live in a synchronous block RAM.
//
// Ram = 1 (Latency 4): a fabric flop on each address, a 256 x 8 ROM read through two ports, then
//   two flops per output bit. On ECP5 yosys maps the ROM to one DP16KD (EBR) in dual-port mode,
//   the ports' address registers being the second stage: two lookups per EBR, no LUTs.
//   Why the flop in front: with logic feeding the EBR address directly, the last hop into the EBR
//   row alone took 3.7-3.9 ns of routing and the round closed at 90 MHz; a flop whose only load
//   is the EBR can sit next to it.
//   Why two flops behind: an EBR without its output register (yosys does not use it) has a slow
//   clock-to-out, 5.8 ns in nextpnr-ecp5's model; with one flop behind it that also fed logic,
//   the placer put that flop 77 tiles away (6.6 ns of routing, 80.7 MHz). The first flop behind
//   has no other connection, so it can sit next to the EBR.
//   Why block RAM at all: the pipelined AES core needs 200 lookups; as LUT ROMs they are
//   ~32,000 LUT4s that take the router hours under WebAssembly.
// Ram = 0 (Latency 1): two onerma_aes_sbox LUT ROMs followed by flops (parts without 100 spare
//   block RAMs).
//
// The ROM contents come from onerma_aes_pkg::SBOX, the table the LUT S-boxes use (one definition).
`default_nettype none

module onerma_aes_sbox_pair #(
  parameter bit Ram = 1'b1
) (
  input  logic       clk_i,
  input  logic [7:0] data_i [2],
  output logic [7:0] data_o [2]
);

  if (Ram) begin : g_ram
    (* rom_style = "block" *) logic [7:0] rom [256];
    logic [7:0] addr_q [2];  // the fabric flop meant to sit next to the EBR's address pins
    logic [7:0] rd_q   [2];  // the EBR's read data (behind its address register)
    logic [7:0] near_q [2];  // the flop meant to sit next to the EBR's data pins

    // Memory initialisation (the one use of `initial` our conventions allow).
    initial begin
      for (int i = 0; i < 256; i++) begin
        rom[i] = onerma_aes_pkg::SBOX[i];
      end
    end

    always_ff @(posedge clk_i) begin
      addr_q  <= data_i;
      rd_q[0] <= rom[addr_q[0]];
      rd_q[1] <= rom[addr_q[1]];
      near_q  <= rd_q;
      data_o  <= near_q;
    end
  end else begin : g_lut
    logic [7:0] sub [2];

    for (genvar k = 0; k < 2; k++) begin : g_port
      onerma_aes_sbox u_sbox (
        .data_i(data_i[k]),
        .data_o(sub[k])
      );
    end

    always_ff @(posedge clk_i) begin
      data_o <= sub;
    end
  end

endmodule

`default_nettype wire
