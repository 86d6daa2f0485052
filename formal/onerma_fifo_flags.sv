`default_nettype none

// Induction invariant for every onerma_fifo inside a larger proof (bound by module name): the
// registered ready/valid flags agree with the occupancy count. Reachable states satisfy it by
// construction; k-induction of depth 1 needs it stated, or it starts from a state where, say,
// full_q is set in an empty FIFO. onerma_fifo.sby proves the FIFO itself (onerma_fifo_props.sv).
`ifdef FORMAL
module onerma_fifo_flags #(
  parameter int unsigned Depth      = 4,
  parameter int unsigned CountWidth = 3
) (
  input logic                  rst_ni,
  input logic [CountWidth-1:0] count_q,
  input logic                  full_q,
  input logic                  nonempty_q
);
  always_comb if (rst_ni) begin
    assert (full_q == (count_q == CountWidth'(Depth)));
    assert (nonempty_q == (count_q != '0));
  end
endmodule

bind onerma_fifo onerma_fifo_flags #(
  .Depth     (Depth),
  .CountWidth(CountWidth)
) u_flags (.*);
`endif

`default_nettype wire
