`default_nettype none

// Properties of onerma_rsp_read. Every start is followed: a shadow of its fields (request
// header, K_d, base, gen) is taken at the start handshake, and its chunks are counted.
//
// Environment (assumed): a start's length is 1..4096 (the request checks passed); the dma_rd
// client contract: data beats only for an issued request, exactly ceil(len / Bytes) of them with
// `last` on the final, one response after the last beat; stream rules on start, data and
// response.
//
// Asserted: one start at a time (start_ready only when idle, `done` exactly once per start);
// every job carries the RD_RESP header built from the shadow (READ, status OK, dst_nic =
// request src_nic, prev_counter = request counter, PID, region, slot, offset, length echoed, ctx,
// hold_ns, src_nic, counter and reserved 0) with chunk_offset k * 1024 and chunk_len of chunk
// k, k = 0, 1, .. in order (exactly one job per chunk), K_d and meta k; its read request the
// address base + offset + k * 1024, chunk_len, the request's region, gen and perm_remote_read
// only; the read of a chunk is requested only after its job was accepted and before the next
// job, one read at a time; payload beats are the read's beats (data, last, err) and pass only
// after the job; a response not OK gives `fail` with its status and `done`, and no job of that
// start follows; `fail` only at a response not OK; `done` at an OK response only after exactly
// ceil(length / 1024) jobs, and `done` only at a response; the stream rules of job, payload and
// read request.
`ifdef FORMAL
module onerma_rsp_read_props #(
  parameter int unsigned DataWidth   = 512,
  parameter int unsigned AddrWidth   = 64,
  parameter int unsigned TagWidth    = 8,
  parameter int unsigned RrtIdxWidth = 16
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
  input logic [1:0]              k_q
);
  import onerma_pkg::*;

  localparam int unsigned Bytes = DataWidth / 8;
  localparam int unsigned BW    = 12;  // beats of a chunk (<= 1024)

  logic [1:0] state_q;
  assign state_q = 2'(onerma_rsp_read.state_q);

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
  logic          busy_q;     // a start taken, no done yet
  logic [2:0]    kj_q;       // jobs accepted for the start in progress
  logic          jpend_q;    // a job accepted whose read is not yet requested
  logic          rout_q;     // a read requested whose response has not come
  logic [BW-1:0] rleft_q;    // its data beats still to come
  logic [15:0]   rlen_q;     // its length

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      busy_q   <= 1'b0;
      kj_q     <= '0;
      jpend_q  <= 1'b0;
      rout_q   <= 1'b0;
      rleft_q  <= '0;
      rlen_q   <= '0;
    end else begin
      if (start_fire) begin
        busy_q <= 1'b1;
        kj_q   <= '0;
      end else if (done_o) begin
        busy_q <= 1'b0;
      end
      if (job_fire) begin
        kj_q    <= kj_q + 3'd1;
        jpend_q <= 1'b1;
      end
      if (req_fire) begin
        jpend_q <= 1'b0;
        rout_q  <= 1'b1;
        rleft_q <= BW'((32'(rdreq_len_o) + Bytes - 1) / Bytes);
        rlen_q  <= 16'(rdreq_len_o);
      end else if (rd_fire) begin
        rleft_q <= rleft_q - BW'(1);
      end
      if (rsp_fire) rout_q <= 1'b0;
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

  // ---- Environment.
  always_comb if (rst_ni) begin
    if (start_valid_i) assume (start_hdr_i.length >= 16'd1 && start_hdr_i.length <= 16'd4096);
    // dma_rd: beats only for a requested read, the count and last right; the response after the
    // last beat.
    if (rd_valid_i) begin
      assume (rout_q && rleft_q != '0);
      assume (rd_last_i == (rleft_q == BW'(1)));
    end
    if (rsp_valid_i) assume (rout_q && rleft_q == '0);
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

  // The read of the chunk whose job was accepted last (kj - 1).
  logic [15:0] rd_off, rd_len;
  assign rd_off = 16'(32'(kj_q - 3'd1) * 1024);
  assign rd_len = clen(w_hdr_q.length, kj_q - 3'd1);

  always_comb if (rst_ni) begin
    // One start at a time; done only for a start in progress, and only at a response.
    assert (start_ready_o == !busy_q);
    if (done_o) assert (busy_q && rsp_fire);
    // Ordering: job, then its read, then its data and response, then the next job.
    if (job_valid_o) assert (busy_q && !jpend_q && !rout_q);
    if (rdreq_valid_o) assert (busy_q && jpend_q && !rout_q);
    if (pay_valid_o) assert (rout_q && rd_valid_i);
    if (rd_ready_o) assert (rout_q);
    if (rsp_ready_o) assert (rout_q);
    assert (pay_valid_o == (rd_valid_i && rout_q));
    if (pay_valid_o) begin
      assert (pay_data_o == rd_data_i && pay_last_o == rd_last_i && pay_err_o == rd_err_i);
    end
    assert (rd_ready_o == (pay_ready_i && rout_q));
    assert (rsp_ready_o == rout_q);
    // Outcome pulses: fail exactly at a response not OK, with its status, and then done.
    assert (fail_o == (rsp_fire && rsp_status_i != DmaStatusOk));
    if (fail_o) assert (done_o && fail_status_o == rsp_status_i);
    // The jobs and reads carry the start's fields and the chunk.
    if (job_valid_o) begin
      assert (kj_q < nchunks(w_hdr_q.length));
      assert (job_hdr_o == want);
      assert (job_key_o == w_kd_q);
      assert (job_meta_o == kj_q[1:0]);
    end
    if (rdreq_valid_o) begin
      assert (rdreq_addr_o == w_base_q + w_hdr_q.offset + 64'(rd_off));
      assert (16'(rdreq_len_o) == rd_len);
      assert (rdreq_region_o == RrtIdxWidth'(w_hdr_q.region));
      assert (rdreq_gen_o == w_gen_q);
      assert (rdreq_perm_o == 5'b10000);
      assert (rdreq_tag_o == TagWidth'(kj_q - 3'd1));
    end
    // done without a failure only after every chunk.
    if (done_o && !fail_o) assert (kj_q == nchunks(w_hdr_q.length));
    if (done_o && fail_o) assert (kj_q <= nchunks(w_hdr_q.length));
  end

  // ---- Induction invariants: the block's state against the shadows.
  always_comb if (rst_ni) begin
    assert ((state_q == 2'd0) == !busy_q);
    assert ((state_q == 2'd1) == (busy_q && !jpend_q && !rout_q));
    assert ((state_q == 2'd2) == jpend_q);
    assert ((state_q == 2'd3) == rout_q);
    assert (!(jpend_q && rout_q));
    if (busy_q) assert (k_q <= onerma_rsp_read.n_last);
    if (busy_q && (state_q == 2'd1)) assert (3'(k_q) == kj_q && kj_q <= 3'd3);
    if (busy_q && (state_q != 2'd1)) assert (3'(k_q) + 3'd1 == kj_q);
    if (rout_q) assert (32'(rleft_q) <= (32'(rlen_q) + Bytes - 1) / Bytes);
    if (busy_q) begin
      assert (w_hdr_q.length >= 16'd1 && w_hdr_q.length <= 16'd4096);
      assert (kj_q <= nchunks(w_hdr_q.length));
      if (state_q != 2'd1) assert (kj_q >= 3'd1);
      if (state_q == 2'd1) assert (kj_q < nchunks(w_hdr_q.length));
      if (rout_q) assert (rlen_q == rd_len);
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
    end
  end

  // ---- Reachability.
  always_comb if (rst_ni) begin
    cover (done_o && !fail_o && kj_q == 3'd2);
    cover (fail_o && kj_q == 3'd2);
    cover (pay_fire && pay_last_o && pay_err_o);
  end

  logic unused;
  assign unused = ^{rsp_tag_i};

endmodule

bind onerma_rsp_read onerma_rsp_read_props #(
  .DataWidth  (DataWidth),
  .AddrWidth  (AddrWidth),
  .TagWidth   (TagWidth),
  .RrtIdxWidth(RrtIdxWidth)
) u_props (.*);
`endif

`default_nettype wire
