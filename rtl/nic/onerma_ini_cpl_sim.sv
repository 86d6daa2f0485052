`default_nettype none

/// Test top (Verilated models only): onerma_ini_cpl on the one client port of an onerma_dma_wr,
/// the AXI4 write master and the RRT lookup port exposed for the bench's memory and table.
module onerma_ini_cpl_sim #(
  parameter int unsigned NumSlots       = 8,
  parameter int unsigned TimeWidth      = 32,
  parameter int unsigned DataWidth      = 128,
  parameter int unsigned AddrWidth      = 64,
  parameter int unsigned IdWidth        = 4,
  parameter int unsigned MaxBurstBeats  = 16,
  parameter int unsigned MaxOutstanding = 4,
  parameter int unsigned TagWidth       = 8,
  parameter int unsigned RrtIdxWidth    = 16,
  parameter int unsigned Depth          = 2,
  // Derived, do not override.
  parameter int unsigned Bytes          = DataWidth / 8,
  parameter int unsigned SlotWidth      = (NumSlots > 1) ? $clog2(NumSlots) : 1
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  input  logic [TimeWidth-1:0]   now_i,

  input  logic                   job_valid_i,
  output logic                   job_ready_o,
  input  logic [SlotWidth-1:0]   job_slot_i,
  input  onerma_pkg::status_e    job_status_i,
  input  logic [7:0]             job_op_type_i,
  input  logic [15:0]            job_seq_i,
  input  logic [TimeWidth-1:0]   job_t_sub_i,
  input  logic [TimeWidth-1:0]   job_t_disp_i,
  input  logic                   job_dispatched_i,
  input  logic [AddrWidth-1:0]   job_cq_addr_i,
  input  logic [RrtIdxWidth-1:0] job_cq_region_i,
  input  logic [15:0]            job_cq_gen_i,

  output logic                   done_valid_o,
  input  logic                   done_ready_i,
  output logic [SlotWidth-1:0]   done_slot_o,
  output logic                   done_ok_o,
  output logic                   err_cq_write_o,

  output logic                   rrt_valid_o,
  input  logic                   rrt_ready_i,
  output logic [RrtIdxWidth-1:0] rrt_idx_o,
  input  onerma_pkg::rrt_entry_t rrt_entry_i,
  input  logic [15:0]            rrt_gen_i,
  input  logic                   rrt_commit_i,
  output logic                   quiesce_o,

  output logic                   m_axi_awvalid_o,
  input  logic                   m_axi_awready_i,
  output logic [IdWidth-1:0]     m_axi_awid_o,
  output logic [AddrWidth-1:0]   m_axi_awaddr_o,
  output logic [7:0]             m_axi_awlen_o,
  output logic [2:0]             m_axi_awsize_o,
  output logic [1:0]             m_axi_awburst_o,
  output logic                   m_axi_wvalid_o,
  input  logic                   m_axi_wready_i,
  output logic [DataWidth-1:0]   m_axi_wdata_o,
  output logic [Bytes-1:0]       m_axi_wstrb_o,
  output logic                   m_axi_wlast_o,
  input  logic                   m_axi_bvalid_i,
  output logic                   m_axi_bready_o,
  input  logic [IdWidth-1:0]     m_axi_bid_i,
  input  logic [1:0]             m_axi_bresp_i
);

  logic                    req_valid, req_ready, wd_valid, wd_ready, wd_last, rsp_valid, rsp_ready;
  logic [AddrWidth-1:0]    req_addr;
  logic [12:0]             req_len;
  logic [RrtIdxWidth-1:0]  req_region;
  logic [15:0]             req_gen;
  logic [4:0]              req_perm;
  logic [TagWidth-1:0]     req_tag, rsp_tag;
  logic [DataWidth-1:0]    wd_data;
  onerma_pkg::dma_status_e rsp_status;

  onerma_ini_cpl #(
    .NumSlots   (NumSlots),
    .TimeWidth  (TimeWidth),
    .DataWidth  (DataWidth),
    .AddrWidth  (AddrWidth),
    .RrtIdxWidth(RrtIdxWidth),
    .TagWidth   (TagWidth),
    .Depth      (Depth)
  ) u_cpl (
    .clk_i,
    .rst_ni,
    .now_i,
    .job_valid_i,
    .job_ready_o,
    .job_slot_i,
    .job_status_i,
    .job_op_type_i,
    .job_seq_i,
    .job_t_sub_i,
    .job_t_disp_i,
    .job_dispatched_i,
    .job_cq_addr_i,
    .job_cq_region_i,
    .job_cq_gen_i,
    .req_valid_o   (req_valid),
    .req_ready_i   (req_ready),
    .req_addr_o    (req_addr),
    .req_len_o     (req_len),
    .req_region_o  (req_region),
    .req_gen_o     (req_gen),
    .req_perm_o    (req_perm),
    .req_tag_o     (req_tag),
    .wd_valid_o    (wd_valid),
    .wd_ready_i    (wd_ready),
    .wd_data_o     (wd_data),
    .wd_last_o     (wd_last),
    .rsp_valid_i   (rsp_valid),
    .rsp_ready_o   (rsp_ready),
    .rsp_tag_i     (rsp_tag),
    .rsp_status_i  (rsp_status),
    .done_valid_o,
    .done_ready_i,
    .done_slot_o,
    .done_ok_o,
    .err_cq_write_o
  );

  onerma_dma_wr #(
    .NumClients    (1),
    .DataWidth     (DataWidth),
    .AddrWidth     (AddrWidth),
    .IdWidth       (IdWidth),
    .MaxBurstBeats (MaxBurstBeats),
    .MaxOutstanding(MaxOutstanding),
    .TagWidth      (TagWidth),
    .RrtIdxWidth   (RrtIdxWidth)
  ) u_dma (
    .clk_i,
    .rst_ni,
    .req_valid_i    (req_valid),
    .req_ready_o    (req_ready),
    .req_addr_i     (req_addr),
    .req_len_i      (req_len),
    .req_region_i   (req_region),
    .req_gen_i      (req_gen),
    .req_perm_i     (req_perm),
    .req_tag_i      (req_tag),
    .wd_valid_i     (wd_valid),
    .wd_ready_o     (wd_ready),
    .wd_data_i      (wd_data),
    .wd_last_i      (wd_last),
    .rsp_valid_o    (rsp_valid),
    .rsp_ready_i    (rsp_ready),
    .rsp_tag_o      (rsp_tag),
    .rsp_status_o   (rsp_status),
    .rrt_valid_o,
    .rrt_ready_i,
    .rrt_idx_o,
    .rrt_entry_i,
    .rrt_gen_i,
    .rrt_commit_i,
    .quiesce_o,
    .m_axi_awvalid_o,
    .m_axi_awready_i,
    .m_axi_awid_o,
    .m_axi_awaddr_o,
    .m_axi_awlen_o,
    .m_axi_awsize_o,
    .m_axi_awburst_o,
    .m_axi_wvalid_o,
    .m_axi_wready_i,
    .m_axi_wdata_o,
    .m_axi_wstrb_o,
    .m_axi_wlast_o,
    .m_axi_bvalid_i,
    .m_axi_bready_o,
    .m_axi_bid_i,
    .m_axi_bresp_i
  );

endmodule

`default_nettype wire
