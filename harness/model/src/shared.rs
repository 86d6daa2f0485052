//! State both halves of a NIC share: the region table with its generations, the solicitation
//! window with its drain rule, the message counter, crypto, the host port, the counters.

use onerma_layouts::{Hdr, RrtEntry};
use serde::Serialize;

use crate::crypto::{self, CipherKey, Crypto, FastMap, RESERVED_KEY};
use crate::error::ModelError;
use crate::host::HostPort;
use crate::wire::{COUNT_MAX, FRAME_MIN, HDR_LEN};

/// A valid entry for a local buffer of `pid` (command data or completion records): local read and
/// write, no remote permission, no key.
#[must_use]
pub fn local_entry(pid: u32, base: u64, size: u64) -> RrtEntry {
    RrtEntry {
        valid: 1,
        perm_remote_read: 0,
        perm_remote_write: 0,
        perm_remote_rekey: 0,
        perm_local_read: 1,
        perm_local_write: 1,
        owner_pid: pid,
        base_addr: base,
        size,
        key: 0,
    }
}

/// One RRT row: the driver-written entry and the NIC-maintained generations (§4.1).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RrtRow {
    pub e: RrtEntry,
    /// Incremented by every driver commit of the entry.
    pub generation: u16,
    /// Incremented by every driver commit and every REKEY install.
    pub key_gen: u8,
}

pub const EMPTY_RRT: RrtEntry = RrtEntry {
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
};

/// The registered region table.
#[derive(Debug, Clone)]
pub struct Rrt {
    rows: Vec<RrtRow>,
}

impl Rrt {
    #[must_use]
    pub fn new(n: u16) -> Self {
        Self {
            rows: vec![
                RrtRow {
                    e: EMPTY_RRT,
                    generation: 0,
                    key_gen: 0,
                };
                usize::from(n)
            ],
        }
    }

    /// A driver commit: the whole entry at once, both generations advance.
    ///
    /// # Errors
    /// Unknown region, or a field that does not fit its layout.
    pub fn commit(&mut self, region: u16, e: RrtEntry) -> Result<(), ModelError> {
        e.to_bytes()?;
        let r = self
            .rows
            .get_mut(usize::from(region))
            .ok_or(ModelError::NoSuchRegion(region))?;
        r.e = e;
        r.generation = r.generation.wrapping_add(1);
        r.key_gen = r.key_gen.wrapping_add(1);
        Ok(())
    }

    #[must_use]
    pub fn get(&self, region: u16) -> Option<&RrtRow> {
        self.rows.get(usize::from(region))
    }

    /// The valid entry if its generation is still `generation`: the check before every host access.
    #[must_use]
    pub fn live(&self, region: u16, generation: u16) -> Option<&RrtEntry> {
        self.get(region)
            .filter(|r| r.e.valid == 1 && r.generation == generation)
            .map(|r| &r.e)
    }

    /// REKEY install (§8.6): only if the entry is valid and unchanged since the check.
    pub fn install_key(&mut self, region: u16, generation: u16, key_gen: u8, key: u128) -> bool {
        match self.rows.get_mut(usize::from(region)) {
            Some(r) if r.e.valid == 1 && r.generation == generation && r.key_gen == key_gen => {
                r.e.key = key;
                r.key_gen = r.key_gen.wrapping_add(1);
                true
            }
            _ => false,
        }
    }
}

/// Who holds window lines: an initiator op `(slot, instance)` or a server context
/// `(ctx, instance)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Owner {
    Op(u16, u32),
    Ctx(u16, u32),
}

#[derive(Debug, Clone, Copy)]
struct Held {
    lines: u32,
    /// Chunks pending in crypto, DMA transfers reading or writing the lines.
    inflight: u32,
    live: bool,
}

/// The solicitation window in lines, with §5's rule: lines return only when their owner is no
/// longer live and nothing still writes or reads them.
#[derive(Debug, Clone)]
pub struct Window {
    total: u32,
    free: u32,
    held: Holders,
}

/// The holders of window lines. Every op and context looks its entry up several times, so each
/// slot and context has a place of its own, indexed directly, for its current instance; an
/// earlier instance still holding lines when the next one allocates (an ended op's chunk still
/// in crypto) goes to `more`. Nothing iterates the holders, so where an entry sits changes speed
/// only.
#[derive(Debug, Clone, Default)]
struct Holders {
    /// At `2 * id + (1 for a context)`: the instance and its lines.
    first: Vec<Option<(u32, Held)>>,
    more: FastMap<Owner, Held>,
    len: usize,
}

impl Holders {
    fn place(owner: Owner) -> (usize, u32) {
        match owner {
            Owner::Op(id, inst) => (2 * usize::from(id), inst),
            Owner::Ctx(id, inst) => (2 * usize::from(id) + 1, inst),
        }
    }

    fn get_mut(&mut self, owner: Owner) -> Option<&mut Held> {
        let (i, inst) = Self::place(owner);
        match self.first.get_mut(i) {
            Some(Some((n, h))) if *n == inst => Some(h),
            _ => self.more.get_mut(&owner),
        }
    }

    fn contains(&mut self, owner: Owner) -> bool {
        self.get_mut(owner).is_some()
    }

    /// Adds an owner that holds nothing yet.
    fn insert(&mut self, owner: Owner, held: Held) {
        let (i, inst) = Self::place(owner);
        if self.first.len() <= i {
            self.first.resize(i + 1, None);
        }
        match &mut self.first[i] {
            e @ None => *e = Some((inst, held)),
            Some(_) => {
                self.more.insert(owner, held);
            }
        }
        self.len += 1;
    }

    fn remove(&mut self, owner: Owner) {
        let (i, inst) = Self::place(owner);
        let removed = match self.first.get_mut(i) {
            Some(e) if e.is_some_and(|(n, _)| n == inst) => {
                *e = None;
                true
            }
            _ => self.more.remove(&owner).is_some(),
        };
        if removed {
            self.len -= 1;
        }
    }
}

impl Window {
    #[must_use]
    pub fn new(lines: u32) -> Self {
        Self {
            total: lines,
            free: lines,
            held: Holders::default(),
        }
    }

    #[must_use]
    pub fn free(&self) -> u32 {
        self.free
    }

    #[must_use]
    pub fn total(&self) -> u32 {
        self.total
    }

    /// Allocates `lines` to a new owner.
    ///
    /// # Errors
    /// Fewer lines free than asked, or the owner already holds lines (model bugs).
    pub fn alloc(&mut self, owner: Owner, lines: u32) -> Result<(), ModelError> {
        if lines > self.free {
            return Err(ModelError::Internal(format!(
                "window over-allocated: {lines} lines asked, {} free",
                self.free
            )));
        }
        if self.held.contains(owner) {
            return Err(ModelError::Internal(format!("{owner:?} allocated twice")));
        }
        self.free -= lines;
        self.held.insert(
            owner,
            Held {
                lines,
                inflight: 0,
                live: true,
            },
        );
        Ok(())
    }

    /// Something starts using the owner's lines (a pending chunk, a DMA transfer).
    pub fn begin(&mut self, owner: Owner) {
        if let Some(h) = self.held.get_mut(owner) {
            h.inflight += 1;
        }
    }

    /// Something that used the owner's lines finished.
    ///
    /// # Errors
    /// More ends than begins, or lines credited above the window's size (model bugs).
    pub fn end(&mut self, owner: Owner) -> Result<(), ModelError> {
        let Some(h) = self.held.get_mut(owner) else {
            return Ok(());
        };
        h.inflight = h.inflight.checked_sub(1).ok_or_else(|| {
            ModelError::Internal(format!("{owner:?}: window use ended more often than begun"))
        })?;
        self.settle(owner)
    }

    /// The owner is no longer live (op completed, context ended).
    ///
    /// # Errors
    /// As [`Window::end`].
    pub fn release(&mut self, owner: Owner) -> Result<(), ModelError> {
        if let Some(h) = self.held.get_mut(owner) {
            h.live = false;
        }
        self.settle(owner)
    }

    fn settle(&mut self, owner: Owner) -> Result<(), ModelError> {
        if let Some(h) = self.held.get_mut(owner).map(|h| *h)
            && !h.live
            && h.inflight == 0
        {
            self.held.remove(owner);
            self.free += h.lines;
            if self.free > self.total {
                return Err(ModelError::Internal(format!(
                    "window over-credited: {} free of {}",
                    self.free, self.total
                )));
            }
        }
        Ok(())
    }

    /// Owners still holding lines (tests: empty when idle).
    #[must_use]
    pub fn holders(&self) -> usize {
        self.held.len
    }
}

/// Software-visible counters and sticky bits (§12), plus model statistics.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct NicCounters {
    pub err_disabled_slot: u64,
    pub err_busy_slot: u64,
    pub err_bad_cq: u64,
    pub err_cq_write: u64,
    pub err_host_read: u64,
    pub err_host_write: u64,
    pub drop_malformed: u64,
    pub drop_misaddressed: u64,
    pub drop_stale: u64,
    pub drop_dup: u64,
    pub drop_auth: u64,
    pub drop_hold: u64,
    pub drop_late: u64,
    pub drop_queue_age: u64,
    pub drop_region_changed: u64,
    pub req_served: u64,
    pub req_nacked: u64,
    pub req_auth_fail: u64,
    pub req_access_err: u64,
    pub ctx_timeouts: u64,
    pub rekey_installed: u64,
    pub rekey_refused: u64,
    pub msgs_sent: u64,
    pub msgs_received: u64,
    /// Sticky `err_status` bits.
    pub status_bad_cq: bool,
    pub status_cq_write: bool,
    pub status_counter_exhausted: bool,
}

impl NicCounters {
    /// Adds `o` into `self` (sums over NICs; sticky bits OR).
    pub fn add(&mut self, o: &Self) {
        self.err_disabled_slot += o.err_disabled_slot;
        self.err_busy_slot += o.err_busy_slot;
        self.err_bad_cq += o.err_bad_cq;
        self.err_cq_write += o.err_cq_write;
        self.err_host_read += o.err_host_read;
        self.err_host_write += o.err_host_write;
        self.drop_malformed += o.drop_malformed;
        self.drop_misaddressed += o.drop_misaddressed;
        self.drop_stale += o.drop_stale;
        self.drop_dup += o.drop_dup;
        self.drop_auth += o.drop_auth;
        self.drop_hold += o.drop_hold;
        self.drop_late += o.drop_late;
        self.drop_queue_age += o.drop_queue_age;
        self.drop_region_changed += o.drop_region_changed;
        self.req_served += o.req_served;
        self.req_nacked += o.req_nacked;
        self.req_auth_fail += o.req_auth_fail;
        self.req_access_err += o.req_access_err;
        self.ctx_timeouts += o.ctx_timeouts;
        self.rekey_installed += o.rekey_installed;
        self.rekey_refused += o.rekey_refused;
        self.msgs_sent += o.msgs_sent;
        self.msgs_received += o.msgs_received;
        self.status_bad_cq |= o.status_bad_cq;
        self.status_cq_write |= o.status_cq_write;
        self.status_counter_exhausted |= o.status_counter_exhausted;
    }
}

/// Frames kept for reuse.
const FRAME_POOL: usize = 64;

/// Everything both halves use.
#[derive(Debug)]
pub struct Shared {
    pub nic_addr: u32,
    pub epoch: u16,
    count: u64,
    pub rrt: Rrt,
    pub window: Window,
    pub crypto: Crypto,
    pub host: Box<dyn HostPort>,
    pub counters: NicCounters,
    /// The reserved key that signs AUTH_FAIL, expanded once.
    pub reserved: CipherKey,
    frame_pool: Vec<Vec<u8>>,
    /// Shadow mode (the observer, [`crate::observer`]): choices a device made, applied to the
    /// next send or service, and frames left unsealed with their keys.
    pub(crate) shadow: Option<ShadowTap>,
}

/// What a shadow NIC takes from the device it follows and what it leaves for the observer.
#[derive(Debug, Default)]
pub(crate) struct ShadowTap {
    /// The device's counter for the next message (a hop-1 request or WR_RDREQ, whose counter
    /// the NIC memoizes).
    pub(crate) counter: Option<u64>,
    /// The device's write context for the next WRITE service.
    pub(crate) ctx: Option<u16>,
    /// Keys of the unsealed frames pushed to the outputs, in order.
    pub(crate) keys: Vec<CipherKey>,
}

impl Shared {
    #[must_use]
    pub fn new(
        nic_addr: u32,
        epoch: u16,
        regions: u16,
        window_lines: u32,
        crypto: Crypto,
        host: Box<dyn HostPort>,
    ) -> Self {
        Self {
            nic_addr,
            epoch,
            count: 1,
            rrt: Rrt::new(regions),
            window: Window::new(window_lines),
            crypto,
            host,
            counters: NicCounters::default(),
            reserved: CipherKey::new(&RESERVED_KEY),
            frame_pool: Vec::new(),
            shadow: None,
        }
    }

    /// Sets the `count` part of the message counter (tests of exhaustion).
    pub fn set_count(&mut self, count: u64) {
        self.count = count;
    }

    /// The `count` the next message would get.
    #[must_use]
    pub fn count(&self) -> u64 {
        self.count
    }

    /// Whether the counter can still give a value (a dispatch or service needs one).
    #[must_use]
    pub fn can_send(&self) -> bool {
        self.count <= COUNT_MAX
    }

    fn next_counter(&mut self) -> Option<u64> {
        if let Some(c) = self.shadow.as_mut().and_then(|t| t.counter.take()) {
            self.count = self.count.max((c & COUNT_MAX) + 1);
            return Some(c);
        }
        if self.count > COUNT_MAX {
            self.counters.status_counter_exhausted = true;
            return None;
        }
        let c = (u64::from(self.epoch) << 48) | self.count;
        self.count += 1;
        Some(c)
    }

    /// A zeroed frame for a message with `n` payload bytes: header, payload, tag.
    pub fn frame(&mut self, n: usize) -> Vec<u8> {
        let mut f = self.frame_pool.pop().unwrap_or_default();
        f.clear();
        f.resize(FRAME_MIN + n, 0);
        f
    }

    /// A spent frame from the pool as a scratch buffer (contents unspecified), or a new one.
    pub fn spare(&mut self) -> Vec<u8> {
        self.frame_pool.pop().unwrap_or_default()
    }

    /// Gives back a frame nobody needs, to build a later one in.
    pub fn recycle(&mut self, frame: Vec<u8>) {
        if self.frame_pool.len() < FRAME_POOL {
            self.frame_pool.push(frame);
        }
    }

    /// Seals `frame` (payload already in place) under `key` with the next counter, filling
    /// `src_nic`, `counter` and `chunk_len`, and pushes it to `out`. `Ok(None)`: the counter is
    /// exhausted, nothing sent.
    ///
    /// # Errors
    /// A header field that does not fit its layout (a model bug).
    pub fn send(
        &mut self,
        mut h: Hdr,
        key: &CipherKey,
        mut frame: Vec<u8>,
        out: &mut Vec<Vec<u8>>,
    ) -> Result<Option<u64>, ModelError> {
        let Some(counter) = self.next_counter() else {
            self.recycle(frame);
            return Ok(None);
        };
        h.src_nic = self.nic_addr;
        h.counter = counter;
        h.chunk_len = u16::try_from(frame.len() - FRAME_MIN)
            .map_err(|_| ModelError::Internal("payload above 64 KB".into()))?;
        let hb = h.to_bytes()?;
        frame[..HDR_LEN].copy_from_slice(&hb);
        if let Some(tap) = self.shadow.as_mut() {
            // Sealed by the observer once the device's frame shows the counter it used.
            tap.keys.push(key.clone());
        } else {
            let iv = crypto::iv(h.src_nic, counter)?;
            self.crypto.seal_with(key, &iv, &mut frame);
        }
        self.counters.msgs_sent += 1;
        out.push(frame);
        Ok(Some(counter))
    }

    /// [`Shared::send`] of a message without payload.
    ///
    /// # Errors
    /// As [`Shared::send`].
    pub fn send_empty(
        &mut self,
        h: Hdr,
        key: &CipherKey,
        out: &mut Vec<Vec<u8>>,
    ) -> Result<Option<u64>, ModelError> {
        let f = self.frame(0);
        self.send(h, key, f, out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::host::{HostConfig, HostMem};
    use onerma_layouts::{MsgType, OpType, Status};

    /// An ended op's lines still in use when the slot's next op allocates: both instances hold
    /// lines at once (the second outside the slot's direct place), and each returns its own.
    #[test]
    fn two_instances_of_a_slot_hold_lines_at_once() -> Result<(), ModelError> {
        let mut w = Window::new(10);
        let (old, new) = (Owner::Op(1, 1), Owner::Op(1, 2));
        w.alloc(old, 2)?;
        w.begin(old);
        w.release(old)?;
        assert_eq!((w.free(), w.holders()), (8, 1), "in use: not returned");
        w.alloc(new, 3)?;
        w.alloc(Owner::Ctx(1, 2), 1)?;
        assert_eq!((w.free(), w.holders()), (4, 3));
        assert!(w.alloc(new, 1).is_err(), "allocated twice");
        w.end(old)?;
        assert_eq!((w.free(), w.holders()), (6, 2));
        w.begin(new);
        w.release(new)?;
        assert_eq!(w.free(), 6, "in use: not returned");
        w.end(new)?;
        w.release(Owner::Ctx(1, 2))?;
        assert_eq!((w.free(), w.holders()), (10, 0));
        Ok(())
    }

    fn hdr() -> Hdr {
        Hdr {
            msg_type: MsgType::WrRdreq,
            op_type: OpType::Write,
            status: Status::Ok,
            src_nic: 0,
            dst_nic: 2,
            counter: 0,
            prev_counter: 9,
            pid: 1,
            region: 0,
            slot: 0,
            offset: 0,
            length: 16,
            chunk_offset: 0,
            chunk_len: 0,
            ctx: 0,
            hold_ns: 0,
        }
    }

    /// A shadow NIC sends with the device's counter, and its own count moves past the device's
    /// (never back), so a later counter of its own is above every counter the device used.
    #[test]
    fn a_shadow_takes_the_devices_counter_and_moves_past_it() {
        let host = Box::new(HostMem::new(HostConfig::default(), false));
        let mut s = Shared::new(1, 5, 1, 64, Crypto::new(false), host);
        s.shadow = Some(ShadowTap::default());
        let key = CipherKey::new(&[3; 16]);
        let mut out = Vec::new();
        let dev = (5u64 << 48) | 500;
        if let Some(t) = s.shadow.as_mut() {
            t.counter = Some(dev);
        }
        assert_eq!(s.send_empty(hdr(), &key, &mut out).ok(), Some(Some(dev)));
        assert_eq!(s.count(), 501);
        // Unsealed: the key is kept for the observer, the tag left zero.
        assert_eq!(s.shadow.as_ref().map(|t| t.keys.len()), Some(1));
        assert_eq!(out[0][out[0].len() - 16..], [0; 16]);
        // An older device counter does not move the count back.
        if let Some(t) = s.shadow.as_mut() {
            t.counter = Some((5u64 << 48) | 10);
        }
        assert_eq!(
            s.send_empty(hdr(), &key, &mut out).ok(),
            Some(Some((5u64 << 48) | 10))
        );
        assert_eq!(s.count(), 501);
        // Without a device counter the shadow uses its own.
        assert_eq!(
            s.send_empty(hdr(), &key, &mut out).ok(),
            Some(Some((5u64 << 48) | 501))
        );
    }
}
