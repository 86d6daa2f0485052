// AES-128 encryption core with the key schedule computed alongside the data: every block carries
// its own key, so a new key costs nothing (1RMA changes the key with every op).
//
// Pipelined = 1: the ten rounds are unrolled into ten register stages, one block per cycle.
//   Stage s (1..10) holds the state after round s and round key s; stage 1 takes the input block
//   and key directly (AddRoundKey of key 0 is folded in front of round 1).
//   Back-pressure: stage s takes a block when it is empty or stage s + 1 takes one (after stage 10
//   comes out_ready_i). A stall squeezes out bubbles instead of freezing the whole pipeline,
//   nothing is ever dropped, and in_ready_o is low only when all ten stages hold a block and the
//   output is stalled. in_ready_o depends combinationally on out_ready_i (never on in_valid_i).
// Pipelined = 0: one round instance and one key-step instance used ten times; the first round is
//   done on the accepting edge, so a block is accepted every 10 cycles (II = 10) when the output
//   is taken at once. The state register doubles as the output register.
//
// In both modes Latency is the number of cycles from the cycle of the input handshake to the first
// cycle out_valid_o can be high for that block (10): an input taken at edge k is offered from edge
// k + 9 on and can be taken at edge k + 10 at the earliest.
//
// Outputs come out in input order with their meta. Only valid bits and the round counter are
// reset; data registers are not (docs/conventions.md).
`default_nettype none

module onerma_aes_core #(
  /// 1: ten unrolled stages, one block per cycle. 0: one round per cycle, II = 10.
  parameter bit  Pipelined = 1'b1,
  /// Side-band payload that travels with each block, in order.
  parameter type meta_t    = logic [7:0]
) (
  input  logic         clk_i,
  input  logic         rst_ni,

  input  logic         in_valid_i,
  output logic         in_ready_o,
  input  logic [127:0] in_key_i,
  input  logic [127:0] in_block_i,
  input  meta_t        in_meta_i,

  output logic         out_valid_o,
  input  logic         out_ready_i,
  output logic [127:0] out_block_o,
  output meta_t        out_meta_o
);

  localparam int NumRounds = 10;
  /// Cycles from the input handshake cycle to the first cycle with out_valid_o for that block.
  /// Derived; do not override. Read by instantiating modules (u_core.Latency), not used here.
  /* verilator lint_off UNUSEDPARAM */
  localparam int Latency = NumRounds;
  /* verilator lint_on UNUSEDPARAM */

  // Rcon for the key of round r (1..10).
  function automatic logic [7:0] rcon(input int unsigned r);
    unique case (r)
      1:       return 8'h01;
      2:       return 8'h02;
      3:       return 8'h04;
      4:       return 8'h08;
      5:       return 8'h10;
      6:       return 8'h20;
      7:       return 8'h40;
      8:       return 8'h80;
      9:       return 8'h1b;
      10:      return 8'h36;
      default: return 8'h00;
    endcase
  endfunction

  if (Pipelined) begin : g_pipe
    // Index s - 1 holds stage s.
    logic [NumRounds-1:0] valid_q;
    logic [NumRounds-1:0] ready;
    logic [127:0]         state_q [NumRounds];
    logic [127:0]         key_q   [NumRounds];
    meta_t                meta_q  [NumRounds];

    for (genvar s = 0; s < NumRounds; s++) begin : g_stage
      logic         valid_in;
      logic [127:0] state_in, key_in, key_next, state_next;
      meta_t        meta_in;
      logic         load;

      if (s == 0) begin : g_first
        assign valid_in = in_valid_i;
        assign state_in = in_block_i ^ in_key_i;
        assign key_in   = in_key_i;
        assign meta_in  = in_meta_i;
      end else begin : g_next
        assign valid_in = valid_q[s-1];
        assign state_in = state_q[s-1];
        assign key_in   = key_q[s-1];
        assign meta_in  = meta_q[s-1];
      end

      // Same as !valid_q[s] || ready[s+1], written without the ripple: one wide AND per stage
      // instead of a ten-deep chain from out_ready_i to in_ready_o.
      assign ready[s] = out_ready_i || !(&valid_q[NumRounds-1:s]);
      // Data registers only load a real block: bubbles do not toggle 300 flops.
      assign load = ready[s] && valid_in;

      onerma_aes_key_step u_key_step (
        .key_i (key_in),
        .rcon_i(rcon(s + 1)),
        .key_o (key_next)
      );

      onerma_aes_round u_round (
        .state_i    (state_in),
        .round_key_i(key_next),
        .final_i    (s == NumRounds - 1),
        .state_o    (state_next)
      );

      always_ff @(posedge clk_i or negedge rst_ni) begin
        if (!rst_ni) begin
          valid_q[s] <= 1'b0;
        end else if (ready[s]) begin
          valid_q[s] <= valid_in;
        end
      end

      always_ff @(posedge clk_i) begin
        if (load) begin
          state_q[s] <= state_next;
          meta_q[s]  <= meta_in;
        end
      end

      // The last stage's round key is never used.
      if (s < NumRounds - 1) begin : g_key_reg
        always_ff @(posedge clk_i) begin
          if (load) begin
            key_q[s] <= key_next;
          end
        end
      end else begin : g_no_key_reg
        assign key_q[s] = '0;
      end
    end

    assign in_ready_o  = ready[0];
    assign out_valid_o = valid_q[NumRounds-1];
    assign out_block_o = state_q[NumRounds-1];
    assign out_meta_o  = meta_q[NumRounds-1];

  end else begin : g_iter
    // busy_q: rounds 2..10 in progress; out_valid_q: result held in state_q.
    logic         busy_q, out_valid_q;
    logic [3:0]   round_q;  // round applied on the next edge while busy_q (2..10)
    logic [127:0] state_q, key_q;
    meta_t        meta_q;

    logic         accept, last;
    logic [127:0] state_in, key_in, key_next, state_next;
    logic [7:0]   rcon_cur;

    assign in_ready_o = !busy_q && (!out_valid_q || out_ready_i);
    assign accept     = in_valid_i && in_ready_o;
    assign last       = busy_q && (round_q == 4'(NumRounds));

    // While idle the round logic computes round 1 of whatever sits on the input, so the accepting
    // edge already stores the state after round 1.
    assign state_in = busy_q ? state_q : (in_block_i ^ in_key_i);
    assign key_in   = busy_q ? key_q : in_key_i;
    assign rcon_cur = busy_q ? rcon(32'(round_q)) : rcon(1);

    onerma_aes_key_step u_key_step (
      .key_i (key_in),
      .rcon_i(rcon_cur),
      .key_o (key_next)
    );

    onerma_aes_round u_round (
      .state_i    (state_in),
      .round_key_i(key_next),
      .final_i    (last),
      .state_o    (state_next)
    );

    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        busy_q      <= 1'b0;
        out_valid_q <= 1'b0;
        round_q     <= 4'd0;
      end else if (busy_q) begin
        round_q <= round_q + 4'd1;
        if (last) begin
          busy_q      <= 1'b0;
          out_valid_q <= 1'b1;
        end
      end else if (accept) begin
        busy_q      <= 1'b1;
        out_valid_q <= 1'b0;
        round_q     <= 4'd2;
      end else if (out_ready_i) begin
        out_valid_q <= 1'b0;
      end
    end

    always_ff @(posedge clk_i) begin
      if (busy_q || accept) begin
        state_q <= state_next;
        key_q   <= key_next;
      end
      if (accept) begin
        meta_q <= in_meta_i;
      end
    end

    assign out_valid_o = out_valid_q;
    assign out_block_o = state_q;
    assign out_meta_o  = meta_q;
  end

endmodule

`default_nettype wire
