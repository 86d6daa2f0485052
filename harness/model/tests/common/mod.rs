//! Helpers shared by the model's tests: a small system with regions and slots set up the way a
//! driver would, and command builders.
#![allow(dead_code)]

use onerma_layouts::{Cmd, OpType, RrtEntry};
use onerma_model::NicConfig;
use onerma_model::crypto::{self, Key};
use onerma_model::nic::Completion;
use onerma_model::sim::{Report, System};
use onerma_model::{FabricConfig, SubmitError, SubmitOutcome};

pub const PID: u32 = 7;
pub const SERVED: u16 = 0; // remote-accessible region on every NIC (and region 1)
pub const DATA: u16 = 4; // local data region of PID
pub const CQ: u16 = 5; // completion region of PID
pub const SERVED_BASE: u64 = 0x10_0000;
pub const SERVED_SIZE: u64 = 16 * 1024;
pub const DATA_BASE: u64 = 0x80_0000;
pub const CQ_BASE: u64 = 0x90_0000;

pub fn key(nic: usize, region: u16) -> Key {
    let mut k = [0u8; 16];
    k[0] = 0xA0 + nic as u8;
    k[15] = region as u8 + 1;
    k
}

pub fn cfg(addr: u32) -> NicConfig {
    NicConfig {
        nic_addr: addr,
        log_host_writes: true,
        record_key_iv: true,
        ..NicConfig::default()
    }
}

pub fn served_entry(nic: usize, region: u16) -> RrtEntry {
    RrtEntry {
        valid: 1,
        perm_remote_read: 1,
        perm_remote_write: 1,
        perm_remote_rekey: 1,
        perm_local_read: 0,
        perm_local_write: 0,
        owner_pid: 0,
        base_addr: SERVED_BASE + u64::from(region) * SERVED_SIZE,
        size: SERVED_SIZE,
        key: crypto::key_to_u128(&key(nic, region)),
    }
}

pub fn local_entry(base: u64, size: u64) -> RrtEntry {
    onerma_model::shared::local_entry(PID, base, size)
}

/// `n` NICs with addresses 0x100 + i; regions 0 and 1 served, 4 = data (64 KB), 5 = CQ (4 KB);
/// slots 0..8 enabled for PID.
pub fn system(n: usize, mut tweak: impl FnMut(&mut NicConfig), fabric: FabricConfig) -> System {
    let cfgs = (0..n)
        .map(|i| {
            let mut c = cfg(0x100 + i as u32);
            tweak(&mut c);
            c
        })
        .collect();
    let mut s = System::new(cfgs, fabric).expect("system");
    for (i, nic) in s.nics.iter_mut().enumerate() {
        for r in [0, 1] {
            nic.write_rrt(r, served_entry(i, r)).expect("rrt");
        }
        nic.write_rrt(DATA, local_entry(DATA_BASE, 64 * 1024))
            .expect("rrt");
        nic.write_rrt(CQ, local_entry(CQ_BASE, 4096)).expect("rrt");
        for slot in 0..8 {
            nic.enable_slot(slot, PID).expect("slot");
        }
    }
    s
}

pub fn fast_fabric() -> FabricConfig {
    FabricConfig {
        latency: 100,
        bytes_per_cycle: 0,
        ..FabricConfig::default()
    }
}

#[allow(clippy::too_many_arguments)]
pub fn cmd(
    op: OpType,
    remote_nic: u32,
    region: u16,
    remote_offset: u64,
    len: u16,
    local_offset: u64,
    cq_offset: u64,
    kd: Key,
) -> Cmd {
    Cmd {
        op_type: op.as_raw(),
        cos: 0,
        length: len,
        remote_nic,
        remote_region: region,
        local_region: DATA,
        cq_region: CQ,
        remote_offset,
        local_offset,
        cq_offset,
        kd: crypto::key_to_u128(&kd),
    }
}

/// K_d an initiator at `initiator_addr` needs for `region` of NIC `server`.
pub fn kd_for(server: usize, region: u16, initiator_addr: u32, op: OpType) -> Key {
    crypto::derive_kd(&key(server, region), initiator_addr, PID, op).expect("kd")
}

pub fn bytes(c: &Cmd) -> [u8; 64] {
    c.to_bytes().expect("cmd")
}

/// Completions and submission results of a run.
pub type Drained = (
    Vec<(usize, Completion)>,
    Vec<Result<SubmitOutcome, SubmitError>>,
);

/// Runs to quiescence; returns completions and submission results in order.
pub fn drain(s: &mut System) -> Drained {
    s.run_to_quiescence();
    let mut comps = Vec::new();
    let mut subs = Vec::new();
    for r in std::mem::take(&mut s.reports) {
        match r {
            Report::Completion { nic, c } => comps.push((nic, c)),
            Report::Submitted { result, .. } => subs.push(result),
        }
    }
    (comps, subs)
}

/// Two NICs of one system (each configured by `tweak`), both in manual mode: every choice is
/// the test's.
pub fn manual_pair(
    tweak: impl FnMut(&mut NicConfig),
) -> (onerma_model::nic::Nic, onerma_model::nic::Nic) {
    let s = system(2, tweak, fast_fabric());
    let mut it = s.nics.into_iter();
    let (Some(mut a), Some(mut b)) = (it.next(), it.next()) else {
        panic!("two nics")
    };
    a.set_manual(true);
    b.set_manual(true);
    (a, b)
}
