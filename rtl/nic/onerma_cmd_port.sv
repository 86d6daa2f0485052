`default_nettype none

/// Command-page port (protocol.md §2.1, §13 H10): the AXI4 slave software writes commands into.
///
/// Address map: slot s owns the 4 KB page at byte address s * 4096; the first `CMD_BYTES` = 64
/// bytes of a page are the slot's staging buffer. Per slot the port keeps `enabled` and `pid`
/// (written by the driver through `onerma_csr`'s slot commit, `cfg_*`), a 64-byte staging buffer
/// and a 64-bit written-byte mask. A write beat stores its bytes (WSTRB) and sets their mask bits;
/// **the beat that makes the mask complete is the doorbell**: the staging buffer merged with that
/// beat is submitted as one command (`sub_*`) and the mask is cleared.
///
/// Write path, two stages:
///  - A (W handshake): the beat's address comes from AW (taken in the same cycle, or held from
///    an earlier cycle) or from the burst register (beats 2.. of a burst). The beat is decoded
///    (slot, out-of-range page, beyond byte 63, written lanes by address, size and WSTRB) and the
///    slot's buffer and mask are read from their RAMs (synchronous read).
///  - B (decision): the beat is refused or written, one cycle after its handshake or later while
///    the stage waits. It waits while the submission register is full and not taken
///    (`sub_valid_o && !sub_ready_i`: the W channel stalls, nothing is dropped) and, for a
///    burst's last beat, while the B register is full and not taken. A refused beat changes
///    nothing. Otherwise its bytes go into the buffer RAM (byte enables), the merged mask into the
///    mask RAM (or zero at a doorbell), and at a doorbell the command, the slot and the slot's pid
///    are loaded into the submission register. A beat decided right after a write to the same
///    slot takes that write's mask and bytes from a bypass register (the RAM read was issued in
///    the same cycle as the write).
///
/// Refusals, decided per beat in stage B, in this order:
///  1. page of a slot >= NumSlots: ignored, SLVERR, no counter;
///  2. slot disabled, or the NIC stopped (`nic_enable_i` low when the beat is decided: a stopped
///     NIC treats every slot as disabled, protocol §1.1): ignored, SLVERR, `err_disabled_o`
///     pulses once for the beat;
///  3. `busy_i[slot]`, or the slot's submission is still in the submission register: ignored,
///     SLVERR, `err_busy_o` pulses once for the beat;
///  4. page offset >= 64 (bytes of the page beyond the command): ignored, SLVERR, no counter.
/// A burst's B is SLVERR if any of its beats was refused, else OKAY; exactly one B per burst, in
/// AW order (one B register). The slot table must hold `busy_i[s]` high from the cycle after the
/// submission's transfer until the op completes (the port covers the slot until the transfer).
///
/// Reads (AR/R): every read beat returns zero data with OKAY, one R beat per burst beat (the page
/// is write-only, §2.1); one read burst at a time.
///
/// Mask state: the mask RAM is not reset. A valid bit per slot (reset to 0, cleared by every
/// slot commit, set by a written beat) says whether the RAM word is the mask; invalid reads as
/// zero. So enabling (or disabling) a slot empties its mask, and a command is submitted only
/// when all 64 bytes were written after the latest commit: a torn command of a previous tenant
/// can never be completed by the next. A commit in the same cycle as a written beat of the same
/// slot is applied after it (the beat was decided with the old configuration).
///
/// AXI subset: INCR bursts only (no AWBURST port), AWSIZE up to the bus width (larger is treated
/// as the bus width), no burst crosses 4 KB (AXI rule), W may wait for its AW. WLAST is not used
/// (AWLEN counts the beats); simulation checks that it agrees.
module onerma_cmd_port #(
  /// Command slots (protocol §1), a power of two >= 2.
  parameter int unsigned NumSlots  = 64,
  /// AXI data width in bits: 32, 64, 128, 256 or 512.
  parameter int unsigned DataWidth = 512,
  /// AXI byte address width, >= 12 + log2(NumSlots). Pages above NumSlots answer SLVERR.
  parameter int unsigned AddrWidth = 18,
  /// AXI ID width.
  parameter int unsigned IdWidth   = 4,
  // Derived, do not override.
  parameter int unsigned SlotW     = $clog2(NumSlots),
  parameter int unsigned BusBytes  = DataWidth / 8,
  parameter int unsigned StrbW     = DataWidth / 8
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,

  // AXI4 slave, write channels.
  input  logic                   s_axi_awvalid_i,
  output logic                   s_axi_awready_o,
  input  logic [IdWidth-1:0]     s_axi_awid_i,
  input  logic [AddrWidth-1:0]   s_axi_awaddr_i,
  input  logic [7:0]             s_axi_awlen_i,
  input  logic [2:0]             s_axi_awsize_i,
  input  logic                   s_axi_wvalid_i,
  output logic                   s_axi_wready_o,
  input  logic [DataWidth-1:0]   s_axi_wdata_i,
  input  logic [StrbW-1:0]       s_axi_wstrb_i,
  input  logic                   s_axi_wlast_i,
  output logic                   s_axi_bvalid_o,
  input  logic                   s_axi_bready_i,
  output logic [IdWidth-1:0]     s_axi_bid_o,
  output logic [1:0]             s_axi_bresp_o,
  // AXI4 slave, read channels (every beat reads zero, OKAY).
  input  logic                   s_axi_arvalid_i,
  output logic                   s_axi_arready_o,
  input  logic [IdWidth-1:0]     s_axi_arid_i,
  input  logic [7:0]             s_axi_arlen_i,
  output logic                   s_axi_rvalid_o,
  input  logic                   s_axi_rready_i,
  output logic [IdWidth-1:0]     s_axi_rid_o,
  output logic [DataWidth-1:0]   s_axi_rdata_o,
  output logic [1:0]             s_axi_rresp_o,
  output logic                   s_axi_rlast_o,

  // Slot configuration: onerma_csr's slot commit pulse.
  input  logic                   cfg_valid_i,
  input  logic [SlotW-1:0]       cfg_slot_i,
  input  logic                   cfg_enable_i,
  input  logic [31:0]            cfg_pid_i,
  /// `nic_enable`: low, every beat is refused as to a disabled slot.
  input  logic                   nic_enable_i,

  /// Slot busy (from the slot table): from the cycle after its submission to its completion.
  input  logic [NumSlots-1:0]    busy_i,

  // Submissions: one command per doorbell, with the slot's pid at the doorbell.
  output logic                   sub_valid_o,
  input  logic                   sub_ready_i,
  output logic [SlotW-1:0]       sub_slot_o,
  output onerma_pkg::cmd_t       sub_cmd_o,
  output logic [31:0]            sub_pid_o,

  // Refusal pulses (one per refused beat): onerma_csr counters err_disabled_slot, err_busy_slot.
  output logic                   err_disabled_o,
  output logic                   err_busy_o
);

  localparam int unsigned CmdBytes = onerma_pkg::CmdBytes;
  localparam int unsigned LaneW    = $clog2(BusBytes);
  localparam int unsigned NumSegs  = CmdBytes / BusBytes;
  localparam int unsigned SegW     = (NumSegs > 1) ? $clog2(NumSegs) : 1;
  localparam int unsigned PageW    = AddrWidth - 12;
  localparam logic [1:0]  RespOkay   = 2'b00;
  localparam logic [1:0]  RespSlvErr = 2'b10;

  if (NumSlots < 2 || (NumSlots & (NumSlots - 1)) != 0) begin : g_bad_slots
    $error("onerma_cmd_port: NumSlots must be a power of two >= 2");
  end
  if (DataWidth < 32 || DataWidth > 512 || (DataWidth & (DataWidth - 1)) != 0) begin : g_bad_dw
    $error("onerma_cmd_port: DataWidth must be 32, 64, 128, 256 or 512");
  end
  if (AddrWidth < 12 + SlotW || AddrWidth > 64) begin : g_bad_aw
    $error("onerma_cmd_port: need 12 + log2(NumSlots) <= AddrWidth <= 64");
  end

  // ---- Stage A: burst tracking and beat decode ------------------------------------------
  logic                 bst_active_q;
  logic [AddrWidth-1:0] bst_addr_q;
  logic [2:0]           bst_size_q;
  logic [7:0]           bst_left_q;
  logic [IdWidth-1:0]   bst_id_q;

  logic                 cur_valid;
  logic [AddrWidth-1:0] cur_addr, next_addr;
  logic [2:0]           cur_size, aw_size;
  logic [7:0]           cur_left;
  logic [IdWidth-1:0]   cur_id;
  logic [LaneW-1:0]     size_mask, lane_lo, lane_hi;
  logic [StrbW-1:0]     lanes;
  logic [PageW-1:0]     cur_page;
  logic [SegW-1:0]      cur_seg;
  logic                 w_fire, aw_fire, a_ready;

  assign aw_size   = (s_axi_awsize_i > 3'(LaneW)) ? 3'(LaneW) : s_axi_awsize_i;
  assign cur_valid = bst_active_q || s_axi_awvalid_i;
  assign cur_addr  = bst_active_q ? bst_addr_q : s_axi_awaddr_i;
  assign cur_size  = bst_active_q ? bst_size_q : aw_size;
  assign cur_left  = bst_active_q ? bst_left_q : s_axi_awlen_i;
  assign cur_id    = bst_active_q ? bst_id_q   : s_axi_awid_i;

  assign s_axi_awready_o = !bst_active_q;
  assign s_axi_wready_o  = cur_valid && a_ready;
  assign aw_fire         = s_axi_awvalid_i && s_axi_awready_o;
  assign w_fire          = s_axi_wvalid_i && s_axi_wready_o;

  always_comb begin
    for (int unsigned l = 0; l < LaneW; l++) size_mask[l] = (3'(l) < cur_size);
  end
  assign lane_lo   = cur_addr[LaneW-1:0];
  assign lane_hi   = lane_lo | size_mask;
  always_comb begin
    for (int unsigned l = 0; l < StrbW; l++) begin
      lanes[l] = (LaneW'(l) >= lane_lo) && (LaneW'(l) <= lane_hi);
    end
  end
  assign next_addr = (cur_addr & ~AddrWidth'(size_mask)) + (AddrWidth'(1) << cur_size);
  assign cur_page  = cur_addr[AddrWidth-1:12];
  if (NumSegs > 1) begin : g_seg
    assign cur_seg = cur_addr[5:LaneW];
  end else begin : g_noseg
    assign cur_seg = 1'b0;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      bst_active_q <= 1'b0;
    end else if (w_fire) begin
      bst_active_q <= (cur_left != 8'd0);
    end else if (aw_fire) begin
      bst_active_q <= 1'b1;
    end
  end

  always_ff @(posedge clk_i) begin
    if (w_fire) begin
      bst_addr_q <= next_addr;
      bst_size_q <= cur_size;
      bst_left_q <= cur_left - 8'd1;
      bst_id_q   <= cur_id;
    end else if (aw_fire) begin
      bst_addr_q <= s_axi_awaddr_i;
      bst_size_q <= aw_size;
      bst_left_q <= s_axi_awlen_i;
      bst_id_q   <= s_axi_awid_i;
    end
  end

  // ---- Stage B register -------------------------------------------------------------------
  logic                 stb_valid_q;
  logic [SlotW-1:0]     stb_slot_q;
  logic                 stb_oor_q, stb_beyond_q, stb_last_q;
  logic [SegW-1:0]      stb_seg_q;
  logic [StrbW-1:0]     stb_bytes_q;
  logic [DataWidth-1:0] stb_data_q;
  logic [IdWidth-1:0]   stb_id_q;
  logic                 stb_adv, stb_fire;

  assign a_ready  = stb_adv;
  assign stb_fire = stb_valid_q && stb_adv;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      stb_valid_q <= 1'b0;
    end else if (stb_adv) begin
      stb_valid_q <= w_fire;
    end
  end

  always_ff @(posedge clk_i) begin
    if (w_fire) begin
      stb_slot_q   <= cur_page[SlotW-1:0];
      stb_oor_q    <= (32'(cur_page) >= NumSlots);
      stb_beyond_q <= (cur_addr[11:6] != 6'd0);
      stb_seg_q    <= cur_seg;
      stb_bytes_q  <= s_axi_wstrb_i & lanes;
      stb_data_q   <= s_axi_wdata_i;
      stb_last_q   <= (cur_left == 8'd0);
      stb_id_q     <= cur_id;
    end
  end

  // Beat bytes at their command positions (byte i of the command in bits [8i +: 8]).
  logic [CmdBytes-1:0]   bmask;
  logic [8*CmdBytes-1:0] bdata;
  always_comb begin
    for (int unsigned i = 0; i < CmdBytes; i++) begin
      bmask[i]        = (stb_seg_q == SegW'(i / BusBytes)) && stb_bytes_q[i % BusBytes];
      bdata[8*i +: 8] = stb_data_q[8*(i % BusBytes) +: 8];
    end
  end

  // ---- Per-slot state -----------------------------------------------------------------------
  logic [NumSlots-1:0]   enabled_q, mvalid_q;
  logic [31:0]           pid_mem  [NumSlots];
  logic [8*CmdBytes-1:0] buf_mem  [NumSlots];
  logic [CmdBytes-1:0]   mask_mem [NumSlots];
  logic [8*CmdBytes-1:0] buf_rd_q;
  logic [CmdBytes-1:0]   mask_rd_q;

  // Bypass: the previous decision's write (valid only if that decision wrote).
  logic                  byp_valid_q;
  logic [SlotW-1:0]      byp_slot_q;
  logic [CmdBytes-1:0]   byp_mask_q, byp_bmask_q;
  logic [DataWidth-1:0]  byp_data_q;

  // ---- Stage B decision ---------------------------------------------------------------------
  logic                  sub_valid_q;
  logic [SlotW-1:0]      sub_slot_q;
  logic                  slot_en, slot_busy, accept, wr_en, complete, byp_hit;
  logic [CmdBytes-1:0]   old_mask, new_mask, mask_wr;
  logic [8*CmdBytes-1:0] cmd_bytes;
  logic                  b_valid_q, b_ok, out_ok, err_acc_q;

  assign slot_en   = enabled_q[stb_slot_q] && nic_enable_i;
  assign slot_busy = busy_i[stb_slot_q] || (sub_valid_q && sub_slot_q == stb_slot_q);
  assign accept    = !stb_oor_q && slot_en && !slot_busy && !stb_beyond_q;
  assign byp_hit   = byp_valid_q && (byp_slot_q == stb_slot_q);
  assign old_mask  = !mvalid_q[stb_slot_q] ? '0 : (byp_hit ? byp_mask_q : mask_rd_q);
  assign new_mask  = old_mask | bmask;
  assign complete  = &new_mask;
  assign mask_wr   = complete ? '0 : new_mask;

  always_comb begin
    for (int unsigned i = 0; i < CmdBytes; i++) begin
      if (bmask[i]) begin
        cmd_bytes[8*i +: 8] = bdata[8*i +: 8];
      end else if (byp_hit && byp_bmask_q[i]) begin
        cmd_bytes[8*i +: 8] = byp_data_q[8*(i % BusBytes) +: 8];
      end else begin
        cmd_bytes[8*i +: 8] = buf_rd_q[8*i +: 8];
      end
    end
  end

  assign out_ok  = !sub_valid_q || sub_ready_i;
  assign b_ok    = !stb_last_q || !b_valid_q || s_axi_bready_i;
  assign stb_adv = !stb_valid_q || (out_ok && b_ok);
  assign wr_en   = stb_fire && accept;

  assign err_disabled_o = stb_fire && !stb_oor_q && !slot_en;
  assign err_busy_o     = stb_fire && !stb_oor_q && slot_en && slot_busy;

  // Buffer RAM: byte-enable write at the decision, synchronous read in stage A.
  always_ff @(posedge clk_i) begin
    if (wr_en) begin
      for (int unsigned i = 0; i < CmdBytes; i++) begin
        if (bmask[i]) buf_mem[stb_slot_q][8*i +: 8] <= bdata[8*i +: 8];
      end
    end
  end
  always_ff @(posedge clk_i) begin
    if (stb_adv) buf_rd_q <= buf_mem[cur_page[SlotW-1:0]];
  end

  // Mask RAM: whole-word write, synchronous read in stage A.
  always_ff @(posedge clk_i) begin
    if (wr_en) mask_mem[stb_slot_q] <= mask_wr;
  end
  always_ff @(posedge clk_i) begin
    if (stb_adv) mask_rd_q <= mask_mem[cur_page[SlotW-1:0]];
  end

  // Pid table: written by the commit, read at the decision.
  always_ff @(posedge clk_i) begin
    if (cfg_valid_i) pid_mem[cfg_slot_i] <= cfg_pid_i;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      enabled_q <= '0;
      mvalid_q  <= '0;
    end else begin
      if (wr_en) mvalid_q[stb_slot_q] <= 1'b1;
      // A commit is applied after a same-cycle write of the same slot.
      if (cfg_valid_i) begin
        enabled_q[cfg_slot_i] <= cfg_enable_i;
        mvalid_q[cfg_slot_i]  <= 1'b0;
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      byp_valid_q <= 1'b0;
    end else if (stb_adv) begin
      byp_valid_q <= wr_en;
    end
  end
  always_ff @(posedge clk_i) begin
    if (wr_en) begin
      byp_slot_q  <= stb_slot_q;
      byp_mask_q  <= mask_wr;
      byp_bmask_q <= bmask;
      byp_data_q  <= stb_data_q;
    end
  end

  // ---- Submission register ------------------------------------------------------------------
  logic [8*CmdBytes-1:0] sub_cmd_q;
  logic [31:0]           sub_pid_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      sub_valid_q <= 1'b0;
    end else if (wr_en && complete) begin
      sub_valid_q <= 1'b1;
    end else if (sub_ready_i) begin
      sub_valid_q <= 1'b0;
    end
  end
  always_ff @(posedge clk_i) begin
    if (wr_en && complete) begin
      sub_slot_q <= stb_slot_q;
      sub_pid_q  <= pid_mem[stb_slot_q];
      // Command byte 0 (AXI lane 0 of the page) is the struct's most significant byte.
      for (int unsigned i = 0; i < CmdBytes; i++) begin
        sub_cmd_q[8*(CmdBytes-1-i) +: 8] <= cmd_bytes[8*i +: 8];
      end
    end
  end

  assign sub_valid_o = sub_valid_q;
  assign sub_slot_o  = sub_slot_q;
  assign sub_cmd_o   = onerma_pkg::cmd_t'(sub_cmd_q);
  assign sub_pid_o   = sub_pid_q;

  // ---- B register ---------------------------------------------------------------------------
  logic [IdWidth-1:0] b_id_q;
  logic [1:0]         b_resp_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      b_valid_q <= 1'b0;
      err_acc_q <= 1'b0;
    end else begin
      if (stb_fire && stb_last_q) begin
        b_valid_q <= 1'b1;
      end else if (s_axi_bready_i) begin
        b_valid_q <= 1'b0;
      end
      if (stb_fire) begin
        err_acc_q <= !stb_last_q && (err_acc_q || !accept);
      end
    end
  end
  always_ff @(posedge clk_i) begin
    if (stb_fire && stb_last_q) begin
      b_id_q   <= stb_id_q;
      b_resp_q <= (err_acc_q || !accept) ? RespSlvErr : RespOkay;
    end
  end

  assign s_axi_bvalid_o = b_valid_q;
  assign s_axi_bid_o    = b_id_q;
  assign s_axi_bresp_o  = b_resp_q;

  // ---- Reads: zero data, OKAY, one beat per burst beat ------------------------------------
  logic               rd_active_q;
  logic [7:0]         rd_left_q;
  logic [IdWidth-1:0] rd_id_q;

  assign s_axi_arready_o = !rd_active_q;
  assign s_axi_rvalid_o  = rd_active_q;
  assign s_axi_rid_o     = rd_id_q;
  assign s_axi_rdata_o   = '0;
  assign s_axi_rresp_o   = RespOkay;
  assign s_axi_rlast_o   = (rd_left_q == 8'd0);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rd_active_q <= 1'b0;
    end else if (s_axi_arvalid_i && s_axi_arready_o) begin
      rd_active_q <= 1'b1;
    end else if (s_axi_rready_i && s_axi_rlast_o) begin
      rd_active_q <= 1'b0;
    end
  end
  always_ff @(posedge clk_i) begin
    if (s_axi_arvalid_i && s_axi_arready_o) begin
      rd_left_q <= s_axi_arlen_i;
      rd_id_q   <= s_axi_arid_i;
    end else if (rd_active_q && s_axi_rready_i) begin
      rd_left_q <= rd_left_q - 8'd1;
    end
  end

`ifndef SYNTHESIS
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (rst_ni) begin
      assert (!w_fire || s_axi_wlast_i == (cur_left == 8'd0))
      else $error("onerma_cmd_port: WLAST disagrees with AWLEN");
    end
  end
`endif

endmodule

`default_nettype wire
