`default_nettype none

/// Abstract stand-in for onerma_gcm_engine in the pool's proof (formal/onerma_gcm_pool.sby,
/// onerma_gcm_pool with AbstractEngines = 1). Same streams and the same stream contract:
/// descriptors queue up (two deep), the message at the head takes its ceil(aad/16) +
/// ceil(pt/16) beats and echoes each one on dout unchanged with the message's meta (last on the
/// final beat), then returns one result with the meta. Tag and auth_ok are arbitrary.
/// Every step may stall for a nondeterministic number of cycles, at most MaxStall in a row:
/// the wires marked anyseq are left undriven here and turned into free solver inputs by
/// `setundef -undriven -anyseq` in the .sby script.
module onerma_gcm_engine_abstract #(
  parameter int unsigned LenW     = 16,
  parameter int unsigned MaxStall = 2,
  parameter type         meta_t   = logic [7:0],
  /// Payload types, as onerma_gcm_engine's (onerma_gcm_pool passes its own).
  parameter type         desc_t   = struct packed {
    logic [127:0]    key;
    logic [95:0]     iv;
    logic [LenW-1:0] aad_len;
    logic [LenW-1:0] pt_len;
    logic            decrypt;
    logic [127:0]    tag;
    meta_t           meta;
  },
  parameter type         dout_t   = struct packed {
    logic [127:0] data;
    logic         last;
    meta_t        meta;
  },
  parameter type         res_t    = struct packed {
    logic [127:0] tag;
    logic         auth_ok;
    meta_t        meta;
  }
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,

  input  logic                 desc_valid_i,
  output logic                 desc_ready_o,
  input  desc_t                desc_data_i,

  input  logic                 din_valid_i,
  output logic                 din_ready_o,
  input  onerma_gcm_pkg::din_t din_data_i,

  output logic                 dout_valid_o,
  input  logic                 dout_ready_i,
  output dout_t                dout_data_o,

  output logic                 res_valid_o,
  input  logic                 res_ready_i,
  output res_t                 res_data_o
);

  localparam int unsigned BeatW = LenW - 2;
  localparam int unsigned StW   = $clog2(MaxStall + 2);

  typedef struct packed {
    logic [BeatW-1:0] beats;
    meta_t            meta;
  } msg_t;

  function automatic logic [BeatW-1:0] beats(input logic [LenW-1:0] len);
    return BeatW'(onerma_gcm_pkg::beat_count(32'(len)));
  endfunction

  (* anyseq *) logic         want_stall;
  (* anyseq *) logic [7:0]   any_tag;  // small: the tag's value is not the point
  (* anyseq *) logic         any_ok;

  logic [StW-1:0]   stall_cnt_q;
  logic             stall;
  logic             head_valid, head_ready, in_ready;
  msg_t             head;
  logic [BeatW-1:0] beat_q;
  logic             dout_valid_q, res_valid_q;
  logic [127:0]     dout_data_q, res_tag_q;
  logic             dout_last_q, res_ok_q;
  meta_t            dout_meta_q, res_meta_q;
  logic             din_go, res_go, beats_done;

  // Bounded nondeterministic delay: after MaxStall stalled cycles in a row the engine moves.
  assign stall = want_stall && (32'(stall_cnt_q) < MaxStall);

  onerma_fifo #(
    .T    (msg_t),
    .Depth(2)
  ) u_msgs (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .flush_i    (1'b0),
    .in_valid_i (desc_valid_i),
    .in_ready_o (in_ready),
    .in_data_i  ('{beats: beats(desc_data_i.aad_len) + beats(desc_data_i.pt_len),
                  meta: desc_data_i.meta}),
    .out_valid_o(head_valid),
    .out_ready_i(head_ready),
    .out_data_o (head),
    .count_o    ()
  );

  assign desc_ready_o = in_ready;
  assign beats_done   = (beat_q == head.beats);
  assign din_ready_o  = head_valid && !beats_done && !stall && (!dout_valid_q || dout_ready_i);
  assign din_go       = din_valid_i && din_ready_o;
  assign res_go       = head_valid && beats_done && !stall && (!res_valid_q || res_ready_i);
  assign head_ready   = res_go;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      stall_cnt_q  <= '0;
      beat_q       <= '0;
      dout_valid_q <= 1'b0;
      res_valid_q  <= 1'b0;
    end else begin
      stall_cnt_q <= stall ? stall_cnt_q + StW'(1) : '0;
      if (din_go) begin
        beat_q <= beat_q + BeatW'(1);
      end else if (res_go) begin
        beat_q <= '0;
      end
      if (din_go) begin
        dout_valid_q <= 1'b1;
      end else if (dout_ready_i) begin
        dout_valid_q <= 1'b0;
      end
      if (res_go) begin
        res_valid_q <= 1'b1;
      end else if (res_ready_i) begin
        res_valid_q <= 1'b0;
      end
    end
  end

  always_ff @(posedge clk_i) begin
    if (din_go) begin
      // Only the low byte is kept: enough to tell beats apart in the proof, and constant upper
      // bits let synthesis drop most of the 128-bit datapath before the solver sees it.
      dout_data_q <= {120'h0, din_data_i.data[7:0]};
      dout_last_q <= (beat_q == head.beats - BeatW'(1));
      dout_meta_q <= head.meta;
    end
    if (res_go) begin
      res_tag_q  <= {120'h0, any_tag};
      res_ok_q   <= any_ok;
      res_meta_q <= head.meta;
    end
  end

  assign dout_valid_o       = dout_valid_q;
  assign dout_data_o.data   = dout_data_q;
  assign dout_data_o.last   = dout_last_q;
  assign dout_data_o.meta   = dout_meta_q;
  assign res_valid_o        = res_valid_q;
  assign res_data_o.tag     = res_tag_q;
  assign res_data_o.auth_ok = res_ok_q;
  assign res_data_o.meta    = res_meta_q;

  // Only lengths and meta matter to the abstraction.
  logic unused;
  assign unused = ^{desc_data_i.key, desc_data_i.iv, desc_data_i.decrypt, desc_data_i.tag,
                    din_data_i.data[127:8]};

`ifdef FORMAL
  // ---- View for the pool's k-induction (onerma_gcm_pool_props reads the f_* signals
  // hierarchically) and the engine's own invariants, which hold for any inputs.
  // A message is "pending" while it still takes din beats: the head until beats_done, the entry
  // behind it if it has beats at all.
  logic [1:0] f_cnt;          // messages queued (head and the one behind it)
  msg_t       f_second;       // the message behind the head, valid when f_cnt == 2
  logic       f_head_pend, f_second_pend;

  assign f_cnt         = u_msgs.count_q;
  assign f_second      = u_msgs.mem_q[!u_msgs.rptr_q];
  assign f_head_pend   = head_valid && !beats_done;
  assign f_second_pend = (f_cnt == 2'd2) && (f_second.beats != '0);

  always_comb if (rst_ni) begin
    // Two-entry queue: write pointer = read pointer + occupancy.
    assert (f_cnt <= 2'd2);
    assert (u_msgs.wptr_q == (u_msgs.rptr_q ^ f_cnt[0]));
    // The beat counter belongs to the head and never passes its beat count.
    if (head_valid) assert (beat_q <= head.beats);
    else            assert (beat_q == '0);
    assert (32'(stall_cnt_q) <= MaxStall);
  end
`endif

endmodule

`default_nettype wire
