//! Unit tests per mechanism: K_d derivation, GCM framing, slots and submission checks, class
//! FIFOs and DISPATCH_TIMEOUT, checker-mode choices, NACK threshold, request-check order,
//! malformed input.

mod common;
use aes::Aes128;
use aes::cipher::{Array, BlockCipherEncrypt, KeyInit};
use aes_gcm::aead::inout::InOutBuf;
use aes_gcm::{AeadInOut, Aes128Gcm};
use common::*;
use onerma_layouts::{Cpl, Hdr, MsgType, OpType, Status};
use onerma_model::nic::{DropReason, Nic, Outputs, RxOutcome};
use onerma_model::{ChoiceError, SubmitError, SubmitOutcome};

fn aes(key: &[u8; 16], block: [u8; 16]) -> [u8; 16] {
    let c = Aes128::new(&Array::from(*key));
    let mut b = Array::from(block);
    c.encrypt_block(&mut b);
    b.into()
}

#[test]
fn kd_is_aes_of_the_documented_block() {
    let kr: [u8; 16] = *b"0123456789abcdef";
    for op in [OpType::Read, OpType::Write, OpType::Rekey] {
        // protocol.md §3 / layouts: initiator_nic (32) | pid (32) | op_type (8) | 56 zero bits.
        let mut block = [0u8; 16];
        block[..4].copy_from_slice(&0x0A0B_0C0Du32.to_be_bytes());
        block[4..8].copy_from_slice(&4242u32.to_be_bytes());
        block[8] = op as u8;
        let want = aes(&kr, block);
        assert_eq!(
            onerma_model::crypto::derive_kd(&kr, 0x0A0B_0C0D, 4242, op).expect("kd"),
            want
        );
        let mut c = onerma_model::crypto::Crypto::new(false);
        assert_eq!(c.kd(&kr, 0x0A0B_0C0D, 4242, op).expect("kd"), want);
        assert_eq!(
            c.kd(&kr, 0x0A0B_0C0D, 4242, op).expect("kd"),
            want,
            "cached value differs"
        );
    }
}

/// Verifies a frame independently: AAD = header, IV = src_nic | counter (big-endian), tag last.
fn open_frame(key: &[u8; 16], frame: &[u8]) -> Option<Vec<u8>> {
    let h = Hdr::from_bytes(&frame[..64]).ok()?;
    let mut iv = [0u8; 12];
    iv[..4].copy_from_slice(&h.src_nic.to_be_bytes());
    iv[4..].copy_from_slice(&h.counter.to_be_bytes());
    let n = frame.len();
    let mut body = frame[64..n - 16].to_vec();
    let tag: [u8; 16] = frame[n - 16..].try_into().ok()?;
    let g = Aes128Gcm::new(&Array::from(*key));
    g.decrypt_inout_detached(
        &Array::from(iv),
        &frame[..64],
        InOutBuf::from(&mut body[..]),
        &Array::from(tag),
    )
    .ok()?;
    Some(body)
}

/// The model's GCM (put together from `aes` and `ghash`) against `aes-gcm`: every payload length
/// from none to past a 1 KB chunk (the keystream's batch) and up to the largest frame, and tags
/// that fail (payload left as it came).
#[test]
fn gcm_matches_aes_gcm() {
    use onerma_model::crypto::{Crypto, TAG_LEN};
    let key: [u8; 16] = *b"gcm-vs-aes-gcm!!";
    let g = Aes128Gcm::new(&Array::from(key));
    let mut c = Crypto::new(false);
    let lens = (0..=80).chain([1008, 1023, 1024, 1025, 1040, 2048, 4095, 4096]);
    for (i, len) in lens.enumerate() {
        let mut iv = [0u8; 12];
        iv[..4].copy_from_slice(&(i as u32).to_be_bytes());
        iv[4..].copy_from_slice(&[0xa5; 8]);
        let frame_len = 64 + len + TAG_LEN;
        let mut frame: Vec<u8> = (0..frame_len).map(|x| (x * 7 + len) as u8).collect();
        let plain = frame[64..64 + len].to_vec();
        let mut want_body = plain.clone();
        let want_tag = g
            .encrypt_inout_detached(
                &Array::from(iv),
                &frame[..64],
                InOutBuf::from(&mut want_body[..]),
            )
            .expect("aes-gcm seals");
        c.seal(&key, &iv, &mut frame);
        assert_eq!(&frame[64..64 + len], &want_body[..], "ciphertext, {len} B");
        assert_eq!(&frame[64 + len..], &want_tag[..], "tag, {len} B");

        let (aad, rest) = frame.split_at(64);
        let (ct, tag) = rest.split_at(len);
        let mut body = ct.to_vec();
        assert!(c.open(&key, &iv, aad, &mut body, tag), "opens, {len} B");
        assert_eq!(body, plain, "plaintext, {len} B");

        let mut bad = tag.to_vec();
        bad[i % TAG_LEN] ^= 1;
        let mut body = ct.to_vec();
        assert!(!c.open(&key, &iv, aad, &mut body, &bad), "bad tag, {len} B");
        assert_eq!(
            body, ct,
            "a payload whose tag fails is left as it came, {len} B"
        );
    }
}

#[test]
fn gcm_framing_of_request_and_response() {
    let (mut a, mut b) = manual_pair(|_| {});
    let (aa, ba) = (a.addr(), b.addr());
    let pattern: Vec<u8> = (0..3000u32).map(|i| (i * 7) as u8).collect();
    b.mem_mut().expect("mem").write(SERVED_BASE + 100, &pattern);
    let kd = kd_for(1, 0, aa, OpType::Read);
    let mut out = Outputs::default();
    let c = cmd(OpType::Read, ba, 0, 100, 3000, 0, 0, kd);
    assert_eq!(
        a.submit(10, 0, &bytes(&c), &mut out),
        Ok(SubmitOutcome::Queued { seq: 1 })
    );
    assert_eq!(a.dispatch(11, 0, &mut out), Ok(0));
    let req = out.messages.pop().expect("request");
    assert_eq!(req.len(), 80);
    let h = Hdr::from_bytes(&req[..64]).expect("hdr");
    assert_eq!(
        (
            h.msg_type,
            h.src_nic,
            h.dst_nic,
            h.prev_counter,
            h.length,
            h.offset
        ),
        (MsgType::RdReq, aa, ba, 0, 3000, 100)
    );
    assert!(
        open_frame(&kd, &req).is_some(),
        "request tag does not verify independently"
    );
    assert_eq!(
        b.receive(20, &req, &mut out).expect("rx"),
        RxOutcome::Enqueued
    );
    b.serve_inbound(21, onerma_model::InQueue::Read, &mut out)
        .expect("serve");
    b.advance(10_000, &mut out).expect("advance");
    assert_eq!(out.messages.len(), 2, "3000 bytes = 2 chunks of 2048");
    let mut got = vec![0u8; 3000];
    for m in &out.messages {
        let rh = Hdr::from_bytes(&m[..64]).expect("hdr");
        assert_eq!(rh.msg_type, MsgType::RdResp);
        assert_eq!(
            rh.prev_counter, h.counter,
            "AAD currying: prev_counter = request counter"
        );
        let pt = open_frame(&kd, m).expect("response tag");
        assert_ne!(&m[64..64 + pt.len()], &pt[..], "payload travels encrypted");
        let off = usize::from(rh.chunk_offset);
        got[off..off + pt.len()].copy_from_slice(&pt);
    }
    assert_eq!(got, pattern);
    // Counters of one sender strictly increase.
    let cs: Vec<u64> = out
        .messages
        .iter()
        .map(|m| Hdr::from_bytes(&m[..64]).map(|h| h.counter).unwrap_or(0))
        .collect();
    assert!(cs.windows(2).all(|w| w[0] < w[1]), "{cs:?}");
}

#[test]
fn submission_checks_in_order() {
    let (mut a, _) = manual_pair(|_| {});
    let mut out = Outputs::default();
    let good = cmd(OpType::Read, 0x101, 0, 0, 64, 0, 0, [1; 16]);
    a.disable_slot(7).expect("slot");
    assert_eq!(
        a.submit(1, 7, &bytes(&good), &mut out),
        Err(SubmitError::DisabledSlot(7))
    );
    // Bad CQ beats a bad command: no completion at all.
    let mut bad_cq = good.clone();
    bad_cq.cq_offset = 8;
    bad_cq.op_type = 99;
    assert_eq!(
        a.submit(2, 0, &bytes(&bad_cq), &mut out),
        Err(SubmitError::BadCompletionRegion(0))
    );
    assert!(a.counters().status_bad_cq && a.counters().err_bad_cq == 1);
    let mut cq_oob = good.clone();
    cq_oob.cq_offset = 4096;
    assert_eq!(
        a.submit(2, 0, &bytes(&cq_oob), &mut out),
        Err(SubmitError::BadCompletionRegion(0))
    );
    assert!(out.completions.is_empty());
    // BAD_COMMAND cases complete at once.
    let mut cases = Vec::new();
    let mut c = good.clone();
    c.op_type = 4;
    cases.push(c);
    let mut c = good.clone();
    c.length = 0;
    cases.push(c);
    let mut c = good.clone();
    c.length = 4097;
    cases.push(c);
    let mut c = good.clone();
    c.op_type = OpType::Rekey as u8;
    c.length = 32;
    cases.push(c);
    let mut c = good.clone();
    c.cos = 4;
    cases.push(c);
    let mut t = 10;
    for (i, c) in cases.iter().enumerate() {
        t += 100;
        let r = a.submit(t, 0, &bytes(c), &mut out);
        assert!(
            matches!(
                r,
                Ok(SubmitOutcome::Completed {
                    status: Status::BadCommand,
                    ..
                })
            ),
            "case {i}: {r:?}"
        );
    }
    // Reserved bits: bytes 14..16 are rsvd0 of cmd.
    let mut raw = bytes(&good);
    raw[15] = 1;
    t += 100;
    assert!(matches!(
        a.submit(t, 0, &raw, &mut out),
        Ok(SubmitOutcome::Completed {
            status: Status::BadCommand,
            ..
        })
    ));
    // LOCAL_ACCESS_ERROR: out of the data region, or a region of another PID.
    let mut c = good.clone();
    c.local_offset = 64 * 1024 - 10;
    t += 100;
    assert!(matches!(
        a.submit(t, 0, &bytes(&c), &mut out),
        Ok(SubmitOutcome::Completed {
            status: Status::LocalAccessError,
            ..
        })
    ));
    let mut c = good.clone();
    c.local_region = SERVED;
    t += 100;
    assert!(matches!(
        a.submit(t, 0, &bytes(&c), &mut out),
        Ok(SubmitOutcome::Completed {
            status: Status::LocalAccessError,
            ..
        })
    ));
    // Completion records are in host memory, seq counts accepted commands.
    let last = out.completions.last().expect("cpl");
    let rec = Cpl::from_bytes(&a.mem().expect("mem").read_vec(CQ_BASE, 16)).expect("cpl bytes");
    assert_eq!(rec, last.cpl);
    assert_eq!(
        (
            rec.valid,
            rec.slot,
            rec.seq,
            rec.issue_delay,
            rec.total_delay
        ),
        (1, 0, 8, 0, 0)
    );
    // Busy slot: a queued op, then a second doorbell.
    t += 100;
    assert!(matches!(
        a.submit(t, 1, &bytes(&good), &mut out),
        Ok(SubmitOutcome::Queued { .. })
    ));
    assert_eq!(
        a.submit(t + 1, 1, &bytes(&good), &mut out),
        Err(SubmitError::BusySlot(1))
    );
    assert_eq!(a.counters().err_busy_slot, 1);
}

#[test]
fn dispatch_needs_quantum_and_queued_ops_expire() {
    let s = system(2, |c| c.window_lines = 64, fast_fabric());
    let mut a = s.nics.into_iter().next().expect("nic");
    a.set_manual(true);
    let mut out = Outputs::default();
    let c = cmd(OpType::Read, 0x101, 0, 0, 64, 0, 0, [1; 16]);
    assert_eq!(a.dispatch(0, 0, &mut out), Err(ChoiceError::EmptyClass(0)));
    let mut c1 = c.clone();
    c1.cq_offset = 16;
    c1.cos = 1;
    a.submit(100, 0, &bytes(&c), &mut out).expect("submit");
    a.submit(105, 1, &bytes(&c1), &mut out).expect("submit");
    assert_eq!(a.ready_classes(), vec![0, 1]);
    // A lower-priority class is a legal choice (anti-starvation), and holds only one line...
    assert_eq!(a.dispatch(110, 1, &mut out), Ok(1));
    assert_eq!(a.window_free(), 64 - 1);
    // ...but then fewer than 64 lines are free: nothing may enter service.
    assert_eq!(
        a.dispatch(111, 0, &mut out),
        Err(ChoiceError::WindowShort { class: 0, free: 63 })
    );
    let dt = a.config().dispatch_timeout;
    a.advance(100 + dt, &mut out).expect("advance");
    assert!(out.completions.is_empty(), "expired one cycle early");
    a.advance(100 + dt + 1, &mut out).expect("advance");
    let c0 = out.completions.pop().expect("DISPATCH_TIMEOUT");
    assert_eq!((c0.slot, c0.cpl.status), (0, Status::DispatchTimeout));
    assert_eq!(c0.cpl.issue_delay, c0.cpl.total_delay);
    assert_eq!(u64::from(c0.cpl.total_delay), dt + 1);
    // The dispatched op times out op_timeout after dispatch and the window returns to full.
    let ot = a.config().op_timeout;
    a.advance(110 + ot, &mut out).expect("advance");
    let c1 = out.completions.pop().expect("TIMEOUT");
    assert_eq!(
        (c1.slot, c1.cpl.status, c1.t_cpl),
        (1, Status::Timeout, 110 + ot)
    );
    assert_eq!(c1.cpl.issue_delay, 5);
    assert_eq!(a.window_free(), 64);
}

#[test]
fn nack_threshold_and_refund() {
    let (mut a, mut b) = manual_pair(|_| {});
    let _ = &mut b;
    let s = system(2, |c| c.nack_depth = 2, fast_fabric());
    let mut it = s.nics.into_iter();
    let _ = it.next();
    let mut b = it.next().expect("nic");
    b.set_manual(true);
    let (aa, ba) = (a.addr(), b.addr());
    let kd = kd_for(1, 0, aa, OpType::Read);
    let mut out = Outputs::default();
    let mut reqs = Vec::new();
    for slot in 0..3u16 {
        let c = cmd(
            OpType::Read,
            ba,
            0,
            0,
            4096,
            u64::from(slot) * 4096,
            u64::from(slot) * 16,
            kd,
        );
        let t = 1 + 2 * u64::from(slot);
        a.submit(t, slot, &bytes(&c), &mut out).expect("submit");
        a.dispatch(t + 1, 0, &mut out).expect("dispatch");
        reqs.push(out.messages.pop().expect("req"));
    }
    assert_eq!(a.window_free(), 1024 - 3 * 64);
    let mut replies = Vec::new();
    for (i, r) in reqs.iter().enumerate() {
        let o = b.receive(10, r, &mut out).expect("rx");
        assert_eq!(
            o,
            if i < 2 {
                RxOutcome::Enqueued
            } else {
                RxOutcome::Replied(MsgType::Nack)
            }
        );
    }
    replies.append(&mut out.messages);
    assert_eq!(b.inbound_len(), 2);
    let nack = &replies[0];
    assert!(open_frame(&kd, nack).is_some(), "NACK is signed with K_d");
    assert_eq!(
        a.receive(20, nack, &mut out).expect("rx"),
        RxOutcome::Accepted
    );
    let c = out.completions.pop().expect("cpl");
    assert_eq!((c.slot, c.cpl.status), (2, Status::Nack));
    assert_eq!(a.window_free(), 1024 - 2 * 64, "NACK refunds at once");
    // A replayed NACK changes nothing.
    assert_eq!(
        a.receive(21, nack, &mut out).expect("rx"),
        RxOutcome::Dropped(DropReason::Stale)
    );
}

#[test]
fn request_checks_order() {
    let (mut a, mut b) = manual_pair(|_| {});
    let (aa, ba) = (a.addr(), b.addr());
    let mut out = Outputs::default();
    let mut send = |a: &mut Nic, slot: u16, c: onerma_layouts::Cmd| -> Vec<u8> {
        a.submit(1, slot, &bytes(&c), &mut out).expect("submit");
        a.dispatch(1, 0, &mut out).expect("dispatch");
        out.messages.pop().expect("req")
    };
    let kd = kd_for(1, 0, aa, OpType::Read);
    // 1. Unknown region, even with a bad length/offset: AUTH_FAIL under the reserved key.
    let r1 = send(&mut a, 0, cmd(OpType::Read, ba, 3, 1 << 40, 64, 0, 0, kd));
    // 2. Wrong key and out of bounds: AUTH_FAIL (authentication before access checks).
    let r2 = send(
        &mut a,
        1,
        cmd(OpType::Read, ba, 0, 1 << 40, 64, 0, 16, [9; 16]),
    );
    // 3. Right key, out of bounds: ACCESS_ERR signed with K_d.
    let r3 = send(
        &mut a,
        2,
        cmd(OpType::Read, ba, 0, SERVED_SIZE - 10, 64, 0, 32, kd),
    );
    // 3b. Right key, no permission for the op type.
    let mut e = served_entry(1, 1);
    e.perm_remote_write = 0;
    b.write_rrt(1, e).expect("rrt");
    let r3b = send(
        &mut a,
        3,
        cmd(
            OpType::Write,
            ba,
            1,
            0,
            64,
            0,
            48,
            kd_for(1, 1, aa, OpType::Write),
        ),
    );
    let mut bo = Outputs::default();
    assert_eq!(
        b.receive(5, &r1, &mut bo).expect("rx"),
        RxOutcome::Replied(MsgType::AuthFail)
    );
    assert_eq!(
        b.receive(5, &r2, &mut bo).expect("rx"),
        RxOutcome::Replied(MsgType::AuthFail)
    );
    assert_eq!(
        b.receive(5, &r3, &mut bo).expect("rx"),
        RxOutcome::Replied(MsgType::AccessErr)
    );
    assert_eq!(
        b.receive(5, &r3b, &mut bo).expect("rx"),
        RxOutcome::Replied(MsgType::AccessErr)
    );
    assert!(
        open_frame(&[0; 16], &bo.messages[0]).is_some(),
        "AUTH_FAIL under the reserved key"
    );
    assert!(
        open_frame(&kd, &bo.messages[2]).is_some(),
        "ACCESS_ERR under K_d"
    );
    let mut ao = Outputs::default();
    for m in &bo.messages {
        assert_eq!(a.receive(6, m, &mut ao).expect("rx"), RxOutcome::Accepted);
    }
    let st: Vec<_> = ao
        .completions
        .iter()
        .map(|c| (c.slot, c.cpl.status))
        .collect();
    assert_eq!(
        st,
        vec![
            (0, Status::RemoteAuthenticationFailure),
            (1, Status::RemoteAuthenticationFailure),
            (2, Status::RemoteAccessError),
            (3, Status::RemoteAccessError)
        ]
    );
    assert_eq!(b.inbound_len(), 0);
    assert!(
        b.mem()
            .expect("mem")
            .log
            .as_ref()
            .is_some_and(Vec::is_empty),
        "a refused request touched host memory"
    );
}

#[test]
fn malformed_and_misaddressed_frames_are_dropped() {
    let (mut a, mut b) = manual_pair(|_| {});
    let mut out = Outputs::default();
    let c = cmd(
        OpType::Read,
        b.addr(),
        0,
        0,
        64,
        0,
        0,
        kd_for(1, 0, a.addr(), OpType::Read),
    );
    a.submit(1, 0, &bytes(&c), &mut out).expect("submit");
    a.dispatch(1, 0, &mut out).expect("dispatch");
    let req = out.messages.pop().expect("req");
    let m = RxOutcome::Dropped(DropReason::Malformed);
    assert_eq!(b.receive(2, &req[..79], &mut out).expect("rx"), m);
    let mut longer = req.clone();
    longer.push(0);
    assert_eq!(b.receive(2, &longer, &mut out).expect("rx"), m);
    let mut rsvd = req.clone();
    rsvd[3] = 1; // rsvd0 of hdr
    assert_eq!(b.receive(2, &rsvd, &mut out).expect("rx"), m);
    let mut unknown = req.clone();
    unknown[0] = 0xEE; // msg_type
    assert_eq!(b.receive(2, &unknown, &mut out).expect("rx"), m);
    let mut mis = req.clone();
    mis[11] ^= 0x40; // dst_nic
    assert_eq!(
        b.receive(2, &mis, &mut out).expect("rx"),
        RxOutcome::Dropped(DropReason::Misaddressed)
    );
    assert_eq!(
        (b.counters().drop_malformed, b.counters().drop_misaddressed),
        (4, 1)
    );
    assert!(out.messages.is_empty());
    assert_eq!(
        b.receive(2, &req, &mut out).expect("rx"),
        RxOutcome::Enqueued
    );
}

#[test]
fn counter_exhaustion_stops_sending() {
    assert_eq!(onerma_model::wire::COUNT_MAX, (1u64 << 48) - 1);
    let (mut a, _) = manual_pair(|_| {});
    let mut out = Outputs::default();
    // The last count is still sent...
    a.set_count(onerma_model::wire::COUNT_MAX);
    let c = cmd(OpType::Read, 0x101, 0, 0, 64, 0, 0, [1; 16]);
    a.submit(1, 0, &bytes(&c), &mut out).expect("submit");
    a.dispatch(2, 0, &mut out).expect("last counter");
    let h = Hdr::from_bytes(&out.messages[0][..64]).expect("hdr");
    assert_eq!(h.counter & ((1 << 48) - 1), (1 << 48) - 1);
    out.messages.clear();
    // ...then nothing: the counter never wraps.
    let mut c1 = c.clone();
    c1.cq_offset = 16;
    a.submit(3, 1, &bytes(&c1), &mut out).expect("submit");
    assert_eq!(
        a.dispatch(4, 0, &mut out),
        Err(ChoiceError::CounterExhausted)
    );
    assert!(out.messages.is_empty());
}
