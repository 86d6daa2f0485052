`default_nettype none

/// Test top: onerma_open with a real onerma_gcm_pool behind it (Verilated models only). Not part
/// of the NIC, whose top puts several clients in front of one pool through onerma_gcm_mux. The
/// pool's dout and res are the outputs. Lanes = 1 or DataWidth/128: the pool's and the opener's
/// word (Lanes 128-bit beats, beat 0 in the top bits); the dout word has one last and meta.
module onerma_open_sim #(
  parameter int unsigned DataWidth  = 512,
  parameter int unsigned StageBeats = 128,
  parameter int unsigned NumEngines = 2,
  parameter bit          Pipelined  = 1'b1,
  parameter int unsigned InDepth    = 2,
  parameter int unsigned Lanes      = 1,
  /// Lanes > 1: each lane's word buffer.
  parameter int unsigned WordDepth  = 34
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,

  input  logic                 job_valid_i,
  output logic                 job_ready_o,
  input  onerma_pkg::hdr_t     job_hdr_i,
  input  logic [127:0]         job_tag_i,
  input  logic [127:0]         job_key_i,
  input  logic [7:0]           job_meta_i,

  input  logic                 pay_valid_i,
  output logic                 pay_ready_o,
  input  logic [DataWidth-1:0] pay_data_i,
  input  logic                 pay_last_i,

  output logic                 dout_valid_o,
  input  logic                 dout_ready_i,
  output logic [Lanes*128-1:0] dout_data_o,
  output logic                 dout_last_o,
  output logic [7:0]           dout_meta_o,
  output logic                 res_valid_o,
  input  logic                 res_ready_i,
  output logic                 res_auth_ok_o,
  output logic [7:0]           res_meta_o,

  /// Observation: the opener's handshake signals with the pool.
  output logic [3:0]           obs_o
);

  localparam int unsigned LenW = 16;
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
    logic [Lanes*128-1:0] data;
  } wdin_t;
  typedef struct packed {
    logic [Lanes*128-1:0] data;
    logic                 last;
    meta_t                meta;
  } wdout_t;
  typedef struct packed {
    logic [127:0] tag;
    logic         auth_ok;
    meta_t        meta;
  } res_t;

  logic                 desc_valid, desc_ready, din_valid, din_ready;
  desc_t                desc;
  wdin_t                din;
  wdout_t               dout;
  res_t                 res;

  onerma_open #(
    .DataWidth (DataWidth),
    .MetaWidth (8),
    .StageBeats(StageBeats),
    .LenW      (LenW),
    .Lanes     (Lanes),
    .desc_t    (desc_t),
    .wdin_t    (wdin_t)
  ) u_open (
    .clk_i,
    .rst_ni,
    .job_valid_i,
    .job_ready_o,
    .job_hdr_i,
    .job_tag_i,
    .job_key_i,
    .job_meta_i,
    .pay_valid_i,
    .pay_ready_o,
    .pay_data_i,
    .pay_last_i,
    .desc_valid_o(desc_valid),
    .desc_ready_i(desc_ready),
    .desc_data_o (desc),
    .din_valid_o (din_valid),
    .din_ready_i (din_ready),
    .din_data_o  (din)
  );

  onerma_gcm_pool #(
    .NumEngines(NumEngines),
    .Pipelined (Pipelined),
    .LenW      (LenW),
    .InDepth   (InDepth),
    .Lanes     (Lanes),
    .WordDepth (WordDepth),
    .meta_t    (meta_t),
    .desc_t    (desc_t),
    .dout_t    (dout_t),
    .res_t     (res_t),
    .wdin_t    (wdin_t),
    .wdout_t   (wdout_t)
  ) u_pool (
    .clk_i,
    .rst_ni,
    .desc_valid_i(desc_valid),
    .desc_ready_o(desc_ready),
    .desc_data_i (desc),
    .din_valid_i (din_valid),
    .din_ready_o (din_ready),
    .din_data_i  (din),
    .dout_valid_o(dout_valid_o),
    .dout_ready_i(dout_ready_i),
    .dout_data_o (dout),
    .res_valid_o (res_valid_o),
    .res_ready_i (res_ready_i),
    .res_data_o  (res)
  );

  assign obs_o         = {desc_valid, desc_ready, din_valid, din_ready};
  assign dout_data_o   = dout.data;
  assign dout_last_o   = dout.last;
  assign dout_meta_o   = dout.meta;
  assign res_auth_ok_o = res.auth_ok;
  assign res_meta_o    = res.meta;

  // The computed tag is not an output: the result's auth_ok is what a receiver uses.
  logic unused;
  assign unused = ^res.tag;

endmodule

`default_nettype wire
