`default_nettype none

// Properties of onerma_rsp_read. Every start is followed: a shadow of its fields (request
// header, K_d, base, gen) is taken at the start handshake; jobs accepted, reads issued, reads
// whose data is through and responses are counted, with each read's error flag.
//
// Environment (assumed): a start's length is 1..4096 (the request checks passed); the dma_rd
// client contract: reads answered in order, data beats only for an issued read, exactly
// ceil(len / Bytes) of them with `last` on the final, one response after (a later cycle than)
// the last beat, not OK iff one of the read's beats carried `rd_err`; stream rules on start,
// data and response.
//
// Asserted: one start at a time (start_ready only when idle, `done` exactly once per start);
// exactly one job per chunk, in order: the job of chunk k carries the RD_RESP header built from
// the shadow (READ, status OK, dst_nic = request src_nic, prev_counter = request counter, PID,
// region, slot, offset, length echoed, ctx, hold_ns, src_nic, counter and reserved 0),
// chunk_offset k * 1024, the chunk's chunk_len, K_d and meta k, and is offered only once every
// earlier chunk's data went through with no erroneous beat (so never after a failed answer);
// reads in chunk order with the address base + offset + k * 1024, chunk_len, the request's
// region, gen, perm_remote_read only and tag k, read k only after job k was accepted
// (ReadAhead = 0) or after job k - 1 and job 0 (ReadAhead = 1), no new read once an erroneous
// beat or answer was seen; payload beats are the read's beats (data, last, err) of a chunk
// whose job was accepted, every one of them; beats of a read whose job was not accepted are
// dropped only after a stop; `fail` only with `done` and only after an answer not OK, with the
// first such status; `done` only when every issued read was answered and none is offered, and
// without `fail` only after exactly ceil(length / 1024) jobs and answers; the stream rules of
// job, payload and read request.
`ifdef FORMAL
module onerma_rsp_read_props #(
  parameter int unsigned DataWidth   = 512,
  parameter int unsigned AddrWidth   = 64,
  parameter int unsigned TagWidth    = 8,
  parameter int unsigned RrtIdxWidth = 16,
  parameter int unsigned ReadAhead   = 0
) (
  input logic                    clk_i,
  input logic                    rst_ni,
  input logic                    start_valid_i,
  input logic                    start_ready_o,
  input onerma_pkg::hdr_t        start_hdr_i,
  input logic [127:0]            start_kd_i,
  input logic [63:0]             start_base_i,
  input logic [15:0]             start_gen_i,
  input logic                    done_o,
  input logic                    fail_o,
  input onerma_pkg::dma_status_e fail_status_o,
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
  input logic                    job_valid_o,
  input logic                    job_ready_i,
  input onerma_pkg::hdr_t        job_hdr_o,
  input logic [127:0]            job_key_o,
  input logic [1:0]              job_meta_o,
  input logic                    pay_valid_o,
  input logic                    pay_ready_i,
  input logic [DataWidth-1:0]    pay_data_o,
  input logic                    pay_last_o,
  input logic                    pay_err_o,
  // Internals for the induction invariants.
  input logic                    busy_q,
  input logic [2:0]              jn_q,
  input logic [2:0]              rn_q,
  input logic [2:0]              dn_q,
  input logic [2:0]              rs_q,
  input logic                    stop_q,
  input logic                    bad_q,
  input onerma_pkg::dma_status_e fst_q,
  input logic                    roff_q
);
  import onerma_pkg::*;

  localparam int unsigned Bytes = DataWidth / 8;
  localparam int unsigned BW    = 12;  // beats of a chunk (<= 1024)

  logic past_valid_q = 1'b0;
  always_ff @(posedge clk_i) past_valid_q <= 1'b1;
  always_comb if (!past_valid_q) assume (!rst_ni);

  function automatic logic [15:0] clen(input logic [15:0] len, input logic [2:0] k);
    logic [16:0] off, rest;
    off  = 17'(k) << 10;
    rest = 17'(len) - off;
    return (17'(len) <= off) ? 16'd0 : ((rest > 17'd1024) ? 16'd1024 : 16'(rest));
  endfunction

  function automatic logic [2:0] nchunks(input logic [15:0] len);
    return 3'((32'(len) + 32'd1023) / 32'd1024);
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
  onerma_stream_check #(.Width($bits(hdr_t) + 128 + 2)) u_job (
    .clk_i, .rst_ni, .valid_i(job_valid_o), .ready_i(job_ready_i),
    .data_i({job_hdr_o, job_key_o, job_meta_o}));
  onerma_stream_check #(.Width(DataWidth + 2)) u_pay (
    .clk_i, .rst_ni, .valid_i(pay_valid_o), .ready_i(pay_ready_i),
    .data_i({pay_data_o, pay_last_o, pay_err_o}));
  onerma_stream_check #(.Width(AddrWidth + 13 + RrtIdxWidth + 16 + 5 + TagWidth)) u_req (
    .clk_i, .rst_ni, .valid_i(rdreq_valid_o), .ready_i(rdreq_ready_i),
    .data_i({rdreq_addr_o, rdreq_len_o, rdreq_region_o, rdreq_gen_o, rdreq_perm_o,
             rdreq_tag_o}));

  // ---- The start in progress: its shadow and chunk bookkeeping.
  hdr_t          w_hdr_q;
  logic [127:0]  w_kd_q;
  logic [63:0]   w_base_q;
  logic [15:0]   w_gen_q;
  logic          p_busy_q;   // a start taken, no done yet
  logic [2:0]    kj_q;       // jobs accepted
  logic [2:0]    pr_q;       // reads issued
  logic [2:0]    pd_q;       // reads whose last beat was taken
  logic [2:0]    ps_q;       // responses taken
  logic [BW-1:0] bc_q;       // beats taken of read pd
  logic [3:0]    eflag_q;    // per read: one of its beats carried rd_err
  logic          p_stop_q;   // an erroneous beat or answer was seen
  logic          p_bad_q;    // an answer not OK was seen, the first status in p_fst_q
  dma_status_e   p_fst_q;
  logic          p_roff_q;   // a read request offered last cycle and not taken

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      p_busy_q <= 1'b0;
      kj_q     <= '0;
      pr_q     <= '0;
      pd_q     <= '0;
      ps_q     <= '0;
      bc_q     <= '0;
      eflag_q  <= '0;
      p_stop_q <= 1'b0;
      p_bad_q  <= 1'b0;
      p_fst_q  <= DmaStatusOk;
      p_roff_q <= 1'b0;
    end else begin
      p_roff_q <= rdreq_valid_o && !rdreq_ready_i;
      if (start_fire) begin
        p_busy_q <= 1'b1;
        kj_q     <= '0;
        pr_q     <= '0;
        pd_q     <= '0;
        ps_q     <= '0;
        bc_q     <= '0;
        eflag_q  <= '0;
        p_stop_q <= 1'b0;
        p_bad_q  <= 1'b0;
      end else begin
        if (done_o) p_busy_q <= 1'b0;
        if (job_fire) kj_q <= kj_q + 3'd1;
        if (req_fire) pr_q <= pr_q + 3'd1;
        if (rd_fire) begin
          if (rd_last_i) begin
            pd_q <= pd_q + 3'd1;
            bc_q <= '0;
          end else begin
            bc_q <= bc_q + BW'(1);
          end
          if (rd_err_i) begin
            eflag_q[pd_q[1:0]] <= 1'b1;
            p_stop_q           <= 1'b1;
          end
        end
        if (rsp_fire) begin
          ps_q <= ps_q + 3'd1;
          if (rsp_status_i != DmaStatusOk) begin
            p_stop_q <= 1'b1;
            if (!p_bad_q) begin
              p_bad_q <= 1'b1;
              p_fst_q <= rsp_status_i;
            end
          end
        end
      end
    end
  end
  always_ff @(posedge clk_i) begin
    if (start_fire) begin
      w_hdr_q  <= start_hdr_i;
      w_kd_q   <= start_kd_i;
      w_base_q <= start_base_i;
      w_gen_q  <= start_gen_i;
    end
  end

  logic [2:0]  n;        // chunks of the start
  logic [15:0] d_len;    // length of read pd (the one whose beats come)
  logic [BW-1:0] d_beats;
  assign n       = nchunks(w_hdr_q.length);
  assign d_len   = clen(w_hdr_q.length, pd_q);
  assign d_beats = BW'((32'(d_len) + Bytes - 1) / Bytes);

  // ---- Environment.
  always_comb if (rst_ni) begin
    if (start_valid_i) assume (start_hdr_i.length >= 16'd1 && start_hdr_i.length <= 16'd4096);
    // dma_rd: beats only for an issued read, the count and last right; the response in a later
    // cycle than the read's last beat, not OK iff one of its beats carried rd_err.
    if (rd_valid_i) begin
      assume (p_busy_q && pd_q < pr_q);
      assume (rd_last_i == (bc_q + BW'(1) == d_beats));
    end
    if (rsp_valid_i) begin
      assume (p_busy_q && ps_q < pd_q);
      assume ((rsp_status_i != DmaStatusOk) == eflag_q[ps_q[1:0]]);
    end
  end

  // ---- The RD_RESP job expected for chunk kj.
  hdr_t         want;
  logic [15:0]  want_off, want_len;
  assign want_off = 16'(32'(kj_q) * 1024);
  assign want_len = clen(w_hdr_q.length, kj_q);
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
      chunk_offset: want_off,
      chunk_len:    want_len,
      ctx:          '0,
      hold_ns:      '0,
      rsvd1:        '0
    };
  end

  // The read of chunk pr (the next one).
  logic [15:0] rd_off, rd_len;
  assign rd_off = 16'(32'(pr_q) * 1024);
  assign rd_len = clen(w_hdr_q.length, pr_q);

  always_comb if (rst_ni) begin
    // One start at a time; done only for a start in progress.
    assert (start_ready_o == !p_busy_q);
    if (done_o) assert (p_busy_q);
    // Jobs: in order, one per chunk, only once the earlier chunks' data went through clean.
    if (job_valid_o) begin
      assert (p_busy_q && !p_stop_q && kj_q == pd_q && kj_q < n);
      assert (job_hdr_o == want);
      assert (job_key_o == w_kd_q);
      assert (job_meta_o == kj_q[1:0]);
    end
    // Reads: in chunk order, after their job (or, reading ahead, the previous chunk's job).
    if (rdreq_valid_o) begin
      assert (p_busy_q && pr_q < n);
      if (ReadAhead != 0) assert (kj_q >= pr_q && kj_q != 3'd0);
      else assert (kj_q > pr_q);
      if (!p_roff_q) assert (!p_stop_q);
      assert (rdreq_addr_o == w_base_q + w_hdr_q.offset + 64'(rd_off));
      assert (16'(rdreq_len_o) == rd_len);
      assert (rdreq_region_o == RrtIdxWidth'(w_hdr_q.region));
      assert (rdreq_gen_o == w_gen_q);
      assert (rdreq_perm_o == 5'b10000);
      assert (rdreq_tag_o == TagWidth'(pr_q));
    end
    // Data: every beat of a chunk whose job was accepted to the sealer, as it came; the beats of
    // a read ahead whose job was not accepted dropped only after a stop.
    assert (pay_valid_o == (rd_valid_i && p_busy_q && kj_q > pd_q));
    if (pay_valid_o) begin
      assert (pay_data_o == rd_data_i && pay_last_o == rd_last_i && pay_err_o == rd_err_i);
    end
    if (p_busy_q && kj_q > pd_q) assert (rd_ready_o == pay_ready_i);
    if (rd_valid_i && rd_ready_o && !(kj_q > pd_q)) assert (p_stop_q);
    if (rsp_ready_o) assert (ps_q < pr_q);
    // Outcome: fail only with done, after an answer not OK, with the first such status.
    if (fail_o) begin
      assert (done_o);
      assert (p_bad_q || (rsp_fire && rsp_status_i != DmaStatusOk));
      assert (fail_status_o == (p_bad_q ? p_fst_q : rsp_status_i));
    end
    if (done_o) begin
      assert (ps_q + 3'(rsp_fire) == pr_q && !rdreq_valid_o);
      if (!p_stop_q && !(rd_fire && rd_err_i) && !(rsp_fire && rsp_status_i != DmaStatusOk)) begin
        assert (kj_q == n && ps_q + 3'(rsp_fire) == n);
      end
      if (p_bad_q || (rsp_fire && rsp_status_i != DmaStatusOk)) assert (fail_o);
    end
  end

  // ---- Induction invariants: the block's state against the shadows.
  always_comb if (rst_ni) begin
    assert (busy_q == p_busy_q);
    assert (roff_q == p_roff_q);
    if (p_roff_q) assert (rdreq_valid_o);
    if (p_busy_q) begin
      assert (jn_q == kj_q && rn_q == pr_q && dn_q == pd_q && rs_q == ps_q);
      assert (stop_q == p_stop_q && bad_q == p_bad_q);
      if (p_bad_q) assert (fst_q == p_fst_q && p_fst_q != DmaStatusOk);
      assert (ps_q <= pd_q && pd_q <= pr_q && pr_q <= n);
      assert (kj_q <= n && kj_q <= pd_q + 3'd1);
      if (ReadAhead != 0) assert (pr_q <= kj_q + 3'd1);
      else assert (pr_q <= kj_q);
      if (pr_q != 3'd0) assert (kj_q != 3'd0);
      // Data of a read whose job was not accepted is taken only after a stop.
      if (pd_q > kj_q) assert (p_stop_q);
      if (pd_q < pr_q) assert (bc_q < d_beats);
      else assert (bc_q == '0);
      // Once stopped no job was accepted after the data that stopped it.
      if (p_stop_q) assert (kj_q <= pd_q + 3'd1);
      // Error flags only for reads whose beats came; stop iff one is set or an answer was bad.
      for (int i = 0; i < 4; i++) begin
        if (3'(i) > pd_q) assert (!eflag_q[i]);
        if (3'(i) == pd_q && bc_q == '0) assert (!eflag_q[i]);
        if (3'(i) < ps_q) assert (eflag_q[i] == 1'b0 || p_bad_q);
      end
      assert (p_stop_q == (eflag_q != '0));
      if (p_bad_q) assert (p_stop_q);
      if (!p_bad_q) assert ((eflag_q & ((4'd1 << ps_q) - 4'd1)) == '0);
      if (p_bad_q) assert ((eflag_q & ((4'd1 << ps_q) - 4'd1)) != '0);
      // Job k was accepted only after chunk k - 1's data went through clean.
      for (int i = 0; i < 4; i++) if (3'(i) + 3'd1 < kj_q) assert (!eflag_q[i]);
      assert (w_hdr_q.length >= 16'd1 && w_hdr_q.length <= 16'd4096);
      assert (onerma_rsp_read.r_q.src_nic == w_hdr_q.src_nic);
      assert (onerma_rsp_read.r_q.counter == w_hdr_q.counter);
      assert (onerma_rsp_read.r_q.pid == w_hdr_q.pid);
      assert (onerma_rsp_read.r_q.region == w_hdr_q.region);
      assert (onerma_rsp_read.r_q.slot == w_hdr_q.slot);
      assert (onerma_rsp_read.r_q.offset == w_hdr_q.offset);
      assert (onerma_rsp_read.r_q.length == w_hdr_q.length);
      assert (onerma_rsp_read.r_q.kd == w_kd_q);
      assert (onerma_rsp_read.r_q.addr == w_base_q + w_hdr_q.offset);
      assert (onerma_rsp_read.r_q.gen == w_gen_q);
    end else begin
      assert (!rdreq_valid_o && !p_roff_q);
    end
  end

  // ---- Reachability.
  always_comb if (rst_ni) begin
    cover (done_o && !fail_o && kj_q == 3'd2);
    cover (fail_o && kj_q == 3'd2);
    cover (pay_fire && pay_last_o && pay_err_o);
    cover (done_o && fail_o && pr_q == kj_q + 3'd1);  // a read ahead drained
  end

  logic unused;
  assign unused = ^{rsp_tag_i};

endmodule

bind onerma_rsp_read onerma_rsp_read_props #(
  .DataWidth  (DataWidth),
  .AddrWidth  (AddrWidth),
  .TagWidth   (TagWidth),
  .RrtIdxWidth(RrtIdxWidth),
  .ReadAhead  (ReadAhead)
) u_props (.*);
`endif

`default_nettype wire
