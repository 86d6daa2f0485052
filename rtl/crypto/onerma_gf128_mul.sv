`default_nettype none

/// GF(2^128) multiplier in GCM bit order, z = x * y, built from NumStages digit stages
/// (onerma_gf128_mul_stage, 128 / NumStages coefficients of x each).
///
/// Pipelined = 1: the operands are registered, then the stages are unrolled with a register after
///   each one. One product per cycle (in_ready_o is constant 1); a product presented in cycle c
///   appears in cycle c + NumStages + 1. Each stage's digit of x drives 128 AND terms; it is
///   registered in Slices copies (onerma_dup_reg), one per 128/Slices output bits, so that net is
///   short (docs/crypto.md: as one flop it was the GHASH critical path, 9.4 ns of routing). No
///   enables: the registers load every cycle, bubbles included.
/// Pipelined = 0: one stage used NumStages times. The accepting edge loads the operands, the
///   next NumStages edges fold in a digit each, so a product presented in cycle c appears in
///   cycle c + NumStages + 1, and a new one can be accepted in that same cycle (II = NumStages
///   + 1).
///
/// Both: out_valid_o is high for exactly one cycle per product and there is no output
/// back-pressure: the user must take the result in that cycle (GHASH writes it into a register
/// file, the power unit into its power table). `side_i` travels with the product.
/// Only valid bits and the iteration counter are reset.
module onerma_gf128_mul #(
  /// 1: unrolled and registered after every stage (II = 1). 0: iterative (II = NumStages).
  parameter bit          Pipelined = 1'b1,
  /// Number of digit stages: 1, 2, 4, 8, 16, ... (divides 128).
  parameter int unsigned NumStages = 4,
  /// Pipelined only: copies of each digit register (divides 128).
  parameter int unsigned Slices    = 4,
  /// Side-band payload, returned with the product.
  parameter type         side_t    = logic
) (
  input  logic         clk_i,
  input  logic         rst_ni,
  input  logic         in_valid_i,
  output logic         in_ready_o,
  input  logic [127:0] in_x_i,
  input  logic [127:0] in_y_i,
  input  side_t        in_side_i,
  output logic         out_valid_o,
  output logic [127:0] out_z_o,
  output side_t        out_side_o
);

  localparam int unsigned Digit = 128 / NumStages;

  if (128 % NumStages != 0) begin : g_bad_param
    $error("onerma_gf128_mul: NumStages must divide 128");
  end

  if (Pipelined) begin : g_pipe
    logic                         in_valid_q;
    logic [127:0]                 in_v_q, in_x_q;
    side_t                        in_side_q;
    logic [NumStages-1:0]         valid_q;
    logic [127:0]                 z_q    [NumStages];
    logic [127:0]                 v_q    [NumStages];
    logic [127:0]                 x_q    [NumStages];
    side_t                        side_q [NumStages];
    // dig_q[s]: the Slices copies of the digit stage s folds in.
    logic [Slices-1:0][Digit-1:0] dig_q  [NumStages];

    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        in_valid_q <= 1'b0;
      end else begin
        in_valid_q <= in_valid_i;
      end
    end

    always_ff @(posedge clk_i) begin
      in_v_q    <= in_y_i;
      in_x_q    <= in_x_i;
      in_side_q <= in_side_i;
    end

    for (genvar c = 0; c < Slices; c++) begin : g_dig0
      onerma_dup_reg #(
        .Width(Digit)
      ) u_dig (
        .clk_i,
        .d_i(in_x_i[127 -: Digit]),
        .q_o(dig_q[0][c])
      );
    end

    for (genvar s = 0; s < NumStages; s++) begin : g_stage
      logic         valid_in;
      logic [127:0] z_in, v_in, x_in, z_next, v_next;
      side_t        side_in;

      if (s == 0) begin : g_first
        assign valid_in = in_valid_q;
        assign z_in     = '0;
        assign v_in     = in_v_q;
        assign x_in     = in_x_q;
        assign side_in  = in_side_q;
      end else begin : g_next
        assign valid_in = valid_q[s-1];
        assign z_in     = z_q[s-1];
        assign v_in     = v_q[s-1];
        assign x_in     = x_q[s-1];
        assign side_in  = side_q[s-1];
      end

      onerma_gf128_mul_stage #(
        .Digit (Digit),
        .Slices(Slices)
      ) u_stage (
        .z_i(z_in),
        .v_i(v_in),
        .x_i(dig_q[s]),
        .z_o(z_next),
        .v_o(v_next)
      );

      always_ff @(posedge clk_i or negedge rst_ni) begin
        if (!rst_ni) begin
          valid_q[s] <= 1'b0;
        end else begin
          valid_q[s] <= valid_in;
        end
      end

      always_ff @(posedge clk_i) begin
        z_q[s]    <= z_next;
        v_q[s]    <= v_next;
        x_q[s]    <= x_in;
        side_q[s] <= side_in;
      end

      if (s + 1 < NumStages) begin : g_dig_next
        for (genvar c = 0; c < Slices; c++) begin : g_copy
          onerma_dup_reg #(
            .Width(Digit)
          ) u_dig (
            .clk_i,
            .d_i(x_in[127 - (s + 1) * Digit -: Digit]),
            .q_o(dig_q[s+1][c])
          );
        end
      end
    end

    // The shifted multiplicand and the digits of the last stage are not needed further, and the
    // full x registers only feed the digit copies; synthesis removes the unused flops.
    /* verilator lint_off UNUSEDSIGNAL */
    logic [127:0] unused_v, unused_x;
    /* verilator lint_on UNUSEDSIGNAL */
    assign unused_v = v_q[NumStages-1];
    assign unused_x = x_q[NumStages-1];

    assign in_ready_o  = 1'b1;
    assign out_valid_o = valid_q[NumStages-1];
    assign out_z_o     = z_q[NumStages-1];
    assign out_side_o  = side_q[NumStages-1];

  end else begin : g_iter
    localparam int unsigned CntW = (NumStages > 1) ? $clog2(NumStages) : 1;

    // busy_q: digits being folded in, cnt_q of them so far; done_q: the product is in z_q.
    logic            busy_q, done_q;
    logic [CntW-1:0] cnt_q;
    logic [127:0]    z_q, v_q, x_q;
    side_t           side_q;

    logic            accept, finish;
    logic [127:0]    z_next, v_next;

    // The accepting edge only loads the operands, so the digit stage always starts from
    // registers (no operand mux in front of it; with one, the power unit placed at 62 MHz).
    assign in_ready_o = !busy_q;
    assign accept     = in_valid_i && in_ready_o;
    assign finish     = busy_q && (cnt_q == CntW'(NumStages - 1));

    onerma_gf128_mul_stage #(
      .Digit(Digit)
    ) u_stage (
      .z_i(z_q),
      .v_i(v_q),
      .x_i(x_q[127 -: Digit]),
      .z_o(z_next),
      .v_o(v_next)
    );

    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        busy_q <= 1'b0;
        done_q <= 1'b0;
        cnt_q  <= '0;
      end else begin
        done_q <= finish;
        if (accept) begin
          busy_q <= 1'b1;
          cnt_q  <= '0;
        end else if (finish) begin
          busy_q <= 1'b0;
        end else if (busy_q) begin
          cnt_q <= cnt_q + CntW'(1);
        end
      end
    end

    // x_q is shifted left by a digit per step, so the next digit is always at the top.
    always_ff @(posedge clk_i) begin
      if (accept) begin
        z_q    <= '0;
        v_q    <= in_y_i;
        x_q    <= in_x_i;
        side_q <= in_side_i;
      end else if (busy_q) begin
        z_q <= z_next;
        v_q <= v_next;
        x_q <= x_q << Digit;
      end
    end

    assign out_valid_o = done_q;
    assign out_z_o     = z_q;
    assign out_side_o  = side_q;
  end

endmodule

`default_nettype wire
