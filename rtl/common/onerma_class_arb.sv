`default_nettype none

/// Class-of-service arbiter: picks which class head goes next.
///
/// - Strict priority, class 0 highest.
/// - Anti-starvation: each class counts the transfers that went to other classes while it was
///   valid ("passed over"). After `MaxStarve` such passes in a row the class is *starving*; while
///   any valid class is starving, only starving classes are granted, round-robin among them.
///   Round-robin (not priority) among starving classes is what bounds the wait: a valid class is
///   granted after at most `MaxStarve + NumClasses - 1` transfers to other classes.
///   `MaxStarve = 0` disables this and gives pure strict priority.
/// - Same output stream behaviour as `onerma_rr_arb`: once `out_valid_o` is high the grant is
///   frozen until the transfer.
module onerma_class_arb #(
  /// Number of classes, >= 1. Class 0 has the highest priority.
  parameter int unsigned NumClasses = 4,
  /// Passes after which a waiting class is forced through; 0 = pure strict priority.
  parameter int unsigned MaxStarve = 0,
  /// Width of the default payload type. Ignored when `T` is overridden.
  parameter int unsigned Width = 8,
  /// Payload type.
  parameter type T = logic [Width-1:0],
  // Derived, do not override.
  parameter int unsigned IdxWidth = (NumClasses > 1) ? $clog2(NumClasses) : 1
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  input  logic [NumClasses-1:0] in_valid_i,
  output logic [NumClasses-1:0] in_ready_o,
  input  T [NumClasses-1:0]     in_data_i,
  output logic                  out_valid_o,
  input  logic                  out_ready_i,
  output T                      out_data_o,
  /// Class that `out_data_o` comes from.
  output logic [IdxWidth-1:0]   out_idx_o
);

  localparam int unsigned StarveWidth = (MaxStarve > 0) ? $clog2(MaxStarve + 1) : 1;
  localparam logic [StarveWidth-1:0] Limit = StarveWidth'(MaxStarve);
  localparam logic [IdxWidth-1:0] LastIdx = IdxWidth'(NumClasses - 1);

  logic                                    lock_q;
  logic [IdxWidth-1:0]                     lock_idx_q;
  logic [IdxWidth-1:0]                     prio_idx, starve_idx, pick_idx, idx;
  logic                                    prio_valid, starve_valid;
  // Passes in a row per class; with MaxStarve = 0 these are constant 0 and synthesis drops them.
  logic [NumClasses-1:0][StarveWidth-1:0]  starve_q;
  logic [NumClasses-1:0]                   starve_req;
  // Round-robin pointer among starving classes.
  logic [IdxWidth-1:0]                     sptr_q;
  logic                                    xfer;
  logic [$bits(T)-1:0]                     data_sel;

  onerma_rr_pick #(
    .N(NumClasses)
  ) u_prio (
    .req_i  (in_valid_i),
    .ptr_i  ('0),
    .valid_o(prio_valid),
    .idx_o  (prio_idx)
  );

  onerma_rr_pick #(
    .N(NumClasses)
  ) u_starve (
    .req_i  (starve_req),
    .ptr_i  (sptr_q),
    .valid_o(starve_valid),
    .idx_o  (starve_idx)
  );

  for (genvar c = 0; c < NumClasses; c++) begin : g_req
    assign starve_req[c] = (MaxStarve > 0) && in_valid_i[c] && (starve_q[c] == Limit);
  end

  assign pick_idx    = starve_valid ? starve_idx : prio_idx;
  assign idx         = lock_q ? lock_idx_q : pick_idx;
  // See onerma_rr_arb: equal to prio_valid whenever the inputs follow the stream rule.
  assign out_valid_o = lock_q ? in_valid_i[lock_idx_q] : prio_valid;
  // AND-OR mux on a decoded select: `in_data_i[idx]` on a packed array of T elaborates to a
  // barrel shifter by idx*$bits(T) (2015 LUT4 instead of ~300 for N=8, 64 bits on ECP5).
  always_comb begin
    data_sel = '0;
    for (int unsigned i = 0; i < NumClasses; i++) begin
      data_sel |= in_data_i[i] & {$bits(T){idx == IdxWidth'(i)}};
    end
  end
  assign out_data_o = T'(data_sel);
  assign out_idx_o   = idx;
  assign xfer        = out_valid_o && out_ready_i;

  always_comb begin
    in_ready_o      = '0;
    in_ready_o[idx] = xfer;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      lock_q     <= 1'b0;
      lock_idx_q <= '0;
      sptr_q     <= '0;
    end else begin
      lock_q     <= out_valid_o && !out_ready_i;
      lock_idx_q <= idx;
      // Only transfers to a starving class move the pointer, so it rotates among them alone.
      if (xfer && starve_req[idx]) begin
        sptr_q <= (idx == LastIdx) ? '0 : idx + 1'b1;
      end
    end
  end

  for (genvar c = 0; c < NumClasses; c++) begin : g_starve
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        starve_q[c] <= '0;
      end else if (!in_valid_i[c] || (xfer && idx == IdxWidth'(c))) begin
        // A class that is idle or just served has not been passed over.
        starve_q[c] <= '0;
      end else if (xfer && starve_q[c] != Limit) begin
        starve_q[c] <= starve_q[c] + 1'b1;
      end
    end
  end

`ifndef SYNTHESIS
  // The stream rules on both sides in every simulation (Verilator `--assert`), so a test of any
  // top that holds this block also checks its streams. Yosys (synthesis, and formal, where the
  // bound properties instantiate the same checker) never sees these instances.
  onerma_arb_check #(
    .N       (NumClasses),
    .Width   ($bits(T)),
    .IdxWidth(IdxWidth),
    .InAssume(1'b0)
  ) u_check (
    .clk_i,
    .rst_ni,
    .in_valid_i,
    .in_ready_i (in_ready_o),
    .in_data_i,
    .out_valid_i(out_valid_o),
    .out_ready_i,
    .out_idx_i  (out_idx_o),
    .out_data_i (data_sel)
  );
`endif

endmodule

`default_nettype wire
