// Two-port 256 x 8 ROM holding the AES S-box (onerma_aes_pkg::SBOX, the table the LUT S-boxes use),
// read synchronously: data_o[k] = S(addr_i[k]) 2 edges after addr_i[k] was presented. The
// technology primitive under onerma_aes_sbox_pair's block RAM lookups. This is the generic
// version; onerma_aes_sbox_rom.core reads fpga/ecp5/onerma_aes_sbox_rom.sv instead under the use
// flag `ecp5` (same module, ports and latency; formal/onerma_aes_sbox_pair_ecp5.sby proves the
// two pairs equal).
//
// Edge 1 is the read: on ECP5 yosys maps the ROM to one DP16KD (EBR) in dual-port mode, the ports'
// address registers holding addr_i, two lookups per EBR and no LUTs. Edge 2 is a fabric flop per
// output bit whose only load is the caller's next flop: yosys does not use the EBR's output
// register, and an EBR without it has a slow clock-to-out (5.8 ns in nextpnr-ecp5's model); a
// flop behind it with no other connection can sit next to the EBR (one that also fed logic was
// placed 77 tiles away).
`default_nettype none

module onerma_aes_sbox_rom (
  input  logic       clk_i,
  input  logic [7:0] addr_i [2],
  output logic [7:0] data_o [2]
);

  logic [7:0] rd_q [2];  // the EBR's read data (behind its address register)

`ifdef VERILATOR
  // The same reads from the package's table itself. Verilator gives every instance of a memory
  // with an initial value its own copy, set one entry per statement: the pipelined pool's 200
  // ROMs were 51,200 statements (13.6 MB of C++) in each crypto top and 51 KB of model state.
  // The package table is one constant shared by all instances. Synthesis and the proofs read the
  // memory below (yosys infers no ROM from a constant table: 332 LUT4s instead of an EBR).
  always_ff @(posedge clk_i) begin
    rd_q[0] <= onerma_aes_pkg::SBOX[addr_i[0]];
    rd_q[1] <= onerma_aes_pkg::SBOX[addr_i[1]];
    data_o  <= rd_q;
  end
`else
  // The table is the memory's initial contents (its declaration's value): never written.
  (* rom_style = "block" *) logic [7:0] rom [256] = onerma_aes_pkg::SBOX;

  always_ff @(posedge clk_i) begin
    rd_q[0] <= rom[addr_i[0]];
    rd_q[1] <= rom[addr_i[1]];
    data_o  <= rd_q;
  end
`endif

endmodule

`default_nettype wire
