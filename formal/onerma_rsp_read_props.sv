`default_nettype none

// Properties of onerma_rsp_read. Every start is followed: each READ is named by its start's
// sequence number (mod 4 * MaxOps) and lives, as in the block, in ring entry "number mod
// MaxOps"; the shadow keeps every held READ's length, and the other start fields (request
// header, K_d, base + offset, gen) of the READ last started into one watched entry `ws`, a
// symbolic constant: as `ws` is any entry, the field checks below, made for the READs of the
// watched entry, hold for every READ (and the solver follows one record instead of MaxOps). A
// job pointer and a read pointer (READ, chunk) walk the chunks of the READs in start order, one
// step per job accepted and per read issued; jobs accepted, reads issued, reads whose data is
// through and responses are counted (mod 2^CtW, as in the block), and every issued read is kept
// in a shadow FIFO (its READ, chunk, last-chunk flag, length and error flag) until its response.
//
// Environment (assumed): reset in the first cycle; a start's length is 1..4096 (the request
// checks passed); the lock contract: `lock_i` does not fall while the block is not idle (high
// and `!idle_o` in a cycle: high in the next); `yield_i` free; the dma_rd client contract:
// data beats only for an issued read whose data has not all come, in issue order, exactly
// ceil(len / Bytes) of them with `last` on the final; one response per read, in order, in a
// later cycle than its last beat, not OK iff one of its beats carried `rd_err`; stream rules on
// start, data and response.
//
// Asserted: a start is taken only without `yield_i` and while fewer than MaxOps READs are held
// (a READ is held from its start until every chunk's job was accepted and read issued); exactly
// one job per chunk, over the chunks of the READs in start order: the job of chunk k carries
// the RD_RESP header built from that READ's start fields (READ, status OK, dst_nic = request
// src_nic, prev_counter = request counter, PID, region, slot, offset, length echoed, ctx,
// hold_ns, src_nic, counter and reserved 0), chunk_offset k * ChunkBytes, the chunk's
// chunk_len, K_d and meta k, and is offered only once every earlier accepted job's data went
// through; exactly one read per chunk in the same order, only while `lock_i` and fewer than
// MaxReads reads are unanswered, with the address base + offset + k * ChunkBytes, chunk_len, the
// request's region, gen, perm_remote_read only and the running count as tag; so the n-th read
// and the n-th job are the same chunk, and no read is issued whose job is not offered in its
// turn. Payload: offered
// exactly when a beat comes for a read whose job was accepted (`rd_ready` only then, with
// `pay_ready`: every beat goes to the sealer, none is dropped), with the beat's data and last,
// `pay_err` = `rd_err` or an earlier beat of the same READ carried `rd_err`. Every response is
// taken at once, none before its read was issued; `fail` exactly with a response not OK that is
// the first such of its READ, with its status. `idle_o` iff no READ held and every issued read
// answered. The stream rules of job, payload and read request.
//
// Induction invariants: the block's counters, pointers and counts against the shadow's (its
// head READ is the job pointer's, or the one before once all its jobs were accepted), the ring
// entries held against the shadow, the FIFO of issued reads as a chain of chunks from the data
// pointer's to the read pointer's passing the job pointer's (and the block's first-chunk flags
// of those reads), `derr_q` against the shadow's error flag of the READ whose data is due,
// `rbad_q` against the shadow's flag of a failed response of the READ last answered.
`ifdef FORMAL
module onerma_rsp_read_props #(
  parameter int unsigned DataWidth   = 512,
  parameter int unsigned AddrWidth   = 64,
  parameter int unsigned TagWidth    = 8,
  parameter int unsigned RrtIdxWidth = 16,
  parameter int unsigned MaxOps      = 4,
  parameter int unsigned MaxReads    = 4,
  parameter int unsigned OpW         = 2,
  parameter int unsigned OnW         = 3,
  parameter int unsigned CtW         = 4
) (
  input logic                    clk_i,
  input logic                    rst_ni,
  input logic                    start_valid_i,
  input logic                    start_ready_o,
  input onerma_pkg::hdr_t        start_hdr_i,
  input logic [127:0]            start_kd_i,
  input logic [63:0]             start_base_i,
  input logic [15:0]             start_gen_i,
  input logic                    lock_i,
  input logic                    yield_i,
  input logic                    idle_o,
  input logic                    rdreq_valid_o,
  input logic                    rdreq_ready_i,
  input logic [AddrWidth-1:0]    rdreq_addr_o,
  input logic [12:0]             rdreq_len_o,
  input logic [RrtIdxWidth-1:0]  rdreq_region_o,
  input logic [15:0]             rdreq_gen_o,
  input logic [4:0]              rdreq_perm_o,
  input logic [TagWidth-1:0]     rdreq_tag_o,
  input logic                    rd_valid_i,
  input logic                    rd_ready_o,
  input logic [DataWidth-1:0]    rd_data_i,
  input logic                    rd_last_i,
  input logic                    rd_err_i,
  input logic                    rsp_valid_i,
  input logic                    rsp_ready_o,
  input logic [TagWidth-1:0]     rsp_tag_i,
  input onerma_pkg::dma_status_e rsp_status_i,
  input logic                    fail_o,
  input onerma_pkg::dma_status_e fail_status_o,
  input logic                    job_valid_o,
  input logic                    job_ready_i,
  input onerma_pkg::hdr_t        job_hdr_o,
  input logic [127:0]            job_key_o,
  input logic [onerma_pkg::ChunkIndexBits-1:0] job_meta_o,
  input logic                    pay_valid_o,
  input logic                    pay_ready_i,
  input logic [DataWidth-1:0]    pay_data_o,
  input logic                    pay_last_o,
  input logic                    pay_err_o,
  // Internals for the induction invariants (the ring entries ops_q by hierarchical name).
  input logic [OpW-1:0]          oh_q,
  input logic [OpW-1:0]          rp_q,
  input logic [OpW-1:0]          ot_q,
  input logic [OnW-1:0]          on_q,
  input logic [OnW-1:0]          nr_q,
  input logic [2:0]              jk_q,
  input logic [2:0]              rk_q,
  input logic [CtW-1:0]          jt_q,
  input logic [CtW-1:0]          it_q,
  input logic [CtW-1:0]          dt_q,
  input logic [CtW-1:0]          st_q,
  input logic                    derr_q,
  input logic [(1 << CtW)-1:0]   rfirst_q,
  input logic                    rbad_q,
  input logic [2:0]              h_n
);
  import onerma_pkg::*;

  localparam int unsigned Bytes = DataWidth / 8;
  localparam int unsigned CIB   = ChunkIndexBits;
  localparam int unsigned CS    = $clog2(ChunkBytes);
  localparam int unsigned BW    = CS + 1;  // beats of a chunk (<= ChunkBytes)
  // READ sequence numbers mod M: the held READs and the READs of the reads in flight span less
  // than M / 2, so differences are unambiguous.
  localparam int unsigned M     = 4 * MaxOps;
  localparam int unsigned SW    = $clog2(M);
  localparam bit          Pow2  = (MaxOps & (MaxOps - 1)) == 0;
  // The read FIFO: entry j is read p_st + j (a shift register: entries shift down with every
  // response), at most MaxReads of them.
  localparam int unsigned FS    = MaxReads;

  logic past_valid_q = 1'b0;
  always_ff @(posedge clk_i) past_valid_q <= 1'b1;
  always_comb if (!past_valid_q) assume (!rst_ni);

  function automatic logic [15:0] clen(input logic [15:0] len, input logic [2:0] k);
    logic [16:0] off, rest;
    off  = 17'(k) << CS;
    rest = 17'(len) - off;
    return (17'(len) <= off) ? 16'd0 : ((rest > 17'(ChunkBytes)) ? 16'(ChunkBytes) : 16'(rest));
  endfunction

  // (Shifts, not divisions: a divider costs the solver much.)
  function automatic logic [2:0] nchunks(input logic [15:0] len);
    return 3'((17'(len) + 17'(ChunkBytes - 1)) >> CS);
  endfunction

  function automatic logic [BW-1:0] nbeats(input logic [12:0] len);
    if (Bytes == (1 << $clog2(Bytes))) return BW'((14'(len) + 14'(Bytes - 1)) >> $clog2(Bytes));
    else return BW'((32'(len) + Bytes - 1) / Bytes);
  endfunction

  // (With MaxOps a power of two, M is one too: plain SW-bit arithmetic.)
  function automatic logic [SW-1:0] qinc(input logic [SW-1:0] q);
    if (Pow2) return q + SW'(1);
    else return (32'(q) == M - 1) ? '0 : q + SW'(1);
  endfunction

  // a - b mod M.
  function automatic logic [SW-1:0] qsub(input logic [SW-1:0] a, input logic [SW-1:0] b);
    if (Pow2) return a - b;
    else return (a >= b) ? a - b : SW'(32'(a) + M - 32'(b));
  endfunction

  // The ring entry of READ q (the block's ring is written from entry 0 on after a reset).
  function automatic logic [OpW-1:0] slot(input logic [SW-1:0] q);
    if (MaxOps == 1) return '0;
    else if (Pow2) return OpW'(q);
    else return OpW'(q % SW'(MaxOps));
  endfunction

  // Entries from a to b around the block's ring.
  function automatic logic [OnW-1:0] sdist(input logic [OpW-1:0] a, input logic [OpW-1:0] b);
    if (MaxOps == 1) return '0;
    else if (Pow2) return OnW'(OpW'(b - a));
    else return (b >= a) ? OnW'(32'(b) - 32'(a)) : OnW'(32'(b) + MaxOps - 32'(a));
  endfunction

  // The chunk after chunk k of READ q ({READ, chunk}); lc: k is that READ's last.
  function automatic logic [SW+2:0] succ(input logic [SW-1:0] q, input logic [2:0] k,
                                         input logic lc);
    return lc ? {qinc(q), 3'd0} : {q, k + 3'd1};
  endfunction

  logic start_fire, job_fire, req_fire, rd_fire, rsp_fire, pay_fire;
  assign start_fire = start_valid_i && start_ready_o;
  assign job_fire   = job_valid_o && job_ready_i;
  assign req_fire   = rdreq_valid_o && rdreq_ready_i;
  assign rd_fire    = rd_valid_i && rd_ready_o;
  assign rsp_fire   = rsp_valid_i && rsp_ready_o;
  assign pay_fire   = pay_valid_o && pay_ready_i;

  // ---- Stream rules: inputs assumed, outputs asserted.
  onerma_stream_check #(.Width($bits(hdr_t) + 128 + 64 + 16), .Assume(1'b1)) u_start (
    .clk_i, .rst_ni, .valid_i(start_valid_i), .ready_i(start_ready_o),
    .data_i({start_hdr_i, start_kd_i, start_base_i, start_gen_i}));
  onerma_stream_check #(.Width(DataWidth + 2), .Assume(1'b1)) u_rd (
    .clk_i, .rst_ni, .valid_i(rd_valid_i), .ready_i(rd_ready_o),
    .data_i({rd_data_i, rd_last_i, rd_err_i}));
  onerma_stream_check #(.Width(TagWidth + 2), .Assume(1'b1)) u_rsp (
    .clk_i, .rst_ni, .valid_i(rsp_valid_i), .ready_i(rsp_ready_o),
    .data_i({rsp_tag_i, rsp_status_i}));
  onerma_stream_check #(.Width($bits(hdr_t) + 128 + CIB)) u_job (
    .clk_i, .rst_ni, .valid_i(job_valid_o), .ready_i(job_ready_i),
    .data_i({job_hdr_o, job_key_o, job_meta_o}));
  onerma_stream_check #(.Width(DataWidth + 2)) u_pay (
    .clk_i, .rst_ni, .valid_i(pay_valid_o), .ready_i(pay_ready_i),
    .data_i({pay_data_o, pay_last_o, pay_err_o}));
  onerma_stream_check #(.Width(AddrWidth + 13 + RrtIdxWidth + 16 + 5 + TagWidth)) u_req (
    .clk_i, .rst_ni, .valid_i(rdreq_valid_o), .ready_i(rdreq_ready_i),
    .data_i({rdreq_addr_o, rdreq_len_o, rdreq_region_o, rdreq_gen_o, rdreq_perm_o,
             rdreq_tag_o}));

  // ---- Shadows.
  // The READs, by start sequence number: p_tq started; the job pointer (READ p_jq, chunk p_jk)
  // and the read pointer (p_rq, p_rk) name the next chunk to get a job and a read. Every READ's
  // length is kept at the index of the ring entry that holds it in the block; the other start
  // fields only for the READ last started into the watched entry `ws` (a symbolic constant:
  // a self-holding register without reset, read_slang has no $anyconst).
  logic [OpW-1:0]             ws;
  logic [MaxOps-1:0][15:0]    s_len_q;
  logic [MaxOps-1:0]          s_val_q = '0;  // written by a start (not cleared by a reset)
  hdr_t                       w_hdr_q;
  logic [127:0]               w_kd_q;
  logic [63:0]                w_addr_q;      // base + offset
  logic [15:0]                w_gen_q;
  logic [SW-1:0]              p_tq, p_jq, p_rq;
  logic [2:0]                 p_jk, p_rk;
  // Jobs accepted, reads issued, reads whose last beat was taken, responses taken.
  logic [CtW-1:0]             p_jt, p_it, p_dt, p_st;
  // The issued reads [p_st, p_it), read p_st + j in entry j: READ, chunk, the READ's last chunk,
  // length, one of its beats carried rd_err.
  logic [FS-1:0][SW-1:0]      f_q_q;
  logic [FS-1:0][2:0]         f_k_q;
  logic [FS-1:0]              f_lc_q;
  logic [FS-1:0][12:0]        f_len_q;
  logic [FS-1:0]              f_err_q;
  logic [BW-1:0]              p_bc;    // beats taken of read p_dt
  logic                       p_dmid;  // read p_dt is not the first chunk of its READ
  logic                       p_derr;  // an earlier beat of read p_dt's READ carried rd_err
  logic [2:0]                 p_ek;    // cover only: chunk of that READ's first erroneous beat
  logic                       p_rbad;  // a response of read p_st - 1's READ was not OK
  logic                       p_lock_q = 1'b0;  // lock_i and idle_o in the previous cycle
  logic                       p_idle_q = 1'b1;

  logic [15:0]   j_len, r_len;   // the lengths of the READs of the job and read pointers
  logic [2:0]    j_n, r_n;
  logic          j_w, r_w;       // those READs are the watched entry's
  logic          r_lc;           // the read pointer's chunk is its READ's last
  logic          pass;           // the job of read p_dt was accepted
  logic [BW-1:0] d_beats;
  logic [SW-1:0] p_head;         // the oldest held READ
  logic [SW-1:0] p_held;         // READs held: started, jobs or reads left
  logic [CtW-1:0] oi, od, oj;    // p_it, p_dt, p_jt less p_st

  assign j_len   = s_len_q[slot(p_jq)];
  assign r_len   = s_len_q[slot(p_rq)];
  assign j_n     = nchunks(j_len);
  assign r_n     = nchunks(r_len);
  assign j_w     = (slot(p_jq) == ws);
  assign r_w     = (slot(p_rq) == ws);
  assign r_lc    = (p_rk + 3'd1 == r_n);
  assign pass    = (p_jt != p_dt);
  assign d_beats = nbeats(f_len_q[od]);
  assign p_head  = (32'(qsub(p_rq, p_jq)) <= MaxOps) ? p_jq : p_rq;
  assign p_held  = qsub(p_tq, p_head);
  assign oi      = p_it - p_st;
  assign od      = p_dt - p_st;
  assign oj      = p_jt - p_st;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      p_tq   <= '0;
      p_jq   <= '0;
      p_rq   <= '0;
      p_jk   <= '0;
      p_rk   <= '0;
      p_jt   <= '0;
      p_it   <= '0;
      p_dt   <= '0;
      p_st   <= '0;
      p_bc   <= '0;
      p_dmid <= 1'b0;
      p_derr <= 1'b0;
      p_ek   <= '0;
      p_rbad <= 1'b0;
    end else begin
      if (start_fire) p_tq <= qinc(p_tq);
      if (job_fire) begin
        p_jt <= p_jt + CtW'(1);
        if (p_jk + 3'd1 == j_n) begin
          p_jq <= qinc(p_jq);
          p_jk <= '0;
        end else begin
          p_jk <= p_jk + 3'd1;
        end
      end
      if (req_fire) begin
        p_it <= p_it + CtW'(1);
        if (r_lc) begin
          p_rq <= qinc(p_rq);
          p_rk <= '0;
        end else begin
          p_rk <= p_rk + 3'd1;
        end
      end
      if (rd_fire) begin
        if (rd_last_i) begin
          p_dt   <= p_dt + CtW'(1);
          p_bc   <= '0;
          p_dmid <= !f_lc_q[od];
        end else begin
          p_bc <= p_bc + BW'(1);
        end
        if (rd_last_i && f_lc_q[od]) p_derr <= 1'b0;
        else if (rd_err_i) p_derr <= 1'b1;
        if (rd_err_i && !p_derr) p_ek <= f_k_q[od];
      end
      if (rsp_fire) begin
        p_st   <= p_st + CtW'(1);
        p_rbad <= (rsp_status_i != DmaStatusOk) || (p_rbad && f_k_q[0] != 3'd0);
      end
    end
  end

  always_ff @(posedge clk_i) begin
    ws       <= ws;
    p_lock_q <= lock_i;
    p_idle_q <= idle_o;
    if (start_fire) begin
      s_len_q[slot(p_tq)] <= start_hdr_i.length;
      s_val_q[slot(p_tq)] <= 1'b1;
      if (slot(p_tq) == ws) begin
        w_hdr_q  <= start_hdr_i;
        w_kd_q   <= start_kd_i;
        w_addr_q <= start_base_i + start_hdr_i.offset;
        w_gen_q  <= start_gen_i;
      end
    end
    if (rsp_fire) begin
      for (int j = 0; j + 1 < FS; j++) begin
        f_q_q[j]   <= f_q_q[j + 1];
        f_k_q[j]   <= f_k_q[j + 1];
        f_lc_q[j]  <= f_lc_q[j + 1];
        f_len_q[j] <= f_len_q[j + 1];
        f_err_q[j] <= f_err_q[j + 1];
      end
    end
    if (req_fire) begin
      f_q_q[oi - CtW'(rsp_fire)]   <= p_rq;
      f_k_q[oi - CtW'(rsp_fire)]   <= p_rk;
      f_lc_q[oi - CtW'(rsp_fire)]  <= r_lc;
      f_len_q[oi - CtW'(rsp_fire)] <= rdreq_len_o;
      f_err_q[oi - CtW'(rsp_fire)] <= 1'b0;
    end
    if (rd_fire && rd_err_i) f_err_q[od - CtW'(rsp_fire)] <= 1'b1;
  end

  // ---- Environment.
  always_comb assume (32'(ws) < MaxOps);
  always_comb if (rst_ni) begin
    if (start_valid_i) assume (start_hdr_i.length >= 16'd1 && start_hdr_i.length <= 16'd4096);
    // The lock contract.
    if (p_lock_q && !p_idle_q) assume (lock_i);
    // dma_rd: beats only for an issued read, in order, the count and last right; the response
    // in a later cycle than the read's last beat, not OK iff one of its beats carried rd_err.
    if (rd_valid_i) begin
      assume (p_dt != p_it);
      assume (rd_last_i == (p_bc + BW'(1) == d_beats));
    end
    if (rsp_valid_i) begin
      assume (p_st != p_dt);
      assume ((rsp_status_i != DmaStatusOk) == f_err_q[0]);
    end
  end

  // ---- The RD_RESP job expected for the job pointer's chunk (of the watched entry's READ).
  hdr_t want;
  always_comb begin
    want = '{
      msg_type:     MsgTypeRdResp,
      op_type:      OpTypeRead,
      status:       StatusOk,
      rsvd0:        '0,
      src_nic:      '0,
      dst_nic:      w_hdr_q.src_nic,
      counter:      '0,
      prev_counter: w_hdr_q.counter,
      pid:          w_hdr_q.pid,
      region:       w_hdr_q.region,
      slot:         w_hdr_q.slot,
      offset:       w_hdr_q.offset,
      length:       w_hdr_q.length,
      chunk_offset: 16'(p_jk) << CS,
      chunk_len:    clen(w_hdr_q.length, p_jk),
      ctx:          '0,
      hold_ns:      '0,
      rsvd1:        '0
    };
  end

  always_comb if (rst_ni) begin
    // Starts: not while yielding, fewer than MaxOps READs held.
    if (start_ready_o) assert (!yield_i && 32'(p_held) < MaxOps);
    // Jobs: the job pointer's chunk, once every accepted job's data went through.
    if (job_valid_o) begin
      assert (p_jq != p_tq && p_jk < j_n);
      assert (!pass);
      assert (job_hdr_o.length == j_len && job_hdr_o.chunk_offset == 16'(p_jk) << CS);
      assert (job_hdr_o.chunk_len == clen(j_len, p_jk));
      assert (job_meta_o == p_jk[CIB-1:0]);
      if (j_w) assert (job_hdr_o == want && job_key_o == w_kd_q);
    end
    // Reads: the read pointer's chunk, under the lock, fewer than MaxReads unanswered.
    if (rdreq_valid_o) begin
      assert (lock_i);
      assert (p_rq != p_tq && p_rk < r_n);
      assert (32'(oi) < MaxReads);
      assert (16'(rdreq_len_o) == clen(r_len, p_rk));
      if (r_w) begin
        assert (rdreq_addr_o == AddrWidth'(w_addr_q + (64'(p_rk) << CS)));
        assert (rdreq_region_o == RrtIdxWidth'(w_hdr_q.region));
        assert (rdreq_gen_o == w_gen_q);
      end
      assert (rdreq_perm_o == 5'b10000);
      assert (rdreq_tag_o == TagWidth'(p_it));
    end
    // Payload: every beat of a read whose job was accepted, as it came; erroneous from the
    // READ's first erroneous beat on.
    assert (pay_valid_o == (rd_valid_i && pass));
    if (pay_valid_o) begin
      assert (pay_data_o == rd_data_i && pay_last_o == rd_last_i);
      assert (pay_err_o == (rd_err_i || p_derr));
    end
    if (rd_ready_o) assert (pass && pay_ready_i);
    assert (rd_fire == pay_fire);
    // Responses: taken as they come, only for issued reads; `fail` with a response not OK, the
    // first such of its READ, with its status.
    if (rsp_ready_o) assert (p_st != p_it);
    if (rsp_valid_i) assert (rsp_ready_o);
    assert (fail_o == (rsp_fire && rsp_status_i != DmaStatusOk && (f_k_q[0] == 3'd0 || !p_rbad)));
    if (fail_o) assert (fail_status_o == rsp_status_i);
    // Idle.
    assert (idle_o == (p_held == '0 && p_st == p_it));
  end

  // ---- Induction invariants: the block's state against the shadows.
  logic [SW-1:0] hq;  // the block's head READ
  assign hq = qsub(p_tq, SW'(on_q));

  always_comb if (rst_ni) begin
    // Counts.
    assert (jt_q == p_jt && it_q == p_it && dt_q == p_dt && st_q == p_st);
    assert (32'(oi) <= MaxReads && od <= oi && (oj == od || oj == od + CtW'(1)));
    assert (32'(on_q) <= MaxOps && nr_q <= on_q);
    // Pointers: tail, read pointer, head.
    assert (32'(p_tq) < M && 32'(p_jq) < M && 32'(p_rq) < M);
    assert (ot_q == slot(p_tq));
    assert (rp_q == slot(p_rq) && rk_q == p_rk && 32'(qsub(p_tq, p_rq)) == 32'(nr_q));
    assert (oh_q == slot(hq));
    if (on_q == '0) begin
      assert (jk_q == 3'd0 && p_jq == p_tq);
    end else if (jk_q != h_n) begin
      // The head's jobs are being offered.
      assert (jk_q < h_n && p_jq == hq && p_jk == jk_q);
    end else begin
      // The head's jobs are all accepted; it waits for its reads (or leaves now).
      assert (p_jq == qinc(hq) && p_jk == 3'd0);
      // It leaves now only right after its last read was issued: not answered yet.
      if (nr_q != on_q) assert (p_dt != p_it);
    end
    if (p_jq == p_tq) assert (p_jk == 3'd0);
    else assert (p_jk < j_n);
    if (p_rq == p_tq) assert (p_rk == 3'd0);
    else assert (p_rk < r_n);
    // Job pointer against read pointer: the same chunk, or the job one ahead, or behind by the
    // reads in the FIFO from entry oj on.
    if (oj == oi) assert (p_jq == p_rq && p_jk == p_rk);
    if (oj == oi + CtW'(1)) assert (p_rq != p_tq && {p_jq, p_jk} == succ(p_rq, p_rk, r_lc));
    if (oj <= oi) assert (32'(qsub(p_rq, p_jq)) <= MaxOps);
    // Data.
    if (od == oi) assert (p_bc == '0 && p_dmid == (p_rk != 3'd0));
    if (p_bc != '0) assert (pass);
    if (!p_dmid && p_bc == '0) assert (!p_derr);
    if (pass || p_dmid) assert (derr_q == p_derr);
    // Responses.
    assert (rbad_q == p_rbad);
  end

  // The issued reads: a chain of chunks from read p_dt's to the read pointer, those from job
  // p_jt's on of held READs, job p_jt's the job pointer's.
  for (genvar j = 0; j < FS; j++) begin : g_fifo
    logic [2:0] fn;  // chunks of its READ
    assign fn = nchunks(s_len_q[slot(f_q_q[j])]);
    always_comb if (rst_ni && CtW'(j) < oi) begin
      assert (f_len_q[j] >= 13'd1 && f_len_q[j] <= 13'(ChunkBytes));
      assert (f_k_q[j] <= 3'(MaxChunks - 1) && (f_k_q[j] != 3'(MaxChunks - 1) || f_lc_q[j]) &&
              32'(f_q_q[j]) < M);
      if (CtW'(j) >= od && CtW'(j + 1) == oi) begin
        assert ({p_rq, p_rk} == succ(f_q_q[j], f_k_q[j], f_lc_q[j]));
      end
      if (CtW'(j) >= oj) begin
        assert (qsub(f_q_q[j], p_jq) <= qsub(p_rq, p_jq) && f_q_q[j] != p_tq);
        assert (f_k_q[j] < fn && f_lc_q[j] == (f_k_q[j] + 3'd1 == fn));
      end
      if (CtW'(j) == oj) assert (f_q_q[j] == p_jq && f_k_q[j] == p_jk);
      assert (rfirst_q[p_st + CtW'(j)] == (f_k_q[j] == 3'd0));
      if (CtW'(j) == od) begin
        assert (p_bc < nbeats(f_len_q[j]));
        assert (p_dmid == (f_k_q[j] != 3'd0));
      end
    end
    if (j + 1 < FS) begin : g_next
      always_comb if (rst_ni && CtW'(j) >= od && CtW'(j + 1) < oi) begin
        assert ({f_q_q[j + 1], f_k_q[j + 1]} == succ(f_q_q[j], f_k_q[j], f_lc_q[j]));
      end
    end
  end

  // The ring: every entry written has its READ's length (both are written at the same start,
  // neither at a reset), the watched one its READ's fields; every entry held was written, with a
  // length 1..4096.
  for (genvar i = 0; i < MaxOps; i++) begin : g_ring
    always_comb if (rst_ni && sdist(oh_q, OpW'(i)) < on_q) begin
      assert (s_val_q[i]);
      assert (s_len_q[i] >= 16'd1 && s_len_q[i] <= 16'd4096);
    end
    always_comb if (s_val_q[i]) begin
      assert (onerma_rsp_read.ops_q[i].length == s_len_q[i]);
      if (ws == OpW'(i)) begin
        assert (onerma_rsp_read.ops_q[i].src_nic == w_hdr_q.src_nic);
        assert (onerma_rsp_read.ops_q[i].counter == w_hdr_q.counter);
        assert (onerma_rsp_read.ops_q[i].pid == w_hdr_q.pid);
        assert (onerma_rsp_read.ops_q[i].region == w_hdr_q.region);
        assert (onerma_rsp_read.ops_q[i].slot == w_hdr_q.slot);
        assert (onerma_rsp_read.ops_q[i].offset == w_hdr_q.offset);
        assert (w_hdr_q.length == s_len_q[i]);
        assert (onerma_rsp_read.ops_q[i].kd == w_kd_q);
        assert (onerma_rsp_read.ops_q[i].addr == w_addr_q);
        assert (onerma_rsp_read.ops_q[i].gen == w_gen_q);
      end
    end
  end

  // ---- Reachability.
  always_comb if (rst_ni) begin
    // Two READs held, a read of the second issued before the first's jobs were all accepted.
    cover (req_fire && p_held == SW'(2) && p_rq != p_jq && p_it != p_jt);
    // A read ahead's data waits for its job.
    cover (rd_valid_i && !pass && p_jt != p_it);
    // A READ's chunk erred; a clean beat of its next chunk, its last possible one, passed marked
    // erroneous (with MaxChunks 2 the first chunk's error on the second chunk).
    cover (pay_fire && pay_err_o && !rd_err_i && f_k_q[od] == 3'(MaxChunks - 1) &&
           p_ek == 3'(MaxChunks - 2));
    // Idle after one READ of two chunks.
    cover (idle_o && p_tq == SW'(1) && p_it == CtW'(2));
    // The first READ's job accepted under a lock not yet held (its read not issued).
    cover (job_fire && !lock_i && p_jt == p_it && p_tq == SW'(1));
    // A READ's first failed response on a later chunk; a second failed response not reported.
    cover (fail_o && f_k_q[0] != 3'd0);
    cover (rsp_fire && rsp_status_i != DmaStatusOk && !fail_o);
  end

  logic unused;
  assign unused = ^{rsp_tag_i};

endmodule

bind onerma_rsp_read onerma_rsp_read_props #(
  .DataWidth  (DataWidth),
  .AddrWidth  (AddrWidth),
  .TagWidth   (TagWidth),
  .RrtIdxWidth(RrtIdxWidth),
  .MaxOps     (MaxOps),
  .MaxReads   (MaxReads),
  .OpW        (OpW),
  .OnW        (OnW),
  .CtW        (CtW)
) u_props (.*);
`endif

`default_nettype wire
