`default_nettype none

/// Responder READ server (protocol.md §3.1, §7.3): a READ that passed the request checks
/// (§7.2) is served chunk by chunk, each chunk a RD_RESP job of the transmit sealer
/// (`onerma_seal`) whose payload is that chunk's host read (`onerma_dma_rd`), streamed straight
/// through. The responder twin of `onerma_ini_wrdata`.
///
/// - `start` {hdr, K_d, base, gen} (valid/ready), one at a time: the RD_REQ header as received,
///   the key derived at the check, and the region entry's `base_addr` and `gen` at the check.
///   Every field is kept from the start (no memo).
/// - Chunk k = 0 .. ceil(length / 1024) - 1 (§3.1), in order:
///   - the seal job `{hdr, key = K_d, meta = k}`: RD_RESP, op type READ, status OK, `dst_nic` =
///     request.src_nic, `prev_counter` = request.counter, PID / region / slot / offset / length
///     echoed, `chunk_offset` = k * 1024, `chunk_len` the chunk's size; src_nic, counter (the
///     sealer fills them), ctx, hold_ns and reserved bits 0. Job k + 1 is offered once chunk k's
///     last beat was taken with no `rd_err` on any beat so far (the sealer takes a job only the
///     cycle after the previous job's last beat anyway), not waiting for chunk k's response;
///   - the read request `{addr = base + offset + k * 1024, len = chunk_len, region =
///     request.region, gen, perm = perm_remote_read, tag = k}`: after job k was accepted, or with
///     `ReadAhead` after job k - 1 was (chunk 0 after its own job), so that chunk k's read latency
///     passes while chunk k - 1's data streams; at most two reads outstanding;
///   - the read's data beats go straight to the sealer's payload (`pay_err` = `rd_err`) once job
///     k was accepted, every beat of the chunk (also after an erroneous one: the sealer drops
///     that chunk's frame).
/// - Stop: an erroneous beat (`onerma_dma_rd` marks every beat of a failed read from its
///   failure on) or a response not OK: no further job and no new read request (one already
///   offered stays offered, stream rule); the beats of a read ahead whose job was not accepted
///   are taken and dropped, its response taken. `done` pulses when every issued read was
///   answered (and none is offered) after the last chunk's OK response or a stop; `fail` with it
///   if a response was not OK, with the first such status.
/// - **Deadlock note (ReadAhead = 1).** `onerma_dma_rd` answers all its clients in acceptance
///   order on one R path. A read ahead sits there until this block's next job is accepted, so the
///   sealer must not accept, between two chunks of a READ, another job whose data comes from the
///   same `onerma_dma_rd` after that read (its data would wait behind ours, ours behind its job:
///   a deadlock). Use ReadAhead = 1 only with a `onerma_dma_rd` of its own, or a sealer job
///   arbiter that grants this block's next job first. With ReadAhead = 0 a read is issued only
///   after its job was accepted (as `onerma_ini_wrdata`), at the price of the read latency per
///   chunk.
module onerma_rsp_read #(
  parameter int unsigned DataWidth   = 512,
  parameter int unsigned AddrWidth   = 64,
  parameter int unsigned TagWidth    = 8,
  parameter int unsigned RrtIdxWidth = 16,
  // 1: chunk k + 1's host read may be issued once chunk k's job was accepted (before its own
  // job), hiding the read latency between chunks; see the deadlock note above. 0: a chunk's read
  // only after its own job was accepted (the default: safe on a shared onerma_dma_rd).
  parameter int unsigned ReadAhead   = 0
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,

  // The READ queue head (§7.2 step 5 passed).
  input  logic                   start_valid_i,
  output logic                   start_ready_o,
  input  onerma_pkg::hdr_t       start_hdr_i,
  input  logic [127:0]           start_kd_i,
  input  logic [63:0]            start_base_i,
  input  logic [15:0]            start_gen_i,

  // Outcome pulses.
  output logic                   done_o,
  output logic                   fail_o,
  output onerma_pkg::dma_status_e fail_status_o,

  // onerma_dma_rd client.
  output logic                   rdreq_valid_o,
  input  logic                   rdreq_ready_i,
  output logic [AddrWidth-1:0]   rdreq_addr_o,
  output logic [12:0]            rdreq_len_o,
  output logic [RrtIdxWidth-1:0] rdreq_region_o,
  output logic [15:0]            rdreq_gen_o,
  output logic [4:0]             rdreq_perm_o,
  output logic [TagWidth-1:0]    rdreq_tag_o,
  input  logic                   rd_valid_i,
  output logic                   rd_ready_o,
  input  logic [DataWidth-1:0]   rd_data_i,
  input  logic                   rd_last_i,
  input  logic                   rd_err_i,
  input  logic                   rsp_valid_i,
  output logic                   rsp_ready_o,
  input  logic [TagWidth-1:0]    rsp_tag_i,
  input  onerma_pkg::dma_status_e rsp_status_i,

  // To onerma_seal.
  output logic                   job_valid_o,
  input  logic                   job_ready_i,
  output onerma_pkg::hdr_t       job_hdr_o,
  output logic [127:0]           job_key_o,
  output logic [1:0]             job_meta_o,
  output logic                   pay_valid_o,
  input  logic                   pay_ready_i,
  output logic [DataWidth-1:0]   pay_data_o,
  output logic                   pay_last_o,
  output logic                   pay_err_o
);

  import onerma_pkg::*;

  localparam int unsigned Chunk = 1024;  // protocol CHUNK_BYTES (§3.1)

  // The request fields the service needs, taken at the start.
  typedef struct packed {
    logic [31:0]  src_nic;
    logic [63:0]  counter;
    logic [31:0]  pid;
    logic [15:0]  region;
    logic [15:0]  slot;
    logic [63:0]  offset;
    logic [15:0]  length;
    logic [127:0] kd;
    logic [63:0]  addr;   // base + offset
    logic [15:0]  gen;
  } req_t;

  logic        busy_q;
  logic [2:0]  jn_q;     // jobs accepted (the next job is chunk jn)
  logic [2:0]  rn_q;     // reads issued (the next read is chunk rn)
  logic [2:0]  dn_q;     // chunks whose last data beat was taken (beats now are chunk dn's)
  logic [2:0]  rs_q;     // read responses taken
  logic        stop_q;   // an erroneous beat or a response not OK was seen: stop
  logic        bad_q;    // a response not OK was taken, its status in fst_q
  dma_status_e fst_q;
  logic        roff_q;   // the read request was offered last cycle and not taken
  req_t        r_q;

  logic start_fire, job_fire, req_fire, rd_fire, rsp_fire, rsp_bad, stop_now, quiet;
  logic [2:0]  n_chunks;  // ceil(length / 1024)
  logic [15:0] j_off, r_off;  // jn * 1024, rn * 1024
  logic [15:0] j_len, r_len;  // the sizes of chunks jn and rn

  // The size of chunk k (0 past the end).
  function automatic logic [15:0] chunk_size(input logic [15:0] len, input logic [15:0] off);
    logic [15:0] rest;
    rest = len - off;
    return (len <= off) ? 16'd0 : ((rest > 16'(Chunk)) ? 16'(Chunk) : rest);
  endfunction

  assign start_ready_o = !busy_q;
  assign start_fire    = start_valid_i && start_ready_o;
  assign job_fire      = job_valid_o && job_ready_i;
  assign req_fire      = rdreq_valid_o && rdreq_ready_i;
  assign rd_fire       = rd_valid_i && rd_ready_o;
  assign rsp_fire      = rsp_valid_i && rsp_ready_o;
  assign rsp_bad       = (rsp_status_i != DmaStatusOk);
  // A failed chunk shows first as a beat with rd_err (onerma_dma_rd: every beat of a failed
  // read after its failure carries it), at the latest as its response.
  assign stop_now      = stop_q || (rd_fire && rd_err_i) || (rsp_fire && rsp_bad);
  // Every read issued has been answered (with this cycle's response) and none is offered.
  assign quiet         = (rs_q + 3'(rsp_fire) == rn_q) && !rdreq_valid_o;

  assign n_chunks = 3'((32'(r_q.length) + 32'(Chunk) - 1) / Chunk);
  assign j_off    = 16'(32'(jn_q) * Chunk);
  assign r_off    = 16'(32'(rn_q) * Chunk);
  assign j_len    = chunk_size(r_q.length, j_off);
  assign r_len    = chunk_size(r_q.length, r_off);

  always_ff @(posedge clk_i) begin
    if (start_fire) begin
      r_q <= '{
        src_nic: start_hdr_i.src_nic,
        counter: start_hdr_i.counter,
        pid:     start_hdr_i.pid,
        region:  start_hdr_i.region,
        slot:    start_hdr_i.slot,
        offset:  start_hdr_i.offset,
        length:  start_hdr_i.length,
        kd:      start_kd_i,
        addr:    start_base_i + start_hdr_i.offset,
        gen:     start_gen_i
      };
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      busy_q <= 1'b0;
      jn_q   <= '0;
      rn_q   <= '0;
      dn_q   <= '0;
      rs_q   <= '0;
      stop_q <= 1'b0;
      bad_q  <= 1'b0;
      fst_q  <= DmaStatusOk;
      roff_q <= 1'b0;
    end else begin
      roff_q <= rdreq_valid_o && !rdreq_ready_i;
      if (start_fire) begin
        busy_q <= 1'b1;
        jn_q   <= '0;
        rn_q   <= '0;
        dn_q   <= '0;
        rs_q   <= '0;
        stop_q <= 1'b0;
        bad_q  <= 1'b0;
      end else begin
        if (done_o) busy_q <= 1'b0;
        if (job_fire) jn_q <= jn_q + 3'd1;
        if (req_fire) rn_q <= rn_q + 3'd1;
        if (rd_fire && rd_last_i) dn_q <= dn_q + 3'd1;
        if (rsp_fire) rs_q <= rs_q + 3'd1;
        if (stop_now) stop_q <= 1'b1;
        if (rsp_fire && rsp_bad && !bad_q) begin
          bad_q <= 1'b1;
          fst_q <= rsp_status_i;
        end
      end
    end
  end

  // Seal job.
  // Chunk jn's job: once every accepted chunk's data went through without an error (the sealer
  // takes a job only after the previous job's last beat anyway).
  assign job_valid_o = busy_q && !stop_q && (jn_q == dn_q) && (jn_q < n_chunks);
  assign job_key_o   = r_q.kd;
  assign job_meta_o  = jn_q[1:0];
  assign job_hdr_o   = '{
    msg_type:     MsgTypeRdResp,
    op_type:      OpTypeRead,
    status:       StatusOk,
    rsvd0:        '0,
    src_nic:      '0,
    dst_nic:      r_q.src_nic,
    counter:      '0,
    prev_counter: r_q.counter,
    pid:          r_q.pid,
    region:       r_q.region,
    slot:         r_q.slot,
    offset:       r_q.offset,
    length:       r_q.length,
    chunk_offset: j_off,
    chunk_len:    j_len,
    ctx:          '0,
    hold_ns:      '0,
    rsvd1:        '0
  };

  // Read request of chunk rn (perm: {remote_read, remote_write, remote_rekey, local_read,
  // local_write}): after job rn was accepted, or with ReadAhead once job rn - 1 was (chunk 0:
  // after its job). A request offered stays offered; a new one is not offered once stopping.
  logic rd_allowed;
  if (ReadAhead != 0) begin : g_ahead
    assign rd_allowed = (jn_q >= rn_q) && (jn_q != 3'd0);
  end else begin : g_after
    assign rd_allowed = (jn_q > rn_q);
  end
  assign rdreq_valid_o  = busy_q && (rn_q < n_chunks) && rd_allowed && (roff_q || !stop_now);
  assign rdreq_addr_o   = AddrWidth'(r_q.addr + 64'(r_off));
  assign rdreq_len_o    = 13'(r_len);
  assign rdreq_region_o = RrtIdxWidth'(r_q.region);
  assign rdreq_gen_o    = r_q.gen;
  assign rdreq_perm_o   = 5'b10000;
  assign rdreq_tag_o    = TagWidth'(rn_q);

  // Data of chunk dn: to the sealer once its job was accepted (all of its beats, also after an
  // erroneous one); after a stop, the beats of a read whose job was not accepted (read ahead) are
  // taken and dropped.
  assign pay_valid_o = rd_valid_i && (jn_q > dn_q);
  assign rd_ready_o  = busy_q && ((jn_q > dn_q) ? pay_ready_i : stop_q);
  assign pay_data_o  = rd_data_i;
  assign pay_last_o  = rd_last_i;
  assign pay_err_o   = rd_err_i;
  assign rsp_ready_o = busy_q && (rs_q != rn_q);

  // done: the last chunk's response OK, or, once stopping, every issued read answered.
  assign done_o        = busy_q && quiet && (stop_now || (rs_q + 3'(rsp_fire) == n_chunks));
  assign fail_o        = done_o && (bad_q || (rsp_fire && rsp_bad));
  assign fail_status_o = bad_q ? fst_q : rsp_status_i;

  // The request fields a RD_RESP does not echo (its own type, status, destination, ctx, ...).
  logic unused;
  assign unused = ^{rsp_tag_i, r_len[15:13], start_hdr_i.msg_type, start_hdr_i.op_type, start_hdr_i.status,
                    start_hdr_i.rsvd0, start_hdr_i.dst_nic, start_hdr_i.prev_counter,
                    start_hdr_i.chunk_offset, start_hdr_i.chunk_len, start_hdr_i.ctx,
                    start_hdr_i.hold_ns, start_hdr_i.rsvd1};

endmodule

`default_nettype wire
