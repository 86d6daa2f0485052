`default_nettype none

// Properties of onerma_seal, bound into it when FORMAL is defined.
//
// The pool's streams are left free under the pool's contract (docs/crypto.md; what
// formal/onerma_gcm_pool.sby proves of the pool): desc and din ready are arbitrary; a dout beat
// carries the stage (meta) of a message whose descriptor was taken and which still has
// ciphertext beats to come, `last` exactly on its final beat; a result comes once per taken
// descriptor, and only after all of that message's din beats were taken (the pool's "result after
// all its beats"; without it a free pool could finish a message whose words are still queued for
// din, its stage could be reused, and the din queue would hold more messages than stages). The
// requester keeps the input contract (stream rules, chunk_len <= MaxLen, exactly
// ceil(chunk_len / Bytes) payload beats with last on the final one).
//
// Asserted: the asg pulse exactly at acceptance with {epoch, count} from a shadow counter
// (count := 1 at reset and ctr_reset, +1 per acceptance), never beyond the last usable count,
// counters strictly increasing within an epoch, no acceptance while exhausted and exhausted_o
// exactly then; descriptors in acceptance order, only for wholly staged messages, with the job's
// chunk_len, aad_len 64 and decrypt 0, never for a stage the pool still holds; din beats only
// for taken descriptors and, once a message's first beat is offered, without a bubble up to its
// last; output packets in staging order (= acceptance order = descriptor order, docs/nic.md
// "Staging order"): each packet is the oldest described message not yet sent, with that job's
// meta on sent_meta_o, only once the pool finished it (a later message finished first waits),
// each of exactly ceil((80 + chunk_len) / Bytes) beats with tlast on the final one and tkeep all
// ones except the byte-exact prefix on the last; the stream rules on desc, din and m_axis. The iv
// and the data are the property test's (tests/nic_seal.rs), not this proof's.
//
// Payload abort: a job with a beat carrying pay_err_i is dropped at its last beat: drop_o exactly
// then (with the job's meta) and never otherwise; the dropped job leaves the shadow of accepted
// jobs, so it never gets a descriptor (hence no din beat, no result, no packet), and the packets
// sent never outnumber the messages staged without an error.
//
// Induction (the section "Induction invariants" below): every non-free stage is in exactly one
// place of the sealer (payload being received, ready queue, descriptor read or register, send
// queue from its descriptor to its frame, being read out), with per-stage write-back state that
// matches the pool's shadow; the shadow queues of accepted jobs, of din beats owed and of
// described messages not sent are read off the sealer's FIFOs, fetch and output pipelines entry
// by entry;
// the rows in flight to m_axis carry the last / keep flags of their place in their frame; the
// FIFO pointers agree with their counts. With them the proof is 1-inductive.
`ifdef FORMAL
module onerma_seal_props #(
  parameter int unsigned DataWidth    = 128,
  parameter int unsigned NumStage     = 2,
  parameter int unsigned MetaWidth    = 1,
  parameter int unsigned GcmMetaWidth = 1,
  parameter int unsigned LenW         = 7,
  parameter int unsigned MaxLen       = 32,
  parameter int unsigned CountW       = 3,
  parameter int unsigned Lanes        = 1,
  parameter int unsigned Bytes        = DataWidth / 8,
  // yosys-slang does not take a type parameter through bind: the default layouts, rebuilt.
  localparam type        desc_t       = struct packed {
    logic [127:0]            key;
    logic [95:0]             iv;
    logic [LenW-1:0]         aad_len;
    logic [LenW-1:0]         pt_len;
    logic                    decrypt;
    logic [127:0]            tag;
    logic [GcmMetaWidth-1:0] meta;
  },
  localparam type        wdin_t       = struct packed {
    logic [Lanes*128-1:0] data;
  },
  localparam type        dout_t       = struct packed {
    logic [Lanes*128-1:0]    data;
    logic                    last;
    logic [GcmMetaWidth-1:0] meta;
  },
  localparam type        res_t        = struct packed {
    logic [127:0]            tag;
    logic                    auth_ok;
    logic [GcmMetaWidth-1:0] meta;
  }
) (
  input logic                   clk_i,
  input logic                   rst_ni,
  input logic [31:0]            nic_addr_i,
  input logic [15:0]            epoch_i,
  input logic                   ctr_reset_i,
  input logic                   exhausted_o,
  input logic                   job_valid_i,
  input logic                   job_ready_o,
  input onerma_pkg::hdr_t       job_hdr_i,
  input logic [127:0]           job_key_i,
  input logic [MetaWidth-1:0]   job_meta_i,
  input logic                   pay_valid_i,
  input logic                   pay_ready_o,
  input logic [DataWidth-1:0]   pay_data_i,
  input logic                   pay_last_i,
  input logic                   pay_err_i,
  input logic                   drop_o,
  input logic [MetaWidth-1:0]   drop_meta_o,
  input logic                   sent_valid_o,
  input logic [MetaWidth-1:0]   sent_meta_o,
  input logic                   asg_valid_o,
  input logic [MetaWidth-1:0]   asg_meta_o,
  input logic [63:0]            asg_counter_o,
  input logic                   desc_valid_o,
  input logic                   desc_ready_i,
  input desc_t                  desc_data_o,
  input logic                   din_valid_o,
  input logic                   din_ready_i,
  input wdin_t                  din_data_o,
  input logic                   dout_valid_i,
  input logic                   dout_ready_o,
  input dout_t                  dout_data_i,
  input logic                   res_valid_i,
  input logic                   res_ready_o,
  input res_t                   res_data_i,
  input logic                   m_axis_tvalid,
  input logic                   m_axis_tready,
  input logic [DataWidth-1:0]   m_axis_tdata,
  input logic [Bytes-1:0]       m_axis_tkeep,
  input logic                   m_axis_tlast,
  // Internals for the induction invariants.
  input logic [CountW-1:0]      count_q,
  input logic                   in_busy_q
);

  localparam int unsigned StW  = (NumStage > 1) ? $clog2(NumStage) : 1;
  localparam int unsigned QW   = $clog2(NumStage + 1);
  localparam int unsigned LW   = $clog2(MaxLen + 1);
  localparam int unsigned BW   = $clog2((80 + MaxLen) / 16 + 2);
  localparam int unsigned Last = (1 << CountW) - 2;  // last usable count

  logic past_valid_q = 1'b0;
  always_ff @(posedge clk_i) past_valid_q <= 1'b1;
  always_comb if (!past_valid_q) assume (!rst_ni);

  // Payload words of a message on the pool's din / dout (Lanes beats of 16 bytes each).
  function automatic logic [BW-1:0] pwords(input logic [LW-1:0] len);
    return BW'((32'(len) + 32'(16 * Lanes) - 32'd1) / 32'(16 * Lanes));
  endfunction

  logic job_fire, pay_fire, desc_fire, din_fire, dout_fire, res_fire, axis_fire;
  assign job_fire  = job_valid_i && job_ready_o;
  assign pay_fire  = pay_valid_i && pay_ready_o;
  assign desc_fire = desc_valid_o && desc_ready_i;
  assign din_fire  = din_valid_o && din_ready_i;
  assign dout_fire = dout_valid_i && dout_ready_o;
  assign res_fire  = res_valid_i && res_ready_o;
  assign axis_fire = m_axis_tvalid && m_axis_tready;

  logic [LW-1:0] job_len;
  assign job_len = LW'(job_hdr_i.chunk_len);

  // ---- Requester: stream rules, chunk_len bound, payload beat count.
  logic [BW-1:0] pay_left_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) pay_left_q <= '0;
    else if (job_fire) pay_left_q <= BW'((32'(job_len) + Bytes - 1) / Bytes);
    else if (pay_fire) pay_left_q <= pay_left_q - BW'(1);
  end
  always_comb if (rst_ni) begin
    if (job_valid_i) assume (32'(job_hdr_i.chunk_len) <= MaxLen);
    if (pay_left_q == '0) assume (!pay_valid_i);
    if (pay_valid_i) assume (pay_last_i == (pay_left_q == BW'(1)));
  end

  // ---- The counter (protocol §10).
  logic [CountW:0] sh_count_q;
  logic [47:0]     last_cnt_q;
  logic            any_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      sh_count_q <= (CountW + 1)'(1);
      any_q      <= 1'b0;
      last_cnt_q <= '0;
    end else if (ctr_reset_i) begin
      sh_count_q <= (CountW + 1)'(1);
      any_q      <= 1'b0;
    end else if (job_fire) begin
      sh_count_q <= sh_count_q + 1'b1;
      any_q      <= 1'b1;
      last_cnt_q <= asg_counter_o[47:0];
    end
  end
  always_comb if (rst_ni) begin
    assert (32'(sh_count_q) <= Last + 1);
    assert (32'(count_q) == 32'(sh_count_q));
    assert (in_busy_q == (pay_left_q != '0));
    assert (asg_valid_o == job_fire);
    assert (exhausted_o == (32'(sh_count_q) == Last + 1));
    if (exhausted_o || ctr_reset_i) assert (!job_ready_o);
    if (job_fire) begin
      assert (asg_meta_o == job_meta_i);
      assert (asg_counter_o == {epoch_i, 48'(sh_count_q)});
      assert (32'(sh_count_q) >= 1 && 32'(sh_count_q) <= Last);
      if (any_q) assert (asg_counter_o[47:0] > last_cnt_q);
    end
  end

  // ---- Payload abort: the job being received carries an error from one of its beats on.
  logic                 sh_err_q, aborted, drop_seen_q;
  logic [MetaWidth-1:0] sh_meta_q;
  assign aborted = pay_fire && pay_last_i && (sh_err_q || pay_err_i);
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      sh_err_q    <= 1'b0;
      sh_meta_q   <= '0;
      drop_seen_q <= 1'b0;
    end else begin
      if (job_fire) begin
        sh_err_q  <= 1'b0;
        sh_meta_q <= job_meta_i;
      end else if (pay_fire && pay_err_i) begin
        sh_err_q <= 1'b1;
      end
      if (drop_o) drop_seen_q <= 1'b1;
    end
  end
  always_comb if (rst_ni) begin
    assert (drop_o == aborted);
    if (drop_o) assert (drop_meta_o == sh_meta_q);
  end

  // ---- Accepted jobs waiting for their descriptor, in acceptance order: {len, staged}. A
  // dropped job (the newest: the next job is taken only after its last beat) leaves the queue.
  logic [NumStage:0][LW-1:0] acc_len_q;
  logic [NumStage:0][MetaWidth-1:0] acc_meta_q;
  logic [NumStage:0]         acc_staged_q;
  logic [QW:0]               acc_n_q, acc_mid;
  logic                      staged_now;
  assign acc_mid    = acc_n_q - (QW + 1)'(desc_fire);
  // The payload being received belongs to the newest accepted job.
  assign staged_now = pay_fire && pay_last_i && !aborted;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      acc_n_q      <= '0;
      acc_staged_q <= '0;
      acc_len_q    <= '0;
      acc_meta_q   <= '0;
    end else begin
      if (desc_fire) begin
        for (int unsigned i = 0; i < NumStage; i++) begin
          acc_len_q[i]    <= acc_len_q[i + 1];
          acc_meta_q[i]   <= acc_meta_q[i + 1];
          acc_staged_q[i] <= acc_staged_q[i + 1];
        end
      end
      if (staged_now && acc_mid != '0) acc_staged_q[acc_mid - 1'b1] <= 1'b1;
      if (job_fire) begin
        acc_len_q[acc_mid]    <= job_len;
        acc_meta_q[acc_mid]   <= job_meta_i;
        acc_staged_q[acc_mid] <= (job_len == '0);
      end
      acc_n_q <= acc_mid + (QW + 1)'(job_fire) - (QW + 1)'(aborted);
    end
  end

  // ---- The pool's view of each stage: descriptor taken, result seen, dout beats left.
  logic [NumStage-1:0]         pl_busy_q, pl_res_q;
  logic [NumStage-1:0][BW-1:0] pl_left_q;
  logic [NumStage-1:0][LW-1:0] pl_len_q;
  logic [StW-1:0] dm, rm, pm;
  assign dm = StW'(dout_data_i.meta);
  assign rm = StW'(res_data_i.meta);
  assign pm = StW'(desc_data_o.meta);
  always_comb if (rst_ni) begin
    if (dout_valid_i) begin
      assume (32'(dout_data_i.meta) < NumStage);
      assume (pl_busy_q[dm] && pl_left_q[dm] != '0);
      assume (dout_data_i.last == (pl_left_q[dm] == BW'(1)));
    end
    if (res_valid_i) begin
      assume (32'(res_data_i.meta) < NumStage);
      assume (pl_busy_q[rm] && !pl_res_q[rm]);
    end
  end

  // Described messages not yet sent, in descriptor order (= the acceptance order of the jobs not
  // dropped, asserted with the descriptors below), each {len, meta, stage, finished}: finished
  // once the pool gave its result and every dout beat. Packets must be this queue's head, in
  // turn (staging order), and only once it is finished.
  logic [NumStage:0][LW-1:0]        sq_len_q, sq_len_d;
  logic [NumStage:0][MetaWidth-1:0] sq_meta_q, sq_meta_d;
  logic [NumStage:0][StW-1:0]       sq_stage_q, sq_stage_d;
  logic [NumStage:0]                sq_fin_q, sq_fin_d;
  logic [QW:0]                      sq_n_q, sq_mid;
  logic                             fin_d, fin_r, sq_pop;
  assign fin_d  = dout_fire && dout_data_i.last && pl_res_q[dm];
  assign fin_r  = res_fire && (pl_left_q[rm] == '0 || (dout_fire && dout_data_i.last && dm == rm));
  assign sq_pop = axis_fire && m_axis_tlast;
  assign sq_mid = sq_n_q - (QW + 1)'(sq_pop);
  always_comb begin
    sq_len_d   = sq_len_q;
    sq_meta_d  = sq_meta_q;
    sq_stage_d = sq_stage_q;
    sq_fin_d   = sq_fin_q;
    // The one unfinished entry of the stage the pool finishes (a stage is with the pool once).
    for (int unsigned i = 0; i <= NumStage; i++) begin
      if (i < 32'(sq_n_q) && !sq_fin_q[i] &&
          ((fin_d && sq_stage_q[i] == dm) || (fin_r && sq_stage_q[i] == rm))) begin
        sq_fin_d[i] = 1'b1;
      end
    end
    if (sq_pop) begin
      for (int unsigned i = 0; i < NumStage; i++) begin
        sq_len_d[i]   = sq_len_d[i + 1];
        sq_meta_d[i]  = sq_meta_d[i + 1];
        sq_stage_d[i] = sq_stage_d[i + 1];
        sq_fin_d[i]   = sq_fin_d[i + 1];
      end
    end
    if (desc_fire) begin
      sq_len_d[sq_mid]   = LW'(desc_data_o.pt_len);
      sq_meta_d[sq_mid]  = acc_meta_q[0];
      sq_stage_d[sq_mid] = pm;
      sq_fin_d[sq_mid]   = 1'b0;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      pl_busy_q  <= '0;
      pl_res_q   <= '0;
      pl_left_q  <= '0;
      pl_len_q   <= '0;
      sq_len_q   <= '0;
      sq_meta_q  <= '0;
      sq_stage_q <= '0;
      sq_fin_q   <= '0;
      sq_n_q     <= '0;
    end else begin
      sq_len_q   <= sq_len_d;
      sq_meta_q  <= sq_meta_d;
      sq_stage_q <= sq_stage_d;
      sq_fin_q   <= sq_fin_d;
      sq_n_q     <= sq_mid + (QW + 1)'(desc_fire);
      if (dout_fire) pl_left_q[dm] <= pl_left_q[dm] - BW'(1);
      if (res_fire) pl_res_q[rm] <= 1'b1;
      if (fin_d) pl_busy_q[dm] <= 1'b0;
      if (fin_r) pl_busy_q[rm] <= 1'b0;
      if (desc_fire) begin
        pl_busy_q[pm] <= 1'b1;
        pl_res_q[pm]  <= 1'b0;
        pl_left_q[pm] <= pwords(LW'(desc_data_o.pt_len));
        pl_len_q[pm]  <= LW'(desc_data_o.pt_len);
      end
    end
  end

  // ---- Descriptors.
  always_comb if (rst_ni) begin
    assert (32'(acc_n_q) <= NumStage);
    // The dropped job is the newest accepted one, not staged (so not the one described now).
    if (aborted) assert (acc_mid != '0 && !acc_staged_q[acc_n_q - 1'b1]);
    if (desc_valid_o) begin
      assert (acc_n_q != '0 && acc_staged_q[0]);
      assert (32'(desc_data_o.pt_len) == 32'(acc_len_q[0]));
      assert (32'(desc_data_o.aad_len) == 64);
      assert (!desc_data_o.decrypt);
      assert (32'(desc_data_o.meta) < NumStage);
      assert (!pl_busy_q[pm]);
    end
  end

  // ---- din: beats left per taken descriptor, in order, and whether the head has started.
  logic [NumStage:0][BW-1:0]  dq_left_q;
  logic [NumStage:0][StW-1:0] dq_stage_q;
  logic [QW:0]                dq_n_q;
  logic                       started_q;
  logic                       dq_pop;
  logic [QW:0]                dq_mid;
  assign dq_pop = din_fire && (dq_left_q[0] == BW'(1));
  assign dq_mid = dq_n_q - (QW + 1)'(dq_pop);
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      dq_left_q  <= '0;
      dq_stage_q <= '0;
      dq_n_q     <= '0;
      started_q  <= 1'b0;
    end else begin
      if (din_fire && !dq_pop) dq_left_q[0] <= dq_left_q[0] - BW'(1);
      started_q <= (din_valid_o || started_q) && !dq_pop;
      if (dq_pop) begin
        for (int unsigned i = 0; i < NumStage; i++) begin
          dq_left_q[i]  <= dq_left_q[i + 1];
          dq_stage_q[i] <= dq_stage_q[i + 1];
        end
      end
      if (desc_fire) begin
        dq_left_q[dq_mid]  <= BW'(4 / Lanes) + pwords(LW'(desc_data_o.pt_len));
        dq_stage_q[dq_mid] <= pm;
      end
      dq_n_q <= dq_mid + (QW + 1)'(desc_fire);
    end
  end
  // The pool's contract (formal/onerma_gcm_pool.sby: a message's result comes after all its
  // beats went in): no result for a stage that still owes din beats.
  always_comb if (rst_ni && res_valid_i) begin
    for (int unsigned i = 0; i < NumStage; i++) begin
      if (i < 32'(dq_n_q)) assume (dq_stage_q[i] != rm);
    end
  end
  always_comb if (rst_ni) begin
    assert (32'(dq_n_q) <= NumStage);
    if (din_valid_o) assert (dq_n_q != '0);
    if (started_q) assert (din_valid_o);
  end

  // ---- Output packets.
  logic [BW-1:0]    ob_q;
  logic [BW-1:0]    nb;
  logic [31:0]      rem;
  logic [Bytes-1:0] keep_last;
  assign nb        = BW'((32'(sq_len_q[0]) + 80 + Bytes - 1) / Bytes);
  assign rem       = (32'(sq_len_q[0]) + 80) % Bytes;
  assign keep_last = (rem == 0) ? '1 : ~({Bytes{1'b1}} << rem);
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) ob_q <= '0;
    else if (axis_fire) ob_q <= m_axis_tlast ? '0 : ob_q + BW'(1);
  end
  // Packets never outnumber the messages staged without an error: `owe_q` = staged - sent (two
  // free-running counts, as this was once written, wrap after 64 messages). A packet leaves only
  // while one is owed, so the difference never goes below 0; it never exceeds the messages a
  // stage or an output row can hold.
  logic [QW+1:0] owe_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) owe_q <= '0;
    else owe_q <= owe_q + (QW + 2)'(staged_now) + (QW + 2)'(job_fire && job_len == '0)
                  - (QW + 2)'(axis_fire && m_axis_tlast);
  end
  always_comb if (rst_ni) begin
    assert (32'(owe_q) <= NumStage + 1);
    if (m_axis_tvalid) assert (owe_q != '0);
  end

  // Staging order: a packet's beats are the frame of the oldest described message not sent, and
  // only once it is finished (a later message finished first waits behind it). Described and not
  // sent: at most one per stage, plus one frame whose rows were all read (its stage is then free
  // again and may hold a new message) but not all sent.
  always_comb if (rst_ni) begin
    assert (32'(sq_n_q) <= NumStage + 1);
    if (ob_q != '0) assert (sq_n_q != '0 && sq_fin_q[0]);
    if (m_axis_tvalid) begin
      assert (sq_n_q != '0 && sq_fin_q[0]);
      assert (m_axis_tlast == (ob_q == nb - BW'(1)));
      assert (m_axis_tkeep == (m_axis_tlast ? keep_last : '1));
    end
    assert (sent_valid_o == (axis_fire && m_axis_tlast));
    if (sent_valid_o) assert (sent_meta_o == sq_meta_q[0]);
  end

  // ---- Induction invariants: the shadows tied to the sealer's state (k-induction).
  // Where each non-free stage is: receiving its payload (in_stage), staged in the ready queue,
  // in the descriptor read or register (dstage), in the send queue from its descriptor until its
  // frame starts (with the pool, its tag being written, or finished and waiting for its turn),
  // or being read out (o_stage). Exactly one place per non-free stage, none for a free one.
  localparam int unsigned N       = NumStage;
  localparam int unsigned PayRows = (MaxLen + Bytes - 1) / Bytes;

  // din words of a message: the header's, then the payload's (each part starts a new word).
  function automatic logic [31:0] dwords(input logic [31:0] len);
    return 32'(4 / Lanes) + (len + 32'(16 * Lanes) - 32'd1) / 32'(16 * Lanes);
  endfunction
  function automatic logic [31:0] obeats(input logic [31:0] len);
    return (len + 32'd80 + Bytes - 1) / Bytes;
  endfunction

  // The sealer's state.
  logic [N-1:0]         i_free, i_dout_done, i_tag_done;
  logic [N-1:0][31:0]   i_len, i_wcnt;
  logic                 i_in_busy, i_dcap, i_dvalid, i_tag_busy, i_f_active, i_rd_valid;
  logic                 i_o_active, i_ord_valid, i_ord_last;
  logic [StW-1:0]       i_in_stage, i_dstage, i_tag_stage, i_f_stage, i_o_stage;
  logic [31:0]          i_f_idx, i_f_n, i_o_beat, i_o_n, i_o_len;
  logic [Bytes-1:0]     i_ord_keep;
  logic                 i_in_err;
  logic [MetaWidth-1:0] i_in_meta;
  always_comb begin
    for (int unsigned s = 0; s < N; s++) begin
      i_len[s]  = 32'(onerma_seal.len_q[s]);
      i_wcnt[s] = 32'(onerma_seal.wcnt_q[s]);
    end
    i_free      = onerma_seal.free_q;
    i_dout_done = onerma_seal.dout_done_q;
    i_tag_done  = onerma_seal.tag_done_q;
  end
  assign i_in_busy   = onerma_seal.in_busy_q;
  assign i_in_stage  = onerma_seal.in_stage_q;
  assign i_in_err    = onerma_seal.in_err_q;
  assign i_in_meta   = onerma_seal.in_meta_q;
  assign i_dcap      = onerma_seal.dcap_q;
  assign i_dvalid    = onerma_seal.desc_valid_q;
  assign i_dstage    = onerma_seal.dstage_q;
  assign i_tag_busy  = onerma_seal.tag_busy_q;
  assign i_tag_stage = onerma_seal.tag_stage_q;
  assign i_f_active  = onerma_seal.f_active_q;
  assign i_f_stage   = onerma_seal.f_stage_q;
  assign i_f_idx     = 32'(onerma_seal.f_idx_q);
  assign i_f_n       = 32'(onerma_seal.f_n_q);
  assign i_rd_valid  = onerma_seal.rd_valid_q;
  assign i_o_active  = onerma_seal.o_active_q;
  assign i_o_stage   = onerma_seal.o_stage_q;
  assign i_o_beat    = 32'(onerma_seal.o_beat_q);
  assign i_o_n       = 32'(onerma_seal.o_n_q);
  assign i_o_len     = 32'(onerma_seal.o_len_q);
  assign i_ord_valid = onerma_seal.ord_valid_q;
  assign i_ord_last  = onerma_seal.ord_last_q;
  assign i_ord_keep  = onerma_seal.ord_keep_q;

  // The five FIFOs: occupancy, pointers, entries (oldest first).
  logic [31:0]            rq_n, iq_n, sd_n, fq_n, oq_n;
  logic [N-1:0][StW-1:0]  rq_e, iq_e, sd_e;
  logic [1:0]             oq_last;
  logic [1:0][Bytes-1:0]  oq_keep;
  logic [1:0][MetaWidth-1:0] oq_meta;
  logic [N-1:0][MetaWidth-1:0] i_meta;
  always_comb begin
    rq_n  = 32'(onerma_seal.u_rdy_q.count_q);
    iq_n  = 32'(onerma_seal.u_iss_q.count_q);
    sd_n  = 32'(onerma_seal.u_send_q.count_q);
    fq_n  = 32'(onerma_seal.u_fetch_q.count_q);
    oq_n  = 32'(onerma_seal.u_out_q.count_q);
    for (int unsigned i = 0; i < N; i++) begin
      rq_e[i] = onerma_seal.u_rdy_q.mem_q[(32'(onerma_seal.u_rdy_q.rptr_q) + i) % N];
      iq_e[i] = onerma_seal.u_iss_q.mem_q[(32'(onerma_seal.u_iss_q.rptr_q) + i) % N];
      sd_e[i] = onerma_seal.u_send_q.mem_q[(32'(onerma_seal.u_send_q.rptr_q) + i) % N];
      i_meta[i] = onerma_seal.meta_q[i];
    end
    for (int unsigned i = 0; i < 2; i++) begin
      oq_last[i] = onerma_seal.u_out_q.mem_q[(32'(onerma_seal.u_out_q.rptr_q) + i) % 2].last;
      oq_keep[i] = onerma_seal.u_out_q.mem_q[(32'(onerma_seal.u_out_q.rptr_q) + i) % 2].keep;
      oq_meta[i] = onerma_seal.u_out_q.mem_q[(32'(onerma_seal.u_out_q.rptr_q) + i) % 2].meta;
    end
  end

  always_comb if (rst_ni) begin
    assert (rq_n <= N && 32'(onerma_seal.u_rdy_q.rptr_q) < N &&
            32'(onerma_seal.u_rdy_q.wptr_q) == (32'(onerma_seal.u_rdy_q.rptr_q) + rq_n) % N);
    assert (iq_n <= N && 32'(onerma_seal.u_iss_q.rptr_q) < N &&
            32'(onerma_seal.u_iss_q.wptr_q) == (32'(onerma_seal.u_iss_q.rptr_q) + iq_n) % N);
    assert (sd_n <= N && 32'(onerma_seal.u_send_q.rptr_q) < N &&
            32'(onerma_seal.u_send_q.wptr_q) == (32'(onerma_seal.u_send_q.rptr_q) + sd_n) % N);
    assert (fq_n <= 2 &&
            32'(onerma_seal.u_fetch_q.wptr_q) == (32'(onerma_seal.u_fetch_q.rptr_q) + fq_n) % 2);
    assert (oq_n <= 2 &&
            32'(onerma_seal.u_out_q.wptr_q) == (32'(onerma_seal.u_out_q.rptr_q) + oq_n) % 2);
  end

  // Stage bookkeeping.
  logic [N-1:0][31:0] st_n;   // places holding each stage
  logic               st_tagw;  // the tag being written completes its message
  assign st_tagw = i_tag_busy && !pl_busy_q[i_tag_stage];
  logic [N-1:0]       st_ord;   // in the send queue
  always_comb begin
    st_n   = '0;
    st_ord = '0;
    if (i_in_busy) st_n[i_in_stage] += 1;
    for (int unsigned i = 0; i < N; i++) if (i < rq_n) st_n[rq_e[i]] += 1;
    if (i_dcap || i_dvalid) st_n[i_dstage] += 1;
    for (int unsigned i = 0; i < N; i++) begin
      if (i < sd_n) begin
        st_n[sd_e[i]] += 1;
        st_ord[sd_e[i]] = 1'b1;
      end
    end
    if (i_o_active) st_n[i_o_stage] += 1;
  end

  logic [N-1:0] st_pre, st_post;  // not yet described / complete
  always_comb begin
    st_pre  = '0;
    st_post = '0;
    if (i_in_busy) st_pre[i_in_stage] = 1'b1;
    for (int unsigned i = 0; i < N; i++) if (i < rq_n) st_pre[rq_e[i]] = 1'b1;
    if (i_dcap || i_dvalid) st_pre[i_dstage] = 1'b1;
    for (int unsigned s = 0; s < N; s++) begin
      if (st_ord[s] && !pl_busy_q[s] && !(st_tagw && i_tag_stage == StW'(s))) st_post[s] = 1'b1;
    end
    if (i_o_active) st_post[i_o_stage] = 1'b1;
  end

  always_comb if (rst_ni) begin
    for (int unsigned s = 0; s < N; s++) begin
      assert (st_n[s] == 32'(!i_free[s]));
      assert (i_len[s] <= MaxLen);
      if (st_pre[s]) begin
        assert (i_wcnt[s] == 0 && !i_tag_done[s] && i_dout_done[s] == (i_len[s] == 0));
      end
      if (pl_busy_q[s]) begin
        assert (st_ord[s]);
        assert (32'(pl_len_q[s]) == i_len[s]);
        assert (i_wcnt[s] + 32'(pl_left_q[s]) == (i_len[s] + 16 * Lanes - 1) / (16 * Lanes));
        assert (i_dout_done[s] == (pl_left_q[s] == '0));
        assert (pl_res_q[s] == (i_tag_done[s] || (i_tag_busy && i_tag_stage == StW'(s))));
        assert (!(pl_res_q[s] && pl_left_q[s] == '0));
      end
      if (st_post[s]) assert (i_dout_done[s] && i_tag_done[s]);
    end
    if (i_tag_busy) begin
      assert (st_ord[i_tag_stage]);
      assert (!i_tag_done[i_tag_stage]);
      if (st_tagw) assert (i_dout_done[i_tag_stage]);
    end
    assert (!(i_dcap && i_dvalid));
    assert (i_in_err == sh_err_q && i_in_meta == sh_meta_q);
    if (i_in_busy) begin
      // The payload being received is written into its own stage's rows, beat by beat.
      assert (i_len[i_in_stage] != 0);
      assert (32'(pay_left_q) <= (i_len[i_in_stage] + Bytes - 1) / Bytes);
      assert (32'(onerma_seal.in_row_q) == 32'(i_in_stage) * PayRows +
              (i_len[i_in_stage] + Bytes - 1) / Bytes - 32'(pay_left_q));
    end
  end

  // Accepted jobs not yet described: the descriptor read or register, the ready queue, the job
  // receiving its payload, in that order.
  logic [31:0] a0;
  assign a0 = 32'(i_dcap || i_dvalid);
  always_comb if (rst_ni) begin
    assert (32'(acc_n_q) == a0 + rq_n + 32'(i_in_busy));
    if (a0 != 0) assert (32'(acc_len_q[0]) == i_len[i_dstage] && acc_meta_q[0] == i_meta[i_dstage]);
    for (int unsigned i = 0; i < N; i++) begin
      if (i < rq_n) begin
        assert (32'(acc_len_q[a0 + i]) == i_len[rq_e[i]] && acc_meta_q[a0 + i] == i_meta[rq_e[i]]);
      end
    end
    if (i_in_busy) begin
      assert (32'(acc_len_q[a0 + rq_n]) == i_len[i_in_stage]);
      assert (acc_meta_q[a0 + rq_n] == i_meta[i_in_stage] && i_in_meta == i_meta[i_in_stage]);
    end
    for (int unsigned i = 0; i <= N; i++) begin
      if (i < 32'(acc_n_q)) assert (acc_staged_q[i] == !(i_in_busy && i == 32'(acc_n_q) - 1));
    end
    if (i_dvalid) begin
      assert (desc_data_o.meta == GcmMetaWidth'(i_dstage));
      assert (32'(desc_data_o.pt_len) == i_len[i_dstage]);
    end
  end

  // din: the words in the fetch pipeline (read register and 2-word FIFO), the message being
  // fetched, the staged queue being fetched from, in staging order. That list is the taken
  // descriptors owing words (the din shadow) followed by the staged messages not yet taken (the
  // descriptor read or register, then the ready queue): words are fetched from staging on and
  // offered only once their descriptor is taken.
  logic [31:0] fnf, fk, fa, dn, nk;
  logic [N:0][StW-1:0] l_st;    // the list's stages
  logic [N:0][31:0]    l_left;  // and words still to pass din
  logic [2:0]          fw_last; // the pipeline's words, oldest first: the last of their message
  assign fnf = fq_n + 32'(i_rd_valid);
  // A message whose words are all read but not all taken (at most one: a message has >= 2
  // words, its header's, which needs Lanes <= 2).
  assign fk  = i_f_active ? 32'(fnf > i_f_idx) : 32'(fnf != 0);
  assign fa  = fk + 32'(i_f_active);
  assign dn  = 32'(dq_n_q);
  // Of the pipeline's words, those of the message read whole (its last ones).
  assign nk  = (fk != 0) ? fnf - (i_f_active ? i_f_idx : 0) : 0;
  always_comb begin
    for (int unsigned k = 0; k <= N; k++) begin
      if (k < dn) begin
        l_st[k]   = dq_stage_q[k];
        l_left[k] = 32'(dq_left_q[k]);
      end else begin
        if (k - dn < a0) l_st[k] = i_dstage;
        else l_st[k] = rq_e[(k - dn - a0) % N];
        l_left[k] = dwords(i_len[l_st[k]]);
      end
    end
    for (int unsigned j = 0; j < 3; j++) begin
      fw_last[j] = 1'b0;
      if (j < fq_n) fw_last[j] = onerma_seal.u_fetch_q.mem_q[(32'(onerma_seal.u_fetch_q.rptr_q) + j) % 2].last;
      else if (j == fq_n) fw_last[j] = onerma_seal.rd_last_q;
    end
  end
  always_comb if (rst_ni) begin
    assert (fnf <= 2);
    assert (fa + iq_n == dn + a0 + rq_n);
    assert (32'(onerma_seal.tk_q) == dn);
    if (fk != 0) assert (l_left[0] == nk);
    if (i_f_active) begin
      assert (i_f_idx < i_f_n && i_f_n == dwords(i_len[i_f_stage]));
      assert (l_left[fk] == (fk != 0 ? i_f_n : i_f_n - i_f_idx + fnf));
      assert (l_st[fk] == i_f_stage);
      // Once a message's word is offered, its next one is stored or being read.
      if (fk == 0 && fq_n != 0) assert (fnf == 2);
    end
    // Only the last word of the message read whole is its message's last.
    for (int unsigned j = 0; j < 2; j++) begin
      if (j < fnf) assert (fw_last[j] == (j + 1 == nk));
    end
    for (int unsigned i = 0; i < N; i++) begin
      if (i < iq_n) begin
        assert (l_left[fa + i] == dwords(i_len[iq_e[i]]));
        assert (l_st[fa + i] == iq_e[i]);
      end
    end
    for (int unsigned i = 0; i < N; i++) begin
      if (i < 32'(dq_n_q)) begin
        assert (dq_left_q[i] != '0);
        assert (pl_busy_q[dq_stage_q[i]] && !pl_res_q[dq_stage_q[i]]);
        for (int unsigned j = 0; j < N; j++) begin
          if (j < i) assert (dq_stage_q[j] != dq_stage_q[i]);
        end
      end
    end
  end

  // Output: the rows in flight (FIFO, then the read register), at most one frame read whole but
  // not sent, the frame being read, the send queue: the described messages not sent, in order.
  logic [31:0] onf, ok1, oa;
  assign onf = oq_n + 32'(i_ord_valid);
  assign ok1 = i_o_active ? 32'(onf > i_o_beat) : 32'(onf != 0);
  assign oa  = ok1 + 32'(i_o_active);
  always_comb if (rst_ni) begin
    assert (onf <= 2);
    assert (32'(sq_n_q) == oa + sd_n);
    if (ok1 != 0) assert (sq_fin_q[0]);
    if (ok1 != 0) assert (32'(ob_q) == 32'(nb) - (onf - (i_o_active ? i_o_beat : 0)));
    else assert (32'(ob_q) == (i_o_active ? i_o_beat - onf : 0));
    if (i_o_active) begin
      assert (32'(sq_len_q[ok1]) == i_o_len && i_o_len == i_len[i_o_stage]);
      assert (sq_fin_q[ok1] && sq_stage_q[ok1] == i_o_stage && sq_meta_q[ok1] == i_meta[i_o_stage]);
      assert (i_o_n == obeats(i_o_len) && i_o_beat < i_o_n);
    end
    for (int unsigned i = 0; i < N; i++) begin
      if (i < sd_n) begin
        assert (32'(sq_len_q[oa + i]) == i_len[sd_e[i]]);
        assert (sq_meta_q[oa + i] == i_meta[sd_e[i]] && sq_stage_q[oa + i] == sd_e[i]);
        assert (sq_fin_q[oa + i] == !pl_busy_q[sd_e[i]]);
      end
    end
    // A row in flight carries its frame's meta: the oldest frame's up to its last row, then the
    // next one's.
    for (int unsigned i = 0; i < 2; i++) begin
      if (i < oq_n) begin
        assert (oq_last[i] == (32'(ob_q) + i == 32'(nb) - 1));
        assert (oq_keep[i] == (oq_last[i] ? keep_last : '1));
        assert (oq_meta[i] == sq_meta_q[32'(ob_q) + i >= 32'(nb)]);
      end
    end
    if (i_ord_valid) begin
      assert (i_ord_last == (32'(ob_q) + oq_n == 32'(nb) - 1));
      assert (i_ord_keep == (i_ord_last ? keep_last : '1));
      assert (onerma_seal.ord_meta_q == sq_meta_q[32'(ob_q) + oq_n >= 32'(nb)]);
    end
  end

  // Staged and not sent: in the shadows of accepted jobs and of described messages.
  always_comb if (rst_ni) begin
    assert (32'(owe_q) == 32'(acc_n_q) - 32'(i_in_busy) + 32'(sq_n_q));
    // The counter and its shadow.
    assert (sh_count_q != '0 && any_q == (sh_count_q != (CountW + 1)'(1)));
    if (any_q) assert (32'(last_cnt_q) == 32'(sh_count_q) - 1 && last_cnt_q[47:32] == '0);
  end

  // ---- Stream rules: inputs assumed, outputs asserted.
  onerma_stream_check #(.Width($bits(job_hdr_i) + 128 + MetaWidth), .Assume(1'b1)) u_job (
    .clk_i, .rst_ni, .valid_i(job_valid_i), .ready_i(job_ready_o),
    .data_i({job_hdr_i, job_key_i, job_meta_i}));
  onerma_stream_check #(.Width(DataWidth + 1), .Assume(1'b1)) u_pay (
    .clk_i, .rst_ni, .valid_i(pay_valid_i), .ready_i(pay_ready_o),
    .data_i({pay_data_i, pay_last_i, pay_err_i}));
  onerma_stream_check #(.Width($bits(dout_t)), .Assume(1'b1)) u_dout (
    .clk_i, .rst_ni, .valid_i(dout_valid_i), .ready_i(dout_ready_o), .data_i(dout_data_i));
  onerma_stream_check #(.Width($bits(res_t)), .Assume(1'b1)) u_res (
    .clk_i, .rst_ni, .valid_i(res_valid_i), .ready_i(res_ready_o), .data_i(res_data_i));
  onerma_stream_check #(.Width($bits(desc_t))) u_desc (
    .clk_i, .rst_ni, .valid_i(desc_valid_o), .ready_i(desc_ready_i), .data_i(desc_data_o));
  onerma_stream_check #(.Width(Lanes * 128)) u_din (
    .clk_i, .rst_ni, .valid_i(din_valid_o), .ready_i(din_ready_i), .data_i(din_data_o));
  onerma_stream_check #(.Width(DataWidth + Bytes + 1)) u_axis (
    .clk_i, .rst_ni, .valid_i(m_axis_tvalid), .ready_i(m_axis_tready),
    .data_i({m_axis_tdata, m_axis_tkeep, m_axis_tlast}));
  // AXI4-Stream reset rule (IHI0051): TVALID low while the reset is asserted.
  always_comb if (!rst_ni) assert (!m_axis_tvalid);

`ifdef COVER_FAST
  // Cover task only: the sinks always ready (desc, din, m_axis). A cover reached under more
  // assumptions is reached without them; the prove task keeps every input free.
  always_comb assume (desc_ready_i && din_ready_i && m_axis_tready);
`endif

  // ---- Reachability.
  always_comb if (rst_ni) begin
    cover (axis_fire && m_axis_tlast && 32'(sq_len_q[0]) == MaxLen);
    cover (axis_fire && m_axis_tlast && sq_len_q[0] == LW'(3));
    cover (exhausted_o);
    cover (fin_d && fin_r);
    cover (sq_n_q == QW'(2) && sq_fin_q[1] && m_axis_tvalid);
    // Head-of-line: a later message finished while the oldest is not.
    cover (sq_n_q == QW'(2) && !sq_fin_q[0] && sq_fin_q[1]);
    cover (drop_o);
    cover (drop_seen_q && axis_fire && m_axis_tlast);
  end

  // Unused here (data is the property test's).
  logic unused;
  assign unused = ^{nic_addr_i, job_key_i, pay_data_i, m_axis_tdata, din_data_o, res_data_i.tag,
                    res_data_i.auth_ok, dout_data_i.data, asg_meta_o};

endmodule

bind onerma_seal onerma_seal_props #(
  .DataWidth   (DataWidth),
  .NumStage    (NumStage),
  .MetaWidth   (MetaWidth),
  .GcmMetaWidth(GcmMetaWidth),
  .LenW        (LenW),
  .MaxLen      (MaxLen),
  .CountW      (CountW),
  .Lanes       (Lanes)
) u_props (.*);
`endif

`default_nettype wire
