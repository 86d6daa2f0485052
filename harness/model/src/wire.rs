//! Frames on the wire: sizes, chunking and the header checks of protocol.md §3.3.

use onerma_layouts::{
    CHUNK_BYTES, DISPATCH_QUANTUM_BYTES, Hdr, MAX_OP_BYTES, MsgType, OpType, REKEY_BYTES, Status,
    WINDOW_LINE_BYTES,
};

use crate::crypto::TAG_LEN;

/// Header bytes (the GCM AAD).
pub const HDR_LEN: usize = Hdr::BYTES;
/// Shortest frame: header and tag, no payload.
pub const FRAME_MIN: usize = HDR_LEN + TAG_LEN;
/// Largest op.
pub const MAX_OP: u32 = MAX_OP_BYTES as u32;
/// Data bytes of every chunk but an op's last.
pub const CHUNK: u32 = CHUNK_BYTES as u32;
/// Most chunks of an op.
pub const MAX_CHUNKS: u32 = MAX_OP / CHUNK;
/// Window allocation unit.
pub const LINE: u32 = WINDOW_LINE_BYTES as u32;
/// Free lines an op needs before it may enter service (§2.3).
pub const QUANTUM_LINES: u32 = DISPATCH_QUANTUM_BYTES as u32 / LINE;
/// A REKEY's length.
pub const REKEY_LEN: u16 = REKEY_BYTES as u16;
/// Largest `count` part of the message counter (§10).
pub const COUNT_MAX: u64 = (1 << 48) - 1;

/// Chunks of an op of `len` bytes.
#[must_use]
pub fn n_chunks(len: u32) -> u32 {
    len.div_ceil(CHUNK)
}

/// Size of chunk `i` of an op of `len` bytes (0 if out of range).
#[must_use]
pub fn chunk_len(len: u32, i: u32) -> u32 {
    let off = i.saturating_mul(CHUNK);
    if off >= len {
        0
    } else {
        (len - off).min(CHUNK)
    }
}

/// Window lines an op of `len` bytes holds (§5).
#[must_use]
pub fn lines_for(len: u32) -> u32 {
    len.div_ceil(LINE)
}

/// `[off, off + len)` fits in a region of `size` bytes, without overflow.
#[must_use]
pub fn in_bounds(off: u64, len: u64, size: u64) -> bool {
    off.checked_add(len).is_some_and(|end| end <= size)
}

/// The hop-1 request message of an op type.
#[must_use]
pub fn request_msg(op: OpType) -> MsgType {
    match op {
        OpType::Read => MsgType::RdReq,
        OpType::Write => MsgType::WrReq,
        OpType::Rekey => MsgType::RekeyReq,
    }
}

/// The rules of §3.3 a header must meet on its own (the frame length is checked by the caller).
#[must_use]
pub fn well_formed(h: &Hdr) -> bool {
    use MsgType as M;
    let len = u32::from(h.length);
    if len == 0 || len > MAX_OP {
        return false;
    }
    let payload = matches!(h.msg_type, M::RdResp | M::WrData);
    if payload {
        let off = u32::from(h.chunk_offset);
        // A chunk at or beyond the op's end does not exist (its size would be 0).
        if off % CHUNK != 0 || off >= len || u32::from(h.chunk_len) != chunk_len(len, off / CHUNK) {
            return false;
        }
    } else if h.chunk_len != 0 || h.chunk_offset != 0 {
        return false;
    }
    let op_ok = match h.msg_type {
        M::RdReq | M::RdResp => h.op_type == OpType::Read,
        M::WrReq => h.op_type == OpType::Write,
        M::RekeyReq => h.op_type == OpType::Rekey,
        M::WrRdreq | M::WrData | M::WrCmpl => matches!(h.op_type, OpType::Write | OpType::Rekey),
        M::Nack | M::AuthFail | M::AccessErr => true,
    };
    let status_ok = match h.msg_type {
        M::WrCmpl => matches!(h.status, Status::Ok | Status::RemoteAccessError),
        M::Nack => h.status == Status::Nack,
        M::AuthFail => h.status == Status::RemoteAuthenticationFailure,
        M::AccessErr => h.status == Status::RemoteAccessError,
        _ => h.status == Status::Ok,
    };
    let hop1 = matches!(h.msg_type, M::RdReq | M::WrReq | M::RekeyReq);
    let prev_ok = !hop1 || h.prev_counter == 0;
    let ctx_ok = matches!(h.msg_type, M::WrRdreq | M::WrData | M::WrCmpl) || h.ctx == 0;
    let hold_ok = h.msg_type == M::WrRdreq || h.hold_ns == 0;
    op_ok && status_ok && prev_ok && ctx_ok && hold_ok
}

/// Parses and checks a frame's header (§3.3 except the destination). `None`: malformed.
#[must_use]
pub fn parse(frame: &[u8]) -> Option<Hdr> {
    if frame.len() < FRAME_MIN {
        return None;
    }
    let h = Hdr::from_bytes(&frame[..HDR_LEN]).ok()?;
    (frame.len() == FRAME_MIN + usize::from(h.chunk_len) && well_formed(&h)).then_some(h)
}

/// The payload part of a whole frame.
pub fn payload_mut(frame: &mut [u8]) -> &mut [u8] {
    let n = frame.len();
    &mut frame[HDR_LEN..n - TAG_LEN]
}

/// A header with every field zero (a template to fill).
#[must_use]
pub fn empty_hdr() -> Hdr {
    Hdr {
        msg_type: MsgType::RdReq,
        op_type: OpType::Read,
        status: Status::Ok,
        src_nic: 0,
        dst_nic: 0,
        counter: 0,
        prev_counter: 0,
        pid: 0,
        region: 0,
        slot: 0,
        offset: 0,
        length: 0,
        chunk_offset: 0,
        chunk_len: 0,
        ctx: 0,
        hold_ns: 0,
    }
}

/// Fields every message of an op echoes (§7.4, A6): equal on a response and its request.
#[must_use]
pub fn echo_matches(a: &Hdr, b: &Hdr) -> bool {
    a.op_type == b.op_type
        && a.pid == b.pid
        && a.region == b.region
        && a.slot == b.slot
        && a.offset == b.offset
        && a.length == b.length
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunking() {
        assert_eq!(CHUNK, 2048);
        assert_eq!(n_chunks(1), 1);
        assert_eq!(n_chunks(2048), 1);
        assert_eq!(n_chunks(2049), 2);
        assert_eq!(n_chunks(4096), 2);
        assert_eq!(chunk_len(2049, 0), 2048);
        assert_eq!(chunk_len(2049, 1), 1);
        assert_eq!(chunk_len(2049, 2), 0);
        assert_eq!(lines_for(1), 1);
        assert_eq!(lines_for(64), 1);
        assert_eq!(lines_for(65), 2);
        assert_eq!(lines_for(4096), 64);
        assert_eq!(QUANTUM_LINES, 64);
    }

    #[test]
    fn header_rules() {
        let ok = Hdr {
            length: 100,
            ..empty_hdr()
        };
        assert!(well_formed(&ok));
        assert!(!well_formed(&Hdr {
            length: 0,
            ..ok.clone()
        }));
        assert!(!well_formed(&Hdr {
            length: 4097,
            ..ok.clone()
        }));
        assert!(!well_formed(&Hdr {
            ctx: 1,
            ..ok.clone()
        }));
        assert!(!well_formed(&Hdr {
            hold_ns: 1,
            ..ok.clone()
        }));
        assert!(!well_formed(&Hdr {
            prev_counter: 1,
            ..ok.clone()
        }));
        let resp = Hdr {
            msg_type: MsgType::RdResp,
            length: 3000,
            chunk_offset: 2048,
            chunk_len: 952,
            prev_counter: 9,
            ..empty_hdr()
        };
        assert!(well_formed(&resp));
        assert!(!well_formed(&Hdr {
            chunk_len: 951,
            ..resp.clone()
        }));
        assert!(!well_formed(&Hdr {
            chunk_offset: 512,
            ..resp.clone()
        }));
        let cmpl = Hdr {
            msg_type: MsgType::WrCmpl,
            op_type: OpType::Write,
            status: Status::Timeout,
            length: 16,
            ..empty_hdr()
        };
        assert!(
            !well_formed(&cmpl),
            "A5: WR_CMPL carries OK or REMOTE_ACCESS_ERROR only"
        );
        assert!(well_formed(&Hdr {
            status: Status::RemoteAccessError,
            ..cmpl
        }));
    }
}
