`default_nettype none

/// The responder's request checks (docs/protocol.md §7.2, docs/nic.md "Request checks"): every
/// hop-1 request (RD_REQ, WR_REQ, REKEY_REQ) the receive edge forwards is looked up in the RRT,
/// its K_d derived from the region key, its tag verified, and then either answered (AUTH_FAIL
/// under the reserved key, ACCESS_ERR or NACK under K_d) or enqueued for service.
///
/// Up to `InFlight` requests are between admission and the end of their reply: each holds a
/// credit from admission until it is enqueued or its reply leaves, so the reply FIFO never
/// overflows and the opener's results are always taken (the GCM sharing contract: a client
/// never stalls the pool's outputs). Lookups are one at a time; derivations and tag checks
/// overlap, and results may come back in any order (the table index rides as the job meta):
/// a result is recorded in its row, and the decisions (reply or enqueue) are taken in
/// admission order, one per cycle, so the inbound queue holds requests in arrival order
/// (protocol §9) however the engines finish.
module onerma_rsp_req #(
  parameter int unsigned NumRegions = 256,
  parameter int unsigned TimeWidth  = 32,
  /// Requests between admission and their end (reply taken or enqueued), >= 2.
  parameter int unsigned InFlight   = 4,
  /// Width of the inbound queues' occupancy count.
  parameter int unsigned CntW       = 6,
  // Derived, do not override.
  parameter int unsigned IdxW       = (InFlight > 1) ? $clog2(InFlight) : 1
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,

  input  logic [15:0]          nack_depth_i,

  // Hop-1 requests from the receive edge (no payload).
  input  logic                 req_valid_i,
  output logic                 req_ready_o,
  input  onerma_pkg::hdr_t     req_hdr_i,
  input  logic [127:0]         req_tag_i,
  input  logic [TimeWidth-1:0] req_t_rx_i,

  // RRT lookup port (the entry comes back the next cycle and is held until the next lookup).
  output logic                 rrt_valid_o,
  output logic [15:0]          rrt_idx_o,
  input  onerma_pkg::rrt_entry_t rrt_entry_i,
  input  logic [15:0]          rrt_gen_i,
  input  logic [7:0]           rrt_key_gen_i,

  // K_d derivations (onerma_kd_unit: in order, meta returned with K_d).
  output logic                 kd_valid_o,
  input  logic                 kd_ready_i,
  output logic [127:0]         kd_kr_o,
  output logic [31:0]          kd_nic_o,
  output logic [31:0]          kd_pid_o,
  output onerma_pkg::op_type_e kd_op_o,
  output logic [IdxW-1:0]      kd_meta_o,
  input  logic                 kd_res_valid_i,
  output logic                 kd_res_ready_o,
  input  logic [127:0]         kd_res_i,
  input  logic [IdxW-1:0]      kd_res_meta_i,

  // Tag check jobs to a receive opener (no payload) and their results.
  output logic                 job_valid_o,
  input  logic                 job_ready_i,
  output onerma_pkg::hdr_t     job_hdr_o,
  output logic [127:0]         job_tag_o,
  output logic [127:0]         job_key_o,
  output logic [IdxW-1:0]      job_meta_o,
  input  logic                 res_valid_i,
  output logic                 res_ready_o,
  input  logic                 res_auth_ok_i,
  input  logic [IdxW-1:0]      res_meta_i,

  // Enqueue (§7.2 step 5) into onerma_rsp_queue. Offered only when `q_ready_i` is high.
  input  logic [CntW-1:0]      q_count_i,
  output logic                 q_valid_o,
  input  logic                 q_ready_i,
  output logic                 q_wr_o,
  output onerma_pkg::hdr_t     q_hdr_o,
  output logic [127:0]         q_kd_o,
  output logic [63:0]          q_base_o,
  output logic [15:0]          q_gen_o,
  output logic [7:0]           q_key_gen_o,
  output logic [TimeWidth-1:0] q_time_o,

  // Replies of steps 1-4 to the sealer (no payload).
  output logic                 rep_valid_o,
  input  logic                 rep_ready_i,
  output onerma_pkg::hdr_t     rep_hdr_o,
  output logic [127:0]         rep_key_o,

  // Counter pulses (protocol §12).
  output logic                 auth_fail_o,
  output logic                 access_err_o,
  output logic                 nacked_o
);

  import onerma_pkg::*;

  localparam int unsigned MaxOp  = 4096;
  localparam int unsigned RekeyL = 16;
  localparam int unsigned OutW   = $clog2(InFlight + 1);

  typedef struct packed {
    hdr_t                 hdr;
    logic [127:0]         tag;
    logic [TimeWidth-1:0] t_rx;
    logic [127:0]         kd;
    logic [63:0]          base;
    logic [15:0]          gen;
    logic [7:0]           key_gen;
    logic                 access_ok;
  } slot_t;

  typedef struct packed {
    hdr_t         hdr;
    logic [127:0] key;
  } rep_t;

  slot_t [InFlight-1:0] tab_q;
  logic  [InFlight-1:0] used_q;
  // A row's outcome is in (done_q); ok_q: its tag verified. The early AUTH_FAIL records a failed
  // tag: both are the same decision (AUTH_FAIL under the reserved key).
  logic  [InFlight-1:0] done_q, ok_q;
  logic  [OutW-1:0]     out_q;     // credits taken: admitted, not yet enqueued or replied

  // ---------------------------------------------------------------------------------------
  // Admission and lookup.
  // ---------------------------------------------------------------------------------------
  logic            adm, l_valid_q, l_oor_q;
  logic [IdxW-1:0] free_idx, l_idx_q;
  logic            free_any;

  always_comb begin
    free_any = 1'b0;
    free_idx = '0;
    for (int i = InFlight - 1; i >= 0; i--) begin
      if (!used_q[i]) begin
        free_any = 1'b1;
        free_idx = IdxW'(i);
      end
    end
  end

  // A credit implies a free table entry (entries in use <= credits taken); `free_any` is
  // kept in the term so the allocation never depends on that argument.
  assign req_ready_o = !l_valid_q && (32'(out_q) < InFlight) && free_any;
  assign adm         = req_valid_i && req_ready_o;
  assign rrt_valid_o = adm;
  assign rrt_idx_o   = req_hdr_i.region;

  // Stage L: the entry is on the port; step 1 (region valid), then the derivation.
  slot_t   l_s;
  op_type_e l_op;
  logic    l_entry_ok, l_perm, l_len_ok, l_bounds_ok, l_af, l_kd_fire;
  logic    kd_in_ready;
  logic [64:0] l_end;

  assign l_s   = tab_q[l_idx_q];
  assign l_op  = op_type_e'(l_s.hdr.op_type);
  assign l_end = {1'b0, l_s.hdr.offset} + 65'(l_s.hdr.length);

  always_comb begin
    unique case (l_op)
      OpTypeRead:  begin l_perm = rrt_entry_i.perm_remote_read;  l_len_ok = 1'b1; end
      OpTypeWrite: begin l_perm = rrt_entry_i.perm_remote_write; l_len_ok = 1'b1; end
      OpTypeRekey: begin
        l_perm   = rrt_entry_i.perm_remote_rekey;
        l_len_ok = (32'(l_s.hdr.length) == RekeyL) && (l_s.hdr.offset == '0);
      end
      default:     begin l_perm = 1'b0; l_len_ok = 1'b0; end
    endcase
  end

  logic l_len_ok_op;
  assign l_len_ok_op = (l_s.hdr.length != '0) && (32'(l_s.hdr.length) <= MaxOp);
  assign l_bounds_ok = (l_end <= {1'b0, rrt_entry_i.size});
  assign l_entry_ok  = !l_oor_q && rrt_entry_i.valid;

  // The early AUTH_FAIL (no key to derive) is recorded in the row; its reply is sent in order.
  assign l_af      = l_valid_q && !l_entry_ok;
  assign l_kd_fire = l_valid_q && l_entry_ok && kd_in_ready;

  // ---------------------------------------------------------------------------------------
  // K_d derivation, then the tag check job.
  // ---------------------------------------------------------------------------------------
  logic            kd_out_valid, kd_out_ready;
  logic [127:0]    kd_out;
  logic [IdxW-1:0] kd_out_idx;

  assign kd_valid_o     = l_valid_q && l_entry_ok;
  assign kd_in_ready    = kd_ready_i;
  assign kd_kr_o        = rrt_entry_i.key;
  assign kd_nic_o       = l_s.hdr.src_nic;
  assign kd_pid_o       = l_s.hdr.pid;
  assign kd_op_o        = l_op;
  assign kd_meta_o      = l_idx_q;
  assign kd_out_valid   = kd_res_valid_i;
  assign kd_res_ready_o = kd_out_ready;
  assign kd_out         = kd_res_i;
  assign kd_out_idx     = kd_res_meta_i;

  assign job_valid_o  = kd_out_valid;
  assign kd_out_ready = job_ready_i;
  assign job_hdr_o    = tab_q[kd_out_idx].hdr;
  assign job_tag_o    = tab_q[kd_out_idx].tag;
  assign job_key_o    = kd_out;
  assign job_meta_o   = kd_out_idx;

  // ---------------------------------------------------------------------------------------
  // The decision, in admission order: steps 2-5 for the oldest row once its outcome is in.
  // ---------------------------------------------------------------------------------------
  slot_t           r_s;
  logic            r_fire, r_auth, r_acc, r_nack, r_enq, r_rep;
  logic            ord_valid;
  logic [IdxW-1:0] ord_idx;

  // Rows in admission order. Every row in use is in it, so it is never full at an admission.
  /* verilator lint_off PINCONNECTEMPTY */
  onerma_fifo #(.Depth(InFlight), .T(logic [IdxW-1:0])) u_ord (
    .clk_i, .rst_ni,
    .flush_i    (1'b0),
    .in_valid_i (adm),
    .in_ready_o (),
    .in_data_i  (free_idx),
    .out_valid_o(ord_valid),
    .out_ready_i(r_fire),
    .out_data_o (ord_idx),
    .count_o    ()
  );
  /* verilator lint_on PINCONNECTEMPTY */

  // The opener's results are always taken (the GCM sharing contract) and recorded.
  assign res_ready_o = 1'b1;
  // A decision is never held: its reply has a FIFO entry by the credits, and the enqueue is
  // offered only with the queue's ready (a full queue NACKs).
  assign r_fire = ord_valid && done_q[ord_idx];
  assign r_s    = tab_q[ord_idx];
  assign r_auth = r_fire && !ok_q[ord_idx];
  assign r_acc  = r_fire && !r_auth && !r_s.access_ok;
  assign r_nack = r_fire && !r_auth && r_s.access_ok &&
                  ((32'(q_count_i) >= 32'(nack_depth_i)) || !q_ready_i);
  assign r_enq  = r_fire && !r_auth && r_s.access_ok && !r_nack;
  assign r_rep  = r_auth || r_acc || r_nack;

  assign q_valid_o   = r_enq;
  assign q_wr_o      = (op_type_e'(r_s.hdr.op_type) != OpTypeRead);
  assign q_hdr_o     = r_s.hdr;
  assign q_kd_o      = r_s.kd;
  assign q_base_o    = r_s.base;
  assign q_gen_o     = r_s.gen;
  assign q_key_gen_o = r_s.key_gen;
  assign q_time_o    = r_s.t_rx;

  // ---------------------------------------------------------------------------------------
  // Replies: echo the request (§7.2), status by kind, K_d or the reserved key.
  // ---------------------------------------------------------------------------------------
  rep_t     rep_in, rep_out;
  logic [$clog2(InFlight + 1)-1:0] rep_count;
  hdr_t     rep_req;
  msg_type_e rep_msg;
  status_e  rep_status;
  logic     rep_push, rep_in_ready;

  assign rep_push = r_rep;
  assign rep_req  = r_s.hdr;

  always_comb begin
    if (r_auth) begin
      rep_msg    = MsgTypeAuthFail;
      rep_status = StatusRemoteAuthenticationFailure;
    end else if (r_acc) begin
      rep_msg    = MsgTypeAccessErr;
      rep_status = StatusRemoteAccessError;
    end else begin
      rep_msg    = MsgTypeNack;
      rep_status = StatusNack;
    end
  end

  always_comb begin
    rep_in.hdr              = rep_req;
    rep_in.hdr.msg_type     = rep_msg;
    rep_in.hdr.status       = rep_status;
    rep_in.hdr.src_nic      = '0;   // the sealer's
    rep_in.hdr.counter      = '0;   // the sealer's
    rep_in.hdr.dst_nic      = rep_req.src_nic;
    rep_in.hdr.prev_counter = rep_req.counter;
    rep_in.key              = r_auth ? '0 : r_s.kd;
  end

  onerma_fifo #(.Depth(InFlight), .T(rep_t)) u_rep (
    .clk_i, .rst_ni,
    .flush_i    (1'b0),
    .in_valid_i (rep_push),
    .in_ready_o (rep_in_ready),
    .in_data_i  (rep_in),
    .out_valid_o(rep_valid_o),
    .out_ready_i(rep_ready_i),
    .out_data_o (rep_out),
    .count_o    (rep_count)
  );

  assign rep_hdr_o = rep_out.hdr;
  assign rep_key_o = rep_out.key;

  assign auth_fail_o  = r_auth;
  assign access_err_o = r_acc;
  assign nacked_o     = r_nack;

  // ---------------------------------------------------------------------------------------
  // State.
  // ---------------------------------------------------------------------------------------
  logic rep_pop;
  assign rep_pop = rep_valid_o && rep_ready_i;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      used_q    <= '0;
      out_q     <= '0;
      l_valid_q <= 1'b0;
      l_oor_q   <= 1'b0;
      l_idx_q   <= '0;
    end else begin
      out_q <= out_q + OutW'(adm) - OutW'(r_enq) - OutW'(rep_pop);
      if (adm) begin
        used_q[free_idx] <= 1'b1;
        l_valid_q        <= 1'b1;
        l_idx_q          <= free_idx;
        l_oor_q          <= (32'(req_hdr_i.region) >= NumRegions);
      end else if (l_af || l_kd_fire) begin
        l_valid_q <= 1'b0;
      end
      if (r_fire) used_q[ord_idx] <= 1'b0;
    end
  end

  // A row's outcome: set by its early AUTH_FAIL or its tag result, cleared at its decision
  // (a row is admitted again only after that).
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      done_q <= '0;
    end else begin
      if (r_fire) done_q[ord_idx] <= 1'b0;
      if (l_af) done_q[l_idx_q] <= 1'b1;
      if (res_valid_i) done_q[res_meta_i] <= 1'b1;
    end
  end

  always_ff @(posedge clk_i) begin
    if (l_af) ok_q[l_idx_q] <= 1'b0;
    if (res_valid_i) ok_q[res_meta_i] <= res_auth_ok_i;
  end

  always_ff @(posedge clk_i) begin
    if (adm) begin
      tab_q[free_idx].hdr  <= req_hdr_i;
      tab_q[free_idx].tag  <= req_tag_i;
      tab_q[free_idx].t_rx <= req_t_rx_i;
    end
    if (l_kd_fire) begin
      tab_q[l_idx_q].base      <= rrt_entry_i.base_addr;
      tab_q[l_idx_q].gen       <= rrt_gen_i;
      tab_q[l_idx_q].key_gen   <= rrt_key_gen_i;
      tab_q[l_idx_q].access_ok <= l_perm && l_len_ok && l_len_ok_op && l_bounds_ok;
    end
    if (job_valid_o && job_ready_i) begin
      tab_q[kd_out_idx].kd <= kd_out;
    end
  end

`ifndef SYNTHESIS
  // Credits guarantee these; a failure is a design error, not an input the block may see.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (rst_ni) begin
      assert (!(rep_push && !rep_in_ready)) else $error("onerma_rsp_req: reply FIFO overflow");
      assert (!(res_valid_i && !used_q[res_meta_i]))
        else $error("onerma_rsp_req: result of a free entry");
    end
  end
`endif

  logic unused;
  // The table's fields each stage does not read.
  assign unused = ^{rep_in_ready, rep_count, l_s, r_s, rrt_entry_i.perm_local_read, rrt_entry_i.perm_local_write,
                    rrt_entry_i.rsvd0, rrt_entry_i.owner_pid};

endmodule

`default_nettype wire
