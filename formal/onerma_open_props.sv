`default_nettype none

// Properties of onerma_open with one din word per payload beat (Lanes = DataWidth/128: DataWidth
// 128 at Lanes 1, or a wide word path such as DataWidth 256 at Lanes 2) and JobDepth 2: the
// client half of the GCM sharing contract (docs/nic.md): a descriptor is offered only when the
// head job's whole payload is staged, and from the descriptor's handshake to the message's last
// word a word is offered in every cycle; one descriptor per job, in job order, with the job's
// length; 4/Lanes + ceil(chunk_len / (16*Lanes)) words per message (the pool's count); the
// header words are the head job's header, beat 0 of the header in the top bits of word 0; the
// stream rules on both outputs. The environment keeps the input contract: a job's payload after
// the job, exactly its beats.
`ifdef FORMAL
module onerma_open_props #(
  parameter int unsigned DataWidth  = 128,
  parameter int unsigned MetaWidth  = 2,
  parameter int unsigned StageBeats = onerma_pkg::ChunkBytes / 16,
  parameter int unsigned JobDepth   = 2,
  parameter int unsigned LenW       = 16,
  parameter int unsigned Lanes      = 1,
  // Derived, do not override (the block's WW: a message's din words and a counter of them).
  localparam int unsigned WW         = $clog2(4 / Lanes + onerma_pkg::ChunkBytes / 16 / Lanes + 1),
  localparam type        desc_t     = struct packed {
    logic [127:0]         key;
    logic [95:0]          iv;
    logic [LenW-1:0]      aad_len;
    logic [LenW-1:0]      pt_len;
    logic                 decrypt;
    logic [127:0]         tag;
    logic [MetaWidth-1:0] meta;
  }
) (
  input logic                 clk_i,
  input logic                 rst_ni,
  input logic                 job_valid_i,
  input logic                 job_ready_o,
  input onerma_pkg::hdr_t     job_hdr_i,
  input logic [127:0]         job_tag_i,
  input logic [127:0]         job_key_i,
  input logic [MetaWidth-1:0] job_meta_i,
  input logic                 pay_valid_i,
  input logic                 pay_ready_o,
  input logic [DataWidth-1:0] pay_data_i,
  input logic                 pay_last_i,
  input logic                 desc_valid_o,
  input logic                 desc_ready_i,
  input desc_t                desc_data_o,
  input logic                 din_valid_o,
  input logic                 din_ready_i,
  input logic [Lanes*128-1:0] din_data_o,
  // Internals (connected by name through `.*`).
  input logic                 in_msg_q,
  input logic [WW-1:0]        din_idx_q,
  input logic [WW-1:0]        fill_q,
  input logic                 split_valid_q,
  input logic [$clog2(StageBeats + 1)-1:0] staged_q
);

  localparam int unsigned WordBytes = 16 * Lanes;
  localparam int unsigned HdrWords  = 64 / WordBytes;
  localparam int unsigned StageW    = StageBeats / Lanes;  // stage FIFO entries
  localparam int unsigned ChunkW    = onerma_pkg::ChunkBytes / WordBytes;  // words of a chunk
  // Payload words of the jobs held (at most 2, JobDepth = 2), and a counter of them.
  localparam int unsigned PW        = $clog2(2 * ChunkW + 1);

  if (DataWidth != 128 * Lanes) begin : g_bad_cfg
    $error("onerma_open_props: the proof counts one din word per payload beat");
  end

  // din words of a payload of len bytes (the pool's count: ceil(ceil(len / 16) / Lanes)), and
  // payload beats of DataWidth bits; the same number here, as a stage entry is a payload beat.
  function automatic logic [WW-1:0] words(input logic [15:0] len);
    return WW'((32'(len) + WordBytes - 1) / WordBytes);
  endfunction

  logic [15:0] head_len;  // the head job's chunk_len
  onerma_pkg::hdr_t head_hdr;
  assign head_hdr = onerma_open.u_jq.mem_q[onerma_open.u_jq.rptr_q].hdr;
  assign head_len = head_hdr.chunk_len;

  logic past_valid_q = 1'b0;
  always_ff @(posedge clk_i) past_valid_q <= 1'b1;
  always_comb if (!past_valid_q) assume (!rst_ni);

  onerma_stream_check #(.Width($bits(onerma_pkg::hdr_t) + 256 + MetaWidth), .Assume(1'b1)) u_job (
    .clk_i, .rst_ni, .valid_i(job_valid_i), .ready_i(job_ready_o),
    .data_i({job_hdr_i, job_tag_i, job_key_i, job_meta_i}));
  onerma_stream_check #(.Width(DataWidth + 1), .Assume(1'b1)) u_pay (
    .clk_i, .rst_ni, .valid_i(pay_valid_i), .ready_i(pay_ready_o),
    .data_i({pay_data_i, pay_last_i}));
  onerma_stream_check #(.Width($bits(desc_t)), .Assume(1'b0)) u_desc (
    .clk_i, .rst_ni, .valid_i(desc_valid_o), .ready_i(desc_ready_i), .data_i(desc_data_o));
  onerma_stream_check #(.Width(Lanes * 128), .Assume(1'b0)) u_din (
    .clk_i, .rst_ni, .valid_i(din_valid_o), .ready_i(din_ready_i), .data_i(din_data_o));

  // ---- Environment: chunk lengths of at most one chunk; payload beats only as owed.
  logic [PW-1:0] pay_owed_q;  // payload beats of accepted jobs not yet taken
  always_comb assume (job_hdr_i.chunk_len <= 16'(onerma_pkg::ChunkBytes));
  always_comb if (rst_ni && pay_valid_i) assume (pay_owed_q != '0);

  logic job_go, pay_go, desc_go, din_go;
  assign job_go  = job_valid_i && job_ready_o;
  assign pay_go  = pay_valid_i && pay_ready_o;
  assign desc_go = desc_valid_o && desc_ready_i;
  assign din_go  = din_valid_o && din_ready_i;

  // Jobs accepted and descriptors given, as counts (mod 8), and the descriptor owed next: its
  // length and meta, from a shadow FIFO of the last two accepted jobs.
  logic [2:0] jobs_q, descs_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      pay_owed_q <= '0;
      jobs_q     <= '0;
      descs_q    <= '0;
    end else begin
      pay_owed_q <= pay_owed_q + (job_go ? PW'(words(job_hdr_i.chunk_len)) : PW'(0))
                    - PW'(pay_go);
      jobs_q     <= jobs_q + 3'(job_go);
      descs_q    <= descs_q + 3'(desc_go);
    end
  end

  // ---- The contract.
  always_comb if (rst_ni) begin
    // From the descriptor to the last beat, a beat in every cycle.
    if (in_msg_q) assert (din_valid_o);
    // No beats outside a message, no descriptor inside one.
    if (din_valid_o) assert (in_msg_q);
    if (desc_valid_o) assert (!in_msg_q);
    // A descriptor only for a job that was accepted and not yet described.
    if (desc_valid_o) assert (descs_q != jobs_q);
    // The descriptor describes the head job: decrypt, 64 bytes of AAD, its length and meta.
    if (desc_valid_o) begin
      assert (desc_data_o.decrypt && desc_data_o.aad_len == 16'd64);
      assert (desc_data_o.pt_len == head_len);
    end
    // Header words: the head job's header in order, beat 0 of the header in the top bits.
    if (din_valid_o && 32'(din_idx_q) < HdrWords) begin
      assert (din_data_o == (Lanes * 128)'(head_hdr >> (512 - Lanes * 128 * (32'(din_idx_q) + 1))));
    end
  end

  // ---- Induction invariants over the three FIFOs (JobDepth = 2).
  logic [1:0] cj, cl;
  logic       jr, lr;  // read pointers
  logic [WW-1:0] j_n16 [2], l_n16 [2];
  assign cj = onerma_open.u_jq.count_q;
  assign cl = onerma_open.u_lq.count_q;
  assign jr = onerma_open.u_jq.rptr_q;
  assign lr = onerma_open.u_lq.rptr_q;
  for (genvar k = 0; k < 2; k++) begin : g_ent
    assign j_n16[k] = words(onerma_open.u_jq.mem_q[jr ^ 1'(k)].hdr.chunk_len);
    assign l_n16[k] = onerma_open.u_lq.mem_q[lr ^ 1'(k)];
  end

  logic [PW-1:0] staged_beats, filling_owed;
  always_comb begin
    staged_beats = '0;
    for (int unsigned k = 0; k < 2; k++) begin
      if (32'(k) < 32'(cj) - 32'(cl)) staged_beats = staged_beats + PW'(j_n16[k]);
    end
    filling_owed = '0;
    for (int unsigned k = 0; k < 2; k++) begin
      if (32'(k) < 32'(cl)) filling_owed = filling_owed + PW'(l_n16[k]);
    end
  end

  always_comb if (rst_ni) begin
    assert (32'(cj) <= 2 && cl <= cj);
    assert (32'(onerma_open.split_idx_q) < DataWidth / (128 * Lanes));
    assert (32'(onerma_open.u_jq.wptr_q) == (32'(jr) + 32'(cj)) % 2);
    assert (32'(onerma_open.u_lq.wptr_q) == (32'(lr) + 32'(cl)) % 2);
    assert (32'(onerma_open.u_pq.count_q) <= StageW);
    assert (32'(onerma_open.u_pq.wptr_q) ==
            (32'(onerma_open.u_pq.rptr_q) + 32'(onerma_open.u_pq.count_q)) % StageW);
    assert (32'(onerma_open.u_pq.rptr_q) < StageW);
    // The length queue holds the last cl jobs' lengths.
    for (int unsigned k = 0; k < 2; k++) begin
      if (32'(k) < 32'(cl)) assert (l_n16[k] == j_n16[32'(cj) - 32'(cl) + k]);
      if (32'(k) < 32'(cj)) assert (32'(j_n16[k]) <= ChunkW);
    end
    assert (32'(staged_q) + 32'(in_msg_q) == 32'(cj) - 32'(cl));
    assert (jobs_q - descs_q == 3'(cj) - 3'(in_msg_q));
    if (in_msg_q) assert (32'(din_idx_q) < HdrWords + 32'(j_n16[0]));
    if (cl == '0) assert (fill_q == '0 && !split_valid_q);
    else assert (fill_q < l_n16[0] || fill_q == '0);
    // Stage contents: the staged jobs' words, less what the message in flight already sent,
    // plus the filling job's words so far.
    assert (32'(onerma_open.u_pq.count_q) ==
            32'(staged_beats) - ((in_msg_q && 32'(din_idx_q) >= HdrWords) ?
                                 32'(din_idx_q) - HdrWords : 0)
            + 32'(fill_q));
    assert (32'(pay_owed_q) == 32'(filling_owed) - 32'(fill_q) - 32'(split_valid_q));
  end

  always_comb if (rst_ni) cover (desc_go && desc_data_o.pt_len > 16'd16 && cj == 2'd2);

endmodule

bind onerma_open onerma_open_props #(
  .DataWidth (DataWidth),
  .MetaWidth (MetaWidth),
  .StageBeats(StageBeats),
  .JobDepth  (JobDepth),
  .LenW      (LenW),
  .Lanes     (Lanes)
) u_props (.*);
`endif

`default_nettype wire
