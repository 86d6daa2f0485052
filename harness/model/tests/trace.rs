//! Byte-exact regression pin: hashes the full trace (every frame sent, every completion, every
//! host DMA write, every (key, IV), the run statistics) of fixed-seed scenarios.
//!
//! The expected hashes were taken from the model itself when protocol v2 landed, so they do not
//! say the model is right; they say a speed change did not change a single byte or cycle. The
//! other test files say whether it is right. A deliberate behaviour change must update these
//! hashes in the same commit and say why.

use onerma_model::workload::{ClientSpec, PolicyKind, RateSpec, Runner, Scenario, bench_scenario};
use onerma_model::{FabricConfig, HostConfig, NicConfig, Partition, WritePurpose};

/// FNV-1a 64: tiny, fixed forever (std's `DefaultHasher` is not promised to be stable).
struct Fnv(u64);

impl Fnv {
    fn new() -> Self {
        Self(0xcbf2_9ce4_8422_2325)
    }
    fn bytes(&mut self, b: &[u8]) {
        // The length first, so ("ab", "c") and ("a", "bc") differ.
        for x in (b.len() as u64).to_le_bytes().iter().chain(b) {
            self.0 ^= u64::from(*x);
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }
    fn u64(&mut self, v: u64) {
        self.bytes(&v.to_le_bytes());
    }
}

/// Counts of what went into the hash, so a mismatch says which part grew or shrank.
#[derive(Debug, PartialEq, Eq)]
struct Digest {
    hash: u64,
    messages: usize,
    completions: usize,
    host_writes: usize,
    key_ivs: usize,
}

fn trace(sc: &Scenario) -> Digest {
    let mut r = Runner::new(sc).expect("scenario");
    r.system.log_messages(true);
    r.run();
    let mut h = Fnv::new();
    let msgs = r.system.message_log.take().unwrap_or_default();
    for (t, src, f) in &msgs {
        h.u64(*t);
        h.u64(*src as u64);
        h.bytes(f);
    }
    for (nic, c) in &r.completions {
        h.u64(*nic as u64);
        h.bytes(&c.cpl.to_bytes().expect("cpl"));
        h.bytes(&c.cmd.to_bytes().expect("cmd"));
        h.u64(u64::from(c.slot));
        h.u64(c.t_sub);
        h.u64(c.t_disp.map_or(u64::MAX, |t| t));
        h.u64(c.t_cpl);
        h.u64(c.visible);
        h.u64(c.req_counter.map_or(u64::MAX, |t| t));
    }
    for (nic, slot, seq, t) in &r.accepted {
        h.u64(*nic as u64);
        h.u64(u64::from(*slot));
        h.u64(u64::from(*seq));
        h.u64(*t);
    }
    let mut host_writes = 0;
    let mut key_ivs = 0;
    for n in &r.system.nics {
        for w in n.mem().expect("mem").log.as_deref().unwrap_or(&[]) {
            host_writes += 1;
            h.u64(u64::from(w.region));
            h.u64(w.addr);
            h.bytes(&w.data);
            h.u64(w.issued);
            h.u64(w.visible);
            match w.purpose {
                WritePurpose::ReadData { slot, req_counter } => {
                    h.u64(1);
                    h.u64(u64::from(slot));
                    h.u64(req_counter);
                }
                WritePurpose::RemoteWrite {
                    initiator,
                    slot,
                    req_counter,
                } => {
                    h.u64(2);
                    h.u64(u64::from(initiator));
                    h.u64(u64::from(slot));
                    h.u64(req_counter);
                }
                WritePurpose::Completion { slot } => {
                    h.u64(3);
                    h.u64(u64::from(slot));
                }
            }
        }
        for (k, iv) in n.crypto().key_iv_log.as_deref().unwrap_or(&[]) {
            key_ivs += 1;
            h.bytes(k);
            h.bytes(iv);
        }
    }
    h.bytes(
        serde_json::to_string(&r.stats)
            .expect("stats serialise")
            .as_bytes(),
    );
    Digest {
        hash: h.0,
        messages: msgs.len(),
        completions: r.completions.len(),
        host_writes,
        key_ivs,
    }
}

/// Every fault knob, replay and forgery, host back-pressure, random arbitration, a
/// READ/WRITE/REKEY mix and a Poisson client next to a closed-loop one.
fn harsh() -> Scenario {
    let nic = NicConfig {
        num_slots: 16,
        num_regions: 16,
        window_lines: 256,
        nack_depth: 4,
        in_queue_depth: 8,
        num_write_ctx: 4,
        dispatch_timeout: 1_500,
        op_timeout: 3_000,
        server_timeout: 3_000,
        host_write_max: 600,
        host_read_max: 700,
        host: HostConfig {
            read_latency: 120,
            write_latency: 90,
            bytes_per_cycle: 8,
        },
        ..NicConfig::default()
    };
    Scenario {
        seed: 0xC0FFEE,
        nics: 3,
        nic,
        fabric: FabricConfig {
            seed: 77,
            latency: 200,
            bytes_per_cycle: 50,
            jitter_mean: 80.0,
            drop: 0.05,
            duplicate: 0.05,
            corrupt: 0.03,
            reorder: 0.1,
            reorder_window: 1_000,
            partitions: vec![Partition {
                src: Some(1),
                dst: None,
                from: 6_000,
                until: 9_000,
            }],
            replay: 0.08,
            replay_window: 6_000,
            forge: 0.08,
            // Added after the pin; 0 keeps the pinned random stream.
            forge_body: 0.0,
        },
        served_regions: 2,
        region_bytes: 8 * 1024,
        clients: vec![
            ClientSpec {
                slots: 6,
                read: 2,
                write: 2,
                rekey: 1,
                sizes: vec![1, 100, 1024, 2500, 4096],
                rate: RateSpec::ClosedLoop { think: 5 },
                ..ClientSpec::default()
            },
            ClientSpec {
                every_nic: false,
                nic: 0,
                pid: 200,
                slots: 4,
                read: 1,
                write: 1,
                sizes: vec![64, 3000],
                rate: RateSpec::Poisson { mean_gap: 400.0 },
                ..ClientSpec::default()
            },
        ],
        duration: 30_000,
        policy: PolicyKind::Random,
        record: true,
        ..Scenario::default()
    }
}

fn bench(nics: usize, ops: u64) -> Scenario {
    Scenario {
        record: true,
        ..bench_scenario(nics, ops)
    }
}

#[test]
fn trace_harsh_is_unchanged() {
    let d = trace(&harsh());
    eprintln!("{d:?}");
    assert!(d.completions > 100 && d.host_writes > 100, "{d:?}");
    assert_eq!(
        d,
        Digest {
            // Re-pinned when CHUNK_BYTES went from 1024 to 2048 (protocol §3.1): an op of up to
            // 4 KB is at most two chunks, so fewer host writes (453 before) and a different
            // interleaving (328 completions, 751 messages before).
            hash: 16253284469929751411,
            messages: 759,
            completions: 349,
            host_writes: 420,
            key_ivs: 759,
        }
    );
}

#[test]
fn trace_bench_2nic_is_unchanged() {
    let d = trace(&bench(2, 20_000));
    eprintln!("{d:?}");
    assert_eq!(
        d,
        Digest {
            hash: 6167240654171697871,
            messages: 40000,
            completions: 20000,
            host_writes: 40000,
            key_ivs: 40000,
        }
    );
}

#[test]
fn trace_bench_40nic_is_unchanged() {
    let d = trace(&bench(40, 20_000));
    eprintln!("{d:?}");
    assert_eq!(
        d,
        Digest {
            hash: 16193807131303771722,
            messages: 40000,
            completions: 20000,
            host_writes: 39552,
            key_ivs: 40000,
        }
    );
}
