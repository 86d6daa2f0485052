`default_nettype none

/// The carry-less product from its group partials (onerma_gf128_clmul): XOR of partial g shifted
/// by GroupW * g, as a balanced tree. Combinational; both multipliers register the partials in
/// front of it.
module onerma_gf128_group_sum #(
  parameter int unsigned Groups = 16
) (
  input  logic [onerma_gf128_pkg::PartW-1:0] p_i [Groups],
  output logic [254:0]                       c_o
);

  import onerma_gf128_pkg::*;

  logic [254:0] shifted [Groups];

  for (genvar g = 0; g < Groups; g++) begin : g_shift
    assign shifted[g] = 255'(p_i[g]) << (GroupW * g);
  end

  onerma_xor_tree #(
    .Width(255),
    .N    (Groups)
  ) u_tree (
    .in_i (shifted),
    .out_o(c_o)
  );

endmodule

`default_nettype wire
