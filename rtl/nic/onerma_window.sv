`default_nettype none

/// Solicitation window SRAM (protocol.md §5): the line data and, per chunk of an owner (an
/// initiator slot or a server write context), the list of lines its payload landed in.
///
/// - Land: one plaintext word of `LandLanes` 16-byte beats per cycle for chunk `{owner, chunk}`
///   (words of one chunk in order, words of different chunks interleaved, as the GCM pool's dout
///   gives them; the pool's word format: beat 0 in the top bits). The window counts each chunk's
///   beats, `LandLanes` per word (a chunk's last word may be partial; its zero beats are counted
///   and read out like the rest, which with `LandLanes` = `DataWidth` / 128 changes no readout
///   beat count); every 4th beat starts a line, taken from `onerma_window_alloc` (`take_*`) and
///   appended to the chunk's list. A chunk holds at most `ChunkBytes / 16` beats.
/// - Unwind (one chunk at a time): `uw_read_i = 0` drops the chunk (a failed tag, an op that is
///   no longer live): its lines go back to the allocator one per cycle. `uw_read_i = 1` reads it
///   out on `out_*` (`DataWidth` bits per beat, ceil(landed bytes / (DataWidth/8)) beats, `last`
///   on the final one) and releases each line in the cycle its last quarter is read, so a line
///   returns only after its bytes left the SRAM (S2). `uw_done_o` pulses when the chunk's last
///   line is released; the chunk is then empty.
///
/// Byte order: `land_data_i` is a GCM beat (byte 0 in bits [127:120], docs/conventions.md);
/// `out_data_o` is in AXI lane order (byte 0 in bits [7:0]), what the host DMA takes.
///
/// Contract (the users guarantee it; simulation asserts it): no beat lands on a chunk from its
/// unwind's acceptance (that cycle included) to its `uw_done_o`; at most `ChunkBytes / 16` beats
/// land per chunk between unwinds.
///
/// Storage: 4 banks of `Lines` x 128 bits (bank q holds quarter q of every line, so a landing
/// word writes `LandLanes` banks and a 512-bit readout beat reads all four at one address), the line
/// lists (`NumOwners` x `MaxChunks` chunks x `ChunkBytes / 64` lines), both synchronous-read block RAM; per chunk a beat
/// count and the current line in distributed RAM, and a valid flop (cleared at reset and at
/// unwind) that makes the count 0 without resetting RAM.
module onerma_window #(
  parameter int unsigned Lines     = 1024,
  parameter int unsigned NumOwners = 64,
  /// Readout width: 128, 256 or 512.
  parameter int unsigned DataWidth = 512,
  /// Readout FIFO entries (>= 3 for one beat per cycle: the read pipeline is 2 deep).
  parameter int unsigned OutDepth  = 4,
  /// 16-byte beats per landing word: 1, or DataWidth / 128 (the GCM pool's `Lanes`).
  parameter int unsigned LandLanes = 1,
  // Derived, do not override.
  parameter int unsigned LineWidth = (Lines > 1) ? $clog2(Lines) : 1,
  parameter int unsigned OwnW      = (NumOwners > 1) ? $clog2(NumOwners) : 1
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,

  input  logic                 land_valid_i,
  output logic                 land_ready_o,
  input  logic [OwnW-1:0]      land_owner_i,
  input  logic [onerma_pkg::ChunkIndexBits-1:0] land_chunk_i,
  input  logic [LandLanes*128-1:0] land_data_i,

  output logic                 take_valid_o,
  input  logic                 take_ready_i,
  input  logic [LineWidth-1:0] take_line_i,
  output logic                 rel_valid_o,
  output logic [LineWidth-1:0] rel_line_o,

  input  logic                 uw_valid_i,
  output logic                 uw_ready_o,
  input  logic [OwnW-1:0]      uw_owner_i,
  input  logic [onerma_pkg::ChunkIndexBits-1:0] uw_chunk_i,
  input  logic                 uw_read_i,
  output logic                 uw_done_o,
  output logic [OwnW-1:0]      uw_done_owner_o,
  output logic [onerma_pkg::ChunkIndexBits-1:0] uw_done_chunk_o,

  output logic                 out_valid_o,
  input  logic                 out_ready_i,
  output logic [DataWidth-1:0] out_data_o,
  output logic                 out_last_o
);

  localparam int unsigned CiW    = onerma_pkg::ChunkIndexBits;
  localparam int unsigned NumCk  = NumOwners * onerma_pkg::MaxChunks;
  localparam int unsigned CkW    = OwnW + CiW;
  localparam int unsigned Rb     = DataWidth / 128;  // 16-byte beats per readout beat
  localparam int unsigned Bpc    = onerma_pkg::ChunkBytes / 16;  // beats per chunk
  localparam int unsigned Lpc    = onerma_pkg::ChunkBytes / 64;  // lines per chunk
  localparam int unsigned CntW   = $clog2(Bpc + 1);  // 0..Bpc beats per chunk
  localparam int unsigned OutCntW = $clog2(OutDepth + 1);

  if (!(DataWidth == 128 || DataWidth == 256 || DataWidth == 512)) begin : g_bad_width
    $error("onerma_window: DataWidth must be 128, 256 or 512");
  end
  if (LandLanes != 1 && LandLanes != DataWidth / 128) begin : g_bad_lanes
    $error("onerma_window: LandLanes must be 1 or DataWidth / 128");
  end
  if (OutDepth < 3) begin : g_bad_depth
    $error("onerma_window: OutDepth must be at least 3");
  end

  function automatic logic [CkW-1:0] ck_of(input logic [OwnW-1:0] owner,
                                          input logic [CiW-1:0] chunk);
    return {owner, chunk};
  endfunction

  // ---------------------------------------------------------------------------------------------
  // Storage.
  // ---------------------------------------------------------------------------------------------
  logic [NumCk-1:0]      ck_valid_q;
  logic [CntW-1:0]       cnt_mem  [NumCk];
  logic [LineWidth-1:0]  cur_mem  [NumCk];
  logic [LineWidth-1:0]  list_mem [NumCk * Lpc];
  // The 4 banks are separate memories (one write and one read port each), so synthesis maps each
  // to block RAM; a 2-D array is not inferred as one.
  logic [127:0]          s2_q [4];       // bank read data (read stage 2)

  // ---------------------------------------------------------------------------------------------
  // Landing.
  // ---------------------------------------------------------------------------------------------
  logic [CkW-1:0]       l_ck;
  logic [CntW-1:0]      l_cnt;
  logic                 l_new_line, land_fire;
  logic [LineWidth-1:0] l_line;

  assign l_ck         = ck_of(land_owner_i, land_chunk_i);
  assign l_cnt        = ck_valid_q[l_ck] ? cnt_mem[l_ck] : '0;
  assign l_new_line   = (l_cnt[1:0] == 2'd0);
  assign take_valid_o = land_valid_i && l_new_line;
  assign land_ready_o = !l_new_line || take_ready_i;
  assign land_fire    = land_valid_i && land_ready_o;
  assign l_line       = l_new_line ? take_line_i : cur_mem[l_ck];

  always_ff @(posedge clk_i) begin
    if (land_fire) begin
      cnt_mem[l_ck] <= l_cnt + CntW'(LandLanes);
      if (l_new_line) begin
        cur_mem[l_ck]                <= take_line_i;
        list_mem[{l_ck, l_cnt[CntW-2:2]}] <= take_line_i;
      end
    end
  end

  // ---------------------------------------------------------------------------------------------
  // Unwind, stage 0: one step per cycle. A drop step is one line; a read step one readout beat
  // (Rb 16-byte beats, within one line).
  // ---------------------------------------------------------------------------------------------
  logic            busy_q, read_q;
  logic [CkW-1:0]  u_ck_q;
  logic [CntW-1:0] u_beats_q;   // 16-byte beats landed in the chunk
  logic [CntW-1:0] u_pos_q;     // next 16-byte beat (read) or 4 x next line (drop)
  logic            uw_fire, step, step_last, out_room;
  logic [CntW-1:0] step_len, pos_next;
  logic [CkW-1:0]  uw_ck;
  logic [CntW-1:0] uw_beats;

  assign uw_ck      = ck_of(uw_owner_i, uw_chunk_i);
  assign uw_beats   = ck_valid_q[uw_ck] ? cnt_mem[uw_ck] : '0;
  assign uw_ready_o = !busy_q;
  assign uw_fire    = uw_valid_i && uw_ready_o;

  // A read step advances Rb beats, a drop step a whole line (4 beats).
  assign step_len  = read_q ? CntW'(Rb) : CntW'(4);
  assign pos_next  = u_pos_q + step_len;
  assign step_last = (pos_next >= u_beats_q);
  assign step      = busy_q && (!read_q || out_room);

  // Stage 1 / 2 registers.
  logic                 s1_valid_q, s1_read_q, s1_rel_q, s1_last_q, s1_fin_q;
  logic [1:0]           s1_bank_q;
  logic [CkW-1:0]       s1_ck_q;
  logic [LineWidth-1:0] s1_line;        // list RAM read data
  logic                 s2_valid_q, s2_last_q;
  logic [1:0]           s2_bank_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      busy_q     <= 1'b0;
      read_q     <= 1'b0;
      u_ck_q     <= '0;
      u_beats_q  <= '0;
      u_pos_q    <= '0;
      ck_valid_q <= '0;
    end else begin
      if (land_fire) begin
        ck_valid_q[l_ck] <= 1'b1;
      end
      if (uw_fire) begin
        // The chunk is empty from now on: its count is latched here, and by the contract
        // nothing lands on it until uw_done_o.
        ck_valid_q[uw_ck] <= 1'b0;
        busy_q    <= 1'b1;
        read_q    <= uw_read_i;
        u_ck_q    <= uw_ck;
        u_beats_q <= uw_beats;
        u_pos_q   <= '0;
      end else if (step) begin
        u_pos_q <= pos_next;
        if (step_last) begin
          busy_q <= 1'b0;
        end
      end
    end
  end

  // A chunk with no beats unwinds in one step that releases nothing and reads nothing.
  logic step_empty;
  assign step_empty = (u_beats_q == '0);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      s1_valid_q <= 1'b0;
      s1_read_q  <= 1'b0;
      s1_rel_q   <= 1'b0;
      s1_last_q  <= 1'b0;
      s1_fin_q   <= 1'b0;
      s1_bank_q  <= '0;
      s1_ck_q    <= '0;
    end else begin
      s1_valid_q <= step;
      if (step) begin
        s1_read_q <= read_q && !step_empty;
        // A line is released by the step that covers its last quarter, or the chunk's last step.
        s1_rel_q  <= !step_empty && (!read_q || step_last || (32'(u_pos_q[1:0]) + Rb == 4));
        s1_last_q <= step_last;
        s1_fin_q  <= step_last;
        s1_bank_q <= u_pos_q[1:0];
        s1_ck_q   <= u_ck_q;
      end
    end
  end

  always_ff @(posedge clk_i) begin
    if (step) begin
      s1_line <= list_mem[{u_ck_q, u_pos_q[CntW-2:2]}];
    end
  end

  assign rel_valid_o     = s1_valid_q && s1_rel_q;
  assign rel_line_o      = s1_line;
  assign uw_done_o       = s1_valid_q && s1_fin_q;
  assign uw_done_owner_o = s1_ck_q[CkW-1:CiW];
  assign uw_done_chunk_o = s1_ck_q[CiW-1:0];

  // ---------------------------------------------------------------------------------------------
  // Read stage 2: the four banks at the step's line; the step's Rb quarters become the beat.
  // ---------------------------------------------------------------------------------------------
  for (genvar q = 0; q < 4; q++) begin : g_bank
    logic [127:0] mem [Lines];
    // The read register lives beside its memory: yosys folds it into the block RAM's output
    // register only then (written into the shared s2_q array it mapped each bank to 2,048
    // DPR16X4 instead of 8 DP16KD).
    always_ff @(posedge clk_i) begin
      // Beat k of a word lands in bank l_cnt[1:0] + k (a word never crosses a line).
      if (land_fire && (32'(l_cnt[1:0]) / LandLanes == q / LandLanes)) begin
        mem[l_line] <= land_data_i[LandLanes*128 - 1 - 128 * (q % LandLanes) -: 128];
      end
    end
    logic [127:0] rd_q;
    always_ff @(posedge clk_i) begin
      if (s1_valid_q && s1_read_q) begin
        rd_q <= mem[s1_line];
      end
    end
    assign s2_q[q] = rd_q;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      s2_valid_q <= 1'b0;
      s2_last_q  <= 1'b0;
      s2_bank_q  <= '0;
    end else begin
      s2_valid_q <= s1_valid_q && s1_read_q;
      s2_last_q  <= s1_last_q;
      s2_bank_q  <= s1_bank_q;
    end
  end

  // Quarter k of the beat is bank s2_bank_q + k, byte-swapped from GCM to lane order.
  logic [DataWidth-1:0] s2_beat;
  always_comb begin
    s2_beat = '0;
    for (int unsigned k = 0; k < Rb; k++) begin
      for (int unsigned b = 0; b < 16; b++) begin
        s2_beat[128*k + 8*b +: 8] = s2_q[2'(s2_bank_q + 2'(k))][127 - 8*b -: 8];
      end
    end
  end

  typedef struct packed {
    logic [DataWidth-1:0] data;
    logic                 last;
  } out_t;

  logic               out_in_ready;
  logic [OutCntW-1:0] out_count;
  out_t               out_word;

  onerma_fifo #(
    .T    (out_t),
    .Depth(OutDepth)
  ) u_out (
    .clk_i,
    .rst_ni,
    .flush_i    (1'b0),
    .in_valid_i (s2_valid_q),
    .in_ready_o (out_in_ready),
    .in_data_i  ('{data: s2_beat, last: s2_last_q}),
    .out_valid_o(out_valid_o),
    .out_ready_i(out_ready_i),
    .out_data_o (out_word),
    .count_o    (out_count)
  );

  assign out_data_o = out_word.data;
  assign out_last_o = out_word.last;

  // Room for a new read step: the FIFO plus the two beats in the pipeline stay within OutDepth.
  assign out_room = (32'(out_count) + 32'(s1_valid_q && s1_read_q) + 32'(s2_valid_q)) < OutDepth;

`ifndef SYNTHESIS
  // The contract, checked in every simulation (sampled like the block's flops, so `rst_ni` is
  // never a synchronous signal).
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (rst_ni) begin
      if (land_fire) begin
        assert (l_cnt < CntW'(Bpc))
          else $error("onerma_window: more than a chunk's beats landed on one chunk");
        assert (!(busy_q && l_ck == u_ck_q) && !(uw_fire && l_ck == uw_ck))
          else $error("onerma_window: a beat landed on a chunk being unwound");
      end
      if (s2_valid_q) begin
        assert (out_in_ready) else $error("onerma_window: readout FIFO overflow");
      end
    end
  end
`endif

endmodule

`default_nettype wire
