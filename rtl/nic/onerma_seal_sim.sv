`default_nettype none

/// Test top: onerma_seal with a real onerma_gcm_pool behind it (Verilated models and the
/// throughput figures of docs/nic.md). Not part of the NIC: the NIC's top puts several clients
/// in front of one pool. The pool's din handshake is brought out for observation only.
module onerma_seal_sim #(
  parameter int unsigned DataWidth  = 512,
  parameter int unsigned NumStage   = 4,
  parameter int unsigned MetaWidth  = 8,
  parameter int unsigned CountW     = 48,
  parameter int unsigned NumEngines = 2,
  parameter bit          Pipelined  = 1'b1,
  parameter int unsigned InDepth    = 2,
  /// The pool's words (1, or DataWidth / 128: onerma_gcm_lane per engine).
  parameter int unsigned Lanes      = 1,
  parameter int unsigned WordDepth  = 34
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,

  input  logic [31:0]            nic_addr_i,
  input  logic [15:0]            epoch_i,
  input  logic                   ctr_reset_i,
  output logic                   exhausted_o,

  input  logic                   job_valid_i,
  output logic                   job_ready_o,
  input  onerma_pkg::hdr_t       job_hdr_i,
  input  logic [127:0]           job_key_i,
  input  logic [MetaWidth-1:0]   job_meta_i,

  input  logic                   pay_valid_i,
  output logic                   pay_ready_o,
  input  logic [DataWidth-1:0]   pay_data_i,
  input  logic                   pay_last_i,
  input  logic                   pay_err_i,

  output logic                   asg_valid_o,
  output logic [MetaWidth-1:0]   asg_meta_o,
  output logic [63:0]            asg_counter_o,

  output logic                   drop_o,
  output logic [MetaWidth-1:0]   drop_meta_o,
  output logic                   sent_valid_o,
  output logic [MetaWidth-1:0]   sent_meta_o,

  output logic                   m_axis_tvalid,
  input  logic                   m_axis_tready,
  output logic [DataWidth-1:0]   m_axis_tdata,
  output logic [DataWidth/8-1:0] m_axis_tkeep,
  output logic                   m_axis_tlast,

  /// Observation: the sealer's desc and din handshakes with the pool.
  output logic                   obs_desc_fire_o,
  output logic                   obs_din_valid_o,
  output logic                   obs_din_ready_o
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
  logic                 dout_valid, dout_ready, res_valid, res_ready;
  desc_t                desc;
  wdin_t                din;
  wdout_t               dout;
  res_t                 res;

  onerma_seal #(
    .DataWidth   (DataWidth),
    .NumStage    (NumStage),
    .MetaWidth   (MetaWidth),
    .GcmMetaWidth(8),
    .LenW        (LenW),
    .CountW      (CountW),
    .Lanes       (Lanes),
    .desc_t      (desc_t),
    .wdin_t      (wdin_t),
    .dout_t      (wdout_t),
    .res_t       (res_t)
  ) u_seal (
    .clk_i,
    .rst_ni,
    .nic_addr_i,
    .epoch_i,
    .ctr_reset_i,
    .exhausted_o,
    .job_valid_i,
    .job_ready_o,
    .job_hdr_i,
    .job_key_i,
    .job_meta_i,
    .pay_valid_i,
    .pay_ready_o,
    .pay_data_i,
    .pay_last_i,
    .pay_err_i,
    .asg_valid_o,
    .asg_meta_o,
    .asg_counter_o,
    .drop_o,
    .drop_meta_o,
    .sent_valid_o,
    .sent_meta_o,
    .desc_valid_o (desc_valid),
    .desc_ready_i (desc_ready),
    .desc_data_o  (desc),
    .din_valid_o  (din_valid),
    .din_ready_i  (din_ready),
    .din_data_o   (din),
    .dout_valid_i (dout_valid),
    .dout_ready_o (dout_ready),
    .dout_data_i  (dout),
    .res_valid_i  (res_valid),
    .res_ready_o  (res_ready),
    .res_data_i   (res),
    .m_axis_tvalid,
    .m_axis_tready,
    .m_axis_tdata,
    .m_axis_tkeep,
    .m_axis_tlast
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
    .dout_valid_o(dout_valid),
    .dout_ready_i(dout_ready),
    .dout_data_o (dout),
    .res_valid_o (res_valid),
    .res_ready_i (res_ready),
    .res_data_o  (res)
  );

  assign obs_desc_fire_o = desc_valid && desc_ready;
  assign obs_din_valid_o = din_valid;
  assign obs_din_ready_o = din_ready;

endmodule

`default_nettype wire
