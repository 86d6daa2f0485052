//! Mixed mode, the responder half (issue 16): the Verilated `onerma_nic` (small configuration)
//! serves a model client NIC over the golden model's fabric, checked by the model's observer.
//!
//! The rig (`nic_rig`, shared with `nic_mixed.rs`) makes the RTL NIC NIC 0 of a model `System`;
//! the model NIC 1 issues READs (and WRITE / REKEY requests) to the RTL NIC's two served regions.
//! The observer is shown every frame the RTL NIC receives and every frame and host read it
//! makes; it checks every reply and RD_RESP byte for byte (sealed by the model under the K_d the
//! model derives) and every host read against the served READ's range. Independently of the
//! observer, the client's completions are checked: the status the request checks must give,
//! and for a READ that completed OK, the landed bytes against the rig's copy of the region.
//!
//! Served WRITEs and REKEYs have their own file, `nic_mixed_wr.rs`. A NACK threshold above 0 is
//! checked within the observer's NACK skew (`TopConfig::nack_skew`: near the threshold either
//! choice is legal); the exact compare is the proof of `onerma_rsp_req`.

use onerma_layouts::{OpType, Status};
use onerma_model::NicConfig;
use onerma_model::crypto::Key;
use onerma_rtl_tests::nic_rig::{
    ClientOp, RTL_REGION, RTL_SERVED_BASE, RTL_SERVED_SIZE, Rig, RigError, SLOTS, both_halves,
    fabric, memory, rtl_config,
};
use proptest::prelude::*;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

fn tc(e: RigError) -> TestCaseError {
    TestCaseError::fail(e.to_string())
}

fn read(slot: u16, region: u16, offset: u64, len: u16) -> ClientOp {
    ClientOp {
        op: OpType::Read,
        slot,
        region,
        offset,
        len,
    }
}

/// One READ of each size class from the served region, one at a time, clean fabric: all OK,
/// every RD_RESP checked by the observer, every landed byte by the rig.
#[test]
fn serves_reads_of_each_size() -> Result<(), TestCaseError> {
    let mut rig = Rig::new(11, fabric(11, false, false), memory(11, 4, 1.0), 1.0);
    rig.setup().map_err(tc)?;
    rig.serve_setup().map_err(tc)?;
    let key = rig.rtl_keys[0];
    for (i, len) in [1u16, 64, 1000, 1024, 1025, 4096].into_iter().enumerate() {
        let offset = 7 * 1024 * i as u64 + 3 * i as u64;
        rig.client_op(read(i as u16 % SLOTS, RTL_REGION, offset, len), key)
            .map_err(tc)?;
        rig.client_drain(60_000).map_err(tc)?;
    }
    rig.run_reads(0, &[1]).map_err(tc)?;
    let os = rig.obs.stats();
    println!("client: {:?}; observer: {os:?}", rig.client_done);
    for (op, st) in &rig.client_done {
        prop_assert_eq!(*st, Status::Ok, "{:?}", op);
    }
    prop_assert_eq!(rig.client_done.len(), 6);
    Ok(())
}

/// The request checks (§7.2): an unregistered region and a wrong key give AUTH_FAIL, a region
/// without the remote permission (READ, REKEY) and a READ past the region's end give ACCESS_ERR,
/// and a WRITE that passes the checks is served (OK; served WRITEs: `nic_mixed_wr.rs`). (A
/// REKEY with a nonzero offset never leaves a model client: its submission check refuses it.) Each reply is checked by the observer; each status here.
#[test]
fn request_checks() -> Result<(), TestCaseError> {
    let mut rig = Rig::new(12, fabric(12, false, false), memory(12, 4, 1.0), 1.0);
    rig.setup().map_err(tc)?;
    rig.serve_setup().map_err(tc)?;
    let key = rig.rtl_keys[0];
    let wrong: Key = [0x5a; 16];
    let cases: Vec<(ClientOp, Key, Status)> = vec![
        (read(0, 9, 0, 64), key, Status::RemoteAuthenticationFailure),
        (
            read(1, RTL_REGION, 0, 64),
            wrong,
            Status::RemoteAuthenticationFailure,
        ),
        (
            read(2, RTL_REGION + 1, 0, 64),
            rig.rtl_keys[1],
            Status::RemoteAccessError,
        ),
        (
            read(3, RTL_REGION, RTL_SERVED_SIZE - 100, 101),
            key,
            Status::RemoteAccessError,
        ),
        (
            ClientOp {
                op: OpType::Rekey,
                slot: 4,
                region: RTL_REGION + 1,
                offset: 0,
                len: 16,
            },
            rig.rtl_keys[1],
            Status::RemoteAccessError,
        ),
        (
            ClientOp {
                op: OpType::Write,
                slot: 5,
                region: RTL_REGION + 1,
                offset: 0,
                len: 64,
            },
            rig.rtl_keys[1],
            Status::Ok,
        ),
        (read(6, RTL_REGION, 100, 200), key, Status::Ok),
    ];
    for (op, k, _) in &cases {
        rig.client_op(op.clone(), *k).map_err(tc)?;
    }
    rig.client_drain(100_000).map_err(tc)?;
    rig.run_reads(0, &[1]).map_err(tc)?;
    for (op, _, want) in &cases {
        let got = rig
            .client_done
            .iter()
            .find(|(o, _)| o == op)
            .map(|(_, s)| *s);
        prop_assert_eq!(got, Some(*want), "{:?}", op);
    }
    Ok(())
}

/// Host read errors on served READs (§7.3): a 4 KB READ whose third chunk touches a SLVERR
/// range and a 100-byte READ inside a DECERR range send no frame from the failing chunk on, and
/// their client times out; a READ beside the ranges completes OK. The observer holds the same
/// ranges, so it expects exactly the frames before the failing chunk.
#[test]
fn served_read_errors() -> Result<(), TestCaseError> {
    let mut rig = Rig::new(13, fabric(13, false, false), memory(13, 4, 1.0), 1.0);
    let b = RTL_SERVED_BASE;
    rig.host_errors(&[
        (b + 2048 + 500, b + 2048 + 510, true),
        (b + 8192, b + 8200, false),
    ]);
    rig.setup().map_err(tc)?;
    rig.serve_setup().map_err(tc)?;
    let key = rig.rtl_keys[0];
    let cases = [
        (read(0, RTL_REGION, 0, 4096), Status::Timeout),
        (read(1, RTL_REGION, 8150, 100), Status::Timeout),
        (read(2, RTL_REGION, 12_000, 1500), Status::Ok),
    ];
    for (op, _) in &cases {
        rig.client_op(op.clone(), key).map_err(tc)?;
        rig.client_drain(60_000).map_err(tc)?;
    }
    rig.run_reads(0, &[1]).map_err(tc)?;
    for (op, want) in &cases {
        let got = rig
            .client_done
            .iter()
            .find(|(o, _)| o == op)
            .map(|(_, s)| *s);
        prop_assert_eq!(got, Some(*want), "{:?}", op);
    }
    prop_assert!(
        rig.stats.read_errors >= 2,
        "{} error beats",
        rig.stats.read_errors
    );
    // Chunks 0 and 1 of the 4 KB READ and the 1,500-byte READ's two chunks were sent.
    prop_assert_eq!(rig.stats.tx_payload, 2048 + 1500);
    Ok(())
}

/// Bad frames towards the RTL NIC (§3.3): the model client's requests are tampered with on
/// their way out, a fifth each truncated, extended by 16 bytes, misaddressed (`dst_nic`),
/// given an unknown `op_type`, or replayed (sent twice); the rest are left alone. The RTL NIC
/// must drop the first four kinds with no output (the observer's shadow parses the same frames)
/// and serve a replayed request twice; their client ops time out or complete, never hang.
#[test]
fn malformed_misaddressed_and_replayed_requests() -> Result<(), TestCaseError> {
    let mut rig = Rig::new(14, fabric(14, false, false), memory(14, 4, 1.0), 1.0);
    rig.setup().map_err(tc)?;
    rig.serve_setup().map_err(tc)?;
    let mut n = 0u32;
    rig.sys.set_tamper(Box::new(move |nic, _, out, _| {
        if nic != 1 {
            return;
        }
        let mut extra = Vec::new();
        for m in &mut out.messages {
            n += 1;
            match n % 6 {
                0 => m.truncate(m.len() - 1 - (n as usize % 16)),
                1 => m.extend_from_slice(&[0xa5; 16]),
                2 => m[11] ^= 0x01, // dst_nic, last byte
                3 => m[1] = 9,      // op_type: unknown
                4 => extra.push(m.clone()),
                _ => {}
            }
        }
        out.messages.extend(extra);
    }));
    let key = rig.rtl_keys[0];
    for i in 0..24u16 {
        rig.client_op(
            read(i % SLOTS, RTL_REGION, 64 * u64::from(i), 64 + 32 * i),
            key,
        )
        .map_err(tc)?;
        rig.client_drain(60_000).map_err(tc)?;
    }
    rig.run_reads(0, &[1]).map_err(tc)?;
    let mut by = std::collections::BTreeMap::new();
    for (_, st) in &rig.client_done {
        *by.entry(format!("{st:?}")).or_insert(0u32) += 1;
    }
    println!("{by:?}; observer {:?}", rig.obs.stats());
    prop_assert_eq!(rig.client_done.len(), 24);
    prop_assert_eq!(
        by.get("Ok").copied(),
        Some(8),
        "two of six requests go through"
    );
    prop_assert_eq!(by.get("Timeout").copied(), Some(16));
    Ok(())
}

/// Both halves at once: the RTL NIC runs its own closed loop of READs and WRITEs to the model
/// server (its 8 slots) while the model client keeps its 8 slots busy with READs of the RTL
/// NIC, over a faulty fabric. The observer checks every output of both halves; every RTL op
/// completes (the rig's drain), every client READ completes and lands the right bytes.
#[test]
fn both_halves_at_once() -> Result<(), TestCaseError> {
    let rig = both_halves(15, 0.0, 25_000).map_err(tc)?;
    let ok = rig
        .client_done
        .iter()
        .filter(|(_, s)| *s == Status::Ok)
        .count();
    println!(
        "RTL ops {:?}; client {} ops, {ok} OK; observer {:?}",
        rig.stats,
        rig.client_done.len(),
        rig.obs.stats()
    );
    prop_assert!(rig.stats.ok >= 10, "{} RTL ops OK", rig.stats.ok);
    prop_assert!(ok >= 10, "{} client READs OK", ok);
    Ok(())
}

/// Deregistration and re-registration of the served region while READs to it are queued
/// (§4.1, §4.2): 4 KB READs pile up behind the one iterative engine; the driver commits the
/// region invalid (queued READs are discarded at their service by the `gen` check, their
/// clients time out; new requests get AUTH_FAIL: no key), then valid again (a new `gen`: READs
/// checked after it are served). The observer learns each commit as the driver does.
#[test]
fn reregistration_while_queued() -> Result<(), TestCaseError> {
    let mut rig = Rig::new(16, fabric(16, false, false), memory(16, 4, 1.0), 1.0);
    rig.setup().map_err(tc)?;
    rig.serve_setup().map_err(tc)?;
    rig.client_load(6_000, 4096, 1.0).map_err(tc)?;
    let before = rig.client_done.len();
    let off = rig.served_entry(0, false);
    rig.rrt(RTL_REGION, &off).map_err(tc)?;
    rig.client_load(3_000, 64, 0.05).map_err(tc)?;
    let on = rig.served_entry(0, true);
    rig.rrt(RTL_REGION, &on).map_err(tc)?;
    rig.client_drain(120_000).map_err(tc)?;
    let mid2 = rig.client_done.len();
    rig.client_load(6_000, 1024, 0.05).map_err(tc)?;
    rig.client_drain(120_000).map_err(tc)?;
    rig.run_reads(0, &[1]).map_err(tc)?;
    let count = |r: std::ops::Range<usize>, st: Status| {
        rig.client_done[r].iter().filter(|(_, s)| *s == st).count()
    };
    let n = rig.client_done.len();
    println!(
        "before: {before} done; deregistered: {} AUTH_FAIL, {} TIMEOUT; after: {} OK of {}",
        count(before..mid2, Status::RemoteAuthenticationFailure),
        count(before..mid2, Status::Timeout),
        count(mid2..n, Status::Ok),
        n - mid2
    );
    prop_assert!(count(0..before, Status::Ok) > 0, "nothing served before");
    prop_assert!(
        count(before..mid2, Status::Timeout) > 0,
        "no queued READ discarded"
    );
    // A request checked while deregistered completes AUTH_FAIL, possibly after the
    // re-registration; one checked after it has the key again.
    prop_assert!(
        count(before..mid2, Status::RemoteAuthenticationFailure) > 0,
        "no AUTH_FAIL while deregistered"
    );
    prop_assert!(
        count(mid2..n, Status::Ok) == n - mid2,
        "a READ after re-registration failed"
    );
    Ok(())
}

/// NACK (§7.2 step 4) with `nack_depth` 0: every request that authenticates and passes the
/// access rules is answered NACK under K_d (the queue count, 0, is at the depth), and its client
/// completes NACK. With depth 0 the decision does not depend on when the count is sampled, so
/// the observer's shadow (which compares its own count) must agree exactly; requests failing
/// the earlier checks still get AUTH_FAIL or ACCESS_ERR.
#[test]
fn nack_at_depth_zero() -> Result<(), TestCaseError> {
    let cfg = NicConfig {
        nack_depth: 0,
        ..rtl_config()
    };
    let mut rig = Rig::with_config(17, fabric(17, false, false), memory(17, 4, 1.0), 1.0, cfg);
    rig.setup().map_err(tc)?;
    rig.serve_setup().map_err(tc)?;
    let key = rig.rtl_keys[0];
    let cases = [
        (read(0, RTL_REGION, 0, 64), key, Status::Nack),
        (read(1, RTL_REGION, 5000, 4096), key, Status::Nack),
        (
            read(2, RTL_REGION, 0, 64),
            [0x33; 16],
            Status::RemoteAuthenticationFailure,
        ),
        (
            read(3, RTL_REGION + 1, 0, 64),
            rig.rtl_keys[1],
            Status::RemoteAccessError,
        ),
    ];
    for (op, k, _) in &cases {
        rig.client_op(op.clone(), *k).map_err(tc)?;
    }
    rig.client_drain(60_000).map_err(tc)?;
    rig.run_reads(0, &[1]).map_err(tc)?;
    for (op, _, want) in &cases {
        let got = rig
            .client_done
            .iter()
            .find(|(o, _)| o == op)
            .map(|(_, s)| *s);
        prop_assert_eq!(got, Some(*want), "{:?}", op);
    }
    prop_assert_eq!(rig.stats.tx_payload, 0);
    Ok(())
}

/// A flood of READs above a small `nack_depth` (1: the client's 8 slots barely fill the one
/// engine's seal stages, the READ in service and its successor, the checks and the queue): the
/// RTL NIC NACKs some and serves the rest,
/// and every reply and RD_RESP is checked by the observer, which takes the device's choice
/// within its NACK skew (§7.2 step 4). Each READ ends OK or NACK, and both happen.
#[test]
fn nack_above_a_small_depth() -> Result<(), TestCaseError> {
    let cfg = NicConfig {
        nack_depth: 1,
        ..rtl_config()
    };
    let mut rig = Rig::with_config(23, fabric(23, false, false), memory(23, 4, 1.0), 1.0, cfg);
    rig.setup().map_err(tc)?;
    rig.serve_setup().map_err(tc)?;
    rig.client_load(8_000, 1024, 1.0).map_err(tc)?;
    rig.client_drain(120_000).map_err(tc)?;
    rig.run_reads(0, &[1]).map_err(tc)?;
    let n = |st: Status| rig.client_done.iter().filter(|(_, s)| *s == st).count();
    println!(
        "OK {}, NACK {}, of {}",
        n(Status::Ok),
        n(Status::Nack),
        rig.client_done.len()
    );
    prop_assert!(n(Status::Ok) > 0 && n(Status::Nack) > 0);
    prop_assert_eq!(n(Status::Ok) + n(Status::Nack), rig.client_done.len());
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 8, ..ProptestConfig::default() })]

    /// Closed loop: the client keeps its 8 slots busy with READs of 1 B..4 KB at random offsets
    /// (some past the region's end, some under a wrong key, some to the region without read
    /// permission) over a fabric with drops, reordering, jitter and duplicates (replayed
    /// requests: served again, their RD_RESPs dropped by the client as stale) or corrupted
    /// frames (forged tags: AUTH_FAIL), with host memory latency and back-pressure, and in half
    /// the cases three small SLVERR / DECERR ranges inside the served region (a READ over one
    /// stops at that chunk; its client times out). The observer checks every frame and host
    /// read; the rig every landed byte.
    #[test]
    fn reads_over_a_faulty_fabric(seed in any::<u64>(), corrupt in any::<bool>(),
                                  lat in 1u64..30, p in 0.5f64..1.0, errs in any::<bool>()) {
        let mut rig = Rig::new(seed, fabric(seed, true, corrupt), memory(seed, lat, p), 0.9);
        let mut rng = StdRng::seed_from_u64(seed ^ 0x1234);
        if errs {
            // Host read errors inside the served region: a READ touching one stops at that
            // chunk (its frame and every later chunk unsent) and its client times out.
            let ranges: Vec<(u64, u64, bool)> = (0..3)
                .map(|i| {
                    let a = RTL_SERVED_BASE + rng.random_range(0..RTL_SERVED_SIZE - 64);
                    (a, a + rng.random_range(1..64), i != 1)
                })
                .collect();
            rig.host_errors(&ranges);
        }
        rig.setup().map_err(tc)?;
        rig.serve_setup().map_err(tc)?;
        let sizes = [1u16, 16, 64, 100, 1024, 1025, 2048, 4096];
        let end = rig.cycle + 25_000;
        while rig.cycle < end {
            for s in 0..SLOTS {
                if rig.client_free(s) && rng.random_bool(0.02) {
                    let len = sizes[rng.random_range(0..sizes.len())];
                    let pick = rng.random_range(0..20u8);
                    let (region, k) = match pick {
                        0 => (RTL_REGION + 1, rig.rtl_keys[1]),
                        1 => (RTL_REGION, [0x11; 16]),
                        _ => (RTL_REGION, rig.rtl_keys[0]),
                    };
                    let offset = if pick == 2 {
                        RTL_SERVED_SIZE - u64::from(len) + 1
                    } else {
                        rng.random_range(0..=RTL_SERVED_SIZE - u64::from(len))
                    };
                    rig.client_op(read(s, region, offset, len), k).map_err(tc)?;
                }
            }
            rig.step().map_err(tc)?;
        }
        rig.client_drain(120_000).map_err(tc)?;
        rig.run_reads(0, &[1]).map_err(tc)?;
        let mut by = std::collections::BTreeMap::new();
        for (_, st) in &rig.client_done {
            *by.entry(format!("{st:?}")).or_insert(0u32) += 1;
        }
        println!("seed {seed}: {by:?}");
        prop_assert!(rig.client_done.len() > 4, "only {} ops", rig.client_done.len());
    }
}
