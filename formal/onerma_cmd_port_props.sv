`default_nettype none

// Properties of onerma_cmd_port, bound into it when FORMAL is defined.
//
// A shadow of protocol §2.1 runs beside the design, fed only by the ports: its own AXI burst
// tracker decodes every W beat (slot, out of range, beyond byte 63, written bytes at their
// command positions) and holds it until the documented decision cycle (the first cycle after
// the handshake with the submission register free or taken and, for a last beat, the B register
// too). Per slot it keeps `enabled`, `pid` and the written-byte mask, cleared by every commit
// (applied after a same-cycle decision) and at each doorbell. The command bytes are followed
// through two symbolic constants: one slot `s` and one byte position `p` (registers holding
// their unconstrained initial value): the shadow keeps only the last byte written at position p
// of slot s. It predicts the submission register (valid, slot, pid, and byte p of a command of
// slot s), the B register (one per burst, in order, SLVERR iff a beat of the burst was refused)
// and the refusal pulses; all are asserted equal to the design. Since s and p are arbitrary,
// every byte of every slot's command is proven. The AXI4 port's contract is onerma_axi4_check,
// slave side (below): assumed, the master's rules (stream rule on AW, W and AR, AWSIZE <= the
// bus, no burst crosses 4 KB, WLAST marks a burst's last beat); asserted, the slave's (B and R
// rules, W only once its AW is offered). Asserted besides: the stream rule on the submission
// output, zero/OKAY read data with
// RLAST on the burst's last beat, and the invariants tying the mask RAM, byte p of slot s's
// buffer RAM, the read registers and the bypass to the shadow (what k-induction needs).
`ifdef FORMAL
module onerma_cmd_port_props #(
  parameter int unsigned NumSlots  = 2,
  parameter int unsigned DataWidth = 128,
  parameter int unsigned AddrWidth = 14,
  parameter int unsigned IdWidth   = 1,
  parameter int unsigned SlotW     = 1,
  parameter int unsigned BusBytes  = 16,
  parameter int unsigned StrbW     = 16
) (
  input logic                 clk_i,
  input logic                 rst_ni,
  input logic                 s_axi_awvalid_i,
  input logic                 s_axi_awready_o,
  input logic [IdWidth-1:0]   s_axi_awid_i,
  input logic [AddrWidth-1:0] s_axi_awaddr_i,
  input logic [7:0]           s_axi_awlen_i,
  input logic [2:0]           s_axi_awsize_i,
  input logic                 s_axi_wvalid_i,
  input logic                 s_axi_wready_o,
  input logic [DataWidth-1:0] s_axi_wdata_i,
  input logic [StrbW-1:0]     s_axi_wstrb_i,
  input logic                 s_axi_wlast_i,
  input logic                 s_axi_bvalid_o,
  input logic                 s_axi_bready_i,
  input logic [IdWidth-1:0]   s_axi_bid_o,
  input logic [1:0]           s_axi_bresp_o,
  input logic                 s_axi_arvalid_i,
  input logic                 s_axi_arready_o,
  input logic [IdWidth-1:0]   s_axi_arid_i,
  input logic [7:0]           s_axi_arlen_i,
  input logic                 s_axi_rvalid_o,
  input logic                 s_axi_rready_i,
  input logic [IdWidth-1:0]   s_axi_rid_o,
  input logic [DataWidth-1:0] s_axi_rdata_o,
  input logic [1:0]           s_axi_rresp_o,
  input logic                 s_axi_rlast_o,
  input logic                 cfg_valid_i,
  input logic [SlotW-1:0]     cfg_slot_i,
  input logic                 cfg_enable_i,
  input logic [31:0]          cfg_pid_i,
  input logic                 nic_enable_i,
  input logic [NumSlots-1:0]  busy_i,
  input logic                 sub_valid_o,
  input logic                 sub_ready_i,
  input logic [SlotW-1:0]     sub_slot_o,
  input onerma_pkg::cmd_t     sub_cmd_o,
  input logic [31:0]          sub_pid_o,
  input logic                 err_disabled_o,
  input logic                 err_busy_o,
  // Internal state (invariants).
  input logic                 bst_active_q,
  input logic [AddrWidth-1:0] bst_addr_q,
  input logic [2:0]           bst_size_q,
  input logic [7:0]           bst_left_q,
  input logic [IdWidth-1:0]   bst_id_q,
  input logic                 stb_valid_q,
  input logic [SlotW-1:0]     stb_slot_q,
  input logic                 stb_oor_q,
  input logic                 stb_beyond_q,
  input logic                 stb_last_q,
  input logic [IdWidth-1:0]   stb_id_q,
  input logic                 stb_fire,
  input logic [63:0]          bmask,
  input logic [511:0]         bdata,
  input logic                 wr_en,
  input logic                 complete,
  input logic [NumSlots-1:0]  enabled_q,
  input logic [NumSlots-1:0]  mvalid_q,
  input logic [31:0]          pid_mem  [NumSlots],
  input logic [511:0]         buf_mem  [NumSlots],
  input logic [63:0]          mask_mem [NumSlots],
  input logic [511:0]         buf_rd_q,
  input logic [63:0]          mask_rd_q,
  input logic                 byp_hit,
  input logic [63:0]          byp_mask_q,
  input logic [63:0]          byp_bmask_q,
  input logic [DataWidth-1:0] byp_data_q,
  input logic                 err_acc_q,
  input logic                 rd_active_q,
  input logic [7:0]           rd_left_q,
  input logic [IdWidth-1:0]   rd_id_q
);

  localparam int unsigned LaneW = $clog2(BusBytes);
  localparam int unsigned PageW = AddrWidth - 12;

  // Symbolic constants (registers holding their unconstrained initial value): the followed
  // slot s and command byte position p.
  logic [SlotW-1:0] s;
  logic [5:0]       p;
  always_ff @(posedge clk_i) begin
    s <= s;
    p <= p;
  end

  logic past_valid_q = 1'b0;
  always_ff @(posedge clk_i) past_valid_q <= 1'b1;
  always_comb if (!past_valid_q) assume (!rst_ni);

  // ---- The AXI master's rules (assumed) and the output stream rules (asserted).
  // The port's AXI4 contract: onerma_axi4_check, slave side. Assumed: the handshake rules on AW,
  // W and AR, AWSIZE within the bus, no burst across 4 KB, WLAST on the last beat of the burst
  // whose AW is offered, at most MaxWrites bursts without a B / MaxReads without their last R
  // (each one more than the block can hold, so no narrowing). Asserted: W taken only once its
  // AW is offered, the handshake rules on B and R, a B only for the oldest burst whose AW and
  // last W were taken, with its AWID, R beats only for an accepted AR, ARLEN + 1 of them with
  // RLAST on the last and the ARID. The port has no AWBURST / ARBURST (INCR), no ARADDR /
  // ARSIZE (tied to 0 here).
  localparam int unsigned MaxWrites = 4;
  localparam int unsigned MaxReads  = 2;
  localparam int unsigned WCntW     = $clog2(MaxWrites + 1);
  localparam int unsigned RCntW     = $clog2(MaxReads + 1);
  logic [WCntW-1:0] f_ax_out, f_ax_done, f_ax_hs;
  logic [RCntW-1:0] f_ax_rout;
  logic [7:0]       f_ax_wbeat, f_ax_wlen, f_ax_rbeat, f_ax_rlen;
  onerma_axi4_check #(
    .IdWidth  (IdWidth),
    .AddrWidth(AddrWidth),
    .DataWidth(DataWidth),
    .Master   (1'b0),
    .MaxWrites(MaxWrites),
    .MaxReads (MaxReads)
  ) u_axi (
    .clk_i, .rst_ni,
    .awvalid_i(s_axi_awvalid_i), .awready_i(s_axi_awready_o), .awid_i(s_axi_awid_i),
    .awaddr_i (s_axi_awaddr_i), .awlen_i(s_axi_awlen_i), .awsize_i(s_axi_awsize_i),
    .awburst_i(2'b01),
    .wvalid_i (s_axi_wvalid_i), .wready_i(s_axi_wready_o), .wdata_i(s_axi_wdata_i),
    .wstrb_i  (s_axi_wstrb_i), .wlast_i(s_axi_wlast_i),
    .bvalid_i (s_axi_bvalid_o), .bready_i(s_axi_bready_i), .bid_i(s_axi_bid_o),
    .bresp_i  (s_axi_bresp_o),
    .arvalid_i(s_axi_arvalid_i), .arready_i(s_axi_arready_o), .arid_i(s_axi_arid_i),
    .araddr_i ('0), .arlen_i(s_axi_arlen_i), .arsize_i(3'd0), .arburst_i(2'b01),
    .rvalid_i (s_axi_rvalid_o), .rready_i(s_axi_rready_i), .rid_i(s_axi_rid_o),
    .rdata_i  (s_axi_rdata_o), .rresp_i(s_axi_rresp_o), .rlast_i(s_axi_rlast_o),
    .wr_out_o (f_ax_out), .wr_done_o(f_ax_done), .wr_hs_o(f_ax_hs), .w_beat_o(f_ax_wbeat),
    .w_len_o  (f_ax_wlen), .rd_out_o(f_ax_rout), .r_beat_o(f_ax_rbeat), .r_len_o(f_ax_rlen)
  );
  // The other output stream.
  onerma_stream_check #(.Width(SlotW + 512 + 32), .Assume(1'b0)) u_sub_rule (
    .clk_i, .rst_ni, .valid_i(sub_valid_o), .ready_i(sub_ready_i),
    .data_i({sub_slot_o, sub_cmd_o, sub_pid_o}));
  // ---- Shadow burst tracker (from the ports only).
  logic                 sh_act_q;
  logic [AddrWidth-1:0] sh_addr_q;
  logic [2:0]           sh_size_q;
  logic [7:0]           sh_left_q;
  logic [IdWidth-1:0]   sh_id_q;
  wire                  aw_hs = s_axi_awvalid_i && s_axi_awready_o;
  wire                  w_hs  = s_axi_wvalid_i && s_axi_wready_o;
  wire [AddrWidth-1:0]  c_addr = sh_act_q ? sh_addr_q : s_axi_awaddr_i;
  wire [2:0]            c_size = sh_act_q ? sh_size_q : s_axi_awsize_i;
  wire [7:0]            c_left = sh_act_q ? sh_left_q : s_axi_awlen_i;
  wire [IdWidth-1:0]    c_id   = sh_act_q ? sh_id_q   : s_axi_awid_i;

  // (AWSIZE within the bus, no 4 KB crossing and WLAST on the last beat of the burst whose AW
  // is offered: onerma_axi4_check's assumptions above.)

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      sh_act_q <= 1'b0;
    end else if (w_hs) begin
      sh_act_q  <= (c_left != 0);
      sh_addr_q <= AddrWidth'(((c_addr >> c_size) + 1) << c_size);
      sh_size_q <= c_size;
      sh_left_q <= c_left - 8'd1;
      sh_id_q   <= c_id;
    end else if (aw_hs) begin
      sh_act_q  <= 1'b1;
      sh_addr_q <= s_axi_awaddr_i;
      sh_size_q <= s_axi_awsize_i;
      sh_left_q <= s_axi_awlen_i;
      sh_id_q   <= s_axi_awid_i;
    end
  end

  // The beat of this W handshake: bytes [c_addr, end of its size-aligned block) of the page.
  logic [12:0]  b_lo, b_hi;
  logic [63:0]  b_mask;
  logic [7:0]   b_byte;
  always_comb begin
    b_lo = 13'(c_addr[11:0]);
    b_hi = 13'(((32'(c_addr[11:0]) >> c_size) + 1) << c_size);  // exclusive
    for (int unsigned i = 0; i < 64; i++) begin
      // Page byte i is on lane i mod the bus width.
      b_mask[i] = (13'(i) >= b_lo) && (13'(i) < b_hi) && s_axi_wstrb_i[i % BusBytes];
    end
    // The beat's byte for position p.
    b_byte = s_axi_wdata_i[8*(32'(p) % BusBytes) +: 8];
  end

  // ---- The beat waiting for its decision.
  logic               p_valid_q, p_last_q, p_oor_q, p_beyond_q;
  logic [SlotW-1:0]   p_slot_q;
  logic [63:0]        p_mask_q;
  logic [7:0]         p_byte_q;
  logic [IdWidth-1:0] p_id_q;

  // ---- Per-slot shadow and the predicted output registers.
  logic [NumSlots-1:0] sh_en_q;
  logic [31:0]         sh_pid_q  [NumSlots];
  logic [63:0]         sh_mask_q [NumSlots];
  logic [7:0]          sh_byte_q;   // last byte written at position p of slot s
  logic                e_sv_q, e_bv_q, e_berr_q;
  logic [SlotW-1:0]    e_sslot_q;
  logic [7:0]          e_sbyte_q;   // byte p of the command (if of slot s)
  logic [31:0]         e_spid_q;
  logic [IdWidth-1:0]  e_bid_q;
  logic [1:0]          e_bresp_q;
  logic                e_ract_q;
  logic [7:0]          e_rleft_q;
  logic [IdWidth-1:0]  e_rid_q;

  wire          dec     = p_valid_q && (!e_sv_q || sub_ready_i)
                          && (!p_last_q || !e_bv_q || s_axi_bready_i);
  // A stopped NIC (nic_enable low when the beat is decided) treats every slot as disabled.
  wire          en      = sh_en_q[p_slot_q] && nic_enable_i;
  wire          busy    = busy_i[p_slot_q] || (e_sv_q && e_sslot_q == p_slot_q);
  wire          acc     = !p_oor_q && en && !busy && !p_beyond_q;
  wire [63:0]   newmask = sh_mask_q[p_slot_q] | p_mask_q;
  wire          door    = acc && (newmask == '1);
  wire [7:0]    merged  = p_mask_q[p] ? p_byte_q : sh_byte_q;
  wire [511:0]  sub_bits = 512'(sub_cmd_o);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      p_valid_q <= 1'b0;
      sh_en_q   <= '0;
      e_sv_q    <= 1'b0;
      e_bv_q    <= 1'b0;
      e_berr_q  <= 1'b0;
      e_ract_q  <= 1'b0;
      for (int unsigned j = 0; j < NumSlots; j++) sh_mask_q[j] <= '0;
    end else begin
      if (dec) p_valid_q <= 1'b0;
      if (w_hs) begin
        p_valid_q  <= 1'b1;
        p_last_q   <= (c_left == 0);
        p_oor_q    <= 32'(c_addr[AddrWidth-1:12]) >= NumSlots;
        p_beyond_q <= (c_addr[11:0] & ~12'(BusBytes - 1)) >= 12'd64;
        p_slot_q   <= c_addr[12 +: SlotW];
        p_mask_q   <= b_mask;
        p_byte_q   <= b_byte;
        p_id_q     <= c_id;
      end
      if (dec && acc) begin
        if (p_slot_q == s && p_mask_q[p]) sh_byte_q <= p_byte_q;
        sh_mask_q[p_slot_q] <= door ? '0 : newmask;
      end
      if (cfg_valid_i) begin
        sh_en_q[cfg_slot_i]   <= cfg_enable_i;
        sh_pid_q[cfg_slot_i]  <= cfg_pid_i;
        sh_mask_q[cfg_slot_i] <= '0;
      end
      if (dec && door) begin
        e_sv_q    <= 1'b1;
        e_sslot_q <= p_slot_q;
        e_sbyte_q <= merged;
        e_spid_q  <= sh_pid_q[p_slot_q];
      end else if (sub_ready_i) begin
        e_sv_q <= 1'b0;
      end
      if (dec && p_last_q) begin
        e_bv_q    <= 1'b1;
        e_bid_q   <= p_id_q;
        e_bresp_q <= (e_berr_q || !acc) ? 2'b10 : 2'b00;
      end else if (s_axi_bready_i) begin
        e_bv_q <= 1'b0;
      end
      if (dec) e_berr_q <= !p_last_q && (e_berr_q || !acc);
      if (s_axi_arvalid_i && s_axi_arready_o) begin
        e_ract_q  <= 1'b1;
        e_rleft_q <= s_axi_arlen_i;
        e_rid_q   <= s_axi_arid_i;
      end else if (s_axi_rvalid_o && s_axi_rready_i) begin
        e_ract_q  <= (e_rleft_q != 0);
        e_rleft_q <= e_rleft_q - 8'd1;
      end
    end
  end

  // ---- What the port promises.
  always_comb if (rst_ni) begin
    assert (sub_valid_o == e_sv_q);
    if (e_sv_q) begin
      assert (sub_slot_o == e_sslot_q);
      // Command byte p (byte 0 is the struct's most significant byte).
      if (e_sslot_q == s) assert (sub_bits[8*(63-32'(p)) +: 8] == e_sbyte_q);
      assert (sub_pid_o == e_spid_q);
    end
    assert (s_axi_bvalid_o == e_bv_q);
    if (e_bv_q) begin
      assert (s_axi_bid_o == e_bid_q);
      assert (s_axi_bresp_o == e_bresp_q);
    end
    assert (err_disabled_o == (dec && !p_oor_q && !en));
    assert (err_busy_o == (dec && !p_oor_q && en && busy));
    // Decided exactly at the documented cycle; written only when accepted; a doorbell only for
    // an enabled slot whose mask the beat completes.
    assert (stb_fire == dec);
    if (wr_en) assert (dec && acc);
    if (wr_en && complete) assert (en && newmask == '1);
    // Reads.
    assert (s_axi_rvalid_o == e_ract_q);
    if (e_ract_q) begin
      assert (s_axi_rdata_o == '0 && s_axi_rresp_o == 2'b00);
      assert (s_axi_rlast_o == (e_rleft_q == 0));
      assert (s_axi_rid_o == e_rid_q);
    end
  end

  // ---- Invariants (the design's state against the shadow).
  always_comb if (rst_ni) begin
    assert (bst_active_q == sh_act_q);
    if (sh_act_q) begin
      assert (bst_addr_q == sh_addr_q && bst_size_q == sh_size_q);
      assert (bst_left_q == sh_left_q && bst_id_q == sh_id_q);
      assert (32'(sh_size_q) <= LaneW);
      assert ((32'(sh_addr_q[11:0]) >> sh_size_q) + 32'(sh_left_q) < (4096 >> sh_size_q));
    end
    assert (stb_valid_q == p_valid_q);
    if (p_valid_q) begin
      assert (stb_slot_q == p_slot_q && stb_oor_q == p_oor_q && stb_beyond_q == p_beyond_q);
      assert (stb_last_q == p_last_q && stb_id_q == p_id_q);
      // (A beat beyond byte 63 is refused; its bytes are never used.)
      if (!p_beyond_q) assert (bmask == p_mask_q);
      if (p_mask_q[p]) assert (bdata[8*32'(p) +: 8] == p_byte_q);
    end
    assert (err_acc_q == e_berr_q);
    assert (enabled_q == sh_en_q);
    assert (rd_active_q == e_ract_q);
    if (e_ract_q) assert (rd_left_q == e_rleft_q && rd_id_q == e_rid_q);
    for (int unsigned j = 0; j < NumSlots; j++) begin
      if (sh_en_q[j]) assert (pid_mem[j] == sh_pid_q[j]);
      assert ((mvalid_q[j] ? mask_mem[j] : 64'd0) == sh_mask_q[j]);
    end
    if (sh_mask_q[s][p]) assert (buf_mem[s][8*32'(p) +: 8] == sh_byte_q);
    // The read registers plus the bypass show the RAMs as they are now.
    if (stb_valid_q) begin
      assert ((byp_hit ? byp_mask_q : mask_rd_q) == mask_mem[stb_slot_q]);
      if (stb_slot_q == s) begin
        assert (((byp_hit && byp_bmask_q[p]) ? byp_data_q[8*(32'(p) % BusBytes) +: 8]
                                             : buf_rd_q[8*32'(p) +: 8]) == buf_mem[s][8*32'(p) +: 8]);
      end
    end
  end

  // ---- The AXI4 checker's model against the design (k-induction): bursts in the B register,
  // the stage-B register (a last beat), the burst register and an AW held at the port, oldest
  // first; the read register.
  logic [2:0] f_nb, f_ns, f_na, f_nh;
  assign f_nb = 3'(s_axi_bvalid_o);
  assign f_ns = 3'(stb_valid_q && stb_last_q);
  assign f_na = 3'(bst_active_q);
  assign f_nh = 3'(u_axi.aw_held_q);
  always_comb if (rst_ni) begin
    assert (3'(f_ax_done) == f_nb + f_ns);
    assert (3'(f_ax_hs) == f_nb + f_ns + f_na);
    assert (3'(f_ax_out) == f_nb + f_ns + f_na + f_nh);
    if (stb_valid_q && !stb_last_q) assert (bst_active_q);
    if (s_axi_bvalid_o) assert (s_axi_bid_o == u_axi.wq_q[0].id);
    if (f_ns != '0) assert (stb_id_q == u_axi.wq_q[f_nb].id);
    if (bst_active_q) begin
      assert (bst_id_q == u_axi.wq_q[f_nb + f_ns].id);
      assert (f_ax_wbeat == u_axi.wq_q[f_nb + f_ns].len - bst_left_q);
    end else begin
      assert (f_ax_wbeat == '0);
    end
    if (u_axi.aw_held_q) begin
      assert (u_axi.wq_q[f_nb + f_ns + f_na].len == s_axi_awlen_i);
      assert (u_axi.wq_q[f_nb + f_ns + f_na].id == s_axi_awid_i);
    end
    assert (32'(f_ax_rout) == 32'(rd_active_q));
    if (rd_active_q) begin
      assert (rd_id_q == u_axi.rq_q[0].id && f_ax_rbeat == f_ax_rlen - rd_left_q);
    end else begin
      assert (f_ax_rbeat == '0);
    end
  end

  // ---- Reachability.
  logic two_beats_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) two_beats_q <= 1'b0;
    else if (dec && acc && !door && sh_mask_q[p_slot_q] != '0) two_beats_q <= 1'b1;
  end
  always_comb if (rst_ni) begin
    cover (sub_valid_o && two_beats_q);          // a command from several partial writes
    cover (err_disabled_o);
    cover (err_disabled_o && sh_en_q[p_slot_q]);
    cover (err_busy_o);
    cover (s_axi_bvalid_o && s_axi_bresp_o == 2'b10);
    cover (sub_valid_o && !sub_ready_i && s_axi_wvalid_i);  // W stalled by the submission
    cover (stb_fire && byp_hit);                 // the bypass used
    cover (s_axi_rvalid_o && s_axi_rlast_o);
  end

endmodule

bind onerma_cmd_port onerma_cmd_port_props #(
  .NumSlots (NumSlots),
  .DataWidth(DataWidth),
  .AddrWidth(AddrWidth),
  .IdWidth  (IdWidth),
  .SlotW    (SlotW),
  .BusBytes (BusBytes),
  .StrbW    (StrbW)
) u_props (.*);
`endif

`default_nettype wire
