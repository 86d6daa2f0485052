//! Bench parts shared by the host DMA tests (`nic_dma_wr`, `nic_dma_rd`), written from
//! protocol.md §4.1 / §4.2 and the AXI4 rules, never from the RTL: a client request, the region
//! check before every burst, how a request is cut into bursts, and a registered region table
//! that answers lookups one cycle after the handshake (read-first: a commit in the lookup cycle
//! is not seen) and changes by whole-entry commits that increment `rgen`.
//! Also the §3.1 chunking (`CHUNK`, `chunk_len`) and a read's expected status against `AxiMem`
//! (`read_status`), shared by the chunk senders' tests (`nic_ini_wrdata`, `nic_rsp_read`).

use onerma_layouts::RrtEntry;
use std::ops::Range;

use rand::Rng;
use rand::rngs::StdRng;

use crate::axi::Resp;
use crate::bits::be_to_words;

/// Request outcome (`onerma_pkg::dma_status_e`, spec/layouts.json `dma_status`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DmaStatus {
    Ok = 0,
    Region = 1,
    SlvErr = 2,
    DecErr = 3,
}

impl DmaStatus {
    pub fn from_bits(b: u8) -> Self {
        match b & 3 {
            0 => Self::Ok,
            1 => Self::Region,
            2 => Self::SlvErr,
            _ => Self::DecErr,
        }
    }

    /// The status of a burst answered `r`.
    pub fn from_resp(r: Resp) -> Self {
        match r {
            Resp::Okay => Self::Ok,
            Resp::SlvErr => Self::SlvErr,
            Resp::DecErr => Self::DecErr,
        }
    }
}

/// Permission bits of a request, MSB first as in `rrt_entry`.
pub const PERM_REMOTE_READ: u8 = 1 << 4;
pub const PERM_REMOTE_WRITE: u8 = 1 << 3;
pub const PERM_REMOTE_REKEY: u8 = 1 << 2;
pub const PERM_LOCAL_READ: u8 = 1 << 1;
pub const PERM_LOCAL_WRITE: u8 = 1;

/// One client request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Req {
    pub addr: u64,
    /// 1..=4096 bytes.
    pub len: u16,
    pub region: u16,
    pub rgen: u16,
    /// Required permission bits (`PERM_*`).
    pub perm: u8,
    pub tag: u8,
}

impl Req {
    pub fn end(&self) -> u128 {
        u128::from(self.addr) + u128::from(self.len)
    }

    /// Client data beats: `ceil(len / bytes)`.
    pub fn client_beats(&self, bytes: usize) -> usize {
        usize::from(self.len).div_ceil(bytes)
    }
}

/// The permission bits an entry grants, in the request's bit order.
pub fn entry_perm(e: &RrtEntry) -> u8 {
    (e.perm_remote_read << 4)
        | (e.perm_remote_write << 3)
        | (e.perm_remote_rekey << 2)
        | (e.perm_local_read << 1)
        | e.perm_local_write
}

/// §4.1 before a burst of `r`: valid, the memoized `rgen`, every required permission, and the
/// whole request `[addr, addr + len)` inside `[base, base + size)`, computed without overflow;
/// host addresses do not wrap, so a request past 2^64 is never inside.
pub fn passes(e: &RrtEntry, rgen: u16, r: &Req) -> bool {
    e.valid == 1
        && rgen == r.rgen
        && entry_perm(e) & r.perm == r.perm
        && r.addr >= e.base_addr
        && r.end() <= u128::from(e.base_addr) + u128::from(e.size)
        && r.end() <= 1u128 << 64
}

/// One AXI4 INCR burst: start address (the request's address for the first, bus-aligned after)
/// and beats.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Burst {
    pub addr: u64,
    pub beats: usize,
}

/// The bursts of a request: never across a 4 KB boundary, at most `max_beats` bus beats each.
pub fn cut(r: &Req, bytes: usize, max_beats: usize) -> Vec<Burst> {
    let b = bytes as u128;
    let end = r.end();
    let mut start = u128::from(r.addr);
    let mut out = Vec::new();
    while start < end {
        let base = start & !(b - 1);
        let page_end = (start | 0xfff) + 1;
        let stop = end.min(page_end).min(base + max_beats as u128 * b);
        let beats = (stop - base).div_ceil(b) as usize;
        out.push(Burst {
            addr: start as u64,
            beats,
        });
        start = stop;
    }
    out
}

/// Byte ranges beat `n` of a burst covers (beat 0 from the burst's own address, AXI4).
pub fn beat_range(bu: &Burst, n: usize, bytes: usize) -> std::ops::Range<u128> {
    let b = bytes as u128;
    let base = u128::from(bu.addr) & !(b - 1);
    let lo = if n == 0 {
        u128::from(bu.addr)
    } else {
        base + n as u128 * b
    };
    lo..base + (n as u128 + 1) * b
}

/// The bench's registered region table.
#[derive(Debug, Clone)]
pub struct Rrt {
    pub entries: Vec<(RrtEntry, u16)>,
    /// The answer on the port (entry words, rgen) for the lookup of the previous cycle.
    answer: ([u32; 10], u16),
}

/// An invalid entry: what an index past the table reads.
pub fn invalid_entry() -> RrtEntry {
    RrtEntry {
        valid: 0,
        perm_remote_read: 0,
        perm_remote_write: 0,
        perm_remote_rekey: 0,
        perm_local_read: 0,
        perm_local_write: 0,
        owner_pid: 0,
        base_addr: 0,
        size: 0,
        key: 0,
    }
}

impl Rrt {
    pub fn new(entries: Vec<(RrtEntry, u16)>) -> Self {
        Self {
            entries,
            answer: ([0; 10], 0),
        }
    }

    /// The entry and rgen an index reads now (invalid past the table).
    pub fn read(&self, idx: u16) -> (RrtEntry, u16) {
        self.entries
            .get(usize::from(idx))
            .cloned()
            .unwrap_or((invalid_entry(), 0))
    }

    /// What the port drives this cycle.
    pub fn answer(&self) -> &([u32; 10], u16) {
        &self.answer
    }

    /// A lookup handshake this cycle: the answer of the next cycle, from the table as it is
    /// now (call before [`Rrt::commit`] of the same cycle: read-first).
    pub fn lookup(&mut self, idx: u16) -> (RrtEntry, u16) {
        let (e, g) = self.read(idx);
        self.answer = (be_to_words(&e.to_bytes().expect("entry")), g);
        (e, g)
    }

    /// A driver commit: the whole entry replaced, `rgen` incremented.
    pub fn commit(&mut self, idx: usize, e: RrtEntry) {
        if let Some(slot) = self.entries.get_mut(idx) {
            slot.0 = e;
            slot.1 = slot.1.wrapping_add(1);
        }
    }
}

/// A valid entry covering the whole memory `[0, mem)` with the permissions `need` (the other
/// fields as [`random_entry`] draws them): the throughput tests' region.
pub fn whole_memory_entry(rng: &mut StdRng, mem: u64, need: u8) -> RrtEntry {
    let mut e = random_entry(rng, mem, need);
    e.valid = 1;
    e.perm_remote_read |= (need >> 4) & 1;
    e.perm_remote_write |= (need >> 3) & 1;
    e.perm_remote_rekey |= (need >> 2) & 1;
    e.perm_local_read |= (need >> 1) & 1;
    e.perm_local_write |= need & 1;
    e.base_addr = 0;
    e.size = mem;
    e
}

/// A random region entry: mostly inside a `mem`-byte memory from address 0, sometimes at the
/// top of the address space (bounds sums past 2^64), with random permissions.
pub fn random_entry(rng: &mut StdRng, mem: u64, need: u8) -> RrtEntry {
    let bit = |rng: &mut StdRng, p: u8| u8::from(rng.random_range(0u8..100) < p);
    let perm = if rng.random_range(0u8..100) < 90 {
        need | rng.random_range(0u8..32)
    } else {
        rng.random_range(0u8..32)
    };
    let (base_addr, size) = if rng.random_range(0u8..10) == 0 {
        // The top of the address space: sums overflow 64 bits.
        let base = u64::MAX - rng.random_range(0..4 * 4096);
        (base, rng.random_range(0..=u64::MAX))
    } else {
        let base = rng.random_range(0..mem - 1);
        let size = match rng.random_range(0u8..5) {
            0 => rng.random_range(0..=mem - base),
            _ => mem - base,
        };
        (base, size)
    };
    RrtEntry {
        valid: bit(rng, 95),
        perm_remote_read: (perm >> 4) & 1,
        perm_remote_write: (perm >> 3) & 1,
        perm_remote_rekey: (perm >> 2) & 1,
        perm_local_read: (perm >> 1) & 1,
        perm_local_write: perm & 1,
        owner_pid: rng.random(),
        base_addr,
        size,
        key: rng.random(),
    }
}

/// A random request for region `region` of `rrt`: mostly inside it, sometimes across its ends
/// or at the top of the address space; `len` 1..=4096 with random alignment, so bursts cross
/// 4 KB boundaries.
pub fn random_req(rng: &mut StdRng, rrt: &Rrt, regions: u16, mem: u64, need: u8, tag: u8) -> Req {
    // Mostly a region that is valid and grants `need`, so most requests can pass.
    let usable: Vec<u16> = (0..regions)
        .filter(|i| {
            let (e, _) = rrt.read(*i);
            e.valid == 1 && entry_perm(&e) & need == need && e.base_addr < mem
        })
        .collect();
    let region = match rng.random_range(0u8..20) {
        0 => regions,
        1..=3 => rng.random_range(0..regions),
        _ if !usable.is_empty() => usable[rng.random_range(0..usable.len())],
        _ => rng.random_range(0..regions),
    };
    let (e, rgen) = rrt.read(region);
    let len: u16 = match rng.random_range(0u8..6) {
        0 => rng.random_range(1..=64),
        1 => 4096,
        _ => rng.random_range(1..=4096),
    };
    let addr = match rng.random_range(0u8..20) {
        0 => rng.random_range(0..mem),
        1 if len > 1 => 0u64.wrapping_sub(rng.random_range(1..u64::from(len))),
        1 => u64::MAX - rng.random_range(0..8192),
        _ => {
            let room = e.size.saturating_sub(u64::from(len));
            e.base_addr
                .wrapping_add(rng.random_range(0..=room.min(mem)))
        }
    };
    // The memory model's addresses stay below 2^64 - 4096: a request that ends in the last
    // page without wrapping moves below it (wrapping ones stay: they must fail the check).
    let end = u128::from(addr) + u128::from(len);
    let addr = if end <= 1u128 << 64 && end > (1u128 << 64) - 4096 {
        u64::MAX - 8191 - rng.random_range(0..4096)
    } else {
        addr
    };
    Req {
        addr,
        len,
        region,
        rgen: if rng.random_range(0u8..20) == 0 {
            rgen.wrapping_sub(1)
        } else {
            rgen
        },
        perm: if rng.random_range(0u8..20) == 0 {
            rng.random_range(0u8..32)
        } else {
            need
        },
        tag,
    }
}

/// Protocol CHUNK_BYTES (§3.1): an op's payload travels in chunks of this size.
pub const CHUNK: usize = onerma_layouts::CHUNK_BYTES;

/// Chunks of a largest op, and the width and mask of a chunk index in the RTL's metas and tags.
pub const NCH: usize = onerma_layouts::MAX_CHUNKS;
pub const CIB: u32 = onerma_layouts::CHUNK_INDEX_BITS as u32;
pub const CMASK: u32 = (1 << CIB) - 1;

/// §3.1: the size of chunk `k` of an op of `len` bytes (0 past the op).
pub fn chunk_len(len: usize, k: usize) -> usize {
    len.saturating_sub(k * CHUNK).min(CHUNK)
}

/// The AXI answer `AxiMem` gives a beat covering `r`: the first error range holding a byte of
/// the beat, DECERR past a memory of `mem` bytes, else none (OKAY).
pub fn err_of(ranges: &[(Range<u64>, Resp)], mem: u64, r: &Range<u128>) -> Option<Resp> {
    let hit = ranges
        .iter()
        .find(|(e, _)| u128::from(e.start) < r.end && r.start < u128::from(e.end))
        .map(|(_, resp)| *resp);
    hit.or_else(|| (r.end > u128::from(mem)).then_some(Resp::DecErr))
}

/// The status of a client read with the table static during it (§4.1): REGION if the check
/// fails, else the answer of the first erroneous AXI beat in burst order (`cut` into bursts of
/// at most `max` beats of `bytes`, memory of `mem` bytes with error ranges `errors`), else OK.
pub fn read_status(
    r: &Req,
    rrt: &Rrt,
    errors: &[(Range<u64>, Resp)],
    mem: u64,
    bytes: usize,
    max: usize,
) -> DmaStatus {
    let (e, g) = rrt.read(r.region);
    if !passes(&e, g, r) {
        return DmaStatus::Region;
    }
    for bu in cut(r, bytes, max) {
        for n in 0..bu.beats {
            if let Some(resp) = err_of(errors, mem, &beat_range(&bu, n, bytes)) {
                return DmaStatus::from_resp(resp);
            }
        }
    }
    DmaStatus::Ok
}
