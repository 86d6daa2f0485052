`default_nettype none

// Properties of onerma_rsp_req (docs/nic.md "Request checks").
//
// Environment (assumed): stream rules on the requests and on the K_d results; a K_d result only
// for an index whose derivation was issued and has not returned (any order: the block does not
// rely on the unit's order); a tag result only for an index whose job was sent and has not
// returned; the RRT port holds its entry until the next lookup (onerma_rrt's port contract).
//
// Asserted: every table index is in exactly one stage (lookup, derivation, tag check, outcome
// recorded) iff it is in use; the credits equal the indices in use plus the replies queued and
// never exceed InFlight, so the reply FIFO never overflows; decisions come in admission order
// (the n-th decision is the n-th admitted request, by a ghost sequence number taken at
// admission), each after its outcome: the early AUTH_FAIL of an invalid or out-of-range
// region, or the tag result (ghost copy of auth_ok); the enqueue and every reply carry the
// request admitted into that index (ghost copies taken at admission, and the K_d returned for
// it), a reply echoes it with `dst_nic = src_nic`, `prev_counter = counter`, the status of its
// kind and the reserved key exactly for AUTH_FAIL; at a decision for a request that verified
// and passed the access rules, NACK iff the queue count is at or above `nack_depth` (or the
// queue cannot take it), else the enqueue (offered only with the queue's ready); one counter
// pulse per decision; the stream rules of the K_d requests, the tag jobs and the replies.
`ifdef FORMAL
module onerma_rsp_req_props #(
  parameter int unsigned NumRegions = 256,
  parameter int unsigned TimeWidth  = 32,
  parameter int unsigned InFlight   = 4,
  parameter int unsigned CntW       = 6,
  parameter int unsigned IdxW       = (InFlight > 1) ? $clog2(InFlight) : 1
) (
  input logic                   clk_i,
  input logic                   rst_ni,
  input logic [15:0]            nack_depth_i,
  input logic                   req_valid_i,
  input logic                   req_ready_o,
  input onerma_pkg::hdr_t       req_hdr_i,
  input logic [127:0]           req_tag_i,
  input logic [TimeWidth-1:0]   req_t_rx_i,
  input logic                   rrt_valid_o,
  input logic [15:0]            rrt_idx_o,
  input onerma_pkg::rrt_entry_t rrt_entry_i,
  input logic [15:0]            rrt_gen_i,
  input logic [7:0]             rrt_key_gen_i,
  input logic                   kd_valid_o,
  input logic                   kd_ready_i,
  input logic [127:0]           kd_kr_o,
  input logic [31:0]            kd_nic_o,
  input logic [31:0]            kd_pid_o,
  input onerma_pkg::op_type_e   kd_op_o,
  input logic [IdxW-1:0]        kd_meta_o,
  input logic                   kd_res_valid_i,
  input logic                   kd_res_ready_o,
  input logic [127:0]           kd_res_i,
  input logic [IdxW-1:0]        kd_res_meta_i,
  input logic                   job_valid_o,
  input logic                   job_ready_i,
  input onerma_pkg::hdr_t       job_hdr_o,
  input logic [127:0]           job_tag_o,
  input logic [127:0]           job_key_o,
  input logic [IdxW-1:0]        job_meta_o,
  input logic                   res_valid_i,
  input logic                   res_ready_o,
  input logic                   res_auth_ok_i,
  input logic [IdxW-1:0]        res_meta_i,
  input logic [CntW-1:0]        q_count_i,
  input logic                   q_valid_o,
  input logic                   q_ready_i,
  input logic                   q_wr_o,
  input onerma_pkg::hdr_t       q_hdr_o,
  input logic [127:0]           q_kd_o,
  input logic [63:0]            q_base_o,
  input logic [15:0]            q_gen_o,
  input logic [7:0]             q_key_gen_o,
  input logic [TimeWidth-1:0]   q_time_o,
  input logic                   rep_valid_o,
  input logic                   rep_ready_i,
  input onerma_pkg::hdr_t       rep_hdr_o,
  input logic [127:0]           rep_key_o,
  input logic                   auth_fail_o,
  input logic                   access_err_o,
  input logic                   nacked_o
);
  import onerma_pkg::*;

  localparam int unsigned OutW = $clog2(InFlight + 1);

  // ---- Stream rules.
  onerma_stream_check #(.Width($bits(hdr_t) + 128 + TimeWidth), .Assume(1'b1)) u_req (
    .clk_i, .rst_ni, .valid_i(req_valid_i), .ready_i(req_ready_o),
    .data_i({req_hdr_i, req_tag_i, req_t_rx_i}));
  onerma_stream_check #(.Width(128 + IdxW), .Assume(1'b1)) u_kdres (
    .clk_i, .rst_ni, .valid_i(kd_res_valid_i), .ready_i(kd_res_ready_o),
    .data_i({kd_res_i, kd_res_meta_i}));
  onerma_stream_check #(.Width(128 + 64 + 8 + IdxW)) u_kd (
    .clk_i, .rst_ni, .valid_i(kd_valid_o), .ready_i(kd_ready_i),
    .data_i({kd_kr_o, kd_nic_o, kd_pid_o, kd_op_o, kd_meta_o}));
  onerma_stream_check #(.Width($bits(hdr_t) + 256 + IdxW)) u_job (
    .clk_i, .rst_ni, .valid_i(job_valid_o), .ready_i(job_ready_i),
    .data_i({job_hdr_o, job_tag_o, job_key_o, job_meta_o}));
  onerma_stream_check #(.Width($bits(hdr_t) + 128)) u_rep (
    .clk_i, .rst_ni, .valid_i(rep_valid_o), .ready_i(rep_ready_i),
    .data_i({rep_hdr_o, rep_key_o}));

  // ---- Environment: the RRT port holds its entry until the next lookup.
  logic f_past_q = 1'b0;
  always_ff @(posedge clk_i) f_past_q <= 1'b1;
  always_comb if (!f_past_q) assume (!rst_ni);
  always_ff @(posedge clk_i) begin
    if (rst_ni && f_past_q && !$past(rrt_valid_o)) begin
      assume (rrt_entry_i == $past(rrt_entry_i));
      assume (rrt_gen_i == $past(rrt_gen_i));
      assume (rrt_key_gen_i == $past(rrt_key_gen_i));
    end
  end

  // ---- Ghosts: the stage of each index; the request and K_d of each.
  localparam int unsigned SeqW = IdxW + 2;
  logic [InFlight-1:0] kdp_q, pend_q, gh_af_q, gh_ok_q;
  logic [SeqW-1:0]     gh_seq_q [InFlight];
  logic [SeqW-1:0]     f_adm_n_q, f_ret_n_q;
  hdr_t                gh_hdr_q [InFlight];
  logic [127:0]        gh_kd_q  [InFlight];
  logic                adm, kd_fire, kdr_fire, job_fire, rep_pop;

  assign adm      = req_valid_i && req_ready_o;
  assign kd_fire  = kd_valid_o && kd_ready_i;
  assign kdr_fire = kd_res_valid_i && kd_res_ready_o;
  assign job_fire = job_valid_o && job_ready_i;
  assign rep_pop  = rep_valid_o && rep_ready_i;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      kdp_q  <= '0;
      pend_q <= '0;
    end else begin
      if (kd_fire) kdp_q[kd_meta_o] <= 1'b1;
      if (kdr_fire) kdp_q[kd_res_meta_i] <= 1'b0;
      if (job_fire) pend_q[job_meta_o] <= 1'b1;
      if (res_valid_i) pend_q[res_meta_i] <= 1'b0;
    end
  end

  // Admissions and decisions counted; each admitted row numbered.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      f_adm_n_q <= '0;
      f_ret_n_q <= '0;
    end else begin
      if (adm) f_adm_n_q <= f_adm_n_q + 1'b1;
      if (onerma_rsp_req.r_fire) f_ret_n_q <= f_ret_n_q + 1'b1;
    end
  end

  always_ff @(posedge clk_i) begin
    if (adm) begin
      gh_hdr_q[onerma_rsp_req.free_idx] <= req_hdr_i;
      gh_seq_q[onerma_rsp_req.free_idx] <= f_adm_n_q;
      gh_af_q[onerma_rsp_req.free_idx]  <= 1'b0;
    end
    if (onerma_rsp_req.l_af) gh_af_q[onerma_rsp_req.l_idx_q] <= 1'b1;
    if (res_valid_i) gh_ok_q[res_meta_i] <= res_auth_ok_i;
    if (kdr_fire) gh_kd_q[kd_res_meta_i] <= kd_res_i;
  end

  always_comb if (rst_ni) begin
    if (kd_res_valid_i) assume (32'(kd_res_meta_i) < InFlight && kdp_q[kd_res_meta_i]);
    if (res_valid_i) assume (32'(res_meta_i) < InFlight && pend_q[res_meta_i]);
  end

  // ---- Stages and credits.
  logic [OutW-1:0] used_cnt;
  always_comb begin
    used_cnt = '0;
    for (int i = 0; i < InFlight; i++) used_cnt += OutW'(onerma_rsp_req.used_q[i]);
  end

  // The decision's row (the order FIFO's head) and the rows in admission order.
  logic [IdxW-1:0] f_dec;
  logic [OutW-1:0] f_ord_n;
  assign f_dec   = onerma_rsp_req.ord_idx;
  assign f_ord_n = OutW'(onerma_rsp_req.u_ord.count_q);

  always_comb if (rst_ni) begin
    for (int i = 0; i < InFlight; i++) begin
      automatic logic in_l = onerma_rsp_req.l_valid_q && (32'(onerma_rsp_req.l_idx_q) == i);
      automatic logic dn   = onerma_rsp_req.done_q[i];
      assert (onerma_rsp_req.used_q[i] == (in_l || kdp_q[i] || pend_q[i] || dn));
      assert (32'(in_l) + 32'(kdp_q[i]) + 32'(pend_q[i]) + 32'(dn) <= 1);
      // Induction: a row in use holds its request; a row past its derivation holds its K_d;
      // a recorded outcome is the ghost's; only a row whose derivation was never issued is an
      // early AUTH_FAIL.
      if (onerma_rsp_req.used_q[i]) assert (onerma_rsp_req.tab_q[i].hdr == gh_hdr_q[i]);
      if (pend_q[i] || (dn && !gh_af_q[i])) assert (onerma_rsp_req.tab_q[i].kd == gh_kd_q[i]);
      if (dn) assert (onerma_rsp_req.ok_q[i] == (!gh_af_q[i] && gh_ok_q[i]));
      if (in_l || kdp_q[i] || pend_q[i]) assert (!gh_af_q[i]);
    end
    // The order FIFO: exactly the rows in use, oldest first, numbered from the next decision.
    assert (32'(onerma_rsp_req.u_ord.count_q) <= InFlight);
    assert (onerma_rsp_req.u_ord.full_q == (32'(onerma_rsp_req.u_ord.count_q) == InFlight));
    assert (onerma_rsp_req.u_ord.nonempty_q == (onerma_rsp_req.u_ord.count_q != '0));
    assert (32'(onerma_rsp_req.u_ord.wptr_q) < InFlight);
    assert (32'(onerma_rsp_req.u_ord.rptr_q) < InFlight);
    assert ((32'(onerma_rsp_req.u_ord.rptr_q) + 32'(onerma_rsp_req.u_ord.count_q)) % InFlight ==
            32'(onerma_rsp_req.u_ord.wptr_q));
    assert (f_ord_n == used_cnt);
    assert (f_adm_n_q == f_ret_n_q + SeqW'(f_ord_n));
    for (int k = 0; k < InFlight; k++) begin
      if (k < 32'(f_ord_n)) begin
        automatic logic [IdxW-1:0] r =
          onerma_rsp_req.u_ord.mem_q[(32'(onerma_rsp_req.u_ord.rptr_q) + k) % InFlight];
        assert (32'(r) < InFlight);
        assert (onerma_rsp_req.used_q[r]);
        assert (gh_seq_q[r] == f_ret_n_q + SeqW'(k));
      end
    end
    assert (32'(onerma_rsp_req.l_idx_q) < InFlight);
    // The reply FIFO's own bookkeeping (for induction).
    assert (onerma_rsp_req.u_rep.full_q == (32'(onerma_rsp_req.u_rep.count_q) == InFlight));
    assert (onerma_rsp_req.u_rep.nonempty_q == (onerma_rsp_req.u_rep.count_q != '0));
    assert (32'(onerma_rsp_req.u_rep.wptr_q) < InFlight);
    assert (32'(onerma_rsp_req.u_rep.rptr_q) < InFlight);
    assert ((32'(onerma_rsp_req.u_rep.rptr_q) + 32'(onerma_rsp_req.u_rep.count_q)) % InFlight ==
            32'(onerma_rsp_req.u_rep.wptr_q));
    assert (32'(onerma_rsp_req.out_q) <= InFlight);
    assert (32'(onerma_rsp_req.out_q) == 32'(used_cnt) + 32'(onerma_rsp_req.rep_count));
    assert (32'(onerma_rsp_req.rep_count) <= InFlight);
    if (onerma_rsp_req.rep_push) assert (onerma_rsp_req.rep_in_ready);
    // The job, the result and the enqueue carry their index's request and K_d.
    if (job_valid_o) begin
      assert (job_hdr_o == gh_hdr_q[job_meta_o]);
    end
    // A decision: the oldest admitted request, after its outcome.
    if (onerma_rsp_req.r_fire) begin
      assert (32'(f_dec) < InFlight && onerma_rsp_req.used_q[f_dec]);
      assert (gh_seq_q[f_dec] == f_ret_n_q);
      assert (onerma_rsp_req.done_q[f_dec]);
    end
    if (q_valid_o) begin
      assert (q_ready_i);
      assert (onerma_rsp_req.r_fire && !gh_af_q[f_dec] && gh_ok_q[f_dec]);
      assert (q_hdr_o == gh_hdr_q[f_dec]);
      assert (q_kd_o == gh_kd_q[f_dec]);
      assert (q_wr_o == (q_hdr_o.op_type != OpTypeRead));
    end
    // NACK exactly at the depth.
    if (onerma_rsp_req.r_fire && !gh_af_q[f_dec] && gh_ok_q[f_dec] &&
        onerma_rsp_req.r_s.access_ok) begin
      assert (nacked_o == ((32'(q_count_i) >= 32'(nack_depth_i)) || !q_ready_i));
      assert (q_valid_o == !nacked_o);
    end
    // One outcome per decision, and none without one.
    assert (32'(auth_fail_o) + 32'(access_err_o) + 32'(nacked_o) + 32'(q_valid_o)
            == 32'(onerma_rsp_req.r_fire));
    assert (auth_fail_o == (onerma_rsp_req.r_fire && (gh_af_q[f_dec] || !gh_ok_q[f_dec])));
    assert (onerma_rsp_req.rep_push == (onerma_rsp_req.r_fire && !q_valid_o));
    // The reply of a decision echoes its request.
    if (onerma_rsp_req.r_fire && !q_valid_o) begin
      assert (onerma_rsp_req.rep_in.hdr.dst_nic == gh_hdr_q[f_dec].src_nic);
      assert (onerma_rsp_req.rep_in.hdr.prev_counter == gh_hdr_q[f_dec].counter);
      assert (onerma_rsp_req.rep_in.hdr.pid == gh_hdr_q[f_dec].pid);
      assert (onerma_rsp_req.rep_in.hdr.region == gh_hdr_q[f_dec].region);
      assert (onerma_rsp_req.rep_in.hdr.slot == gh_hdr_q[f_dec].slot);
      assert (onerma_rsp_req.rep_in.hdr.offset == gh_hdr_q[f_dec].offset);
      assert (onerma_rsp_req.rep_in.hdr.length == gh_hdr_q[f_dec].length);
      assert (onerma_rsp_req.rep_in.hdr.op_type == gh_hdr_q[f_dec].op_type);
      if (auth_fail_o) assert (onerma_rsp_req.rep_in.key == '0);
      else assert (onerma_rsp_req.rep_in.key == gh_kd_q[f_dec]);
      if (auth_fail_o) begin
        assert (onerma_rsp_req.rep_in.hdr.msg_type == MsgTypeAuthFail);
        assert (onerma_rsp_req.rep_in.hdr.status == StatusRemoteAuthenticationFailure);
      end
      if (access_err_o) begin
        assert (onerma_rsp_req.rep_in.hdr.msg_type == MsgTypeAccessErr);
        assert (onerma_rsp_req.rep_in.hdr.status == StatusRemoteAccessError);
      end
      if (nacked_o) begin
        assert (onerma_rsp_req.rep_in.hdr.msg_type == MsgTypeNack);
        assert (onerma_rsp_req.rep_in.hdr.status == StatusNack);
      end
    end
    // The early AUTH_FAIL: exactly a looked-up request whose region is out of range or whose
    // entry is not valid (no key to derive).
    assert (onerma_rsp_req.l_af == (onerma_rsp_req.l_valid_q &&
            (32'(gh_hdr_q[onerma_rsp_req.l_idx_q].region) >= NumRegions || !rrt_entry_i.valid)));
    // A derivation only for a valid, in-range entry, under its key.
    if (kd_valid_o) begin
      assert (!onerma_rsp_req.l_oor_q && rrt_entry_i.valid);
      assert (kd_kr_o == rrt_entry_i.key);
      assert (kd_nic_o == gh_hdr_q[kd_meta_o].src_nic && kd_pid_o == gh_hdr_q[kd_meta_o].pid);
    end
  end

  // The lookup names the request's region.
  always_comb if (rst_ni && rrt_valid_o) assert (adm && rrt_idx_o == req_hdr_i.region);

  // ---- Reachability.
  always_comb if (rst_ni) begin
    cover (q_valid_o);
    cover (nacked_o);
    cover (access_err_o);
    cover (res_valid_i && !res_auth_ok_i);
    cover (onerma_rsp_req.l_af);
    // A tag result for a younger request while an older one is still in its check: its
    // decision waits.
    cover (res_valid_i && onerma_rsp_req.ord_valid && f_dec != res_meta_i &&
           !onerma_rsp_req.done_q[f_dec]);
    cover (32'(onerma_rsp_req.out_q) == InFlight && onerma_rsp_req.rep_count != '0);
  end

  logic unused;
  assign unused = ^{req_tag_i, q_base_o, q_gen_o, q_key_gen_o, q_time_o, job_tag_o, job_key_o,
                    rrt_gen_i, rrt_key_gen_i, kd_op_o};

endmodule

bind onerma_rsp_req onerma_rsp_req_props #(
  .NumRegions(NumRegions),
  .TimeWidth (TimeWidth),
  .InFlight  (InFlight),
  .CntW      (CntW)
) u_props (.*);
`endif

`default_nettype wire
