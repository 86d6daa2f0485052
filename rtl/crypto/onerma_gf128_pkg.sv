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

  /// Bit reversal, as bit selects only (wiring). A loop per 32-bit word rather than one over all
  /// 128 bits: Verilator unrolls the short loops into straight-line code, where it ran the
  /// 128-step loop at run time. Swapping halves, bytes, nibbles, ... with constant masks is
  /// fewer simulator operations but changed the ECP5 mapping of the mux in front of GHASH's
  /// operand register (+225 LUT4 on ghash_pipe), so it is not used.
  function automatic logic [127:0] rev128(input logic [127:0] v);
    logic [127:0] r;
    for (int w = 0; w < 4; w++) begin
      for (int i = 0; i < 32; i++) begin
        r[32*w + i] = v[127 - 32*w - i];
      end
    end
    return r;
  endfunction

  /// c (a polynomial of degree <= 254) modulo P = x^128 + x^7 + x^2 + x + 1: the part at and
  /// above x^128 comes back as c_hi * (1 + x + x^2 + x^7), whose own overflow (6 bits) folds once
  /// more. Every output bit is a fixed XOR of bits of c.
  /// Coding: c_hi * (1 + x + x^2 + x^7) is formed 32 bits at a time, each word from a 64-bit
  /// pair of words of c_hi (the same XOR per bit as shifting the whole of c_hi, but word
  /// operations in a simulator).
  function automatic logic [127:0] reduce(input logic [254:0] c);
    logic [127:0] hi, t;
    logic [63:0]  p;
    logic [5:0]   ov;
    logic [31:0]  fold;
    hi = {1'b0, c[254:128]};
    for (int w = 0; w < 4; w++) begin
      p = {hi[32*w +: 32], (w == 0) ? 32'h0 : hi[32*w-32 +: 32]};
      t[32*w +: 32] = p[63:32] ^ p[62:31] ^ p[61:30] ^ p[56:25];
    end
    // The bits of c_hi * (1 + x + x^2 + x^7) at x^128..x^133.
    p  = {32'h0, hi[127:96]};
    p  = p ^ (p << 1) ^ (p << 2) ^ (p << 7);
    ov = p[37:32];
    fold = 32'(ov) ^ (32'(ov) << 1) ^ (32'(ov) << 2) ^ (32'(ov) << 7);
    return c[127:0] ^ t ^ {96'h0, fold};
  endfunction

  /// a^2 in block order. Squaring is linear in GF(2^128): coefficient i lands on x^(2i). The
  /// zeros are interleaved 16 coefficients at a time with constant shifts and masks (wiring,
  /// like a bit loop, but word operations in a simulator).
  function automatic logic [127:0] square(input logic [127:0] a_blk);
    logic [127:0] a;
    logic [254:0] c;
    logic [31:0]  x;
    a = rev128(a_blk);
    for (int j = 0; j < 8; j++) begin
      x = {16'h0, a[16*j +: 16]};
      x = (x | (x << 8)) & 32'h00ff_00ff;
      x = (x | (x << 4)) & 32'h0f0f_0f0f;
      x = (x | (x << 2)) & 32'h3333_3333;
      x = (x | (x << 1)) & 32'h5555_5555;
      // x[31] is 0: the top coefficient lands on x^254.
      if (j < 7) c[32*j +: 32] = x;
      else       c[254:224] = x[30:0];
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
