`default_nettype none

/// One digit of a GF(2^128) multiplication in GCM bit order (NIST SP 800-38D, Algorithm 1).
///
/// GCM numbers the polynomial coefficients from the left: bit [127] of a block (the top bit of
/// byte 0) is the coefficient of x^0 and bit [0] that of x^127. Multiplying by x is therefore a
/// right shift, and the x^128 overflow folds back as R = 0xE1 << 120 (x^128 = 1 + x + x^2 + x^7).
///
/// The stage folds Digit coefficients of the multiplier X into the partial product:
///   z_o = z_i + sum_{j < Digit} X_{k+j} * (V * x^j),   v_o = V * x^Digit,
/// where v_i = Y * x^k carries the multiplicand already shifted by the digits done so far. Each
/// output bit is written as one XOR reduction so synthesis builds a balanced tree (a sequential
/// `z ^= ...` chain would be Digit levels deep unless the tool rebalances it).
module onerma_gf128_mul_stage #(
  /// Coefficients of X folded in by this stage (128 / number of stages).
  parameter int unsigned Digit  = 32,
  /// Copies of the digit (divides 128): output bits [128/Slices*c +: 128/Slices] use copy c, so
  /// the caller can drive each copy from its own flop (fan-out replication, onerma_dup_reg).
  parameter int unsigned Slices = 1
) (
  input  logic [127:0]     z_i,
  input  logic [127:0]     v_i,
  /// Slices copies of the Digit coefficients of X, lowest coefficient in the top bit of each
  /// (same order as in the block).
  input  logic [Slices-1:0][Digit-1:0] x_i,
  output logic [127:0]     z_o,
  output logic [127:0]     v_o
);

  function automatic logic [127:0] mul_x(input logic [127:0] v);
    return (v >> 1) ^ (v[0] ? {8'he1, 120'h0} : 128'h0);
  endfunction

  // vs[j] = v_i * x^j: a fixed linear map, each bit the XOR of at most a few bits of v_i.
  logic [127:0] vs [Digit+1];

  always_comb begin
    vs[0] = v_i;
    for (int unsigned j = 1; j <= Digit; j++) begin
      vs[j] = mul_x(vs[j-1]);
    end
  end

  for (genvar b = 0; b < 128; b++) begin : g_bit
    logic [Digit-1:0] terms;
    for (genvar j = 0; j < Digit; j++) begin : g_term
      assign terms[j] = x_i[b / (128 / Slices)][Digit-1-j] & vs[j][b];
    end
    assign z_o[b] = z_i[b] ^ (^terms);
  end

  assign v_o = vs[Digit];

endmodule

`default_nettype wire
