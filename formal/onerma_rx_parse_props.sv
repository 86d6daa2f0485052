`default_nettype none

// Properties of onerma_rx_parse, bound into it when FORMAL is defined.
//
// The input stream rules are assumed; the stream rules of the four outputs are asserted. Beside
// the design the properties keep their own view of every input frame, read from the stream
// (beat count, byte length from tkeep, tkeep legality, dst_nic, msg_type, chunk_len), and a shadow
// queue of the frames that were forwarded ({destination, dst_nic, chunk_len, t_rx}). Asserted:
// - per input frame exactly one of forwarded / malformed / misaddressed, decided at its last
//   beat; a short frame, a length other than 80 + chunk_len, a frame past the longest legal one or
//   a bad tkeep is malformed; a forwarded frame is addressed to nic_addr_i and goes to the
//   destination of its msg_type; the drop pulses come exactly the cycle after, once per frame;
// - the outputs carry exactly the forwarded frames, in order: every descriptor is the shadow
//   queue's head (destination, dst_nic, chunk_len, t_rx), its payload follows on the same
//   destination with exactly ceil(chunk_len / Bytes) beats, `last` on the final one and `keep`
//   masking the tail; no descriptor while a payload is due, no payload beat without a forwarded
//   frame (so a dropped frame never shows a beat); no FIFO is pushed while full.
// Induction invariants tie the shadow queue to the descriptor FIFO and the beat groups of the data
// FIFO (each ended by its `last` beat) to the frames that stored them.
`ifdef FORMAL
module onerma_rx_parse_props #(
  parameter int unsigned DataWidth  = 128,
  parameter int unsigned ChunkBytes = 32,
  parameter int unsigned BufBeats   = 4,
  parameter int unsigned DescDepth  = 2,
  parameter int unsigned TimeWidth  = 4,
  parameter int unsigned Bytes      = 16
) (
  input logic                 clk_i,
  input logic                 rst_ni,
  input logic [31:0]          nic_addr_i,
  input logic                 enable_i,
  input logic [TimeWidth-1:0] now_i,
  input logic                 s_axis_rx_tvalid_i,
  input logic                 s_axis_rx_tready_o,
  input logic [DataWidth-1:0] s_axis_rx_tdata_i,
  input logic [Bytes-1:0]     s_axis_rx_tkeep_i,
  input logic                 s_axis_rx_tlast_i,
  input logic                 ini_desc_valid_o,
  input logic                 ini_desc_ready_i,
  input onerma_pkg::hdr_t     ini_desc_hdr_o,
  input logic [127:0]         ini_desc_tag_o,
  input logic [TimeWidth-1:0] ini_desc_t_rx_o,
  input logic                 ini_pay_valid_o,
  input logic                 ini_pay_ready_i,
  input logic [DataWidth-1:0] ini_pay_data_o,
  input logic [Bytes-1:0]     ini_pay_keep_o,
  input logic                 ini_pay_last_o,
  input logic                 rsp_desc_valid_o,
  input logic                 rsp_desc_ready_i,
  input onerma_pkg::hdr_t     rsp_desc_hdr_o,
  input logic [127:0]         rsp_desc_tag_o,
  input logic [TimeWidth-1:0] rsp_desc_t_rx_o,
  input logic                 rsp_pay_valid_o,
  input logic                 rsp_pay_ready_i,
  input logic [DataWidth-1:0] rsp_pay_data_o,
  input logic [Bytes-1:0]     rsp_pay_keep_o,
  input logic                 rsp_pay_last_o,
  input logic                 drop_malformed_o,
  input logic                 drop_misaddressed_o,
  // Internals.
  input logic                 in_fire,
  input logic                 fwd,
  input logic                 malformed,
  input logic                 misaddressed,
  input logic                 df_push,
  input logic                 df_in_ready,
  input logic                 vf_push,
  input logic                 vf_in_ready,
  input logic                 df_pop,
  input logic                 vf_pop,
  input logic                 desc_sent_q,
  input logic                 stored_q,
  input logic                 hdr_ok_q,
  input logic                 dst_ok_q,
  input onerma_pkg::hdr_t     hdr_q,
  input logic [$clog2((64 + ChunkBytes + 16 + Bytes - 1) / Bytes + 1)-1:0] beat_q,
  input logic [$clog2((64 + ChunkBytes + 16 + Bytes - 1) / Bytes + 1)-1:0] pay_beats_q,
  input logic [16:0]          exp_len_q,
  input logic                 to_ini_q,
  input logic                 bad_keep_q
);

  import onerma_pkg::*;

  localparam int unsigned HdrBeats    = HdrBytes / Bytes;
  localparam int unsigned MaxFrame    = HdrBytes + ChunkBytes + TagBytes;
  localparam int unsigned MaxBeats    = (MaxFrame + Bytes - 1) / Bytes;
  localparam int unsigned MaxPayBeats = ChunkBytes / Bytes;
  localparam int unsigned LaneW       = $clog2(Bytes);
  localparam int unsigned DAddrW      = (BufBeats > 1) ? $clog2(BufBeats) : 1;
  localparam int unsigned VAddrW      = (DescDepth > 1) ? $clog2(DescDepth) : 1;
  localparam int unsigned BeatW       = $clog2(MaxBeats + 1);

  logic past_valid_q = 1'b0;
  always_ff @(posedge clk_i) past_valid_q <= 1'b1;
  always_comb if (!past_valid_q) assume (!rst_ni);

  // The address is configuration: constant while the NIC runs (protocol §1 write guard).
  logic [31:0] nic_q;
  always_ff @(posedge clk_i) nic_q <= nic_addr_i;
  always_comb if (past_valid_q && rst_ni) assume (nic_addr_i == nic_q);

  // ---- Stream rules.
  onerma_stream_check #(.Width(DataWidth + Bytes + 1), .Assume(1'b1)) u_in_rule (
    .clk_i, .rst_ni, .valid_i(s_axis_rx_tvalid_i), .ready_i(s_axis_rx_tready_o),
    .data_i({s_axis_rx_tdata_i, s_axis_rx_tkeep_i, s_axis_rx_tlast_i}));
  // AXI4-Stream reset rule (IHI0051): TVALID low while the reset is asserted.
  always_comb if (!rst_ni) assume (!s_axis_rx_tvalid_i);
  onerma_stream_check #(.Width(HdrTBits + 128 + TimeWidth), .Assume(1'b0)) u_ini_desc_rule (
    .clk_i, .rst_ni, .valid_i(ini_desc_valid_o), .ready_i(ini_desc_ready_i),
    .data_i({ini_desc_hdr_o, ini_desc_tag_o, ini_desc_t_rx_o}));
  onerma_stream_check #(.Width(HdrTBits + 128 + TimeWidth), .Assume(1'b0)) u_rsp_desc_rule (
    .clk_i, .rst_ni, .valid_i(rsp_desc_valid_o), .ready_i(rsp_desc_ready_i),
    .data_i({rsp_desc_hdr_o, rsp_desc_tag_o, rsp_desc_t_rx_o}));
  onerma_stream_check #(.Width(DataWidth + Bytes + 1), .Assume(1'b0)) u_ini_pay_rule (
    .clk_i, .rst_ni, .valid_i(ini_pay_valid_o), .ready_i(ini_pay_ready_i),
    .data_i({ini_pay_data_o, ini_pay_keep_o, ini_pay_last_o}));
  onerma_stream_check #(.Width(DataWidth + Bytes + 1), .Assume(1'b0)) u_rsp_pay_rule (
    .clk_i, .rst_ni, .valid_i(rsp_pay_valid_o), .ready_i(rsp_pay_ready_i),
    .data_i({rsp_pay_data_o, rsp_pay_keep_o, rsp_pay_last_o}));

  // ---- The properties' own view of the input frame (from the stream only).
  logic [7:0]       f_beat_q;      // beats of this frame accepted so far (saturating)
  logic             f_keep_bad_q;  // a beat before the last was not all ones
  logic [31:0]      f_dst_q;
  logic [7:0]       f_mt_q;
  logic [15:0]      f_clen_q;
  logic [LaneW:0]   f_n;
  logic             f_keep_ok, f_last;
  logic [15:0]      f_len;

  always_comb begin
    f_n = '0;
    for (int unsigned i = 0; i < Bytes; i++) f_n = f_n + (LaneW + 1)'(s_axis_rx_tkeep_i[i]);
  end
  assign f_keep_ok = !f_keep_bad_q && s_axis_rx_tkeep_i[0] &&
                     s_axis_rx_tkeep_i == Bytes'((1 << f_n) - 1);
  assign f_len     = 16'(f_beat_q) * 16'(Bytes) + 16'(f_n);
  assign f_last    = in_fire && s_axis_rx_tlast_i;

  // Header bytes 0 (msg_type), 8..11 (dst_nic) and 48..49 (chunk_len) as they stream by.
  function automatic logic [7:0] lane(logic [DataWidth-1:0] d, int unsigned byte_idx);
    return d[8*(byte_idx % Bytes) +: 8];
  endfunction

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      f_beat_q     <= '0;
      f_keep_bad_q <= 1'b0;
    end else if (in_fire) begin
      if (s_axis_rx_tlast_i) begin
        f_beat_q     <= '0;
        f_keep_bad_q <= 1'b0;
      end else begin
        if (f_beat_q != 8'hff) f_beat_q <= f_beat_q + 1'b1;
        if (!(&s_axis_rx_tkeep_i)) f_keep_bad_q <= 1'b1;
      end
    end
  end
  always_ff @(posedge clk_i) begin
    if (in_fire) begin
      if (f_beat_q == 8'(0 / Bytes)) f_mt_q <= lane(s_axis_rx_tdata_i, 0);
      if (f_beat_q == 8'(8 / Bytes)) f_dst_q <= {lane(s_axis_rx_tdata_i, 8), lane(s_axis_rx_tdata_i, 9),
                                                 lane(s_axis_rx_tdata_i, 10), lane(s_axis_rx_tdata_i, 11)};
      if (f_beat_q == 8'(48 / Bytes)) f_clen_q <= {lane(s_axis_rx_tdata_i, 48),
                                                   lane(s_axis_rx_tdata_i, 49)};
    end
  end

  logic f_for_ini;
  assign f_for_ini = f_mt_q == 8'(MsgTypeRdResp) || f_mt_q == 8'(MsgTypeWrRdreq) ||
                     f_mt_q == 8'(MsgTypeWrCmpl) || f_mt_q == 8'(MsgTypeNack) ||
                     f_mt_q == 8'(MsgTypeAuthFail) || f_mt_q == 8'(MsgTypeAccessErr);

  // ---- Verdicts.
  logic f_mal_q, f_mis_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      f_mal_q <= 1'b0;
      f_mis_q <= 1'b0;
    end else begin
      f_mal_q <= f_last && malformed;
      f_mis_q <= f_last && misaddressed;
    end
  end

  always_comb if (rst_ni) begin
    if (f_last) begin
      assert ($onehot({fwd, malformed, misaddressed}));
      if (f_beat_q < 8'(HdrBeats) || !f_keep_ok || f_len != 16'(HdrBytes + TagBytes) + f_clen_q ||
          32'(f_len) > MaxFrame) begin
        assert (malformed);
      end
      // A stopped NIC answers to no address.
      if (!malformed && (f_dst_q != nic_addr_i || !enable_i)) assert (misaddressed);
      if (fwd) begin
        assert (f_dst_q == nic_addr_i && enable_i);
        assert (vf_push);
      end
    end
    // A pulse exactly the cycle after the frame's last beat, one per dropped frame.
    assert (drop_malformed_o == f_mal_q);
    assert (drop_misaddressed_o == f_mis_q);
    // No FIFO is pushed while full.
    if (df_push) assert (df_in_ready);
    if (vf_push) assert (vf_in_ready);
  end

  // ---- Shadow queue of forwarded frames.
  typedef struct packed {
    logic                 to_ini;
    logic [31:0]          dst;
    logic [15:0]          clen;
    logic [TimeWidth-1:0] t_rx;
  } shadow_t;

  shadow_t                   sq_q [DescDepth];
  logic [VAddrW:0]           sq_cnt_q;
  logic                      started_q;   // the head's descriptor was accepted
  logic [7:0]                beats_out_q; // the head's payload beats accepted so far
  shadow_t                   sq_in, head;
  logic                      sq_push, sq_pop, desc_fire_i, desc_fire_r, pay_fire_i, pay_fire_r;
  logic [7:0]                head_beats;

  assign sq_in   = '{to_ini: f_for_ini, dst: f_dst_q, clen: f_clen_q, t_rx: now_i};
  assign sq_push = f_last && fwd;
  assign head    = sq_q[0];
  assign head_beats  = 8'((32'(head.clen) + Bytes - 1) / Bytes);
  assign desc_fire_i = ini_desc_valid_o && ini_desc_ready_i;
  assign desc_fire_r = rsp_desc_valid_o && rsp_desc_ready_i;
  assign pay_fire_i  = ini_pay_valid_o && ini_pay_ready_i;
  assign pay_fire_r  = rsp_pay_valid_o && rsp_pay_ready_i;
  assign sq_pop  = ((desc_fire_i || desc_fire_r) && head.clen == '0) ||
                   ((pay_fire_i && ini_pay_last_o) || (pay_fire_r && rsp_pay_last_o));

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      sq_cnt_q    <= '0;
      started_q   <= 1'b0;
      beats_out_q <= '0;
    end else begin
      sq_cnt_q <= sq_cnt_q + (VAddrW + 1)'(sq_push) - (VAddrW + 1)'(sq_pop);
      if (sq_pop) begin
        started_q   <= 1'b0;
        beats_out_q <= '0;
      end else begin
        if (desc_fire_i || desc_fire_r) started_q <= 1'b1;
        if (pay_fire_i || pay_fire_r) beats_out_q <= beats_out_q + 1'b1;
      end
    end
  end
  // Shift-register queue: entry 0 is the head.
  always_ff @(posedge clk_i) begin
    for (int unsigned i = 0; i < DescDepth; i++) begin
      if (sq_pop) begin
        if (i + 1 < DescDepth) sq_q[i] <= sq_q[i+1];
        if (sq_push && 32'(sq_cnt_q) == i + 1) sq_q[i] <= sq_in;
      end else if (sq_push && 32'(sq_cnt_q) == i) begin
        sq_q[i] <= sq_in;
      end
    end
  end

  logic [Bytes-1:0] tail_keep;
  logic [LaneW-1:0] tail;
  assign tail      = head.clen[LaneW-1:0];
  assign tail_keep = (tail == '0) ? '1 : ~({Bytes{1'b1}} << tail);

  always_comb if (rst_ni) begin
    assert (32'(sq_cnt_q) <= DescDepth);
    if (sq_push && !sq_pop) assert (32'(sq_cnt_q) < DescDepth);
    if (ini_desc_valid_o || rsp_desc_valid_o) begin
      assert (!(ini_desc_valid_o && rsp_desc_valid_o));
      assert (sq_cnt_q != '0 && !started_q);
      assert (ini_desc_valid_o == head.to_ini);
    end
    if (ini_desc_valid_o) begin
      assert (ini_desc_hdr_o.dst_nic == head.dst && ini_desc_hdr_o.chunk_len == head.clen);
      assert (ini_desc_t_rx_o == head.t_rx);
    end
    if (rsp_desc_valid_o) begin
      assert (rsp_desc_hdr_o.dst_nic == head.dst && rsp_desc_hdr_o.chunk_len == head.clen);
      assert (rsp_desc_t_rx_o == head.t_rx);
    end
    if (ini_pay_valid_o || rsp_pay_valid_o) begin
      assert (!(ini_pay_valid_o && rsp_pay_valid_o));
      assert (sq_cnt_q != '0 && started_q && beats_out_q < head_beats);
      assert (ini_pay_valid_o == head.to_ini);
    end
    if (ini_pay_valid_o) begin
      assert (ini_pay_last_o == (beats_out_q + 1'b1 == head_beats));
      assert (ini_pay_keep_o == (ini_pay_last_o ? tail_keep : '1));
    end
    if (rsp_pay_valid_o) begin
      assert (rsp_pay_last_o == (beats_out_q + 1'b1 == head_beats));
      assert (rsp_pay_keep_o == (rsp_pay_last_o ? tail_keep : '1));
    end
  end

  // ---- Induction invariants: the shadow queue is the descriptor FIFO's forwarded entries, the
  // data FIFO's beat groups are the frames that stored them.
  logic [VAddrW:0]  v_cnt;
  logic [VAddrW-1:0] v_rptr;
  logic [DAddrW:0]  d_cnt;
  logic [DAddrW-1:0] d_rptr;
  assign v_cnt  = (VAddrW + 1)'(u_desc.count_q);
  assign v_rptr = u_desc.rptr_q;
  assign d_cnt  = (DAddrW + 1)'(u_data.count_q);
  assign d_rptr = u_data.rptr_q;

  // The entries in queue order.
  logic [DescDepth-1:0] v_fwd, v_ini, v_data;
  logic [15:0]          v_clen [DescDepth];
  logic [31:0]          v_dst  [DescDepth];
  logic [TimeWidth-1:0] v_t    [DescDepth];
  logic [BufBeats-1:0]  d_last;
  for (genvar k = 0; k < DescDepth; k++) begin : g_v
    wire [VAddrW-1:0] a = VAddrW'((32'(v_rptr) + k) % DescDepth);
    assign v_fwd[k]  = u_desc.mem_q[a].fwd;
    assign v_ini[k]  = u_desc.mem_q[a].to_ini;
    assign v_data[k] = u_desc.mem_q[a].has_data;
    assign v_clen[k] = u_desc.mem_q[a].hdr.chunk_len;
    assign v_dst[k]  = u_desc.mem_q[a].hdr.dst_nic;
    assign v_t[k]    = u_desc.mem_q[a].t_rx;
  end
  for (genvar k = 0; k < BufBeats; k++) begin : g_d
    wire [DAddrW-1:0] a = DAddrW'((32'(d_rptr) + k) % BufBeats);
    assign d_last[k] = u_data.mem_q[a].last;
  end

  // Stored beats of the frame being received, and whether its group is complete.
  logic [BeatW-1:0] in_stored;
  logic             in_done;
  always_comb begin
    in_stored = '0;
    if (hdr_ok_q && dst_ok_q && beat_q >= BeatW'(HdrBeats)) begin
      in_stored = (beat_q - BeatW'(HdrBeats) < pay_beats_q) ? beat_q - BeatW'(HdrBeats)
                                                             : pay_beats_q;
    end
  end
  assign in_done = in_stored != '0 && in_stored == pay_beats_q;

  logic [DescDepth-1:0] v_live;
  for (genvar k = 0; k < DescDepth; k++) begin : g_live
    assign v_live[k] = k < 32'(v_cnt);
  end

  always_comb if (rst_ni) begin
    automatic int unsigned rank = 0;   // forwarded entries before k
    automatic logic        found = 1'b0;
    automatic int unsigned pos  = 0;   // data FIFO position of group grp's first beat
    automatic int unsigned size = 0;
    assert (32'(v_cnt) <= DescDepth && 32'(d_cnt) <= BufBeats);
    assert (32'(v_rptr) < DescDepth && 32'(d_rptr) < BufBeats);
    // The FIFOs' own pointer invariant (onerma_fifo_props.sv states it for the FIFO's proof).
    assert (32'(u_desc.wptr_q) == (32'(v_rptr) + 32'(v_cnt)) % DescDepth);
    assert (32'(u_data.wptr_q) == (32'(d_rptr) + 32'(d_cnt)) % BufBeats);
    assert (32'(beat_q) <= MaxBeats);
    assert (stored_q == (in_stored != '0));
    if (hdr_ok_q && beat_q >= BeatW'(HdrBeats)) begin
      assert (32'(pay_beats_q) <= MaxPayBeats);
      assert (32'(pay_beats_q) == (32'(hdr_q.chunk_len) + Bytes - 1) / Bytes);
      assert (exp_len_q == 17'(HdrBytes + TagBytes) + 17'(hdr_q.chunk_len));
    end
    assert (32'(beat_q) == ((32'(f_beat_q) < MaxBeats) ? 32'(f_beat_q) : MaxBeats));
    if (beat_q < BeatW'(HdrBeats)) assert (!hdr_ok_q && !dst_ok_q);
    // The header register holds every header beat accepted so far.
    if (beat_q > BeatW'(0)) assert (hdr_q.dst_nic == f_dst_q && 8'(hdr_q.msg_type) == f_mt_q);
    if (beat_q > BeatW'(48 / Bytes)) assert (hdr_q.chunk_len == f_clen_q);
    if (beat_q >= BeatW'(HdrBeats)) begin
      assert (to_ini_q == f_for_ini);
      assert (dst_ok_q == (f_dst_q == nic_addr_i));
    end
    if (!hdr_ok_q) assert (!stored_q);
    assert (bad_keep_q == f_keep_bad_q);
    assert (32'(sq_cnt_q) == 32'($countones(v_fwd & v_live)));
    if (desc_sent_q) assert (v_cnt != '0 && v_fwd[0] && v_data[0]);
    assert (started_q == desc_sent_q);
    if (!started_q) assert (beats_out_q == '0);
    for (int unsigned k = 0; k < DescDepth; k++) begin
      if (k < 32'(v_cnt)) begin
        assert (v_fwd[k] || v_data[k]);
        if (v_fwd[k]) begin
          assert (rank < DescDepth && 32'(sq_cnt_q) > rank);
          assert (sq_q[rank].to_ini == v_ini[k] && sq_q[rank].clen == v_clen[k] &&
                  sq_q[rank].dst == v_dst[k] && sq_q[rank].t_rx == v_t[k]);
          assert (32'(v_clen[k]) <= ChunkBytes);
          assert (v_data[k] == (v_clen[k] != '0));
          rank++;
        end
        if (v_data[k]) begin
          // This entry's group: from pos up to the first beat marked last.
          size  = 0;
          found = 1'b0;
          for (int unsigned p = 0; p < BufBeats; p++) begin
            if (!found && p >= pos && p < 32'(d_cnt)) begin
              size = p - pos + 1;
              found = d_last[p];
            end
          end
          assert (found);
          if (v_fwd[k]) begin
            assert (size + (k == 0 ? 32'(beats_out_q) : 0) == (32'(v_clen[k]) + Bytes - 1) / Bytes);
          end else begin
            assert (size <= MaxPayBeats);
          end
          pos = pos + size;
        end
      end
    end
    // What follows the decided frames' groups is the frame being received.
    assert (32'(d_cnt) == pos + 32'(in_stored));
    for (int unsigned p = 0; p < BufBeats; p++) begin
      if (p >= pos && p < 32'(d_cnt)) assert (d_last[p] == (in_done && p + 1 == 32'(d_cnt)));
    end
  end

  // ---- Reachability.
  always_comb if (rst_ni) begin
    cover (pay_fire_i && ini_pay_last_o && head_beats == 8'(MaxPayBeats));
    cover (pay_fire_r && rsp_pay_last_o);
    cover (f_last && malformed && beat_q == BeatW'(MaxBeats));
    cover (drop_misaddressed_o);
    cover (f_last && misaddressed && f_dst_q == nic_addr_i);  // dropped by a stopped NIC
    cover (desc_fire_i && head.clen == '0);
    cover (s_axis_rx_tvalid_i && !s_axis_rx_tready_o);
    cover (sq_cnt_q == (VAddrW + 1)'(DescDepth));
  end

endmodule

bind onerma_rx_parse onerma_rx_parse_props #(
  .DataWidth (DataWidth),
  .ChunkBytes(ChunkBytes),
  .BufBeats  (BufBeats),
  .DescDepth (DescDepth),
  .TimeWidth (TimeWidth),
  .Bytes     (Bytes)
) u_props (.*);
`endif

`default_nettype wire
