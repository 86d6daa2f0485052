`default_nettype none

/// AXI4 interface rules (AMBA AXI IHI0022) for one AXI4 port of a proof's top, written once for
/// every proof. Formal only (`FORMAL`): elsewhere the module is empty.
///
/// `Master` = 1: the design is the master. Its request channels (AW, W, AR) are asserted, the
/// response channels (B, R) are assumed. `Master` = 0: the design is the slave, the other way
/// round. Rules that belong to the requester (the master) are assumed for a slave and asserted
/// for a master; rules that belong to the responder the opposite.
///
/// Per channel (onerma_stream_check): VALID without READY stays high until the transfer, the
/// payload does not change while stalled. Reset: every VALID is low while `rst_ni` is low.
///
/// Write bursts, counted from their AW's first offered cycle (AWVALID high, not held from the
/// previous cycle) to their B:
/// - ordering of our blocks: a W beat is transferred only once its burst's AW is offered (in
///   that cycle or earlier). Asserted on both sides: a master does not start W before its AW, a
///   slave does not take W before the AW (the spec lets a slave wait for AWVALID before WREADY);
/// - W beats: AWLEN + 1 per burst, WLAST exactly on the last (requester's rule, checked on every
///   W beat whose AW is offered);
/// - AW: AWBURST = INCR, AWSIZE <= log2(DataWidth / 8), the burst does not cross a 4 KB page;
/// - at most `MaxWrites` bursts outstanding (requester's rule: the bound of the model);
/// - B (responder's rule): only for the oldest burst without a B, after its AW handshake and its
///   last W beat, with that burst's AWID.
/// Read bursts, from their AR handshake to their last R beat:
/// - AR: ARBURST = INCR, ARSIZE within the bus, no 4 KB crossing; at most `MaxReads` bursts
///   outstanding (requester's rules);
/// - R (responder's rules): only while a burst is outstanding, ARLEN + 1 beats per burst, RLAST
///   exactly on the last, with the burst's ARID.
/// Responses come in request order (one ordering for all IDs): our blocks use one ID as masters
/// and answer in order as slaves; an interleaving slave would need a per-ID model.
///
/// The outstanding bursts are a bounded queue (MaxWrites / MaxReads entries of {len, id}) and
/// small counters; `wr_out_o`, `wr_done_o`, `wr_hs_o`, `rd_out_o`, `w_beat_o`, `r_beat_o` and the
/// queues' heads expose the model so that a proof can tie it to the design's state (what
/// k-induction needs).
module onerma_axi4_check #(
  parameter int unsigned IdWidth   = 1,
  parameter int unsigned AddrWidth = 64,
  parameter int unsigned DataWidth = 128,
  /// 1 = the design is the master (AW/W/AR asserted, B/R assumed); 0 = the slave.
  parameter bit          Master    = 1'b1,
  /// Outstanding write bursts (AW offered, no B yet) the model holds, >= 1.
  parameter int unsigned MaxWrites = 2,
  /// Outstanding read bursts (AR transferred, last R not yet), >= 1.
  parameter int unsigned MaxReads  = 2,
  // Derived.
  parameter int unsigned StrbWidth = DataWidth / 8,
  parameter int unsigned WCntW     = $clog2(MaxWrites + 1),
  parameter int unsigned RCntW     = $clog2(MaxReads + 1)
) (
  input logic                 clk_i,
  input logic                 rst_ni,
  input logic                 awvalid_i,
  input logic                 awready_i,
  input logic [IdWidth-1:0]   awid_i,
  input logic [AddrWidth-1:0] awaddr_i,
  input logic [7:0]           awlen_i,
  input logic [2:0]           awsize_i,
  input logic [1:0]           awburst_i,
  input logic                 wvalid_i,
  input logic                 wready_i,
  input logic [DataWidth-1:0] wdata_i,
  input logic [StrbWidth-1:0] wstrb_i,
  input logic                 wlast_i,
  input logic                 bvalid_i,
  input logic                 bready_i,
  input logic [IdWidth-1:0]   bid_i,
  input logic [1:0]           bresp_i,
  input logic                 arvalid_i,
  input logic                 arready_i,
  input logic [IdWidth-1:0]   arid_i,
  input logic [AddrWidth-1:0] araddr_i,
  input logic [7:0]           arlen_i,
  input logic [2:0]           arsize_i,
  input logic [1:0]           arburst_i,
  input logic                 rvalid_i,
  input logic                 rready_i,
  input logic [IdWidth-1:0]   rid_i,
  input logic [DataWidth-1:0] rdata_i,
  input logic [1:0]           rresp_i,
  input logic                 rlast_i,
  // The model, for a proof's invariants.
  output logic [WCntW-1:0]    wr_out_o,    // bursts with AW offered, no B
  output logic [WCntW-1:0]    wr_done_o,   // of these, W complete
  output logic [WCntW-1:0]    wr_hs_o,     // of these, AW transferred
  output logic [7:0]          w_beat_o,    // W beats of the current burst so far
  output logic [7:0]          w_len_o,     // AWLEN of the burst W is on (queue entry)
  output logic [RCntW-1:0]    rd_out_o,    // read bursts transferred, last R not yet
  output logic [7:0]          r_beat_o,    // R beats of the oldest read burst so far
  output logic [7:0]          r_len_o      // its ARLEN
);

`ifdef FORMAL
  localparam int unsigned LaneW = $clog2(StrbWidth);
  localparam bit          AsmReq = !Master;  // requester's rules assumed (design is a slave)
  localparam bit          AsmRsp = Master;   // responder's rules assumed (design is a master)

  // ---- Per-channel handshake rules.
  onerma_stream_check #(.Width(IdWidth + AddrWidth + 8 + 3 + 2), .Assume(AsmReq)) u_aw (
    .clk_i, .rst_ni, .valid_i(awvalid_i), .ready_i(awready_i),
    .data_i({awid_i, awaddr_i, awlen_i, awsize_i, awburst_i}));
  onerma_stream_check #(.Width(DataWidth + StrbWidth + 1), .Assume(AsmReq)) u_w (
    .clk_i, .rst_ni, .valid_i(wvalid_i), .ready_i(wready_i),
    .data_i({wdata_i, wstrb_i, wlast_i}));
  onerma_stream_check #(.Width(IdWidth + 2), .Assume(AsmRsp)) u_b (
    .clk_i, .rst_ni, .valid_i(bvalid_i), .ready_i(bready_i), .data_i({bid_i, bresp_i}));
  onerma_stream_check #(.Width(IdWidth + AddrWidth + 8 + 3 + 2), .Assume(AsmReq)) u_ar (
    .clk_i, .rst_ni, .valid_i(arvalid_i), .ready_i(arready_i),
    .data_i({arid_i, araddr_i, arlen_i, arsize_i, arburst_i}));
  onerma_stream_check #(.Width(IdWidth + DataWidth + 2 + 1), .Assume(AsmRsp)) u_r (
    .clk_i, .rst_ni, .valid_i(rvalid_i), .ready_i(rready_i),
    .data_i({rid_i, rdata_i, rresp_i, rlast_i}));

  // ---- Write model.
  typedef struct packed {
    logic [7:0]         len;
    logic [IdWidth-1:0] id;
  } ent_t;

  ent_t             wq_q [MaxWrites];
  logic [WCntW-1:0] wout_q, wdone_q, whs_q;
  logic [7:0]       wbeat_q;
  logic             aw_held_q;
  logic             new_aw, aw_fire, w_fire, w_end, b_fire, w_known;
  logic [7:0]       w_len;

  assign new_aw  = awvalid_i && !aw_held_q;
  assign aw_fire = awvalid_i && awready_i;
  assign w_fire  = wvalid_i && wready_i;
  assign w_end   = w_fire && wlast_i;
  assign b_fire  = bvalid_i && bready_i;
  // The burst W is on: the oldest offered one without all its beats, else the one offered now.
  assign w_known = (wdone_q < wout_q) || new_aw;
  assign w_len   = (wdone_q < wout_q) ? wq_q[wdone_q].len : awlen_i;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      aw_held_q <= 1'b0;
      wout_q    <= '0;
      wdone_q   <= '0;
      whs_q     <= '0;
      wbeat_q   <= '0;
    end else begin
      aw_held_q <= awvalid_i && !awready_i;
      wout_q    <= wout_q + WCntW'(new_aw) - WCntW'(b_fire);
      wdone_q   <= wdone_q + WCntW'(w_end) - WCntW'(b_fire);
      whs_q     <= whs_q + WCntW'(aw_fire) - WCntW'(b_fire);
      if (w_fire) wbeat_q <= w_end ? 8'd0 : wbeat_q + 8'd1;
    end
  end

  // The queue: entry 0 is the oldest burst without a B; a B pops it.
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      if (b_fire) begin
        for (int unsigned i = 0; i + 1 < MaxWrites; i++) wq_q[i] <= wq_q[i + 1];
      end
      if (new_aw && 32'(wout_q) < MaxWrites) begin
        wq_q[32'(wout_q) - 32'(b_fire)] <= '{len: awlen_i, id: awid_i};
      end
    end
  end

  // ---- Read model.
  ent_t             rq_q [MaxReads];
  logic [RCntW-1:0] rout_q;
  logic [7:0]       rbeat_q;
  logic             ar_fire, r_fire, r_end;

  assign ar_fire = arvalid_i && arready_i;
  assign r_fire  = rvalid_i && rready_i;
  assign r_end   = r_fire && rlast_i;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rout_q  <= '0;
      rbeat_q <= '0;
    end else begin
      rout_q <= rout_q + RCntW'(ar_fire) - RCntW'(r_end);
      if (r_fire) rbeat_q <= r_end ? 8'd0 : rbeat_q + 8'd1;
    end
  end

  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      if (r_end) begin
        for (int unsigned i = 0; i + 1 < MaxReads; i++) rq_q[i] <= rq_q[i + 1];
      end
      if (ar_fire && 32'(rout_q) < MaxReads) begin
        rq_q[32'(rout_q) - 32'(r_end)] <= '{len: arlen_i, id: arid_i};
      end
    end
  end

  assign wr_out_o  = wout_q;
  assign wr_done_o = wdone_q;
  assign wr_hs_o   = whs_q;
  assign w_beat_o  = wbeat_q;
  assign w_len_o   = w_len;
  assign rd_out_o  = rout_q;
  assign r_beat_o  = rbeat_q;
  assign r_len_o   = rq_q[0].len;

  // ---- The rules.
  logic aw_ok, ar_ok, wlast_ok, req_reset_ok, rsp_reset_ok;
  logic b_ok, r_ok, model_ok;
  assign aw_ok = !awvalid_i ||
                 (awburst_i == 2'b01 && 32'(awsize_i) <= LaneW &&
                  (32'(awaddr_i[11:0]) >> awsize_i) + 32'(awlen_i) < (32'd4096 >> awsize_i) &&
                  (!new_aw || 32'(wout_q) < MaxWrites));
  assign ar_ok = !arvalid_i ||
                 (arburst_i == 2'b01 && 32'(arsize_i) <= LaneW &&
                  (32'(araddr_i[11:0]) >> arsize_i) + 32'(arlen_i) < (32'd4096 >> arsize_i) &&
                  32'(rout_q) < MaxReads);
  assign wlast_ok = !(wvalid_i && w_known) || (wlast_i == (wbeat_q == w_len));
  assign req_reset_ok = rst_ni || (!awvalid_i && !wvalid_i && !arvalid_i);
  assign rsp_reset_ok = rst_ni || (!bvalid_i && !rvalid_i);
  assign b_ok = !bvalid_i ||
                (wdone_q != '0 && whs_q != '0 && bid_i == wq_q[0].id);
  assign r_ok = !rvalid_i ||
                (rout_q != '0 && rid_i == rq_q[0].id && rlast_i == (rbeat_q == rq_q[0].len));
  // The model's own ranges (true of every reachable state; k-induction needs them).
  assign model_ok = 32'(wout_q) <= MaxWrites && wdone_q <= wout_q && whs_q <= wout_q &&
                    32'(rout_q) <= MaxReads;

  if (AsmReq) begin : g_req_assume
    always_comb begin
      assume (req_reset_ok);
      if (rst_ni) begin
        assume (aw_ok);
        assume (ar_ok);
        assume (wlast_ok);
      end
    end
  end else begin : g_req_assert
    always_comb begin
      assert (req_reset_ok);
      if (rst_ni) begin
        assert (aw_ok);
        assert (ar_ok);
        assert (wlast_ok);
      end
    end
  end
  if (AsmRsp) begin : g_rsp_assume
    always_comb begin
      assume (rsp_reset_ok);
      if (rst_ni) begin
        assume (b_ok);
        assume (r_ok);
      end
    end
  end else begin : g_rsp_assert
    always_comb begin
      assert (rsp_reset_ok);
      if (rst_ni) begin
        assert (b_ok);
        assert (r_ok);
      end
    end
  end
  // Our blocks' W-after-AW order: asserted on both sides (see above). The model's ranges.
  always_comb if (rst_ni) begin
    if (w_fire) assert (w_known);
    assert (model_ok);
  end

  logic unused;
  assign unused = ^{bresp_i, rresp_i, rdata_i, wdata_i, wstrb_i};
`else
  assign wr_out_o  = '0;
  assign wr_done_o = '0;
  assign wr_hs_o   = '0;
  assign w_beat_o  = '0;
  assign w_len_o   = '0;
  assign rd_out_o  = '0;
  assign r_beat_o  = '0;
  assign r_len_o   = '0;

  logic unused;
  assign unused = ^{clk_i, rst_ni, awvalid_i, awready_i, awid_i, awaddr_i, awlen_i, awsize_i,
                    awburst_i, wvalid_i, wready_i, wdata_i, wstrb_i, wlast_i, bvalid_i,
                    bready_i, bid_i, bresp_i, arvalid_i, arready_i, arid_i, araddr_i, arlen_i,
                    arsize_i, arburst_i, rvalid_i, rready_i, rid_i, rdata_i, rresp_i, rlast_i, Master};
`endif

endmodule

`default_nettype wire
