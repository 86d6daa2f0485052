`default_nettype none

/// Test top: onerma_ini_wrdata reading through a real onerma_dma_rd (one client). The seal job
/// and payload streams, the op-table pulses, the RRT port and the AXI4 read channels are ports:
/// the test checks the jobs and payload against a reference built from the memo and memory.
/// Not part of the NIC.
module onerma_ini_wrdata_sim #(
  parameter int unsigned NumSlots       = 64,
  parameter int unsigned DataWidth      = 512,
  parameter int unsigned MaxBurstBeats  = 64,
  parameter int unsigned MaxOutstanding = 8,
  // Derived, do not override.
  parameter int unsigned SlotWidth      = (NumSlots > 1) ? $clog2(NumSlots) : 1
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,

  input  logic                   acc_fire_i,
  input  logic [SlotWidth-1:0]   acc_slot_i,
  input  onerma_pkg::cmd_t       acc_cmd_i,
  input  logic [31:0]            acc_pid_i,
  input  logic [63:0]            acc_local_addr_i,
  input  logic [15:0]            acc_local_gen_i,

  input  logic                   start_valid_i,
  output logic                   start_ready_o,
  input  logic [SlotWidth-1:0]   start_slot_i,
  input  logic [63:0]            start_counter_i,
  input  logic [15:0]            start_ctx_i,
  input  logic [NumSlots-1:0]    live_i,

  output logic                   sent_o,
  output logic [SlotWidth-1:0]   sent_slot_o,
  output logic [onerma_pkg::ChunkIndexBits-1:0] sent_chunk_o,
  output logic                   fail_o,
  output logic [SlotWidth-1:0]   fail_slot_o,
  output logic [1:0]             fail_status_o,
  output logic                   done_o,
  output logic [SlotWidth-1:0]   done_slot_o,

  output logic                   job_valid_o,
  input  logic                   job_ready_i,
  output onerma_pkg::hdr_t       job_hdr_o,
  output logic [127:0]           job_key_o,
  output logic [SlotWidth+onerma_pkg::ChunkIndexBits-1:0] job_meta_o,
  output logic                   pay_valid_o,
  input  logic                   pay_ready_i,
  output logic [DataWidth-1:0]   pay_data_o,
  output logic                   pay_last_o,
  output logic                   pay_err_o,

  output logic                   rrt_valid_o,
  input  logic                   rrt_ready_i,
  output logic [15:0]            rrt_idx_o,
  input  onerma_pkg::rrt_entry_t rrt_entry_i,
  input  logic [15:0]            rrt_gen_i,
  input  logic                   rrt_commit_i,

  output logic                   m_axi_arvalid_o,
  input  logic                   m_axi_arready_i,
  output logic [3:0]             m_axi_arid_o,
  output logic [63:0]            m_axi_araddr_o,
  output logic [7:0]             m_axi_arlen_o,
  output logic [2:0]             m_axi_arsize_o,
  output logic [1:0]             m_axi_arburst_o,
  input  logic                   m_axi_rvalid_i,
  output logic                   m_axi_rready_o,
  input  logic [3:0]             m_axi_rid_i,
  input  logic [DataWidth-1:0]   m_axi_rdata_i,
  input  logic [1:0]             m_axi_rresp_i,
  input  logic                   m_axi_rlast_i
);

  logic                    rq_valid, rq_ready, rd_valid, rd_ready, rd_last, rd_err;
  logic                    rsp_valid, rsp_ready;
  logic [63:0]             rq_addr;
  logic [12:0]             rq_len;
  logic [15:0]             rq_region, rq_gen;
  logic [4:0]              rq_perm;
  logic [7:0]              rq_tag, rsp_tag;
  logic [DataWidth-1:0]    rd_data;
  onerma_pkg::dma_status_e rsp_status, fail_status;
  logic                    quiesce;

  onerma_ini_wrdata #(
    .NumSlots (NumSlots),
    .DataWidth(DataWidth)
  ) u_wrdata (
    .clk_i,
    .rst_ni,
    .acc_fire_i,
    .acc_slot_i,
    .acc_cmd_i,
    .acc_pid_i,
    .acc_local_addr_i,
    .acc_local_gen_i,
    .start_valid_i,
    .start_ready_o,
    .start_slot_i,
    .start_counter_i,
    .start_ctx_i,
    .live_i,
    .sent_o,
    .sent_slot_o,
    .sent_chunk_o,
    .fail_o,
    .fail_slot_o,
    .fail_status_o (fail_status),
    .done_o,
    .done_slot_o,
    .rdreq_valid_o (rq_valid),
    .rdreq_ready_i (rq_ready),
    .rdreq_addr_o  (rq_addr),
    .rdreq_len_o   (rq_len),
    .rdreq_region_o(rq_region),
    .rdreq_gen_o   (rq_gen),
    .rdreq_perm_o  (rq_perm),
    .rdreq_tag_o   (rq_tag),
    .rd_valid_i    (rd_valid),
    .rd_ready_o    (rd_ready),
    .rd_data_i     (rd_data),
    .rd_last_i     (rd_last),
    .rd_err_i      (rd_err),
    .rsp_valid_i   (rsp_valid),
    .rsp_ready_o   (rsp_ready),
    .rsp_tag_i     (rsp_tag),
    .rsp_status_i  (rsp_status),
    .job_valid_o,
    .job_ready_i,
    .job_hdr_o,
    .job_key_o,
    .job_meta_o,
    .pay_valid_o,
    .pay_ready_i,
    .pay_data_o,
    .pay_last_o,
    .pay_err_o
  );

  assign fail_status_o = 2'(fail_status);

  onerma_dma_rd #(
    .NumClients    (1),
    .DataWidth     (DataWidth),
    .AddrWidth     (64),
    .IdWidth       (4),
    .MaxBurstBeats (MaxBurstBeats),
    .MaxOutstanding(MaxOutstanding),
    .TagWidth      (8),
    .RrtIdxWidth   (16)
  ) u_dma_rd (
    .clk_i,
    .rst_ni,
    .req_valid_i    (rq_valid),
    .req_ready_o    (rq_ready),
    .req_addr_i     (rq_addr),
    .req_len_i      (rq_len),
    .req_region_i   (rq_region),
    .req_gen_i      (rq_gen),
    .req_perm_i     (rq_perm),
    .req_tag_i      (rq_tag),
    .rd_valid_o     (rd_valid),
    .rd_ready_i     (rd_ready),
    .rd_data_o      (rd_data),
    .rd_last_o      (rd_last),
    .rd_err_o       (rd_err),
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
    .quiesce_o      (quiesce),
    .m_axi_arvalid_o,
    .m_axi_arready_i,
    .m_axi_arid_o,
    .m_axi_araddr_o,
    .m_axi_arlen_o,
    .m_axi_arsize_o,
    .m_axi_arburst_o,
    .m_axi_rvalid_i,
    .m_axi_rready_o,
    .m_axi_rid_i,
    .m_axi_rdata_i,
    .m_axi_rresp_i,
    .m_axi_rlast_i
  );

  logic unused;
  assign unused = ^{quiesce};

endmodule

`default_nettype wire
