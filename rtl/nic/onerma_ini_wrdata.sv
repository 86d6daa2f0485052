`default_nettype none

/// Initiator WRITE / REKEY data sender (protocol.md §3.1, §8.3, §8.6): after the op table
/// accepted a WR_RDREQ, the op's local data is read from host memory (`onerma_dma_rd`) chunk by
/// chunk straight into WR_DATA jobs of the transmit sealer (`onerma_seal`).
///
/// - Keeps its own copy of the slot memo fields it needs (op type, length, remote NIC, region and
///   offset, the slot's PID, K_d, local region, absolute local address and the local entry's
///   `gen`), written from `onerma_submit`'s accept handshake (a tap, never a stall), as
///   `onerma_ini_req` does.
/// - `start` {slot, rdreq_counter, ctx} (valid/ready), one at a time. For chunk k = 0 ..
///   ceil(length / ChunkBytes) - 1 (protocol §3.1; REKEY: length 16, one chunk), in order:
///   1. the seal job `{hdr, key = K_d, meta = {k, slot}}`: WR_DATA, the op's type, status OK,
///      `dst_nic` = remote NIC, `prev_counter` = rdreq_counter, PID, remote region, slot, remote
///      offset, length, `chunk_offset` = k * ChunkBytes, `chunk_len`, ctx; src_nic, counter, hold_ns
///      and reserved bits 0 (the sealer fills src_nic and the counter);
///   2. after the job handshake, the read request `{addr = local address + k * ChunkBytes, len =
///      chunk_len, local region, gen, perm = perm_local_read, tag = k}`;
///   3. its data beats pass straight to the sealer's payload (`pay_err` = `rd_err`), then the
///      read response is taken: status OK and k the last chunk, or status not OK, end the start
///      (`done`, and `fail` with the status if not OK: no further chunk is read or sent; the
///      failing chunk's frame is dropped by the sealer, since one of its beats carried `rd_err`).
/// - **Decision: the read is issued only after its seal job was accepted.** The sealer then takes
///   every payload beat at once (it waits for nothing else), so the read data never holds the
///   shared R path of `onerma_dma_rd`; a read issued before its job could wait behind another
///   sealer client's job whose data is queued behind it in the R path (a deadlock). One chunk
///   at a time: the price is the read latency per chunk, during which the sealer's input is held.
/// - `sent` pulses at each job handshake (the sealer's `asg` cycle) with {slot, chunk}.
/// - `live_i[slot]` (the op table: the op is in service): a chunk's job is offered only while
///   its slot is live; a start whose slot is not live when its next chunk is due ends there
///   (`done`, no `fail`). A job already offered stays offered (stream rule), and a chunk whose
///   job was accepted finishes its read.
module onerma_ini_wrdata #(
  parameter int unsigned NumSlots    = 64,
  parameter int unsigned DataWidth   = 512,
  parameter int unsigned AddrWidth   = 64,
  parameter int unsigned TagWidth    = 8,
  parameter int unsigned RrtIdxWidth = 16,
  // Derived, do not override.
  parameter int unsigned SlotWidth   = (NumSlots > 1) ? $clog2(NumSlots) : 1,
  parameter int unsigned MetaWidth   = SlotWidth + onerma_pkg::ChunkIndexBits
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,

  // onerma_submit's accept handshake (a tap: this block never stalls it).
  input  logic                   acc_fire_i,
  input  logic [SlotWidth-1:0]   acc_slot_i,
  input  onerma_pkg::cmd_t       acc_cmd_i,
  input  logic [31:0]            acc_pid_i,
  input  logic [63:0]            acc_local_addr_i,
  input  logic [15:0]            acc_local_gen_i,

  // From the op table: a WR_RDREQ was accepted for the slot.
  input  logic                   start_valid_i,
  output logic                   start_ready_o,
  input  logic [SlotWidth-1:0]   start_slot_i,
  input  logic [63:0]            start_counter_i,
  input  logic [15:0]            start_ctx_i,
  input  logic [NumSlots-1:0]    live_i,

  // To the op table.
  output logic                   sent_o,
  output logic [SlotWidth-1:0]   sent_slot_o,
  output logic [onerma_pkg::ChunkIndexBits-1:0] sent_chunk_o,
  output logic                   fail_o,
  output logic [SlotWidth-1:0]   fail_slot_o,
  output onerma_pkg::dma_status_e fail_status_o,
  output logic                   done_o,
  output logic [SlotWidth-1:0]   done_slot_o,

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
  output logic [MetaWidth-1:0]   job_meta_o,
  output logic                   pay_valid_o,
  input  logic                   pay_ready_i,
  output logic [DataWidth-1:0]   pay_data_o,
  output logic                   pay_last_o,
  output logic                   pay_err_o
);

  import onerma_pkg::*;

  localparam int unsigned Chunk = ChunkBytes;  // protocol CHUNK_BYTES (§3.1)

  typedef struct packed {
    logic [7:0]             op_type;
    logic [15:0]            length;
    logic [31:0]            remote_nic;
    logic [15:0]            remote_region;
    logic [63:0]            remote_offset;
    logic [31:0]            pid;
    logic [127:0]           kd;
    logic [RrtIdxWidth-1:0] local_region;
    logic [63:0]            local_addr;
    logic [15:0]            local_gen;
  } memo_t;

  memo_t memo_mem [NumSlots];

  always_ff @(posedge clk_i) begin
    if (acc_fire_i) begin
      memo_mem[acc_slot_i] <= '{
        op_type:       acc_cmd_i.op_type,
        length:        acc_cmd_i.length,
        remote_nic:    acc_cmd_i.remote_nic,
        remote_region: acc_cmd_i.remote_region,
        remote_offset: acc_cmd_i.remote_offset,
        pid:           acc_pid_i,
        kd:            acc_cmd_i.kd,
        local_region:  RrtIdxWidth'(acc_cmd_i.local_region),
        local_addr:    acc_local_addr_i,
        local_gen:     acc_local_gen_i
      };
    end
  end

  // The command fields WR_DATA does not need (the class, the completion side; the local offset
  // arrives as the absolute address).
  logic unused_cmd;
  assign unused_cmd = ^{acc_cmd_i.cos, acc_cmd_i.cq_region, acc_cmd_i.rsvd0,
                        acc_cmd_i.local_offset, acc_cmd_i.cq_offset, acc_cmd_i.rsvd1,
                        acc_cmd_i.local_region};

  typedef enum logic [1:0] {
    SIdle,  // waiting for a start
    SJob,   // the chunk's seal job offered
    SReq,   // the chunk's read request offered
    SData   // data beats to the sealer, then the read response
  } state_e;

  state_e               state_q;
  logic [SlotWidth-1:0] slot_q;
  logic [63:0]          counter_q;
  logic [15:0]          ctx_q;
  logic [ChunkIndexBits-1:0] k_q;
  memo_t                m_q;  // the memo read at the start (the stage register)

  logic start_fire, job_fire, req_fire, rsp_fire, rsp_bad, last_chunk;
  logic offered_q;  // the job was offered and not yet taken: it stays offered
  logic skip;       // the next chunk is due but the slot's op is no longer live: stop
  logic [ChunkIndexBits-1:0] n_last;  // index of the op's last chunk
  logic [15:0] c_off;      // k * ChunkBytes
  logic [15:0] c_len;      // min(ChunkBytes, length - k * ChunkBytes)
  logic [15:0] rest;

  assign start_ready_o = (state_q == SIdle);
  assign start_fire    = start_valid_i && start_ready_o;
  assign job_fire      = job_valid_o && job_ready_i;
  assign req_fire      = rdreq_valid_o && rdreq_ready_i;
  assign rsp_fire      = rsp_valid_i && rsp_ready_o;
  assign rsp_bad       = (rsp_status_i != DmaStatusOk);
  assign skip          = (state_q == SJob) && !live_i[slot_q] && !offered_q;

  assign n_last     = ChunkIndexBits'((32'(m_q.length) - 32'd1) / Chunk);
  assign last_chunk = (k_q == n_last);
  assign c_off      = 16'(32'(k_q) * Chunk);
  assign rest       = m_q.length - c_off;
  assign c_len      = (rest > 16'(Chunk)) ? 16'(Chunk) : rest;

  always_ff @(posedge clk_i) begin
    if (start_fire) begin
      m_q <= memo_mem[start_slot_i];
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q   <= SIdle;
      slot_q    <= '0;
      counter_q <= '0;
      ctx_q     <= '0;
      k_q       <= '0;
      offered_q <= 1'b0;
    end else begin
      offered_q <= job_valid_o && !job_ready_i;
      unique case (state_q)
        SIdle: if (start_fire) begin
          state_q   <= SJob;
          slot_q    <= start_slot_i;
          counter_q <= start_counter_i;
          ctx_q     <= start_ctx_i;
          k_q       <= '0;
        end
        SJob:  if (job_fire) state_q <= SReq;
               else if (skip) state_q <= SIdle;
        SReq:  if (req_fire) state_q <= SData;
        SData: if (rsp_fire) begin
          if (rsp_bad || last_chunk) begin
            state_q <= SIdle;
          end else begin
            state_q <= SJob;
            k_q     <= k_q + 1'b1;
          end
        end
        default: state_q <= SIdle;
      endcase
    end
  end

  // Seal job.
  assign job_valid_o = (state_q == SJob) && (live_i[slot_q] || offered_q);
  assign job_key_o   = m_q.kd;
  assign job_meta_o  = {k_q, slot_q};
  assign job_hdr_o   = '{
    msg_type:     MsgTypeWrData,
    op_type:      op_type_e'(m_q.op_type),
    status:       StatusOk,
    rsvd0:        '0,
    src_nic:      '0,
    dst_nic:      m_q.remote_nic,
    counter:      '0,
    prev_counter: counter_q,
    pid:          m_q.pid,
    region:       m_q.remote_region,
    slot:         16'(slot_q),
    offset:       m_q.remote_offset,
    length:       m_q.length,
    chunk_offset: c_off,
    chunk_len:    c_len,
    ctx:          ctx_q,
    hold_ns:      '0,
    rsvd1:        '0
  };

  // Read request (perm: {remote_read, remote_write, remote_rekey, local_read, local_write}).
  assign rdreq_valid_o  = (state_q == SReq);
  assign rdreq_addr_o   = AddrWidth'(m_q.local_addr + 64'(c_off));
  assign rdreq_len_o    = 13'(c_len);
  assign rdreq_region_o = m_q.local_region;
  assign rdreq_gen_o    = m_q.local_gen;
  assign rdreq_perm_o   = 5'b00010;
  assign rdreq_tag_o    = TagWidth'(k_q);

  // Data: straight through to the sealer, which takes payload once the job was accepted.
  assign pay_valid_o = rd_valid_i && (state_q == SData);
  assign rd_ready_o  = pay_ready_i && (state_q == SData);
  assign pay_data_o  = rd_data_i;
  assign pay_last_o  = rd_last_i;
  assign pay_err_o   = rd_err_i;
  assign rsp_ready_o = (state_q == SData);

  // To the op table.
  assign sent_o        = job_fire;
  assign sent_slot_o   = slot_q;
  assign sent_chunk_o  = k_q;
  assign fail_o        = rsp_fire && rsp_bad;
  assign fail_slot_o   = slot_q;
  assign fail_status_o = rsp_status_i;
  assign done_o        = (rsp_fire && (rsp_bad || last_chunk)) || skip;
  assign done_slot_o   = slot_q;

  logic unused;
  assign unused = ^{rsp_tag_i};

endmodule

`default_nettype wire
