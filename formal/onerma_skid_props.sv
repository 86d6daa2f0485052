`default_nettype none

// Properties of onerma_skid, bound into every instance when FORMAL is defined.
`ifdef FORMAL
module onerma_skid_props #(
  parameter int unsigned Width  = 8,
  parameter int unsigned Slices = 1
) (
  input logic             clk_i,
  input logic             rst_ni,
  input logic             in_valid_i,
  input logic             in_ready_o,
  input logic [Width-1:0] in_data_i,
  input logic             out_valid_o,
  input logic             out_ready_i,
  input logic [Width-1:0] out_data_o,
  input logic             out_valid_q,
  input logic [Width-1:0] out_data_q,
  input logic             skid_valid_q,
  input logic [Width-1:0] skid_bits_q,
  input logic [Slices-1:0] out_valid_c,
  input logic [Slices-1:0] skid_valid_c
);

  // Formal-only initial value: marks the first cycle so the reset assumption can hold there.
  logic past_valid_q = 1'b0;
  always_ff @(posedge clk_i) past_valid_q <= 1'b1;

  always_comb if (!past_valid_q) assume (!rst_ni);

  wire push = in_valid_i && in_ready_o;
  wire pop  = out_valid_o && out_ready_i;

  // ---- Stream rules: assumed on the input, asserted on the output.
  onerma_stream_check #(
    .Width (Width),
    .Assume(1'b1)
  ) u_in_rule (
    .clk_i,
    .rst_ni,
    .valid_i(in_valid_i),
    .ready_i(in_ready_o),
    .data_i (in_data_i)
  );

  onerma_stream_check #(
    .Width (Width),
    .Assume(1'b0)
  ) u_out_rule (
    .clk_i,
    .rst_ni,
    .valid_i(out_valid_o),
    .ready_i(out_ready_i),
    .data_i (out_data_o)
  );

  // ---- Occupancy reference.
  logic [1:0] f_count_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) f_count_q <= '0;
    else         f_count_q <= f_count_q + 2'(push) - 2'(pop);
  end

  always_comb if (rst_ni) begin
    // Both handshake outputs are plain register outputs: no combinational path through the block.
    assert (in_ready_o == !skid_valid_q);
    assert (out_valid_o == out_valid_q);
    assert (out_data_o == out_data_q);
    // The spare slot is only used behind a full output register, so `in_ready_o` is low only
    // with two words stored (full throughput, no unnecessary backpressure).
    assert (f_count_q <= 2'd2);
    assert (f_count_q == 2'(out_valid_q) + 2'(skid_valid_q));
    if (skid_valid_q) assert (out_valid_q);
    // Every slice's copies of the valid flops agree with their masters, so the slices move as one.
    assert (out_valid_c == {Slices{out_valid_q}});
    assert (skid_valid_c == {Slices{skid_valid_q}});
  end

  // ---- Twin write: two consecutive accepted words come out intact, in order, once each.
  // Symbolic constants: self-holding registers without reset (read_slang has no $anyconst).
  logic [Width-1:0] f_a, f_b;
  always_ff @(posedge clk_i) begin
    f_a <= f_a;
    f_b <= f_b;
  end

  // Queue positions (0 = head) of the tracked words while inside.
  logic       started_q, expect_b_q, a_in_q, b_in_q, a_out_q, b_out_q;
  logic [1:0] a_pos_q, b_pos_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      {started_q, expect_b_q, a_in_q, b_in_q, a_out_q, b_out_q} <= '0;
      a_pos_q <= '0;
      b_pos_q <= '0;
    end else begin
      if (a_in_q && pop) begin
        if (a_pos_q == '0) begin
          a_in_q  <= 1'b0;
          a_out_q <= 1'b1;
        end
        a_pos_q <= a_pos_q - 1'b1;
      end
      if (b_in_q && pop) begin
        if (b_pos_q == '0) begin
          b_in_q  <= 1'b0;
          b_out_q <= 1'b1;
        end
        b_pos_q <= b_pos_q - 1'b1;
      end
      if (!started_q && push && in_data_i == f_a) begin
        started_q  <= 1'b1;
        expect_b_q <= 1'b1;
        a_in_q     <= 1'b1;
        a_pos_q    <= f_count_q - 2'(pop);
      end
      if (expect_b_q && push) begin
        expect_b_q <= 1'b0;
        b_in_q     <= 1'b1;
        b_pos_q    <= f_count_q - 2'(pop);
      end
    end
  end

  always_comb if (rst_ni && expect_b_q && in_valid_i) assume (in_data_i == f_b);

  always_comb if (rst_ni) begin
    if (a_in_q) begin
      assert (started_q && !a_out_q);
      assert (a_pos_q < f_count_q);
      if (a_pos_q == 2'd0) assert (out_valid_q && out_data_q == f_a);
      if (a_pos_q == 2'd1) assert (skid_valid_q && skid_bits_q == f_a);
      if (expect_b_q) assert (a_pos_q + 1'b1 == f_count_q);
      if (pop && a_pos_q == '0) assert (out_data_o == f_a);
    end
    if (expect_b_q) begin
      assert (started_q && !b_in_q && !b_out_q);
      if (!a_in_q) assert (a_out_q && f_count_q == '0);
    end
    if (b_in_q) begin
      assert (started_q && !expect_b_q && !b_out_q);
      assert (b_pos_q < f_count_q);
      if (b_pos_q == 2'd0) assert (out_valid_q && out_data_q == f_b);
      if (b_pos_q == 2'd1) assert (skid_valid_q && skid_bits_q == f_b);
      // In order: `a` is right ahead of `b`, or already out.
      if (a_in_q) assert (a_pos_q + 1'b1 == b_pos_q);
      else        assert (a_out_q);
      if (pop && b_pos_q == '0) assert (out_data_o == f_b && !a_in_q);
    end
    if (b_out_q) assert (a_out_q && !b_in_q);
    if (a_out_q) assert (!a_in_q && started_q);
  end

  // ---- Cover: both slots used, then drained; back-to-back full-rate transfers.
  logic was_full_q, stream_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      was_full_q <= 1'b0;
      stream_q   <= 1'b0;
    end else begin
      if (f_count_q == 2'd2) was_full_q <= 1'b1;
      stream_q <= push && pop;
    end
  end
  always_comb if (rst_ni) begin
    cover (f_count_q == 2'd2);
    cover (was_full_q && f_count_q == '0);
    cover (stream_q && push && pop);
    cover (b_out_q);
  end

endmodule

bind onerma_skid onerma_skid_props #(.Width($bits(T)), .Slices(Slices)) u_props (.*);
`endif

`default_nettype wire
