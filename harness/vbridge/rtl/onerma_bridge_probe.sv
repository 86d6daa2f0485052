// Bridge self-test top: exercises every port storage class of the Rust<->Verilator bridge
// (8/16/32/64-bit scalars, multi-word vectors) and gives the speed benchmark a known load.
`default_nettype none

module onerma_bridge_probe #(
  /// Width of the counter; >= 5 so `step_i` fits.
  parameter int unsigned CountW = 32
) (
  input  logic              clk_i,
  input  logic              rst_ni,
  /// Counter advances by `step_i` on every rising edge where `en_i` is high.
  input  logic              en_i,
  input  logic [4:0]        step_i,
  output logic [CountW-1:0] count_o,
  /// 128-bit register loaded from `data_i` when `load_i` (datapath: not reset).
  input  logic              load_i,
  input  logic [127:0]      data_i,
  output logic [127:0]      data_o,
  /// Combinational: `data_i ^ data_o`, so wide outputs are checked without a clock.
  output logic [127:0]      mix_o,
  /// Combinational 41-bit sum: a port stored as 64-bit with masking.
  input  logic [40:0]       add_i,
  output logic [40:0]       sum_o
);

  logic [CountW-1:0] count_q;
  logic [127:0]      data_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      count_q <= '0;
    end else if (en_i) begin
      count_q <= count_q + CountW'(step_i);
    end
  end

  always_ff @(posedge clk_i) begin
    if (load_i) begin
      data_q <= data_i;
    end
  end

  assign count_o = count_q;
  assign data_o  = data_q;
  assign mix_o   = data_i ^ data_q;
  assign sum_o   = add_i + 41'(count_q);

endmodule

`default_nettype wire
