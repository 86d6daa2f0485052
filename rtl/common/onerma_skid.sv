`default_nettype none

/// Skid buffer (stream register with a spare slot).
///
/// Cuts every combinational path through the stream: `in_ready_o` and `out_valid_o` /
/// `out_data_o` are register outputs, and nothing on one side depends combinationally on the
/// other side. Two slots give full throughput: the spare (skid) slot catches the word that was
/// accepted in the cycle the output stalled, because the registered `in_ready_o` could not drop
/// in time.
module onerma_skid #(
  /// Width of the default payload type. Ignored when `T` is overridden.
  parameter int unsigned Width = 8,
  /// Payload type.
  parameter type T = logic [Width-1:0]
) (
  input  logic clk_i,
  input  logic rst_ni,
  input  logic in_valid_i,
  output logic in_ready_o,
  input  T     in_data_i,
  output logic out_valid_o,
  input  logic out_ready_i,
  output T     out_data_o
);

  logic out_valid_q, out_valid_d;
  T     out_data_q, out_data_d;
  logic skid_valid_q, skid_valid_d;
  T     skid_data_q, skid_data_d;
  logic push, out_free;

  // Ready is the registered "skid slot empty": the one word that can arrive after the output
  // stalls always has a place to go.
  assign in_ready_o  = !skid_valid_q;
  assign out_valid_o = out_valid_q;
  assign out_data_o  = out_data_q;

  assign push     = in_valid_i && in_ready_o;
  assign out_free = !out_valid_q || out_ready_i;

  always_comb begin
    out_valid_d  = out_valid_q;
    out_data_d   = out_data_q;
    skid_valid_d = skid_valid_q;
    skid_data_d  = skid_data_q;
    // The data registers load whenever their content is free, whether or not a transfer comes:
    // an invalid register's content is never looked at. So the skid register's enable is a flop
    // (!skid_valid_q) and the output register's does not depend on in_valid_i. Loading them only
    // on a push made the GCM engine's descriptor skid (330 bits) the engine's critical path in
    // context (valid -> push decode -> a 6.9 ns clock-enable net, 92.5 MHz).
    if (!skid_valid_q) begin
      skid_data_d = in_data_i;
    end
    if (out_free) begin
      // The skid slot holds the older word, so it goes first.
      out_data_d = skid_valid_q ? skid_data_q : in_data_i;
      if (skid_valid_q) begin
        out_valid_d  = 1'b1;
        skid_valid_d = 1'b0;
      end else begin
        out_valid_d = push;
      end
    end else if (push) begin
      skid_valid_d = 1'b1;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      out_valid_q  <= 1'b0;
      skid_valid_q <= 1'b0;
    end else begin
      out_valid_q  <= out_valid_d;
      skid_valid_q <= skid_valid_d;
    end
  end

  always_ff @(posedge clk_i) begin
    out_data_q  <= out_data_d;
    skid_data_q <= skid_data_d;
  end

endmodule

`default_nettype wire
