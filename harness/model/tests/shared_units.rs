//! The state both halves of a NIC share (`onerma_model::shared`), unit by unit: the region table
//! and its generations (protocol.md §4.1, §8.6), the solicitation window's return rule (§5), the
//! counters' sum, and the message counter with sealing (§3: IV = src_nic | counter, epoch in the
//! counter's top 16 bits, `count` 1..2^48-1).

use aes::cipher::{Array, KeyInit};
use aes_gcm::aead::inout::InOutBuf;
use aes_gcm::{AeadInOut, Aes128Gcm};
use onerma_layouts::{Hdr, MsgType, OpType, RrtEntry, Status};
use onerma_model::crypto::{CipherKey, Crypto};
use onerma_model::error::ModelError;
use onerma_model::shared::{EMPTY_RRT, Rrt};
use onerma_model::wire::{COUNT_MAX, FRAME_MIN};
use onerma_model::{HostConfig, HostMem, NicCounters, Owner, RrtRow, Shared, Window};

fn entry(valid: u8, key: u128) -> RrtEntry {
    RrtEntry {
        valid,
        perm_remote_read: 1,
        perm_remote_write: 0,
        perm_remote_rekey: 1,
        perm_local_read: 0,
        perm_local_write: 1,
        owner_pid: 42,
        base_addr: 0x1000,
        size: 0x100,
        key,
    }
}

// ---- region table

#[test]
fn a_new_table_has_n_empty_rows() {
    let t = Rrt::new(3);
    for r in 0..3 {
        assert_eq!(
            t.get(r),
            Some(&RrtRow {
                e: EMPTY_RRT,
                generation: 0,
                key_gen: 0
            })
        );
    }
    assert_eq!(t.get(3), None);
    assert_eq!(Rrt::new(0).get(0), None);
}

#[test]
fn each_commit_advances_both_generations() {
    let mut t = Rrt::new(4);
    t.commit(2, entry(1, 5)).expect("commit");
    t.commit(2, entry(1, 6)).expect("commit");
    let r = t.get(2).expect("row");
    assert_eq!((r.e.key, r.generation, r.key_gen), (6, 2, 2));
    // Other rows untouched.
    assert_eq!(t.get(1).map(|r| r.generation), Some(0));
}

#[test]
fn a_commit_to_no_region_or_of_a_bad_entry_is_refused() {
    let mut t = Rrt::new(4);
    assert_eq!(t.commit(4, entry(1, 0)), Err(ModelError::NoSuchRegion(4)));
    // `valid` is one bit: 2 does not fit, and the row keeps its state.
    assert!(matches!(
        t.commit(1, entry(2, 0)),
        Err(ModelError::Layout(_))
    ));
    assert_eq!(t.get(1).map(|r| (r.generation, r.e.valid)), Some((0, 0)));
}

#[test]
fn a_row_is_live_only_valid_and_at_its_generation() {
    let mut t = Rrt::new(4);
    assert_eq!(t.live(1, 0), None, "invalid");
    t.commit(1, entry(1, 9)).expect("commit");
    assert_eq!(t.live(1, 1).map(|e| e.key), Some(9));
    assert_eq!(t.live(1, 0), None, "old generation");
    assert_eq!(t.live(1, 2), None, "future generation");
    assert_eq!(t.live(7, 1), None, "no such region");
    t.commit(1, entry(0, 9)).expect("deregister");
    assert_eq!(t.live(1, 2), None, "deregistered");
}

#[test]
fn a_key_installs_only_on_the_checked_row() {
    let mut t = Rrt::new(4);
    t.commit(1, entry(1, 9)).expect("commit");
    // Checked at generation 1, key_gen 1.
    assert!(!t.install_key(1, 0, 1, 77), "generation changed");
    assert!(!t.install_key(1, 1, 0, 77), "key generation changed");
    assert!(!t.install_key(5, 1, 1, 77), "no such region");
    assert_eq!(t.get(1).map(|r| r.e.key), Some(9));
    assert!(t.install_key(1, 1, 1, 77));
    let r = t.get(1).expect("row");
    assert_eq!((r.e.key, r.generation, r.key_gen), (77, 1, 2));
    // A second install checked before the first is refused (§8.6: the key changed since).
    assert!(!t.install_key(1, 1, 1, 78));
    assert!(t.install_key(1, 1, 2, 78));
    // An invalid row takes no key, whatever its generations.
    t.commit(2, entry(0, 0)).expect("commit");
    assert!(!t.install_key(2, 1, 1, 5));
    assert_eq!(t.get(2).map(|r| (r.e.key, r.key_gen)), Some((0, 1)));
}

// ---- window

#[test]
fn allocation_takes_lines_and_refuses_more_than_free() {
    let mut w = Window::new(100);
    assert_eq!((w.free(), w.total(), w.holders()), (100, 100, 0));
    w.alloc(Owner::Op(1, 1), 30).expect("30 of 100");
    assert_eq!((w.free(), w.total(), w.holders()), (70, 100, 1));
    assert!(matches!(
        w.alloc(Owner::Op(2, 1), 71),
        Err(ModelError::Internal(_))
    ));
    assert!(
        matches!(w.alloc(Owner::Op(1, 1), 1), Err(ModelError::Internal(_))),
        "an owner allocates once"
    );
    assert_eq!(w.free(), 70);
    // Exactly what is free, by an owner of the other kind with the same numbers.
    w.alloc(Owner::Ctx(1, 1), 70).expect("the rest");
    assert_eq!((w.free(), w.holders()), (0, 2));
}

#[test]
fn lines_return_when_released_and_unused() {
    let mut w = Window::new(100);
    w.alloc(Owner::Op(1, 1), 40).expect("alloc");
    w.alloc(Owner::Ctx(3, 2), 20).expect("alloc");
    // Nothing in flight: release returns the lines at once.
    w.release(Owner::Ctx(3, 2)).expect("release");
    assert_eq!((w.free(), w.holders()), (60, 1));
    // Two transfers in flight: the lines stay until both end, released or not.
    w.begin(Owner::Op(1, 1));
    w.begin(Owner::Op(1, 1));
    w.end(Owner::Op(1, 1)).expect("end");
    assert_eq!(w.free(), 60, "live owner keeps its lines");
    w.release(Owner::Op(1, 1)).expect("release");
    assert_eq!(
        (w.free(), w.holders()),
        (60, 1),
        "one transfer still in flight"
    );
    w.end(Owner::Op(1, 1)).expect("end");
    assert_eq!((w.free(), w.total(), w.holders()), (100, 100, 0));
}

#[test]
fn ending_more_than_begun_is_a_model_bug() {
    let mut w = Window::new(100);
    w.alloc(Owner::Op(1, 1), 10).expect("alloc");
    assert!(matches!(
        w.end(Owner::Op(1, 1)),
        Err(ModelError::Internal(_))
    ));
    // Owners without lines: nothing to do.
    w.begin(Owner::Op(9, 9));
    assert_eq!(w.end(Owner::Op(9, 9)), Ok(()));
    assert_eq!(w.release(Owner::Op(9, 9)), Ok(()));
    assert_eq!((w.free(), w.holders()), (90, 1));
}

// ---- counters

#[test]
fn counters_add_field_by_field() {
    let a = NicCounters {
        err_disabled_slot: 1,
        err_busy_slot: 2,
        err_bad_cq: 3,
        err_cq_write: 4,
        err_host_read: 5,
        err_host_write: 6,
        drop_malformed: 7,
        drop_misaddressed: 8,
        drop_stale: 9,
        drop_dup: 10,
        drop_auth: 11,
        drop_hold: 12,
        drop_late: 13,
        drop_queue_age: 14,
        drop_region_changed: 15,
        req_served: 16,
        req_nacked: 17,
        req_auth_fail: 18,
        req_access_err: 19,
        ctx_timeouts: 20,
        rekey_installed: 21,
        rekey_refused: 22,
        msgs_sent: 23,
        msgs_received: 24,
        status_bad_cq: false,
        status_cq_write: false,
        status_counter_exhausted: false,
    };
    let b = NicCounters {
        err_disabled_slot: 100,
        err_busy_slot: 200,
        err_bad_cq: 300,
        err_cq_write: 400,
        err_host_read: 500,
        err_host_write: 600,
        drop_malformed: 700,
        drop_misaddressed: 800,
        drop_stale: 900,
        drop_dup: 1000,
        drop_auth: 1100,
        drop_hold: 1200,
        drop_late: 1300,
        drop_queue_age: 1400,
        drop_region_changed: 1500,
        req_served: 1600,
        req_nacked: 1700,
        req_auth_fail: 1800,
        req_access_err: 1900,
        ctx_timeouts: 2000,
        rekey_installed: 2100,
        rekey_refused: 2200,
        msgs_sent: 2300,
        msgs_received: 2400,
        status_bad_cq: true,
        status_cq_write: true,
        status_counter_exhausted: true,
    };
    let mut s = a.clone();
    s.add(&b);
    let want = NicCounters {
        err_disabled_slot: 101,
        err_busy_slot: 202,
        err_bad_cq: 303,
        err_cq_write: 404,
        err_host_read: 505,
        err_host_write: 606,
        drop_malformed: 707,
        drop_misaddressed: 808,
        drop_stale: 909,
        drop_dup: 1010,
        drop_auth: 1111,
        drop_hold: 1212,
        drop_late: 1313,
        drop_queue_age: 1414,
        drop_region_changed: 1515,
        req_served: 1616,
        req_nacked: 1717,
        req_auth_fail: 1818,
        req_access_err: 1919,
        ctx_timeouts: 2020,
        rekey_installed: 2121,
        rekey_refused: 2222,
        msgs_sent: 2323,
        msgs_received: 2424,
        status_bad_cq: true,
        status_cq_write: true,
        status_counter_exhausted: true,
    };
    assert_eq!(s, want);
    // Sticky bits are an OR: set stays set, whatever is added.
    s.add(&b);
    assert!(s.status_bad_cq && s.status_cq_write && s.status_counter_exhausted);
    s.add(&a);
    assert!(s.status_bad_cq && s.status_cq_write && s.status_counter_exhausted);
    let mut z = a.clone();
    z.add(&a);
    assert!(!z.status_bad_cq && !z.status_cq_write && !z.status_counter_exhausted);
}

// ---- message counter and sealing

const KEY: [u8; 16] = *b"shared-unit-key!";

fn shared(addr: u32, epoch: u16) -> Shared {
    Shared::new(
        addr,
        epoch,
        8,
        256,
        Crypto::new(false),
        Box::new(HostMem::new(HostConfig::default(), false)),
    )
}

fn hdr() -> Hdr {
    Hdr {
        msg_type: MsgType::RdResp,
        op_type: OpType::Read,
        status: Status::Ok,
        src_nic: 0,
        dst_nic: 0x0B,
        counter: 0,
        prev_counter: 0x77,
        pid: 3,
        region: 2,
        slot: 5,
        offset: 0,
        length: 100,
        chunk_offset: 0,
        chunk_len: 0,
        ctx: 0,
        hold_ns: 0,
    }
}

/// Opens `frame` independently of the model: AAD = header, IV = src_nic | counter (big-endian),
/// tag last (protocol.md §3).
fn open(frame: &[u8]) -> Option<(Hdr, Vec<u8>)> {
    let h = Hdr::from_bytes(&frame[..64]).ok()?;
    let mut iv = [0u8; 12];
    iv[..4].copy_from_slice(&h.src_nic.to_be_bytes());
    iv[4..].copy_from_slice(&h.counter.to_be_bytes());
    let n = frame.len();
    let mut body = frame[64..n - 16].to_vec();
    let tag: [u8; 16] = frame[n - 16..].try_into().ok()?;
    Aes128Gcm::new(&Array::from(KEY))
        .decrypt_inout_detached(
            &Array::from(iv),
            &frame[..64],
            InOutBuf::from(&mut body[..]),
            &Array::from(tag),
        )
        .ok()?;
    Some((h, body))
}

#[test]
fn a_new_shared_state_starts_at_count_1() {
    let s = shared(0x0A, 3);
    assert_eq!((s.nic_addr, s.epoch, s.count()), (0x0A, 3, 1));
    assert!(s.can_send());
    assert_eq!((s.window.free(), s.window.total()), (256, 256));
    assert!(s.rrt.get(7).is_some() && s.rrt.get(8).is_none());
    assert_eq!(s.counters, NicCounters::default());
}

#[test]
fn send_fills_the_header_and_seals() {
    let mut s = shared(0x0A, 3);
    let key = CipherKey::new(&KEY);
    let mut out = Vec::new();
    let mut f = s.frame(100);
    assert_eq!(f.len(), FRAME_MIN + 100);
    f[64..164].copy_from_slice(&[0xAB; 100]);
    let c = s.send(hdr(), &key, f, &mut out).expect("send");
    // Epoch 3 in the top 16 bits, count 1.
    assert_eq!(c, Some((3 << 48) | 1));
    assert_eq!(s.count(), 2);
    let c2 = s.send_empty(hdr(), &key, &mut out).expect("send");
    assert_eq!(c2, Some((3 << 48) | 2));
    assert_eq!(s.counters.msgs_sent, 2);
    assert_eq!(out.len(), 2);
    let (h, body) = open(&out[0]).expect("first frame authenticates");
    assert_eq!(body, vec![0xAB; 100]);
    assert_eq!(
        (h.src_nic, h.counter, h.chunk_len),
        (0x0A, (3 << 48) | 1, 100)
    );
    // Fields the sender set are kept.
    assert_eq!(
        (h.dst_nic, h.prev_counter, h.slot, h.length),
        (0x0B, 0x77, 5, 100)
    );
    let (h, body) = open(&out[1]).expect("second frame authenticates");
    assert_eq!(out[1].len(), FRAME_MIN);
    assert!(body.is_empty());
    assert_eq!((h.counter, h.chunk_len), ((3 << 48) | 2, 0));
}

#[test]
fn the_last_count_is_sent_and_the_next_refused() {
    let mut s = shared(0x0A, 0);
    let key = CipherKey::new(&KEY);
    let mut out = Vec::new();
    s.set_count(COUNT_MAX);
    assert_eq!(s.count(), COUNT_MAX);
    assert!(s.can_send());
    assert_eq!(
        s.send_empty(hdr(), &key, &mut out).expect("send"),
        Some(COUNT_MAX)
    );
    assert!(!s.can_send());
    assert!(!s.counters.status_counter_exhausted);
    assert_eq!(s.send_empty(hdr(), &key, &mut out).expect("send"), None);
    assert!(s.counters.status_counter_exhausted);
    assert_eq!((out.len(), s.counters.msgs_sent), (1, 1));
    // A count set further past the last is refused too, not wrapped into the epoch bits.
    s.set_count(COUNT_MAX + 5);
    assert_eq!(s.send_empty(hdr(), &key, &mut out).expect("send"), None);
    assert_eq!(out.len(), 1);
}

#[test]
fn a_recycled_frame_comes_back_zeroed() {
    let mut s = shared(0x0A, 0);
    let mut dirty = vec![0xFF; 5000];
    dirty.truncate(300);
    s.recycle(dirty);
    let f = s.frame(10);
    assert_eq!(f, vec![0; FRAME_MIN + 10]);
    // The pool gave back the recycled buffer, not a new one.
    assert!(f.capacity() >= 5000);
}

#[test]
fn the_frame_pool_keeps_64() {
    let mut s = shared(0x0A, 0);
    for _ in 0..65 {
        s.recycle(Vec::with_capacity(5000));
    }
    let big = (0..65).filter(|_| s.frame(0).capacity() >= 5000).count();
    assert_eq!(big, 64);
}
