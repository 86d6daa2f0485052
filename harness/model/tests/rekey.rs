//! REKEY: after the install, ops with the old K_d fail with REMOTE_AUTHENTICATION_FAILURE;
//! other regions and the new key work.

mod common;
use common::*;
use onerma_layouts::{OpType, Status};

fn one(s: &mut onerma_model::System, c: &onerma_layouts::Cmd, slot: u16) -> Status {
    let t = s.now();
    s.schedule_submit(t, 0, slot, bytes(c));
    let (comps, subs) = drain(s);
    assert!(subs.iter().all(Result::is_ok), "{subs:?}");
    assert_eq!(comps.len(), 1, "{comps:?}");
    comps[0].1.cpl.status
}

#[test]
fn rekey_invalidates_old_kd_of_that_region_only() {
    let mut s = system(2, |_| {}, fast_fabric());
    let a = s.nics[0].addr();
    let b = s.nics[1].addr();
    let new_key = [0x5Au8; 16];
    s.nics[0].host.write(DATA_BASE + 0x1000, &new_key);
    let read = |r| {
        cmd(
            OpType::Read,
            b,
            r,
            0,
            64,
            0,
            0,
            kd_for(1, r, a, OpType::Read),
        )
    };
    assert_eq!(one(&mut s, &read(0), 0), Status::Ok);
    let rk = cmd(
        OpType::Rekey,
        b,
        0,
        0,
        16,
        0x1000,
        16,
        kd_for(1, 0, a, OpType::Rekey),
    );
    assert_eq!(one(&mut s, &rk, 1), Status::Ok);
    assert_eq!(
        s.nics[1].rrt(0).map(|e| e.key),
        Some(u128::from_be_bytes(new_key))
    );
    // Old K_d on the rekeyed region: authentication failure; the other region: unaffected.
    assert_eq!(
        one(&mut s, &read(0), 2),
        Status::RemoteAuthenticationFailure
    );
    assert_eq!(one(&mut s, &read(1), 3), Status::Ok);
    let wr_old = cmd(
        OpType::Write,
        b,
        0,
        0,
        64,
        0,
        64,
        kd_for(1, 0, a, OpType::Write),
    );
    let before = s.nics[1].host.read_vec(SERVED_BASE, 64);
    assert_eq!(one(&mut s, &wr_old, 4), Status::RemoteAuthenticationFailure);
    assert_eq!(
        s.nics[1].host.read_vec(SERVED_BASE, 64),
        before,
        "failed WRITE changed memory"
    );
    // K_d derived from the new key works.
    let kd_new = onerma_model::crypto::derive_kd(&new_key, a, PID, OpType::Read).expect("kd");
    let rd_new = cmd(OpType::Read, b, 0, 0, 64, 0, 80, kd_new);
    assert_eq!(one(&mut s, &rd_new, 5), Status::Ok);
}
