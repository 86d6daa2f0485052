`default_nettype none

/// GF(2^128) multiplier in GCM bit order (block order on the ports, onerma_gf128_pkg), z = x * y,
/// as a carry-less product split into registered group partials (onerma_gf128_clmul) followed by
/// the reduction modulo x^128 + x^7 + x^2 + x + 1.
///
/// Pipelined = 1: latency onerma_gf128_pkg::PipeLatency = 5, one product per cycle (in_ready_o
///   is constant 1), no enables (the registers load every cycle, bubbles included):
///     operands (x, and y as YTerms terms) -> Slices copies of x and of the XOR of y's terms ->
///     all 16 group partials of x * y (each bit <= 8 AND terms) -> their sum, the unreduced
///     255-bit product (each bit <= 16 partial bits) -> reduced z.
///   Every stage is two or three LUT4 levels on ECP5. The first register takes the user's operand
///   logic (GHASH: lane select, forwarding, XOR with the block); loading the copies straight from
///   that logic put a 3.8 ns fan-out net behind it and was the GHASH critical path (105.8 MHz). The previous multiplier folded one 32-bit
///   digit of x per stage into a reduced running sum, so the sum ran through all four stages and
///   each stage was five LUT levels deep (96 MHz at best, docs/crypto.md); here the digits'
///   partials are independent and only the last two stages combine them.
/// Pipelined = 0: iterative, NumStages digits of x (Digit = 128 / NumStages coefficients, a
///   multiple of 8), highest digit first (Horner in x^Digit on the unreduced product):
///   the accepting edge loads the operands, the next NumStages edges register the digits' group
///   partials, one edge later each is added into the unreduced sum, and one more edge reduces it.
///   A product presented in cycle c appears in cycle c + NumStages + 3; the next can be accepted
///   in that cycle (II = NumStages + 3).
///
/// Both: out_valid_o is high for exactly one cycle per product and there is no output
/// back-pressure: the user must take the result in that cycle (GHASH writes it into a register
/// file, the power unit into its power table). `side_i` travels with the product.
/// Only valid bits and counters are reset.
module onerma_gf128_mul #(
  /// 1: pipelined, II = 1, latency PipeLatency. 0: iterative over NumStages digits.
  parameter bit          Pipelined = 1'b1,
  /// Iterative only: number of digits of x (divides 16).
  parameter int unsigned NumStages = 4,
  /// Copies of each operand register (fan-out replication, onerma_gf128_clmul).
  parameter int unsigned Slices    = 4,
  /// y is given as the XOR of this many terms. Pipelined: each term has its own operand
  /// register and the XOR comes after it, in front of the copies, so a user whose y is a sum of
  /// values from different places (GHASH: block, forwarded product, stored accumulator) does not
  /// route them to one point before the first register (in context that path had a 9.2 ns net).
  parameter int unsigned YTerms    = 1,
  /// Side-band payload, returned with the product.
  parameter type         side_t    = logic
) (
  input  logic         clk_i,
  input  logic         rst_ni,
  input  logic         in_valid_i,
  output logic         in_ready_o,
  input  logic [127:0] in_x_i,
  input  logic [YTerms-1:0][127:0] in_y_i,
  input  side_t        in_side_i,
  output logic         out_valid_o,
  output logic [127:0] out_z_o,
  output side_t        out_side_o
);

  import onerma_gf128_pkg::*;

  if (Pipelined) begin : g_pipe
    localparam int unsigned Groups = 128 / GroupW;

    logic [3:0]       valid_q;
    logic             in_valid_q;
    logic [127:0]     x_in_q;
    logic [127:0]     y_in_q [YTerms];
    logic [127:0]     y_sum;
    side_t            side_q [5];
    logic [255:0]     op_q   [Slices];
    logic [127:0]     a_q    [Slices];
    logic [127:0]     b_q    [Slices];
    logic [PartW-1:0] pp_d   [Groups];
    logic [PartW-1:0] pp_q   [Groups];
    logic [254:0]     c_d, c_q;
    logic [127:0]     z_q;

    always_comb begin
      y_sum = '0;
      for (int unsigned t = 0; t < YTerms; t++) begin
        y_sum = y_sum ^ y_in_q[t];
      end
    end

    // Stage 0: the operands in polynomial order. Stage 1: Slices separate copies of them.
    for (genvar c = 0; c < Slices; c++) begin : g_op
      onerma_dup_reg #(
        .Width(256)
      ) u_op (
        .clk_i,
        .rst_ni,
        .d_i({x_in_q, y_sum}),
        .q_o(op_q[c])
      );
      assign a_q[c] = op_q[c][255:128];
      assign b_q[c] = op_q[c][127:0];
    end

    // Stage 2: the 16 group partials.
    onerma_gf128_clmul #(
      .Width (128),
      .Slices(Slices)
    ) u_clmul (
      .a_i(a_q),
      .b_i(b_q),
      .p_o(pp_d)
    );

    // Stage 3: the unreduced product. Stage 4: reduced, back in block order.
    onerma_gf128_group_sum #(
      .Groups(Groups)
    ) u_sum (
      .p_i(pp_q),
      .c_o(c_d)
    );

    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        in_valid_q <= 1'b0;
        valid_q    <= '0;
      end else begin
        in_valid_q <= in_valid_i;
        valid_q    <= {valid_q[2:0], in_valid_q};
      end
    end

    always_ff @(posedge clk_i) begin
      x_in_q    <= rev128(in_x_i);
      for (int unsigned t = 0; t < YTerms; t++) begin
        y_in_q[t] <= rev128(in_y_i[t]);
      end
      side_q[0] <= in_side_i;
      for (int unsigned i = 1; i < 5; i++) begin
        side_q[i] <= side_q[i-1];
      end
      pp_q      <= pp_d;
      c_q       <= c_d;
      z_q       <= rev128(reduce(c_q));
    end

    assign in_ready_o  = 1'b1;
    assign out_valid_o = valid_q[3];
    assign out_z_o     = z_q;
    assign out_side_o  = side_q[4];

  end else begin : g_iter
    localparam int unsigned Digit  = 128 / NumStages;
    localparam int unsigned Groups = Digit / GroupW;
    localparam int unsigned CntW   = $clog2(NumStages + 1);

    if (128 % NumStages != 0 || Digit % GroupW != 0) begin : g_bad_param
      $error("onerma_gf128_mul: NumStages must divide 16");
    end

    // busy_q: a product is in progress; left_q: digits still to be issued; pp_valid_q: pp_q holds
    // a digit's partials (pp_last_q: the lowest digit); sum_done_q: c_q is the whole product;
    // done_q: z_q is the result.
    logic             busy_q, pp_valid_q, pp_last_q, sum_done_q, done_q;
    logic [CntW-1:0]  left_q;
    logic [127:0]     a_q, b_q;
    logic [Digit-1:0] dig_q [Slices];
    logic [127:0]     b_rep [Slices];
    logic [PartW-1:0] pp_d  [Groups];
    logic [PartW-1:0] pp_q  [Groups];
    logic [254:0]     pp_sum, c_q;
    logic [127:0]     z_q;
    side_t            side_q;
    logic [127:0]     x_poly, y_blk;
    logic             accept;

    always_comb begin
      y_blk = '0;
      for (int unsigned t = 0; t < YTerms; t++) begin
        y_blk = y_blk ^ in_y_i[t];
      end
    end

    assign x_poly     = rev128(in_x_i);
    assign in_ready_o = !busy_q;
    assign accept     = in_valid_i && in_ready_o;

    // The digit copies load every cycle (no enable): the next digit is always at the top of a_q,
    // which shifts by a digit per cycle; outside a product their value is unused.
    for (genvar c = 0; c < Slices; c++) begin : g_dig
      onerma_dup_reg #(
        .Width(Digit)
      ) u_dig (
        .clk_i,
        .rst_ni,
        .d_i(accept ? x_poly[127 -: Digit] : a_q[127 -: Digit]),
        .q_o(dig_q[c])
      );
      assign b_rep[c] = b_q;
    end

    onerma_gf128_clmul #(
      .Width (Digit),
      .Slices(Slices)
    ) u_clmul (
      .a_i(dig_q),
      .b_i(b_rep),
      .p_o(pp_d)
    );

    onerma_gf128_group_sum #(
      .Groups(Groups)
    ) u_sum (
      .p_i(pp_q),
      .c_o(pp_sum)
    );

    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        busy_q     <= 1'b0;
        left_q     <= '0;
        pp_valid_q <= 1'b0;
        pp_last_q  <= 1'b0;
        sum_done_q <= 1'b0;
        done_q     <= 1'b0;
      end else begin
        pp_valid_q <= busy_q && (left_q != '0);
        pp_last_q  <= (left_q == CntW'(1));
        sum_done_q <= pp_valid_q && pp_last_q;
        done_q     <= sum_done_q;
        if (accept) begin
          busy_q <= 1'b1;
          left_q <= CntW'(NumStages);
        end else begin
          if (left_q != '0) begin
            left_q <= left_q - CntW'(1);
          end
          if (sum_done_q) begin
            busy_q <= 1'b0;
          end
        end
      end
    end

    always_ff @(posedge clk_i) begin
      a_q  <= accept ? (x_poly << Digit) : (a_q << Digit);
      pp_q <= pp_d;
      if (accept) begin
        b_q    <= rev128(y_blk);
        side_q <= in_side_i;
        c_q    <= '0;
      end else if (pp_valid_q) begin
        c_q <= (c_q << Digit) ^ pp_sum;
      end
      if (sum_done_q) begin
        z_q <= rev128(reduce(c_q));
      end
    end

    assign out_valid_o = done_q;
    assign out_z_o     = z_q;
    assign out_side_o  = side_q;
  end

endmodule

`default_nettype wire
