`default_nettype none

/// Responder READ server (protocol.md §3.1, §7.3): a READ that passed the request checks
/// (§7.2) is served chunk by chunk, each chunk a RD_RESP job of the transmit sealer
/// (`onerma_seal`) whose payload is that chunk's host read (`onerma_dma_rd`), streamed straight
/// through. The responder twin of `onerma_ini_wrdata`.
///
/// - `start` {hdr, K_d, base, gen} (valid/ready), one at a time: the RD_REQ header as received,
///   the key derived at the check, and the region entry's `base_addr` and `gen` at the check.
///   Every field is kept from the start (no memo).
/// - For chunk k = 0 .. ceil(length / 1024) - 1 (§3.1), in order:
///   1. the seal job `{hdr, key = K_d, meta = k}`: RD_RESP, op type READ, status OK,
///      `dst_nic` = request.src_nic, `prev_counter` = request.counter, PID / region / slot /
///      offset / length echoed, `chunk_offset` = k * 1024, `chunk_len` the chunk's size; src_nic,
///      counter (the sealer fills them), ctx, hold_ns and reserved bits 0;
///   2. after the job handshake, the read request `{addr = base + offset + k * 1024, len =
///      chunk_len, region = request.region, gen, perm = perm_remote_read, tag = k}`;
///   3. its data beats pass straight to the sealer's payload (`pay_err` = `rd_err`), then the
///      read response is taken: OK and k the last chunk, or not OK, end the service (`done`, and
///      `fail` with the status if not OK: no further chunk is read or sent; the failing chunk's
///      frame is dropped by the sealer, one of its beats carried `rd_err`).
/// - **Decision: the read is issued only after its seal job was accepted** (as
///   `onerma_ini_wrdata`): the sealer then takes every payload beat at once, so the read data
///   never holds the R path `onerma_dma_rd` shares between its clients. A read issued ahead of
///   its job could sit in that path while the sealer serves another client's job whose data is
///   queued behind it (a deadlock). The price is the read latency per chunk.
module onerma_rsp_read #(
  parameter int unsigned DataWidth   = 512,
  parameter int unsigned AddrWidth   = 64,
  parameter int unsigned TagWidth    = 8,
  parameter int unsigned RrtIdxWidth = 16
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

  typedef enum logic [1:0] {
    SIdle,  // waiting for a start
    SJob,   // the chunk's seal job offered
    SReq,   // the chunk's read request offered
    SData   // data beats to the sealer, then the read response
  } state_e;

  state_e      state_q;
  logic [1:0]  k_q;
  req_t        r_q;

  logic start_fire, job_fire, req_fire, rsp_fire, rsp_bad, last_chunk;
  logic [1:0]  n_last;  // index of the last chunk
  logic [15:0] c_off;   // k * 1024
  logic [15:0] c_len;   // min(1024, length - k * 1024)
  logic [15:0] rest;

  assign start_ready_o = (state_q == SIdle);
  assign start_fire    = start_valid_i && start_ready_o;
  assign job_fire      = job_valid_o && job_ready_i;
  assign req_fire      = rdreq_valid_o && rdreq_ready_i;
  assign rsp_fire      = rsp_valid_i && rsp_ready_o;
  assign rsp_bad       = (rsp_status_i != DmaStatusOk);

  assign n_last     = 2'((32'(r_q.length) - 32'd1) / Chunk);
  assign last_chunk = (k_q == n_last);
  assign c_off      = 16'(32'(k_q) * Chunk);
  assign rest       = r_q.length - c_off;
  assign c_len      = (rest > 16'(Chunk)) ? 16'(Chunk) : rest;

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
      state_q <= SIdle;
      k_q     <= '0;
    end else begin
      unique case (state_q)
        SIdle: if (start_fire) begin
          state_q <= SJob;
          k_q     <= '0;
        end
        SJob:  if (job_fire) state_q <= SReq;
        SReq:  if (req_fire) state_q <= SData;
        SData: if (rsp_fire) begin
          if (rsp_bad || last_chunk) begin
            state_q <= SIdle;
          end else begin
            state_q <= SJob;
            k_q     <= k_q + 2'd1;
          end
        end
        default: state_q <= SIdle;
      endcase
    end
  end

  // Seal job.
  assign job_valid_o = (state_q == SJob);
  assign job_key_o   = r_q.kd;
  assign job_meta_o  = k_q;
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
    chunk_offset: c_off,
    chunk_len:    c_len,
    ctx:          '0,
    hold_ns:      '0,
    rsvd1:        '0
  };

  // Read request (perm: {remote_read, remote_write, remote_rekey, local_read, local_write}).
  assign rdreq_valid_o  = (state_q == SReq);
  assign rdreq_addr_o   = AddrWidth'(r_q.addr + 64'(c_off));
  assign rdreq_len_o    = 13'(c_len);
  assign rdreq_region_o = RrtIdxWidth'(r_q.region);
  assign rdreq_gen_o    = r_q.gen;
  assign rdreq_perm_o   = 5'b10000;
  assign rdreq_tag_o    = TagWidth'(k_q);

  // Data: straight through to the sealer, which takes payload once the job was accepted.
  assign pay_valid_o = rd_valid_i && (state_q == SData);
  assign rd_ready_o  = pay_ready_i && (state_q == SData);
  assign pay_data_o  = rd_data_i;
  assign pay_last_o  = rd_last_i;
  assign pay_err_o   = rd_err_i;
  assign rsp_ready_o = (state_q == SData);

  assign fail_o        = rsp_fire && rsp_bad;
  assign fail_status_o = rsp_status_i;
  assign done_o        = rsp_fire && (rsp_bad || last_chunk);

  // The request fields a RD_RESP does not echo (its own type, status, destination, ctx, ...).
  logic unused;
  assign unused = ^{rsp_tag_i, start_hdr_i.msg_type, start_hdr_i.op_type, start_hdr_i.status,
                    start_hdr_i.rsvd0, start_hdr_i.dst_nic, start_hdr_i.prev_counter,
                    start_hdr_i.chunk_offset, start_hdr_i.chunk_len, start_hdr_i.ctx,
                    start_hdr_i.hold_ns, start_hdr_i.rsvd1};

endmodule

`default_nettype wire
