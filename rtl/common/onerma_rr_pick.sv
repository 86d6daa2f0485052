`default_nettype none

/// Rotating-priority picker (combinational): grants the first requester at or after `ptr_i`,
/// wrapping around. With `ptr_i` tied to 0 it is a plain fixed-priority encoder (index 0 first).
/// Shared by `onerma_rr_arb` and `onerma_class_arb` so both use one search.
module onerma_rr_pick #(
  /// Number of requesters, >= 1.
  parameter int unsigned N = 4,
  // Derived, do not override.
  parameter int unsigned IdxWidth = (N > 1) ? $clog2(N) : 1
) (
  input  logic [N-1:0]        req_i,
  /// Highest-priority index this cycle; values >= N are treated as 0.
  input  logic [IdxWidth-1:0] ptr_i,
  /// At least one request.
  output logic                valid_o,
  output logic [IdxWidth-1:0] idx_o
);

  localparam int unsigned Extent = 1 << IdxWidth;

  logic [IdxWidth-1:0] start;

  assign start   = (32'(ptr_i) < N) ? ptr_i : '0;
  assign valid_o = |req_i;

  // Unrolled search: N steps, each a mux. For the NIC's small N (<= 16) this is cheaper and
  // faster to elaborate than the masked double priority encoder.
  always_comb begin
    logic                found;
    logic [IdxWidth-1:0] cand;
    found = 1'b0;
    idx_o = '0;
    for (int unsigned off = 0; off < N; off++) begin
      // Wrap explicitly so non-power-of-two N works; `start < N` keeps the sum below 2N.
      if (32'(start) + off >= N) begin
        cand = IdxWidth'(32'(start) + off - N);
      end else begin
        cand = IdxWidth'(32'(start) + off);
      end
      if (!found && req_i[cand]) begin
        found       = 1'b1;
        idx_o       = cand;
      end
    end
  end

  // Extent only documents that IdxWidth can address every requester.
  if (Extent < N) begin : g_bad_width
    $error("onerma_rr_pick: IdxWidth too small for N");
  end

endmodule

`default_nettype wire
