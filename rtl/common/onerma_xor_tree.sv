`default_nettype none

/// XOR of N vectors as a balanced tree (pairs, then pairs of pairs), so the depth is
/// ceil(log2 N) two-input levels whatever the synthesis tool does with a sequential chain.
/// Combinational.
module onerma_xor_tree #(
  parameter int unsigned Width = 8,
  parameter int unsigned N     = 2
) (
  input  logic [Width-1:0] in_i [N],
  output logic [Width-1:0] out_o
);

  logic [Width-1:0] t [N];

  always_comb begin
    t = in_i;
    for (int unsigned w = 1; w < N; w = w * 2) begin
      for (int unsigned i = 0; i + w < N; i = i + 2 * w) begin
        t[i] = t[i] ^ t[i+w];
      end
    end
    out_o = t[0];
  end

endmodule

`default_nettype wire
