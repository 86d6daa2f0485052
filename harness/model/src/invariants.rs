//! System invariants of protocol.md v2 over a trace: what every run must satisfy whoever made the
//! choices (the model, an RTL NIC, a mix). A [`Trace`] is built from outputs only (accepted
//! commands, completions, host accesses, region commits, key installs, frames on the wire), so
//! the same checks serve the model's property tests and the RTL scoreboard.

use std::collections::{HashMap, HashSet};

use onerma_layouts::{Cmd, Hdr, OpType, RrtEntry, Status};
use thiserror::Error;

use crate::host::{HostRead, HostWrite, ReadPurpose, WritePurpose};
use crate::nic::Completion;
use crate::responder::KeyInstall;
use crate::wire::CHUNK;

/// An accepted command (§2.2 step 2): it must complete exactly once.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Accepted {
    pub nic: usize,
    pub slot: u16,
    pub seq: u16,
    /// Cycle of the doorbell.
    pub t: u64,
}

/// What one NIC did, as seen from outside.
#[derive(Debug, Clone, Default)]
pub struct NicTrace {
    pub addr: u32,
    /// §6.4 bound of the NIC's configuration.
    pub completion_bound: u64,
    pub writes: Vec<HostWrite>,
    pub reads: Vec<HostRead>,
    /// Driver commits `(cycle, region, entry, generation)`, in order.
    pub rrt: Vec<(u64, u16, RrtEntry, u16)>,
    pub keys: Vec<KeyInstall>,
    /// At the end of the trace: `None` if no work is left and every window line is free, else
    /// what is left.
    pub busy: Option<String>,
}

/// A whole run.
#[derive(Debug, Clone, Default)]
pub struct Trace {
    pub nics: Vec<NicTrace>,
    pub accepted: Vec<Accepted>,
    pub completions: Vec<(usize, Completion)>,
    /// Every frame put on the wire `(cycle, sending NIC, frame)`.
    pub frames: Vec<(u64, usize, Vec<u8>)>,
}

/// The first invariant a trace breaks.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("invariant `{invariant}` violated: {detail}")]
pub struct Violation {
    pub invariant: &'static str,
    pub detail: String,
}

/// An op as the wire names it: `(initiator address, slot, request counter)`.
type OpId = (u32, u16, u64);
/// Bytes an op moved, by offset within the op.
type Parts<'a> = HashMap<OpId, Vec<(u64, &'a [u8])>>;

fn fail<T>(invariant: &'static str, detail: String) -> Result<T, Violation> {
    Err(Violation { invariant, detail })
}

/// A host write without its bytes (a violation message stays readable).
fn wd(w: &HostWrite) -> String {
    format!(
        "write of {} bytes at {:#x} (region {}, issued {}, visible {}, {:?})",
        w.data.len(),
        w.addr,
        w.region,
        w.issued,
        w.visible,
        w.purpose
    )
}

/// A host read without its bytes.
fn rd(r: &HostRead) -> String {
    format!(
        "read of {} bytes at {:#x} (region {}, issued {}, {:?})",
        r.data.len(),
        r.addr,
        r.region,
        r.issued,
        r.purpose
    )
}

/// Runs every check, in the order below.
///
/// # Errors
/// The first violation.
pub fn check_all(t: &Trace) -> Result<(), Violation> {
    one_completion_each(t)?;
    within_bound(t)?;
    accesses_inside_regions(t)?;
    read_data_lands_right(t)?;
    remote_writes_carry_the_source(t)?;
    ok_ops_deliver_their_range(t)?;
    key_provenance(t)?;
    no_iv_reuse(t)?;
    nothing_after_completion(t)?;
    idle_at_end(t)
}

/// Exactly one completion per accepted command, and none for anything else.
///
/// # Errors
/// A command completed twice or never, or a completion of no command.
pub fn one_completion_each(t: &Trace) -> Result<(), Violation> {
    let mut seen: HashMap<(usize, u16, u16), u32> = HashMap::new();
    for (nic, c) in &t.completions {
        *seen.entry((*nic, c.slot, c.cpl.seq)).or_default() += 1;
    }
    for a in &t.accepted {
        match seen.remove(&(a.nic, a.slot, a.seq)) {
            Some(1) => {}
            n => {
                return fail(
                    "one completion per accepted command",
                    format!(
                        "NIC {} slot {} seq {}: {n:?} completions",
                        a.nic, a.slot, a.seq
                    ),
                );
            }
        }
    }
    if let Some(k) = seen.keys().next() {
        return fail(
            "one completion per accepted command",
            format!("completion of no accepted command {k:?}"),
        );
    }
    Ok(())
}

/// Every record complete within the §6.4 bound of its NIC.
///
/// # Errors
/// An op that took longer.
pub fn within_bound(t: &Trace) -> Result<(), Violation> {
    for (nic, c) in &t.completions {
        let bound = t.nics.get(*nic).map_or(0, |n| n.completion_bound);
        if c.visible - c.t_sub > bound {
            return fail(
                "completion within the bound",
                format!(
                    "NIC {nic} slot {}: {} cycles > {bound}",
                    c.slot,
                    c.visible - c.t_sub
                ),
            );
        }
    }
    Ok(())
}

/// The entry of `region` in force at cycle `at` (the last commit at or before it).
fn entry_at(n: &NicTrace, region: u16, at: u64) -> Option<&RrtEntry> {
    n.rrt
        .iter()
        .rev()
        .find(|(t, r, _, _)| *r == region && *t <= at)
        .map(|(_, _, e, _)| e)
}

/// A byte range of a region: a host access (`at` is an address) or an op's range (`at` is an
/// offset in the region).
#[derive(Clone, Copy)]
struct Span {
    region: u16,
    at: u64,
    len: u64,
}

impl Span {
    /// A host access of `len` bytes at `at` made for `region`.
    fn access(region: u16, at: u64, len: usize) -> Self {
        Self {
            region,
            at,
            len: len as u64,
        }
    }

    /// The range a command names in its initiator's memory.
    fn local(c: &Cmd) -> Self {
        Self {
            region: c.local_region,
            at: c.local_offset,
            len: u64::from(c.length),
        }
    }

    /// The range a command names in its server's memory.
    fn remote(c: &Cmd) -> Self {
        Self {
            region: c.remote_region,
            at: c.remote_offset,
            len: u64::from(c.length),
        }
    }
}

/// Where an access issued at `issued` falls in its op's range: its offset from the op's start,
/// if it is to the op's region (the entry in force then), chunk-aligned and inside the op.
fn offset_in_op(n: &NicTrace, issued: u64, acc: Span, op: Span) -> Result<u64, &'static str> {
    let e = entry_at(n, acc.region, issued).ok_or("of no region")?;
    let rel = acc.at.wrapping_sub(e.base_addr).wrapping_sub(op.at);
    if acc.region != op.region || rel % u64::from(CHUNK) != 0 || rel + acc.len > op.len {
        return Err("at the wrong place");
    }
    Ok(rel)
}

fn inside(e: &RrtEntry, addr: u64, len: usize) -> bool {
    addr.checked_sub(e.base_addr)
        .and_then(|off| off.checked_add(len as u64))
        .is_some_and(|end| end <= e.size)
}

/// No host access outside a valid region in force at the access, or without its permission.
///
/// # Errors
/// The first such access.
pub fn accesses_inside_regions(t: &Trace) -> Result<(), Violation> {
    const NAME: &str = "host accesses inside permitted regions";
    for (i, n) in t.nics.iter().enumerate() {
        for w in &n.writes {
            let Some(e) = entry_at(n, w.region, w.issued).filter(|e| e.valid == 1) else {
                return fail(
                    NAME,
                    format!("NIC {i}: write to a region not registered: {}", wd(w)),
                );
            };
            let perm = match w.purpose {
                WritePurpose::ReadData { .. } | WritePurpose::Completion { .. } => {
                    e.perm_local_write
                }
                WritePurpose::RemoteWrite { .. } => e.perm_remote_write,
            };
            if perm != 1 || !inside(e, w.addr, w.data.len()) {
                return fail(
                    NAME,
                    format!("NIC {i}: write outside or without permission: {}", wd(w)),
                );
            }
        }
        for r in &n.reads {
            let Some(e) = entry_at(n, r.region, r.issued).filter(|e| e.valid == 1) else {
                return fail(
                    NAME,
                    format!("NIC {i}: read of a region not registered: {}", rd(r)),
                );
            };
            let perm = match r.purpose {
                ReadPurpose::Serve { .. } => e.perm_remote_read,
                ReadPurpose::WriteSource { .. } => e.perm_local_read,
            };
            if perm != 1 || !inside(e, r.addr, r.data.len()) {
                return fail(
                    NAME,
                    format!("NIC {i}: read outside or without permission: {}", rd(r)),
                );
            }
        }
    }
    Ok(())
}

/// The op `(initiator NIC, completion)` of every initiator op with a request counter.
fn ops_by_counter(t: &Trace) -> HashMap<(u32, u16, u64), (usize, &Completion)> {
    let mut m = HashMap::new();
    for (nic, c) in &t.completions {
        if let (Some(rc), Some(n)) = (c.req_counter, t.nics.get(*nic)) {
            m.insert((n.addr, c.slot, rc), (*nic, c));
        }
    }
    m
}

/// READ data lands at `local_offset + chunk_offset` of its local region and equals the bytes the
/// server read from `remote_offset + chunk_offset` of its region for that op.
///
/// # Errors
/// A landing write at the wrong place, or with bytes the server did not read for it.
pub fn read_data_lands_right(t: &Trace) -> Result<(), Violation> {
    const NAME: &str = "READ data lands right";
    // Server reads per op: (initiator, slot, req counter) -> [(relative offset, data)].
    let mut served: Parts = HashMap::new();
    let ops = ops_by_counter(t);
    for (si, n) in t.nics.iter().enumerate() {
        for r in &n.reads {
            if let ReadPurpose::Serve {
                initiator,
                slot,
                req_counter,
            } = r.purpose
            {
                let Some(&(_, c)) = ops.get(&(initiator, slot, req_counter)) else {
                    // A replayed request served again: its data goes nowhere (checked below).
                    continue;
                };
                let acc = Span::access(r.region, r.addr, r.data.len());
                let op = Span::remote(&c.cmd);
                let rel = match offset_in_op(n, r.issued, acc, op) {
                    Ok(rel) => rel,
                    Err(why) => {
                        return fail(NAME, format!("NIC {si}: server read {why}: {}", rd(r)));
                    }
                };
                served
                    .entry((initiator, slot, req_counter))
                    .or_default()
                    .push((rel, &r.data));
            }
        }
    }
    for (ni, n) in t.nics.iter().enumerate() {
        for w in &n.writes {
            let WritePurpose::ReadData { slot, req_counter } = w.purpose else {
                continue;
            };
            let Some(&(_, c)) = ops.get(&(n.addr, slot, req_counter)) else {
                return fail(NAME, format!("NIC {ni}: READ data of no op {}", wd(w)));
            };
            let acc = Span::access(w.region, w.addr, w.data.len());
            let op = Span::local(&c.cmd);
            let rel = match offset_in_op(n, w.issued, acc, op) {
                Ok(rel) => rel,
                Err(why) => return fail(NAME, format!("NIC {ni}: READ data {why}: {}", wd(w))),
            };
            // A replayed request may have been served twice, from memory that changed between:
            // the chunk must equal one of the server's reads at its offset.
            let matches = served
                .get(&(n.addr, slot, req_counter))
                .is_some_and(|v| v.iter().any(|(r, d)| *r == rel && *d == &w.data[..]));
            if !matches {
                return fail(
                    NAME,
                    format!(
                        "NIC {ni} slot {slot}: chunk at {rel:#x} differs from the server's bytes"
                    ),
                );
            }
        }
    }
    Ok(())
}

/// What each initiator op read as its source: `(initiator, slot, req counter)` ->
/// `[(offset in the op, bytes)]`, checking that each read is at the op's local range.
fn sources(t: &Trace) -> Result<Parts<'_>, Violation> {
    let ops = ops_by_counter(t);
    let mut m: Parts = HashMap::new();
    for (ni, n) in t.nics.iter().enumerate() {
        for r in &n.reads {
            let ReadPurpose::WriteSource { slot, req_counter } = r.purpose else {
                continue;
            };
            let key = (n.addr, slot, req_counter);
            let Some(&(_, c)) = ops.get(&key) else {
                return fail(
                    "source reads",
                    format!("NIC {ni}: source read of no op {}", rd(r)),
                );
            };
            let acc = Span::access(r.region, r.addr, r.data.len());
            let op = Span::local(&c.cmd);
            let rel = match offset_in_op(n, r.issued, acc, op) {
                Ok(rel) => rel,
                Err(why) => {
                    return fail(
                        "source reads",
                        format!("NIC {ni}: source read {why}: {}", rd(r)),
                    );
                }
            };
            m.entry(key).or_default().push((rel, &r.data));
        }
    }
    Ok(m)
}

/// The op's source bytes at `[rel, rel + len)`, if one of its source reads covers them.
fn source_at<'a>(v: Option<&Vec<(u64, &'a [u8])>>, rel: u64, len: usize) -> Vec<&'a [u8]> {
    v.map(|v| {
        v.iter()
            .filter_map(|&(r, d)| {
                let from = usize::try_from(rel.checked_sub(r)?).ok()?;
                d.get(from..from.checked_add(len)?)
            })
            .collect()
    })
    .unwrap_or_default()
}

/// Every remote WRITE lands inside its op's range with the bytes its initiator read from the
/// op's local source range.
///
/// # Errors
/// A write attributable to no op (a replay or forgery reaching memory), or with other bytes.
pub fn remote_writes_carry_the_source(t: &Trace) -> Result<(), Violation> {
    const NAME: &str = "remote writes carry the source";
    let ops = ops_by_counter(t);
    let src = sources(t)?;
    for (si, n) in t.nics.iter().enumerate() {
        for w in &n.writes {
            let WritePurpose::RemoteWrite {
                initiator,
                slot,
                req_counter,
            } = w.purpose
            else {
                continue;
            };
            let key = (initiator, slot, req_counter);
            let Some(&(_, c)) = ops.get(&key) else {
                return fail(NAME, format!("NIC {si}: remote write of no op {}", wd(w)));
            };
            let acc = Span::access(w.region, w.addr, w.data.len());
            let op = Span::remote(&c.cmd);
            let rel = match offset_in_op(n, w.issued, acc, op) {
                Ok(rel) if c.cmd.op_type == OpType::Write.as_raw() => rel,
                Ok(_) => {
                    return fail(
                        NAME,
                        format!("NIC {si}: remote write of a non-WRITE {}", wd(w)),
                    );
                }
                Err(why) => return fail(NAME, format!("NIC {si}: remote write {why}: {}", wd(w))),
            };
            if !source_at(src.get(&key), rel, w.data.len()).contains(&&w.data[..]) {
                return fail(
                    NAME,
                    format!(
                        "NIC {si}: remote write at op offset {rel:#x} differs from the initiator's source: {c:?}"
                    ),
                );
            }
        }
    }
    Ok(())
}

fn covers(mut parts: Vec<(u64, u64)>, len: u64) -> bool {
    parts.sort_unstable();
    let mut at = 0;
    for (off, n) in parts {
        if off != at {
            return false;
        }
        at += n;
    }
    at == len
}

/// An OK READ wrote every byte of its range once, an OK WRITE had every byte written at the
/// server, an OK REKEY installed its key.
///
/// # Errors
/// An OK op that did not deliver.
pub fn ok_ops_deliver_their_range(t: &Trace) -> Result<(), Violation> {
    const NAME: &str = "OK ops deliver their range";
    let mut landed: HashMap<(u32, u16, u64), Vec<(u64, u64)>> = HashMap::new();
    for n in &t.nics {
        for w in &n.writes {
            let key = match w.purpose {
                WritePurpose::ReadData { slot, req_counter } => (n.addr, slot, req_counter),
                WritePurpose::RemoteWrite {
                    initiator,
                    slot,
                    req_counter,
                } => (initiator, slot, req_counter),
                WritePurpose::Completion { .. } => continue,
            };
            landed
                .entry(key)
                .or_default()
                .push((w.addr, w.data.len() as u64));
        }
    }
    let installs: HashSet<(u32, u16, u64)> = t
        .nics
        .iter()
        .flat_map(|n| n.keys.iter().map(|k| (k.initiator, k.slot, k.req_counter)))
        .collect();
    for (nic, c) in &t.completions {
        if c.cpl.status != Status::Ok {
            continue;
        }
        let (Some(rc), Some(n)) = (c.req_counter, t.nics.get(*nic)) else {
            return fail(NAME, format!("OK op without a request: {c:?}"));
        };
        let key = (n.addr, c.slot, rc);
        let len = u64::from(c.cmd.length);
        match OpType::try_from(c.cmd.op_type) {
            Ok(OpType::Rekey) => {
                if !installs.contains(&key) {
                    return fail(NAME, format!("OK REKEY installed nothing: {c:?}"));
                }
            }
            Ok(_) => {
                let parts = landed.get(&key).cloned().unwrap_or_default();
                let base = parts.iter().map(|p| p.0).min().unwrap_or(0);
                let rel = parts.iter().map(|&(a, l)| (a - base, l)).collect();
                if !covers(rel, len) {
                    return fail(
                        NAME,
                        format!("OK op did not deliver {len} bytes once: {c:?}"),
                    );
                }
            }
            Err(_) => return fail(NAME, format!("OK op of unknown type: {c:?}")),
        }
    }
    Ok(())
}

/// Every installed key is the data one accepted REKEY aimed at that region read from its
/// source, installed once.
///
/// # Errors
/// A key from nowhere, or a REKEY installed twice (a replay re-installing it).
pub fn key_provenance(t: &Trace) -> Result<(), Violation> {
    const NAME: &str = "key provenance";
    let ops = ops_by_counter(t);
    let src = sources(t)?;
    let mut once = HashSet::new();
    for (si, n) in t.nics.iter().enumerate() {
        for k in &n.keys {
            let id = (k.initiator, k.slot, k.req_counter);
            let Some(&(_, c)) = ops.get(&id) else {
                return fail(NAME, format!("NIC {si}: key installed by no op {k:?}"));
            };
            if !once.insert(id) {
                return fail(NAME, format!("NIC {si}: REKEY installed twice {k:?}"));
            }
            let from_src = source_at(src.get(&id), 0, 16)
                .iter()
                .filter_map(|d| <[u8; 16]>::try_from(*d).ok())
                .any(|b| u128::from_be_bytes(b) == k.key);
            if c.cmd.op_type != OpType::Rekey.as_raw()
                || c.cmd.remote_nic != n.addr
                || c.cmd.remote_region != k.region
                || !from_src
            {
                return fail(NAME, format!("NIC {si}: key is not its REKEY's data {k:?}"));
            }
        }
    }
    Ok(())
}

/// No (key, IV) pair twice: no sender used a counter twice, over every frame of the trace.
///
/// # Errors
/// A repeated `(src_nic, counter)`.
pub fn no_iv_reuse(t: &Trace) -> Result<(), Violation> {
    let mut seen = HashSet::new();
    for (at, nic, f) in &t.frames {
        let Some(h) = f.get(..Hdr::BYTES).and_then(|b| Hdr::from_bytes(b).ok()) else {
            continue;
        };
        if !seen.insert((h.src_nic, h.counter)) {
            return fail(
                "no IV reuse",
                format!(
                    "NIC {nic} at {at}: counter {:#x} of {:#x} sent twice",
                    h.counter, h.src_nic
                ),
            );
        }
    }
    Ok(())
}

/// Nothing is written to host memory for an op after its completion: its landing writes, its
/// remote writes and its key install are all complete by the cycle its record was issued.
///
/// # Errors
/// A side effect after the completion.
pub fn nothing_after_completion(t: &Trace) -> Result<(), Violation> {
    const NAME: &str = "nothing after completion";
    let ops = ops_by_counter(t);
    for (si, n) in t.nics.iter().enumerate() {
        for w in &n.writes {
            let key = match w.purpose {
                WritePurpose::ReadData { slot, req_counter } => (n.addr, slot, req_counter),
                WritePurpose::RemoteWrite {
                    initiator,
                    slot,
                    req_counter,
                } => (initiator, slot, req_counter),
                WritePurpose::Completion { .. } => continue,
            };
            if let Some(&(_, c)) = ops.get(&key)
                && w.visible > c.t_cpl
            {
                return fail(
                    NAME,
                    format!(
                        "NIC {si}: write visible at {} after {:?} at {}: {}",
                        w.visible,
                        c.cpl.status,
                        c.t_cpl,
                        wd(w)
                    ),
                );
            }
        }
        for k in &n.keys {
            if let Some(&(_, c)) = ops.get(&(k.initiator, k.slot, k.req_counter))
                && k.t > c.t_cpl
            {
                return fail(
                    NAME,
                    format!(
                        "NIC {si}: key installed at {} after completion at {}",
                        k.t, c.t_cpl
                    ),
                );
            }
        }
    }
    Ok(())
}

/// Every NIC idle with its whole window free at the end.
///
/// # Errors
/// A NIC with work or window lines left.
pub fn idle_at_end(t: &Trace) -> Result<(), Violation> {
    for (i, n) in t.nics.iter().enumerate() {
        if let Some(b) = &n.busy {
            return fail(
                "window full when idle",
                format!("NIC {i} not idle at the end: {b}"),
            );
        }
    }
    Ok(())
}
