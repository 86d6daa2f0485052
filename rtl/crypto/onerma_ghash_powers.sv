`default_nettype none

/// Computes the per-message power table H^1..H^Lanes that onerma_ghash needs for its aggregated
/// lanes, one table per message, pipelined so that a new table can start every NumStages + 3
/// cycles (the initiation interval of one iterative GF(2^128) multiplier).
///
/// Lanes = 5 (the pipelined GHASH): H^2 and H^4 are squares (squaring in GF(2^128) is linear, a
/// fixed XOR network), H^3 = H^2 * H and H^5 = H^4 * H come from two iterative multipliers
/// started in the same cycle. Three places hold a message's values:
///   stage A  {H}                 taken from h_i;
///   stage B  {H, H^2, H^4}       squared from stage A in one edge; launches both products;
///   products the multipliers' own output and side-band registers hold {H, H^2, H^3} and
///            {H^4, H^5} from their done cycle until the table moves on (the iterative
///            multiplier keeps z and side until its next product, so they are the table's
///            second slot and cost no register here);
///   table    pow_o, the table in use by onerma_ghash until it pops it (last block of the
///            message).
/// A product is launched only when the multipliers' previous results have moved (or move in
/// the same cycle) to the table register, so a result is never overwritten before it is used.
/// The table register loads in the cycle the current table is popped (pop-and-push), so
/// back-to-back short messages see no bubble: a message of G GHASH blocks costs max(G,
/// NumStages + 3) cycles of the power unit (7 with NumStages 4). Latency from the cycle H is
/// taken to the table being offered: 2 + NumStages + 3 + 1 cycles when idle.
/// Lanes = 1 (iterative GHASH): the table is H, one register with the same pop-and-push.
/// Other values of Lanes are refused at elaboration (onerma_gf128_pkg::PipeLatency is 5).
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

  logic                 tab_valid_q;
  logic [Lanes*128-1:0] tab_q;
  logic                 pop;

  assign pow_valid_o = tab_valid_q;
  assign pow_o       = tab_q;
  assign pop         = tab_valid_q && pow_ready_i;

  if (Lanes == 1) begin : g_one
    logic accept;
    assign h_ready_o = !tab_valid_q || pow_ready_i;
    assign accept    = h_valid_i && h_ready_o;

    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        tab_valid_q <= 1'b0;
      end else if (accept) begin
        tab_valid_q <= 1'b1;
      end else if (pop) begin
        tab_valid_q <= 1'b0;
      end
    end

    always_ff @(posedge clk_i) begin
      if (accept) begin
        tab_q <= h_i;
      end
    end
  end else if (Lanes == 5) begin : g_five
    typedef struct packed {
      logic [127:0] h;
      logic [127:0] h2;
    } side3_t;

    logic         a_valid_q, b_valid_q, held_q;
    logic [127:0] a_h_q, b_h_q, b_h2_q, b_h4_q, sq_h, z3, z5, h4_out;
    side3_t       side3_out;
    logic         a_to_b, launch, mul_ready, done3, done5, avail, move;

    // The two products start together and take the same number of cycles, so they finish
    // together: done3 stands for both (done5 is unused), and both readies gate a launch.
    logic   ready3, ready5;
    side3_t side3_in;
    assign mul_ready = ready3 && ready5;

    assign avail     = done3 || held_q;
    assign move      = avail && (!tab_valid_q || pow_ready_i);
    assign launch    = b_valid_q && mul_ready && (!avail || move);
    assign a_to_b    = a_valid_q && (!b_valid_q || launch);
    assign h_ready_o = !a_valid_q || a_to_b;

    assign sq_h     = onerma_gf128_pkg::square(a_h_q);
    assign side3_in = '{h: b_h_q, h2: b_h2_q};

    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        a_valid_q   <= 1'b0;
        b_valid_q   <= 1'b0;
        held_q      <= 1'b0;
        tab_valid_q <= 1'b0;
      end else begin
        if (h_valid_i && h_ready_o) begin
          a_valid_q <= 1'b1;
        end else if (a_to_b) begin
          a_valid_q <= 1'b0;
        end
        if (a_to_b) begin
          b_valid_q <= 1'b1;
        end else if (launch) begin
          b_valid_q <= 1'b0;
        end
        held_q <= avail && !move;
        if (move) begin
          tab_valid_q <= 1'b1;
        end else if (pop) begin
          tab_valid_q <= 1'b0;
        end
      end
    end

    always_ff @(posedge clk_i) begin
      if (h_valid_i && h_ready_o) begin
        a_h_q <= h_i;
      end
      if (a_to_b) begin
        b_h_q  <= a_h_q;
        b_h2_q <= sq_h;
        b_h4_q <= onerma_gf128_pkg::square(sq_h);
      end
      if (move) begin
        tab_q <= {z5, h4_out, z3, side3_out.h2, side3_out.h};
      end
    end

    onerma_gf128_mul #(
      .Pipelined(1'b0),
      .NumStages(NumStages),
      .side_t   (side3_t)
    ) u_mul3 (
      .clk_i      (clk_i),
      .rst_ni     (rst_ni),
      .in_valid_i (launch),
      .in_ready_o (ready3),
      .in_x_i     (b_h2_q),
      .in_y_i     (b_h_q),
      .in_side_i  (side3_in),
      .out_valid_o(done3),
      .out_z_o    (z3),
      .out_side_o (side3_out)
    );

    onerma_gf128_mul #(
      .Pipelined(1'b0),
      .NumStages(NumStages),
      .side_t   (logic [127:0])
    ) u_mul5 (
      .clk_i      (clk_i),
      .rst_ni     (rst_ni),
      .in_valid_i (launch),
      .in_ready_o (ready5),
      .in_x_i     (b_h4_q),
      .in_y_i     (b_h_q),
      .in_side_i  (b_h4_q),
      .out_valid_o(done5),
      .out_z_o    (z5),
      .out_side_o (h4_out)
    );

    logic unused_done5;
    assign unused_done5 = done5;
  end else begin : g_bad_lanes
    $error("onerma_ghash_powers: Lanes must be 1 or 5");
  end

endmodule

`default_nettype wire
