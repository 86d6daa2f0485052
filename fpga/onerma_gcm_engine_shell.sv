`default_nettype none

/// Measurement shell for place and route of onerma_gcm_engine in context (real pins, clock on a
/// global network), not part of the NIC.
///
/// Data formats: all engine inputs come from one serial shift register (in_t: each stream's
/// valid and payload, the ready of each output stream); all registered engine outputs (out_t)
/// fold by XOR into 8 pins.
///
/// Why: the engine has ~800 port bits, more than any ECP5 package has pins, and out-of-context
/// place and route (nextpnr --out-of-context) leaves the clock on general routing: with ~15,000
/// flops and 100 EBRs on it, router2 did not converge on the pipelined engine. Every input is a
/// flop (as behind a skid buffer in the NIC) and every output ends at one, so no engine logic
/// can be optimised away and every engine port path starts or ends at a flop. The shell's own
/// logic (shift register, fold tree) is one LUT level deep and does not limit Fmax.
module onerma_gcm_engine_shell #(
  parameter bit          Pipelined = 1'b1,
  parameter bit          SboxRam   = 1'b1,
  parameter int unsigned NumStages = 4
) (
  input  logic       clk_i,
  input  logic       rst_ni,
  input  logic       sin_i,
  output logic [7:0] fold_o
);

  localparam int unsigned LenW = 16;

  // The engine's payload types for LenW = 16 and an 8-bit meta, passed to it.
  typedef logic [7:0] meta_t;

  typedef struct packed {
    logic [127:0]    key;
    logic [95:0]     iv;
    logic [LenW-1:0] aad_len;
    logic [LenW-1:0] pt_len;
    logic            decrypt;
    logic [127:0]    tag;
    meta_t           meta;
  } desc_t;

  typedef struct packed {
    logic [127:0] data;
    logic         last;
    meta_t        meta;
  } dout_t;

  typedef struct packed {
    logic [127:0] tag;
    logic         auth_ok;
    meta_t        meta;
  } res_t;

  typedef struct packed {
    logic                 desc_valid;
    desc_t                desc;
    logic                 din_valid;
    onerma_gcm_pkg::din_t din;
    logic                 dout_ready;
    logic                 res_ready;
  } in_t;

  typedef struct packed {
    logic  desc_ready;
    logic  din_ready;
    logic  dout_valid;
    dout_t dout;
    logic  res_valid;
    res_t  res;
  } out_t;

  localparam int unsigned InW  = $bits(in_t);
  localparam int unsigned OutW = $bits(out_t);
  // Fold tree: OutW -> ceil(OutW / 4) -> ... -> at most 8 bits, one register level per step.
  localparam int unsigned F1 = (OutW + 3) / 4;
  localparam int unsigned F2 = (F1 + 3) / 4;
  localparam int unsigned F3 = (F2 + 3) / 4;

  logic [InW-1:0] sh_q;
  in_t            in;
  out_t           out_d, out_q;
  logic [1:0]     rst_sync_q;
  logic           rst_n;

  // Reset synchroniser: asserted asynchronously, released on a clock edge, so the engine's reset
  // net starts at a flop rather than at the pin.
  always_ff @(posedge clk_i or negedge rst_ni) begin : rst_sync
    if (!rst_ni) begin
      rst_sync_q <= 2'b00;
    end else begin
      rst_sync_q <= {rst_sync_q[0], 1'b1};
    end
  end
  assign rst_n = rst_sync_q[1];

  always_ff @(posedge clk_i) begin : shift_in
    sh_q <= {sh_q[InW-2:0], sin_i};
  end
  assign in = sh_q;

  onerma_gcm_engine #(
    .Pipelined(Pipelined),
    .SboxRam  (SboxRam),
    .NumStages(NumStages),
    .LenW     (LenW),
    .meta_t   (meta_t),
    .desc_t   (desc_t),
    .dout_t   (dout_t),
    .res_t    (res_t)
  ) u_engine (
    .clk_i       (clk_i),
    .rst_ni      (rst_n),
    .desc_valid_i(in.desc_valid),
    .desc_ready_o(out_d.desc_ready),
    .desc_data_i (in.desc),
    .din_valid_i (in.din_valid),
    .din_ready_o (out_d.din_ready),
    .din_data_i  (in.din),
    .dout_valid_o(out_d.dout_valid),
    .dout_ready_i(in.dout_ready),
    .dout_data_o (out_d.dout),
    .res_valid_o (out_d.res_valid),
    .res_ready_i (in.res_ready),
    .res_data_o  (out_d.res)
  );

  logic [F1-1:0]   f1_q;
  logic [F2-1:0]   f2_q;
  logic [F3-1:0]   f3_q;
  logic [4*F1-1:0] o_pad;
  logic [4*F2-1:0] f1_pad;
  logic [4*F3-1:0] f2_pad;

  assign o_pad  = (4*F1)'(out_q);
  assign f1_pad = (4*F2)'(f1_q);
  assign f2_pad = (4*F3)'(f2_q);

  always_ff @(posedge clk_i) begin : fold
    out_q <= out_d;
    for (int i = 0; i < F1; i++) begin
      f1_q[i] <= ^o_pad[4*i +: 4];
    end
    for (int i = 0; i < F2; i++) begin
      f2_q[i] <= ^f1_pad[4*i +: 4];
    end
    for (int i = 0; i < F3; i++) begin
      f3_q[i] <= ^f2_pad[4*i +: 4];
    end
  end

  if (F3 > 8) begin : g_bad_fold
    $error("onerma_gcm_engine_shell: fold tree ends wider than 8 pins");
  end
  assign fold_o = 8'(f3_q);

endmodule

`default_nettype wire
