`default_nettype none

/// The NIC's configuration block: the register map of spec/onerma_regs.rdl (the generated
/// onerma_regs) behind a write guard, plus the NIC time base.
///
/// Write guard (protocol §1). Every AXI4-Lite write passes through a one-deep guard: AW and W are
/// each taken into a register (ready = that register empty), and once both are there the write
/// is decided in one cycle against the current configuration. A refused write is not forwarded:
/// the register keeps its value, B answers SLVERR and err_status.bad_config is set. Refused:
///  - `epoch`, `nic_addr` or `dispatch_timeout` while `nic_enable` = 1 (any write to the
///    address; dispatch deadlines must not decrease along a class queue, docs/nic.md);
///  - `nack_depth` whose new value (the write merged by WSTRB) is above InQueueDepth;
///  - `slot_commit` writing bit 0 = 1 while `slot_index` >= NumSlots or the slot is busy
///    (`slot_busy_i`);
///  - `rrt_commit` writing bit 0 = 1 while `rrt_index` >= NumRegions.
/// Anything else is forwarded to the regblock and its B is returned. One write is in the guard
/// at a time, and the next is decided only after the previous one's B has been taken, so every
/// decision sees the effect of every earlier write. Reads go straight to the regblock.
///
/// Commits. An accepted commit (bit 0 written 1) pulses `slot_commit_o` / `rrt_commit_o` for one
/// cycle in the decision cycle itself, with the staged values of the registers at that time.
/// The busy check and the commit are therefore the same cycle: a slot that becomes busy is never
/// changed (`slot_commit_o` depends combinationally on `slot_busy_i`). The staged registers are
/// never changed by a commit; the commit registers of the map store nothing (write-only, no
/// hardware access).
///
/// Time: `nic_time_o` counts cycles from reset (64 bit, free running). Reading nic_time_lo
/// latches bits 63:32 into nic_time_hi in the same cycle, so lo-then-hi reads are consistent;
/// msg_count_lo / msg_count_hi latch `msg_count_i` the same way.
///
/// Counters: `cnt_incr_i[i]` adds 1 to the i-th counter of the map by address (err_disabled_slot
/// at bit 0 ... req_access_err at bit 18, protocol §12 order; onerma-regs `COUNTERS`), saturating.
/// `err_set_i[i]` sets bit i of err_status (0 bad_config, 1 bad_cq, 2 cq_write,
/// 3 counter_exhausted); the guard sets bad_config as well.
module onerma_csr
  import onerma_regs_addr_pkg::*;
#(
  /// Command slots (protocol §1): slot_index >= NumSlots is refused at slot_commit.
  parameter int unsigned NumSlots     = 64,
  /// RRT entries: rrt_index >= NumRegions is refused at rrt_commit.
  parameter int unsigned NumRegions   = 256,
  /// Inbound queue entries: the largest accepted nack_depth.
  parameter int unsigned InQueueDepth = 32,
  localparam int unsigned SlotW = (NumSlots > 1) ? $clog2(NumSlots) : 1,
  localparam int unsigned RrtW  = (NumRegions > 1) ? $clog2(NumRegions) : 1,
  localparam int unsigned NumCounters = 19
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,

  // AXI4-Lite slave (32-bit data, byte addresses; AWPROT/ARPROT are not decoded).
  input  logic                 s_axil_awvalid_i,
  output logic                 s_axil_awready_o,
  input  logic [AddrWidth-1:0] s_axil_awaddr_i,
  input  logic                 s_axil_wvalid_i,
  output logic                 s_axil_wready_o,
  input  logic [31:0]          s_axil_wdata_i,
  input  logic [3:0]           s_axil_wstrb_i,
  output logic                 s_axil_bvalid_o,
  input  logic                 s_axil_bready_i,
  output logic [1:0]           s_axil_bresp_o,
  input  logic                 s_axil_arvalid_i,
  output logic                 s_axil_arready_o,
  input  logic [AddrWidth-1:0] s_axil_araddr_i,
  output logic                 s_axil_rvalid_o,
  input  logic                 s_axil_rready_i,
  output logic [31:0]          s_axil_rdata_o,
  output logic [1:0]           s_axil_rresp_o,

  // Configuration (registered values of the map).
  output logic                 nic_enable_o,
  output logic [31:0]          nic_addr_o,
  output logic [15:0]          epoch_o,
  /// One cycle, the first cycle `epoch_o` shows a newly written epoch (count restarts, §10).
  output logic                 epoch_written_o,
  output logic [31:0]          clk_period_ps_o,
  output logic [31:0]          dispatch_timeout_o,
  output logic [31:0]          op_timeout_o,
  output logic [31:0]          server_timeout_o,
  output logic [31:0]          inq_max_age_o,
  output logic [31:0]          max_hold_ns_o,
  output logic [31:0]          hold_ns_o,
  output logic [15:0]          nack_depth_o,

  // Slot programming: one-cycle pulse with the committed configuration.
  input  logic [NumSlots-1:0]  slot_busy_i,
  output logic                 slot_commit_o,
  output logic [SlotW-1:0]     slot_commit_index_o,
  output logic                 slot_commit_enable_o,
  output logic [31:0]          slot_commit_pid_o,

  // RRT programming: one-cycle pulse with the whole staged entry.
  output logic                 rrt_commit_o,
  output logic [RrtW-1:0]      rrt_commit_index_o,
  output onerma_pkg::rrt_entry_t rrt_commit_entry_o,
  input  logic                 rrt_quiesce_i,

  // Status.
  input  logic [NumCounters-1:0] cnt_incr_i,
  input  logic [3:0]           err_set_i,
  input  logic [63:0]          msg_count_i,
  output logic [63:0]          nic_time_o
);

  localparam logic [1:0] RespSlvErr = 2'b10;

  onerma_regs_pkg::onerma_regs__in_t  hwif_in;
  onerma_regs_pkg::onerma_regs__out_t hwif_out;

  // ---- Write guard -------------------------------------------------------------------------
  typedef enum logic [1:0] {
    GuardIdle,   // collecting AW and W; deciding once both are in
    GuardFwd,    // forwarding the write to the regblock, then passing its B on
    GuardErr     // answering SLVERR for a refused write
  } guard_e;

  guard_e                 state_q, state_d;
  logic                   aw_full_q, w_full_q, aw_sent_q, w_sent_q;
  logic [AddrWidth-1:0]   aw_addr_q;
  logic [31:0]            w_data_q;
  logic [3:0]             w_strb_q;

  logic                   rb_awvalid, rb_awready, rb_wvalid, rb_wready;
  logic                   rb_bvalid, rb_bready;
  logic [1:0]             rb_bresp;

  logic                   decide, refuse, commit_bit;
  logic                   slot_in_range, rrt_in_range, slot_busy;
  logic [15:0]            nack_depth_new;
  logic [AddrWidth-1:0]   aw_word;
  logic [SlotW-1:0]       slot_idx;

  assign s_axil_awready_o = !aw_full_q;
  assign s_axil_wready_o  = !w_full_q;

  assign decide     = (state_q == GuardIdle) && aw_full_q && w_full_q;
  assign commit_bit = w_strb_q[0] && w_data_q[0];
  // The field is bits 15:0; the bytes the write does not strobe keep their value.
  assign nack_depth_new = {w_strb_q[1] ? w_data_q[15:8] : hwif_out.nack_depth.depth.value[15:8],
                           w_strb_q[0] ? w_data_q[7:0]  : hwif_out.nack_depth.depth.value[7:0]};
  // The regblock ignores address bits 1:0 (every register is a word): so does the guard.
  assign aw_word = {aw_addr_q[AddrWidth-1:2], 2'b00};

  assign slot_in_range = 32'(hwif_out.slot_index.index.value) < NumSlots;
  assign rrt_in_range  = 32'(hwif_out.rrt_index.index.value) < NumRegions;
  assign slot_idx      = SlotW'(hwif_out.slot_index.index.value);
  assign slot_busy     = slot_busy_i[slot_idx];

  always_comb begin
    refuse = 1'b0;
    unique case (aw_word)
      EpochAddr, NicAddrAddr, DispatchTimeoutAddr: refuse = hwif_out.nic_enable.enable.value;
      NackDepthAddr:          refuse = 32'(nack_depth_new) > InQueueDepth;
      SlotCommitAddr:         refuse = commit_bit && (!slot_in_range || slot_busy);
      RrtCommitAddr:          refuse = commit_bit && !rrt_in_range;
      default:                refuse = 1'b0;
    endcase
  end

  always_comb begin
    state_d = state_q;
    unique case (state_q)
      GuardIdle: if (decide) state_d = refuse ? GuardErr : GuardFwd;
      GuardFwd:  if (rb_bvalid && s_axil_bready_i) state_d = GuardIdle;
      GuardErr:  if (s_axil_bready_i) state_d = GuardIdle;
      default:   state_d = GuardIdle;
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q   <= GuardIdle;
      aw_full_q <= 1'b0;
      w_full_q  <= 1'b0;
      aw_sent_q <= 1'b0;
      w_sent_q  <= 1'b0;
    end else begin
      state_q <= state_d;
      if (state_q != GuardIdle && state_d == GuardIdle) begin
        // B taken: the write is finished.
        aw_full_q <= 1'b0;
        w_full_q  <= 1'b0;
        aw_sent_q <= 1'b0;
        w_sent_q  <= 1'b0;
      end else begin
        if (s_axil_awvalid_i && s_axil_awready_o) aw_full_q <= 1'b1;
        if (s_axil_wvalid_i && s_axil_wready_o) w_full_q <= 1'b1;
        if (rb_awvalid && rb_awready) aw_sent_q <= 1'b1;
        if (rb_wvalid && rb_wready) w_sent_q <= 1'b1;
      end
    end
  end

  // Datapath registers: loaded only when empty, so no reset is needed.
  always_ff @(posedge clk_i) begin
    if (s_axil_awvalid_i && s_axil_awready_o) aw_addr_q <= s_axil_awaddr_i;
    if (s_axil_wvalid_i && s_axil_wready_o) begin
      w_data_q <= s_axil_wdata_i;
      w_strb_q <= s_axil_wstrb_i;
    end
  end

  assign rb_awvalid = (state_q == GuardFwd) && !aw_sent_q;
  assign rb_wvalid  = (state_q == GuardFwd) && !w_sent_q;
  assign rb_bready  = (state_q == GuardFwd) && s_axil_bready_i;

  always_comb begin
    s_axil_bvalid_o = 1'b0;
    s_axil_bresp_o  = rb_bresp;
    if (state_q == GuardFwd) begin
      s_axil_bvalid_o = rb_bvalid;
    end else if (state_q == GuardErr) begin
      s_axil_bvalid_o = 1'b1;
      s_axil_bresp_o  = RespSlvErr;
    end
  end

  // ---- Commits (decision cycle) --------------------------------------------------------------
  assign slot_commit_o        = decide && !refuse && (aw_word == SlotCommitAddr) && commit_bit;
  assign slot_commit_index_o  = slot_idx;
  assign slot_commit_enable_o = hwif_out.slot_cfg.enable.value;
  assign slot_commit_pid_o    = hwif_out.slot_pid.pid.value;

  assign rrt_commit_o       = decide && !refuse && (aw_word == RrtCommitAddr) && commit_bit;
  assign rrt_commit_index_o = RrtW'(hwif_out.rrt_index.index.value);
  always_comb begin
    rrt_commit_entry_o                   = '0;
    rrt_commit_entry_o.valid             = hwif_out.rrt_flags.valid.value;
    rrt_commit_entry_o.perm_remote_read  = hwif_out.rrt_flags.perm_remote_read.value;
    rrt_commit_entry_o.perm_remote_write = hwif_out.rrt_flags.perm_remote_write.value;
    rrt_commit_entry_o.perm_remote_rekey = hwif_out.rrt_flags.perm_remote_rekey.value;
    rrt_commit_entry_o.perm_local_read   = hwif_out.rrt_flags.perm_local_read.value;
    rrt_commit_entry_o.perm_local_write  = hwif_out.rrt_flags.perm_local_write.value;
    rrt_commit_entry_o.owner_pid         = hwif_out.rrt_owner_pid.owner_pid.value;
    rrt_commit_entry_o.base_addr = {hwif_out.rrt_base_hi.value.value,
                                    hwif_out.rrt_base_lo.value.value};
    rrt_commit_entry_o.size      = {hwif_out.rrt_size_hi.value.value,
                                    hwif_out.rrt_size_lo.value.value};
    rrt_commit_entry_o.key       = {hwif_out.rrt_key0.value.value, hwif_out.rrt_key1.value.value,
                                    hwif_out.rrt_key2.value.value, hwif_out.rrt_key3.value.value};
  end

  // ---- Time base -----------------------------------------------------------------------------
  logic [63:0] nic_time_q;
  logic        epoch_written_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      nic_time_q      <= '0;
      epoch_written_q <= 1'b0;
    end else begin
      nic_time_q      <= nic_time_q + 64'd1;
      epoch_written_q <= hwif_out.epoch.epoch.swmod;
    end
  end

  assign nic_time_o      = nic_time_q;
  assign epoch_written_o = epoch_written_q;

  // ---- Register block ------------------------------------------------------------------------
  always_comb begin
    hwif_in.rrt_quiesce.quiesced.next = rrt_quiesce_i;
    hwif_in.nic_time_lo.value.next    = nic_time_q[31:0];
    hwif_in.nic_time_hi.value.next    = nic_time_q[63:32];
    hwif_in.nic_time_hi.value.we      = hwif_out.nic_time_lo.value.swacc;
    hwif_in.msg_count_lo.value.next   = msg_count_i[31:0];
    hwif_in.msg_count_hi.value.next   = msg_count_i[63:32];
    hwif_in.msg_count_hi.value.we     = hwif_out.msg_count_lo.value.swacc;
    hwif_in.err_status.bad_config.hwset        = err_set_i[0] || (decide && refuse);
    hwif_in.err_status.bad_cq.hwset            = err_set_i[1];
    hwif_in.err_status.cq_write.hwset          = err_set_i[2];
    hwif_in.err_status.counter_exhausted.hwset = err_set_i[3];
    hwif_in.err_disabled_slot.count.incr   = cnt_incr_i[0];
    hwif_in.err_busy_slot.count.incr       = cnt_incr_i[1];
    hwif_in.err_bad_cq.count.incr          = cnt_incr_i[2];
    hwif_in.err_cq_write.count.incr        = cnt_incr_i[3];
    hwif_in.err_host_read.count.incr       = cnt_incr_i[4];
    hwif_in.err_host_write.count.incr      = cnt_incr_i[5];
    hwif_in.drop_malformed.count.incr      = cnt_incr_i[6];
    hwif_in.drop_misaddressed.count.incr   = cnt_incr_i[7];
    hwif_in.drop_stale.count.incr          = cnt_incr_i[8];
    hwif_in.drop_dup.count.incr            = cnt_incr_i[9];
    hwif_in.drop_auth.count.incr           = cnt_incr_i[10];
    hwif_in.drop_busy.count.incr           = cnt_incr_i[11];
    hwif_in.drop_hold.count.incr           = cnt_incr_i[12];
    hwif_in.drop_queue_age.count.incr      = cnt_incr_i[13];
    hwif_in.drop_region_changed.count.incr = cnt_incr_i[14];
    hwif_in.req_served.count.incr          = cnt_incr_i[15];
    hwif_in.req_nacked.count.incr          = cnt_incr_i[16];
    hwif_in.req_auth_fail.count.incr       = cnt_incr_i[17];
    hwif_in.req_access_err.count.incr      = cnt_incr_i[18];
  end

  assign nic_enable_o       = hwif_out.nic_enable.enable.value;
  assign nic_addr_o         = hwif_out.nic_addr.value.value;
  assign epoch_o            = hwif_out.epoch.epoch.value;
  assign clk_period_ps_o    = hwif_out.clk_period_ps.value.value;
  assign dispatch_timeout_o = hwif_out.dispatch_timeout.value.value;
  assign op_timeout_o       = hwif_out.op_timeout.value.value;
  assign server_timeout_o   = hwif_out.server_timeout.value.value;
  assign inq_max_age_o      = hwif_out.inq_max_age.value.value;
  assign max_hold_ns_o      = hwif_out.max_hold_ns.value.value;
  assign hold_ns_o          = hwif_out.hold_ns.value.value;
  assign nack_depth_o       = hwif_out.nack_depth.depth.value;

  onerma_regs u_regs (
    .clk            (clk_i),
    .arst_n         (rst_ni),
    .s_axil_awready (rb_awready),
    .s_axil_awvalid (rb_awvalid),
    .s_axil_awaddr  (aw_addr_q),
    .s_axil_awprot  (3'b000),
    .s_axil_wready  (rb_wready),
    .s_axil_wvalid  (rb_wvalid),
    .s_axil_wdata   (w_data_q),
    .s_axil_wstrb   (w_strb_q),
    .s_axil_bready  (rb_bready),
    .s_axil_bvalid  (rb_bvalid),
    .s_axil_bresp   (rb_bresp),
    .s_axil_arready (s_axil_arready_o),
    .s_axil_arvalid (s_axil_arvalid_i),
    .s_axil_araddr  (s_axil_araddr_i),
    .s_axil_arprot  (3'b000),
    .s_axil_rready  (s_axil_rready_i),
    .s_axil_rvalid  (s_axil_rvalid_o),
    .s_axil_rdata   (s_axil_rdata_o),
    .s_axil_rresp   (s_axil_rresp_o),
    .hwif_in        (hwif_in),
    .hwif_out       (hwif_out)
  );

endmodule

`default_nettype wire
