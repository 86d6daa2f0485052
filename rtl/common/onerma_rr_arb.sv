`default_nettype none

/// Round-robin stream arbiter: `N` valid/ready input streams onto one output stream.
///
/// - The winner is the first valid input at or after the pointer, which moves to winner + 1 after
///   every transfer, so an input that keeps `valid` high sees at most `N-1` other transfers
///   decided after it raised `valid`.
/// - Once `out_valid_o` is high the grant is frozen until the transfer (AXI-Stream stability of
///   `out_valid_o`, `out_data_o` and `out_idx_o`), even if a higher-priority input turns valid.
/// - `in_ready_o[i] = out_ready_i && granted(i)`: ready depends on valid, never the reverse.
module onerma_rr_arb #(
  /// Number of inputs, >= 1.
  parameter int unsigned N = 4,
  /// Width of the default payload type. Ignored when `T` is overridden.
  parameter int unsigned Width = 8,
  /// Payload type.
  parameter type T = logic [Width-1:0],
  // Derived, do not override.
  parameter int unsigned IdxWidth = (N > 1) ? $clog2(N) : 1
) (
  input  logic                clk_i,
  input  logic                rst_ni,
  input  logic [N-1:0]        in_valid_i,
  output logic [N-1:0]        in_ready_o,
  input  T [N-1:0]            in_data_i,
  output logic                out_valid_o,
  input  logic                out_ready_i,
  output T                    out_data_o,
  /// Index of the input that `out_data_o` comes from.
  output logic [IdxWidth-1:0] out_idx_o
);

  localparam logic [IdxWidth-1:0] LastIdx = IdxWidth'(N - 1);

  logic [IdxWidth-1:0] ptr_q, ptr_d;
  logic                lock_q;
  logic [IdxWidth-1:0] lock_idx_q;
  logic [IdxWidth-1:0] pick_idx, idx;
  logic                pick_valid;
  logic                xfer;
  logic [$bits(T)-1:0] data_sel;

  onerma_rr_pick #(
    .N(N)
  ) u_pick (
    .req_i  (in_valid_i),
    .ptr_i  (ptr_q),
    .valid_o(pick_valid),
    .idx_o  (pick_idx)
  );

  assign idx = lock_q ? lock_idx_q : pick_idx;
  // Under the input stream rule the locked input is still valid; looking at its own valid keeps
  // "grant only a valid requester" true even if an upstream block breaks that rule.
  assign out_valid_o = lock_q ? in_valid_i[lock_idx_q] : pick_valid;
  // AND-OR mux on a decoded select: `in_data_i[idx]` on a packed array of T elaborates to a
  // barrel shifter by idx*$bits(T) (2015 LUT4 instead of ~300 for N=8, 64 bits on ECP5).
  always_comb begin
    data_sel = '0;
    for (int unsigned i = 0; i < N; i++) begin
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

  assign ptr_d = (idx == LastIdx) ? '0 : idx + 1'b1;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ptr_q      <= '0;
      lock_q     <= 1'b0;
      lock_idx_q <= '0;
    end else begin
      lock_q     <= out_valid_o && !out_ready_i;
      lock_idx_q <= idx;
      if (xfer) begin
        ptr_q <= ptr_d;
      end
    end
  end

`ifndef SYNTHESIS
  // The stream rules on both sides in every simulation (Verilator `--assert`), so a test of any
  // top that holds this block also checks its streams. Yosys (synthesis, and formal, where the
  // bound properties instantiate the same checker) never sees these instances.
  onerma_arb_check #(
    .N       (N),
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
