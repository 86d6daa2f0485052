// Two registered AES S-box lookups (FIPS-197 Sec. 5.1.1): data_o[k] = S(data_i[k]) 4 (Ram = 1) or
// 1 (Ram = 0) edges after data_i[k] was presented (onerma_aes_core's SboxLat); no enable (the
// pipelined core never stalls, docs/crypto.md). The registers are part of the lookup so the
// S-box can live in a synchronous block RAM.
//
// Ram = 1 (Latency 4): a fabric flop on each address, the ROM primitive onerma_aes_sbox_rom (2
//   edges: the read and a flop behind it; a DP16KD on ECP5, two lookups per EBR, no LUTs), then a
//   flop per output bit.
//   Why the flop in front: with logic feeding the EBR address directly, the last hop into the EBR
//   row alone took 3.7-3.9 ns of routing and the round closed at 90 MHz; a flop whose only load
//   is the EBR can sit next to it.
//   Why a flop behind the primitive: the primitive's last flop then has this one as its only
//   load and can sit next to the EBR; one that also fed logic was placed 77 tiles away (6.6 ns
//   of routing, 80.7 MHz).
//   Why block RAM at all: the pipelined AES core needs 200 lookups; as LUT ROMs they are
//   ~32,000 LUT4s that take the router hours under WebAssembly.
// Ram = 0 (Latency 1): two onerma_aes_sbox LUT ROMs followed by flops (parts without 100 spare
//   block RAMs).
//
// The technology variant is the primitive only: onerma_aes_sbox_rom.core selects the generic ROM
// (rtl/crypto/) or, under the use flag `ecp5`, fpga/ecp5/onerma_aes_sbox_rom.sv.
`default_nettype none

module onerma_aes_sbox_pair #(
  parameter bit Ram = 1'b1
) (
  input  logic       clk_i,
  input  logic [7:0] data_i [2],
  output logic [7:0] data_o [2]
);

  if (Ram) begin : g_ram
    logic [7:0] addr_q [2];  // the fabric flop meant to sit next to the EBR's address pins
    logic [7:0] rom_o  [2];

    always_ff @(posedge clk_i) begin
      addr_q <= data_i;
      data_o <= rom_o;
    end

    onerma_aes_sbox_rom u_rom (
      .clk_i,
      .addr_i(addr_q),
      .data_o(rom_o)
    );
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
