`default_nettype none

// Properties of onerma_fifo, bound into every instance when FORMAL is defined.
// The input stream rule is assumed; everything else is asserted.
`ifdef FORMAL
module onerma_fifo_props #(
  parameter int unsigned Width      = 8,
  parameter int unsigned Depth      = 4,
  parameter int unsigned AddrWidth  = 1,
  parameter int unsigned CountWidth = 1
) (
  input logic                  clk_i,
  input logic                  rst_ni,
  input logic                  flush_i,
  input logic                  in_valid_i,
  input logic                  in_ready_o,
  input logic [Width-1:0]      in_data_i,
  input logic                  out_valid_o,
  input logic                  out_ready_i,
  input logic [Width-1:0]      out_data_o,
  input logic [CountWidth-1:0] count_o,
  input logic [AddrWidth-1:0]  wptr_q,
  input logic [AddrWidth-1:0]  rptr_q,
  input logic [CountWidth-1:0] count_q,
  input logic [Width-1:0]      mem_q [Depth]
);

  // Cyclic distance from the read pointer, i.e. the queue position of the entry at `a`.
  function automatic int unsigned qpos(input logic [AddrWidth-1:0] a,
                                       input logic [AddrWidth-1:0] r);
    return (a >= r) ? 32'(a) - 32'(r) : 32'(a) + Depth - 32'(r);
  endfunction

  function automatic logic [AddrWidth-1:0] next(input logic [AddrWidth-1:0] a);
    return (32'(a) == Depth - 1) ? '0 : a + 1'b1;
  endfunction

  // Formal-only initial value: marks the first cycle so the reset assumption can hold there.
  logic past_valid_q = 1'b0;
  always_ff @(posedge clk_i) past_valid_q <= 1'b1;

  // Start in reset; afterwards reset may come back at any time.
  always_comb if (!past_valid_q) assume (!rst_ni);

  wire push = in_valid_i && in_ready_o;
  wire pop  = out_valid_o && out_ready_i;

  // ---- Stream rules: assumed on the input, asserted on the output. A flush cancels an offered
  // word like a reset (the output keeps its word in the flush cycle only through the occupancy
  // assertions below).
  wire rule_rst_n = rst_ni && !flush_i;

  onerma_stream_check #(
    .Width (Width),
    .Assume(1'b1)
  ) u_in_rule (
    .clk_i,
    .rst_ni (rule_rst_n),
    .valid_i(in_valid_i),
    .ready_i(in_ready_o),
    .data_i (in_data_i)
  );

  onerma_stream_check #(
    .Width (Width),
    .Assume(1'b0)
  ) u_out_rule (
    .clk_i,
    .rst_ni (rule_rst_n),
    .valid_i(out_valid_o),
    .ready_i(out_ready_i),
    .data_i (out_data_o)
  );

  // ---- Reference occupancy.
  logic [CountWidth:0] f_count_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni)       f_count_q <= '0;
    else if (flush_i)  f_count_q <= '0;
    else               f_count_q <= f_count_q + (CountWidth+1)'(push) - (CountWidth+1)'(pop);
  end

  always_comb if (rst_ni) begin
    assert (32'(f_count_q) <= Depth);
    assert (count_o == CountWidth'(f_count_q));
    // No overflow, no underflow, ready/valid follow occupancy.
    assert (in_ready_o == (32'(f_count_q) < Depth && !flush_i));
    assert (out_valid_o == (f_count_q != '0));
    // Pointer invariants (needed for induction).
    assert (32'(wptr_q) < Depth);
    assert (32'(rptr_q) < Depth);
    assert (32'(f_count_q) == Depth ? wptr_q == rptr_q : qpos(wptr_q, rptr_q) == 32'(f_count_q));
  end

  // ---- Twin write: two arbitrary consecutive writes come out intact and in order.
  // Symbolic constants: registers without reset or initial value that only hold themselves start
  // at an arbitrary value and keep it (read_slang does not accept $anyconst).
  logic [AddrWidth-1:0] f_addr;
  logic [Width-1:0]     f_a, f_b;
  always_ff @(posedge clk_i) begin
    f_addr <= f_addr;
    f_a    <= f_a;
    f_b    <= f_b;
  end
  always_comb assume (32'(f_addr) < Depth);

  wire [AddrWidth-1:0] f_addr_b = next(f_addr);

  logic a_in_q, b_in_q, expect_b_q, a_out_q, b_out_q, started_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      {a_in_q, b_in_q, expect_b_q, a_out_q, b_out_q, started_q} <= '0;
    end else if (flush_i) begin
      {a_in_q, b_in_q, expect_b_q, a_out_q, b_out_q, started_q} <= '0;
    end else begin
      if (!started_q && push && wptr_q == f_addr && in_data_i == f_a) begin
        started_q  <= 1'b1;
        a_in_q     <= 1'b1;
        expect_b_q <= 1'b1;
      end
      if (expect_b_q && push) begin
        expect_b_q <= 1'b0;
        b_in_q     <= 1'b1;
      end
      if (a_in_q && pop && rptr_q == f_addr) begin
        a_in_q  <= 1'b0;
        a_out_q <= 1'b1;
      end
      if (b_in_q && pop && rptr_q == f_addr_b) begin
        b_in_q  <= 1'b0;
        b_out_q <= 1'b1;
      end
    end
  end

  // The write after `a` carries `b`.
  always_comb if (rst_ni && expect_b_q && in_valid_i) assume (in_data_i == f_b);

  always_comb if (rst_ni) begin
    if (expect_b_q) begin
      // `a` is the newest entry until `b` arrives, or the FIFO drained it and is empty.
      assert (wptr_q == f_addr_b);
      assert (started_q && !b_in_q && !b_out_q);
      if (a_in_q) assert (qpos(f_addr, rptr_q) + 1 == 32'(f_count_q));
      else        assert (a_out_q && f_count_q == '0);
    end
    if (a_in_q) begin
      assert (qpos(f_addr, rptr_q) < 32'(f_count_q));
      assert (mem_q[f_addr] == f_a);
      assert (started_q && !a_out_q);
    end
    if (b_in_q) begin
      assert (qpos(f_addr_b, rptr_q) < 32'(f_count_q));
      assert (mem_q[f_addr_b] == f_b);
      assert (!expect_b_q && started_q && !b_out_q);
      assert (a_in_q || a_out_q);
    end
    if (a_in_q && b_in_q) assert (qpos(f_addr, rptr_q) + 1 == qpos(f_addr_b, rptr_q));
    if (a_in_q && pop && rptr_q == f_addr) assert (out_data_o == f_a);
    if (b_in_q && pop && rptr_q == f_addr_b) begin
      assert (out_data_o == f_b);
      // In order: `a` left before `b`.
      assert (!a_in_q && a_out_q);
    end
    if (a_out_q) assert (started_q && !a_in_q);
    if (b_out_q) assert (a_out_q);
  end

  // ---- Cover: full, then empty again after having been full; twin pair out.
  logic was_full_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) was_full_q <= 1'b0;
    else if (32'(f_count_q) == Depth) was_full_q <= 1'b1;
  end
  always_comb if (rst_ni) begin
    cover (32'(f_count_q) == Depth);
    cover (was_full_q && f_count_q == '0 && !flush_i);
    // Depth 1 has no cycle with both ready and valid, so this cover only exists for Depth > 1.
    if (Depth > 1) cover (push && pop && 32'(f_count_q) == Depth - 1);
    cover (b_out_q);
  end

endmodule

bind onerma_fifo onerma_fifo_props #(
  .Width     ($bits(T)),
  .Depth     (Depth),
  .AddrWidth (AddrWidth),
  .CountWidth(CountWidth)
) u_props (.*);
`endif

`default_nettype wire
