`default_nettype none

/// The stream rules around an N-to-1 arbiter: on every input, and on the output, whose
/// payload is the grant index with the data (the index must hold with the data). One
/// onerma_stream_check per stream; `InAssume` makes the input rules assumptions in a proof
/// (the inputs are the proof's), the output rule is always asserted.
module onerma_arb_check #(
  parameter int unsigned N        = 2,
  /// Payload width of one input, >= 1.
  parameter int unsigned Width    = 1,
  parameter int unsigned IdxWidth = 1,
  /// Formal only: 1 = the input rules are assumptions, 0 = assertions.
  parameter bit          InAssume = 1'b0
) (
  input logic                clk_i,
  input logic                rst_ni,
  input logic [N-1:0]        in_valid_i,
  input logic [N-1:0]        in_ready_i,
  input logic [N-1:0][Width-1:0] in_data_i,
  input logic                out_valid_i,
  input logic                out_ready_i,
  input logic [IdxWidth-1:0] out_idx_i,
  input logic [Width-1:0]    out_data_i
);

  for (genvar i = 0; i < N; i++) begin : g_in
    onerma_stream_check #(
      .Width (Width),
      .Assume(InAssume)
    ) u_in (
      .clk_i,
      .rst_ni,
      .valid_i(in_valid_i[i]),
      .ready_i(in_ready_i[i]),
      .data_i (in_data_i[i])
    );
  end

  onerma_stream_check #(
    .Width (IdxWidth + Width),
    .Assume(1'b0)
  ) u_out (
    .clk_i,
    .rst_ni,
    .valid_i(out_valid_i),
    .ready_i(out_ready_i),
    .data_i ({out_idx_i, out_data_i})
  );

endmodule

`default_nettype wire
