// AES-128 encryption core with the key schedule computed alongside the data: every block carries
// its own key, so a new key costs nothing (1RMA changes the key with every op).
//
// Pipelined = 1: the ten rounds are unrolled. Each round is its twenty S-box lookups (16 state
//   bytes, then RotWord(w3) of the previous round key) in ten onerma_aes_sbox_pairs, which are
//   registered (SboxLat edges: 4 in block RAM, SboxRam = 1; 1 in LUTs, SboxRam = 0), followed by
//   the key-expansion XORs and ShiftRows/MixColumns/AddRoundKey as logic that feeds the next
//   round's lookups directly. The previous round key travels beside the lookups in SboxLat flops.
//   Why this cut: with block-RAM S-boxes the register stages are a fabric flop on the EBR
//   address, the EBR's own address register and two fabric flops behind the EBR's slow output;
//   the XOR trees sit between the last of those and the next round's address flop, so no logic
//   path ends in the EBR row, and the key expansion's word chain is precomputed (key_prefix) in
//   the flops beside the lookups (docs/crypto.md has the timing that led here). The input block
//   is XORed with the key (AddRoundKey 0) in front of round 1, not registered before it.
//   Back-pressure by credits: the pipeline never stalls; round 10's result is registered and
//   written into an OutDepth-entry output FIFO, and the core accepts a block only
//   while fewer than OutDepth blocks are accepted and not yet taken, so the FIFO cannot overflow.
//   in_ready_o is a register compare (never combinational on out_ready_i or in_valid_i) and is low
//   only with OutDepth blocks in flight. Why: a stall-able pipeline needs an enable from
//   out_ready_i to every flop and EBR, a chip-wide net that limited Fmax (docs/crypto.md).
// Pipelined = 0: one round instance and one key-step instance used ten times; the first round is
//   done on the accepting edge, so a block is accepted every 10 cycles (II = 10) when the output
//   is taken at once. The state register doubles as the output register. S-boxes are LUT case
//   ROMs (SboxRam is ignored).
//
// Latency is the number of cycles from the cycle of the input handshake to the first cycle
// out_valid_o can be high for that block: 10 * SboxLat + 2 pipelined (42 with block-RAM S-boxes,
// 12 with LUT S-boxes), 10 iterative. An input taken at edge k is
// offered from edge k + Latency - 1 on and can be taken at edge k + Latency at the earliest.
//
// Outputs come out in input order with their meta. Only valid bits and the round counter are
// reset; data registers are not (docs/conventions.md).
`default_nettype none

module onerma_aes_core #(
  /// 1: ten unrolled rounds, one block per cycle. 0: one round per cycle, II = 10.
  parameter bit  Pipelined = 1'b1,
  /// Pipelined only. 1: S-boxes in synchronous block RAM (100 dual-port ROMs; 100 EBR on ECP5).
  /// 0: S-boxes as LUT ROMs (onerma_aes_sbox) followed by flops.
  parameter bit  SboxRam   = 1'b1,
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
  /// Pipelined: edges per round, the S-box lookup's (onerma_aes_sbox_pair: 4 in block RAM, 1 in
  /// LUTs).
  localparam int SboxLat = SboxRam ? 4 : 1;
  /// Cycles from the input handshake cycle to the first cycle with out_valid_o for that block.
  /// Derived; do not override. Read by instantiating modules (u_core.Latency), not used here.
  /* verilator lint_off UNUSEDPARAM */
  localparam int Latency = Pipelined ? NumRounds * SboxLat + 2 : NumRounds;
  /// Pipelined only: output FIFO entries = blocks in flight at most (pipeline plus FIFO). Must
  /// exceed Latency + 1 for one block per cycle; a power of two for the distributed RAM.
  localparam int OutDepth = 2 ** $clog2(Latency + 2);
  /* verilator lint_on UNUSEDPARAM */

  if (Pipelined) begin : g_pipe
    // Round r's S-box lookups take SboxLat edges; its ShiftRows/MixColumns/AddRoundKey and key
    // XORs are combinational behind them and feed round r + 1's lookups (or, after round 10, the
    // output FIFO, whose storage is the last register stage).
    localparam int NumRegStages = NumRounds * SboxLat;

    logic [NumRegStages-1:0] valid_q;
    meta_t                   meta_q [NumRegStages];
    logic [127:0]            state_out [NumRounds];  // state after round r (index r - 1)
    logic [127:0]            key_out   [NumRounds];  // round key r

    // Credits: blocks accepted and not yet taken, in the pipeline or in the FIFO. The pipeline
    // itself never stalls, so no enable fans out from out_ready_i to 4,000 flops and 100 EBRs.
    // ready_q is "count_q != OutDepth", kept as its own flop (computed from the next count): as
    // a compare of the counter it sat in front of the issuer's enable net in context (docs/crypto.md).
    logic [$clog2(OutDepth+1)-1:0] count_q, count_d;
    logic                          ready_q, accept, pop;

    assign in_ready_o = ready_q;
    assign accept     = in_valid_i && in_ready_o;
    assign pop        = out_valid_o && out_ready_i;
    assign count_d    = count_q + ($clog2(OutDepth+1))'(accept) - ($clog2(OutDepth+1))'(pop);

    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        count_q <= '0;
        ready_q <= 1'b1;
        valid_q <= '0;
      end else begin
        count_q <= count_d;
        ready_q <= (count_d != ($clog2(OutDepth+1))'(OutDepth));
        valid_q <= {valid_q[NumRegStages-2:0], accept};
      end
    end

    // Data registers load every cycle, bubbles included: no enable, no fan-out (docs/crypto.md).
    always_ff @(posedge clk_i) begin
      meta_q[0] <= in_meta_i;
      for (int i = 1; i < NumRegStages; i++) begin
        meta_q[i] <= meta_q[i-1];
      end
    end

    for (genvar r = 0; r < NumRounds; r++) begin : g_round
      logic [127:0] state_in, key_in;
      if (r == 0) begin : g_first
        assign state_in = in_block_i ^ in_key_i;
        assign key_in   = in_key_i;
      end else begin : g_next
        assign state_in = state_out[r-1];
        assign key_in   = key_out[r-1];
      end

      // The twenty lookups of the round: state bytes 0..15, then RotWord(w3) of round key r - 1.
      logic [7:0]  lookup [20];
      logic [7:0]  sub    [20];
      logic [31:0] rot_word;
      for (genvar b = 0; b < 16; b++) begin : g_state_byte
        assign lookup[b] = state_in[127 - 8*b -: 8];
      end
      assign rot_word = onerma_aes_pkg::rot_word(key_in[31:0]);
      for (genvar b = 0; b < 4; b++) begin : g_key_byte
        assign lookup[16 + b] = rot_word[31 - 8*b -: 8];
      end

      for (genvar p = 0; p < 10; p++) begin : g_sbox
        onerma_aes_sbox_pair #(
          .Ram(SboxRam)
        ) u_sbox (
          .clk_i,
          .data_i(lookup[2*p +: 2]),
          .data_o(sub[2*p +: 2])
        );
      end

      // Round key r - 1 travels beside its lookups. With more than one lookup stage its
      // key_prefix is registered on the way, so only one XOR per bit follows the S-box output
      // (the XOR chain of key_next ended the EBR core's critical path, docs/crypto.md).
      logic [127:0] prefix;
      if (SboxLat > 1) begin : g_prefix_reg
        logic [127:0] key_q [SboxLat];  // [0]: round key r - 1; [1..]: its key_prefix
        always_ff @(posedge clk_i) begin
          key_q[0] <= key_in;
          key_q[1] <= onerma_aes_pkg::key_prefix(key_q[0]);
          for (int i = 2; i < SboxLat; i++) begin
            key_q[i] <= key_q[i-1];
          end
        end
        assign prefix = key_q[SboxLat-1];
      end else begin : g_prefix_comb
        logic [127:0] key_q;
        always_ff @(posedge clk_i) begin
          key_q <= key_in;
        end
        assign prefix = onerma_aes_pkg::key_prefix(key_q);
      end

      logic [127:0] sub_state;
      for (genvar b = 0; b < 16; b++) begin : g_sub_state
        assign sub_state[127 - 8*b -: 8] = sub[b];
      end
      assign key_out[r]   = onerma_aes_pkg::key_from_prefix(prefix,
                                                            {sub[16], sub[17], sub[18], sub[19]},
                                                            onerma_aes_pkg::rcon(r + 1));
      assign state_out[r] = onerma_aes_pkg::shift_mix_add(sub_state, key_out[r],
                                                          r == NumRounds - 1);
    end

    typedef struct packed {
      logic [127:0] block;
      meta_t        meta;
    } out_t;
    out_t fifo_out, fin_q;
    // Round 10's result is registered before the output FIFO, and the FIFO is split into OutBanks
    // FIFOs of a slice of the bits each, every one with its own copy of round 10's valid flop
    // (kept-hierarchy registers, so synthesis keeps them apart). Why: one 130-bit x 64 FIFO is
    // 136 distributed-RAM cells whose write enable and write pointer come from one flop each; with
    // the EBR read no longer slow (fpga/ecp5) those nets (6.6-6.9 ns of routing) limited the core
    // to 114-138 MHz. Before, round 10's valid flop drove the write enables directly across the
    // die (5.5 ns, 92 MHz). The banks see the same pushes and pops, so they are always in the
    // same state; bank 0's out_valid stands for all.
    localparam int unsigned OutBanks = 4;
    localparam int unsigned OutW     = $bits(out_t);
    localparam int unsigned BankW    = (OutW + OutBanks - 1) / OutBanks;

    logic [OutBanks*BankW-1:0] fin_bits, out_bits;
    logic [OutBanks-1:0]       bank_push, bank_valid;

    always_ff @(posedge clk_i) begin
      fin_q <= '{block: state_out[NumRounds-1], meta: meta_q[NumRegStages-1]};
    end

    assign fin_bits = (OutBanks * BankW)'(fin_q);

    // Never full when written: count_q bounds pipeline plus FIFO by OutDepth. Their in_ready_o and
    // count_o are therefore not needed.
    /* verilator lint_off PINCONNECTEMPTY */
    for (genvar b = 0; b < OutBanks; b++) begin : g_bank
      // No reset needed: reset is held for at least one edge (docs/conventions.md), which loads
      // the reset value 0 of round 10's valid flop here.
      onerma_dup_reg #(
        .Width(1)
      ) u_push (
        .clk_i,
        .rst_ni,
        .d_i(valid_q[NumRegStages-1]),
        .q_o(bank_push[b])
      );

      onerma_fifo #(
        .Width(BankW),
        .Depth(OutDepth)
      ) u_out (
        .clk_i,
        .rst_ni,
        .flush_i    (1'b0),
        .in_valid_i (bank_push[b]),
        .in_ready_o (),
        .in_data_i  (fin_bits[b*BankW +: BankW]),
        .out_valid_o(bank_valid[b]),
        .out_ready_i,
        .out_data_o (out_bits[b*BankW +: BankW]),
        .count_o    ()
      );
    end
    /* verilator lint_on PINCONNECTEMPTY */

    assign out_valid_o = bank_valid[0];
    assign fifo_out    = out_t'(out_bits[OutW-1:0]);

    // The other banks' valids equal bank 0's; the padding bits of the last bank carry nothing.
    /* verilator lint_off UNUSEDSIGNAL */
    logic unused_banks;
    /* verilator lint_on UNUSEDSIGNAL */
    assign unused_banks = ^{bank_valid, out_bits};

    assign out_block_o = fifo_out.block;
    assign out_meta_o  = fifo_out.meta;

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
    assign rcon_cur = busy_q ? onerma_aes_pkg::rcon(32'(round_q)) : onerma_aes_pkg::rcon(1);

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
