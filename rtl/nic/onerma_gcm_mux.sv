`default_nettype none

/// Shares one AES-GCM engine pool (onerma_gcm_pool) between `NumClients` clients (the NIC's
/// transmit sealer and receive opener, of both halves).
///
/// - desc: a round-robin arbiter (onerma_rr_arb) picks a client's descriptor; the pool gets it
///   with meta `{client, client meta}` (the client id in the most significant bits).
/// - din: the pool takes beats in descriptor order on one shared stream, so every accepted
///   descriptor with beats writes `{client, beats}` into an order FIFO, and the FIFO's head
///   decides whose beats pass. A client whose beats stall therefore stalls every client behind
///   it: clients must offer a descriptor only when its whole message can follow at once
///   (the sealer and opener stage whole messages first; docs/nic.md).
/// - dout, res: steered to the client named by the meta's client field, with the client's meta
///   bits. A client that does not take its output stalls the pool's output for everybody, so
///   clients must sink dout and res without waiting on another client.
///
/// Payload types as the pool's (onerma_gcm_pool), with a `MetaW`-bit meta on the client side
/// and a `PoolMetaW`-bit meta on the pool side; instantiate the pool with
/// `meta_t = logic [PoolMetaW-1:0]` and the same `Lanes`: din and dout carry words of `Lanes`
/// 128-bit beats in the pool's word format (each part of a message starts in a new word, beat 0
/// in the top bits), and the order FIFO counts words as the pool's route does.
module onerma_gcm_mux #(
  parameter int unsigned NumClients = 2,
  parameter int unsigned LenW       = 16,
  /// Client meta width.
  parameter int unsigned MetaW      = 8,
  /// Order FIFO entries: descriptors accepted whose beats have not all passed. The pool keeps
  /// 2 x NumEngines routes; more here buys nothing.
  parameter int unsigned OrderDepth = 4,
  /// 128-bit beats per din / dout word, as the pool's (a power of two; 1: one beat).
  parameter int unsigned Lanes      = 1,
  // Derived, do not override.
  parameter int unsigned CidW       = (NumClients > 1) ? $clog2(NumClients) : 1,
  parameter int unsigned PoolMetaW  = CidW + MetaW,
  parameter int unsigned BeatW      = LenW - 2,
  parameter int unsigned WordW      = Lanes * 128,
  parameter type         cdesc_t    = struct packed {
    logic [127:0]     key;
    logic [95:0]      iv;
    logic [LenW-1:0]  aad_len;
    logic [LenW-1:0]  pt_len;
    logic             decrypt;
    logic [127:0]     tag;
    logic [MetaW-1:0] meta;
  },
  parameter type         pdesc_t    = struct packed {
    logic [127:0]         key;
    logic [95:0]          iv;
    logic [LenW-1:0]      aad_len;
    logic [LenW-1:0]      pt_len;
    logic                 decrypt;
    logic [127:0]         tag;
    logic [PoolMetaW-1:0] meta;
  },
  parameter type         wdin_t     = struct packed {
    logic [WordW-1:0] data;
  },
  parameter type         cdout_t    = struct packed {
    logic [WordW-1:0] data;
    logic             last;
    logic [MetaW-1:0] meta;
  },
  parameter type         pdout_t    = struct packed {
    logic [WordW-1:0]     data;
    logic                 last;
    logic [PoolMetaW-1:0] meta;
  },
  parameter type         cres_t     = struct packed {
    logic [127:0]     tag;
    logic             auth_ok;
    logic [MetaW-1:0] meta;
  },
  parameter type         pres_t     = struct packed {
    logic [127:0]         tag;
    logic                 auth_ok;
    logic [PoolMetaW-1:0] meta;
  }
) (
  input  logic                                  clk_i,
  input  logic                                  rst_ni,

  // Clients.
  input  logic [NumClients-1:0]                 c_desc_valid_i,
  output logic [NumClients-1:0]                 c_desc_ready_o,
  input  cdesc_t [NumClients-1:0]               c_desc_data_i,
  input  logic [NumClients-1:0]                 c_din_valid_i,
  output logic [NumClients-1:0]                 c_din_ready_o,
  input  wdin_t [NumClients-1:0]                c_din_data_i,
  output logic [NumClients-1:0]                 c_dout_valid_o,
  input  logic [NumClients-1:0]                 c_dout_ready_i,
  output cdout_t                                c_dout_data_o,
  output logic [NumClients-1:0]                 c_res_valid_o,
  input  logic [NumClients-1:0]                 c_res_ready_i,
  output cres_t                                 c_res_data_o,

  // The pool.
  output logic                                  p_desc_valid_o,
  input  logic                                  p_desc_ready_i,
  output pdesc_t                                p_desc_data_o,
  output logic                                  p_din_valid_o,
  input  logic                                  p_din_ready_i,
  output wdin_t                                 p_din_data_o,
  input  logic                                  p_dout_valid_i,
  output logic                                  p_dout_ready_o,
  input  pdout_t                                p_dout_data_i,
  input  logic                                  p_res_valid_i,
  output logic                                  p_res_ready_o,
  input  pres_t                                 p_res_data_i
);

  typedef struct packed {
    logic [CidW-1:0]  cid;
    logic [BeatW-1:0] beats;
  } order_t;

  // din words of a part of len bytes, as the pool counts them: ceil(ceil(len / 16) / Lanes).
  function automatic logic [BeatW-1:0] beats(input logic [LenW-1:0] len);
    return BeatW'((onerma_gcm_pkg::beat_count(32'(len)) + Lanes - 1) >> $clog2(Lanes));
  endfunction

  // ---------------------------------------------------------------------------------------------
  // Descriptors.
  // ---------------------------------------------------------------------------------------------
  logic             arb_valid, arb_ready, order_in_ready;
  cdesc_t           arb_desc;
  logic [CidW-1:0]  arb_cid;
  logic [BeatW-1:0] arb_beats;

  onerma_rr_arb #(
    .N(NumClients),
    .T(cdesc_t)
  ) u_arb (
    .clk_i,
    .rst_ni,
    .in_valid_i (c_desc_valid_i),
    .in_ready_o (c_desc_ready_o),
    .in_data_i  (c_desc_data_i),
    .out_valid_o(arb_valid),
    .out_ready_i(arb_ready),
    .out_data_o (arb_desc),
    .out_idx_o  (arb_cid)
  );

  assign arb_beats = beats(arb_desc.aad_len) + beats(arb_desc.pt_len);
  // order_in_ready falls only after a push of ours, so a descriptor offered to the pool stays
  // offered until the pool takes it (the stream rule on the pool's input).
  assign p_desc_valid_o = arb_valid && (order_in_ready || (arb_beats == '0));
  assign arb_ready      = p_desc_ready_i && (order_in_ready || (arb_beats == '0));
  assign p_desc_data_o  = '{
    key:     arb_desc.key,
    iv:      arb_desc.iv,
    aad_len: arb_desc.aad_len,
    pt_len:  arb_desc.pt_len,
    decrypt: arb_desc.decrypt,
    tag:     arb_desc.tag,
    meta:    {arb_cid, arb_desc.meta}
  };

  // ---------------------------------------------------------------------------------------------
  // Beats, in descriptor order.
  // ---------------------------------------------------------------------------------------------
  logic             order_valid, order_pop, din_xfer;
  order_t           order;
  logic [BeatW-1:0] beat_q;

  onerma_fifo #(
    .T    (order_t),
    .Depth(OrderDepth)
  ) u_order (
    .clk_i,
    .rst_ni,
    .flush_i    (1'b0),
    .in_valid_i (arb_valid && arb_ready && (arb_beats != '0)),
    .in_ready_o (order_in_ready),
    .in_data_i  ('{cid: arb_cid, beats: arb_beats}),
    .out_valid_o(order_valid),
    .out_ready_i(order_pop),
    .out_data_o (order),
    /* verilator lint_off PINCONNECTEMPTY */
    .count_o    ()
    /* verilator lint_on PINCONNECTEMPTY */
  );

  always_comb begin
    p_din_valid_o = 1'b0;
    p_din_data_o  = '0;
    c_din_ready_o = '0;
    for (int unsigned i = 0; i < NumClients; i++) begin
      if (order_valid && (order.cid == CidW'(i))) begin
        p_din_valid_o    = c_din_valid_i[i];
        p_din_data_o     = c_din_data_i[i];
        c_din_ready_o[i] = p_din_ready_i;
      end
    end
  end

  assign din_xfer  = p_din_valid_o && p_din_ready_i;
  assign order_pop = din_xfer && (beat_q == order.beats - BeatW'(1));

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      beat_q <= '0;
    end else if (din_xfer) begin
      beat_q <= order_pop ? '0 : beat_q + BeatW'(1);
    end
  end

  // ---------------------------------------------------------------------------------------------
  // Outputs, steered by the meta's client field.
  // ---------------------------------------------------------------------------------------------
  logic [CidW-1:0] dout_cid, res_cid;

  assign dout_cid      = p_dout_data_i.meta[PoolMetaW-1 -: CidW];
  assign res_cid       = p_res_data_i.meta[PoolMetaW-1 -: CidW];
  assign c_dout_data_o = '{
    data: p_dout_data_i.data,
    last: p_dout_data_i.last,
    meta: p_dout_data_i.meta[MetaW-1:0]
  };
  assign c_res_data_o  = '{
    tag:     p_res_data_i.tag,
    auth_ok: p_res_data_i.auth_ok,
    meta:    p_res_data_i.meta[MetaW-1:0]
  };

  always_comb begin
    c_dout_valid_o = '0;
    c_res_valid_o  = '0;
    p_dout_ready_o = 1'b0;
    p_res_ready_o  = 1'b0;
    for (int unsigned i = 0; i < NumClients; i++) begin
      if (dout_cid == CidW'(i)) begin
        c_dout_valid_o[i] = p_dout_valid_i;
        p_dout_ready_o    = c_dout_ready_i[i];
      end
      if (res_cid == CidW'(i)) begin
        c_res_valid_o[i] = p_res_valid_i;
        p_res_ready_o    = c_res_ready_i[i];
      end
    end
  end

endmodule

`default_nettype wire
