`default_nettype none

// Properties of onerma_ini_wrdata. One slot `s` (a symbolic constant) is followed: a shadow of
// its memo fields is written by the accept tap; a start of `s` is followed chunk by chunk.
//
// Environment (assumed): the accept tap never names a slot whose start is queued or running
// (the op table starts only live ops, whose memo is fixed), and a start of `s` comes only after
// an accept of `s` with a WRITE (length 1..4096) or REKEY (16); the dma_rd client contract: data
// beats only for an issued request, exactly ceil(len / Bytes) of them with `last` on the final,
// one response after the last beat; stream rules on start, data and response.
//
// Asserted: one start at a time (start_ready only when idle, `done` once per start); every job
// of a start of `s` carries the WR_DATA header built from the shadow (op type, remote NIC,
// region, offset, length, PID, slot) with the start's counter and ctx, chunk_offset
// k * ChunkBytes and chunk_len of chunk k, k = 0, 1, .. in order, K_d and meta {k, s}; its read
// request the local address + k * ChunkBytes, chunk_len, local region, gen and perm_local_read
// only; the read of a chunk is requested only after its job was accepted and before the next
// job, one read at a time; payload beats are the read's beats (data, last, err) and pass only
// after the job; `sent` is the job handshake with {slot, chunk}; a response not OK gives `fail`
// with its status and `done`, and no job of that start follows; `done` at an OK response only
// after exactly ceil(length / ChunkBytes) jobs of the start, otherwise (no response) only before
// a job while the slot is not live (`live_i` is free); a job is first offered only while its
// slot is live; the stream rules of job, payload and read request.
`ifdef FORMAL
module onerma_ini_wrdata_props #(
  parameter int unsigned NumSlots    = 4,
  parameter int unsigned DataWidth   = 512,
  parameter int unsigned AddrWidth   = 64,
  parameter int unsigned TagWidth    = 8,
  parameter int unsigned RrtIdxWidth = 16,
  parameter int unsigned SlotWidth   = (NumSlots > 1) ? $clog2(NumSlots) : 1,
  parameter int unsigned MetaWidth   = SlotWidth + onerma_pkg::ChunkIndexBits
) (
  input logic                    clk_i,
  input logic                    rst_ni,
  input logic                    acc_fire_i,
  input logic [SlotWidth-1:0]    acc_slot_i,
  input onerma_pkg::cmd_t        acc_cmd_i,
  input logic [31:0]             acc_pid_i,
  input logic [63:0]             acc_local_addr_i,
  input logic [15:0]             acc_local_gen_i,
  input logic                    start_valid_i,
  input logic                    start_ready_o,
  input logic [SlotWidth-1:0]    start_slot_i,
  input logic [63:0]             start_counter_i,
  input logic [15:0]             start_ctx_i,
  input logic [NumSlots-1:0]     live_i,
  input logic                    sent_o,
  input logic [SlotWidth-1:0]    sent_slot_o,
  input logic [onerma_pkg::ChunkIndexBits-1:0] sent_chunk_o,
  input logic                    fail_o,
  input logic [SlotWidth-1:0]    fail_slot_o,
  input onerma_pkg::dma_status_e fail_status_o,
  input logic                    done_o,
  input logic [SlotWidth-1:0]    done_slot_o,
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
  input logic [MetaWidth-1:0]    job_meta_o,
  input logic                    pay_valid_o,
  input logic                    pay_ready_i,
  input logic [DataWidth-1:0]    pay_data_o,
  input logic                    pay_last_o,
  input logic                    pay_err_o,
  // Internals for the induction invariants.
  input logic [SlotWidth-1:0]    slot_q,
  input logic [63:0]             counter_q,
  input logic [15:0]             ctx_q,
  input logic [onerma_pkg::ChunkIndexBits-1:0] k_q
);
  import onerma_pkg::*;

  localparam int unsigned Bytes = DataWidth / 8;
  localparam int unsigned CIB   = ChunkIndexBits;
  localparam int unsigned CS    = $clog2(ChunkBytes);
  localparam int unsigned BW    = CS + 1;  // beats of a chunk (<= ChunkBytes)

  logic [1:0] state_q;
  assign state_q = 2'(onerma_ini_wrdata.state_q);

  logic [SlotWidth-1:0] s;
  always_ff @(posedge clk_i) s <= s;
  always_comb assume (32'(s) < NumSlots);

  logic past_valid_q = 1'b0;
  always_ff @(posedge clk_i) past_valid_q <= 1'b1;
  always_comb if (!past_valid_q) assume (!rst_ni);

  function automatic logic [15:0] clen(input logic [15:0] len, input logic [2:0] k);
    logic [16:0] off, rest;
    off  = 17'(k) << CS;
    rest = 17'(len) - off;
    return (17'(len) <= off) ? 16'd0 : ((rest > 17'(ChunkBytes)) ? 16'(ChunkBytes) : 16'(rest));
  endfunction

  function automatic logic [2:0] nchunks(input logic [15:0] len);
    return 3'((32'(len) + ChunkBytes - 1) / ChunkBytes);
  endfunction

  logic start_fire, job_fire, req_fire, rd_fire, rsp_fire, pay_fire;
  assign start_fire = start_valid_i && start_ready_o;
  assign job_fire   = job_valid_o && job_ready_i;
  assign req_fire   = rdreq_valid_o && rdreq_ready_i;
  assign rd_fire    = rd_valid_i && rd_ready_o;
  assign rsp_fire   = rsp_valid_i && rsp_ready_o;
  assign pay_fire   = pay_valid_o && pay_ready_i;

  // ---- Stream rules: inputs assumed, outputs asserted.
  onerma_stream_check #(.Width(SlotWidth + 64 + 16), .Assume(1'b1)) u_start (
    .clk_i, .rst_ni, .valid_i(start_valid_i), .ready_i(start_ready_o),
    .data_i({start_slot_i, start_counter_i, start_ctx_i}));
  onerma_stream_check #(.Width(DataWidth + 2), .Assume(1'b1)) u_rd (
    .clk_i, .rst_ni, .valid_i(rd_valid_i), .ready_i(rd_ready_o),
    .data_i({rd_data_i, rd_last_i, rd_err_i}));
  onerma_stream_check #(.Width(TagWidth + 2), .Assume(1'b1)) u_rsp (
    .clk_i, .rst_ni, .valid_i(rsp_valid_i), .ready_i(rsp_ready_o),
    .data_i({rsp_tag_i, rsp_status_i}));
  onerma_stream_check #(.Width($bits(hdr_t) + 128 + MetaWidth)) u_job (
    .clk_i, .rst_ni, .valid_i(job_valid_o), .ready_i(job_ready_i),
    .data_i({job_hdr_o, job_key_o, job_meta_o}));
  onerma_stream_check #(.Width(DataWidth + 2)) u_pay (
    .clk_i, .rst_ni, .valid_i(pay_valid_o), .ready_i(pay_ready_i),
    .data_i({pay_data_o, pay_last_o, pay_err_o}));
  onerma_stream_check #(.Width(AddrWidth + 13 + RrtIdxWidth + 16 + 5 + TagWidth)) u_req (
    .clk_i, .rst_ni, .valid_i(rdreq_valid_o), .ready_i(rdreq_ready_i),
    .data_i({rdreq_addr_o, rdreq_len_o, rdreq_region_o, rdreq_gen_o, rdreq_perm_o,
             rdreq_tag_o}));

  // ---- Shadow of slot s's memo.
  cmd_t        sh_cmd_q;
  logic [31:0] sh_pid_q;
  logic [63:0] sh_addr_q;
  logic [15:0] sh_gen_q;
  logic        sh_valid_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) sh_valid_q <= 1'b0;
    else if (acc_fire_i && acc_slot_i == s) sh_valid_q <= 1'b1;
  end
  always_ff @(posedge clk_i) begin
    if (acc_fire_i && acc_slot_i == s) begin
      sh_cmd_q  <= acc_cmd_i;
      sh_pid_q  <= acc_pid_i;
      sh_addr_q <= acc_local_addr_i;
      sh_gen_q  <= acc_local_gen_i;
    end
  end

  // ---- The start in progress (any slot) and, for s, its chunk count.
  logic                 busy_q;     // a start taken, no done yet
  logic [SlotWidth-1:0] bslot_q;
  logic                 cur_s_q;    // the start in progress is s's
  logic                 queued_s_q; // a start of s offered and not yet taken
  logic [63:0]          w_counter_q;
  logic [15:0]          w_ctx_q;
  logic [2:0]           kj_q;       // jobs accepted for the start in progress
  logic                 jpend_q;    // a job accepted whose read is not yet requested
  logic                 rout_q;     // a read requested whose response has not come
  logic [BW-1:0]        rleft_q;    // its data beats still to come
  logic [15:0]          rlen_q;     // its length
  logic                 joff_q;     // a job offered last cycle and not taken

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      busy_q   <= 1'b0;
      bslot_q  <= '0;
      cur_s_q  <= 1'b0;
      kj_q     <= '0;
      jpend_q  <= 1'b0;
      rout_q   <= 1'b0;
      rleft_q  <= '0;
      rlen_q   <= '0;
      joff_q   <= 1'b0;
    end else begin
      if (start_fire) begin
        busy_q   <= 1'b1;
        bslot_q  <= start_slot_i;
        cur_s_q  <= (start_slot_i == s);
        kj_q     <= '0;
      end else if (done_o) begin
        busy_q  <= 1'b0;
        cur_s_q <= 1'b0;
      end
      joff_q <= job_valid_o && !job_ready_i;
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
      w_counter_q <= start_counter_i;
      w_ctx_q     <= start_ctx_i;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) queued_s_q <= 1'b0;
    else if (start_fire) queued_s_q <= 1'b0;
    else if (start_valid_i && start_slot_i == s) queued_s_q <= 1'b1;
  end

  // ---- Environment.
  always_comb if (rst_ni) begin
    assume (32'(acc_slot_i) < NumSlots);
    assume (32'(start_slot_i) < NumSlots);
    // The memo of s is fixed while its start is queued or running.
    if (acc_fire_i && acc_slot_i == s) assume (!(cur_s_q || queued_s_q || (start_valid_i &&
                                                 start_slot_i == s)));
    if (start_valid_i && start_slot_i == s) begin
      assume (sh_valid_q);
      assume (sh_cmd_q.op_type == 8'(OpTypeWrite) || sh_cmd_q.op_type == 8'(OpTypeRekey));
      assume (sh_cmd_q.length >= 16'd1 && sh_cmd_q.length <= 16'd4096);
    end
    // dma_rd: beats only for a requested read, the count and last right; the response after the
    // last beat.
    if (rd_valid_i) begin
      assume (rout_q && rleft_q != '0);
      assume (rd_last_i == (rleft_q == BW'(1)));
    end
    if (rsp_valid_i) assume (rout_q && rleft_q == '0);
  end

  // ---- The WR_DATA job expected for chunk k of s's start.
  hdr_t         want;
  logic [15:0]  want_off, want_len;
  assign want_off = 16'(32'(kj_q) * ChunkBytes);
  assign want_len = clen(sh_cmd_q.length, kj_q);
  always_comb begin
    want = '{
      msg_type:     MsgTypeWrData,
      op_type:      op_type_e'(sh_cmd_q.op_type),
      status:       StatusOk,
      rsvd0:        '0,
      src_nic:      '0,
      dst_nic:      sh_cmd_q.remote_nic,
      counter:      '0,
      prev_counter: w_counter_q,
      pid:          sh_pid_q,
      region:       sh_cmd_q.remote_region,
      slot:         16'(s),
      offset:       sh_cmd_q.remote_offset,
      length:       sh_cmd_q.length,
      chunk_offset: want_off,
      chunk_len:    want_len,
      ctx:          w_ctx_q,
      hold_ns:      '0,
      rsvd1:        '0
    };
  end

  // The read of the chunk whose job was accepted last (kj - 1).
  logic [15:0] rd_off, rd_len;
  assign rd_off = 16'(32'(kj_q - 3'd1) * ChunkBytes);
  assign rd_len = clen(sh_cmd_q.length, kj_q - 3'd1);

  always_comb if (rst_ni) begin
    // One start at a time.
    assert (start_ready_o == !busy_q);
    if (done_o) assert (busy_q && done_slot_o == bslot_q);
    // Ordering: job, then its read, then its data and response, then the next job.
    if (job_valid_o) assert (busy_q && !jpend_q && !rout_q);
    if (job_valid_o && !joff_q) assert (live_i[bslot_q]);
    // An early done (no fail, not at a response): only at a chunk boundary of a slot not live.
    if (done_o && !rsp_fire) assert (busy_q && !jpend_q && !rout_q && !joff_q &&
                                     !live_i[bslot_q] && !job_valid_o);
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
    // Op-table pulses.
    assert (sent_o == job_fire);
    if (sent_o) assert (sent_slot_o == bslot_q && 3'(sent_chunk_o) == kj_q);
    assert (fail_o == (rsp_fire && rsp_status_i != DmaStatusOk));
    if (fail_o) assert (done_o && fail_slot_o == bslot_q && fail_status_o == rsp_status_i);
    if (job_valid_o) assert (job_meta_o == {kj_q[CIB-1:0], bslot_q});
    // Slot s: the jobs and reads carry the memo, the start and the chunk.
    if (cur_s_q) begin
      if (job_valid_o) begin
        assert (kj_q < nchunks(sh_cmd_q.length));
        assert (job_hdr_o == want);
        assert (job_key_o == sh_cmd_q.kd);
      end
      if (rdreq_valid_o) begin
        assert (rdreq_addr_o == sh_addr_q + 64'(rd_off));
        assert (16'(rdreq_len_o) == rd_len);
        assert (rdreq_region_o == RrtIdxWidth'(sh_cmd_q.local_region));
        assert (rdreq_gen_o == sh_gen_q);
        assert (rdreq_perm_o == 5'b00010);
      end
      // done without a failure only after every chunk.
      if (done_o && rsp_fire && !fail_o) assert (kj_q == nchunks(sh_cmd_q.length));
      if (done_o && fail_o) assert (kj_q <= nchunks(sh_cmd_q.length));
    end
  end

  // ---- Induction invariants: the block's state against the shadows.
  always_comb if (rst_ni) begin
    assert ((state_q == 2'd0) == !busy_q);
    assert ((state_q == 2'd1) == (busy_q && !jpend_q && !rout_q));
    assert ((state_q == 2'd2) == jpend_q);
    assert ((state_q == 2'd3) == rout_q);
    assert (!(jpend_q && rout_q));
    assert (onerma_ini_wrdata.offered_q == joff_q);
    if (joff_q) assert (state_q == 2'd1);
    if (busy_q) assert (slot_q == bslot_q && k_q <= onerma_ini_wrdata.n_last);
    if (busy_q && (state_q == 2'd1)) assert (3'(k_q) == kj_q && kj_q <= 3'(MaxChunks - 1));
    if (busy_q && (state_q != 2'd1)) assert (3'(k_q) + 3'd1 == kj_q);
    if (!busy_q) assert (!cur_s_q);
    assert (cur_s_q == (busy_q && bslot_q == s));
    if (rout_q) assert (32'(rleft_q) <= (32'(rlen_q) + Bytes - 1) / Bytes);
    if (cur_s_q) begin
      assert (sh_valid_q);
      assert (sh_cmd_q.length >= 16'd1 && sh_cmd_q.length <= 16'd4096);
      assert (counter_q == w_counter_q && ctx_q == w_ctx_q);
      assert (kj_q <= nchunks(sh_cmd_q.length));
      if (state_q != 2'd1) assert (kj_q >= 3'd1);
      if (state_q == 2'd1) assert (kj_q < nchunks(sh_cmd_q.length));
      if (rout_q) assert (rlen_q == rd_len);
      assert (onerma_ini_wrdata.m_q.op_type == sh_cmd_q.op_type);
      assert (onerma_ini_wrdata.m_q.length == sh_cmd_q.length);
      assert (onerma_ini_wrdata.m_q.remote_nic == sh_cmd_q.remote_nic);
      assert (onerma_ini_wrdata.m_q.remote_region == sh_cmd_q.remote_region);
      assert (onerma_ini_wrdata.m_q.remote_offset == sh_cmd_q.remote_offset);
      assert (onerma_ini_wrdata.m_q.pid == sh_pid_q);
      assert (onerma_ini_wrdata.m_q.kd == sh_cmd_q.kd);
      assert (onerma_ini_wrdata.m_q.local_region == RrtIdxWidth'(sh_cmd_q.local_region));
      assert (onerma_ini_wrdata.m_q.local_addr == sh_addr_q);
      assert (onerma_ini_wrdata.m_q.local_gen == sh_gen_q);
    end
    if (sh_valid_q) begin
      assert (onerma_ini_wrdata.memo_mem[s].op_type == sh_cmd_q.op_type);
      assert (onerma_ini_wrdata.memo_mem[s].length == sh_cmd_q.length);
      assert (onerma_ini_wrdata.memo_mem[s].remote_nic == sh_cmd_q.remote_nic);
      assert (onerma_ini_wrdata.memo_mem[s].remote_region == sh_cmd_q.remote_region);
      assert (onerma_ini_wrdata.memo_mem[s].remote_offset == sh_cmd_q.remote_offset);
      assert (onerma_ini_wrdata.memo_mem[s].pid == sh_pid_q);
      assert (onerma_ini_wrdata.memo_mem[s].kd == sh_cmd_q.kd);
      assert (onerma_ini_wrdata.memo_mem[s].local_region == RrtIdxWidth'(sh_cmd_q.local_region));
      assert (onerma_ini_wrdata.memo_mem[s].local_addr == sh_addr_q);
      assert (onerma_ini_wrdata.memo_mem[s].local_gen == sh_gen_q);
    end
  end

  // ---- Reachability.
  always_comb if (rst_ni) begin
    cover (cur_s_q && done_o && !fail_o && kj_q == 3'd2);
    cover (cur_s_q && fail_o && kj_q == 3'd2);
    cover (cur_s_q && pay_fire && pay_last_o && pay_err_o);
    cover (cur_s_q && done_o && !rsp_fire && kj_q == 3'd0);
  end

  logic unused;
  assign unused = ^{rdreq_tag_o, rsp_tag_i};

endmodule

bind onerma_ini_wrdata onerma_ini_wrdata_props #(
  .NumSlots   (NumSlots),
  .DataWidth  (DataWidth),
  .AddrWidth  (AddrWidth),
  .TagWidth   (TagWidth),
  .RrtIdxWidth(RrtIdxWidth)
) u_props (.*);
`endif

`default_nettype wire
