`default_nettype none

// Properties of onerma_window: the life of one window line `L` (a symbolic constant), which
// makes every property hold for every line. The allocator is the environment: it hands out a
// line only while the window does not hold it, and the users keep the block's contract (nothing
// lands on a chunk being unwound, at most ChunkBytes / 16 beats per chunk). Asserted: L is
// released only while the window holds it, only by the unwind of the chunk that took it, once;
// when an unwind reports done, the chunk holds no line; the readout stream follows the stream
// rules.
`ifdef FORMAL
module onerma_window_props #(
  parameter int unsigned Lines     = 4,
  parameter int unsigned NumOwners = 2,
  parameter int unsigned DataWidth = 128,
  parameter int unsigned OutDepth  = 3,
  parameter int unsigned LandLanes = 1,
  // Derived, do not override (same as the block's).
  parameter int unsigned LineWidth = (Lines > 1) ? $clog2(Lines) : 1,
  parameter int unsigned OwnW      = (NumOwners > 1) ? $clog2(NumOwners) : 1,
  parameter int unsigned CiW       = onerma_pkg::ChunkIndexBits,
  parameter int unsigned CntW      = $clog2(onerma_pkg::ChunkBytes / 16 + 1)
) (
  input logic                 clk_i,
  input logic                 rst_ni,
  input logic                 land_valid_i,
  input logic                 land_ready_o,
  input logic [OwnW-1:0]      land_owner_i,
  input logic [CiW-1:0]       land_chunk_i,
  input logic [LandLanes*128-1:0] land_data_i,
  input logic                 take_valid_o,
  input logic                 take_ready_i,
  input logic [LineWidth-1:0] take_line_i,
  input logic                 rel_valid_o,
  input logic [LineWidth-1:0] rel_line_o,
  input logic                 uw_valid_i,
  input logic                 uw_ready_o,
  input logic [OwnW-1:0]      uw_owner_i,
  input logic [CiW-1:0]       uw_chunk_i,
  input logic                 uw_read_i,
  input logic                 uw_done_o,
  input logic [OwnW-1:0]      uw_done_owner_o,
  input logic [CiW-1:0]       uw_done_chunk_o,
  input logic                 out_valid_o,
  input logic                 out_ready_i,
  input logic [DataWidth-1:0] out_data_o,
  input logic                 out_last_o,
  // Internals (connected by name through `.*`).
  input logic                 land_fire,
  input logic                 l_new_line,
  input logic [OwnW+CiW-1:0]  l_ck,
  input logic [CntW-1:0]      l_cnt,
  input logic                 busy_q,
  input logic                 read_q,
  input logic [OwnW+CiW-1:0]  u_ck_q,
  input logic [CntW-1:0]      u_beats_q,
  input logic [CntW-1:0]      u_pos_q,
  input logic                 s1_valid_q,
  input logic                 s1_rel_q,
  input logic                 s1_read_q,
  input logic                 s1_fin_q,
  input logic [OwnW+CiW-1:0]  s1_ck_q,
  input logic [LineWidth-1:0] s1_line,
  input logic                 s2_valid_q
);

  localparam int unsigned NumCk = NumOwners * onerma_pkg::MaxChunks;
  localparam int unsigned CkW   = OwnW + CiW;
  localparam int unsigned Rb    = DataWidth / 128;
  localparam int unsigned Bpc   = onerma_pkg::ChunkBytes / 16;  // beats per chunk
  localparam int unsigned Lpc   = onerma_pkg::ChunkBytes / 64;  // lines per chunk
  localparam int unsigned IdxW  = $clog2(Lpc);                  // a line's index in its list

  logic [LineWidth-1:0] L;
  always_ff @(posedge clk_i) L <= L;
  always_comb assume (32'(L) < Lines);

  logic past_valid_q = 1'b0;
  always_ff @(posedge clk_i) past_valid_q <= 1'b1;
  always_comb if (!past_valid_q) assume (!rst_ni);

  // ---- Environment.
  onerma_stream_check #(.Width(OwnW + CiW + LandLanes * 128), .Assume(1'b1)) u_land (
    .clk_i, .rst_ni, .valid_i(land_valid_i), .ready_i(land_ready_o),
    .data_i({land_owner_i, land_chunk_i, land_data_i}));
  onerma_stream_check #(.Width(OwnW + CiW + 1), .Assume(1'b1)) u_uw (
    .clk_i, .rst_ni, .valid_i(uw_valid_i), .ready_i(uw_ready_o),
    .data_i({uw_owner_i, uw_chunk_i, uw_read_i}));
  onerma_stream_check #(.Width(DataWidth + 1), .Assume(1'b0)) u_out (
    .clk_i, .rst_ni, .valid_i(out_valid_o), .ready_i(out_ready_i),
    .data_i({out_data_o, out_last_o}));

  always_comb begin
    assume (32'(land_owner_i) < NumOwners);
    assume (32'(uw_owner_i) < NumOwners);
    assume (32'(take_line_i) < Lines);
  end

  // Ghost: whether the window holds L, which chunk took it, at which list index.
  logic           held_q;
  logic [CkW-1:0] hck_q;
  logic [IdxW-1:0] hidx_q;

  logic take_l, rel_l;
  assign take_l = land_fire && l_new_line && (take_line_i == L);
  assign rel_l  = rel_valid_o && (rel_line_o == L);

  // The allocator never hands out a line the window holds (onerma_window_alloc's pool).
  always_comb if (rst_ni && held_q) assume (!(take_valid_o && take_ready_i && take_line_i == L));
  // The users' contract.
  always_comb if (rst_ni && land_valid_i) begin
    assume (!(busy_q && l_ck == u_ck_q));
    assume (!(uw_valid_i && uw_ready_o && l_ck == {uw_owner_i, uw_chunk_i}));
    assume (l_cnt < CntW'(Bpc));
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      held_q <= 1'b0;
      hck_q  <= '0;
      hidx_q <= '0;
    end else if (take_l) begin
      held_q <= 1'b1;
      hck_q  <= l_ck;
      hidx_q <= l_cnt[CntW-2:2];
    end else if (rel_l) begin
      held_q <= 1'b0;
    end
  end

  // ---- The properties.
  always_comb if (rst_ni) begin
    // L leaves only while held, through the unwind of the chunk that took it.
    if (rel_l) assert (held_q && s1_ck_q == hck_q);
    // When an unwind is done, its chunk holds nothing (L, if it was the chunk's, leaves now).
    if (uw_done_o && held_q && hck_q == {uw_done_owner_o, uw_done_chunk_o}) assert (rel_l);
    // A take only for a chunk's beat 0, 4, 8, ...
    if (take_valid_o) assert (land_valid_i && l_cnt[1:0] == 2'd0);
  end

  // ---- Induction invariants.
  // Where a held L is: (A) in its chunk's list, the chunk at rest; (B) in the list of the chunk
  // being unwound, not yet stepped past; (C) in read stage 1, released this cycle.
  logic [CntW-1:0]      h_cnt;
  logic                 h_valid;
  logic [LineWidth-1:0] h_list, h_cur;
  logic                 at_rest, in_unwind, in_s1;
  assign h_valid   = onerma_window.ck_valid_q[hck_q];
  assign h_cnt     = onerma_window.cnt_mem[hck_q];
  assign h_list    = onerma_window.list_mem[{hck_q, hidx_q}];
  assign h_cur     = onerma_window.cur_mem[hck_q];
  assign in_s1     = s1_valid_q && s1_rel_q && s1_line == L && s1_ck_q == hck_q;
  assign in_unwind = busy_q && u_ck_q == hck_q && !in_s1;
  assign at_rest   = !(busy_q && u_ck_q == hck_q) && !in_s1;

  always_comb if (rst_ni) begin
    assert (32'(hck_q) < NumCk || !held_q);
    if (held_q) begin
      assert (at_rest || in_unwind || in_s1);
      if (at_rest) begin
        assert (h_valid);
        assert ({hidx_q, 2'b00} < h_cnt);
        assert (h_list == L);
        if (hidx_q == IdxW'((h_cnt - CntW'(1)) >> 2)) assert (h_cur == L);
      end
      if (in_unwind) begin
        assert (!h_valid);
        assert (h_list == L);
        assert ({hidx_q, 2'b00} < u_beats_q);
        assert ((u_pos_q >> 2) <= CntW'(hidx_q));
      end
    end
    // Not held: no live list position names L, and the read stage does not release it.
    for (int unsigned c = 0; c < NumCk; c++) begin
      for (int unsigned j = 0; j < Lpc; j++) begin
        if (onerma_window.ck_valid_q[c] && CntW'(4 * j) < onerma_window.cnt_mem[c] &&
            onerma_window.list_mem[Lpc * c + j] == L) begin
          assert (held_q && 32'(hck_q) == c && 32'(hidx_q) == j);
        end
        if (busy_q && 32'(u_ck_q) == c && CntW'(4 * j) < u_beats_q && (u_pos_q >> 2) <= CntW'(j) &&
            onerma_window.list_mem[Lpc * c + j] == L) begin
          assert (held_q && 32'(hck_q) == c && 32'(hidx_q) == j);
        end
      end
      if (busy_q && 32'(u_ck_q) == c) assert (!onerma_window.ck_valid_q[c]);
      if (onerma_window.ck_valid_q[c]) begin
        assert (onerma_window.cnt_mem[c] <= CntW'(Bpc));
        // Whole words land, so a word never crosses a line.
        assert (32'(onerma_window.cnt_mem[c]) % LandLanes == 0);
      end
    end
    if (s1_valid_q && s1_rel_q && s1_line == L) assert (held_q && s1_ck_q == hck_q);
    // The readout FIFO's pointers agree with its count.
    assert (32'(onerma_window.u_out.count_q) <= OutDepth);
    assert (32'(onerma_window.u_out.rptr_q) < OutDepth);
    assert (32'(onerma_window.u_out.wptr_q) ==
            (32'(onerma_window.u_out.rptr_q) + 32'(onerma_window.u_out.count_q)) % OutDepth);
    // The unwind's own state.
    assert (32'(u_ck_q) < NumCk);
    assert (u_beats_q <= CntW'(Bpc));
    if (busy_q) begin
      assert (u_pos_q < u_beats_q || (u_beats_q == '0 && u_pos_q == '0));
      assert (u_pos_q[1:0] == '0 || read_q);
      assert (32'(u_pos_q) % Rb == 0);
    end
    if (s1_valid_q) assert (32'(s1_ck_q) < NumCk);
  end

  // ---- Cover: L taken, released by a read-out, and taken again by another chunk.
  logic l_reused_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) l_reused_q <= 1'b0;
    else if (rel_l && s1_read_q) l_reused_q <= 1'b1;
  end
  always_comb if (rst_ni) cover (l_reused_q && take_l);

endmodule

bind onerma_window onerma_window_props #(
  .Lines    (Lines),
  .NumOwners(NumOwners),
  .DataWidth(DataWidth),
  .OutDepth (OutDepth),
  .LandLanes(LandLanes)
) u_props (.*);
`endif

`default_nettype wire
