`default_nettype none

/// The carry-less product from its group partials (onerma_gf128_clmul): XOR of partial g shifted
/// by GroupW * g, as a balanced tree. Combinational; both multipliers register the partials in
/// front of it.
///
/// Coding: the product is built in 64-bit windows; a window is the balanced XOR tree over g of
/// the bits of partial g that land in it (zero where none do). Per product bit that is the same
/// tree over the same partial bits as shifting every partial to full width and XOR-ing those
/// (same netlist), but a simulator works on one machine word per window and term instead of
/// shifting 255-bit vectors.
module onerma_gf128_group_sum #(
  parameter int unsigned Groups = 16
) (
  input  logic [onerma_gf128_pkg::PartW-1:0] p_i [Groups],
  output logic [254:0]                       c_o
);

  import onerma_gf128_pkg::*;

  localparam int unsigned ProdW = 255;
  localparam int unsigned WinW  = 64;
  localparam int unsigned Wins  = (ProdW + WinW - 1) / WinW;

  for (genvar k = 0; k < Wins; k++) begin : g_win
    // Product bits [WLo, WHi).
    localparam int WLo = int'(k * WinW);
    localparam int WHi = (int'((k + 1) * WinW) < int'(ProdW)) ? int'((k + 1) * WinW) : int'(ProdW);

    logic [WHi-WLo-1:0] terms [Groups];
    logic [WHi-WLo-1:0] sum;

    for (genvar g = 0; g < Groups; g++) begin : g_term
      // Partial g covers product bits [GroupW * g, GroupW * g + PartW); their overlap [L, H).
      localparam int PLo = int'(GroupW * g);
      localparam int PHi = PLo + int'(PartW);
      localparam int L   = (PLo > WLo) ? PLo : WLo;
      localparam int H   = (PHi < WHi) ? PHi : WHi;

      if (L < H) begin : g_some
        assign terms[g] = (WHi - WLo)'(p_i[g][H-PLo-1:L-PLo]) << (L - WLo);
      end else begin : g_none
        assign terms[g] = '0;
      end
    end

    onerma_xor_tree #(
      .Width(WHi - WLo),
      .N    (Groups)
    ) u_tree (
      .in_i (terms),
      .out_o(sum)
    );

    assign c_o[WHi-1:WLo] = sum;
  end

endmodule

`default_nettype wire
