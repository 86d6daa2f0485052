`default_nettype none

/// Host-memory DMA read on the AXI4 master (AR/R), with the region check of protocol.md §4.1
/// before every burst (docs/nic.md, "Host DMA"). The request side is onerma_dma_wr's.
///
/// - `NumClients` requesters, round-robin between requests. A request `{addr, len (1..4096),
///   region, gen, perm, tag}` is answered on the client's data stream with exactly
///   `ceil(len / Bytes)` packed beats (op byte 0 in lane 0 of the first; bytes past `len` in the
///   last beat are unspecified), `rd_last` on the final, then one response `{tag, status}`.
/// - Cut into INCR bursts (no 4 KB crossing, at most `MaxBurstBeats` beats); before each burst
///   the RRT entry is read and the burst issued only if `valid && gen == req.gen && perm bits
///   present && [addr, addr + len) inside [base, base + size)` (65-bit sums, no wrap past 2^64).
///   An RRT commit in the lookup or the answer cycle voids the answer (the lookup is repeated).
/// - A failed check (REGION) or an error R beat seen for the request stops it: no further burst.
///   Client beats built from a burst not issued or from an error R beat carry `rd_err = 1` and
///   zero data, so a client always receives the whole stream.
/// - Status: the first failure in burst order. Responses per client in request order (all
///   requests finish in acceptance order), each after the request's last data beat was taken.
/// - A single-burst request per cycle: a request is taken with its first lookup (the arbiter's
///   output drives the RRT port), in the answer cycle of the previous request's last burst; the
///   answer is checked against the burst's resources in its own cycle (without them: wait, look
///   up again).
/// - Reads of a request may be outstanding while the next request's bursts issue; one AXI ID (0),
///   so R beats come in AR order.
/// - `quiesce_o`: every burst issued before the most recent `rrt_commit_i` has its last R beat.
module onerma_dma_rd #(
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
  // Read data, packed from lane 0, ceil(len / Bytes) beats per request.
  output logic [NumClients-1:0]                  rd_valid_o,
  input  logic [NumClients-1:0]                  rd_ready_i,
  output logic [NumClients-1:0][DataWidth-1:0]   rd_data_o,
  output logic [NumClients-1:0]                  rd_last_o,
  output logic [NumClients-1:0]                  rd_err_o,
  // Responses, one per request, in request order, after its last data beat.
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
  // AXI4 master, read channels.
  output logic                                   m_axi_arvalid_o,
  input  logic                                   m_axi_arready_i,
  output logic [IdWidth-1:0]                     m_axi_arid_o,
  output logic [AddrWidth-1:0]                   m_axi_araddr_o,
  output logic [7:0]                             m_axi_arlen_o,
  output logic [2:0]                             m_axi_arsize_o,
  output logic [1:0]                             m_axi_arburst_o,
  input  logic                                   m_axi_rvalid_i,
  output logic                                   m_axi_rready_o,
  input  logic [IdWidth-1:0]                     m_axi_rid_i,
  input  logic [DataWidth-1:0]                   m_axi_rdata_i,
  input  logic [1:0]                             m_axi_rresp_i,
  input  logic                                   m_axi_rlast_i
);

  import onerma_pkg::*;

  localparam int unsigned OffW      = $clog2(Bytes);
  localparam int unsigned PageBeats = 4096 / Bytes;
  // AXI beats of one request: at most 4096 / Bytes + 1 (unaligned); 13 bits hold any count.
  localparam int unsigned BW        = 13;
  localparam int unsigned SegDepth  = 4;
  localparam int unsigned SeqW      = $clog2(SegDepth + MaxOutstanding + 2) + 1;
  localparam int unsigned OutW      = $clog2(MaxOutstanding + 1);

  if (DataWidth < 16 || DataWidth > 1024 || (1 << OffW) != Bytes) begin : g_bad_width
    $error("onerma_dma_rd: DataWidth must be a power of two in 16..1024");
  end
  if (MaxBurstBeats < 1 || MaxBurstBeats > 256) begin : g_bad_burst
    $error("onerma_dma_rd: MaxBurstBeats must be in 1..256");
  end

  typedef struct packed {
    logic [AddrWidth-1:0]   addr;
    logic [12:0]            len;
    logic [RrtIdxWidth-1:0] region;
    logic [15:0]            gen;
    logic [4:0]             perm;
    logic [TagWidth-1:0]    tag;
  } req_t;

  // One run of AXI beats of a request for the R path: a burst (issue: R beats from the bus) or
  // the beats of bursts that will never be issued (error beats made here). Request-wide fields
  // ride along in every segment.
  typedef struct packed {
    logic [ClientWidth-1:0] client;
    logic [TagWidth-1:0]    tag;
    logic [SeqW-1:0]        seq;
    logic                   first;   // first segment of its request
    logic                   last;    // last segment of its request
    logic                   issue;   // 1: R beats from the bus; 0: error beats
    logic                   region;  // (last segment) the engine stopped on a failed check
    logic                   flush;   // one client beat more than AXI beats (off != 0)
    logic [BW-1:0]          beats;   // AXI beats in this segment, >= 1
    logic [BW-1:0]          cbeats;  // client beats of the request
    logic [OffW-1:0]        off;     // addr % Bytes
  } seg_t;

  // R side state the engine's stop reads.
  dma_status_e     rst_q;       // first R error of the request in the R path
  logic [SeqW-1:0] rst_seq_q;
  logic            rst_err;
  logic            r_fire, r_err_now;
  seg_t            seg;

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
  // Burst engine: cuts the request, checks before every burst, loads the AR register.
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
  logic [BW-1:0]          flush_beats; // AXI beats of the request
  logic [BW-1:0]          nbeats_q;
  logic                   first_q;     // no segment of this request pushed yet
  logic                   region_q;    // stopped on a failed check
  logic [SeqW-1:0]        seq_q;       // request sequence number (ties R errors to requests)
  logic                   look_commit_q; // a commit in the lookup handshake cycle

  logic                   take, look_new, look_fire, stop, interfered, check_ok;
  logic                   res_ok;      // resources for one more burst
  logic                   issue, issue_last;
  logic [BW-1:0]          burst_beats;
  logic [BW-1:0]          page_left;
  logic [BW-1:0]          req_beats;
  logic [OffW-1:0]        req_off, req_endlane;
  logic [12:0]            req_end_lo, cur_end_lo;

  logic                   ar_q;
  logic [AddrWidth-1:0]   ar_addr_q;
  logic [7:0]             ar_len_q;
  logic                   ar_fire;

  logic                   seg_push, seg_ready;
  seg_t                   seg_in;
  logic [OutW-1:0]        out_q;       // bursts with AR loaded and no last R beat yet
  logic [OutW-1:0]        drain_q, out_next;
  logic                   ar_load;
  logic                   rl_fire;     // last R beat of a burst

  // The resources one more burst needs: the AR register free or leaving, fewer than
  // MaxOutstanding bursts in flight, a segment slot.
  assign res_ok     = (!ar_q || ar_fire) && out_q < OutW'(MaxOutstanding) && seg_ready;
  // A request is taken in the cycle of its first lookup (the arbiter's output drives the RRT
  // port), and that cycle may be the answer cycle of the previous request's last burst: a
  // single-burst request costs one cycle. The answer is checked against the resources in its
  // own cycle; without them the engine waits for them and looks up again (it never holds an
  // answer, which a commit could void).
  assign issue      = eng_q == EAns && !interfered && !stop && check_ok && res_ok;
  assign issue_last = issue && burst_beats == left_q;
  assign look_new   = eng_q == EIdle || eng_q == EEnd || issue_last;
  assign arb_ready  = look_new && rrt_ready_i;
  assign take       = arb_valid && arb_ready;

  // Beats of a new request: ceil((off + len) / Bytes).
  assign req_off     = arb_out.addr[OffW-1:0];
  assign req_end_lo  = 13'(arb_out.addr[OffW-1:0]) + arb_out.len - 13'd1;
  assign req_endlane = req_end_lo[OffW-1:0];
  assign req_beats   = BW'(req_end_lo >> OffW) + 1'b1;
  assign flush_beats = nbeats_q;
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
  // An error R beat seen for this request, recorded (with the request's seq) or in this cycle.
  assign stop        = (rst_err && rst_seq_q == seq_q) || (r_err_now && seg.seq == seq_q);

  always_comb begin
    seg_push = 1'b0;
    seg_in         = '0;
    seg_in.client  = cur_client_q;
    seg_in.first   = first_q;
    seg_in.beats   = burst_beats;
    seg_in.cbeats  = cbeats_q;
    seg_in.off     = cur_q.addr[OffW-1:0];
    seg_in.tag     = cur_q.tag;
    seg_in.seq     = seq_q;
    seg_in.region  = region_q;
    seg_in.flush   = cur_q.addr[OffW-1:0] != '0 && flush_beats == cbeats_q;
    if (issue) begin
      seg_push     = 1'b1;
      seg_in.issue = 1'b1;
      seg_in.last  = issue_last;
    end else if (eng_q == EDiscard && left_q != '0) begin
      seg_push     = 1'b1;
      seg_in.beats = left_q;
      seg_in.last  = 1'b1;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      eng_q         <= EIdle;
      seq_q         <= '0;
      look_commit_q <= 1'b0;
      ar_q          <= 1'b0;
    end else begin
      look_commit_q <= look_fire && rrt_commit_i;
      if (ar_fire) ar_q <= 1'b0;
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
            ar_q <= 1'b1;
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
          eng_q <= take ? EAns : EIdle;
          seq_q <= seq_q + 1'b1;
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
      ar_addr_q <= baddr_q;
      ar_len_q  <= 8'(burst_beats - 1'b1);
      baddr_q   <= {baddr_q[AddrWidth-1:OffW] + (AddrWidth-OffW)'(burst_beats), OffW'(0)};
    end
    if (take) begin
      cur_q        <= arb_out;
      cur_client_q <= arb_idx;
      baddr_q      <= arb_out.addr;
      left_q       <= req_beats;
      nbeats_q     <= req_beats;
      cbeats_q     <= BW'((arb_out.len - 13'd1) >> OffW) + 1'b1;
      first_q      <= 1'b1;
      region_q     <= 1'b0;
    end
  end

  // Fields of the entry the check does not look at, and bits only the W path's lanes need.
  logic unused_req;
  assign unused_req = ^{req_off, req_endlane, cur_end_lo, rrt_entry_i.rsvd0, rrt_entry_i.owner_pid,
                        rrt_entry_i.key};

  assign ar_fire         = m_axi_arvalid_o && m_axi_arready_i;
  assign m_axi_arvalid_o = ar_q;
  assign m_axi_arid_o    = '0;
  assign m_axi_araddr_o  = ar_addr_q;
  assign m_axi_arlen_o   = ar_len_q;
  assign m_axi_arsize_o  = 3'(OffW);
  assign m_axi_arburst_o = 2'b01;

  // ---------------------------------------------------------------------------------------------
  // R path: segments in order; packs the address-aligned beats back to lane 0. With off != 0,
  // client beat i = lanes off.. of AXI beat i and lanes ..off-1 of AXI beat i + 1: both come
  // from the AXI beats rotated right by off; client beat i leaves with AXI beat i + 1, or in an
  // extra flush step after the request's last AXI beat (`seg.flush`).
  logic                   seg_valid, seg_pop;
  logic [$clog2(SegDepth+1)-1:0] seg_count;
  logic [BW-1:0]          j_q;         // AXI beat within the segment
  logic [BW-1:0]          e_q;         // client beats of the request emitted
  logic                   fl_q;        // the flush step of the head (last) segment
  logic [DataWidth-1:0]   prev_rot_q;  // the previous AXI beat, rotated
  logic                   prev_err_q;
  logic                   jfirst, emit, emit_last, src_ok, out_ok, go, seg_last_beat, to_flush;
  logic [BW-1:0]          e_cur;
  logic [DataWidth-1:0]   cur_data, rot_cur, packed_data;
  logic                   cur_err, beat_err;
  logic [Bytes-1:0]       hi_mask;
  dma_status_e            st_now, r_status;
  logic                   o_in_valid, o_in_ready;
  logic                   o_valid, o_ready, rsp_push, rsp_ready, rsp_valid;

  typedef struct packed {
    logic [ClientWidth-1:0] client;
    logic [DataWidth-1:0]   data;
    logic                   last;
    logic                   err;
    logic [TagWidth-1:0]    tag;
    dma_status_e            status;
  } o_t;
  o_t o_in, o_out;

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

  assign r_status  = m_axi_rresp_i == 2'b11 ? DmaStatusDecerr :
                     m_axi_rresp_i == 2'b10 ? DmaStatusSlverr : DmaStatusOk;
  assign jfirst    = !fl_q && seg.first && j_q == '0;
  assign e_cur     = jfirst ? '0 : e_q;
  assign cur_data  = seg.issue ? m_axi_rdata_i : '0;
  assign cur_err   = !seg.issue || m_axi_rresp_i[1];
  assign src_ok    = fl_q || !seg.issue || m_axi_rvalid_i;
  assign emit      = fl_q || seg.off == '0 || !jfirst;
  assign emit_last = emit && e_cur == seg.cbeats - 1'b1;
  assign out_ok    = !emit || o_in_ready;
  assign go        = seg_valid && src_ok && out_ok;
  assign seg_last_beat = j_q == seg.beats - 1'b1;
  assign to_flush  = !fl_q && seg_last_beat && seg.last && seg.flush;
  assign seg_pop   = go && (fl_q || (seg_last_beat && !to_flush));
  assign m_axi_rready_o = seg_valid && !fl_q && seg.issue && out_ok;
  assign r_fire    = m_axi_rvalid_i && m_axi_rready_o;
  assign rl_fire   = r_fire && m_axi_rlast_i;
  assign r_err_now = r_fire && m_axi_rresp_i[1];
  assign rst_err   = rst_q != DmaStatusOk;
  // The request's first R error including this beat's (whether or not it transfers now, so the
  // offered beat stays stable while it waits).
  assign st_now    = rst_err ? rst_q :
                     (!fl_q && seg.issue && m_axi_rresp_i[1]) ? r_status : DmaStatusOk;

  always_comb begin
    rot_cur = cur_data;
    for (int unsigned b = 0; b < OffW; b++) begin
      if (seg.off[b]) rot_cur = (rot_cur >> (8 * (1 << b))) | (rot_cur << (DataWidth - 8 * (1 << b)));
    end
  end

  always_comb begin
    for (int unsigned l = 0; l < Bytes; l++) begin
      hi_mask[l] = OffW'(Bytes - 1 - l) < seg.off;   // l >= Bytes - off
    end
    if (seg.off == '0) begin
      packed_data = rot_cur;
      beat_err    = cur_err;
    end else begin
      for (int unsigned l = 0; l < Bytes; l++) begin
        packed_data[8*l +: 8] = (hi_mask[l] && !fl_q) ? rot_cur[8*l +: 8] : prev_rot_q[8*l +: 8];
      end
      beat_err = prev_err_q || (!fl_q && cur_err);
    end
  end

  always_comb begin
    o_in.client = seg.client;
    o_in.data   = beat_err ? '0 : packed_data;
    o_in.err    = beat_err;
    o_in.last   = emit_last;
    o_in.tag    = seg.tag;
    o_in.status = st_now != DmaStatusOk ? st_now : seg.region ? DmaStatusRegion : DmaStatusOk;
  end
  assign o_in_valid = seg_valid && src_ok && emit;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      j_q        <= '0;
      e_q        <= '0;
      fl_q       <= 1'b0;
      rst_q      <= DmaStatusOk;
      rst_seq_q  <= '0;
      prev_err_q <= 1'b0;
    end else if (go) begin
      if (fl_q) begin
        fl_q <= 1'b0;
      end else begin
        j_q        <= seg_last_beat ? '0 : j_q + 1'b1;
        fl_q       <= to_flush;
        prev_err_q <= cur_err;
      end
      e_q <= e_cur + BW'(emit);
      if (emit_last) begin
        rst_q <= DmaStatusOk;
      end else if (!rst_err && r_err_now) begin
        rst_q     <= r_status;
        rst_seq_q <= seg.seq;
      end
    end
  end

  always_ff @(posedge clk_i) begin
    if (go && !fl_q) prev_rot_q <= rot_cur;
  end

  onerma_skid #(
    .T(o_t)
  ) u_o (
    .clk_i,
    .rst_ni,
    .in_valid_i (o_in_valid),
    .in_ready_o (o_in_ready),
    .in_data_i  (o_in),
    .out_valid_o(o_valid),
    .out_ready_i(o_ready),
    .out_data_o (o_out)
  );

  // ---------------------------------------------------------------------------------------------
  // Client data streams and responses (a response after its request's last beat was taken).
  typedef struct packed {
    logic [ClientWidth-1:0] client;
    logic [TagWidth-1:0]    tag;
    dma_status_e            status;
  } rsp_t;
  rsp_t rsp_in, rsp;
  logic [1:0] rsp_count;

  always_comb begin
    rd_valid_o = '0;
    // A last beat is offered only with room for its response (only that push fills the
    // response FIFO, so the offer stays up until taken).
    rd_valid_o[o_out.client] = o_valid && (!o_out.last || rsp_ready);
    for (int unsigned c = 0; c < NumClients; c++) begin
      rd_data_o[c] = o_out.data;
      rd_last_o[c] = o_out.last;
      rd_err_o[c]  = o_out.err;
    end
  end
  assign o_ready  = rd_ready_i[o_out.client] && (!o_out.last || rsp_ready);
  assign rsp_push = o_valid && o_ready && o_out.last;
  assign rsp_in   = '{client: o_out.client, tag: o_out.tag, status: o_out.status};

  onerma_fifo #(
    .Depth(2),
    .T    (rsp_t)
  ) u_rsp (
    .clk_i,
    .rst_ni,
    .flush_i    (1'b0),
    .in_valid_i (rsp_push),
    .in_ready_o (rsp_ready),
    .in_data_i  (rsp_in),
    .out_valid_o(rsp_valid),
    .out_ready_i(rsp_ready_i[rsp.client]),
    .out_data_o (rsp),
    .count_o    (rsp_count)
  );

  always_comb begin
    rsp_valid_o = '0;
    rsp_valid_o[rsp.client] = rsp_valid;
    for (int unsigned c = 0; c < NumClients; c++) begin
      rsp_tag_o[c]    = rsp.tag;
      rsp_status_o[c] = rsp.status;
    end
  end

  logic unused_r;
  assign unused_r = ^{m_axi_rid_i, seg_count, rsp_count};

  // ---------------------------------------------------------------------------------------------
  // Outstanding bursts and quiesce (§4.2): at a commit, the bursts outstanding after this edge
  // were all issued before it; R bursts complete in AR order, so the oldest leave first.
  assign ar_load  = issue;
  assign out_next = out_q + OutW'(ar_load) - OutW'(rl_fire);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      out_q   <= '0;
      drain_q <= '0;
    end else begin
      out_q <= out_next;
      if (rrt_commit_i) begin
        drain_q <= out_next;
      end else if (rl_fire && drain_q != '0) begin
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
      .Width(DataWidth + 2)
    ) u_rd_check (
      .clk_i,
      .rst_ni,
      .valid_i(rd_valid_o[c]),
      .ready_i(rd_ready_i[c]),
      .data_i ({rd_last_o[c], rd_err_o[c], rd_data_o[c]})
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
  ) u_ar_check (
    .clk_i,
    .rst_ni,
    .valid_i(m_axi_arvalid_o),
    .ready_i(m_axi_arready_i),
    .data_i ({m_axi_araddr_o, m_axi_arlen_o})
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
