`default_nettype none

// Outputs a top does not use are left open on purpose (counters, responder-side ports).
/* verilator lint_off PINCONNECTEMPTY */

/// The onerma NIC (docs/architecture.md, docs/nic.md "The NIC top"): the blocks both halves
/// share and the initiator half, between standard edges.
///
/// - `s_axil_*`: AXI4-Lite slave, the register map (onerma_csr).
/// - `s_axi_*`: AXI4 write slave for the command pages (onerma_cmd_port), `DataWidth` bits, so a
///   64-byte command arrives as one write-combined burst.
/// - `m_axi_*`: AXI4 master for host memory: AW/W/B from onerma_dma_wr (READ landing data,
///   completion records), AR/R from onerma_dma_rd (WRITE / REKEY source data, served READs).
///   One ID.
/// - `s_axis_rx_*` / `m_axis_tx_*`: AXI4-Stream, one message per packet, first byte in
///   `tdata[7:0]`.
///
/// The responder half checks every hop-1 request (onerma_rsp_req), queues it (onerma_rsp_queue),
/// serves READs (onerma_rsp_read) and WRITEs / REKEYs through its write contexts
/// (onerma_rsp_ctx): WR_RDREQ, WR_DATA landed in the shared window, host writes or the key
/// install, WR_CMPL.
module onerma_nic #(
  parameter int unsigned NumSlots     = 64,
  parameter int unsigned NumClasses   = 4,
  parameter int unsigned NumRegions   = 256,
  parameter int unsigned WindowLines  = 1024,
  parameter int unsigned DataWidth    = 512,
  parameter int unsigned NumEngines   = 4,
  parameter bit          Pipelined    = 1'b1,
  /// Input beat buffer of each GCM engine (onerma_gcm_pool's InDepth), in 128-bit beats. The
  /// pool's din stream is shared and taken in descriptor order, so an engine that cannot take a
  /// beat (waiting on its keystream) holds every message behind it; 16 holds two whole 64 B
  /// messages (4 header + 4 payload beats each), so short messages go in at full rate and the
  /// next one starts on another engine while the first waits. 16 costs the same distributed RAM
  /// as 8 (16-deep LUT RAM cells).
  parameter int unsigned GcmInDepth   = 16,
  /// The GCM path's words (docs/nic.md, "Sharing the GCM pool"): 1 = as wide as the datapath
  /// (`DataWidth` / 128 beats per pool word: the sealer, the openers, the mux, the pool and the
  /// window's landing all take words); 0 = one 128-bit beat per handshake, which leaves a
  /// 512-bit NIC's crypto at a quarter of its datapath (4 KB goodput 0.15 instead of 0.86).
  /// At 128 bits the two are the same logic.
  parameter bit          GcmWords     = 1'b1,
  /// Digits of the GCM engines' iterative GF(2^128) multipliers (onerma_gcm_pool's NumStages,
  /// divides 16). With pipelined engines only the power unit has them: a new table of H powers
  /// every GcmStages + 3 cycles, so 2 (5 cycles) keeps a 64 B READ's request (5 GHASH blocks)
  /// from being held by it, at about twice the power unit's partial-product logic (docs/crypto.md,
  /// "Throughput and per-message overhead"). Iterative engines are AES-bound (one block per 10
  /// cycles), so they keep the smaller 4.
  parameter int unsigned GcmStages    = Pipelined ? 2 : 4,
  /// Sealer stages (onerma_seal's NumStage): messages between job acceptance and frame out.
  /// Each holds its stage about 72 cycles (64 B request: measured, 16 stages gave one request
  /// per 4.5 cycles) to 120 (64 B READ reply: host read, the engine's latency, the frame), so
  /// the sealer's rate is about SealStages / 72 to SealStages / 120 messages per cycle; 24
  /// stages keep 4 engines' 64 B READs (one request per 3.5 cycles) off this bound. A stage is
  /// about 34 kbit of RAM (2 KB plaintext, 2 KB ciphertext, two headers, key); at 512 bits the
  /// rows are packed stage after stage, so by row count 24 stages (792 ciphertext rows) take
  /// two DP16KD depths (1024 rows) per column.
  parameter int unsigned SealStages   = 24,
  /// The responder's requests between admission and enqueue or reply (onerma_rsp_req's
  /// InFlight): each holds its entry through the lookup, K_d and the tag check (about 120
  /// cycles with 4 pipelined engines), so served requests are bounded by about RspInFlight / 120
  /// per cycle: 32 for the 4-engine goal of 0.26 per cycle. An entry is about 800 flip-flops
  /// (header, K_d, base).
  parameter int unsigned RspInFlight  = 32,
  /// The READ server's READs held at once and host reads outstanding (onerma_rsp_read's
  /// MaxOps / MaxReads): its reads run ahead of its seal jobs across READs, so a 64 B READ
  /// costs the sealer's job cycle and one payload beat instead of a host read latency. An op is
  /// about 460 bits of RAM.
  parameter int unsigned RdMaxOps     = 4,
  parameter int unsigned RdMaxReads   = 4,
  parameter int unsigned MaxStarve    = 16,
  parameter int unsigned InQueueDepth = 32,
  parameter int unsigned NumWriteCtx  = 16,
  parameter int unsigned TimeWidth    = 32,
  parameter int unsigned CmdIdWidth   = 4,
  parameter int unsigned MIdWidth     = 4,
  // Derived, do not override.
  parameter int unsigned SlotWidth    = (NumSlots > 1) ? $clog2(NumSlots) : 1,
  parameter int unsigned CmdAddrWidth = SlotWidth + 12,
  parameter int unsigned Bytes        = DataWidth / 8,
  parameter int unsigned AxilAddrW    = onerma_regs_addr_pkg::AddrWidth
) (
  input  logic                    clk_i,
  input  logic                    rst_ni,

  // Configuration and status (AXI4-Lite).
  input  logic                    s_axil_awvalid_i,
  output logic                    s_axil_awready_o,
  input  logic [AxilAddrW-1:0]    s_axil_awaddr_i,
  input  logic                    s_axil_wvalid_i,
  output logic                    s_axil_wready_o,
  input  logic [31:0]             s_axil_wdata_i,
  input  logic [3:0]              s_axil_wstrb_i,
  output logic                    s_axil_bvalid_o,
  input  logic                    s_axil_bready_i,
  output logic [1:0]              s_axil_bresp_o,
  input  logic                    s_axil_arvalid_i,
  output logic                    s_axil_arready_o,
  input  logic [AxilAddrW-1:0]    s_axil_araddr_i,
  output logic                    s_axil_rvalid_o,
  input  logic                    s_axil_rready_i,
  output logic [31:0]             s_axil_rdata_o,
  output logic [1:0]              s_axil_rresp_o,

  // Command pages (AXI4 slave).
  input  logic                    s_axi_awvalid_i,
  output logic                    s_axi_awready_o,
  input  logic [CmdIdWidth-1:0]   s_axi_awid_i,
  input  logic [CmdAddrWidth-1:0] s_axi_awaddr_i,
  input  logic [7:0]              s_axi_awlen_i,
  input  logic [2:0]              s_axi_awsize_i,
  input  logic                    s_axi_wvalid_i,
  output logic                    s_axi_wready_o,
  input  logic [DataWidth-1:0]    s_axi_wdata_i,
  input  logic [Bytes-1:0]        s_axi_wstrb_i,
  input  logic                    s_axi_wlast_i,
  output logic                    s_axi_bvalid_o,
  input  logic                    s_axi_bready_i,
  output logic [CmdIdWidth-1:0]   s_axi_bid_o,
  output logic [1:0]              s_axi_bresp_o,
  input  logic                    s_axi_arvalid_i,
  output logic                    s_axi_arready_o,
  input  logic [CmdIdWidth-1:0]   s_axi_arid_i,
  input  logic [7:0]              s_axi_arlen_i,
  output logic                    s_axi_rvalid_o,
  input  logic                    s_axi_rready_i,
  output logic [CmdIdWidth-1:0]   s_axi_rid_o,
  output logic [DataWidth-1:0]    s_axi_rdata_o,
  output logic [1:0]              s_axi_rresp_o,
  output logic                    s_axi_rlast_o,

  // Host memory (AXI4 master).
  output logic                    m_axi_awvalid_o,
  input  logic                    m_axi_awready_i,
  output logic [MIdWidth-1:0]     m_axi_awid_o,
  output logic [63:0]             m_axi_awaddr_o,
  output logic [7:0]              m_axi_awlen_o,
  output logic [2:0]              m_axi_awsize_o,
  output logic [1:0]              m_axi_awburst_o,
  output logic                    m_axi_wvalid_o,
  input  logic                    m_axi_wready_i,
  output logic [DataWidth-1:0]    m_axi_wdata_o,
  output logic [Bytes-1:0]        m_axi_wstrb_o,
  output logic                    m_axi_wlast_o,
  input  logic                    m_axi_bvalid_i,
  output logic                    m_axi_bready_o,
  input  logic [MIdWidth-1:0]     m_axi_bid_i,
  input  logic [1:0]              m_axi_bresp_i,
  output logic                    m_axi_arvalid_o,
  input  logic                    m_axi_arready_i,
  output logic [MIdWidth-1:0]     m_axi_arid_o,
  output logic [63:0]             m_axi_araddr_o,
  output logic [7:0]              m_axi_arlen_o,
  output logic [2:0]              m_axi_arsize_o,
  output logic [1:0]              m_axi_arburst_o,
  input  logic                    m_axi_rvalid_i,
  output logic                    m_axi_rready_o,
  input  logic [MIdWidth-1:0]     m_axi_rid_i,
  input  logic [DataWidth-1:0]    m_axi_rdata_i,
  input  logic [1:0]              m_axi_rresp_i,
  input  logic                    m_axi_rlast_i,

  // Network.
  input  logic                    s_axis_rx_tvalid_i,
  output logic                    s_axis_rx_tready_o,
  input  logic [DataWidth-1:0]    s_axis_rx_tdata_i,
  input  logic [Bytes-1:0]        s_axis_rx_tkeep_i,
  input  logic                    s_axis_rx_tlast_i,
  output logic                    m_axis_tx_tvalid_o,
  input  logic                    m_axis_tx_tready_i,
  output logic [DataWidth-1:0]    m_axis_tx_tdata_o,
  output logic [Bytes-1:0]        m_axis_tx_tkeep_o,
  output logic                    m_axis_tx_tlast_o
);

  import onerma_pkg::*;

  if (NumWriteCtx < 1 || $clog2(NumWriteCtx) > SlotWidth + 2) begin : g_bad_ctx
    $error("onerma_nic: a write context's GCM meta {chunk, ctx} must fit the slot's: need 1 <= NumWriteCtx <= 4 * NumSlots");
  end

  if (RspInFlight < 2 || $clog2(RspInFlight) > SlotWidth + 2 + ChunkIndexBits) begin : g_bad_rsp_in_flight
    $error("onerma_nic: the request checks' row index rides as a GCM meta: need 2 <= RspInFlight <= 2^(SlotWidth + 2 + ChunkIndexBits)");
  end

  localparam int unsigned ClassWidth  = (NumClasses > 1) ? $clog2(NumClasses) : 1;
  localparam int unsigned LenW        = 16;
  localparam int unsigned OpsMetaW    = SlotWidth + 2 + ChunkIndexBits;  // {kind, chunk, slot}
  localparam int unsigned GMetaW      = OpsMetaW;        // a GCM client's meta
  localparam int unsigned PMetaW      = 2 + GMetaW;      // {client, meta} in the pool
  localparam int unsigned CtxW        = (NumWriteCtx > 1) ? $clog2(NumWriteCtx) : 1;
  localparam int unsigned IdxW        = (SlotWidth > CtxW) ? SlotWidth : CtxW;
  localparam int unsigned HwTagW      = SlotWidth + ChunkIndexBits;  // {slot, chunk}
  localparam int unsigned CtxTagW     = CtxW + ChunkIndexBits;       // {ctx, chunk}
  // Window read-out writes: {responder, the owner's own tag}.
  localparam int unsigned DmaTagW     = 1 + ((HwTagW > CtxTagW) ? HwTagW : CtxTagW);
  // {source, slot or ctx, sub}: sub is a chunk index (zero-extended) or a context job's kind.
  localparam int unsigned SealMetaW   = 3 + IdxW + 2;
  localparam int unsigned SealLowW    = SealMetaW - 3;
  localparam int unsigned NumOwners   = NumSlots + NumWriteCtx;  // window: slots, then contexts
  localparam int unsigned OwnW        = $clog2(NumOwners);
  localparam int unsigned RspIdxW     = (RspInFlight > 1) ? $clog2(RspInFlight) : 1;
  localparam int unsigned QCntW       = $clog2(InQueueDepth + 1);
  localparam int unsigned MaxBurst    = (4096 / Bytes > 256) ? 256 : 4096 / Bytes;
  localparam int unsigned LinesW      = $clog2(64 + 1);
  localparam int unsigned NumCounters = 19;
  localparam int unsigned GLanes      = GcmWords ? DataWidth / 128 : 1;
  localparam int unsigned GWordW      = GLanes * 128;
  // Each lane's word buffer holds two messages of a header and a whole chunk, so the next
  // descriptor enters while the previous message drains and the engine's keystream latency is
  // hidden (docs/crypto.md, "Wide lanes"; with room for one 2 KB message, 4 KB goodput fell to
  // 0.75 of the width).
  localparam int unsigned GWordDepth  = 2 * ((4 + ChunkBytes / 16) / GLanes);

  typedef struct packed {
    logic [127:0]      key;
    logic [95:0]       iv;
    logic [LenW-1:0]   aad_len;
    logic [LenW-1:0]   pt_len;
    logic              decrypt;
    logic [127:0]      tag;
    logic [GMetaW-1:0] meta;
  } cdesc_t;
  typedef struct packed {
    logic [GWordW-1:0] data;
    logic              last;
    logic [GMetaW-1:0] meta;
  } cdout_t;
  typedef struct packed {
    logic [GWordW-1:0] data;
  } gword_t;
  typedef struct packed {
    logic [127:0]      tag;
    logic              auth_ok;
    logic [GMetaW-1:0] meta;
  } cres_t;
  typedef logic [PMetaW-1:0] pmeta_t;
  typedef struct packed {
    logic [127:0]    key;
    logic [95:0]     iv;
    logic [LenW-1:0] aad_len;
    logic [LenW-1:0] pt_len;
    logic            decrypt;
    logic [127:0]    tag;
    pmeta_t          meta;
  } pdesc_t;
  typedef struct packed {
    logic [GWordW-1:0] data;
    logic              last;
    pmeta_t            meta;
  } pdout_t;
  typedef struct packed {
    logic [127:0] data;
    logic         last;
    pmeta_t       meta;
  } edout_t;        // an engine's dout beat inside the pool
  typedef struct packed {
    logic [127:0] tag;
    logic         auth_ok;
    pmeta_t       meta;
  } pres_t;

  // ---------------------------------------------------------------------------------------
  // Configuration, time, counters.
  // ---------------------------------------------------------------------------------------
  logic                   nic_enable;
  logic [31:0]            nic_addr;
  logic [15:0]            epoch;
  logic                   epoch_written;
  logic [31:0]            clk_period_ps, dispatch_timeout, op_timeout, server_timeout;
  logic [31:0]            inq_max_age, max_hold_ns, hold_ns;
  logic [15:0]            nack_depth;
  logic                   slot_commit, slot_commit_enable;
  logic [SlotWidth-1:0]   slot_commit_index;
  logic [31:0]            slot_commit_pid;
  logic                   rrt_commit;
  logic [$clog2(NumRegions)-1:0] rrt_commit_index;
  rrt_entry_t             rrt_commit_entry;
  logic                   rrt_quiesce;
  logic [NumCounters-1:0] cnt_incr;
  logic [3:0]             err_set;
  logic [63:0]            msg_count_q;
  logic [63:0]            nic_time;
  logic [TimeWidth-1:0]   now;
  logic [NumSlots-1:0]    slot_busy;

  assign now = nic_time[TimeWidth-1:0];

  onerma_csr #(
    .NumSlots    (NumSlots),
    .NumRegions  (NumRegions),
    .InQueueDepth(InQueueDepth)
  ) u_csr (
    .clk_i, .rst_ni,
    .s_axil_awvalid_i, .s_axil_awready_o, .s_axil_awaddr_i,
    .s_axil_wvalid_i, .s_axil_wready_o, .s_axil_wdata_i, .s_axil_wstrb_i,
    .s_axil_bvalid_o, .s_axil_bready_i, .s_axil_bresp_o,
    .s_axil_arvalid_i, .s_axil_arready_o, .s_axil_araddr_i,
    .s_axil_rvalid_o, .s_axil_rready_i, .s_axil_rdata_o, .s_axil_rresp_o,
    .nic_enable_o        (nic_enable),
    .nic_addr_o          (nic_addr),
    .epoch_o             (epoch),
    .epoch_written_o     (epoch_written),
    .clk_period_ps_o     (clk_period_ps),
    .dispatch_timeout_o  (dispatch_timeout),
    .op_timeout_o        (op_timeout),
    .server_timeout_o    (server_timeout),
    .inq_max_age_o       (inq_max_age),
    .max_hold_ns_o       (max_hold_ns),
    .hold_ns_o           (hold_ns),
    .nack_depth_o        (nack_depth),
    .slot_busy_i         (slot_busy),
    .slot_commit_o       (slot_commit),
    .slot_commit_index_o (slot_commit_index),
    .slot_commit_enable_o(slot_commit_enable),
    .slot_commit_pid_o   (slot_commit_pid),
    .rrt_commit_o        (rrt_commit),
    .rrt_commit_index_o  (rrt_commit_index),
    .rrt_commit_entry_o  (rrt_commit_entry),
    .rrt_quiesce_i       (rrt_quiesce),
    .cnt_incr_i          (cnt_incr),
    .err_set_i           (err_set),
    .msg_count_i         (msg_count_q),
    .nic_time_o          (nic_time)
  );

  // ---------------------------------------------------------------------------------------
  // Region table: port 0 submission checks, port 1 the host DMA (write and read blocks),
  // port 2 the responder's request checks.
  // ---------------------------------------------------------------------------------------
  logic [2:0]              rrt_rd_valid;
  logic [2:0][15:0]        rrt_rd_idx;
  rrt_entry_t [2:0]        rrt_rd_entry;
  logic [2:0][15:0]        rrt_rd_gen;
  logic [2:0][7:0]         rrt_rd_key_gen;
  // REKEY installs (from the write contexts' read-outs, below).
  logic                    inst_valid, inst_ready, inst_ok;
  logic [127:0]            inst_key;
  logic [15:0]             cins_region, cins_gen;
  logic [7:0]              cins_key_gen;

  onerma_rrt #(.NumRegions(NumRegions), .NumPorts(3), .IdxWidth(16)) u_rrt (
    .clk_i, .rst_ni,
    .rd_valid_i    (rrt_rd_valid),
    .rd_idx_i      (rrt_rd_idx),
    .rd_entry_o    (rrt_rd_entry),
    .rd_gen_o      (rrt_rd_gen),
    .rd_key_gen_o  (rrt_rd_key_gen),
    .commit_i      (rrt_commit),
    .commit_idx_i  (16'(rrt_commit_index)),
    .commit_entry_i(rrt_commit_entry),
    .inst_valid_i  (inst_valid),
    .inst_ready_o  (inst_ready),
    .inst_idx_i    (cins_region),
    .inst_key_i    (inst_key),
    .inst_gen_i    (cins_gen),
    .inst_key_gen_i(cins_key_gen),
    .inst_ok_o     (inst_ok)
  );

  // ---------------------------------------------------------------------------------------
  // Command port and submission checks.
  // ---------------------------------------------------------------------------------------
  logic                 cp_bvalid, cp_bready;
  logic [1:0]           cp_bresp;
  logic [CmdIdWidth-1:0] cp_bid;
  logic                 sub_valid, sub_ready;
  logic [SlotWidth-1:0] sub_slot;
  cmd_t                 sub_cmd;
  logic [31:0]          sub_pid;
  logic                 err_disabled, err_busy;

  onerma_cmd_port #(
    .NumSlots (NumSlots),
    .DataWidth(DataWidth),
    .AddrWidth(CmdAddrWidth),
    .IdWidth  (CmdIdWidth)
  ) u_cmd_port (
    .clk_i, .rst_ni,
    .s_axi_awvalid_i, .s_axi_awready_o, .s_axi_awid_i, .s_axi_awaddr_i, .s_axi_awlen_i,
    .s_axi_awsize_i, .s_axi_wvalid_i, .s_axi_wready_o, .s_axi_wdata_i, .s_axi_wstrb_i,
    .s_axi_wlast_i,
    .s_axi_bvalid_o (cp_bvalid),
    .s_axi_bready_i (cp_bready),
    .s_axi_bid_o    (cp_bid),
    .s_axi_bresp_o  (cp_bresp),
    .s_axi_arvalid_i, .s_axi_arready_o, .s_axi_arid_i, .s_axi_arlen_i, .s_axi_rvalid_o,
    .s_axi_rready_i, .s_axi_rid_o, .s_axi_rdata_o, .s_axi_rresp_o, .s_axi_rlast_o,
    .cfg_valid_i   (slot_commit),
    .cfg_slot_i    (slot_commit_index),
    .cfg_enable_i  (slot_commit_enable),
    .cfg_pid_i     (slot_commit_pid),
    .nic_enable_i  (nic_enable),
    .busy_i        (slot_busy),
    .sub_valid_o   (sub_valid),
    .sub_ready_i   (sub_ready),
    .sub_slot_o    (sub_slot),
    .sub_cmd_o     (sub_cmd),
    .sub_pid_o     (sub_pid),
    .err_disabled_o(err_disabled),
    .err_busy_o    (err_busy)
  );

  // t_sub is the cycle of the doorbell beat (§2.3: DISPATCH_TIMEOUT counts from it): the command
  // port offers a submission from the cycle after that beat's handshake, and holds it while the
  // submission checks are busy.
  logic                 sub_wait_q;
  logic [TimeWidth-1:0] sub_time_q, sub_time;
  assign sub_time = sub_wait_q ? sub_time_q : now - 1'b1;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      sub_wait_q <= 1'b0;
      sub_time_q <= '0;
    end else begin
      sub_wait_q <= sub_valid && !sub_ready;
      sub_time_q <= sub_time;
    end
  end

  logic                  acc_valid;
  logic [SlotWidth-1:0]  acc_slot;
  logic [15:0]           acc_seq;
  status_e               acc_status;
  cmd_t                  acc_cmd;
  logic [31:0]           acc_pid;
  logic [TimeWidth-1:0]  acc_t_sub;
  logic [63:0]           acc_cq_addr, acc_local_addr;
  logic [15:0]           acc_cq_gen, acc_local_gen;
  logic                  push_valid;
  logic [SlotWidth-1:0]  push_slot;
  logic [ClassWidth-1:0] push_class;
  logic [TimeWidth-1:0]  push_deadline;
  logic                  bad_cq;
  logic                  free;
  logic [SlotWidth-1:0]  free_slot;

  onerma_submit #(
    .NumSlots   (NumSlots),
    .NumClasses (NumClasses),
    .TimeWidth  (TimeWidth),
    .RrtIdxWidth(16)
  ) u_submit (
    .clk_i, .rst_ni,
    .dispatch_timeout_i(TimeWidth'(dispatch_timeout)),
    .sub_valid_i     (sub_valid),
    .sub_ready_o     (sub_ready),
    .sub_slot_i      (sub_slot),
    .sub_pid_i       (sub_pid),
    .sub_cmd_i       (sub_cmd),
    .sub_time_i      (sub_time),
    .busy_o          (slot_busy),
    .rrt_valid_o     (rrt_rd_valid[0]),
    .rrt_idx_o       (rrt_rd_idx[0]),
    .rrt_entry_i     (rrt_rd_entry[0]),
    .rrt_gen_i       (rrt_rd_gen[0]),
    .bad_cq_o        (bad_cq),
    .acc_valid_o     (acc_valid),
    .acc_ready_i     (1'b1),
    .acc_slot_o      (acc_slot),
    .acc_seq_o       (acc_seq),
    .acc_status_o    (acc_status),
    .acc_cmd_o       (acc_cmd),
    .acc_pid_o       (acc_pid),
    .acc_t_sub_o     (acc_t_sub),
    .acc_cq_addr_o   (acc_cq_addr),
    .acc_cq_gen_o    (acc_cq_gen),
    .acc_local_addr_o(acc_local_addr),
    .acc_local_gen_o (acc_local_gen),
    .push_valid_o    (push_valid),
    .push_slot_o     (push_slot),
    .push_class_o    (push_class),
    .push_deadline_o (push_deadline),
    .free_i          (free),
    .free_slot_i     (free_slot)
  );

  // §2.2: a command dropped for its completion region is answered SLVERR: the command port's B
  // is queued until its doorbell's verdict (onerma_cmd_bgate, which also keeps an offered B
  // held), so the port takes the next doorbell meanwhile.
  onerma_cmd_bgate #(
    .IdWidth(CmdIdWidth)
  ) u_cmd_bgate (
    .clk_i, .rst_ni,
    .cp_bvalid_i   (cp_bvalid),
    .cp_bready_o   (cp_bready),
    .cp_bresp_i    (cp_bresp),
    .cp_bid_i      (cp_bid),
    .sub_valid_i   (sub_valid),
    .sub_ready_i   (sub_ready),
    .bad_cq_i      (bad_cq),
    .acc_valid_i   (acc_valid),
    .s_axi_bvalid_o,
    .s_axi_bready_i,
    .s_axi_bresp_o,
    .s_axi_bid_o
  );

  // The reservation of each slot's op for the dispatch stage: a READ's ceil(length / 64) lines;
  // none for a WRITE or REKEY, whose WR_DATA streams from host memory into the sealer and whose
  // lines, held from dispatch, would let NICs writing to each other deadlock (protocol §2.3).
  logic [LinesW-1:0] lines_mem [NumSlots];
  always_ff @(posedge clk_i) begin
    if (acc_valid) begin
      lines_mem[acc_slot] <= (acc_cmd.op_type == 8'(OpTypeRead)) ?
                             LinesW'((17'(acc_cmd.length) + 17'd63) >> 6) : '0;
    end
  end

  // ---------------------------------------------------------------------------------------
  // Class queues, dispatch, window allocator, request builder, op timer.
  // ---------------------------------------------------------------------------------------
  logic [NumClasses-1:0]                head_valid, head_expired, pop;
  logic [NumClasses-1:0][SlotWidth-1:0] head_slot;
  logic [SlotWidth-1:0]                 look_slot;
  logic                                 rsv_valid, rsv_ready;
  logic [LinesW-1:0]                    rsv_lines;
  logic                                 disp, disp_room;
  logic [SlotWidth-1:0]                 disp_slot;
  logic [TimeWidth-1:0]                 disp_time;
  logic                                 exp_valid;
  logic [SlotWidth-1:0]                 exp_slot;

  onerma_class_queues #(
    .NumSlots(NumSlots), .NumClasses(NumClasses), .TimeWidth(TimeWidth)
  ) u_queues (
    .clk_i, .rst_ni,
    .now_i          (now),
    .push_valid_i   (push_valid),
    .push_slot_i    (push_slot),
    .push_class_i   (push_class),
    .push_deadline_i(push_deadline),
    .pop_i          (pop),
    .head_valid_o   (head_valid),
    .head_slot_o    (head_slot),
    .head_expired_o (head_expired)
  );

  onerma_dispatch #(
    .NumSlots(NumSlots), .NumClasses(NumClasses), .MaxStarve(MaxStarve),
    .TimeWidth(TimeWidth), .LinesWidth(LinesW)
  ) u_dispatch (
    .clk_i, .rst_ni,
    .now_i         (now),
    .enable_i      (nic_enable),
    .head_valid_i  (head_valid),
    .head_slot_i   (head_slot),
    .head_expired_i(head_expired),
    .pop_o         (pop),
    .look_slot_o   (look_slot),
    .look_lines_i  (lines_mem[look_slot]),
    .rsv_valid_o   (rsv_valid),
    .rsv_ready_i   (rsv_ready),
    .rsv_lines_o   (rsv_lines),
    .disp_room_i   (disp_room),
    .disp_o        (disp),
    .disp_slot_o   (disp_slot),
    .disp_time_o   (disp_time),
    .exp_valid_o   (exp_valid),
    .exp_ready_i   (1'b1),
    .exp_slot_o    (exp_slot)
  );

  localparam int unsigned LineW = $clog2(WindowLines);
  logic             refund_valid;
  logic [6:0]       refund_lines;
  logic             take_valid, take_ready;
  logic [LineW-1:0] take_line;
  logic             rel_valid;
  logic [LineW-1:0] rel_line;

  // The window is shared by the initiator's dispatch and the write contexts. Reservations: one
  // grant per cycle; the dispatch wins a tie unless the contexts lost the last one (a WRITE head
  // waited with a context free while the window admitted the dispatch: then they win), so
  // neither starves, and the pick never looks at the contexts' valid (their queue offers a head
  // only to a ready server: no combinational loop). Refunds: the op table's go
  // straight in; a context's joins a backlog drained, at most 64 lines a cycle, in cycles
  // without one (credit returned late is only conservative).
  localparam int unsigned BackW = $clog2(NumWriteCtx * 64 + 1);
  logic              a_rsv_valid, a_rsv_ready, rsv_pick_ctx, rsv_ctx_turn_q;
  logic              q_wr_head, c_free;
  logic [LinesW-1:0] a_rsv_lines;
  logic              c_rsv_valid, c_rsv_ready, c_refund_valid;
  logic [6:0]        c_rsv_lines, c_refund_lines;
  logic              a_refund_valid;
  logic [LinesW-1:0] a_refund_lines;
  logic [BackW-1:0]  rf_back_q;
  logic [6:0]        rf_drain;

  assign rsv_pick_ctx = !rsv_valid || rsv_ctx_turn_q;
  assign a_rsv_valid  = rsv_pick_ctx ? c_rsv_valid : rsv_valid;
  assign a_rsv_lines  = rsv_pick_ctx ? LinesW'(c_rsv_lines) : rsv_lines;
  assign rsv_ready    = a_rsv_ready && !rsv_pick_ctx;
  assign c_rsv_ready  = a_rsv_ready && rsv_pick_ctx;

  assign rf_drain       = refund_valid ? 7'd0 :
                          (rf_back_q > BackW'(64)) ? 7'd64 : 7'(rf_back_q);
  assign a_refund_valid = refund_valid || (rf_drain != '0);
  assign a_refund_lines = refund_valid ? LinesW'(refund_lines) : LinesW'(rf_drain);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rsv_ctx_turn_q <= 1'b0;
      rf_back_q      <= '0;
    end else begin
      // The contexts' queue offers its head only when they can take it (valid follows ready),
      // so "the contexts lost" is judged on a head waiting with a context free, not on their
      // valid: otherwise a busy dispatch takes every admission and served WRITEs starve.
      if (!(q_wr_head && c_free) || c_rsv_ready) rsv_ctx_turn_q <= 1'b0;
      else if (a_rsv_ready) rsv_ctx_turn_q <= 1'b1;
      rf_back_q <= rf_back_q + (c_refund_valid ? BackW'(c_refund_lines) : '0) - BackW'(rf_drain);
    end
  end

  onerma_window_alloc #(.Lines(WindowLines), .AdmitLines(64), .MaxOpLines(64)) u_alloc (
    .clk_i, .rst_ni,
    .rsv_valid_i   (a_rsv_valid),
    .rsv_ready_o   (a_rsv_ready),
    .rsv_lines_i   (a_rsv_lines),
    .refund_valid_i(a_refund_valid),
    .refund_lines_i(a_refund_lines),
    .take_valid_i  (take_valid),
    .take_ready_o  (take_ready),
    .take_line_o   (take_line),
    .rel_valid_i   (rel_valid),
    .rel_line_i    (rel_line),
    .credit_o      (),
    .idle_o        ()
  );

  logic                 arm;
  logic [SlotWidth-1:0] arm_slot;
  logic [TimeWidth-1:0] arm_deadline;
  logic                 rq_job_valid, rq_job_ready;
  hdr_t                 rq_job_hdr;
  logic [127:0]         rq_job_key;
  logic [SlotWidth-1:0] rq_job_meta;

  onerma_ini_req #(.NumSlots(NumSlots), .TimeWidth(TimeWidth)) u_ini_req (
    .clk_i, .rst_ni,
    .op_timeout_i  (TimeWidth'(op_timeout)),
    .acc_fire_i    (acc_valid),
    .acc_slot_i    (acc_slot),
    .acc_cmd_i     (acc_cmd),
    .acc_pid_i     (acc_pid),
    .disp_i        (disp),
    .disp_room_o   (disp_room),
    .disp_slot_i   (disp_slot),
    .disp_time_i   (disp_time),
    .arm_o         (arm),
    .arm_slot_o    (arm_slot),
    .arm_deadline_o(arm_deadline),
    .job_valid_o   (rq_job_valid),
    .job_ready_i   (rq_job_ready),
    .job_hdr_o     (rq_job_hdr),
    .job_key_o     (rq_job_key),
    .job_meta_o    (rq_job_meta)
  );

  logic                 tmr_arm;
  logic [SlotWidth-1:0] tmr_slot;
  logic [TimeWidth-1:0] tmr_deadline;
  logic                 to_valid;
  logic [SlotWidth-1:0] to_slot;

  onerma_op_timer #(.NumSlots(NumSlots), .TimeWidth(TimeWidth)) u_timer (
    .clk_i, .rst_ni,
    .now_i        (now),
    .arm_i        (tmr_arm),
    .disarm_i     (1'b0),
    .wr_slot_i    (tmr_slot),
    .wr_deadline_i(tmr_deadline),
    .to_valid_o   (to_valid),
    .to_ready_i   (1'b1),
    .to_slot_o    (to_slot)
  );

  // ---------------------------------------------------------------------------------------
  // Transmit: one sealer for every message; its jobs from the request builder (no payload)
  // and the WR_DATA sender (payload from the host DMA read).
  // ---------------------------------------------------------------------------------------
  logic                 wd_job_valid, wd_job_ready;
  hdr_t                 wd_job_hdr;
  logic [127:0]         wd_job_key;
  logic [SlotWidth+ChunkIndexBits-1:0] wd_job_meta;
  logic                 wd_pay_valid, wd_pay_ready, wd_pay_last, wd_pay_err;
  logic [DataWidth-1:0] wd_pay_data;

  // The responder's job sources: replies of the request checks (no payload) and RD_RESP
  // chunks of served READs (payload from the host DMA read).
  logic                 rr_job_valid, rr_job_ready;
  hdr_t                 rr_job_hdr;
  logic [127:0]         rr_job_key;
  logic                 rd_job_valid, rd_job_ready;
  hdr_t                 rd_job_hdr;
  logic [127:0]         rd_job_key;
  logic [ChunkIndexBits-1:0] rd_job_meta;
  logic                 rd_pay_valid, rd_pay_ready, rd_pay_last, rd_pay_err;
  logic [DataWidth-1:0] rd_pay_data;
  logic                 rd_idle;
  logic                 wd_fail, wd_done;  // the WR_DATA sender's outcome (declared before use)

  // The write contexts' jobs: WR_RDREQ and WR_CMPL (no payload).
  logic                 cj_valid, cj_ready;
  hdr_t                 cj_hdr;
  logic [127:0]         cj_key;
  logic [CtxW:0]        cj_meta;

  // Five job sources, round-robin per job: 0 request builder, 1 WR_DATA sender, 2 request-check
  // replies, 3 READ server, 4 write contexts. The payload sources (1, 3) share the DMA read
  // block's one in-order read data stream, so a payload job is taken only from the source that
  // holds the payload lock (or any when it is free); the lock is taken with the job and held
  // until that source's op ends (`wd_done`) or, for the READ server, which holds several READs
  // and reads ahead across them, until it is idle; it issues reads only under the lock and takes
  // no new READ while the WR_DATA sender waits for the lock (`yield`). So at most one source has
  // reads in flight and the sealer never waits for payload stuck behind another source's data.
  // A picked job stays offered until taken.
  localparam int unsigned NumSrc = 5;
  localparam logic [2:0] SrcReq = 3'd0, SrcWd = 3'd1, SrcRep = 3'd2, SrcRd = 3'd3, SrcCtx = 3'd4;
  typedef enum logic [1:0] {LockNone, LockWd, LockRd} lock_e;

  logic                 sj_valid, sj_ready, sj_fire, sj_hold_q, sj_any;
  logic [2:0]           sj_pick, sj_rr, sj_pick_q, sj_ptr_q;
  logic [NumSrc-1:0]    sj_elig;
  lock_e                lock_q;
  hdr_t                 sj_hdr;
  logic [127:0]         sj_key;
  logic [SealMetaW-1:0] sj_meta;

  assign sj_elig = {cj_valid,
                    rd_job_valid && (lock_q != LockWd),
                    rr_job_valid,
                    wd_job_valid && (lock_q != LockRd),
                    rq_job_valid};

  onerma_rr_pick #(.N(NumSrc)) u_sj_pick (
    .req_i(sj_elig), .ptr_i(sj_ptr_q), .valid_o(sj_any), .idx_o(sj_rr)
  );

  assign sj_pick  = sj_hold_q ? sj_pick_q : sj_rr;
  assign sj_valid = sj_hold_q || sj_any;
  assign sj_fire  = sj_valid && sj_ready;

  always_comb begin
    unique case (sj_pick)
      SrcReq:  begin sj_hdr = rq_job_hdr; sj_key = rq_job_key;
                     sj_meta = {SrcReq, IdxW'(rq_job_meta), 2'b00}; end
      SrcWd:   begin sj_hdr = wd_job_hdr; sj_key = wd_job_key;
                     sj_meta = {SrcWd, SealLowW'(wd_job_meta)}; end
      SrcRep:  begin sj_hdr = rr_job_hdr; sj_key = rr_job_key; sj_meta = {SrcRep, SealLowW'(0)}; end
      SrcRd:   begin sj_hdr = rd_job_hdr; sj_key = rd_job_key;
                     sj_meta = {SrcRd, IdxW'(0), 2'(rd_job_meta)}; end
      // The kind (0 WR_RDREQ, 1 WR_CMPL) rides in the chunk field: `sent` needs it.
      default: begin sj_hdr = cj_hdr; sj_key = cj_key;
                     sj_meta = {SrcCtx, IdxW'(cj_meta[CtxW-1:0]), 1'b0, cj_meta[CtxW]}; end
    endcase
  end

  assign rq_job_ready = sj_fire && (sj_pick == SrcReq);
  assign wd_job_ready = sj_fire && (sj_pick == SrcWd);
  assign rr_job_ready = sj_fire && (sj_pick == SrcRep);
  assign rd_job_ready = sj_fire && (sj_pick == SrcRd);
  assign cj_ready     = sj_fire && (sj_pick == SrcCtx);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      sj_hold_q <= 1'b0;
      sj_pick_q <= SrcReq;
      sj_ptr_q  <= SrcReq;
      lock_q    <= LockNone;
    end else begin
      sj_hold_q <= sj_valid && !sj_ready;
      sj_pick_q <= sj_pick;
      if (sj_fire) sj_ptr_q <= (sj_pick == 3'(NumSrc - 1)) ? 3'd0 : sj_pick + 3'd1;
      if ((lock_q == LockWd && wd_done) || (lock_q == LockRd && rd_idle)) begin
        lock_q <= LockNone;
      end else if (sj_fire && lock_q == LockNone && sj_pick == SrcWd) begin
        lock_q <= LockWd;
      end else if (sj_fire && lock_q == LockNone && sj_pick == SrcRd) begin
        lock_q <= LockRd;
      end
    end
  end

  // The sealer's payload: from the source holding the lock.
  logic                 sp_valid, sp_ready, sp_last, sp_err;
  logic [DataWidth-1:0] sp_data;

  assign sp_valid     = (lock_q == LockWd) ? wd_pay_valid : (lock_q == LockRd) && rd_pay_valid;
  assign sp_data      = (lock_q == LockRd) ? rd_pay_data : wd_pay_data;
  assign sp_last      = (lock_q == LockRd) ? rd_pay_last : wd_pay_last;
  assign sp_err       = (lock_q == LockRd) ? rd_pay_err : wd_pay_err;
  assign wd_pay_ready = sp_ready && (lock_q == LockWd);
  assign rd_pay_ready = sp_ready && (lock_q == LockRd);

  logic                 asg_valid;
  logic [SealMetaW-1:0] asg_meta;
  logic [63:0]          asg_counter;
  logic                 seal_drop;
  logic [SealMetaW-1:0] seal_drop_meta;
  logic                 seal_sent;
  logic [SealMetaW-1:0] seal_sent_meta;
  logic                 exhausted;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) msg_count_q <= '0;
    else if (asg_valid) msg_count_q <= asg_counter;
  end

  logic   [3:0] g_desc_valid, g_desc_ready, g_din_valid, g_din_ready;
  logic   [3:0] g_dout_valid, g_dout_ready, g_res_valid, g_res_ready;
  cdesc_t [3:0] g_desc;
  gword_t [3:0] g_din;
  cdout_t       g_dout;
  cres_t        g_res;

  onerma_seal #(
    .DataWidth   (DataWidth),
    .NumStage    (SealStages),
    .MetaWidth   (SealMetaW),
    .GcmMetaWidth(GMetaW),
    .LenW        (LenW),
    .Lanes       (GLanes),
    .desc_t      (cdesc_t),
    .wdin_t      (gword_t),
    .dout_t      (cdout_t),
    .res_t       (cres_t)
  ) u_seal (
    .clk_i, .rst_ni,
    .nic_addr_i   (nic_addr),
    .epoch_i      (epoch),
    .ctr_reset_i  (epoch_written),
    .exhausted_o  (exhausted),
    .job_valid_i  (sj_valid),
    .job_ready_o  (sj_ready),
    .job_hdr_i    (sj_hdr),
    .job_key_i    (sj_key),
    .job_meta_i   (sj_meta),
    .pay_valid_i  (sp_valid),
    .pay_ready_o  (sp_ready),
    .pay_data_i   (sp_data),
    .pay_last_i   (sp_last),
    .pay_err_i    (sp_err),
    .asg_valid_o  (asg_valid),
    .asg_meta_o   (asg_meta),
    .asg_counter_o(asg_counter),
    .drop_o       (seal_drop),
    .drop_meta_o  (seal_drop_meta),
    .sent_valid_o (seal_sent),
    .sent_meta_o  (seal_sent_meta),
    .desc_valid_o (g_desc_valid[0]),
    .desc_ready_i (g_desc_ready[0]),
    .desc_data_o  (g_desc[0]),
    .din_valid_o  (g_din_valid[0]),
    .din_ready_i  (g_din_ready[0]),
    .din_data_o   (g_din[0]),
    .dout_valid_i (g_dout_valid[0]),
    .dout_ready_o (g_dout_ready[0]),
    .dout_data_i  (g_dout),
    .res_valid_i  (g_res_valid[0]),
    .res_ready_o  (g_res_ready[0]),
    .res_data_i   (g_res),
    .m_axis_tvalid(m_axis_tx_tvalid_o),
    .m_axis_tready(m_axis_tx_tready_i),
    .m_axis_tdata (m_axis_tx_tdata_o),
    .m_axis_tkeep (m_axis_tx_tkeep_o),
    .m_axis_tlast (m_axis_tx_tlast_o)
  );

  // ---------------------------------------------------------------------------------------
  // Receive edge, op table, opener.
  // ---------------------------------------------------------------------------------------
  logic                 ih_valid, ih_ready;
  hdr_t                 ih_hdr;
  logic [127:0]         ih_tag;
  logic [TimeWidth-1:0] ih_t_rx;
  logic                 ip_valid, ip_ready, ip_last;
  logic [DataWidth-1:0] ip_data;
  logic                 rh_valid, rh_ready;
  hdr_t                 rh_hdr;
  logic [127:0]         rh_tag;
  logic [TimeWidth-1:0] rh_t_rx;
  logic                 rp_valid, rp_ready, rp_last;
  logic [DataWidth-1:0] rp_data;
  logic                 drop_malformed, drop_misaddressed;
  logic [TimeWidth-1:0] rx_judged;

  onerma_rx_parse #(.DataWidth(DataWidth), .TimeWidth(TimeWidth)) u_rx (
    .clk_i, .rst_ni,
    .nic_addr_i         (nic_addr),
    .enable_i           (nic_enable),
    .now_i              (now),
    .s_axis_rx_tvalid_i, .s_axis_rx_tready_o, .s_axis_rx_tdata_i, .s_axis_rx_tkeep_i,
    .s_axis_rx_tlast_i,
    .ini_desc_valid_o   (ih_valid),
    .ini_desc_ready_i   (ih_ready),
    .ini_desc_hdr_o     (ih_hdr),
    .ini_desc_tag_o     (ih_tag),
    .ini_desc_t_rx_o    (ih_t_rx),
    .ini_pay_valid_o    (ip_valid),
    .ini_pay_ready_i    (ip_ready),
    .ini_pay_data_o     (ip_data),
    .ini_pay_keep_o     (),
    .ini_pay_last_o     (ip_last),
    .rsp_desc_valid_o   (rh_valid),
    .rsp_desc_ready_i   (rh_ready),
    .rsp_desc_hdr_o     (rh_hdr),
    .rsp_desc_tag_o     (rh_tag),
    .rsp_desc_t_rx_o    (rh_t_rx),
    // Only WR_DATA carries payload to the responder: the write contexts pass or drain it.
    .rsp_pay_valid_o    (rp_valid),
    .rsp_pay_ready_i    (rp_ready),
    .rsp_pay_data_o     (rp_data),
    .rsp_pay_keep_o     (),
    .rsp_pay_last_o     (rp_last),
    .drop_malformed_o   (drop_malformed),
    .drop_misaddressed_o(drop_misaddressed),
    .judged_o           (rx_judged)
  );

  logic                 op_job_valid, op_job_ready;
  hdr_t                 op_job_hdr;
  logic [127:0]         op_job_tag, op_job_key;
  logic [OpsMetaW-1:0]  op_job_meta;
  logic                 opay_valid, opay_ready;
  logic                 uw_valid, uw_ready, uw_read, uw_done;
  logic [SlotWidth-1:0] uw_slot, uw_done_slot;
  logic [ChunkIndexBits-1:0] uw_chunk, uw_done_chunk;
  logic                 hw_valid, hw_ready, hw_rsp_valid, hw_rsp_ok;
  logic [63:0]          hw_addr;
  logic [12:0]          hw_len;
  logic [15:0]          hw_region, hw_gen;
  logic [HwTagW-1:0]    hw_tag, hw_rsp_tag;
  logic                 wds_valid, wds_ready;
  logic [SlotWidth-1:0] wds_slot;
  logic [63:0]          wds_counter;
  logic [15:0]          wds_ctx;
  logic [SlotWidth-1:0] wd_fail_slot, wd_done_slot;
  logic [NumSlots-1:0]  ops_live;
  logic                 rec_valid, rec_ready, rec_dispatched;
  logic [SlotWidth-1:0] rec_slot;
  status_e              rec_status;
  logic [7:0]           rec_op_type;
  logic [15:0]          rec_seq, rec_cq_region, rec_cq_gen;
  logic [TimeWidth-1:0] rec_t_sub, rec_t_disp;
  logic [63:0]          rec_cq_addr;
  logic                 recd_valid, recd_ok;
  logic [SlotWidth-1:0] recd_slot;
  logic [1:0]           drop_stale;
  logic                 drop_dup, drop_auth, drop_hold;
  logic                 err_cq_write;

  onerma_ini_ops #(.NumSlots(NumSlots), .TimeWidth(TimeWidth)) u_ops (
    .clk_i, .rst_ni,
    .op_timeout_i    (TimeWidth'(op_timeout)),
    .max_hold_ns_i   (max_hold_ns),
    .clk_period_ps_i (clk_period_ps),
    .acc_valid_i     (acc_valid),
    .acc_ready_o     (),
    .acc_slot_i      (acc_slot),
    .acc_seq_i       (acc_seq),
    .acc_status_i    (acc_status),
    .acc_cmd_i       (acc_cmd),
    .acc_pid_i       (acc_pid),
    .acc_t_sub_i     (acc_t_sub),
    .acc_cq_addr_i   (acc_cq_addr),
    .acc_cq_gen_i    (acc_cq_gen),
    .acc_local_addr_i(acc_local_addr),
    .acc_local_gen_i (acc_local_gen),
    .exp_valid_i     (exp_valid),
    .exp_ready_o     (),
    .exp_slot_i      (exp_slot),
    .arm_i           (arm),
    .arm_slot_i      (arm_slot),
    .arm_deadline_i  (arm_deadline),
    .asg_i           (asg_valid && (asg_meta[SealMetaW-1 -: 3] == SrcReq)),
    .asg_slot_i      (asg_meta[SlotWidth+1:2]),
    .asg_counter_i   (asg_counter),
    .req_drop_i      (seal_drop && (seal_drop_meta[SealMetaW-1 -: 3] == SrcReq)),
    .req_drop_slot_i (seal_drop_meta[SlotWidth+1:2]),
    .hdr_valid_i     (ih_valid),
    .hdr_ready_o     (ih_ready),
    .hdr_i           (ih_hdr),
    .hdr_tag_i       (ih_tag),
    .hdr_t_rx_i      (ih_t_rx),
    .pay_valid_i     (ip_valid),
    .pay_ready_o     (ip_ready),
    .pay_last_i      (ip_last),
    .opay_valid_o    (opay_valid),
    .opay_ready_i    (opay_ready),
    .job_valid_o     (op_job_valid),
    .job_ready_i     (op_job_ready),
    .job_hdr_o       (op_job_hdr),
    .job_tag_o       (op_job_tag),
    .job_key_o       (op_job_key),
    .job_meta_o      (op_job_meta),
    .res_valid_i     (g_res_valid[1]),
    .res_ready_o     (g_res_ready[1]),
    .res_ok_i        (g_res.auth_ok),
    .res_meta_i      (g_res.meta),
    .uw_valid_o      (uw_valid),
    .uw_ready_i      (uw_ready),
    .uw_slot_o       (uw_slot),
    .uw_chunk_o      (uw_chunk),
    .uw_read_o       (uw_read),
    .uw_done_i       (uw_done),
    .uw_done_slot_i  (uw_done_slot),
    .uw_done_chunk_i (uw_done_chunk),
    .hw_valid_o      (hw_valid),
    .hw_ready_i      (hw_ready),
    .hw_addr_o       (hw_addr),
    .hw_len_o        (hw_len),
    .hw_region_o     (hw_region),
    .hw_gen_o        (hw_gen),
    .hw_tag_o        (hw_tag),
    .hw_rsp_valid_i  (hw_rsp_valid),
    .hw_rsp_ready_o  (),
    .hw_rsp_tag_i    (hw_rsp_tag),
    .hw_rsp_ok_i     (hw_rsp_ok),
    .to_valid_i      (to_valid),
    .to_ready_o      (),
    .to_slot_i       (to_slot),
    .tmr_arm_o       (tmr_arm),
    .tmr_slot_o      (tmr_slot),
    .tmr_deadline_o  (tmr_deadline),
    .wds_valid_o     (wds_valid),
    .wds_ready_i     (wds_ready),
    .wds_slot_o      (wds_slot),
    .wds_counter_o   (wds_counter),
    .wds_ctx_o       (wds_ctx),
    .wd_fail_i       (wd_fail),
    .wd_fail_slot_i  (wd_fail_slot),
    .wd_done_i       (wd_done),
    .wd_done_slot_i  (wd_done_slot),
    .live_o          (ops_live),
    .rec_valid_o     (rec_valid),
    .rec_ready_i     (rec_ready),
    .rec_slot_o      (rec_slot),
    .rec_status_o    (rec_status),
    .rec_op_type_o   (rec_op_type),
    .rec_seq_o       (rec_seq),
    .rec_t_sub_o     (rec_t_sub),
    .rec_t_disp_o    (rec_t_disp),
    .rec_dispatched_o(rec_dispatched),
    .rec_cq_addr_o   (rec_cq_addr),
    .rec_cq_region_o (rec_cq_region),
    .rec_cq_gen_o    (rec_cq_gen),
    .recd_valid_i    (recd_valid),
    .recd_ready_o    (),
    .recd_slot_i     (recd_slot),
    .free_o          (free),
    .free_slot_o     (free_slot),
    .refund_valid_o  (refund_valid),
    .refund_lines_o  (refund_lines),
    .drop_stale_o    (drop_stale),
    .drop_dup_o      (drop_dup),
    .drop_auth_o     (drop_auth),
    .drop_hold_o     (drop_hold)
  );

  onerma_open #(
    .DataWidth (DataWidth),
    .MetaWidth (GMetaW),
    .StageBeats((DataWidth >= 512 ? 2 : 1) * ChunkBytes / 16),
    .LenW      (LenW),
    .Lanes     (GLanes),
    .desc_t    (cdesc_t),
    .wdin_t    (gword_t)
  ) u_open (
    .clk_i, .rst_ni,
    .job_valid_i (op_job_valid),
    .job_ready_o (op_job_ready),
    .job_hdr_i   (op_job_hdr),
    .job_tag_i   (op_job_tag),
    .job_key_i   (op_job_key),
    .job_meta_i  (op_job_meta),
    .pay_valid_i (opay_valid),
    .pay_ready_o (opay_ready),
    .pay_data_i  (ip_data),
    .pay_last_i  (ip_last),
    .desc_valid_o(g_desc_valid[1]),
    .desc_ready_i(g_desc_ready[1]),
    .desc_data_o (g_desc[1]),
    .din_valid_o (g_din_valid[1]),
    .din_ready_i (g_din_ready[1]),
    .din_data_o  (g_din[1])
  );

  // ---------------------------------------------------------------------------------------
  // The GCM engine pool, shared by the sealer (client 0), the initiator's opener (client 1),
  // the request checks' opener (client 2) and the write contexts' opener (client 3).
  // ---------------------------------------------------------------------------------------
  logic   p_desc_valid, p_desc_ready, p_din_valid, p_din_ready;
  logic   p_dout_valid, p_dout_ready, p_res_valid, p_res_ready;
  pdesc_t p_desc;
  gword_t p_din;
  pdout_t p_dout;
  pres_t  p_res;

  onerma_gcm_mux #(
    .NumClients(4), .LenW(LenW), .MetaW(GMetaW), .Lanes(GLanes),
    .cdesc_t(cdesc_t), .pdesc_t(pdesc_t), .wdin_t(gword_t), .cdout_t(cdout_t), .pdout_t(pdout_t),
    .cres_t(cres_t), .pres_t(pres_t)
  ) u_gmux (
    .clk_i, .rst_ni,
    .c_desc_valid_i(g_desc_valid),
    .c_desc_ready_o(g_desc_ready),
    .c_desc_data_i (g_desc),
    .c_din_valid_i (g_din_valid),
    .c_din_ready_o (g_din_ready),
    .c_din_data_i  (g_din),
    .c_dout_valid_o(g_dout_valid),
    .c_dout_ready_i(g_dout_ready),
    .c_dout_data_o (g_dout),
    .c_res_valid_o (g_res_valid),
    .c_res_ready_i (g_res_ready),
    .c_res_data_o  (g_res),
    .p_desc_valid_o(p_desc_valid),
    .p_desc_ready_i(p_desc_ready),
    .p_desc_data_o (p_desc),
    .p_din_valid_o (p_din_valid),
    .p_din_ready_i (p_din_ready),
    .p_din_data_o  (p_din),
    .p_dout_valid_i(p_dout_valid),
    .p_dout_ready_o(p_dout_ready),
    .p_dout_data_i (p_dout),
    .p_res_valid_i (p_res_valid),
    .p_res_ready_o (p_res_ready),
    .p_res_data_i  (p_res)
  );

  onerma_gcm_pool #(
    .NumEngines(NumEngines),
    .Pipelined (Pipelined),
    .NumStages (GcmStages),
    .LenW      (LenW),
    .InDepth   (GcmInDepth),
    .Lanes     (GLanes),
    .WordDepth (GWordDepth),
    .meta_t    (pmeta_t),
    .desc_t    (pdesc_t),
    .dout_t    (edout_t),
    .res_t     (pres_t),
    .wdin_t    (gword_t),
    .wdout_t   (pdout_t)
  ) u_pool (
    .clk_i, .rst_ni,
    .desc_valid_i(p_desc_valid),
    .desc_ready_o(p_desc_ready),
    .desc_data_i (p_desc),
    .din_valid_i (p_din_valid),
    .din_ready_o (p_din_ready),
    .din_data_i  (p_din),
    .dout_valid_o(p_dout_valid),
    .dout_ready_i(p_dout_ready),
    .dout_data_o (p_dout),
    .res_valid_o (p_res_valid),
    .res_ready_i (p_res_ready),
    .res_data_o  (p_res)
  );

  // ---------------------------------------------------------------------------------------
  // Window: owners 0..NumSlots-1 are the initiator's slots, NumSlots + c the write context c.
  // The openers' plaintext lands (the pool gives one dout beat a cycle, to one client); the op
  // table and the write contexts unwind; read-outs feed host writes or, for a REKEY, the key
  // install.
  // ---------------------------------------------------------------------------------------
  logic                 wout_valid, wout_ready, wout_last;
  logic [DataWidth-1:0] wout_data;
  logic                 w_land_valid, w_land_ready, land_ctx;
  logic [OwnW-1:0]      land_owner;
  logic [ChunkIndexBits-1:0] land_chunk;

  assign land_ctx        = g_dout_valid[3];
  assign w_land_valid    = g_dout_valid[1] || g_dout_valid[3];
  assign land_owner      = land_ctx ? OwnW'(NumSlots) + OwnW'(g_dout.meta[CtxW-1:0])
                                    : OwnW'(g_dout.meta[SlotWidth-1:0]);
  assign land_chunk      = land_ctx ? g_dout.meta[CtxW+ChunkIndexBits-1:CtxW]
                                    : g_dout.meta[SlotWidth+ChunkIndexBits-1:SlotWidth];
  assign g_dout_ready[1] = w_land_ready;
  assign g_dout_ready[3] = w_land_ready;

  // Unwinds: the op table's and the write contexts', alternating when both wait. Each read-out
  // is recorded in two order FIFOs, for its host-write request (`rqr`) and for its data
  // (`rdr`): both leave in read-out order, the requests ahead of the data.
  logic                 cuw_valid, cuw_ready, cuw_read, cuw_rekey, cuw_done;
  logic [CtxW-1:0]      cuw_ctx, cuw_done_ctx;
  logic [ChunkIndexBits-1:0] cuw_chunk;
  logic                 w_uw_valid, w_uw_ready, w_uw_read, w_uw_fire, w_uw_done;
  logic [OwnW-1:0]      w_uw_owner, w_uw_done_owner;
  logic [ChunkIndexBits-1:0] w_uw_chunk, w_uw_done_chunk;
  logic                 uw_pick_ctx, uw_last_ctx_q, route_ready;
  logic                 rqr_in_ready, rqr_valid, rqr_ctx, rqr_pop;
  logic                 rdr_in_ready, rdr_valid, rdr_ins, rdr_pop;

  assign uw_pick_ctx = cuw_valid && (!uw_valid || !uw_last_ctx_q);
  assign route_ready = rqr_in_ready && rdr_in_ready;
  assign w_uw_valid  = (uw_valid || cuw_valid) && route_ready;
  assign w_uw_owner  = uw_pick_ctx ? OwnW'(NumSlots) + OwnW'(cuw_ctx) : OwnW'(uw_slot);
  assign w_uw_chunk  = uw_pick_ctx ? cuw_chunk : uw_chunk;
  assign w_uw_read   = uw_pick_ctx ? cuw_read : uw_read;
  assign w_uw_fire   = w_uw_valid && w_uw_ready;
  assign uw_ready    = w_uw_ready && route_ready && !uw_pick_ctx;
  assign cuw_ready   = w_uw_ready && route_ready && uw_pick_ctx;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) uw_last_ctx_q <= 1'b0;
    else if (w_uw_fire) uw_last_ctx_q <= uw_pick_ctx;
  end

  onerma_fifo #(.Width(1), .Depth(8)) u_rqr (
    .clk_i, .rst_ni, .flush_i(1'b0),
    .in_valid_i(w_uw_fire && w_uw_read), .in_ready_o(rqr_in_ready), .in_data_i(uw_pick_ctx),
    .out_valid_o(rqr_valid), .out_ready_i(rqr_pop), .out_data_o(rqr_ctx), .count_o()
  );
  onerma_fifo #(.Width(1), .Depth(8)) u_rdr (
    .clk_i, .rst_ni, .flush_i(1'b0),
    .in_valid_i(w_uw_fire && w_uw_read), .in_ready_o(rdr_in_ready),
    .in_data_i(uw_pick_ctx && cuw_rekey),
    .out_valid_o(rdr_valid), .out_ready_i(rdr_pop), .out_data_o(rdr_ins), .count_o()
  );

  assign uw_done         = w_uw_done && (w_uw_done_owner < OwnW'(NumSlots));
  assign uw_done_slot    = SlotWidth'(w_uw_done_owner);
  assign uw_done_chunk   = w_uw_done_chunk;
  assign cuw_done        = w_uw_done && (w_uw_done_owner >= OwnW'(NumSlots));
  assign cuw_done_ctx    = CtxW'(w_uw_done_owner - OwnW'(NumSlots));

  onerma_window #(
    .Lines(WindowLines), .NumOwners(NumOwners), .DataWidth(DataWidth), .LandLanes(GLanes)
  ) u_window (
    .clk_i, .rst_ni,
    .land_valid_i   (w_land_valid),
    .land_ready_o   (w_land_ready),
    .land_owner_i   (land_owner),
    .land_chunk_i   (land_chunk),
    .land_data_i    (g_dout.data),
    .take_valid_o   (take_valid),
    .take_ready_i   (take_ready),
    .take_line_i    (take_line),
    .rel_valid_o    (rel_valid),
    .rel_line_o     (rel_line),
    .uw_valid_i     (w_uw_valid),
    .uw_ready_o     (w_uw_ready),
    .uw_owner_i     (w_uw_owner),
    .uw_chunk_i     (w_uw_chunk),
    .uw_read_i      (w_uw_read),
    .uw_done_o      (w_uw_done),
    .uw_done_owner_o(w_uw_done_owner),
    .uw_done_chunk_o(w_uw_done_chunk),
    .out_valid_o    (wout_valid),
    .out_ready_i    (wout_ready),
    .out_data_o     (wout_data),
    .out_last_o     (wout_last)
  );

  // Host-write requests in read-out order: the head of `rqr` names the side whose request is
  // next (each side's requests are already in its own unwind order). The initiator lands READ
  // data with perm_local_write, a write context writes with perm_remote_write.
  logic                 chw_valid, chw_ready, chw_rsp_valid;
  logic [63:0]          chw_addr;
  logic [12:0]          chw_len;
  logic [15:0]          chw_region, chw_gen;
  logic [CtxTagW-1:0]   chw_tag, chw_rsp_tag;
  logic                 m_hw_valid, m_hw_ready;
  logic [63:0]          m_hw_addr;
  logic [12:0]          m_hw_len;
  logic [15:0]          m_hw_region, m_hw_gen;
  logic [4:0]           m_hw_perm;
  logic [DmaTagW-1:0]   m_hw_tag;
  logic                 cins_valid, cins_ready, ins_fire;
  logic [CtxW-1:0]      cins_ctx;

  assign m_hw_valid  = rqr_valid && (rqr_ctx ? chw_valid : hw_valid);
  assign m_hw_addr   = rqr_ctx ? chw_addr : hw_addr;
  assign m_hw_len    = rqr_ctx ? chw_len : hw_len;
  assign m_hw_region = rqr_ctx ? chw_region : hw_region;
  assign m_hw_gen    = rqr_ctx ? chw_gen : hw_gen;
  assign m_hw_perm   = rqr_ctx ? 5'b01000 : 5'b00001;
  assign m_hw_tag    = rqr_ctx ? {1'b1, (DmaTagW-1)'(chw_tag)} : {1'b0, (DmaTagW-1)'(hw_tag)};
  assign hw_ready    = m_hw_ready && rqr_valid && !rqr_ctx;
  assign chw_ready   = m_hw_ready && rqr_valid && rqr_ctx;
  assign rqr_pop     = (m_hw_valid && m_hw_ready) || ins_fire;

  // Read-out data: to the host-write client, or a REKEY's to the key install.
  logic dw_wd_valid, dw_wd_ready, ins_first_q, ins_take;
  assign dw_wd_valid = wout_valid && rdr_valid && !rdr_ins;
  assign wout_ready  = rdr_valid && (rdr_ins ? ins_take : dw_wd_ready);
  assign rdr_pop     = wout_valid && wout_ready && wout_last;

  // REKEY install (§8.6, S5): the read-out's first 16 bytes are the new K_r (byte 0 in bits
  // [7:0] on the read-out, in bits [127:120] as a key). Its install request is at the head of
  // `rqr` by then: every earlier read-out's request left before that read-out's data did. The
  // table compares and writes in the handshake cycle, and `inst_ok` is the context's answer.
  assign inst_valid = wout_valid && rdr_valid && rdr_ins && ins_first_q &&
                      rqr_valid && rqr_ctx && cins_valid;
  assign ins_fire   = inst_valid && inst_ready;
  assign cins_ready = ins_fire;
  assign ins_take   = ins_first_q ? ins_fire : 1'b1;
  for (genvar gb = 0; gb < 16; gb++) begin : g_inst_key
    assign inst_key[127 - 8 * gb -: 8] = wout_data[8 * gb +: 8];
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) ins_first_q <= 1'b1;
    else if (wout_valid && wout_ready && rdr_ins) ins_first_q <= wout_last;
  end

  // ---------------------------------------------------------------------------------------
  // Completion records.
  // ---------------------------------------------------------------------------------------
  logic [1:0]                dw_rsp_valid, dw_rsp_ready;
  logic [1:0][DmaTagW-1:0]   dw_rsp_tag;
  dma_status_e [1:0]         dw_rsp_status;
  logic                 cq_req_valid, cq_req_ready, cq_wd_valid, cq_wd_ready, cq_wd_last;
  logic [63:0]          cq_req_addr;
  logic [12:0]          cq_req_len;
  logic [15:0]          cq_req_region, cq_req_gen;
  logic [4:0]           cq_req_perm;
  logic [DmaTagW-1:0]   cq_req_tag;
  logic [DataWidth-1:0] cq_wd_data;

  onerma_ini_cpl #(
    .NumSlots(NumSlots), .TimeWidth(TimeWidth), .DataWidth(DataWidth), .TagWidth(DmaTagW)
  ) u_cpl (
    .clk_i, .rst_ni,
    .now_i           (now),
    .job_valid_i     (rec_valid),
    .job_ready_o     (rec_ready),
    .job_slot_i      (rec_slot),
    .job_status_i    (rec_status),
    .job_op_type_i   (rec_op_type),
    .job_seq_i       (rec_seq),
    .job_t_sub_i     (rec_t_sub),
    .job_t_disp_i    (rec_t_disp),
    .job_dispatched_i(rec_dispatched),
    .job_cq_addr_i   (rec_cq_addr),
    .job_cq_region_i (rec_cq_region),
    .job_cq_gen_i    (rec_cq_gen),
    .req_valid_o     (cq_req_valid),
    .req_ready_i     (cq_req_ready),
    .req_addr_o      (cq_req_addr),
    .req_len_o       (cq_req_len),
    .req_region_o    (cq_req_region),
    .req_gen_o       (cq_req_gen),
    .req_perm_o      (cq_req_perm),
    .req_tag_o       (cq_req_tag),
    .wd_valid_o      (cq_wd_valid),
    .wd_ready_i      (cq_wd_ready),
    .wd_data_o       (cq_wd_data),
    .wd_last_o       (cq_wd_last),
    .rsp_valid_i     (dw_rsp_valid[1]),
    .rsp_ready_o     (dw_rsp_ready[1]),
    .rsp_tag_i       (dw_rsp_tag[1]),
    .rsp_status_i    (dw_rsp_status[1]),
    .done_valid_o    (recd_valid),
    .done_ready_i    (1'b1),
    .done_slot_o     (recd_slot),
    .done_ok_o       (recd_ok),
    .err_cq_write_o  (err_cq_write)
  );

  // ---------------------------------------------------------------------------------------
  // Host DMA: write block (client 0 landing data, client 1 records), read block (client 0
  // WR_DATA source); one RRT port shared between them.
  // ---------------------------------------------------------------------------------------
  logic                      dw_rrt_valid, dw_rrt_ready, dr_rrt_valid, dr_rrt_ready;
  logic [15:0]               dw_rrt_idx, dr_rrt_idx;
  logic                      dw_quiesce, dr_quiesce;
  logic                      rrt_last_rd_q, rrt_pick_rd;

  // Client 0's answers go to the side named by the tag's top bit.
  assign hw_rsp_valid  = dw_rsp_valid[0] && !dw_rsp_tag[0][DmaTagW-1];
  assign hw_rsp_tag    = dw_rsp_tag[0][HwTagW-1:0];
  assign chw_rsp_valid = dw_rsp_valid[0] && dw_rsp_tag[0][DmaTagW-1];
  assign chw_rsp_tag   = dw_rsp_tag[0][CtxTagW-1:0];
  assign hw_rsp_ok     = (dw_rsp_status[0] == DmaStatusOk);

  onerma_dma_wr #(
    .NumClients(2), .DataWidth(DataWidth), .AddrWidth(64), .IdWidth(MIdWidth),
    .MaxBurstBeats(MaxBurst), .MaxOutstanding(8), .TagWidth(DmaTagW), .RrtIdxWidth(16)
  ) u_dma_wr (
    .clk_i, .rst_ni,
    .req_valid_i    ({cq_req_valid, m_hw_valid}),
    .req_ready_o    ({cq_req_ready, m_hw_ready}),
    .req_addr_i     ({cq_req_addr, m_hw_addr}),
    .req_len_i      ({cq_req_len, m_hw_len}),
    .req_region_i   ({cq_req_region, m_hw_region}),
    .req_gen_i      ({cq_req_gen, m_hw_gen}),
    .req_perm_i     ({cq_req_perm, m_hw_perm}),
    .req_tag_i      ({cq_req_tag, m_hw_tag}),
    .wd_valid_i     ({cq_wd_valid, dw_wd_valid}),
    .wd_ready_o     ({cq_wd_ready, dw_wd_ready}),
    .wd_data_i      ({cq_wd_data, wout_data}),
    .wd_last_i      ({cq_wd_last, wout_last}),
    .rsp_valid_o    (dw_rsp_valid),
    .rsp_ready_i    ({dw_rsp_ready[1], 1'b1}),
    .rsp_tag_o      (dw_rsp_tag),
    .rsp_status_o   (dw_rsp_status),
    .rrt_valid_o    (dw_rrt_valid),
    .rrt_ready_i    (dw_rrt_ready),
    .rrt_idx_o      (dw_rrt_idx),
    .rrt_entry_i    (rrt_rd_entry[1]),
    .rrt_gen_i      (rrt_rd_gen[1]),
    .rrt_commit_i   (rrt_commit),
    .quiesce_o      (dw_quiesce),
    .m_axi_awvalid_o, .m_axi_awready_i, .m_axi_awid_o, .m_axi_awaddr_o, .m_axi_awlen_o,
    .m_axi_awsize_o, .m_axi_awburst_o, .m_axi_wvalid_o, .m_axi_wready_i, .m_axi_wdata_o,
    .m_axi_wstrb_o, .m_axi_wlast_o, .m_axi_bvalid_i, .m_axi_bready_o, .m_axi_bid_i,
    .m_axi_bresp_i
  );
  assign dw_rsp_ready[0] = 1'b1;

  // Client 0 the WR_DATA sender, client 1 the READ server.
  logic [1:0]                 dr_req_valid, dr_req_ready;
  logic [1:0][63:0]           dr_req_addr;
  logic [1:0][12:0]           dr_req_len;
  logic [1:0][15:0]           dr_req_region, dr_req_gen;
  logic [1:0][DmaTagW-1:0]    dr_req_tag;
  logic [1:0][4:0]            dr_req_perm;
  logic [1:0]                 dr_rd_valid, dr_rd_ready, dr_rd_last, dr_rd_err;
  logic [1:0][DataWidth-1:0]  dr_rd_data;
  logic [1:0]                 dr_rsp_valid, dr_rsp_ready;
  logic [1:0][DmaTagW-1:0]    dr_rsp_tag;
  dma_status_e [1:0]          dr_rsp_status;

  onerma_dma_rd #(
    .NumClients(2), .DataWidth(DataWidth), .AddrWidth(64), .IdWidth(MIdWidth),
    .MaxBurstBeats(MaxBurst), .MaxOutstanding(8), .TagWidth(DmaTagW), .RrtIdxWidth(16)
  ) u_dma_rd (
    .clk_i, .rst_ni,
    .req_valid_i    (dr_req_valid),
    .req_ready_o    (dr_req_ready),
    .req_addr_i     (dr_req_addr),
    .req_len_i      (dr_req_len),
    .req_region_i   (dr_req_region),
    .req_gen_i      (dr_req_gen),
    .req_perm_i     (dr_req_perm),
    .req_tag_i      (dr_req_tag),
    .rd_valid_o     (dr_rd_valid),
    .rd_ready_i     (dr_rd_ready),
    .rd_data_o      (dr_rd_data),
    .rd_last_o      (dr_rd_last),
    .rd_err_o       (dr_rd_err),
    .rsp_valid_o    (dr_rsp_valid),
    .rsp_ready_i    (dr_rsp_ready),
    .rsp_tag_o      (dr_rsp_tag),
    .rsp_status_o   (dr_rsp_status),
    .rrt_valid_o    (dr_rrt_valid),
    .rrt_ready_i    (dr_rrt_ready),
    .rrt_idx_o      (dr_rrt_idx),
    .rrt_entry_i    (rrt_rd_entry[1]),
    .rrt_gen_i      (rrt_rd_gen[1]),
    .rrt_commit_i   (rrt_commit),
    .quiesce_o      (dr_quiesce),
    .m_axi_arvalid_o, .m_axi_arready_i, .m_axi_arid_o, .m_axi_araddr_o, .m_axi_arlen_o,
    .m_axi_arsize_o, .m_axi_arburst_o, .m_axi_rvalid_i, .m_axi_rready_o, .m_axi_rid_i,
    .m_axi_rdata_i, .m_axi_rresp_i, .m_axi_rlast_i
  );

  // The shared RRT port: alternate when both ask (each block waits on its ready).
  assign rrt_pick_rd     = dr_rrt_valid && (!dw_rrt_valid || !rrt_last_rd_q);
  assign rrt_rd_valid[1] = dw_rrt_valid || dr_rrt_valid;
  assign rrt_rd_idx[1]   = rrt_pick_rd ? dr_rrt_idx : dw_rrt_idx;
  assign dw_rrt_ready    = !rrt_pick_rd;
  assign dr_rrt_ready    = rrt_pick_rd;
  assign rrt_quiesce     = dw_quiesce && dr_quiesce;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) rrt_last_rd_q <= 1'b0;
    else if (rrt_rd_valid[1]) rrt_last_rd_q <= rrt_pick_rd;
  end

  // ---------------------------------------------------------------------------------------
  // WRITE / REKEY data: per chunk a WR_DATA job for the sealer, then its read on the DMA read
  // block's client 0 streamed into the sealer's payload (the read only after its job).
  // ---------------------------------------------------------------------------------------
  logic                 wd_sent;
  logic [SlotWidth-1:0] wd_sent_slot;
  logic [ChunkIndexBits-1:0] wd_sent_chunk;
  dma_status_e          wd_fail_status;

  onerma_ini_wrdata #(
    .NumSlots (NumSlots),
    .DataWidth(DataWidth),
    .AddrWidth(64),
    .TagWidth (DmaTagW),
    .RrtIdxWidth(16)
  ) u_ini_wrdata (
    .clk_i, .rst_ni,
    .acc_fire_i      (acc_valid),
    .acc_slot_i      (acc_slot),
    .acc_cmd_i       (acc_cmd),
    .acc_pid_i       (acc_pid),
    .acc_local_addr_i(acc_local_addr),
    .acc_local_gen_i (acc_local_gen),
    .start_valid_i   (wds_valid),
    .start_ready_o   (wds_ready),
    .start_slot_i    (wds_slot),
    .start_counter_i (wds_counter),
    .start_ctx_i     (wds_ctx),
    .live_i          (ops_live),
    .sent_o          (wd_sent),
    .sent_slot_o     (wd_sent_slot),
    .sent_chunk_o    (wd_sent_chunk),
    .fail_o          (wd_fail),
    .fail_slot_o     (wd_fail_slot),
    .fail_status_o   (wd_fail_status),
    .done_o          (wd_done),
    .done_slot_o     (wd_done_slot),
    .rdreq_valid_o   (dr_req_valid[0]),
    .rdreq_ready_i   (dr_req_ready[0]),
    .rdreq_addr_o    (dr_req_addr[0]),
    .rdreq_len_o     (dr_req_len[0]),
    .rdreq_region_o  (dr_req_region[0]),
    .rdreq_gen_o     (dr_req_gen[0]),
    .rdreq_perm_o    (dr_req_perm[0]),
    .rdreq_tag_o     (dr_req_tag[0]),
    .rd_valid_i      (dr_rd_valid[0]),
    .rd_ready_o      (dr_rd_ready[0]),
    .rd_data_i       (dr_rd_data[0]),
    .rd_last_i       (dr_rd_last[0]),
    .rd_err_i        (dr_rd_err[0]),
    .rsp_valid_i     (dr_rsp_valid[0]),
    .rsp_ready_o     (dr_rsp_ready[0]),
    .rsp_tag_i       (dr_rsp_tag[0]),
    .rsp_status_i    (dr_rsp_status[0]),
    .job_valid_o     (wd_job_valid),
    .job_ready_i     (wd_job_ready),
    .job_hdr_o       (wd_job_hdr),
    .job_key_o       (wd_job_key),
    .job_meta_o      (wd_job_meta),
    .pay_valid_o     (wd_pay_valid),
    .pay_ready_i     (wd_pay_ready),
    .pay_data_o      (wd_pay_data),
    .pay_last_o      (wd_pay_last),
    .pay_err_o       (wd_pay_err)
  );

  // ---------------------------------------------------------------------------------------
  // Responder: request checks (RRT port 2, K_d, tag check on the GCM client 2 opener), the
  // inbound queues, the READ server (DMA read client 1, sealer job source 3).
  // ---------------------------------------------------------------------------------------
  typedef struct packed {
    hdr_t         hdr;
    logic [127:0] kd;
    logic [63:0]  base;
    logic [15:0]  gen;
    logic [7:0]   key_gen;
  } rsp_entry_t;

  logic                 rh_wr_data, rq_in_valid, rq_in_ready, cx_hdr_valid, cx_hdr_ready;
  logic                 kd_valid, kd_ready, kd_res_valid, kd_res_ready;
  logic [127:0]         kd_kr, kd_res;
  logic [31:0]          kd_nic, kd_pid;
  op_type_e             kd_op;
  logic [RspIdxW-1:0]   kd_meta, kd_res_meta;
  logic                 ro_job_valid, ro_job_ready;
  hdr_t                 ro_job_hdr;
  logic [127:0]         ro_job_tag, ro_job_key;
  logic [RspIdxW-1:0]   ro_job_meta;
  logic                 q_push_valid, q_push_ready, q_push_wr;
  rsp_entry_t           q_push_entry;
  logic [TimeWidth-1:0] q_push_time;
  logic [QCntW-1:0]     q_count;
  logic                 q_rd_valid, q_rd_ready, q_wr_valid, q_wr_ready;
  rsp_entry_t           q_rd_entry, q_wr_entry;
  logic [TimeWidth-1:0] q_rd_time, q_wr_time;
  logic [1:0]           q_drop_age;
  logic                 rsp_auth_fail, rsp_access_err, rsp_nacked, rd_fail;
  dma_status_e          rd_fail_status;

  // Hop-1 requests go to the checks, WR_DATA to the write contexts.
  assign rh_wr_data   = (rh_hdr.msg_type == MsgTypeWrData);
  assign rq_in_valid  = rh_valid && !rh_wr_data;
  assign cx_hdr_valid = rh_valid && rh_wr_data;
  assign rh_ready     = rh_wr_data ? cx_hdr_ready : rq_in_ready;

  onerma_rsp_req #(
    .NumRegions(NumRegions),
    .TimeWidth (TimeWidth),
    .InFlight  (RspInFlight),
    .CntW      (QCntW)
  ) u_rsp_req (
    .clk_i, .rst_ni,
    .nack_depth_i (nack_depth),
    .req_valid_i  (rq_in_valid),
    .req_ready_o  (rq_in_ready),
    .req_hdr_i    (rh_hdr),
    .req_tag_i    (rh_tag),
    .req_t_rx_i   (rh_t_rx),
    .rrt_valid_o  (rrt_rd_valid[2]),
    .rrt_idx_o    (rrt_rd_idx[2]),
    .rrt_entry_i  (rrt_rd_entry[2]),
    .rrt_gen_i    (rrt_rd_gen[2]),
    .rrt_key_gen_i(rrt_rd_key_gen[2]),
    .kd_valid_o    (kd_valid),
    .kd_ready_i    (kd_ready),
    .kd_kr_o       (kd_kr),
    .kd_nic_o      (kd_nic),
    .kd_pid_o      (kd_pid),
    .kd_op_o       (kd_op),
    .kd_meta_o     (kd_meta),
    .kd_res_valid_i(kd_res_valid),
    .kd_res_ready_o(kd_res_ready),
    .kd_res_i      (kd_res),
    .kd_res_meta_i (kd_res_meta),
    .job_valid_o  (ro_job_valid),
    .job_ready_i  (ro_job_ready),
    .job_hdr_o    (ro_job_hdr),
    .job_tag_o    (ro_job_tag),
    .job_key_o    (ro_job_key),
    .job_meta_o   (ro_job_meta),
    .res_valid_i  (g_res_valid[2]),
    .res_ready_o  (g_res_ready[2]),
    .res_auth_ok_i(g_res.auth_ok),
    .res_meta_i   (g_res.meta[RspIdxW-1:0]),
    .q_count_i    (q_count),
    .q_valid_o    (q_push_valid),
    .q_ready_i    (q_push_ready),
    .q_wr_o       (q_push_wr),
    .q_hdr_o      (q_push_entry.hdr),
    .q_kd_o       (q_push_entry.kd),
    .q_base_o     (q_push_entry.base),
    .q_gen_o      (q_push_entry.gen),
    .q_key_gen_o  (q_push_entry.key_gen),
    .q_time_o     (q_push_time),
    .rep_valid_o  (rr_job_valid),
    .rep_ready_i  (rr_job_ready),
    .rep_hdr_o    (rr_job_hdr),
    .rep_key_o    (rr_job_key),
    .auth_fail_o  (rsp_auth_fail),
    .access_err_o (rsp_access_err),
    .nacked_o     (rsp_nacked)
  );

  // K_d = AES_{K_r}(kd_block): pipelined where the engines are (one per cycle), else iterative.
  onerma_kd_unit #(
    .Pipelined(Pipelined),
    .SboxRam  (Pipelined),
    .meta_t   (logic [RspIdxW-1:0])
  ) u_kd (
    .clk_i, .rst_ni,
    .in_valid_i        (kd_valid),
    .in_ready_o        (kd_ready),
    .in_kr_i           (kd_kr),
    .in_initiator_nic_i(kd_nic),
    .in_pid_i          (kd_pid),
    .in_op_type_i      (kd_op),
    .in_meta_i         (kd_meta),
    .out_valid_o       (kd_res_valid),
    .out_ready_i       (kd_res_ready),
    .out_kd_o          (kd_res),
    .out_meta_o        (kd_res_meta)
  );

  // Requests carry no payload: the opener stages nothing and produces no plaintext.
  onerma_open #(
    .DataWidth (DataWidth),
    .MetaWidth (GMetaW),
    .StageBeats(ChunkBytes / 16),
    .LenW      (LenW),
    .Lanes     (GLanes),
    .desc_t    (cdesc_t),
    .wdin_t    (gword_t)
  ) u_open_rsp (
    .clk_i, .rst_ni,
    .job_valid_i (ro_job_valid),
    .job_ready_o (ro_job_ready),
    .job_hdr_i   (ro_job_hdr),
    .job_tag_i   (ro_job_tag),
    .job_key_i   (ro_job_key),
    .job_meta_i  (GMetaW'(ro_job_meta)),
    .pay_valid_i (1'b0),
    .pay_ready_o (),
    .pay_data_i  ('0),
    .pay_last_i  (1'b0),
    .desc_valid_o(g_desc_valid[2]),
    .desc_ready_i(g_desc_ready[2]),
    .desc_data_o (g_desc[2]),
    .din_valid_o (g_din_valid[2]),
    .din_ready_i (g_din_ready[2]),
    .din_data_o  (g_din[2])
  );
  assign g_dout_ready[2] = 1'b1;

  onerma_rsp_queue #(
    .Depth    (InQueueDepth),
    .TimeWidth(TimeWidth),
    .EntryW   ($bits(rsp_entry_t)),
    .entry_t  (rsp_entry_t),
    // A head waits un-offered while the READ server is busy, so the age limit discards it the
    // cycle it passes the limit (protocol §9), as the model does, instead of serving it late.
    .HoldOffer(1'b0)
  ) u_rsp_queue (
    .clk_i, .rst_ni,
    .now_i       (now),
    .max_age_i   (inq_max_age),
    .push_valid_i(q_push_valid),
    .push_ready_o(q_push_ready),
    .push_wr_i   (q_push_wr),
    .push_entry_i(q_push_entry),
    .push_time_i (q_push_time),
    .count_o     (q_count),
    .rd_valid_o  (q_rd_valid),
    .rd_ready_i  (q_rd_ready),
    .rd_entry_o  (q_rd_entry),
    .rd_time_o   (q_rd_time),
    .wr_valid_o  (q_wr_valid),
    .wr_ready_i  (q_wr_ready),
    .wr_entry_o  (q_wr_entry),
    .wr_time_o   (q_wr_time),
    .wr_head_o   (q_wr_head),
    .drop_age_o  (q_drop_age)
  );

  onerma_rsp_read #(
    .DataWidth  (DataWidth),
    .AddrWidth  (64),
    .TagWidth   (DmaTagW),
    .RrtIdxWidth(16),
    .MaxOps     (RdMaxOps),
    .MaxReads   (RdMaxReads)
  ) u_rsp_read (
    .clk_i, .rst_ni,
    .start_valid_i (q_rd_valid),
    .start_ready_o (q_rd_ready),
    .start_hdr_i   (q_rd_entry.hdr),
    .start_kd_i    (q_rd_entry.kd),
    .start_base_i  (q_rd_entry.base),
    .start_gen_i   (q_rd_entry.gen),
    .lock_i        (lock_q == LockRd),
    .yield_i       (wd_job_valid && lock_q == LockRd),
    .idle_o        (rd_idle),
    .fail_o        (rd_fail),
    .fail_status_o (rd_fail_status),
    .rdreq_valid_o (dr_req_valid[1]),
    .rdreq_ready_i (dr_req_ready[1]),
    .rdreq_addr_o  (dr_req_addr[1]),
    .rdreq_len_o   (dr_req_len[1]),
    .rdreq_region_o(dr_req_region[1]),
    .rdreq_gen_o   (dr_req_gen[1]),
    .rdreq_perm_o  (dr_req_perm[1]),
    .rdreq_tag_o   (dr_req_tag[1]),
    .rd_valid_i    (dr_rd_valid[1]),
    .rd_ready_o    (dr_rd_ready[1]),
    .rd_data_i     (dr_rd_data[1]),
    .rd_last_i     (dr_rd_last[1]),
    .rd_err_i      (dr_rd_err[1]),
    .rsp_valid_i   (dr_rsp_valid[1]),
    .rsp_ready_o   (dr_rsp_ready[1]),
    .rsp_tag_i     (dr_rsp_tag[1]),
    .rsp_status_i  (dr_rsp_status[1]),
    .job_valid_o   (rd_job_valid),
    .job_ready_i   (rd_job_ready),
    .job_hdr_o     (rd_job_hdr),
    .job_key_o     (rd_job_key),
    .job_meta_o    (rd_job_meta),
    .pay_valid_o   (rd_pay_valid),
    .pay_ready_i   (rd_pay_ready),
    .pay_data_o    (rd_pay_data),
    .pay_last_o    (rd_pay_last),
    .pay_err_o     (rd_pay_err)
  );

  // ---------------------------------------------------------------------------------------
  // Write contexts (WRITE / REKEY service, §8.2-8.6): the WRITE queue's head, sealer job source
  // 4, WR_DATA from the receive edge through their own opener (GCM client 3) into the window.
  // ---------------------------------------------------------------------------------------
  logic                 cx_oj_valid, cx_oj_ready, cx_opay_valid, cx_opay_ready;
  hdr_t                 cx_oj_hdr;
  logic [127:0]         cx_oj_tag, cx_oj_key;
  logic [CtxW+ChunkIndexBits-1:0] cx_oj_meta;
  logic                 cx_stale, cx_dup, cx_auth;

  onerma_rsp_ctx #(.NumCtx(NumWriteCtx), .TimeWidth(TimeWidth)) u_rsp_ctx (
    .clk_i, .rst_ni,
    .now_i           (now),
    .judged_i        (rx_judged),
    .server_timeout_i(TimeWidth'(server_timeout)),
    .hold_ns_i       (hold_ns),
    .srv_valid_i     (q_wr_valid),
    .srv_ready_o     (q_wr_ready),
    .srv_hdr_i       (q_wr_entry.hdr),
    .srv_kd_i        (q_wr_entry.kd),
    .srv_base_i      (q_wr_entry.base),
    .srv_gen_i       (q_wr_entry.gen),
    .srv_key_gen_i   (q_wr_entry.key_gen),
    .rsv_valid_o     (c_rsv_valid),
    .rsv_ready_i     (c_rsv_ready),
    .rsv_lines_o     (c_rsv_lines),
    .free_o          (c_free),
    .refund_valid_o  (c_refund_valid),
    .refund_lines_o  (c_refund_lines),
    .sj_valid_o      (cj_valid),
    .sj_ready_i      (cj_ready),
    .sj_hdr_o        (cj_hdr),
    .sj_key_o        (cj_key),
    .sj_meta_o       (cj_meta),
    .asg_i           (asg_valid && (asg_meta[SealMetaW-1 -: 3] == SrcCtx)),
    .asg_ctx_i       (asg_meta[CtxW+1:2]),
    .asg_counter_i   (asg_counter),
    .sj_drop_i       (seal_drop && (seal_drop_meta[SealMetaW-1 -: 3] == SrcCtx)),
    .sj_drop_ctx_i   (seal_drop_meta[CtxW+1:2]),
    .sent_i          (seal_sent && (seal_sent_meta[SealMetaW-1 -: 3] == SrcCtx) &&
                      !seal_sent_meta[0]),
    .sent_ctx_i      (seal_sent_meta[CtxW+1:2]),
    .hdr_valid_i     (cx_hdr_valid),
    .hdr_ready_o     (cx_hdr_ready),
    .hdr_i           (rh_hdr),
    .hdr_tag_i       (rh_tag),
    .hdr_t_rx_i      (rh_t_rx),
    .pay_valid_i     (rp_valid),
    .pay_ready_o     (rp_ready),
    .pay_last_i      (rp_last),
    .opay_valid_o    (cx_opay_valid),
    .opay_ready_i    (cx_opay_ready),
    .oj_valid_o      (cx_oj_valid),
    .oj_ready_i      (cx_oj_ready),
    .oj_hdr_o        (cx_oj_hdr),
    .oj_tag_o        (cx_oj_tag),
    .oj_key_o        (cx_oj_key),
    .oj_meta_o       (cx_oj_meta),
    .res_valid_i     (g_res_valid[3]),
    .res_ready_o     (g_res_ready[3]),
    .res_ok_i        (g_res.auth_ok),
    .res_meta_i      (g_res.meta[CtxW+ChunkIndexBits-1:0]),
    .uw_valid_o      (cuw_valid),
    .uw_ready_i      (cuw_ready),
    .uw_ctx_o        (cuw_ctx),
    .uw_chunk_o      (cuw_chunk),
    .uw_read_o       (cuw_read),
    .uw_rekey_o      (cuw_rekey),
    .uw_done_i       (cuw_done),
    .uw_done_ctx_i   (cuw_done_ctx),
    .uw_done_chunk_i (w_uw_done_chunk),
    .hw_valid_o      (chw_valid),
    .hw_ready_i      (chw_ready),
    .hw_addr_o       (chw_addr),
    .hw_len_o        (chw_len),
    .hw_region_o     (chw_region),
    .hw_gen_o        (chw_gen),
    .hw_tag_o        (chw_tag),
    .hw_rsp_valid_i  (chw_rsp_valid),
    .hw_rsp_ready_o  (),
    .hw_rsp_tag_i    (chw_rsp_tag),
    .hw_rsp_ok_i     (hw_rsp_ok),
    .ins_valid_o     (cins_valid),
    .ins_ready_i     (cins_ready),
    .ins_region_o    (cins_region),
    .ins_gen_o       (cins_gen),
    .ins_key_gen_o   (cins_key_gen),
    .ins_ctx_o       (cins_ctx),
    .ins_done_i      (ins_fire),
    .ins_done_ctx_i  (cins_ctx),
    .ins_ok_i        (inst_ok),
    .drop_stale_o    (cx_stale),
    .drop_dup_o      (cx_dup),
    .drop_auth_o     (cx_auth)
  );

  onerma_open #(
    .DataWidth (DataWidth),
    .MetaWidth (GMetaW),
    .StageBeats((DataWidth >= 512 ? 2 : 1) * ChunkBytes / 16),
    .LenW      (LenW),
    .Lanes     (GLanes),
    .desc_t    (cdesc_t),
    .wdin_t    (gword_t)
  ) u_open_wd (
    .clk_i, .rst_ni,
    .job_valid_i (cx_oj_valid),
    .job_ready_o (cx_oj_ready),
    .job_hdr_i   (cx_oj_hdr),
    .job_tag_i   (cx_oj_tag),
    .job_key_i   (cx_oj_key),
    .job_meta_i  (GMetaW'(cx_oj_meta)),
    .pay_valid_i (cx_opay_valid),
    .pay_ready_o (cx_opay_ready),
    .pay_data_i  (rp_data),
    .pay_last_i  (rp_last),
    .desc_valid_o(g_desc_valid[3]),
    .desc_ready_i(g_desc_ready[3]),
    .desc_data_o (g_desc[3]),
    .din_valid_o (g_din_valid[3]),
    .din_ready_i (g_din_ready[3]),
    .din_data_o  (g_din[3])
  );

  // ---------------------------------------------------------------------------------------
  // Counters (protocol §12, onerma_csr's order). A counter with two events in one cycle
  // keeps the second in a small backlog, added in a later cycle.
  // ---------------------------------------------------------------------------------------
  logic [NumCounters-1:0][2:0] cnt_events;
  logic                        dw_err, dw_region;
  logic [1:0]                  dr_err, dr_region;

  assign dw_err    = dw_rsp_valid[0] && (dw_rsp_status[0] inside {DmaStatusSlverr, DmaStatusDecerr});
  assign dw_region = dw_rsp_valid[0] && (dw_rsp_status[0] == DmaStatusRegion);
  // The WR_DATA sender's read answers; the READ server's first failed read per READ (it reads
  // every chunk, also after a failed one).
  assign dr_err[0]    = dr_rsp_valid[0] && dr_rsp_ready[0] &&
                        (dr_rsp_status[0] inside {DmaStatusSlverr, DmaStatusDecerr});
  assign dr_region[0] = dr_rsp_valid[0] && dr_rsp_ready[0] && (dr_rsp_status[0] == DmaStatusRegion);
  assign dr_err[1]    = rd_fail && (rd_fail_status inside {DmaStatusSlverr, DmaStatusDecerr});
  assign dr_region[1] = rd_fail && (rd_fail_status == DmaStatusRegion);

  always_comb begin
    cnt_events     = '0;
    cnt_events[0]  = 3'(err_disabled);
    cnt_events[1]  = 3'(err_busy);
    cnt_events[2]  = 3'(bad_cq);
    cnt_events[3]  = 3'(err_cq_write);
    cnt_events[4]  = 3'(dr_err[0]) + 3'(dr_err[1]);
    cnt_events[5]  = 3'(dw_err);
    cnt_events[6]  = 3'(drop_malformed);
    cnt_events[7]  = 3'(drop_misaddressed);
    cnt_events[8]  = 3'(drop_stale) + 3'(cx_stale);
    cnt_events[9]  = 3'(drop_dup) + 3'(cx_dup);
    cnt_events[10] = 3'(drop_auth) + 3'(cx_auth);
    cnt_events[11] = 3'd0;  // drop_busy: every path takes its frames or drops them by a rule
    cnt_events[12] = 3'(drop_hold);
    cnt_events[13] = 3'(q_drop_age[0]) + 3'(q_drop_age[1]);
    cnt_events[14] = 3'(dw_region) + 3'(dr_region[0]) + 3'(dr_region[1]);
    cnt_events[15] = 3'(q_rd_valid && q_rd_ready) + 3'(q_wr_valid && q_wr_ready);
    cnt_events[16] = 3'(rsp_nacked);
    cnt_events[17] = 3'(rsp_auth_fail);
    cnt_events[18] = 3'(rsp_access_err);
  end

  for (genvar gc = 0; gc < NumCounters; gc++) begin : g_cnt
    logic [3:0] backlog_q;
    logic [4:0] total;
    assign total        = 5'(cnt_events[gc]) + 5'(backlog_q);
    assign cnt_incr[gc] = (total != '0);
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) backlog_q <= '0;
      else if (total != '0) backlog_q <= (total - 5'd1 > 5'd15) ? 4'd15 : 4'(total - 5'd1);
    end
  end

  assign err_set = {exhausted, err_cq_write, bad_cq, 1'b0};

  logic unused;
  // The WR_DATA sender's sent pulse and failure status (the op table needs neither: the
  // sealer's own asg / drop of a WR_DATA job and the failure itself are enough).
  // The queue heads' arrival times, the READ server's failure (the DMA answer itself is
  // counted above), the context job's kind (the sealer needs only the context).
  assign unused = ^{recd_ok, q_wr_time, q_rd_time,
                    g_dout_valid[2], seal_sent_meta,
                    q_rd_entry.key_gen, rrt_rd_key_gen[1:0],
                    head_slot, seal_drop_meta, asg_meta[1:0], nic_time[63:TimeWidth],
                    dw_rsp_ready[0], wd_sent, wd_sent_slot, wd_sent_chunk, wd_fail_status};

endmodule

/* verilator lint_on PINCONNECTEMPTY */

`default_nettype wire
