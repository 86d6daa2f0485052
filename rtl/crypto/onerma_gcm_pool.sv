`default_nettype none

/// NumEngines AES-GCM engines (onerma_gcm_engine) behind one set of the engine's streams.
///
/// Data formats: the engine's four streams and payload types (onerma_gcm_engine), except that
/// results come out in completion order and dout beats of different messages may interleave.
/// - desc: each descriptor goes to an engine that can take one (desc_ready), searched with a
///   rotating start (onerma_rr_pick) so consecutive messages spread over the engines; any engine
///   may get any message.
/// - din: the beats follow the descriptors' order on one shared stream; a route FIFO
///   {engine, beats} written at each descriptor handshake sends each message's beats to its
///   engine. Messages without beats (no AAD, no payload) take no route entry.
/// - dout, res: round-robin arbiters (onerma_rr_arb) over the engines; each beat and result
///   carries its meta (and each beat its last).
/// Lanes = 1: din and dout carry one 128-bit beat, and the aggregate rate is bounded by the one
/// beat per cycle of the shared din stream; with slow (iterative) engines give them an InDepth
/// that holds a whole message so a message enters at full rate and the next one can start on
/// another engine.
/// Lanes > 1: din and dout carry words of Lanes beats (onerma_gcm_lane's formats: each part of a
/// message starts in a new word, beat 0 in the top bits), each engine sits behind a lane
/// (onerma_gcm_lane) whose word buffer takes a whole message at one word per cycle and admits a
/// descriptor only when the message's words fit, so the shared din stream never waits for an
/// engine's keystream; up to Lanes engines then work at once on one stream (docs/crypto.md).
/// The route counts words instead of beats.
///
/// The payload types are passed down to the engines, so one definition serves the whole pool.
///
/// AbstractEngines = 1 replaces the engines by onerma_gcm_engine_abstract (formal/ only): the
/// AES/GHASH datapath is beyond a solver, the pool's routing is what the proof is about.
module onerma_gcm_pool #(
  parameter int unsigned NumEngines      = 2,
  parameter bit          Pipelined       = 1'b1,
  parameter bit          SboxRam         = 1'b1,
  parameter int unsigned NumStages       = 4,
  parameter int unsigned LenW            = 16,
  parameter int unsigned InDepth         = 2,
  parameter int unsigned MsgDepth        = 8,
  parameter bit          AbstractEngines = 1'b0,
  /// 128-bit beats per din / dout word, a power of two (1: the engine's own streams).
  parameter int unsigned Lanes           = 1,
  /// Lanes > 1: each lane's word buffer (onerma_gcm_lane's WordDepth).
  parameter int unsigned WordDepth       = 34,
  parameter type         meta_t          = logic [7:0],
  /// Payload types, as onerma_gcm_engine's.
  parameter type         desc_t          = struct packed {
    logic [127:0]    key;
    logic [95:0]     iv;
    logic [LenW-1:0] aad_len;
    logic [LenW-1:0] pt_len;
    logic            decrypt;
    logic [127:0]    tag;
    meta_t           meta;
  },
  parameter type         dout_t          = struct packed {
    logic [127:0] data;
    logic         last;
    meta_t        meta;
  },
  parameter type         res_t           = struct packed {
    logic [127:0] tag;
    logic         auth_ok;
    meta_t        meta;
  },
  /// The pool's din and dout words (Lanes = 1: the same layout as onerma_gcm_pkg::din_t and
  /// dout_t).
  parameter type         wdin_t          = struct packed {
    logic [Lanes*128-1:0] data;
  },
  parameter type         wdout_t         = struct packed {
    logic [Lanes*128-1:0] data;
    logic                 last;
    meta_t                meta;
  },
  // Derived, do not override.
  parameter int unsigned EngW            = (NumEngines > 1) ? $clog2(NumEngines) : 1
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,

  input  logic                 desc_valid_i,
  output logic                 desc_ready_o,
  input  desc_t                desc_data_i,

  input  logic                 din_valid_i,
  output logic                 din_ready_o,
  input  wdin_t                din_data_i,

  output logic                 dout_valid_o,
  input  logic                 dout_ready_i,
  output wdout_t               dout_data_o,

  output logic                 res_valid_o,
  input  logic                 res_ready_i,
  output res_t                 res_data_o
);

  localparam int unsigned BeatW      = LenW - 2;  // AAD + payload words of one message
  localparam int unsigned RouteDepth = 2 * NumEngines;

  typedef struct packed {
    logic [EngW-1:0]  eng;
    logic [BeatW-1:0] beats;
  } route_t;

  // din words of a part of len bytes: ceil(ceil(len / 16) / Lanes) (Lanes a power of two).
  function automatic logic [BeatW-1:0] beats(input logic [LenW-1:0] len);
    return BeatW'((onerma_gcm_pkg::beat_count(32'(len)) + Lanes - 1) >> $clog2(Lanes));
  endfunction

  logic [NumEngines-1:0] e_desc_valid, e_desc_ready;
  logic [NumEngines-1:0] e_din_valid, e_din_ready;
  logic [NumEngines-1:0] e_dout_valid, e_dout_ready;
  logic [NumEngines-1:0] e_res_valid, e_res_ready;
  wdout_t [NumEngines-1:0] e_dout;
  res_t  [NumEngines-1:0] e_res;

  // ---------------------------------------------------------------------------------------------
  // Descriptor dispatch.
  // ---------------------------------------------------------------------------------------------
  logic [EngW-1:0]  ptr_q, pick;
  logic             any_free, route_in_ready, desc_accept;
  logic [BeatW-1:0] desc_beats;

  onerma_rr_pick #(
    .N(NumEngines)
  ) u_pick (
    .req_i  (e_desc_ready),
    .ptr_i  (ptr_q),
    .valid_o(any_free),
    .idx_o  (pick)
  );

  assign desc_beats   = beats(desc_data_i.aad_len) + beats(desc_data_i.pt_len);
  // Only the picked engine sees valid, and only in a cycle where it is ready, so the engine
  // takes the descriptor in the cycle it sees it.
  assign desc_ready_o = any_free && (route_in_ready || (desc_beats == '0));
  assign desc_accept  = desc_valid_i && desc_ready_o;

  for (genvar e = 0; e < NumEngines; e++) begin : g_desc_valid
    assign e_desc_valid[e] = desc_accept && (pick == EngW'(e));
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ptr_q <= '0;
    end else if (desc_accept) begin
      ptr_q <= (pick == EngW'(NumEngines - 1)) ? '0 : pick + EngW'(1);
    end
  end

  // ---------------------------------------------------------------------------------------------
  // Beat routing.
  // ---------------------------------------------------------------------------------------------
  logic             route_valid, route_ready, din_accept;
  route_t           route;
  logic [BeatW-1:0] beat_q;

  onerma_fifo #(
    .T    (route_t),
    .Depth(RouteDepth)
  ) u_route_fifo (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .flush_i    (1'b0),
    .in_valid_i (desc_accept && (desc_beats != '0)),
    .in_ready_o (route_in_ready),
    .in_data_i  ('{eng: pick, beats: desc_beats}),
    .out_valid_o(route_valid),
    .out_ready_i(route_ready),
    .out_data_o (route),
    /* verilator lint_off PINCONNECTEMPTY */
    .count_o    ()
    /* verilator lint_on PINCONNECTEMPTY */
  );

  assign din_ready_o = route_valid && e_din_ready[route.eng];
  assign din_accept  = din_valid_i && din_ready_o;
  assign route_ready = din_accept && (beat_q == route.beats - BeatW'(1));

  for (genvar e = 0; e < NumEngines; e++) begin : g_din_valid
    assign e_din_valid[e] = din_valid_i && route_valid && (route.eng == EngW'(e));
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      beat_q <= '0;
    end else if (din_accept) begin
      beat_q <= route_ready ? '0 : beat_q + BeatW'(1);
    end
  end

  // ---------------------------------------------------------------------------------------------
  // Engines.
  // ---------------------------------------------------------------------------------------------
  for (genvar e = 0; e < NumEngines; e++) begin : g_eng
    if (AbstractEngines) begin : g_abstract
      onerma_gcm_engine_abstract #(
        .LenW  (LenW),
        .meta_t(meta_t),
        .desc_t(desc_t),
        .dout_t(dout_t),
        .res_t (res_t)
      ) u_engine (
        .clk_i       (clk_i),
        .rst_ni      (rst_ni),
        .desc_valid_i(e_desc_valid[e]),
        .desc_ready_o(e_desc_ready[e]),
        .desc_data_i (desc_data_i),
        .din_valid_i (e_din_valid[e]),
        .din_ready_o (e_din_ready[e]),
        .din_data_i  (din_data_i),
        .dout_valid_o(e_dout_valid[e]),
        .dout_ready_i(e_dout_ready[e]),
        .dout_data_o (e_dout[e]),
        .res_valid_o (e_res_valid[e]),
        .res_ready_i (e_res_ready[e]),
        .res_data_o  (e_res[e])
      );
    end else if (Lanes > 1) begin : g_lane
      onerma_gcm_lane #(
        .Lanes    (Lanes),
        .WordDepth(WordDepth),
        .Pipelined(Pipelined),
        .SboxRam  (SboxRam),
        .NumStages(NumStages),
        .LenW     (LenW),
        .InDepth  (InDepth),
        .MsgDepth (MsgDepth),
        .meta_t   (meta_t),
        .desc_t   (desc_t),
        .dout_t   (dout_t),
        .res_t    (res_t),
        .wdin_t   (wdin_t),
        .wdout_t  (wdout_t)
      ) u_lane (
        .clk_i       (clk_i),
        .rst_ni      (rst_ni),
        .desc_valid_i(e_desc_valid[e]),
        .desc_ready_o(e_desc_ready[e]),
        .desc_data_i (desc_data_i),
        .din_valid_i (e_din_valid[e]),
        .din_ready_o (e_din_ready[e]),
        .din_data_i  (din_data_i),
        .dout_valid_o(e_dout_valid[e]),
        .dout_ready_i(e_dout_ready[e]),
        .dout_data_o (e_dout[e]),
        .res_valid_o (e_res_valid[e]),
        .res_ready_i (e_res_ready[e]),
        .res_data_o  (e_res[e])
      );
    end else begin : g_real
      onerma_gcm_engine #(
        .Pipelined(Pipelined),
        .SboxRam  (SboxRam),
        .NumStages(NumStages),
        .LenW     (LenW),
        .InDepth  (InDepth),
        .MsgDepth (MsgDepth),
        .meta_t   (meta_t),
        .desc_t   (desc_t),
        .dout_t   (dout_t),
        .res_t    (res_t)
      ) u_engine (
        .clk_i       (clk_i),
        .rst_ni      (rst_ni),
        .desc_valid_i(e_desc_valid[e]),
        .desc_ready_o(e_desc_ready[e]),
        .desc_data_i (desc_data_i),
        .din_valid_i (e_din_valid[e]),
        .din_ready_o (e_din_ready[e]),
        .din_data_i  (din_data_i),
        .dout_valid_o(e_dout_valid[e]),
        .dout_ready_i(e_dout_ready[e]),
        .dout_data_o (e_dout[e]),
        .res_valid_o (e_res_valid[e]),
        .res_ready_i (e_res_ready[e]),
        .res_data_o  (e_res[e])
      );
    end
  end

  // ---------------------------------------------------------------------------------------------
  // Outputs.
  // ---------------------------------------------------------------------------------------------
  /* verilator lint_off PINCONNECTEMPTY */
  onerma_rr_arb #(
    .N(NumEngines),
    .T(wdout_t)
  ) u_dout_arb (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .in_valid_i (e_dout_valid),
    .in_ready_o (e_dout_ready),
    .in_data_i  (e_dout),
    .out_valid_o(dout_valid_o),
    .out_ready_i(dout_ready_i),
    .out_data_o (dout_data_o),
    .out_idx_o  ()
  );

  onerma_rr_arb #(
    .N(NumEngines),
    .T(res_t)
  ) u_res_arb (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .in_valid_i (e_res_valid),
    .in_ready_o (e_res_ready),
    .in_data_i  (e_res),
    .out_valid_o(res_valid_o),
    .out_ready_i(res_ready_i),
    .out_data_o (res_data_o),
    .out_idx_o  ()
  );
  /* verilator lint_on PINCONNECTEMPTY */

endmodule

`default_nettype wire
