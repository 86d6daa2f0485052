`default_nettype none

/// The command port's B channel at the NIC edge (docs/nic.md "Command B at the edge"): protocol
/// §2.2, a command dropped for its completion region is answered SLVERR.
///
/// The command port answers a burst from the cycle after its last beat, when the doorbell's
/// submission is offered, and the submission checks decide 1-3 cycles after they take it. The
/// port's B is taken at once into a queue of `Depth` entries, so the port's one B register never
/// holds the next doorbell back while a verdict is pending; each entry remembers how many
/// submissions were first offered since the previous B was taken, up to and including its own
/// cycle (its burst's doorbell, and a torn write's doorbell on an earlier beat). The queue's head
/// is offered at the edge once those submissions' verdicts are in, SLVERR if one of them was a
/// drop, else with the port's response; verdicts are kept in order in a bit queue and the head
/// consumes its own when it leaves.
///
/// AXI4: a B once offered stays offered, with the same response, until BREADY: the head and the
/// verdicts it counts do not change until it leaves.
module onerma_cmd_bgate #(
  parameter int unsigned Depth   = 4,
  parameter int unsigned IdWidth = 4
) (
  input  logic               clk_i,
  input  logic               rst_ni,
  // The command port's B.
  input  logic               cp_bvalid_i,
  output logic               cp_bready_o,
  input  logic [1:0]         cp_bresp_i,
  input  logic [IdWidth-1:0] cp_bid_i,
  // Its submission stream and the submission checks' verdict.
  input  logic               sub_valid_i,
  input  logic               sub_ready_i,
  input  logic               bad_cq_i,
  input  logic               acc_valid_i,
  // The edge.
  output logic               s_axi_bvalid_o,
  input  logic               s_axi_bready_i,
  output logic [1:0]         s_axi_bresp_o,
  output logic [IdWidth-1:0] s_axi_bid_o
);

  // A B carries at most two submissions (the port's bound, docs/nic.md), so the verdicts not
  // yet consumed are at most two per queued B plus two counted in `since_q`: 2 * Depth + 4 bits
  // hold them.
  localparam int unsigned VqBits = 2 * Depth + 4;
  localparam int unsigned VqW    = $clog2(VqBits + 1);

  typedef struct packed {
    logic [IdWidth-1:0] id;
    logic [1:0] resp;
    logic [1:0] subs;  // submissions whose verdicts this B carries
  } ent_t;

  logic              sub_held_q, sub_new;
  logic [1:0]        since_q;                 // submissions first offered since the last B taken
  logic [VqBits-1:0] vq_bits_q;               // verdicts in order, 1 = drop
  logic [VqW-1:0]    vq_n_q;
  ent_t              in_ent, head;
  logic              in_valid, in_ready, head_valid, pop, verdict, head_bad;
  logic [VqBits-1:0] head_mask, vq_shift;
  logic [VqW-1:0]    vq_left;
  logic [$clog2(Depth+1)-1:0] q_count;

  assign sub_new = sub_valid_i && !sub_held_q;
  assign verdict = bad_cq_i || acc_valid_i;

  // Offered to the queue only when it has room: the count of submissions grows while the
  // port's B waits, so an offer that waited would change its data.
  assign in_valid    = cp_bvalid_i && in_ready;
  assign cp_bready_o = in_ready;
  assign in_ent      = '{id: cp_bid_i, resp: cp_bresp_i, subs: since_q + 2'(sub_new)};

  onerma_fifo #(
    .Depth(Depth),
    .T    (ent_t)
  ) u_q (
    .clk_i,
    .rst_ni,
    .flush_i    (1'b0),
    .in_valid_i (in_valid),
    .in_ready_o (in_ready),
    .in_data_i  (in_ent),
    .out_valid_o(head_valid),
    .out_ready_i(pop),
    .out_data_o (head),
    .count_o    (q_count)
  );

  logic unused_count;
  assign unused_count = ^q_count;

  assign head_mask      = VqBits'((1 << head.subs) - 1);
  assign head_bad       = |(vq_bits_q & head_mask);
  assign s_axi_bvalid_o = head_valid && VqW'(head.subs) <= vq_n_q;
  assign s_axi_bresp_o  = head_bad ? 2'b10 : head.resp;
  assign s_axi_bid_o    = head.id;
  assign pop            = s_axi_bvalid_o && s_axi_bready_i;
  assign vq_shift       = pop ? vq_bits_q >> head.subs : vq_bits_q;
  assign vq_left        = pop ? vq_n_q - VqW'(head.subs) : vq_n_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      sub_held_q <= 1'b0;
      since_q    <= '0;
      vq_bits_q  <= '0;
      vq_n_q     <= '0;
    end else begin
      sub_held_q <= sub_valid_i && !sub_ready_i;
      since_q    <= in_valid ? 2'd0 : since_q + 2'(sub_new);
      vq_bits_q  <= verdict ? vq_shift | (VqBits'(bad_cq_i) << vq_left) : vq_shift;
      vq_n_q     <= vq_left + VqW'(verdict);
    end
  end

endmodule

`default_nettype wire
