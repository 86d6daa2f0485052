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
///
/// Coding: each group partial is built from windows of at most 64 bits, each inside one operand
/// copy's product slice and computed from that copy alone. Every partial bit is the same XOR of
/// AND terms as a full-width shift-and-XOR per copy followed by masking (same netlist after
/// constant propagation), but a simulator evaluates a window in one or two machine words instead
/// of shifting and masking 135-bit vectors per term and copy (the GCM engine spent most of its
/// simulation time there).
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

  for (genvar c = 0; c < Slices; c++) begin : g_copy
    // b of this copy with GroupW - 1 zeros below and above: partial bit m of term t is
    // b[m - t] = b_pad[m - t + GroupW - 1], always inside the padded vector. A copy only feeds
    // its own product slice, so some of its bits have no load (as in synthesis).
    /* verilator lint_off UNUSEDSIGNAL */
    logic [127+2*(GroupW-1):0] b_pad;
    /* verilator lint_on UNUSEDSIGNAL */
    assign b_pad = {(GroupW-1)'(0), b_i[c], (GroupW-1)'(0)};

    for (genvar g = 0; g < Groups; g++) begin : g_group
      // Partial bits [Lo, Hi) belong to product slice c (product bit GroupW * g + m).
      localparam int Lo = (int'(c * SliceW) - int'(GroupW * g) > 0)
                        ? int'(c * SliceW) - int'(GroupW * g) : 0;
      localparam int Hi = (int'((c + 1) * SliceW) - int'(GroupW * g) < int'(PartW))
                        ? int'((c + 1) * SliceW) - int'(GroupW * g) : int'(PartW);

      // In chunks of at most 64 bits (one machine word in a simulator).
      for (genvar j = 0; j < (PartW + 63) / 64; j++) begin : g_chunk
        localparam int CLo = Lo + 64 * j;
        localparam int CHi = (CLo + 64 < Hi) ? CLo + 64 : Hi;

        if (CLo < CHi) begin : g_win
          logic [CHi-CLo-1:0] terms [GroupW];
          logic [CHi-CLo-1:0] sum;

          for (genvar t = 0; t < GroupW; t++) begin : g_term
            assign terms[t] = {(CHi - CLo){a_i[c][GroupW*g+t]}}
                            & b_pad[CHi - 1 - t + GroupW - 1 : CLo - t + GroupW - 1];
          end

          onerma_xor_tree #(
            .Width(CHi - CLo),
            .N    (GroupW)
          ) u_tree (
            .in_i (terms),
            .out_o(sum)
          );

          assign p_o[g][CHi-1:CLo] = sum;
        end
      end
    end
  end

endmodule

`default_nettype wire
