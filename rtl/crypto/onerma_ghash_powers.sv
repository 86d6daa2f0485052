`default_nettype none

/// Computes the per-message power table H^1..H^Lanes that onerma_ghash needs for its aggregated
/// lanes.
///
/// An even power is the square of one already in the table (H^k = (H^(k/2))^2; squaring in
/// GF(2^128) is linear, a fixed XOR network per even k, one cycle), an odd power is H^(k-1) * H
/// from an iterative multiplier of its own (NumStages digits, NumStages + 3 cycles per product),
/// each as soon as its operands are in the table. Lanes = 5 (the pipelined GHASH): H^2 and H^4 by
/// squaring in the first two cycles, H^3 = H^2 * H and H^5 = H^4 * H from two multipliers: the
/// table is offered NumStages + 7 cycles after the cycle H is taken. On short messages (fewer
/// GHASH blocks than that) the table is the limit.
/// The table register is also the output register; the engine puts a FIFO behind it so the next
/// message's table is computed while the current one is in use. With Lanes = 1 the unit is a
/// plain register.
module onerma_ghash_powers #(
  parameter int unsigned NumStages = 4,
  parameter int unsigned Lanes     = 5
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
    // have_q[k-1]: H^k is in the table. An even power is written as soon as its root is there
    // (each even k has its own squarer), an odd one is H^(k-1) * H from a multiplier of its own,
    // started as soon as H^(k-1) is there. Every operand is a fixed table entry, so no selection
    // logic sits in front of a multiplier (one shared multiplier with an operand mux placed at
    // 62 MHz). The table is offered in the cycle after the last power is written.
    logic [Lanes-1:0] have_q, have_set, have_next;
    logic [Lanes-1:0] sq_go, mul_done;
    logic [127:0]     new_val [Lanes];

    for (genvar k = 1; k <= Lanes; k++) begin : g_pow
      if (k == 1) begin : g_h
        assign sq_go[0]    = 1'b0;
        assign mul_done[0] = 1'b0;
        assign new_val[0]  = '0;
      end else if (k % 2 == 0) begin : g_even
        assign sq_go[k-1]    = busy_q && !have_q[k-1] && have_q[k/2-1];
        assign mul_done[k-1] = 1'b0;
        assign new_val[k-1]  = onerma_gf128_pkg::square(pow_q[k/2-1]);
      end else begin : g_odd
        logic started_q, start;
        assign start      = busy_q && have_q[k-2] && !started_q;
        assign sq_go[k-1] = 1'b0;

        always_ff @(posedge clk_i or negedge rst_ni) begin
          if (!rst_ni) begin
            started_q <= 1'b0;
          end else if (accept) begin
            started_q <= 1'b0;
          end else if (start) begin
            started_q <= 1'b1;
          end
        end

        // Started once per message, and only after the previous message's table was complete,
        // so the multiplier is always idle when start rises: its ready and side band are unused.
        /* verilator lint_off PINCONNECTEMPTY */
        onerma_gf128_mul #(
          .Pipelined(1'b0),
          .NumStages(NumStages),
          .side_t   (logic)
        ) u_mul (
          .clk_i      (clk_i),
          .rst_ni     (rst_ni),
          .in_valid_i (start),
          .in_ready_o (),
          .in_x_i     (pow_q[k-2]),
          .in_y_i     (pow_q[0]),
          .in_side_i  (1'b0),
          .out_valid_o(mul_done[k-1]),
          .out_z_o    (new_val[k-1]),
          .out_side_o ()
        );
        /* verilator lint_on PINCONNECTEMPTY */
      end
    end

    assign have_set  = sq_go | mul_done;
    assign have_next = have_q | have_set;

    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        busy_q      <= 1'b0;
        out_valid_q <= 1'b0;
        have_q      <= '0;
      end else if (accept) begin
        busy_q <= 1'b1;
        have_q <= Lanes'(1);
      end else if (busy_q) begin
        have_q <= have_next;
        if (&have_next) begin
          busy_q      <= 1'b0;
          out_valid_q <= 1'b1;
        end
      end else if (out_valid_q && pow_ready_i) begin
        out_valid_q <= 1'b0;
      end
    end

    always_ff @(posedge clk_i) begin
      if (accept) begin
        pow_q[0] <= h_i;
      end
      for (int k = 2; k <= Lanes; k++) begin
        if (have_set[k-1]) begin
          pow_q[k-1] <= new_val[k-1];
        end
      end
    end
  end

endmodule

`default_nettype wire
