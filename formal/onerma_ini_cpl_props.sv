`default_nettype none

// Properties of onerma_ini_cpl. Counters of jobs, requests and data beats show that every job
// yields exactly one request and then exactly one data beat, in job order, and that the block
// offers whenever something is owed. One job (picked by a free input at its handshake) is
// followed: its request carries its fields, and its data beat, the n-th after its request when
// n beats were owed then, is the §11 record of the job with total_delay = now at the request
// handshake - t_sub, in AXI lane order (each field read back from its bytes, big-endian as
// spec/layouts.json lays out cpl). One slot `s` (a symbolic constant) is counted: records of it
// in flight by jobs, and by request tags; a done for `s` only while one is in flight.
`ifdef FORMAL
module onerma_ini_cpl_props #(
  parameter int unsigned NumSlots    = 4,
  parameter int unsigned TimeWidth   = 8,
  parameter int unsigned DataWidth   = 128,
  parameter int unsigned AddrWidth   = 64,
  parameter int unsigned RrtIdxWidth = 16,
  parameter int unsigned TagWidth    = 2,
  parameter int unsigned Depth       = 2,
  parameter int unsigned SlotWidth   = (NumSlots > 1) ? $clog2(NumSlots) : 1
) (
  input logic                       clk_i,
  input logic                       rst_ni,
  input logic [TimeWidth-1:0]       now_i,
  input logic                       job_valid_i,
  input logic                       job_ready_o,
  input logic [SlotWidth-1:0]       job_slot_i,
  input onerma_pkg::status_e        job_status_i,
  input logic [7:0]                 job_op_type_i,
  input logic [15:0]                job_seq_i,
  input logic [TimeWidth-1:0]       job_t_sub_i,
  input logic [TimeWidth-1:0]       job_t_disp_i,
  input logic                       job_dispatched_i,
  input logic [AddrWidth-1:0]       job_cq_addr_i,
  input logic [RrtIdxWidth-1:0]     job_cq_region_i,
  input logic [15:0]                job_cq_gen_i,
  input logic                       req_valid_o,
  input logic                       req_ready_i,
  input logic [AddrWidth-1:0]       req_addr_o,
  input logic [12:0]                req_len_o,
  input logic [RrtIdxWidth-1:0]     req_region_o,
  input logic [15:0]                req_gen_o,
  input logic [4:0]                 req_perm_o,
  input logic [TagWidth-1:0]        req_tag_o,
  input logic                       wd_valid_o,
  input logic                       wd_ready_i,
  input logic [DataWidth-1:0]       wd_data_o,
  input logic                       wd_last_o,
  input logic                       rsp_valid_i,
  input logic                       rsp_ready_o,
  input logic [TagWidth-1:0]        rsp_tag_i,
  input onerma_pkg::dma_status_e    rsp_status_i,
  input logic                       done_valid_o,
  input logic                       done_ready_i,
  input logic [SlotWidth-1:0]       done_slot_o,
  input logic                       done_ok_o,
  input logic                       err_cq_write_o,
  input logic                       stage_valid_q
);
  import onerma_pkg::*;

  localparam int unsigned CW = $clog2(Depth + 1) + 1;
  localparam int unsigned PW = (Depth > 1) ? $clog2(Depth) : 1;

  logic [SlotWidth-1:0] s;
  always_ff @(posedge clk_i) s <= s;
  always_comb assume (32'(s) < NumSlots);

  // Free each cycle: which job is followed.
  logic pick;

  logic past_valid_q = 1'b0;
  always_ff @(posedge clk_i) past_valid_q <= 1'b1;
  always_comb if (!past_valid_q) assume (!rst_ni);

  // ---- Stream rules: assumed on the job and response inputs, asserted on the outputs.
  onerma_stream_check #(
    .Width(SlotWidth + 8 + 8 + 16 + 2 * TimeWidth + 1 + AddrWidth + RrtIdxWidth + 16),
    .Assume(1'b1)
  ) u_job (
    .clk_i, .rst_ni, .valid_i(job_valid_i), .ready_i(job_ready_o),
    .data_i({job_slot_i, job_status_i, job_op_type_i, job_seq_i, job_t_sub_i, job_t_disp_i,
             job_dispatched_i, job_cq_addr_i, job_cq_region_i, job_cq_gen_i}));
  onerma_stream_check #(.Width(TagWidth + 2), .Assume(1'b1)) u_rsp (
    .clk_i, .rst_ni, .valid_i(rsp_valid_i), .ready_i(rsp_ready_o),
    .data_i({rsp_tag_i, rsp_status_i}));
  onerma_stream_check #(
    .Width(AddrWidth + 13 + RrtIdxWidth + 16 + 5 + TagWidth),
    .Assume(1'b0)
  ) u_req (
    .clk_i, .rst_ni, .valid_i(req_valid_o), .ready_i(req_ready_i),
    .data_i({req_addr_o, req_len_o, req_region_o, req_gen_o, req_perm_o, req_tag_o}));
  onerma_stream_check #(.Width(DataWidth + 1), .Assume(1'b0)) u_wd (
    .clk_i, .rst_ni, .valid_i(wd_valid_o), .ready_i(wd_ready_i),
    .data_i({wd_data_o, wd_last_o}));
  onerma_stream_check #(.Width(SlotWidth + 1), .Assume(1'b0)) u_done (
    .clk_i, .rst_ni, .valid_i(done_valid_o), .ready_i(done_ready_i),
    .data_i({done_slot_o, done_ok_o}));

  logic job_fire, req_fire, wd_fire, rsp_fire, done_fire;
  assign job_fire  = job_valid_i && job_ready_o;
  assign req_fire  = req_valid_o && req_ready_i;
  assign wd_fire   = wd_valid_o && wd_ready_i;
  assign rsp_fire  = rsp_valid_i && rsp_ready_o;
  assign done_fire = done_valid_o && done_ready_i;

  // The record's 32-bit delay of a time difference mod 2^TimeWidth (§11: saturating).
  function automatic logic [31:0] delay(input logic [TimeWidth-1:0] a, input logic [TimeWidth-1:0] b);
    logic [TimeWidth-1:0] d;
    d = a - b;
    if (TimeWidth > 32) return (64'(d) > 64'hffff_ffff) ? 32'hffff_ffff : 32'(d);
    else return 32'(d);
  endfunction

  // Bytes off .. off + n - 1 of a beat in lane order, read as a big-endian number.
  function automatic logic [31:0] be(input logic [DataWidth-1:0] d, input int off, input int n);
    logic [31:0] v;
    v = '0;
    for (int k = 0; k < n; k++) v = (v << 8) | 32'(d[8*(off+k) +: 8]);
    return v;
  endfunction

  // ---- Counts: jobs owed a request, requests owed a data beat.
  logic [1:0]    jr_q;
  logic [CW-1:0] rd_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      jr_q <= '0;
      rd_q <= '0;
    end else begin
      jr_q <= jr_q + 2'(job_fire) - 2'(req_fire);
      rd_q <= rd_q + CW'(req_fire) - CW'(wd_fire);
    end
  end

  always_comb if (rst_ni) begin
    // A request only for a job owed one, a beat only for a request owed one.
    if (req_fire) assert (jr_q != '0);
    if (wd_fire) assert (rd_q != '0);
    assert (jr_q <= 2'd1);
    assert (32'(rd_q) <= Depth);
    // Offered whenever owed (the request while the data FIFO has room).
    assert (req_valid_o == (jr_q != '0 && 32'(rd_q) < Depth));
    assert (wd_valid_o == (rd_q != '0));
    // Every request is a record write with one beat: 16 bytes, local write permission only,
    // the slot as tag; the beat holds nothing past the record.
    if (req_valid_o) begin
      assert (req_len_o == 13'd16);
      assert (req_perm_o == 5'b00001);
      if (TagWidth > SlotWidth) assert ((req_tag_o >> SlotWidth) == '0);
    end
    if (wd_valid_o) begin
      assert (wd_last_o);
      if (DataWidth > 128) assert ((wd_data_o >> 128) == '0);
    end
  end

  // ---- The followed job.
  typedef enum logic [1:0] {TrkNone, TrkStage, TrkFifo, TrkGone} trk_e;
  trk_e                 trk_q;
  logic [PW-1:0]        pos_q;   // data beats owed before the followed one's
  logic [SlotWidth-1:0] sh_slot_q;
  status_e              sh_status_q;
  logic [7:0]           sh_op_type_q;
  logic [15:0]          sh_seq_q;
  logic [TimeWidth-1:0] sh_t_sub_q, sh_t_disp_q;
  logic                 sh_disp_q;
  logic [AddrWidth-1:0] sh_addr_q;
  logic [RrtIdxWidth-1:0] sh_region_q;
  logic [15:0]          sh_gen_q;
  logic [31:0]          want_issue_q, want_total_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      trk_q <= TrkNone;
      pos_q <= '0;
    end else begin
      unique case (trk_q)
        TrkNone:  if (job_fire && pick) trk_q <= TrkStage;
        TrkStage: if (req_fire) begin
          trk_q <= TrkFifo;
          pos_q <= PW'(rd_q - CW'(wd_fire));
        end
        TrkFifo:  if (wd_fire) begin
          if (pos_q == '0) trk_q <= TrkGone;
          else pos_q <= pos_q - 1'b1;
        end
        default: ;
      endcase
    end
  end
  always_ff @(posedge clk_i) begin
    if (trk_q == TrkNone && job_fire && pick) begin
      sh_slot_q    <= job_slot_i;
      sh_status_q  <= job_status_i;
      sh_op_type_q <= job_op_type_i;
      sh_seq_q     <= job_seq_i;
      sh_t_sub_q   <= job_t_sub_i;
      sh_t_disp_q  <= job_t_disp_i;
      sh_disp_q    <= job_dispatched_i;
      sh_addr_q    <= job_cq_addr_i;
      sh_region_q  <= job_cq_region_i;
      sh_gen_q     <= job_cq_gen_i;
    end
    // t_cpl: the request handshake.
    if (trk_q == TrkStage && req_fire) begin
      want_total_q <= delay(now_i, sh_t_sub_q);
      want_issue_q <= sh_disp_q ? delay(sh_t_disp_q, sh_t_sub_q) : delay(now_i, sh_t_sub_q);
    end
  end

  always_comb if (rst_ni) begin
    // Its request is the next one, with its fields.
    if (trk_q == TrkStage && req_valid_o) begin
      assert (req_addr_o == sh_addr_q);
      assert (req_region_o == sh_region_q);
      assert (req_gen_o == sh_gen_q);
      assert (req_tag_o == TagWidth'(sh_slot_q));
    end
    // Its data beat is the pos-th after its request: the record.
    if (trk_q == TrkFifo && pos_q == '0 && wd_valid_o) begin
      assert (be(wd_data_o, 0, 1) == 32'd1);
      assert (be(wd_data_o, 1, 1) == 32'(sh_status_q));
      assert (be(wd_data_o, 2, 1) == 32'(sh_op_type_q));
      assert (be(wd_data_o, 3, 1) == 32'd0);
      assert (be(wd_data_o, 4, 2) == 32'(sh_slot_q));
      assert (be(wd_data_o, 6, 2) == 32'(sh_seq_q));
      assert (be(wd_data_o, 8, 4) == want_issue_q);
      assert (be(wd_data_o, 12, 4) == want_total_q);
    end
  end

  // ---- Slot s: records in flight counted by jobs (until done) and by request tags (until a
  // response). The DMA answers only requests it took (assumed with the tag count).
  localparam int unsigned NW = 4;
  logic [NW-1:0] jcnt_q, tcnt_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      jcnt_q <= '0;
      tcnt_q <= '0;
    end else begin
      jcnt_q <= jcnt_q + NW'(job_fire && job_slot_i == s) - NW'(done_fire && done_slot_o == s);
      tcnt_q <= tcnt_q + NW'(req_fire && req_tag_o == TagWidth'(s))
                       - NW'(rsp_fire && rsp_tag_i == TagWidth'(s));
    end
  end
  always_comb begin
    assume (32'(job_slot_i) < NumSlots);
    if (rsp_valid_i) begin
      if (TagWidth > SlotWidth) assume ((rsp_tag_i >> SlotWidth) == '0);
      if (rsp_tag_i == TagWidth'(s)) assume (tcnt_q != '0);
    end
    // At most 2^NW - 1 records of s in flight (the op table has at most one).
    if (job_valid_i && job_slot_i == s) assume (jcnt_q != '1);
  end
  always_comb if (rst_ni) begin
    if (done_valid_o && done_slot_o == s) assert (jcnt_q != '0);
    assert (done_valid_o == rsp_valid_i && rsp_ready_o == done_ready_i);
    if (done_valid_o) begin
      assert (TagWidth'(done_slot_o) == rsp_tag_i);
      assert (done_ok_o == (rsp_status_i == DmaStatusOk));
    end
    assert (err_cq_write_o == (done_fire && !done_ok_o));
  end

  // ---- Induction invariants: the counts are the stage and the data FIFO; the followed job is
  // in the stage or at its place in the FIFO.
  logic [PW-1:0] at;
  cpl_t          want_rec;
  assign want_rec = '{
    valid:       8'd1,
    status:      sh_status_q,
    op_type:     sh_op_type_q,
    rsvd0:       8'd0,
    slot:        16'(sh_slot_q),
    seq:         sh_seq_q,
    issue_delay: want_issue_q,
    total_delay: want_total_q
  };
  assign at = PW'((32'(onerma_ini_cpl.u_data.rptr_q) + 32'(pos_q)) % Depth);
  always_comb if (rst_ni) begin
    assert (jr_q == 2'(stage_valid_q));
    assert (32'(rd_q) == 32'(onerma_ini_cpl.u_data.count_q));
    assert (32'(onerma_ini_cpl.u_data.rptr_q) < Depth);
    assert (32'(onerma_ini_cpl.u_data.wptr_q) < Depth);
    assert (32'(onerma_ini_cpl.u_data.wptr_q) ==
            (32'(onerma_ini_cpl.u_data.rptr_q) + 32'(rd_q)) % Depth);
    assert ((NW + 1)'(jcnt_q) ==
            (NW + 1)'(tcnt_q) + (NW + 1)'(stage_valid_q && onerma_ini_cpl.stage_q.slot == s));
    if (trk_q == TrkStage) begin
      assert (stage_valid_q);
      assert (onerma_ini_cpl.stage_q.slot == sh_slot_q);
      assert (onerma_ini_cpl.stage_q.status == sh_status_q);
      assert (onerma_ini_cpl.stage_q.op_type == sh_op_type_q);
      assert (onerma_ini_cpl.stage_q.seq == sh_seq_q);
      assert (onerma_ini_cpl.stage_q.t_sub == sh_t_sub_q);
      assert (onerma_ini_cpl.stage_q.dispatched == sh_disp_q);
      if (sh_disp_q) assert (onerma_ini_cpl.stage_q.issue_delay == delay(sh_t_disp_q, sh_t_sub_q));
      assert (onerma_ini_cpl.stage_q.cq_addr == sh_addr_q);
      assert (onerma_ini_cpl.stage_q.cq_region == sh_region_q);
      assert (onerma_ini_cpl.stage_q.cq_gen == sh_gen_q);
    end
    if (trk_q == TrkFifo) begin
      assert (32'(pos_q) < 32'(rd_q));
      assert (onerma_ini_cpl.u_data.mem_q[at] == want_rec);
    end
  end

  // ---- Cover: back-to-back records, one of an op never dispatched, one failed write.
  logic b2b_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) b2b_q <= 1'b0;
    else b2b_q <= req_fire;
  end
  always_comb if (rst_ni) begin
    cover (trk_q == TrkFifo && pos_q == '0 && wd_fire && !sh_disp_q && b2b_q && req_fire);
    cover (done_fire && done_slot_o == s && !done_ok_o);
  end

endmodule

bind onerma_ini_cpl onerma_ini_cpl_props #(
  .NumSlots   (NumSlots),
  .TimeWidth  (TimeWidth),
  .DataWidth  (DataWidth),
  .AddrWidth  (AddrWidth),
  .RrtIdxWidth(RrtIdxWidth),
  .TagWidth   (TagWidth),
  .Depth      (Depth)
) u_props (.*);
`endif

`default_nettype wire
