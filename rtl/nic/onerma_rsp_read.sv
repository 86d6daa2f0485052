`default_nettype none

/// Responder READ server (protocol.md §3.1, §7.3): READs that passed the request checks (§7.2)
/// are served chunk by chunk, each chunk a RD_RESP job of the transmit sealer (`onerma_seal`)
/// whose payload is that chunk's host read (`onerma_dma_rd`), streamed straight through. Up to
/// `MaxOps` READs are held at once so that host reads run ahead of the jobs, across READs: a
/// 64 B READ costs the sealer's job cycle and its one payload beat, not a host read latency.
///
/// - `start` {hdr, K_d, base, gen} (valid/ready): the RD_REQ header as received, the key derived
///   at the check, the region entry's `base_addr` and `gen` at the check. Taken while fewer than
///   `MaxOps` READs are held, every held READ's reads were issued, the lock is held (or nothing
///   is held) and `yield_i` is low: a READ starts its reads as it leaves the queue. Every field
///   is kept from the start (no memo).
/// - Every chunk k = 0 .. ceil(length / ChunkBytes) - 1 of every READ, READs in start order:
///   - the read request `{addr = base + offset + k * ChunkBytes, len = chunk_len, region =
///     request.region, gen, perm = perm_remote_read, tag = a running count}`, in chunk order,
///     only while `lock_i` and while fewer than `MaxReads` issued reads are unanswered;
///   - the seal job `{hdr, key = K_d, meta = k}`: RD_RESP, op type READ, status OK, `dst_nic` =
///     request.src_nic, `prev_counter` = request.counter, PID / region / slot / offset / length
///     echoed, `chunk_offset` = k * ChunkBytes, `chunk_len` the chunk's size; src_nic, counter (the
///     sealer fills them), ctx, hold_ns and reserved bits 0. A job is offered once every earlier
///     job's payload went through (the sealer takes a job only after the previous job's last
///     beat anyway), before or after its own read was issued;
///   - the read's data beats go to the sealer's payload once its job was accepted, every beat.
///     `pay_err` = `rd_err`, or any beat of an earlier chunk of the same READ carried `rd_err`
///     (`onerma_dma_rd` marks every beat of a failed read from its failure on): the sealer
///     drops the frame of the failed chunk and of every later chunk of that READ (the model's
///     `on_rd_serve`: no chunk after a failed one is sent). Every chunk is still read and
///     offered, so no read is ever left without a job to take its data.
/// - Responses are taken in order. `fail_o` pulses with a response not OK that is the first
///   such of its READ, with its status (the top's counters count one host read failure per READ,
///   as the model does; the beats already carried it to the sealer).
/// - `idle_o`: no READ held and every issued read answered.
///
/// **Payload lock contract.** `onerma_dma_rd` answers all its clients in acceptance order on one
/// R path, and a read ahead waits there until its job is accepted. So this block issues reads
/// only under `lock_i`, which its owner must keep high from the first read until `idle_o` (the
/// NIC top: the sealer's payload lock, held by this block until it is idle); no other client of
/// the same `onerma_dma_rd` may issue reads meanwhile. `yield_i` (another payload source waits
/// for the lock) stops new starts, so the block drains and the lock is released.
module onerma_rsp_read #(
  parameter int unsigned DataWidth   = 512,
  parameter int unsigned AddrWidth   = 64,
  parameter int unsigned TagWidth    = 8,
  parameter int unsigned RrtIdxWidth = 16,
  /// READs held at once (from their start until every chunk's job was accepted and read
  /// issued), >= 1.
  parameter int unsigned MaxOps      = 4,
  /// Issued host reads not yet answered, >= 1.
  parameter int unsigned MaxReads    = 4,
  // Derived, do not override.
  parameter int unsigned OpW         = (MaxOps > 1) ? $clog2(MaxOps) : 1,
  parameter int unsigned OnW         = $clog2(MaxOps + 1),
  parameter int unsigned CtW         = $clog2(MaxReads + 2) + 1
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

  // The payload lock (see the contract above).
  input  logic                   lock_i,
  input  logic                   yield_i,
  output logic                   idle_o,

  // A READ's first failed host read (a pulse with its status).
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
  output logic [onerma_pkg::ChunkIndexBits-1:0] job_meta_o,
  output logic                   pay_valid_o,
  input  logic                   pay_ready_i,
  output logic [DataWidth-1:0]   pay_data_o,
  output logic                   pay_last_o,
  output logic                   pay_err_o
);

  import onerma_pkg::*;

  localparam int unsigned Chunk = ChunkBytes;  // protocol CHUNK_BYTES (§3.1)

  if (MaxOps < 1 || MaxReads < 1) begin : g_bad_params
    $error("onerma_rsp_read: MaxOps and MaxReads must be >= 1");
  end

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
  } op_t;

  // The held READs, a ring: head (oh) the one whose jobs are offered, rp the one whose reads
  // are issued (oh .. rp - 1 fully read), tail (ot) the next free entry. The entry stays until
  // its jobs were all accepted and its reads all issued.
  op_t            ops_q [MaxOps];
  logic [OpW-1:0] oh_q, rp_q, ot_q;
  logic [OnW-1:0] on_q;   // READs held
  logic [OnW-1:0] nr_q;   // held READs with reads left (rp .. ot - 1)
  logic [2:0]     jk_q;   // the head's next job (chunk)
  logic [2:0]     rk_q;   // rp's next read (chunk)
  // Running counts (mod 2^CtW) of jobs accepted, reads issued, reads whose last beat was
  // taken, responses taken.
  logic [CtW-1:0] jt_q, it_q, dt_q, st_q;
  logic           derr_q;  // a beat of the current READ's data carried rd_err
  // Per issued read (indexed by its running count): the first of its READ. And whether a
  // response of the answered READ was already not OK.
  logic [(1 << CtW)-1:0] rfirst_q;
  logic           rbad_q;

  op_t        hd, rd;
  logic [2:0] h_n, r_n;   // chunks of the head's and rp's READ
  logic       start_fire, job_fire, req_fire, rd_fire, rsp_fire, rsp_bad;
  logic       pass, r_last, pop;
  logic [15:0] j_off, r_off, j_len, r_len;

  function automatic logic [2:0] n_chunks(input logic [15:0] len);
    return 3'((32'(len) + 32'(Chunk) - 1) / Chunk);
  endfunction

  // The size of the chunk at `off` (0 past the end).
  function automatic logic [15:0] chunk_size(input logic [15:0] len, input logic [15:0] off);
    logic [15:0] rest;
    rest = len - off;
    return (len <= off) ? 16'd0 : ((rest > 16'(Chunk)) ? 16'(Chunk) : rest);
  endfunction

  function automatic logic [OpW-1:0] nxt(input logic [OpW-1:0] p);
    return (p == OpW'(MaxOps - 1)) ? '0 : p + OpW'(1);
  endfunction

  assign hd  = ops_q[oh_q];
  assign rd  = ops_q[rp_q];
  assign h_n = n_chunks(hd.length);
  assign r_n = n_chunks(rd.length);

  // A READ is taken only when its reads can go out at once (no earlier READ with reads left,
  // the lock held or nothing held yet): it leaves the inbound queue, where its age and the NACK
  // depth count (§7.2, §9), when its service starts, not while earlier READs are sent.
  assign start_ready_o = !yield_i && (on_q != OnW'(MaxOps)) && (nr_q == '0) &&
                         (lock_i || (on_q == '0));
  assign start_fire    = start_valid_i && start_ready_o;
  assign job_fire      = job_valid_o && job_ready_i;
  assign req_fire      = rdreq_valid_o && rdreq_ready_i;
  assign rd_fire       = rd_valid_i && rd_ready_o;
  assign rsp_fire      = rsp_valid_i && rsp_ready_o;
  // The accepted job whose payload is due (at most one: jobs wait for the earlier payload).
  assign pass          = (jt_q != dt_q);
  assign r_last        = req_fire && (rk_q + 3'd1 == r_n);
  // The head leaves once its last job was accepted (now or before) and its reads all issued
  // (rp past it: fewer READs with reads left than held).
  assign pop           = (on_q != '0) && (nr_q != on_q) && (jk_q + 3'(job_fire) == h_n);

  assign j_off = 16'(32'(jk_q) * Chunk);
  assign r_off = 16'(32'(rk_q) * Chunk);
  assign j_len = chunk_size(hd.length, j_off);
  assign r_len = chunk_size(rd.length, r_off);

  always_ff @(posedge clk_i) begin
    if (start_fire) begin
      ops_q[ot_q] <= '{
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
      oh_q   <= '0;
      rp_q   <= '0;
      ot_q   <= '0;
      on_q   <= '0;
      nr_q   <= '0;
      jk_q   <= '0;
      rk_q   <= '0;
      jt_q   <= '0;
      it_q   <= '0;
      dt_q   <= '0;
      st_q   <= '0;
      derr_q <= 1'b0;
      rbad_q <= 1'b0;
    end else begin
      if (start_fire) ot_q <= nxt(ot_q);
      if (pop) oh_q <= nxt(oh_q);
      if (r_last) rp_q <= nxt(rp_q);
      on_q <= on_q + OnW'(start_fire) - OnW'(pop);
      nr_q <= nr_q + OnW'(start_fire) - OnW'(r_last);
      if (pop) jk_q <= '0;
      else if (job_fire) jk_q <= jk_q + 3'd1;
      if (r_last) rk_q <= '0;
      else if (req_fire) rk_q <= rk_q + 3'd1;
      if (job_fire) jt_q <= jt_q + CtW'(1);
      if (req_fire) it_q <= it_q + CtW'(1);
      if (rd_fire && rd_last_i) dt_q <= dt_q + CtW'(1);
      if (rsp_fire) st_q <= st_q + CtW'(1);
      // A READ's first job is accepted only after every earlier beat went through.
      if (job_fire && jk_q == 3'd0) derr_q <= 1'b0;
      else if (rd_fire && rd_err_i) derr_q <= 1'b1;
      if (rsp_fire) rbad_q <= rsp_bad || (rbad_q && !rfirst_q[st_q]);
    end
  end

  always_ff @(posedge clk_i) begin
    if (req_fire) rfirst_q[it_q] <= (rk_q == 3'd0);
  end

  assign rsp_bad       = (rsp_status_i != DmaStatusOk);
  assign fail_o        = rsp_fire && rsp_bad && (rfirst_q[st_q] || !rbad_q);
  assign fail_status_o = rsp_status_i;

  // Seal job of the head's chunk jk.
  assign job_valid_o = (on_q != '0) && (jk_q != h_n) && !pass;
  assign job_key_o   = hd.kd;
  assign job_meta_o  = jk_q[ChunkIndexBits-1:0];
  assign job_hdr_o   = '{
    msg_type:     MsgTypeRdResp,
    op_type:      OpTypeRead,
    status:       StatusOk,
    rsvd0:        '0,
    src_nic:      '0,
    dst_nic:      hd.src_nic,
    counter:      '0,
    prev_counter: hd.counter,
    pid:          hd.pid,
    region:       hd.region,
    slot:         hd.slot,
    offset:       hd.offset,
    length:       hd.length,
    chunk_offset: j_off,
    chunk_len:    j_len,
    ctx:          '0,
    hold_ns:      '0,
    rsvd1:        '0
  };

  // Read request of rp's chunk rk (perm: {remote_read, remote_write, remote_rekey, local_read,
  // local_write}). Nothing here lowers it once offered: the lock stays until idle, a response
  // only lowers the unanswered count.
  assign rdreq_valid_o  = lock_i && (nr_q != '0) && ((it_q - st_q) < CtW'(MaxReads));
  assign rdreq_addr_o   = AddrWidth'(rd.addr + 64'(r_off));
  assign rdreq_len_o    = 13'(r_len);
  assign rdreq_region_o = RrtIdxWidth'(rd.region);
  assign rdreq_gen_o    = rd.gen;
  assign rdreq_perm_o   = 5'b10000;
  assign rdreq_tag_o    = TagWidth'(it_q);

  // Data of the accepted job's chunk, every beat; erroneous from the READ's first bad beat on.
  assign pay_valid_o = rd_valid_i && pass;
  assign rd_ready_o  = pass && pay_ready_i;
  assign pay_data_o  = rd_data_i;
  assign pay_last_o  = rd_last_i;
  assign pay_err_o   = rd_err_i || derr_q;
  assign rsp_ready_o = (st_q != it_q);

  assign idle_o = (on_q == '0) && (st_q == it_q);

  // The request fields a RD_RESP does not echo (its own type, status, destination, ctx, ...),
  // and the responses' tags.
  logic unused;
  assign unused = ^{rsp_tag_i, r_len[15:13], start_hdr_i.msg_type,
                    start_hdr_i.op_type, start_hdr_i.status, start_hdr_i.rsvd0,
                    start_hdr_i.dst_nic, start_hdr_i.prev_counter, start_hdr_i.chunk_offset,
                    start_hdr_i.chunk_len, start_hdr_i.ctx, start_hdr_i.hold_ns,
                    start_hdr_i.rsvd1, hd.addr, hd.gen, rd.src_nic, rd.counter, rd.pid,
                    rd.slot, rd.offset, rd.kd};

endmodule

`default_nettype wire
