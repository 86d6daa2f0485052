`default_nettype none

/// Host-memory DMA write on the AXI4 master (AW/W/B), with the region check of protocol.md §4.1
/// before every burst (docs/nic.md, "Host DMA").
///
/// - `NumClients` requesters, round-robin between requests (onerma_rr_arb). A request
///   `{addr, len (1..4096), region, gen, perm, tag}` comes with `ceil(len / Bytes)` packed data
///   beats on the client's data stream (op byte 0 in lane 0 of the first beat).
/// - A request is cut into INCR bursts that never cross 4 KB and have at most `MaxBurstBeats`
///   beats. Before each burst the RRT entry is read (`rrt_*`, answer one cycle after the
///   handshake); the burst is issued only if `valid && gen == req.gen && perm bits present &&
///   [addr, addr + len) inside [base, base + size)` (65-bit sums, and the request may not wrap
///   2^64). An RRT commit in the lookup cycle or in the answer cycle voids the answer: the lookup
///   is repeated, so the AW offered in the cycle after the answer never follows a commit the
///   answer did not see.
/// - A failed check (status REGION) or an error B seen for the request stops it: no further
///   burst; its remaining data beats are consumed and discarded, so the client never wedges.
/// - One response `{tag, status}` per request, in acceptance order (so in request order per
///   client): taken together with the B of its last burst, or after the B of its last issued
///   burst if a check or an error B stopped it.
/// - A single-burst request per cycle: a request is taken with its first lookup, in the answer
///   cycle of the previous request's last burst. Status: the first failure in burst order
///   (an error B of an earlier burst wins over a later burst's failed check).
/// - One AXI ID (0) for every burst: B responses come in order.
/// - `quiesce_o`: every burst issued before the most recent `rrt_commit_i` has its B (§4.2).
module onerma_dma_wr #(
  parameter int unsigned NumClients     = 2,
  parameter int unsigned DataWidth      = 512,
  parameter int unsigned AddrWidth      = 64,
  parameter int unsigned IdWidth        = 4,
  parameter int unsigned MaxBurstBeats  = 64,
  parameter int unsigned MaxOutstanding = 8,
  parameter int unsigned TagWidth       = 8,
  parameter int unsigned RrtIdxWidth    = 16,
  // Derived, do not override.
  parameter int unsigned Bytes          = DataWidth / 8,
  parameter int unsigned ClientWidth    = (NumClients > 1) ? $clog2(NumClients) : 1
) (
  input  logic                                   clk_i,
  input  logic                                   rst_ni,
  // Requests, one stream per client.
  input  logic [NumClients-1:0]                  req_valid_i,
  output logic [NumClients-1:0]                  req_ready_o,
  input  logic [NumClients-1:0][AddrWidth-1:0]   req_addr_i,
  input  logic [NumClients-1:0][12:0]            req_len_i,
  input  logic [NumClients-1:0][RrtIdxWidth-1:0] req_region_i,
  input  logic [NumClients-1:0][15:0]            req_gen_i,
  /// {remote_read, remote_write, remote_rekey, local_read, local_write}: the bits needed.
  input  logic [NumClients-1:0][4:0]             req_perm_i,
  input  logic [NumClients-1:0][TagWidth-1:0]    req_tag_i,
  // Write data, packed from lane 0, ceil(len / Bytes) beats per request.
  input  logic [NumClients-1:0]                  wd_valid_i,
  output logic [NumClients-1:0]                  wd_ready_o,
  input  logic [NumClients-1:0][DataWidth-1:0]   wd_data_i,
  input  logic [NumClients-1:0]                  wd_last_i,
  // Responses, one per request, in request order.
  output logic [NumClients-1:0]                  rsp_valid_o,
  input  logic [NumClients-1:0]                  rsp_ready_i,
  output logic [NumClients-1:0][TagWidth-1:0]    rsp_tag_o,
  output onerma_pkg::dma_status_e [NumClients-1:0] rsp_status_o,
  // RRT lookup port (shared in the top: a ready).
  output logic                                   rrt_valid_o,
  input  logic                                   rrt_ready_i,
  output logic [RrtIdxWidth-1:0]                 rrt_idx_o,
  input  onerma_pkg::rrt_entry_t                 rrt_entry_i,
  input  logic [15:0]                            rrt_gen_i,
  input  logic                                   rrt_commit_i,
  output logic                                   quiesce_o,
  // AXI4 master, write channels.
  output logic                                   m_axi_awvalid_o,
  input  logic                                   m_axi_awready_i,
  output logic [IdWidth-1:0]                     m_axi_awid_o,
  output logic [AddrWidth-1:0]                   m_axi_awaddr_o,
  output logic [7:0]                             m_axi_awlen_o,
  output logic [2:0]                             m_axi_awsize_o,
  output logic [1:0]                             m_axi_awburst_o,
  output logic                                   m_axi_wvalid_o,
  input  logic                                   m_axi_wready_i,
  output logic [DataWidth-1:0]                   m_axi_wdata_o,
  output logic [Bytes-1:0]                       m_axi_wstrb_o,
  output logic                                   m_axi_wlast_o,
  input  logic                                   m_axi_bvalid_i,
  output logic                                   m_axi_bready_o,
  input  logic [IdWidth-1:0]                     m_axi_bid_i,
  input  logic [1:0]                             m_axi_bresp_i
);

  import onerma_pkg::*;

  localparam int unsigned OffW      = $clog2(Bytes);
  localparam int unsigned PageBeats = 4096 / Bytes;
  // AXI beats of one request: at most 4096 / Bytes + 1 (unaligned); 13 bits hold any count.
  localparam int unsigned BW        = 13;
  localparam int unsigned SegDepth  = 4;
  localparam int unsigned EvDepth   = MaxOutstanding + 2;
  localparam int unsigned SeqW      = $clog2(EvDepth + 2) + 1;
  localparam int unsigned OutW      = $clog2(MaxOutstanding + 1);

  if (DataWidth < 16 || DataWidth > 1024 || (1 << OffW) != Bytes) begin : g_bad_width
    $error("onerma_dma_wr: DataWidth must be a power of two in 16..1024");
  end
  if (MaxBurstBeats < 1 || MaxBurstBeats > 256) begin : g_bad_burst
    $error("onerma_dma_wr: MaxBurstBeats must be in 1..256");
  end

  typedef struct packed {
    logic [AddrWidth-1:0]   addr;
    logic [12:0]            len;
    logic [RrtIdxWidth-1:0] region;
    logic [15:0]            gen;
    logic [4:0]             perm;
    logic [TagWidth-1:0]    tag;
  } req_t;

  // One run of AXI beats of a request for the W path: a burst (issue) or the beats of bursts
  // that will never be issued (discarded). Request-wide fields ride along in every segment.
  typedef struct packed {
    logic [ClientWidth-1:0] client;
    logic                   first;   // first segment of its request
    logic                   last;    // last segment of its request
    logic                   issue;   // 1: W beats on the bus; 0: client beats discarded
    logic [BW-1:0]          beats;   // AXI beats in this segment, >= 1
    logic [BW-1:0]          cbeats;  // client beats of the request (read at `first`)
    logic [OffW-1:0]        off;     // addr % Bytes
    logic [OffW-1:0]        endlane; // (addr + len - 1) % Bytes
  } seg_t;

  // In AW order: a burst awaiting its B, the end of a request awaiting its response, or both
  // (a request's last burst: its B and the response leave together).
  typedef struct packed {
    logic                   burst;
    logic                   is_end;
    logic [ClientWidth-1:0] client;
    logic [TagWidth-1:0]    tag;
    logic                   region; // the engine stopped on a failed check
    logic [SeqW-1:0]        seq;
  } ev_t;

  // B side (declared here: the engine's stop reads them).
  ev_t             ev;
  logic            ev_valid, ev_pop, rsp_fire;
  logic [$clog2(EvDepth+1)-1:0] ev_count;
  dma_status_e     st_q;        // AXI error of the request at the head (first in burst order)
  logic [SeqW-1:0] st_seq_q;
  logic            st_err;
  dma_status_e     b_status, rsp_status;

  // ---------------------------------------------------------------------------------------------
  // Request arbitration.
  req_t [NumClients-1:0] arb_in;
  req_t                  arb_out;
  logic                  arb_valid, arb_ready;
  logic [ClientWidth-1:0] arb_idx;

  for (genvar c = 0; c < NumClients; c++) begin : g_arb_in
    assign arb_in[c] = '{addr: req_addr_i[c], len: req_len_i[c], region: req_region_i[c],
                         gen: req_gen_i[c], perm: req_perm_i[c], tag: req_tag_i[c]};
  end

  onerma_rr_arb #(
    .N(NumClients),
    .T(req_t)
  ) u_arb (
    .clk_i,
    .rst_ni,
    .in_valid_i (req_valid_i),
    .in_ready_o (req_ready_o),
    .in_data_i  (arb_in),
    .out_valid_o(arb_valid),
    .out_ready_i(arb_ready),
    .out_data_o (arb_out),
    .out_idx_o  (arb_idx)
  );

  // ---------------------------------------------------------------------------------------------
  // Burst engine: cuts the request, checks before every burst, loads the AW register.
  typedef enum logic [2:0] {
    EIdle,
    EWait,
    ELook,
    EAns,
    EDiscard,
    EEnd
  } eng_e;

  eng_e                   eng_q;
  req_t                   cur_q;
  logic [ClientWidth-1:0] cur_client_q;
  logic [AddrWidth-1:0]   baddr_q;     // address of the next burst
  logic [BW-1:0]          left_q;      // AXI beats of the request not yet given a segment
  logic [BW-1:0]          cbeats_q;    // client beats of the request
  logic                   first_q;     // no segment of this request pushed yet
  logic                   region_q;    // stopped on a failed check
  logic [SeqW-1:0]        seq_q;       // request sequence number (ties B errors to requests)
  logic                   look_commit_q; // a commit in the lookup handshake cycle

  logic                   take, look_new, look_fire, stop, interfered, check_ok;
  logic                   burst_res, res_ok; // resources for one more burst
  logic                   issue, issue_last;
  logic [BW-1:0]          burst_beats;
  logic [BW-1:0]          page_left;
  logic [BW-1:0]          req_beats;
  logic [OffW-1:0]        req_off, req_endlane;
  logic [12:0]            req_end_lo, cur_end_lo;

  logic                   aw_q;
  logic [AddrWidth-1:0]   aw_addr_q;
  logic [7:0]             aw_len_q;
  logic                   aw_fire;

  logic                   seg_push, seg_ready;
  seg_t                   seg_in;
  logic                   ev_push, ev_ready;
  ev_t                    ev_in;
  logic [OutW-1:0]        out_q;       // bursts with AW loaded and no B yet
  logic [OutW-1:0]        drain_q, out_next;
  logic                   aw_load;
  logic                   b_fire;

  // The resources one more burst needs: the AW register free or leaving, fewer than
  // MaxOutstanding bursts in flight, a segment slot, an event slot.
  assign burst_res = (!aw_q || aw_fire) && out_q < OutW'(MaxOutstanding) && seg_ready;
  assign res_ok    = burst_res && ev_ready;
  // A request is taken in the cycle of its first lookup (the arbiter's output drives the RRT
  // port), and that cycle may be the answer cycle of the previous request's last burst: a
  // single-burst request costs one cycle, and a 64 B READ costs two requests (payload and
  // completion record). The answer is checked against the resources in its own cycle; without
  // them the engine waits for them and looks up again (it never holds an answer, which a
  // commit could void).
  assign issue      = eng_q == EAns && !interfered && !stop && check_ok && res_ok;
  assign issue_last = issue && burst_beats == left_q;
  assign look_new   = eng_q == EIdle || (eng_q == EEnd && ev_ready) || issue_last;
  assign arb_ready  = look_new && rrt_ready_i;
  assign take       = arb_valid && arb_ready;

  // Beats of a new request: ceil((off + len) / Bytes).
  assign req_off     = arb_out.addr[OffW-1:0];
  assign req_end_lo  = 13'(arb_out.addr[OffW-1:0]) + arb_out.len - 13'd1;
  assign req_endlane = req_end_lo[OffW-1:0];
  assign req_beats   = BW'(req_end_lo >> OffW) + 1'b1;
  assign cur_end_lo  = 13'(cur_q.addr[OffW-1:0]) + cur_q.len - 13'd1;

  // The burst from baddr_q: up to the 4 KB boundary, MaxBurstBeats, the request's end.
  assign page_left = BW'(PageBeats) - BW'(baddr_q[11:OffW]);
  always_comb begin
    burst_beats = left_q;
    if (page_left < burst_beats) burst_beats = page_left;
    if (BW'(MaxBurstBeats) < burst_beats) burst_beats = BW'(MaxBurstBeats);
  end

  // §4.1 on the answer: the whole request range, 65-bit sums, no wrap past 2^64.
  logic [4:0]  have_perm;
  logic [64:0] acc_end, reg_end;
  assign have_perm = {rrt_entry_i.perm_remote_read, rrt_entry_i.perm_remote_write,
                      rrt_entry_i.perm_remote_rekey, rrt_entry_i.perm_local_read,
                      rrt_entry_i.perm_local_write};
  assign acc_end   = 65'(cur_q.addr) + 65'(cur_q.len);
  assign reg_end   = 65'(rrt_entry_i.base_addr) + 65'(rrt_entry_i.size);
  assign check_ok  = rrt_entry_i.valid && rrt_gen_i == cur_q.gen &&
                     (have_perm & cur_q.perm) == cur_q.perm &&
                     65'(cur_q.addr) >= 65'(rrt_entry_i.base_addr) &&
                     acc_end <= reg_end && acc_end <= {1'b1, 64'd0};

  // Stream rule: an offer of the arbiter's request that is not taken leaves the engine in
  // EIdle, where the same (locked) request is offered again.
  assign rrt_valid_o = eng_q == ELook || (look_new && arb_valid);
  assign rrt_idx_o   = (eng_q == ELook) ? cur_q.region : arb_out.region;
  assign look_fire   = rrt_valid_o && rrt_ready_i;
  assign interfered  = look_commit_q || rrt_commit_i;
  // An error B seen for this request, recorded (with the request's seq) or in this cycle.
  assign stop        = (st_err && st_seq_q == seq_q) ||
                       (b_fire && b_status != DmaStatusOk && ev.seq == seq_q);

  always_comb begin
    seg_push = 1'b0;
    seg_in         = '0;
    seg_in.client  = cur_client_q;
    seg_in.first   = first_q;
    seg_in.beats   = burst_beats;
    seg_in.cbeats  = cbeats_q;
    seg_in.off     = cur_q.addr[OffW-1:0];
    seg_in.endlane = cur_end_lo[OffW-1:0];
    ev_push  = 1'b0;
    ev_in    = '{burst: 1'b0, is_end: 1'b0, client: cur_client_q, tag: cur_q.tag,
                 region: region_q, seq: seq_q};
    if (issue) begin
      seg_push     = 1'b1;
      seg_in.issue = 1'b1;
      seg_in.last  = issue_last;
      ev_push      = 1'b1;
      ev_in.burst  = 1'b1;
      ev_in.is_end = issue_last;
    end else if (eng_q == EDiscard && left_q != '0) begin
      seg_push     = 1'b1;
      seg_in.beats = left_q;
      seg_in.last  = 1'b1;
    end else if (eng_q == EEnd) begin
      ev_push      = 1'b1;
      ev_in.is_end = 1'b1;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      eng_q         <= EIdle;
      seq_q         <= '0;
      look_commit_q <= 1'b0;
      aw_q          <= 1'b0;
    end else begin
      look_commit_q <= look_fire && rrt_commit_i;
      if (aw_fire) aw_q <= 1'b0;
      unique case (eng_q)
        EIdle:    if (take) eng_q <= EAns;
        EWait:    if (stop) eng_q <= EDiscard;
                  else if (res_ok) eng_q <= ELook;
        ELook:    if (look_fire) eng_q <= EAns;
        EAns: begin
          if (interfered) begin
            eng_q <= EWait;
          end else if (stop || !check_ok) begin
            eng_q <= EDiscard;
          end else if (!res_ok) begin
            eng_q <= EWait;
          end else begin
            aw_q <= 1'b1;
            if (issue_last) begin
              eng_q <= take ? EAns : EIdle;
              seq_q <= seq_q + 1'b1;
            end else begin
              eng_q <= EWait;
            end
          end
        end
        EDiscard: if (left_q == '0 || seg_ready) eng_q <= EEnd;
        EEnd: begin
          if (ev_ready) begin
            eng_q <= take ? EAns : EIdle;
            seq_q <= seq_q + 1'b1;
          end
        end
        default:  eng_q <= EIdle;
      endcase
    end
  end

  // A take in the answer cycle of the previous request's last burst loads the new request
  // over that burst's updates, so it comes last.
  always_ff @(posedge clk_i) begin
    if (eng_q == EAns && !interfered && !stop && !check_ok) begin
      region_q <= 1'b1;
    end
    if (seg_push && seg_ready) begin
      first_q <= 1'b0;
      left_q  <= left_q - seg_in.beats;
    end
    if (issue) begin
      aw_addr_q <= baddr_q;
      aw_len_q  <= 8'(burst_beats - 1'b1);
      baddr_q   <= {baddr_q[AddrWidth-1:OffW] + (AddrWidth-OffW)'(burst_beats), OffW'(0)};
    end
    if (take) begin
      cur_q        <= arb_out;
      cur_client_q <= arb_idx;
      baddr_q      <= arb_out.addr;
      left_q       <= req_beats;
      cbeats_q     <= BW'((arb_out.len - 13'd1) >> OffW) + 1'b1;
      first_q      <= 1'b1;
      region_q     <= 1'b0;
    end
  end

  // Fields of the entry the check does not look at, and bits only the W path's lanes need.
  logic unused_req;
  assign unused_req = ^{req_off, req_endlane, cur_end_lo, rrt_entry_i.rsvd0, rrt_entry_i.owner_pid,
                        rrt_entry_i.key};

  assign aw_fire         = m_axi_awvalid_o && m_axi_awready_i;
  assign m_axi_awvalid_o = aw_q;
  assign m_axi_awid_o    = '0;
  assign m_axi_awaddr_o  = aw_addr_q;
  assign m_axi_awlen_o   = aw_len_q;
  assign m_axi_awsize_o  = 3'(OffW);
  assign m_axi_awburst_o = 2'b01;

  // ---------------------------------------------------------------------------------------------
  // W path: segments in order; realigns the packed client beats to the address's lanes.
  seg_t                   seg;
  logic                   seg_valid, seg_pop;
  logic [$clog2(SegDepth+1)-1:0] seg_count;
  logic [BW-1:0]          j_q;         // beat within the segment
  logic [BW-1:0]          crem_q;      // client beats of the request still to consume
  logic [DataWidth-1:0]   rot_prev_q;  // the previous client beat, rotated
  logic                   req_first_beat, req_last_beat, need_client, beat_go, seg_last_beat;
  logic [BW-1:0]          crem;
  logic [ClientWidth-1:0] wc;
  logic [DataWidth-1:0]   cur_data, rot_cur;
  logic [Bytes-1:0]       lo_mask, strb;
  logic                   w_in_valid, w_in_ready;

  typedef struct packed {
    logic [DataWidth-1:0] data;
    logic [Bytes-1:0]     strb;
    logic                 last;
  } w_t;
  w_t w_in, w_out;

  onerma_fifo #(
    .Depth(SegDepth),
    .T    (seg_t)
  ) u_seg (
    .clk_i,
    .rst_ni,
    .flush_i    (1'b0),
    .in_valid_i (seg_push),
    .in_ready_o (seg_ready),
    .in_data_i  (seg_in),
    .out_valid_o(seg_valid),
    .out_ready_i(seg_pop),
    .out_data_o (seg),
    .count_o    (seg_count)
  );

  assign wc             = seg.client;
  assign crem           = (seg.first && j_q == '0) ? seg.cbeats : crem_q;
  assign need_client    = crem != '0;
  assign req_first_beat = seg.first && j_q == '0;
  assign seg_last_beat  = j_q == seg.beats - 1'b1;
  assign req_last_beat  = seg.last && seg_last_beat;
  assign beat_go        = seg_valid && (!need_client || wd_valid_i[wc]) &&
                          (!seg.issue || w_in_ready);
  assign seg_pop        = beat_go && seg_last_beat;

  always_comb begin
    cur_data = '0;
    for (int unsigned c = 0; c < NumClients; c++) begin
      if (wc == ClientWidth'(c)) cur_data = wd_data_i[c];
    end
    if (!need_client) cur_data = '0;
  end

  // Lane l of the bus beat holds op byte (beat * Bytes + l - off): lanes >= off from this client
  // beat, lanes < off from the previous one; both are the client beat rotated left by off.
  always_comb begin
    rot_cur = cur_data;
    for (int unsigned b = 0; b < OffW; b++) begin
      if (seg.off[b]) rot_cur = (rot_cur << (8 * (1 << b))) | (rot_cur >> (DataWidth - 8 * (1 << b)));
    end
  end

  always_comb begin
    for (int unsigned l = 0; l < Bytes; l++) begin
      lo_mask[l] = OffW'(l) < seg.off;
      strb[l]    = !(req_first_beat && OffW'(l) < seg.off) &&
                   !(req_last_beat && OffW'(l) > seg.endlane);
    end
  end

  always_comb begin
    for (int unsigned l = 0; l < Bytes; l++) begin
      w_in.data[8*l +: 8] = lo_mask[l] ? rot_prev_q[8*l +: 8] : rot_cur[8*l +: 8];
    end
    w_in.strb = strb;
    w_in.last = seg_last_beat;
  end

  assign w_in_valid = seg_valid && seg.issue && (!need_client || wd_valid_i[wc]);

  always_comb begin
    wd_ready_o = '0;
    wd_ready_o[wc] = seg_valid && need_client && (!seg.issue || w_in_ready);
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      j_q    <= '0;
      crem_q <= '0;
    end else if (beat_go) begin
      j_q    <= seg_last_beat ? '0 : j_q + 1'b1;
      crem_q <= need_client ? crem - 1'b1 : crem;
    end
  end

  always_ff @(posedge clk_i) begin
    if (beat_go) rot_prev_q <= rot_cur;
  end

  onerma_skid #(
    .T(w_t)
  ) u_w (
    .clk_i,
    .rst_ni,
    .in_valid_i (w_in_valid),
    .in_ready_o (w_in_ready),
    .in_data_i  (w_in),
    .out_valid_o(m_axi_wvalid_o),
    .out_ready_i(m_axi_wready_i),
    .out_data_o (w_out)
  );

  assign m_axi_wdata_o = w_out.data;
  assign m_axi_wstrb_o = w_out.strb;
  assign m_axi_wlast_o = w_out.last;

  logic unused_wlast;
  assign unused_wlast = ^wd_last_i;

  // ---------------------------------------------------------------------------------------------
  // B side and responses: events in order; bursts take their B, an end gives the response.

  onerma_fifo #(
    .Depth(EvDepth),
    .T    (ev_t)
  ) u_ev (
    .clk_i,
    .rst_ni,
    .flush_i    (1'b0),
    .in_valid_i (ev_push),
    .in_ready_o (ev_ready),
    .in_data_i  (ev_in),
    .out_valid_o(ev_valid),
    .out_ready_i(ev_pop),
    .out_data_o (ev),
    .count_o    (ev_count)
  );

  // A request's last burst takes its B in the cycle its response is taken: the response is
  // offered while the B is, and the B is taken only with the response (B holds its payload
  // until taken, so the response's status is stable while offered).
  assign st_err         = st_q != DmaStatusOk;
  assign m_axi_bready_o = ev_valid && ev.burst && (!ev.is_end || rsp_ready_i[ev.client]);
  assign b_fire         = m_axi_bvalid_i && m_axi_bready_o;
  assign b_status       = m_axi_bresp_i == 2'b11 ? DmaStatusDecerr :
                          m_axi_bresp_i == 2'b10 ? DmaStatusSlverr : DmaStatusOk;
  assign rsp_status     = st_err ? st_q :
                          (ev.burst && b_status != DmaStatusOk) ? b_status :
                          ev.region ? DmaStatusRegion : DmaStatusOk;

  always_comb begin
    rsp_valid_o = '0;
    rsp_valid_o[ev.client] = ev_valid && ev.is_end && (!ev.burst || m_axi_bvalid_i);
    for (int unsigned c = 0; c < NumClients; c++) begin
      rsp_tag_o[c]    = ev.tag;
      rsp_status_o[c] = rsp_status;
    end
  end

  assign rsp_fire = ev_valid && ev.is_end && (!ev.burst || m_axi_bvalid_i) &&
                    rsp_ready_i[ev.client];
  assign ev_pop   = b_fire || rsp_fire;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      st_q     <= DmaStatusOk;
      st_seq_q <= '0;
    end else if (rsp_fire) begin
      st_q <= DmaStatusOk;
    end else if (b_fire && !st_err && b_status != DmaStatusOk) begin
      st_q     <= b_status;
      st_seq_q <= ev.seq;
    end
  end

  logic unused_bid;
  assign unused_bid = ^{m_axi_bid_i, seg_count, ev_count};

  // ---------------------------------------------------------------------------------------------
  // Outstanding bursts and quiesce (§4.2): at a commit, the bursts outstanding after this edge
  // were all issued before it; B responses come in AW order, so the oldest leave first.
  assign aw_load  = issue;
  assign out_next = out_q + OutW'(aw_load) - OutW'(b_fire);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      out_q   <= '0;
      drain_q <= '0;
    end else begin
      out_q <= out_next;
      if (rrt_commit_i) begin
        drain_q <= out_next;
      end else if (b_fire && drain_q != '0) begin
        drain_q <= drain_q - 1'b1;
      end
    end
  end

  assign quiesce_o = drain_q == '0;

`ifndef SYNTHESIS
  for (genvar c = 0; c < NumClients; c++) begin : g_checks
    onerma_stream_check #(
      .Width($bits(req_t))
    ) u_req_check (
      .clk_i,
      .rst_ni,
      .valid_i(req_valid_i[c]),
      .ready_i(req_ready_o[c]),
      .data_i (arb_in[c])
    );
    onerma_stream_check #(
      .Width(DataWidth + 1)
    ) u_wd_check (
      .clk_i,
      .rst_ni,
      .valid_i(wd_valid_i[c]),
      .ready_i(wd_ready_o[c]),
      .data_i ({wd_last_i[c], wd_data_i[c]})
    );
    onerma_stream_check #(
      .Width(TagWidth + 2)
    ) u_rsp_check (
      .clk_i,
      .rst_ni,
      .valid_i(rsp_valid_o[c]),
      .ready_i(rsp_ready_i[c]),
      .data_i ({rsp_tag_o[c], rsp_status_o[c]})
    );
  end
  onerma_stream_check #(
    .Width(AddrWidth + 8)
  ) u_aw_check (
    .clk_i,
    .rst_ni,
    .valid_i(m_axi_awvalid_o),
    .ready_i(m_axi_awready_i),
    .data_i ({m_axi_awaddr_o, m_axi_awlen_o})
  );
  onerma_stream_check #(
    .Width(RrtIdxWidth)
  ) u_rrt_check (
    .clk_i,
    .rst_ni,
    .valid_i(rrt_valid_o),
    .ready_i(rrt_ready_i),
    .data_i (rrt_idx_o)
  );
`endif

endmodule

`default_nettype wire
