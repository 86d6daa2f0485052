`default_nettype none

/// Issuer of the AES-GCM engine: per message, three kinds of AES requests, in this order.
///
/// Data formats:
/// - in: the descriptor at the head of onerma_gcm_desc's output skid {key, iv, n_pt (payload
///   beats)}. It stays there while the issuer works on it and leaves (in_ready_o) the cycle after
///   its last block is issued.
/// - start_o: one pulse per message as the issuer takes it; the engine pushes the message's info
///   and expected tag into their FIFOs with it, so start_ready_i is those FIFOs' ready.
/// - aes (to onerma_aes_core): {key, block, kind}: 0^128 (KindH, gives H), J0 = IV || 1
///   (KindMask, gives the tag mask), then IV || 2, 3, ... (KindKs, one per payload beat).
///
/// Why the descriptor is worked on in place: the AES core takes the key and IV straight from the
/// skid's registers. Copying them out at the start needed ~220 flops whose load enable was the
/// start decode, and those nets were the engine's worst paths in context. The price is one cycle
/// per message (2 + payload blocks + 1), which the benchmarks do not see: the issuer runs ahead
/// of the data by the keystream FIFO, and short messages are limited by the power table of H.
module onerma_gcm_issuer #(
  parameter int unsigned LenW = 16
) (
  input  logic                     clk_i,
  input  logic                     rst_ni,

  input  logic                     in_valid_i,
  output logic                     in_ready_o,
  input  logic [127:0]             in_key_i,
  input  logic [95:0]              in_iv_i,
  input  logic [LenW-4:0]          in_n_pt_i,

  output logic                     start_o,
  input  logic                     start_ready_i,

  output logic                     aes_valid_o,
  input  logic                     aes_ready_i,
  output logic [127:0]             aes_key_o,
  output logic [127:0]             aes_block_o,
  output onerma_gcm_pkg::kind_e    aes_kind_o
);

  import onerma_gcm_pkg::*;

  localparam int unsigned BeatW = LenW - 3;

  logic             busy_q, busy_d;
  logic             done_q;  // the head descriptor is issued: it leaves the skid now
  kind_e            kind_q, kind_d;
  logic [31:0]      ctr_q;
  logic [BeatW-1:0] left_q;  // counter blocks still to issue, the current one included
  logic             issue;

  assign start_o    = in_valid_i && !busy_q && !done_q && start_ready_i;
  assign in_ready_o = done_q;
  assign issue      = busy_q && aes_ready_i;

  always_comb begin : next_kind
    busy_d = busy_q;
    kind_d = kind_q;
    if (start_o) begin
      busy_d = 1'b1;
      kind_d = KindH;
    end else if (issue) begin
      unique case (kind_q)
        KindH:   kind_d = KindMask;
        KindMask: begin
          kind_d = KindKs;
          busy_d = (left_q != '0);
        end
        // left_q still counts the block going in now.
        default: busy_d = (left_q != BeatW'(1));
      endcase
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : state_regs
    if (!rst_ni) begin
      busy_q <= 1'b0;
      done_q <= 1'b0;
      kind_q <= KindH;
    end else begin
      busy_q <= busy_d;
      done_q <= busy_q && !busy_d;
      kind_q <= kind_d;
    end
  end

  // Loaded while idle, so no reset.
  always_ff @(posedge clk_i) begin : counter_regs
    if (!busy_q) begin
      ctr_q  <= 32'd1;
      left_q <= in_n_pt_i;
    end else if (issue && (kind_q != KindH)) begin
      // inc32 of SP 800-38D: the 32-bit counter wraps on its own.
      ctr_q <= ctr_q + 32'd1;
      if (kind_q == KindKs) begin
        left_q <= left_q - BeatW'(1);
      end
    end
  end

  assign aes_valid_o = busy_q;
  assign aes_key_o   = in_key_i;
  assign aes_block_o = (kind_q == KindH) ? 128'h0 : {in_iv_i, ctr_q};
  assign aes_kind_o  = kind_q;

endmodule

`default_nettype wire
