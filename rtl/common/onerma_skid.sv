`default_nettype none

/// Skid buffer (stream register with a spare slot).
///
/// Cuts every combinational path through the stream: `in_ready_o` and `out_valid_o` /
/// `out_data_o` are register outputs, and nothing on one side depends combinationally on the
/// other side. Two slots give full throughput: the spare (skid) slot catches the word that was
/// accepted in the cycle the output stalled, because the registered `in_ready_o` could not drop
/// in time.
///
/// Slices > 1 splits the data into that many contiguous bit slices, each steered by its own
/// copy of the two valid flops (onerma_dup_reg, reset like their masters). A wide skid's two
/// valid flops otherwise drive every data bit's register enable and mux: in the GCM engine's
/// 330-bit descriptor skid that one net ran 9.5 ns across the chip to loads that sit next to
/// their consumers (docs/crypto.md).
module onerma_skid #(
  /// Width of the default payload type. Ignored when `T` is overridden.
  parameter int unsigned Width  = 8,
  /// Payload type.
  parameter type T = logic [Width-1:0],
  /// Copies of the control flops, each steering one slice of the data (fan-out replication).
  parameter int unsigned Slices = 1
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

  localparam int unsigned W      = $bits(T);
  localparam int unsigned SliceW = (W + Slices - 1) / Slices;

  logic              out_valid_q, out_valid_d;
  logic              skid_valid_q, skid_valid_d;
  T                  out_data_q;
  logic              push, out_free;
  // Per slice: the copies of out_valid_q and skid_valid_q that steer its data registers.
  logic [Slices-1:0] out_valid_c, skid_valid_c;
  logic [W-1:0]      in_bits, out_bits_q, skid_bits_q;

  if (Slices < 1 || Slices > W) begin : g_bad_param
    $error("onerma_skid: Slices must be in 1..$bits(T)");
  end

  // Ready is the registered "skid slot empty": the one word that can arrive after the output
  // stalls always has a place to go.
  assign in_ready_o  = !skid_valid_q;
  assign out_valid_o = out_valid_q;
  assign out_data_o  = out_data_q;

  assign push     = in_valid_i && in_ready_o;
  assign out_free = !out_valid_q || out_ready_i;

  always_comb begin
    out_valid_d  = out_valid_q;
    skid_valid_d = skid_valid_q;
    if (out_free) begin
      // The skid slot holds the older word, so it goes first.
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

  if (Slices == 1) begin : g_one
    assign out_valid_c  = out_valid_q;
    assign skid_valid_c = skid_valid_q;
  end else begin : g_copies
    for (genvar s = 0; s < Slices; s++) begin : g_copy
      onerma_dup_reg #(
        .Width(2),
        .Reset(1'b1)
      ) u_valid (
        .clk_i,
        .rst_ni,
        .d_i({out_valid_d, skid_valid_d}),
        .q_o({out_valid_c[s], skid_valid_c[s]})
      );
    end
  end

  assign in_bits     = W'(in_data_i);
  assign out_data_q  = T'(out_bits_q);

  // The data registers load whenever their content is free, whether or not a transfer comes:
  // an invalid register's content is never looked at. So the skid register's enable is a flop
  // (!skid_valid_q) and the output register's does not depend on in_valid_i. Loading them only
  // on a push made the GCM engine's descriptor skid (330 bits) the engine's critical path in
  // context (valid -> push decode -> a 6.9 ns clock-enable net, 92.5 MHz).
  // One block per slice, whole slices at a time: the same registers and enables as a loop over
  // the bits, but a simulator then updates a slice in word operations instead of bit by bit.
  for (genvar s = 0; s < Slices; s++) begin : g_data
    localparam int unsigned Lo = s * SliceW;
    localparam int unsigned Hi = (Lo + SliceW < W) ? Lo + SliceW : W;
    if (Lo < W) begin : g_bits
      always_ff @(posedge clk_i) begin
        if (!skid_valid_c[s]) begin
          skid_bits_q[Hi-1:Lo] <= in_bits[Hi-1:Lo];
        end
        if (!out_valid_c[s] || out_ready_i) begin
          out_bits_q[Hi-1:Lo] <= skid_valid_c[s] ? skid_bits_q[Hi-1:Lo] : in_bits[Hi-1:Lo];
        end
      end
    end else begin : g_none
      // Slices does not divide W evenly enough to leave this copy any bits.
      logic unused_copy;
      assign unused_copy = out_valid_c[s] ^ skid_valid_c[s];
    end
  end

`ifndef SYNTHESIS
  // The stream rules on both sides in every simulation (Verilator `--assert`), so a test of any
  // top that holds this block also checks its streams. Yosys (synthesis, and formal, where the
  // bound properties instantiate the same checker) never sees these instances.
  onerma_stream_check #(
    .Width(W)
  ) u_in_check (
    .clk_i,
    .rst_ni,
    .valid_i(in_valid_i),
    .ready_i(in_ready_o),
    .data_i (in_bits)
  );

  onerma_stream_check #(
    .Width(W)
  ) u_out_check (
    .clk_i,
    .rst_ni,
    .valid_i(out_valid_o),
    .ready_i(out_ready_i),
    .data_i (W'(out_data_o))
  );
`endif

endmodule

`default_nettype wire
