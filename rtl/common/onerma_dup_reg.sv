// A plain register (no reset, no enable) kept as its own hierarchy so that several instances
// fed by the same signal stay separate flops: fan-out replication. Synthesis merges identical
// flops within a module (yosys opt_merge), not across kept module instances.
//
// Why: a signal that drives hundreds of LUTs spread over a wide datapath is mostly routing delay
// on an FPGA. In the GF(2^128) multiplier each coefficient of the multiplier digit drives 128
// AND terms; one flop per 32-bit slice of the product cut that net from 9.4 ns of routing
// (docs/crypto.md).
`default_nettype none

(* keep_hierarchy *)
module onerma_dup_reg #(
  parameter int unsigned Width = 1
) (
  input  logic             clk_i,
  input  logic [Width-1:0] d_i,
  output logic [Width-1:0] q_o
);

  always_ff @(posedge clk_i) begin
    q_o <= d_i;
  end

endmodule

`default_nettype wire
