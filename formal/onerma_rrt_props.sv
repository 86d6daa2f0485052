`default_nettype none

// Properties of onerma_rrt, bound into it when FORMAL is defined.
//
// A shadow table is updated by the same commits and installs. Asserted: every lookup returns,
// one cycle later, exactly the shadow entry of the cycle it was issued (all fields, gen and
// key_gen: the old or the new entry, never a mix); an out-of-range or never-valid index reads
// invalid; gen and key_gen increment exactly on commits, key_gen also on installs; an install
// succeeds exactly when the entry is valid with the memoized gen and key_gen, and changes only
// the key. The initial gen/key_gen of a never-written entry are unspecified, so the shadow takes
// them from the table at the entry's first commit.
`ifdef FORMAL
module onerma_rrt_props #(
  parameter int unsigned NumRegions = 3,
  parameter int unsigned NumPorts   = 2,
  parameter int unsigned IdxWidth   = 2,
  parameter int unsigned AW         = 2
) (
  input logic                                   clk_i,
  input logic                                   rst_ni,
  input logic [NumPorts-1:0]                    rd_valid_i,
  input logic [NumPorts-1:0][IdxWidth-1:0]      rd_idx_i,
  input onerma_pkg::rrt_entry_t [NumPorts-1:0]  rd_entry_o,
  input logic [NumPorts-1:0][15:0]              rd_gen_o,
  input logic [NumPorts-1:0][7:0]               rd_key_gen_o,
  input logic                                   commit_i,
  input logic [IdxWidth-1:0]                    commit_idx_i,
  input onerma_pkg::rrt_entry_t                 commit_entry_i,
  input logic                                   inst_valid_i,
  input logic                                   inst_ready_o,
  input logic [IdxWidth-1:0]                    inst_idx_i,
  input logic [127:0]                           inst_key_i,
  input logic [15:0]                            inst_gen_i,
  input logic [7:0]                             inst_key_gen_i,
  input logic                                   inst_ok_o,
  input logic [NumRegions-1:0]                  valid_q
);

  import onerma_pkg::rrt_entry_t;

  logic past_valid_q = 1'b0;
  always_ff @(posedge clk_i) past_valid_q <= 1'b1;
  always_comb if (!past_valid_q) assume (!rst_ni);

  // The CSR never commits out of range and stages zero reserved bits.
  always_comb if (rst_ni && commit_i) begin
    assume (32'(commit_idx_i) < NumRegions);
    assume (commit_entry_i.rsvd0 == '0);
  end

  // ---- Shadow.
  rrt_entry_t          s_ent     [NumRegions];
  logic [15:0]         s_gen     [NumRegions];
  logic [7:0]          s_key_gen [NumRegions];
  logic [NumRegions-1:0] s_written;

  wire inst_fire = inst_valid_i && inst_ready_o;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      s_written <= '0;
      for (int unsigned i = 0; i < NumRegions; i++) s_ent[i].valid <= 1'b0;
    end else if (commit_i) begin
      automatic logic [15:0] g = s_written[commit_idx_i] ? s_gen[commit_idx_i]
                                                         : onerma_rrt.meta_q[commit_idx_i].gen;
      automatic logic [7:0]  k = s_written[commit_idx_i] ? s_key_gen[commit_idx_i]
                                                         : onerma_rrt.meta_q[commit_idx_i].key_gen;
      s_written[commit_idx_i] <= 1'b1;
      s_ent[commit_idx_i]     <= commit_entry_i;
      s_gen[commit_idx_i]     <= g + 16'd1;
      s_key_gen[commit_idx_i] <= k + 8'd1;
    end else if (inst_ok_o) begin
      s_ent[inst_idx_i].key   <= inst_key_i;
      s_key_gen[inst_idx_i]   <= s_key_gen[inst_idx_i] + 8'd1;
    end
  end

  // The install rule, from the shadow.
  always_comb if (rst_ni) begin
    assert (inst_ready_o == !commit_i);
    assert (inst_ok_o == (inst_fire && 32'(inst_idx_i) < NumRegions && s_ent[inst_idx_i].valid
                          && s_gen[inst_idx_i] == inst_gen_i
                          && s_key_gen[inst_idx_i] == inst_key_gen_i));
    for (int unsigned i = 0; i < NumRegions; i++) begin
      assert (valid_q[i] == s_ent[i].valid);
      if (s_ent[i].valid) assert (s_written[i]);
      if (s_written[i]) assert (s_ent[i].rsvd0 == '0);
      if (s_written[i]) begin
        assert (onerma_rrt.meta_q[i].gen == s_gen[i] && onerma_rrt.meta_q[i].key_gen == s_key_gen[i]);
        assert (onerma_rrt.body_q[i].gen == s_gen[i]);
        assert (onerma_rrt.key_q[i].key_gen == s_key_gen[i]);
        assert (onerma_rrt.key_q[i].key == s_ent[i].key);
        assert (onerma_rrt.body_q[i].owner_pid == s_ent[i].owner_pid && onerma_rrt.body_q[i].base_addr == s_ent[i].base_addr
                && onerma_rrt.body_q[i].size == s_ent[i].size);
        assert ({onerma_rrt.body_q[i].perm_remote_read, onerma_rrt.body_q[i].perm_remote_write, onerma_rrt.body_q[i].perm_remote_rekey,
                 onerma_rrt.body_q[i].perm_local_read, onerma_rrt.body_q[i].perm_local_write}
                == {s_ent[i].perm_remote_read, s_ent[i].perm_remote_write, s_ent[i].perm_remote_rekey,
                    s_ent[i].perm_local_read, s_ent[i].perm_local_write});
      end
    end
  end

  // Each lookup returns the shadow entry of the cycle it was issued.
  for (genvar p = 0; p < NumPorts; p++) begin : g_port
    logic       done_q, exp_valid_q;
    rrt_entry_t exp_ent_q;
    logic [15:0] exp_gen_q;
    logic [7:0]  exp_key_gen_q;
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        done_q <= 1'b0;
      end else if (rd_valid_i[p]) begin
        done_q        <= 1'b1;
        exp_valid_q   <= 32'(rd_idx_i[p]) < NumRegions && s_ent[rd_idx_i[p]].valid;
        exp_ent_q     <= s_ent[rd_idx_i[p]];
        exp_gen_q     <= s_gen[rd_idx_i[p]];
        exp_key_gen_q <= s_key_gen[rd_idx_i[p]];
      end
    end
    always_comb if (rst_ni && done_q) begin
      assert (rd_entry_o[p].valid == exp_valid_q);
      if (exp_valid_q) assert (exp_ent_q.rsvd0 == '0);
      if (exp_valid_q) begin
        assert (rd_entry_o[p] == exp_ent_q);
        assert (rd_gen_o[p] == exp_gen_q);
        assert (rd_key_gen_o[p] == exp_key_gen_q);
      end
    end
  end

  // ---- Reachability.
  always_comb if (rst_ni) begin
    cover (inst_ok_o);
    cover (inst_valid_i && !inst_ready_o);
    cover (rd_valid_i[0] && commit_i && rd_idx_i[0] == commit_idx_i && s_ent[commit_idx_i].valid);
    cover (g_port[NumPorts-1].done_q && rd_entry_o[NumPorts-1].valid && inst_ok_o);
  end

endmodule

bind onerma_rrt onerma_rrt_props #(
  .NumRegions(NumRegions),
  .NumPorts  (NumPorts),
  .IdxWidth  (IdxWidth),
  .AW        (AW)
) u_props (.*);
`endif

`default_nettype wire
