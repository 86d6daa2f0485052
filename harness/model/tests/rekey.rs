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
    s.nics[0]
        .mem_mut()
        .expect("mem")
        .write(DATA_BASE + 0x1000, &new_key);
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
    let before = s.nics[1].mem().expect("mem").read_vec(SERVED_BASE, 64);
    assert_eq!(one(&mut s, &wr_old, 4), Status::RemoteAuthenticationFailure);
    assert_eq!(
        s.nics[1].mem().expect("mem").read_vec(SERVED_BASE, 64),
        before,
        "failed WRITE changed memory"
    );
    // K_d derived from the new key works.
    let kd_new = onerma_model::crypto::derive_kd(&new_key, a, PID, OpType::Read).expect("kd");
    let rd_new = cmd(OpType::Read, b, 0, 0, 64, 0, 80, kd_new);
    assert_eq!(one(&mut s, &rd_new, 5), Status::Ok);
}

/// The installed key is exactly the 16 bytes the initiator's local region held at the command's
/// local offset (byte 0 = most significant byte of the RRT key), not its neighbours and not a
/// byte-swapped copy; a K_d derived from those bytes with `aes` directly then works.
#[test]
fn rekey_installs_the_initiators_local_bytes() {
    use aes::Aes128;
    use aes::cipher::{Array, BlockCipherEncrypt, KeyInit};

    let mut s = system(2, |_| {}, fast_fabric());
    let a = s.nics[0].addr();
    let b = s.nics[1].addr();
    let local_off = 0x2345u64;
    // Distinct bytes everywhere, so a shifted, swapped or neighbouring window is a different key.
    let around: Vec<u8> = (0..64u8)
        .map(|i| i.wrapping_mul(37).wrapping_add(11))
        .collect();
    s.nics[0]
        .mem_mut()
        .expect("mem")
        .write(DATA_BASE + local_off - 24, &around);
    let new_key: [u8; 16] = around[24..40].try_into().expect("16 bytes");
    let rk = cmd(
        OpType::Rekey,
        b,
        1,
        0,
        16,
        local_off,
        0,
        kd_for(1, 1, a, OpType::Rekey),
    );
    assert_eq!(one(&mut s, &rk, 0), Status::Ok);
    let c = s.nics[1].counters();
    assert_eq!((c.rekey_installed, c.rekey_refused), (1, 0));
    assert_eq!(
        s.nics[1].rrt(1).map(|e| e.key.to_be_bytes()),
        Some(new_key),
        "installed key differs from the initiator's bytes"
    );
    // K_d = AES_{K_r}(initiator | pid | op_type | 0...) computed here, not by the model.
    let mut block = [0u8; 16];
    block[..4].copy_from_slice(&a.to_be_bytes());
    block[4..8].copy_from_slice(&PID.to_be_bytes());
    block[8] = OpType::Read as u8;
    let mut blk = Array::from(block);
    Aes128::new(&Array::from(new_key)).encrypt_block(&mut blk);
    let kd: [u8; 16] = blk.into();
    let rd = cmd(OpType::Read, b, 1, 0, 64, 0, 16, kd);
    assert_eq!(one(&mut s, &rd, 1), Status::Ok);
}
