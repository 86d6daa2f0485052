`default_nettype none

/// Carry-less product of a Width-coefficient digit a with a 128-coefficient polynomial b, left as
/// Width / GroupW group partials (polynomial order, onerma_gf128_pkg): the product is
/// XOR_g (p_o[g] << (GroupW * g)). Combinational; the caller registers the partials, so each
/// partial bit (the XOR of at most GroupW AND terms) is all the logic in front of a register.
///
/// Fan-out: every coefficient of a and b drives up to 128 AND terms. The caller passes Slices
/// copies of each operand (separate flops, onerma_dup_reg) and copy c only feeds the product bits
/// [c * SliceW, (c + 1) * SliceW): each flop drives about 128 / Slices terms. As one flop per
/// coefficient that net was the GHASH critical path (9.4 ns of routing, docs/crypto.md).
module onerma_gf128_clmul #(
  /// Coefficients of a (a multiple of GroupW).
  parameter int unsigned Width  = 128,
  parameter int unsigned Slices = 4,
  // Derived, do not override.
  parameter int unsigned Groups = Width / onerma_gf128_pkg::GroupW
) (
  input  logic [Width-1:0]                      a_i [Slices],
  input  logic [127:0]                          b_i [Slices],
  output logic [onerma_gf128_pkg::PartW-1:0]    p_o [Groups]
);

  import onerma_gf128_pkg::*;

  localparam int unsigned ProdW  = Width + 127;
  localparam int unsigned SliceW = (ProdW + Slices - 1) / Slices;

  if (Width % GroupW != 0) begin : g_bad_param
    $error("onerma_gf128_clmul: Width must be a multiple of GroupW");
  end

  for (genvar g = 0; g < Groups; g++) begin : g_group
    logic [PartW-1:0] part [Slices];

    for (genvar c = 0; c < Slices; c++) begin : g_slice
      // Product bit k = GroupW * g + m of this group comes from copy k / SliceW.
      localparam logic [PartW-1:0] Mask =
        part_mask(int'(c * SliceW) - int'(GroupW * g), int'((c + 1) * SliceW) - int'(GroupW * g));

      logic [PartW-1:0] terms [GroupW];
      logic [PartW-1:0] sum;

      for (genvar t = 0; t < GroupW; t++) begin : g_term
        assign terms[t] = a_i[c][GroupW*g+t] ? (PartW'(b_i[c]) << t) : '0;
      end

      onerma_xor_tree #(
        .Width(PartW),
        .N    (GroupW)
      ) u_tree (
        .in_i (terms),
        .out_o(sum)
      );

      assign part[c] = sum & Mask;
    end

    always_comb begin
      p_o[g] = '0;
      for (int unsigned c = 0; c < Slices; c++) begin
        p_o[g] = p_o[g] | part[c];
      end
    end
  end

endmodule

`default_nettype wire
