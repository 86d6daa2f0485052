// A plain register (no reset, no enable) kept as its own hierarchy so that several instances
// fed by the same signal stay separate flops: fan-out replication. Synthesis merges identical
// flops within a module (yosys opt_merge), not across kept module instances.
//
// Why: a signal that drives hundreds of LUTs spread over a wide datapath is mostly routing delay
// on an FPGA. In the GF(2^128) multiplier each coefficient of the multiplier digit drives 128
// AND terms; one flop per 32-bit slice of the product cut that net from 9.4 ns of routing
// (docs/crypto.md).
//
// Reset = 1 gives the copies the active-low asynchronous reset to '0 (copies of valid flags,
// which must agree with their master from the first cycle).
`default_nettype none

(* keep_hierarchy *)
module onerma_dup_reg #(
  parameter int unsigned Width = 1,
  parameter bit          Reset = 1'b0
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic [Width-1:0] d_i,
  output logic [Width-1:0] q_o
);

  if (Reset) begin : g_reset
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) q_o <= '0;
      else         q_o <= d_i;
    end
  end else begin : g_plain
    always_ff @(posedge clk_i) begin
      q_o <= d_i;
    end
    // Without Reset the reset input is unused.
    logic unused_rst;
    assign unused_rst = rst_ni;
  end

endmodule

`default_nettype wire
