`default_nettype none

/// GHASH (NIST SP 800-38D) at one block per cycle despite the multiply's loop dependency.
///
/// Pipelined: the multiplier (onerma_gf128_mul) takes a product every cycle and returns it
/// Lanes = onerma_gf128_pkg::PipeLatency cycles later (operand register, partial products, sum,
/// reduction), so the blocks are spread over Lanes independent accumulators (block j of the
/// global block stream goes to lane j mod Lanes) and each lane multiplies by an aggregated power
/// of H. A message of n blocks X_0..X_{n-1} needs
///   S = sum_i X_i * H^(n-i).
/// Block i is absorbed as acc = (acc + X_i) * H^m with m = min(n - i, Lanes): the lane's later
/// blocks each add a factor H^Lanes and the lane's last block (one of the message's last Lanes
/// blocks, the "final" ones) adds H^(n - last), which gives exactly H^(n-i) in total. The final
/// products are not written back to their lane (the lane restarts at zero for the next message)
/// but XORed into the message's S. Because the lane counter runs on across messages, the
/// previous block of any lane is a final block of an earlier message, so messages follow each
/// other without a gap.
/// Iterative (Pipelined = 0): the iterative multiplier (NumStages digits, II NumStages + 3), one
/// lane, m is always 1.
///
/// Inputs, all valid/ready:
/// - blk: one 128-bit block with pow = m - 1, final (n - i <= Lanes) and last (i = n - 1); the
///   producer (the GCM engine's data stage) knows n and supplies these.
/// - pow: per message, the table H^1..H^Lanes (bits [128*k +: 128] = H^(k+1)); it must be the
///   current message's table while that message's blocks are taken; it is popped with the last
///   block.
/// - s: per message, S = GHASH_H(blocks), in message order.
module onerma_ghash #(
  parameter bit          Pipelined = 1'b1,
  /// Iterative only: digits of the multiplier (divides 16).
  parameter int unsigned NumStages = 4,
  /// Copies of the multiplier's operand registers (fan-out replication, onerma_gf128_clmul).
  parameter int unsigned Slices    = 4,
  // Derived, do not override.
  parameter int unsigned Lanes     = Pipelined ? onerma_gf128_pkg::PipeLatency : 1,
  parameter int unsigned PowW      = (Lanes > 1) ? $clog2(Lanes) : 1
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,

  input  logic                   blk_valid_i,
  output logic                   blk_ready_o,
  input  logic [127:0]           blk_data_i,
  input  logic [PowW-1:0]        blk_pow_i,
  input  logic                   blk_final_i,
  input  logic                   blk_last_i,

  input  logic                   pow_valid_i,
  output logic                   pow_ready_o,
  input  logic [Lanes*128-1:0]   pow_i,

  output logic                   s_valid_o,
  input  logic                   s_ready_i,
  output logic [127:0]           s_o
);

  localparam int unsigned LaneW  = (Lanes > 1) ? $clog2(Lanes) : 1;
  // S results that can be in flight: one per block in the operand register or the multiplier at
  // most.
  localparam int unsigned SDepth = 2;
  localparam int unsigned CredW  = $clog2(SDepth + Lanes + 3);

  typedef struct packed {
    logic [LaneW-1:0] lane;
    logic             final_blk;
    logic             last;
  } side_t;

  logic [LaneW-1:0]   lane_q;
  logic [Lanes-1:0]   live_q;
  logic [127:0]       acc_q [Lanes];
  logic               s_live_q;
  logic [127:0]       s_acc_q;
  logic [CredW-1:0]   lasts_in_flight_q;

  logic               mul_in_valid, mul_in_ready, mul_out_valid;
  logic [127:0]       mul_out_z, pow_sel;
  // The lane's feedback is fwd_term ^ acc_term: the product leaving the multiplier now, or the
  // stored accumulator, each zero unless chosen.
  logic [127:0]       fwd_term, acc_term;
  side_t              mul_in_side, mul_out_side;

  logic               s_push, s_push_ready;
  logic [127:0]       s_push_data;
  logic [$clog2(SDepth+1)-1:0] s_count;
  logic               credit_ok, accept;

  // A last block may enter only if its S is sure to find room in the output FIFO, since the
  // multiplier cannot be stalled.
  assign credit_ok   = (CredW'(s_count) + lasts_in_flight_q) < CredW'(SDepth);
  assign accept      = blk_valid_i && blk_ready_o;
  assign pow_ready_o = accept && blk_last_i;

  // The lane counter and the live flags of the next cycle (their registers load these).
  logic [LaneW-1:0] lane_next;
  logic [Lanes-1:0] live_next;

  assign lane_next = !accept ? lane_q
                   : ((lane_q == LaneW'(Lanes - 1)) ? '0 : lane_q + LaneW'(1));

  always_comb begin
    live_next = live_q;
    if (mul_out_valid) begin
      live_next[mul_out_side.lane] = !mul_out_side.final_blk;
    end
  end

  // The lane's previous product may come out of the multiplier in this very cycle: forward it
  // (zero if it was a final product: the lane starts a new message).
  if (Pipelined) begin : g_fwd_pipe
    // With a fixed latency of Lanes cycles, the product leaving in cycle t is the one of this
    // lane exactly when a block was accepted in each of the Lanes cycles before t (the lane
    // counter then came round once). So the choice is a register, computed a cycle ahead from the
    // accept history, not a lane compare in front of the operand register (that compare and its
    // 128-bit mux were the GHASH critical path). hist_*_q[i]: accepted (and final) i + 1 cycles
    // ago.
    logic [Lanes-2:0] hist_acc_q, hist_fin_q;
    // fwd_z_q: forward the product leaving now (it is this lane's and not final); use_acc_q:
    // no forwarding and the lane holds a stored accumulator.
    logic             fwd_z_q, use_acc_q;
    // use_acc_q is computed from lane_next and live_next (the next cycle's lane_q and live_q),
    // so that "read the stored accumulator" is a register too (as a live_q[lane_q] lookup it
    // fanned out from a 5:1 mux).
    if (Lanes < 3) begin : g_bad_lanes
      $error("onerma_ghash: the accept history needs at least 3 lanes");
    end

    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        hist_acc_q <= '0;
        hist_fin_q <= '0;
        fwd_z_q    <= 1'b0;
        use_acc_q  <= 1'b0;
      end else begin
        hist_acc_q <= {hist_acc_q[Lanes-3:0], accept};
        hist_fin_q <= {hist_fin_q[Lanes-3:0], accept && blk_final_i};
        fwd_z_q    <= accept && (&hist_acc_q) && !hist_fin_q[Lanes-2];
        use_acc_q  <= !(accept && (&hist_acc_q)) && live_next[lane_next];
      end
    end

    // The stored accumulators are read in Slices slices, each addressed by its own copy of the
    // lane counter (loaded with lane_next, so equal to lane_q): one counter addressing all 128
    // bits of distributed RAM was a 5.3 ns net on the critical path.
    localparam int unsigned SliceW = 128 / Slices;
    logic [LaneW-1:0] lane_copy [Slices];
    logic [127:0]     acc_rd;

    for (genvar c = 0; c < Slices; c++) begin : g_rd
      onerma_dup_reg #(
        .Width(LaneW)
      ) u_lane (
        .clk_i,
        .rst_ni,
        .d_i(lane_next),
        .q_o(lane_copy[c])
      );
      assign acc_rd[SliceW*c +: SliceW] = acc_q[lane_copy[c]][SliceW*c +: SliceW];
    end

    assign fwd_term = fwd_z_q ? mul_out_z : '0;
    assign acc_term = use_acc_q ? acc_rd : '0;
  end else begin : g_fwd_iter
    logic fwd;
    assign fwd      = mul_out_valid && (mul_out_side.lane == lane_q);
    assign fwd_term = (fwd && !mul_out_side.final_blk) ? mul_out_z : '0;
    assign acc_term = (!fwd && live_q[lane_q]) ? acc_q[lane_q] : '0;
  end

  if (Lanes > 1) begin : g_pow_mux
    assign pow_sel = pow_i[128*blk_pow_i +: 128];
  end else begin : g_pow_one
    assign pow_sel = pow_i[127:0];
    /* verilator lint_off UNUSEDSIGNAL */
    logic unused_pow;
    /* verilator lint_on UNUSEDSIGNAL */
    assign unused_pow = blk_pow_i[0];
  end

  side_t        in_side;
  logic [127:0]        mul_in_x;
  // y = block ^ fwd_term ^ acc_term, handed over as three terms: the pipelined multiplier
  // registers each on its own and XORs them after that register, so the block, the forwarded
  // product and the stored accumulator need not meet in front of it (in context that path had a
  // 9.2 ns net and limited the engine to 90.8 MHz).
  logic [2:0][127:0]   mul_in_y;

  assign mul_in_y = {blk_data_i, fwd_term, acc_term};

  assign in_side = '{lane: lane_q, final_blk: blk_final_i, last: blk_last_i};

  if (Pipelined) begin : g_op_pipe
    // The multiplier registers the operands itself: the product of a block accepted in cycle c
    // leaves it in cycle c + PipeLatency = c + Lanes, exactly when the lane's next block can
    // arrive, so the forwarding above still sees it. It always takes (in_ready_o is 1).
    assign blk_ready_o  = pow_valid_i && (!blk_last_i || credit_ok);
    assign mul_in_valid = accept;
    assign mul_in_x     = pow_sel;
    assign mul_in_side  = in_side;

    /* verilator lint_off UNUSEDSIGNAL */
    logic unused_mul_ready;
    /* verilator lint_on UNUSEDSIGNAL */
    assign unused_mul_ready = mul_in_ready;
  end else begin : g_op_direct
    // Iterative: one lane, the multiplier takes a block when the previous product leaves.
    assign blk_ready_o  = pow_valid_i && mul_in_ready && (!blk_last_i || credit_ok);
    assign mul_in_valid = accept;
    assign mul_in_x     = pow_sel;
    assign mul_in_side  = in_side;
  end

  onerma_gf128_mul #(
    .Pipelined(Pipelined),
    .NumStages(NumStages),
    .Slices   (Slices),
    .YTerms   (3),
    .side_t   (side_t)
  ) u_mul (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .in_valid_i (mul_in_valid),
    .in_ready_o (mul_in_ready),
    .in_x_i     (mul_in_x),
    .in_y_i     (mul_in_y),
    .in_side_i  (mul_in_side),
    .out_valid_o(mul_out_valid),
    .out_z_o    (mul_out_z),
    .out_side_o (mul_out_side)
  );

  assign s_push      = mul_out_valid && mul_out_side.final_blk && mul_out_side.last;
  assign s_push_data = (s_live_q ? s_acc_q : '0) ^ mul_out_z;

  onerma_fifo #(
    .Width(128),
    .Depth(SDepth)
  ) u_s_fifo (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .flush_i    (1'b0),
    .in_valid_i (s_push),
    .in_ready_o (s_push_ready),
    .in_data_i  (s_push_data),
    .out_valid_o(s_valid_o),
    .out_ready_i(s_ready_i),
    .out_data_o (s_o),
    .count_o    (s_count)
  );

  // The credit check makes a push into a full FIFO impossible; nothing to do with its ready.
  /* verilator lint_off UNUSEDSIGNAL */
  logic unused_s_ready;
  /* verilator lint_on UNUSEDSIGNAL */
  assign unused_s_ready = s_push_ready;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      lane_q            <= '0;
      live_q            <= '0;
      s_live_q          <= 1'b0;
      lasts_in_flight_q <= '0;
    end else begin
      lane_q <= lane_next;
      live_q <= live_next;
      if (mul_out_valid && mul_out_side.final_blk) begin
        s_live_q <= !mul_out_side.last;
      end
      lasts_in_flight_q <= lasts_in_flight_q + CredW'(accept && blk_last_i) - CredW'(s_push);
    end
  end

  always_ff @(posedge clk_i) begin
    if (mul_out_valid && !mul_out_side.final_blk) begin
      acc_q[mul_out_side.lane] <= mul_out_z;
    end
    if (mul_out_valid && mul_out_side.final_blk && !mul_out_side.last) begin
      s_acc_q <= s_push_data;
    end
  end

endmodule

`default_nettype wire
