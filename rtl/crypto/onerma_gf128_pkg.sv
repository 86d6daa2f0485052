`default_nettype none

/// GF(2^128) arithmetic of GCM (NIST SP 800-38D) shared by the multipliers and the power unit.
///
/// Two bit orders. A *block* (every port) has the coefficient of x^0 in bit [127] (GCM's order:
/// byte 0 of the block in bits [127:120]). Inside the arithmetic a *polynomial* has the
/// coefficient of x^i in bit [i], so that multiplying by x^s is a left shift by s and a
/// carry-less product is the XOR of shifted copies. Converting is a bit reversal (wiring only).
package onerma_gf128_pkg;

  // Not every user needs every constant.
  /* verilator lint_off UNUSEDPARAM */

  /// Cycles from a product's input handshake to its result in the pipelined multiplier: operand
  /// register, its copies, registered partial products, their sum, the reduction. GHASH spreads
  /// its blocks over this many lanes (docs/crypto.md).
  localparam int unsigned PipeLatency = 5;

  /// Coefficients of the multiplier operand in one registered partial product: each bit of a
  /// partial is the XOR of at most GroupW AND terms, two LUT4 levels on ECP5.
  localparam int unsigned GroupW = 8;

  /// A group's partial product: GroupW coefficients times 128 (degree <= GroupW - 1 + 127).
  localparam int unsigned PartW = GroupW + 127;
  /* verilator lint_on UNUSEDPARAM */

  function automatic logic [127:0] rev128(input logic [127:0] v);
    logic [127:0] r;
    for (int i = 0; i < 128; i++) begin
      r[i] = v[127-i];
    end
    return r;
  endfunction

  /// c (a polynomial of degree <= 254) modulo P = x^128 + x^7 + x^2 + x + 1: the part at and
  /// above x^128 comes back as c_hi * (1 + x + x^2 + x^7), whose own overflow (6 bits) folds once
  /// more. Every output bit is a fixed XOR of bits of c.
  function automatic logic [127:0] reduce(input logic [254:0] c);
    logic [133:0] hi, t;
    logic [127:0] ov;
    hi = 134'(c[254:128]);
    t  = hi ^ (hi << 1) ^ (hi << 2) ^ (hi << 7);
    ov = 128'(t[133:128]);
    return c[127:0] ^ t[127:0] ^ ov ^ (ov << 1) ^ (ov << 2) ^ (ov << 7);
  endfunction

  /// a^2 in block order. Squaring is linear in GF(2^128): coefficient i lands on x^(2i).
  function automatic logic [127:0] square(input logic [127:0] a_blk);
    logic [127:0] a;
    logic [254:0] c;
    a = rev128(a_blk);
    c = '0;
    for (int i = 0; i < 128; i++) begin
      c[2*i] = a[i];
    end
    return rev128(reduce(c));
  endfunction

  /// Bits [lo, hi) of a PartW-bit partial, clipped to the partial (constant masks that split a
  /// partial product between the copies of its operands).
  function automatic logic [PartW-1:0] part_mask(input int lo, input int hi);
    logic [PartW-1:0] m;
    for (int i = 0; i < int'(PartW); i++) begin
      m[i] = (i >= lo) && (i < hi);
    end
    return m;
  endfunction

endpackage

`default_nettype wire
