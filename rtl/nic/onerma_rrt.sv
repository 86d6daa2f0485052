`default_nettype none

/// Registered region table (protocol.md §4): `NumRegions` entries with the NIC-maintained
/// generation counters, read by the NIC's lookups, written by the driver and by REKEY installs.
///
/// - **Storage.** The entry's `valid` bits are flops (so the table is empty after reset); the
///   rest of each entry is in RAM, no reset: a "body" RAM (permissions, owner PID, base, size,
///   `gen`) and a key RAM (`key`, `key_gen`), each with one synchronous read port per lookup
///   port (block RAM), plus a small RAM of `{gen, key_gen}` read asynchronously by the write
///   side to increment and compare.
/// - **Lookups** (`NumPorts`, default 2: initiator and responder, H11): an index in one cycle,
///   the whole entry with `gen` and `key_gen` the next. A lookup in the cycle of a write sees
///   the table as it was before that write, every part of it: a lookup sees the old or the new
///   entry, never a mix (§4.1). An index >= `NumRegions` reads as an invalid entry.
/// - **Driver commit** (`commit_*`, the pulse of onerma_csr): writes the whole entry and
///   increments `gen` and `key_gen`, in one cycle.
/// - **REKEY install** (`inst_*`, §8.6 rule S5): compare-and-write in one cycle: the new key is
///   written and `key_gen` incremented iff the entry is valid and its `gen` and `key_gen` equal
///   the values the REKEY memoized at its check; `inst_ok_o` tells which. Commits cannot wait
///   (they are register writes), so an install is not accepted in a cycle with a commit
///   (`inst_ready_o` low) and is decided in a later cycle against the table as the commit left
///   it: every RAM has one writer per cycle.
module onerma_rrt #(
  /// Entries (default 256; small configuration 16).
  parameter int unsigned NumRegions = 256,
  /// Lookup ports.
  parameter int unsigned NumPorts   = 2,
  /// Width of a region index at the ports (the header's RegionId is 16 bits).
  parameter int unsigned IdxWidth   = 16
) (
  input  logic                                   clk_i,
  input  logic                                   rst_ni,
  // Lookups.
  input  logic [NumPorts-1:0]                    rd_valid_i,
  input  logic [NumPorts-1:0][IdxWidth-1:0]      rd_idx_i,
  /// The entry looked up in the previous cycle (held until the next lookup on the port).
  output onerma_pkg::rrt_entry_t [NumPorts-1:0]  rd_entry_o,
  output logic [NumPorts-1:0][15:0]              rd_gen_o,
  output logic [NumPorts-1:0][7:0]               rd_key_gen_o,
  // Driver commit.
  input  logic                                   commit_i,
  input  logic [IdxWidth-1:0]                    commit_idx_i,
  input  onerma_pkg::rrt_entry_t                 commit_entry_i,
  // REKEY install.
  input  logic                                   inst_valid_i,
  output logic                                   inst_ready_o,
  input  logic [IdxWidth-1:0]                    inst_idx_i,
  input  logic [127:0]                           inst_key_i,
  input  logic [15:0]                            inst_gen_i,
  input  logic [7:0]                             inst_key_gen_i,
  /// In the cycle of the install handshake: the key was installed.
  output logic                                   inst_ok_o
);

  localparam int unsigned AW = (NumRegions > 1) ? $clog2(NumRegions) : 1;

  // Body: the entry without `valid` and `key`, and `gen`.
  typedef struct packed {
    logic        perm_remote_read;
    logic        perm_remote_write;
    logic        perm_remote_rekey;
    logic        perm_local_read;
    logic        perm_local_write;
    logic [31:0] owner_pid;
    logic [63:0] base_addr;
    logic [63:0] size;
    logic [15:0] gen;
  } body_t;

  typedef struct packed {
    logic [127:0] key;
    logic [7:0]   key_gen;
  } key_t;

  typedef struct packed {
    logic [15:0] gen;
    logic [7:0]  key_gen;
  } meta_t;

  logic [NumRegions-1:0] valid_q;
  body_t                 body_q [NumRegions];
  key_t                  key_q  [NumRegions];
  meta_t                 meta_q [NumRegions];

  logic                  commit_in, inst_in, inst_fire;
  logic [AW-1:0]         cidx, iidx;
  meta_t                 cmeta, imeta;

  assign commit_in = commit_i && (32'(commit_idx_i) < NumRegions);
  assign cidx      = AW'(commit_idx_i);
  assign iidx      = AW'(inst_idx_i);
  assign cmeta     = meta_q[cidx];
  assign imeta     = meta_q[iidx];
  assign inst_in   = 32'(inst_idx_i) < NumRegions;

  assign inst_ready_o = !commit_i;
  assign inst_fire    = inst_valid_i && inst_ready_o;
  assign inst_ok_o    = inst_fire && inst_in && valid_q[iidx] && imeta.gen == inst_gen_i &&
                        imeta.key_gen == inst_key_gen_i;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      valid_q <= '0;
    end else if (commit_in) begin
      valid_q[cidx] <= commit_entry_i.valid;
    end
  end

  // One writer per RAM per cycle: a commit, or else an install.
  always_ff @(posedge clk_i) begin
    if (commit_in) begin
      body_q[cidx] <= '{
        perm_remote_read:  commit_entry_i.perm_remote_read,
        perm_remote_write: commit_entry_i.perm_remote_write,
        perm_remote_rekey: commit_entry_i.perm_remote_rekey,
        perm_local_read:   commit_entry_i.perm_local_read,
        perm_local_write:  commit_entry_i.perm_local_write,
        owner_pid:         commit_entry_i.owner_pid,
        base_addr:         commit_entry_i.base_addr,
        size:              commit_entry_i.size,
        gen:               cmeta.gen + 16'd1
      };
      key_q[cidx]  <= '{key: commit_entry_i.key, key_gen: cmeta.key_gen + 8'd1};
      meta_q[cidx] <= '{gen: cmeta.gen + 16'd1, key_gen: cmeta.key_gen + 8'd1};
    end else if (inst_ok_o) begin
      key_q[iidx]  <= '{key: inst_key_i, key_gen: imeta.key_gen + 8'd1};
      meta_q[iidx] <= '{gen: imeta.gen, key_gen: imeta.key_gen + 8'd1};
    end
  end

  for (genvar p = 0; p < NumPorts; p++) begin : g_port
    logic [AW-1:0] ridx;
    logic          in_q, valid_rd_q;
    body_t         body_rd_q;
    key_t          key_rd_q;

    assign ridx = AW'(rd_idx_i[p]);

    // Read-first: a lookup in the cycle of a write returns the entry from before it.
    always_ff @(posedge clk_i) begin
      if (rd_valid_i[p]) begin
        in_q       <= 32'(rd_idx_i[p]) < NumRegions;
        valid_rd_q <= valid_q[ridx];
        body_rd_q  <= body_q[ridx];
        key_rd_q   <= key_q[ridx];
      end
    end

    assign rd_entry_o[p] = '{
      valid:             in_q && valid_rd_q,
      perm_remote_read:  body_rd_q.perm_remote_read,
      perm_remote_write: body_rd_q.perm_remote_write,
      perm_remote_rekey: body_rd_q.perm_remote_rekey,
      perm_local_read:   body_rd_q.perm_local_read,
      perm_local_write:  body_rd_q.perm_local_write,
      rsvd0:             '0,
      owner_pid:         body_rd_q.owner_pid,
      base_addr:         body_rd_q.base_addr,
      size:              body_rd_q.size,
      key:               key_rd_q.key
    };
    assign rd_gen_o[p]     = body_rd_q.gen;
    assign rd_key_gen_o[p] = key_rd_q.key_gen;
  end

  // Reserved bits are zero by the layout (the CSR stages none); nothing stores them.
  logic unused_rsvd;
  assign unused_rsvd = ^commit_entry_i.rsvd0;

`ifndef SYNTHESIS
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (rst_ni) begin
      assert (!(commit_i && !commit_in))
      else $error("onerma_rrt: commit to entry %0d of %0d", commit_idx_i, NumRegions);
    end
  end
`endif

endmodule

`default_nettype wire
