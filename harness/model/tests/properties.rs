//! System properties under an adversarial fabric (proptest, shrinking): exactly one completion
//! per accepted command within the protocol.md §6 bound; completion records whose delays match
//! the times the runner saw; host writes only inside registered regions with permission,
//! attributable to a real op and carrying the initiator's bytes; the WRITE TIMEOUT guarantee;
//! REKEY installs only keys initiators supplied; no (key, IV) reuse; window accounting.

use std::collections::{HashMap, HashSet};

use onerma_layouts::{Cpl, Hdr, OpType, Status};
use onerma_model::workload::{ClientSpec, PolicyKind, RateSpec, Runner, Scenario};
use onerma_model::{FabricConfig, HostConfig, NicConfig, Partition, RunStats, WritePurpose};
use proptest::prelude::*;

#[derive(Debug, Clone)]
struct Knobs {
    seed: u64,
    nics: usize,
    drop: f64,
    dup: f64,
    corrupt: f64,
    reorder: f64,
    jitter: f64,
    replay: f64,
    forge: f64,
    partition: Option<(u64, u64)>,
    host_bpc: u32,
    host_lat: u64,
    random_policy: bool,
    write_weight: u32,
    rekey_weight: u32,
}

fn knobs() -> impl Strategy<Value = Knobs> {
    (
        (
            any::<u64>(),
            2usize..=3,
            0.0..0.15f64,
            0.0..0.15f64,
            0.0..0.1f64,
            0.0..0.2f64,
            0.0..150.0f64,
        ),
        (
            0.0..0.15f64,
            0.0..0.15f64,
            proptest::option::of((0u64..20_000, 500u64..8_000)),
        ),
        (
            prop_oneof![Just(0u32), 2u32..64],
            1u64..300,
            any::<bool>(),
            0u32..3,
            prop_oneof![2 => Just(0u32), 1 => Just(1u32), 1 => Just(2u32)],
        ),
    )
        .prop_map(
            |(
                (seed, nics, drop, dup, corrupt, reorder, jitter),
                (replay, forge, partition),
                (host_bpc, host_lat, random_policy, write_weight, rekey_weight),
            )| Knobs {
                seed,
                nics,
                drop,
                dup,
                corrupt,
                reorder,
                jitter,
                replay,
                forge,
                partition: partition.map(|(f, d)| (f, f + d)),
                host_bpc,
                host_lat,
                random_policy,
                write_weight,
                rekey_weight,
            },
        )
}

fn scenario(k: &Knobs) -> Scenario {
    let window = 16 * 1024;
    let slots = 16u16;
    let host = HostConfig {
        read_latency: k.host_lat,
        write_latency: k.host_lat,
        bytes_per_cycle: k.host_bpc,
    };
    // write_guard covers the worst host-write latency: the window bounds the data bytes queued on
    // the write channel, the slots bound the completion records (protocol.md §6, docs/model.md).
    let backlog = if k.host_bpc == 0 {
        0
    } else {
        (u64::from(window) + u64::from(slots) * 16).div_ceil(u64::from(k.host_bpc))
    };
    let nic = NicConfig {
        num_slots: slots,
        num_regions: 16,
        window_bytes: window,
        nack_depth: 4,
        in_queue_depth: 8,
        num_write_ctx: 4,
        dispatch_timeout: 1_500,
        op_timeout: 3_000,
        server_timeout: 3_000,
        write_guard: k.host_lat + backlog + 2,
        host,
        ..NicConfig::default()
    };
    Scenario {
        seed: k.seed,
        nics: k.nics,
        nic,
        fabric: FabricConfig {
            seed: k.seed ^ 0x5EED,
            latency: 200,
            bytes_per_cycle: 50,
            jitter_mean: k.jitter,
            drop: k.drop,
            duplicate: k.dup,
            corrupt: k.corrupt,
            reorder: k.reorder,
            reorder_window: 1_000,
            partitions: k
                .partition
                .map(|(from, until)| Partition {
                    src: Some(1),
                    dst: None,
                    from,
                    until,
                })
                .into_iter()
                .collect(),
            replay: k.replay,
            replay_window: 8_000,
            forge: k.forge,
            // The forgery knob covers the encrypted body too: payload and tag bit flips.
            forge_body: k.forge,
        },
        served_regions: 2,
        region_bytes: 8 * 1024,
        clients: vec![ClientSpec {
            slots: 6,
            read: 2,
            write: k.write_weight,
            rekey: k.rekey_weight,
            sizes: vec![1, 100, 1024, 2500, 4096],
            rate: RateSpec::ClosedLoop { think: 5 },
            ..ClientSpec::default()
        }],
        duration: 25_000,
        policy: if k.random_policy {
            PolicyKind::Random
        } else {
            PolicyKind::Default
        },
        record: true,
        ..Scenario::default()
    }
}

fn sat32(x: u64) -> u32 {
    u32::try_from(x).unwrap_or(u32::MAX)
}

fn check(k: &Knobs) -> Result<RunStats, TestCaseError> {
    let sc = scenario(k);
    let mut r = Runner::new(&sc).map_err(|e| TestCaseError::fail(e.to_string()))?;
    // Region keys before any REKEY: the only keys besides REKEY data a region may end with.
    let initial_keys: Vec<Vec<u128>> = r
        .system
        .nics
        .iter()
        .map(|n| {
            (0..sc.served_regions)
                .map(|g| n.rrt(g).map_or(0, |e| e.key))
                .collect()
        })
        .collect();
    r.system.log_messages(true);
    r.run();
    let sys = &r.system;
    // Exactly one completion per accepted command, within the bound.
    let mut seen: HashMap<(usize, u16, u16), u32> = HashMap::new();
    for (nic, c) in &r.completions {
        *seen.entry((*nic, c.slot, c.cpl.seq)).or_default() += 1;
        let bound = sc.nic.completion_bound();
        prop_assert!(
            c.t_cpl - c.t_sub <= bound,
            "op took {} > {bound}: {c:?}",
            c.t_cpl - c.t_sub
        );
    }
    for (nic, slot, seq, _) in &r.accepted {
        prop_assert_eq!(
            seen.remove(&(*nic, *slot, *seq)),
            Some(1),
            "accepted op {:?} not completed once",
            (nic, slot, seq)
        );
    }
    prop_assert!(seen.is_empty(), "completions without a command: {:?}", seen);
    prop_assert!(r.stats.ops_completed > 20, "workload did nothing");

    // Completion records as software reads them from host memory; their delays must be the
    // times the runner saw: doorbell -> hop-1 request on the wire (issue_delay) and doorbell ->
    // completion report (total_delay). Exact because every client here is closed-loop, so the
    // runner takes reports at the cycle they happen.
    let closed_loop = sc
        .clients
        .iter()
        .all(|c| matches!(c.rate, RateSpec::ClosedLoop { .. }));
    prop_assert!(
        closed_loop,
        "observed times are exact only for closed-loop clients"
    );
    let mut records = HashMap::new();
    for (ni, n) in sys.nics.iter().enumerate() {
        for w in n.host.log.as_deref().unwrap_or(&[]) {
            if let WritePurpose::Completion { slot } = w.purpose {
                let cpl = Cpl::from_bytes(&w.data);
                prop_assert!(cpl.is_ok(), "bad completion record {w:?}");
                if let Ok(cpl) = cpl {
                    prop_assert_eq!(cpl.slot, slot);
                    prop_assert!(
                        records.insert((ni, cpl.slot, cpl.seq), cpl).is_none(),
                        "two records for one op"
                    );
                }
            }
        }
    }
    let accepted_at: HashMap<(usize, u16, u16), u64> = r
        .accepted
        .iter()
        .map(|&(n, s, q, t)| ((n, s, q), t))
        .collect();
    let mut sent_at = HashMap::new();
    for (t, src, f) in sys.message_log.as_deref().unwrap_or(&[]) {
        if let Ok(h) = Hdr::from_bytes(&f[..Hdr::BYTES.min(f.len())]) {
            sent_at.entry((*src, h.counter)).or_insert(*t);
        }
    }
    prop_assert_eq!(r.completion_seen.len(), r.completions.len());
    for ((nic, c), &seen_at) in r.completions.iter().zip(&r.completion_seen) {
        let key = (*nic, c.slot, c.cpl.seq);
        let rec = records.get(&key);
        prop_assert_eq!(
            rec,
            Some(&c.cpl),
            "record in host memory differs from the report"
        );
        let Some(&t_acc) = accepted_at.get(&key) else {
            return Err(TestCaseError::fail(format!(
                "completion of no accepted op {key:?}"
            )));
        };
        prop_assert_eq!(
            c.cpl.total_delay,
            sat32(seen_at - t_acc),
            "total_delay vs observed for {:?}",
            c
        );
        match (c.req_counter, c.t_disp) {
            (Some(rc), _) => {
                let t_req = sent_at.get(&(*nic, rc)).copied();
                prop_assert!(t_req.is_some(), "hop-1 request of {c:?} never sent");
                prop_assert_eq!(
                    Some(c.cpl.issue_delay),
                    t_req.map(|t| sat32(t - t_acc)),
                    "issue_delay vs observed for {:?}",
                    c
                );
            }
            (None, None) => prop_assert_eq!(c.cpl.issue_delay, c.cpl.total_delay),
            // Dispatched but the request could not be sent (counter exhausted): not here.
            (None, Some(_)) => prop_assert!(false, "dispatched without a request: {c:?}"),
        }
    }

    // Ops by (initiator addr, slot, request counter), for attributing remote writes.
    let mut ops = HashMap::new();
    for (nic, c) in &r.completions {
        if let Some(rc) = c.req_counter {
            ops.insert((sys.nics[*nic].addr(), c.slot, rc), (*nic, c));
        }
    }
    let mut chunks = HashSet::new();
    for (si, server) in sys.nics.iter().enumerate() {
        for w in server.host.log.as_deref().unwrap_or(&[]) {
            let e = server.rrt(w.region).cloned();
            prop_assert!(
                e.as_ref().is_some_and(|e| e.valid == 1),
                "write to an invalid region: {w:?}"
            );
            let Some(e) = e else { continue };
            let off = w.addr.wrapping_sub(e.base_addr);
            prop_assert!(
                off.checked_add(w.data.len() as u64)
                    .is_some_and(|end| end <= e.size),
                "out of bounds: {w:?}"
            );
            match w.purpose {
                WritePurpose::ReadData { .. } | WritePurpose::Completion { .. } => {
                    prop_assert!(e.perm_local == 1)
                }
                WritePurpose::RemoteWrite {
                    initiator,
                    slot,
                    req_counter,
                } => {
                    prop_assert!(e.perm_remote_write == 1);
                    prop_assert!(
                        chunks.insert((si, initiator, slot, req_counter, w.addr)),
                        "chunk written twice: {w:?}"
                    );
                    let op = ops.get(&(initiator, slot, req_counter));
                    prop_assert!(
                        op.is_some(),
                        "remote write of no op (replay/forgery?): {w:?}"
                    );
                    let Some(&(inic, c)) = op else { continue };
                    prop_assert_eq!(c.cmd.op_type, OpType::Write as u8);
                    prop_assert_eq!(c.cmd.remote_nic, server.addr());
                    prop_assert_eq!(c.cmd.remote_region, w.region);
                    let rel = off.wrapping_sub(c.cmd.remote_offset);
                    prop_assert!(
                        rel + w.data.len() as u64 <= u64::from(c.cmd.length),
                        "outside the op's range: {w:?}"
                    );
                    if c.cpl.status != Status::Ok {
                        // The 4-hop guarantee: no remote side effect after the initiator's non-OK completion.
                        prop_assert!(
                            w.visible <= c.t_cpl,
                            "side effect at {} after {:?} at {}",
                            w.visible,
                            c.cpl.status,
                            c.t_cpl
                        );
                    }
                    // The bytes the initiator's software supplied for this op (REKEYs rewrite
                    // the source area later, so not its memory at the end of the run).
                    let src = r.op_sources.get(&(inic, c.slot, c.cpl.seq));
                    prop_assert!(src.is_some(), "no source recorded for {c:?}");
                    if let Some(src) = src {
                        let rel = rel as usize;
                        prop_assert!(
                            src.get(rel..rel + w.data.len()) == Some(&w.data[..]),
                            "written bytes differ from the initiator's source at {:#x} ({:?})",
                            w.addr,
                            w.purpose
                        );
                    }
                }
            }
        }
    }
    // REKEY: a served region's key is its initial key or the data of a REKEY aimed at it, and
    // after an OK REKEY it is the data of one (every install is a REKEY's data; the first OK one
    // replaced the initial key).
    let mut rekey_data: HashMap<(u32, u16), Vec<u128>> = HashMap::new();
    let mut rekey_ok: HashSet<(u32, u16)> = HashSet::new();
    for (nic, c) in &r.completions {
        if c.cmd.op_type != OpType::Rekey as u8 {
            continue;
        }
        let target = (c.cmd.remote_nic, c.cmd.remote_region);
        if c.cpl.status == Status::Ok {
            rekey_ok.insert(target);
        }
        if let Some(src) = r.op_sources.get(&(*nic, c.slot, c.cpl.seq))
            && let Ok(k) = <[u8; 16]>::try_from(&src[..])
        {
            rekey_data
                .entry(target)
                .or_default()
                .push(u128::from_be_bytes(k));
        }
    }
    for (si, n) in sys.nics.iter().enumerate() {
        for g in 0..sc.served_regions {
            let key = n.rrt(g).map_or(0, |e| e.key);
            let from_rekey = rekey_data
                .get(&(n.addr(), g))
                .is_some_and(|ks| ks.contains(&key));
            if rekey_ok.contains(&(n.addr(), g)) {
                prop_assert!(
                    from_rekey,
                    "NIC {si} region {g}: key {key:#x} after an OK REKEY"
                );
            } else {
                prop_assert!(
                    from_rekey || key == initial_keys[si][usize::from(g)],
                    "NIC {si} region {g}: key {key:#x} from nowhere"
                );
            }
        }
    }
    // No (key, IV) pair used twice, across every NIC.
    let mut kv = HashSet::new();
    for n in &sys.nics {
        for p in n.crypto.key_iv_log.as_deref().unwrap_or(&[]) {
            prop_assert!(kv.insert(*p), "(key, IV) reused: {p:?}");
        }
    }
    prop_assert!(!kv.is_empty());
    // Window accounting, and nothing left behind.
    for n in &sys.nics {
        prop_assert_eq!(n.counters.window_violations, 0);
        prop_assert_eq!(n.counters.policy_errors, 0);
        prop_assert_eq!(n.counters.internal_errors, 0);
        prop_assert_eq!(
            n.window_free(),
            sc.nic.window_bytes,
            "window not full when idle"
        );
        prop_assert!(n.is_idle());
    }
    Ok(r.stats.clone())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn invariants_under_adversarial_fabric(k in knobs()) {
        check(&k)?;
    }
}

/// A harsh fixed case (every fault at once), so the properties are exercised on every run
/// whatever proptest draws.
#[test]
fn invariants_everything_at_once() {
    let k = Knobs {
        seed: 42,
        nics: 3,
        drop: 0.1,
        dup: 0.1,
        corrupt: 0.05,
        reorder: 0.2,
        jitter: 100.0,
        replay: 0.1,
        forge: 0.1,
        partition: Some((5_000, 9_000)),
        host_bpc: 8,
        host_lat: 150,
        random_policy: true,
        write_weight: 2,
        rekey_weight: 1,
    };
    let st = check(&k).unwrap_or_else(|e| panic!("{e}"));
    // The knobs really fired: forged bodies reached a receiver and failed authentication, and
    // WRITE data was checked.
    assert!(st.fabric.forged > 0, "{st:?}");
    assert!(st.nic.drop_auth > 0, "{st:?}");
    assert!(st.bytes_written_ok > 0, "{st:?}");
}
