`default_nettype none

/// Types and helpers shared by the stages of the AES-GCM engine (onerma_gcm_engine and its
/// parts onerma_gcm_desc, _issuer, _sort, _data, _tag) and by the engine's users.
///
/// Data formats:
/// - A 128-bit block or beat holds byte 0 of its message part in bits [127:120] (GCM's order).
/// - A byte mask has one bit per byte of a beat, bit 15 for byte 0, so that bit i of the mask
///   covers bits [8i+7:8i] of the beat.
/// - Lengths are in bytes; the GCM length block holds them in bits.
///
/// The stream payloads whose layout depends on the engine's parameters (LenW, meta_t) are not
/// here but parameter types of the modules: SystemVerilog has no parameterized typedef outside a
/// class, and the pool proof instantiates the pool with LenW = 6. Only din's payload is fixed.
package onerma_gcm_pkg;

  /// What an AES result is, carried through the AES core as its meta.
  typedef enum logic [1:0] {
    KindH    = 2'd0,  // E_K(0^128): the hash key H
    KindMask = 2'd1,  // E_K(J0): the tag mask
    KindKs   = 2'd2   // E_K(IV || counter): keystream
  } kind_e;

  /// The part of a message the data stage is in.
  typedef enum logic [1:0] {
    PhAad = 2'd0,
    PhPt  = 2'd1,
    PhLen = 2'd2  // the length block
  } phase_e;

  /// Payload of the din stream: one 128-bit beat of AAD or payload.
  typedef struct packed {
    logic [127:0] data;
  } din_t;

  /// 16-byte beats of a part of len bytes.
  function automatic logic [31:0] beat_count(input logic [31:0] len);
    return (len + 32'd15) >> 4;
  endfunction

  /// Byte mask keeping the first nbytes bytes of a beat (nbytes = 0 means all 16).
  function automatic logic [15:0] keep_mask(input logic [3:0] nbytes);
    return (nbytes == 4'd0) ? '1 : ~(16'hffff >> nbytes);
  endfunction

  /// A byte mask widened to the beat's 128 bits.
  function automatic logic [127:0] bit_mask(input logic [15:0] bytes);
    logic [127:0] m;
    for (int unsigned i = 0; i < 16; i++) begin
      m[8*i +: 8] = {8{bytes[i]}};
    end
    return m;
  endfunction

  /// The GCM length block [len(A)]64 || [len(C)]64 from byte lengths below 2^29.
  function automatic logic [127:0] len_block(input logic [31:0] aad_len,
                                             input logic [31:0] pt_len);
    return {29'd0, aad_len, 3'b0, 29'd0, pt_len, 3'b0};
  endfunction

endpackage

`default_nettype wire
