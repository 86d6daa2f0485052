`default_nettype none

/// Initiator completion-record writer (protocol.md §11): for each op that ends, the 16-byte
/// `cpl` record written to its completion address through one `onerma_dma_wr` client port, and
/// the write's outcome back to the op table (docs/nic.md, "Completion writer").
///
/// - Job `{slot, status, op_type, seq, t_sub, t_disp, dispatched, cq_addr, cq_region, cq_gen}`
///   from the op table, taken into a one-entry stage while the stage is empty or leaving.
/// - The stage is offered as the DMA request `{addr = cq_addr, len = 16, region = cq_region,
///   gen = cq_gen, perm = perm_local_write, tag = slot}`. The request handshake is the cycle the
///   record write is issued (`t_cpl`): in that cycle the record is built with
///   `total_delay = now - t_sub`, `issue_delay = t_disp - t_sub` (`total_delay` if the op never
///   entered service), both mod 2^TimeWidth and saturated at 2^32 - 1, and pushed into the data
///   FIFO, which offers it as the request's one data beat: byte 0 of the record (`valid`) in lane
///   0, lanes 16 and up zero.
/// - The request is offered only while the data FIFO has room (its ready is a register, and only
///   a request handshake pushes, so the offer never drops before its handshake): one record per
///   cycle while the DMA takes them, several in flight.
/// - The DMA's responses (in request order; `tag` = slot, so no FIFO of slots is kept) pass
///   through as `done {slot, ok}`; `err_cq_write_o` pulses at the handshake of a failed one.
module onerma_ini_cpl #(
  parameter int unsigned NumSlots    = 64,
  parameter int unsigned TimeWidth   = 32,
  parameter int unsigned DataWidth   = 512,
  parameter int unsigned AddrWidth   = 64,
  parameter int unsigned RrtIdxWidth = 16,
  parameter int unsigned TagWidth    = 8,
  /// Data FIFO entries (records whose request was taken and whose beat was not), >= 2 for one
  /// record per cycle (onerma_fifo does not accept while full, even when popped).
  parameter int unsigned Depth       = 2,
  // Derived, do not override.
  parameter int unsigned SlotWidth   = (NumSlots > 1) ? $clog2(NumSlots) : 1
) (
  input  logic                       clk_i,
  input  logic                       rst_ni,
  /// Free-running cycle count.
  input  logic [TimeWidth-1:0]       now_i,

  // Record jobs from the op table.
  input  logic                       job_valid_i,
  output logic                       job_ready_o,
  input  logic [SlotWidth-1:0]       job_slot_i,
  input  onerma_pkg::status_e        job_status_i,
  /// The command's op_type byte, raw.
  input  logic [7:0]                 job_op_type_i,
  input  logic [15:0]                job_seq_i,
  input  logic [TimeWidth-1:0]       job_t_sub_i,
  input  logic [TimeWidth-1:0]       job_t_disp_i,
  /// 0: the op never entered service (issue_delay = total_delay; job_t_disp_i ignored).
  input  logic                       job_dispatched_i,
  /// Absolute host address of the record (onerma_submit's acc_cq_addr_o).
  input  logic [AddrWidth-1:0]       job_cq_addr_i,
  input  logic [RrtIdxWidth-1:0]     job_cq_region_i,
  input  logic [15:0]                job_cq_gen_i,

  // onerma_dma_wr client port: request, data, response.
  output logic                       req_valid_o,
  input  logic                       req_ready_i,
  output logic [AddrWidth-1:0]       req_addr_o,
  output logic [12:0]                req_len_o,
  output logic [RrtIdxWidth-1:0]     req_region_o,
  output logic [15:0]                req_gen_o,
  output logic [4:0]                 req_perm_o,
  output logic [TagWidth-1:0]        req_tag_o,
  output logic                       wd_valid_o,
  input  logic                       wd_ready_i,
  output logic [DataWidth-1:0]       wd_data_o,
  output logic                       wd_last_o,
  input  logic                       rsp_valid_i,
  output logic                       rsp_ready_o,
  input  logic [TagWidth-1:0]        rsp_tag_i,
  input  onerma_pkg::dma_status_e    rsp_status_i,

  // Record written (ok) or not (a failed region check or an AXI error): the slot is free.
  output logic                       done_valid_o,
  input  logic                       done_ready_i,
  output logic [SlotWidth-1:0]       done_slot_o,
  output logic                       done_ok_o,
  /// One cycle per failed record write (the err_cq_write counter).
  output logic                       err_cq_write_o
);

  import onerma_pkg::*;

  if (DataWidth < CplTBits) begin : g_bad_width
    $error("onerma_ini_cpl: DataWidth must hold one record (>= 128)");
  end
  if (TagWidth < SlotWidth) begin : g_bad_tag
    $error("onerma_ini_cpl: TagWidth must hold a slot number");
  end
  if (Depth < 1) begin : g_bad_depth
    $error("onerma_ini_cpl: Depth must be >= 1");
  end

  /// {remote_read, remote_write, remote_rekey, local_read, local_write} (rrt_entry order).
  localparam logic [4:0] PermLocalWrite = 5'b00001;

  typedef struct packed {
    logic [SlotWidth-1:0]   slot;
    status_e                status;
    logic [7:0]             op_type;
    logic [15:0]            seq;
    logic [TimeWidth-1:0]   t_sub;
    logic                   dispatched;
    logic [31:0]            issue_delay; // t_disp - t_sub, saturated (meaningful if dispatched)
    logic [AddrWidth-1:0]   cq_addr;
    logic [RrtIdxWidth-1:0] cq_region;
    logic [15:0]            cq_gen;
  } stage_t;

  stage_t stage_q;
  logic   stage_valid_q;
  logic   job_fire, req_fire;
  logic   fifo_ready;
  cpl_t   rec, fifo_out;
  logic [TimeWidth-1:0] disp_diff, now_diff;
  logic [31:0]          disp_delay, total_delay;

  // Differences of times mod 2^TimeWidth, as 32-bit record fields: saturated at 2^32 - 1 when
  // the count is wider, zero-extended when narrower.
  assign disp_diff = job_t_disp_i - job_t_sub_i;
  assign now_diff  = now_i - stage_q.t_sub;
  if (TimeWidth > 32) begin : g_sat
    assign disp_delay  = (|disp_diff[TimeWidth-1:32]) ? '1 : disp_diff[31:0];
    assign total_delay = (|now_diff[TimeWidth-1:32]) ? '1 : now_diff[31:0];
  end else begin : g_ext
    assign disp_delay  = 32'(disp_diff);
    assign total_delay = 32'(now_diff);
  end

  assign req_valid_o = stage_valid_q && fifo_ready;
  assign req_fire    = req_valid_o && req_ready_i;
  assign job_ready_o = !stage_valid_q || req_fire;
  assign job_fire    = job_valid_i && job_ready_o;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      stage_valid_q <= 1'b0;
    end else if (job_fire) begin
      stage_valid_q <= 1'b1;
    end else if (req_fire) begin
      stage_valid_q <= 1'b0;
    end
  end

  // The stage loads only at a job handshake, so the offered request stays still while the
  // DMA stalls. issue_delay of a dispatched op does not depend on t_cpl: computed here.
  always_ff @(posedge clk_i) begin
    if (job_fire) begin
      stage_q <= '{
        slot:        job_slot_i,
        status:      job_status_i,
        op_type:     job_op_type_i,
        seq:         job_seq_i,
        t_sub:       job_t_sub_i,
        dispatched:  job_dispatched_i,
        issue_delay: disp_delay,
        cq_addr:     job_cq_addr_i,
        cq_region:   job_cq_region_i,
        cq_gen:      job_cq_gen_i
      };
    end
  end

  assign req_addr_o   = stage_q.cq_addr;
  assign req_len_o    = 13'(CplTBits / 8);
  assign req_region_o = stage_q.cq_region;
  assign req_gen_o    = stage_q.cq_gen;
  assign req_perm_o   = PermLocalWrite;
  assign req_tag_o    = TagWidth'(stage_q.slot);

  // The record, as of this cycle (pushed at the request handshake: t_cpl = now).
  assign rec = '{
    valid:       8'd1,
    status:      stage_q.status,
    op_type:     stage_q.op_type,
    rsvd0:       '0,
    slot:        16'(stage_q.slot),
    seq:         stage_q.seq,
    issue_delay: stage_q.dispatched ? stage_q.issue_delay : total_delay,
    total_delay: total_delay
  };

  onerma_fifo #(
    .Depth(Depth),
    .T    (cpl_t)
  ) u_data (
    .clk_i,
    .rst_ni,
    .flush_i    (1'b0),
    .in_valid_i (req_fire),
    .in_ready_o (fifo_ready),
    .in_data_i  (rec),
    .out_valid_o(wd_valid_o),
    .out_ready_i(wd_ready_i),
    .out_data_o (fifo_out),
    /* verilator lint_off PINCONNECTEMPTY */
    .count_o    ()
    /* verilator lint_on PINCONNECTEMPTY */
  );

  // AXI lane order: record byte i (the layout's big-endian byte order) in lane i.
  for (genvar i = 0; i < CplTBits / 8; i++) begin : g_lanes
    assign wd_data_o[8*i +: 8] = fifo_out[CplTBits-1-8*i -: 8];
  end
  if (DataWidth > CplTBits) begin : g_zero
    assign wd_data_o[DataWidth-1:CplTBits] = '0;
  end
  assign wd_last_o = 1'b1;

  // Responses pass through: one per request, in request order, tag = slot.
  assign done_valid_o   = rsp_valid_i;
  assign rsp_ready_o    = done_ready_i;
  assign done_slot_o    = rsp_tag_i[SlotWidth-1:0];
  assign done_ok_o      = rsp_status_i == DmaStatusOk;
  assign err_cq_write_o = rsp_valid_i && done_ready_i && rsp_status_i != DmaStatusOk;

  if (TagWidth > SlotWidth) begin : g_tag_hi
    // Tags above the slot bits are 0 on every request this block makes.
    logic unused_tag;
    assign unused_tag = ^rsp_tag_i[TagWidth-1:SlotWidth];
  end

endmodule

`default_nettype wire
