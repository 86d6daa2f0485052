`default_nettype none

/// Computes the per-message power table H^1..H^Lanes that onerma_ghash needs for its aggregated
/// lanes, with a small iterative multiplier (one digit stage, NumStages cycles per product).
///
/// H^(k+1) = H^k * H, one after the other: (Lanes - 1) * NumStages cycles per message after H
/// arrives, plus one cycle to present the table. The table register is also the output register;
/// the engine puts a FIFO behind it so the next message's table is computed while the current
/// one is in use. With Lanes = 1 the unit is a plain register.
module onerma_ghash_powers #(
  parameter int unsigned NumStages = 4,
  parameter int unsigned Lanes     = 4
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  input  logic                 h_valid_i,
  output logic                 h_ready_o,
  input  logic [127:0]         h_i,
  output logic                 pow_valid_o,
  input  logic                 pow_ready_i,
  output logic [Lanes*128-1:0] pow_o
);

  logic [127:0] pow_q [Lanes];
  logic         busy_q, out_valid_q;
  logic         accept;

  assign h_ready_o   = !busy_q && !out_valid_q;
  assign accept      = h_valid_i && h_ready_o;
  assign pow_valid_o = out_valid_q;

  for (genvar k = 0; k < Lanes; k++) begin : g_out
    assign pow_o[128*k +: 128] = pow_q[k];
  end

  if (Lanes == 1) begin : g_one
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        out_valid_q <= 1'b0;
      end else if (accept) begin
        out_valid_q <= 1'b1;
      end else if (pow_ready_i) begin
        out_valid_q <= 1'b0;
      end
    end
    assign busy_q = 1'b0;
    always_ff @(posedge clk_i) begin
      if (accept) begin
        pow_q[0] <= h_i;
      end
    end
  end else begin : g_multi
    localparam int unsigned KW = $clog2(Lanes);

    logic          mul_in_valid, mul_in_ready, mul_out_valid;
    logic [127:0]  mul_in_x, mul_in_y, mul_out_z;
    logic [KW-1:0] mul_in_k, mul_out_k;
    logic          more;

    // The first product is H * H straight from the input; each later one is the product just
    // out of the multiplier times H, issued in the cycle it comes out (II of the multiplier).
    assign more         = mul_out_valid && (mul_out_k != KW'(Lanes - 1));
    assign mul_in_valid = accept || more;
    assign mul_in_x     = accept ? h_i : mul_out_z;
    assign mul_in_y     = accept ? h_i : pow_q[0];
    assign mul_in_k     = accept ? KW'(1) : mul_out_k + KW'(1);

    onerma_gf128_mul #(
      .Pipelined(1'b0),
      .NumStages(NumStages),
      .side_t   (logic [KW-1:0])
    ) u_mul (
      .clk_i      (clk_i),
      .rst_ni     (rst_ni),
      .in_valid_i (mul_in_valid),
      .in_ready_o (mul_in_ready),
      .in_x_i     (mul_in_x),
      .in_y_i     (mul_in_y),
      .in_side_i  (mul_in_k),
      .out_valid_o(mul_out_valid),
      .out_z_o    (mul_out_z),
      .out_side_o (mul_out_k)
    );

    // The multiplier is idle whenever a product is issued (not busy, or its result is out).
    /* verilator lint_off UNUSEDSIGNAL */
    logic unused_ready;
    /* verilator lint_on UNUSEDSIGNAL */
    assign unused_ready = mul_in_ready;

    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        busy_q      <= 1'b0;
        out_valid_q <= 1'b0;
      end else begin
        if (accept) begin
          busy_q <= 1'b1;
        end else if (mul_out_valid && !more) begin
          busy_q      <= 1'b0;
          out_valid_q <= 1'b1;
        end else if (out_valid_q && pow_ready_i) begin
          out_valid_q <= 1'b0;
        end
      end
    end

    always_ff @(posedge clk_i) begin
      if (accept) begin
        pow_q[0] <= h_i;
      end
      if (mul_out_valid) begin
        pow_q[mul_out_k] <= mul_out_z;
      end
    end
  end

endmodule

`default_nettype wire
