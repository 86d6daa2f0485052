`default_nettype none

/// AXI4-Lite interface rules (AMBA AXI IHI0022, AXI4-Lite) for one port of a proof's top,
/// written once for every proof. Formal only (`FORMAL`): elsewhere the module is empty.
///
/// `Master` = 1: the design is the master (AW, W, AR asserted; B, R assumed); 0: the design is
/// the slave (AW, W, AR assumed; B, R asserted).
///
/// - Per channel (onerma_stream_check): VALID without READY stays high until the transfer,
///   the payload (address, data, strobes, response) does not change while stalled;
/// - reset: every VALID is low while `rst_ni` is low;
/// - one B per AW + W pair: BVALID only while an AW and a W have been transferred that no B has
///   answered yet (responder's rule);
/// - one R per AR: RVALID only while an AR has been transferred that no R has answered
///   (responder's rule);
/// - at most `MaxOut` AWs, Ws and ARs each unanswered (requester's rule: the model's bound;
///   choose it at least what the slave can hold, so that it does not narrow the proof).
///
/// The counters are outputs, so that a proof can tie them to the design's state (k-induction).
module onerma_axil_check #(
  parameter int unsigned AddrWidth = 32,
  parameter int unsigned DataWidth = 32,
  /// 1 = the design is the master; 0 = the slave.
  parameter bit          Master    = 1'b0,
  /// Unanswered requests per channel the model counts, >= 1.
  parameter int unsigned MaxOut    = 2,
  // Derived.
  parameter int unsigned StrbWidth = DataWidth / 8,
  parameter int unsigned CntW      = $clog2(MaxOut + 1)
) (
  input logic                 clk_i,
  input logic                 rst_ni,
  input logic                 awvalid_i,
  input logic                 awready_i,
  input logic [AddrWidth-1:0] awaddr_i,
  input logic                 wvalid_i,
  input logic                 wready_i,
  input logic [DataWidth-1:0] wdata_i,
  input logic [StrbWidth-1:0] wstrb_i,
  input logic                 bvalid_i,
  input logic                 bready_i,
  input logic [1:0]           bresp_i,
  input logic                 arvalid_i,
  input logic                 arready_i,
  input logic [AddrWidth-1:0] araddr_i,
  input logic                 rvalid_i,
  input logic                 rready_i,
  input logic [DataWidth-1:0] rdata_i,
  input logic [1:0]           rresp_i,
  // The model, for a proof's invariants.
  output logic [CntW-1:0]     aw_out_o,   // AWs transferred, no B yet
  output logic [CntW-1:0]     w_out_o,    // Ws transferred, no B yet
  output logic [CntW-1:0]     ar_out_o    // ARs transferred, no R yet
);

`ifdef FORMAL
  localparam bit AsmReq = !Master;
  localparam bit AsmRsp = Master;

  onerma_stream_check #(.Width(AddrWidth), .Assume(AsmReq)) u_aw (
    .clk_i, .rst_ni, .valid_i(awvalid_i), .ready_i(awready_i), .data_i(awaddr_i));
  onerma_stream_check #(.Width(DataWidth + StrbWidth), .Assume(AsmReq)) u_w (
    .clk_i, .rst_ni, .valid_i(wvalid_i), .ready_i(wready_i), .data_i({wdata_i, wstrb_i}));
  onerma_stream_check #(.Width(2), .Assume(AsmRsp)) u_b (
    .clk_i, .rst_ni, .valid_i(bvalid_i), .ready_i(bready_i), .data_i(bresp_i));
  onerma_stream_check #(.Width(AddrWidth), .Assume(AsmReq)) u_ar (
    .clk_i, .rst_ni, .valid_i(arvalid_i), .ready_i(arready_i), .data_i(araddr_i));
  onerma_stream_check #(.Width(DataWidth + 2), .Assume(AsmRsp)) u_r (
    .clk_i, .rst_ni, .valid_i(rvalid_i), .ready_i(rready_i), .data_i({rdata_i, rresp_i}));

  logic [CntW-1:0] aw_q, w_q, ar_q;
  logic            aw_fire, w_fire, b_fire, ar_fire, r_fire;
  assign aw_fire = awvalid_i && awready_i;
  assign w_fire  = wvalid_i && wready_i;
  assign b_fire  = bvalid_i && bready_i;
  assign ar_fire = arvalid_i && arready_i;
  assign r_fire  = rvalid_i && rready_i;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      aw_q <= '0;
      w_q  <= '0;
      ar_q <= '0;
    end else begin
      aw_q <= aw_q + CntW'(aw_fire) - CntW'(b_fire);
      w_q  <= w_q + CntW'(w_fire) - CntW'(b_fire);
      ar_q <= ar_q + CntW'(ar_fire) - CntW'(r_fire);
    end
  end

  assign aw_out_o = aw_q;
  assign w_out_o  = w_q;
  assign ar_out_o = ar_q;

  logic req_ok, rsp_ok, req_reset_ok, rsp_reset_ok;
  assign req_ok = (!awvalid_i || 32'(aw_q) < MaxOut) && (!wvalid_i || 32'(w_q) < MaxOut) &&
                  (!arvalid_i || 32'(ar_q) < MaxOut);
  assign rsp_ok = (!bvalid_i || (aw_q != '0 && w_q != '0)) && (!rvalid_i || ar_q != '0);
  assign req_reset_ok = rst_ni || (!awvalid_i && !wvalid_i && !arvalid_i);
  assign rsp_reset_ok = rst_ni || (!bvalid_i && !rvalid_i);

  if (AsmReq) begin : g_req_assume
    always_comb begin
      assume (req_reset_ok);
      if (rst_ni) assume (req_ok);
    end
  end else begin : g_req_assert
    always_comb begin
      assert (req_reset_ok);
      if (rst_ni) assert (req_ok);
    end
  end
  if (AsmRsp) begin : g_rsp_assume
    always_comb begin
      assume (rsp_reset_ok);
      if (rst_ni) assume (rsp_ok);
    end
  end else begin : g_rsp_assert
    always_comb begin
      assert (rsp_reset_ok);
      if (rst_ni) assert (rsp_ok);
    end
  end
  // The model's ranges (k-induction).
  always_comb if (rst_ni) begin
    assert (32'(aw_q) <= MaxOut && 32'(w_q) <= MaxOut && 32'(ar_q) <= MaxOut);
  end
`else
  assign aw_out_o = '0;
  assign w_out_o  = '0;
  assign ar_out_o = '0;

  logic unused;
  assign unused = ^{clk_i, rst_ni, awvalid_i, awready_i, awaddr_i, wvalid_i, wready_i, wdata_i,
                    wstrb_i, bvalid_i, bready_i, bresp_i, arvalid_i, arready_i, araddr_i,
                    rvalid_i, rready_i, rdata_i, rresp_i, Master};
`endif

endmodule

`default_nettype wire
