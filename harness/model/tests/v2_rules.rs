//! The rules protocol v2 added, each driven by hand in manual mode (the hardware's choices fed
//! in): the WRITE hold and re-arm, the server deadline edge, duplicate and mismatched replies,
//! pending chunks (S1), results after the op ended (S3), region generations (S4), the REKEY
//! install rule (S5), torn commands (A4), host DMA errors and the inbound age limit.

mod common;
use common::*;
use onerma_layouts::{Cmd, Hdr, MsgType, OpType, Status};
use onerma_model::nic::{DropReason, Nic, Outputs, RxOutcome};
use onerma_model::timing::rearm_cycles;
use onerma_model::{DmaError, ErrorRange, InQueue, SubmitError, SubmitOutcome};

fn hdr(f: &[u8]) -> Hdr {
    Hdr::from_bytes(&f[..64]).expect("hdr")
}

fn take(out: &mut Outputs) -> Vec<Vec<u8>> {
    std::mem::take(&mut out.messages)
}

fn rx_all(n: &mut Nic, t: u64, frames: &[Vec<u8>], out: &mut Outputs) -> Vec<RxOutcome> {
    frames
        .iter()
        .map(|f| n.receive(t, f, out).expect("rx"))
        .collect()
}

/// A WRITE of `len` bytes from A (slot 0) to B region 0, dispatched at 10; returns the WR_REQ.
fn write_req(a: &mut Nic, b: &Nic, len: u16, out: &mut Outputs) -> Vec<u8> {
    let kd = kd_for(1, 0, a.addr(), OpType::Write);
    let c = cmd(OpType::Write, b.addr(), 0, 0, len, 0x2000, 0, kd);
    a.submit(5, 0, &bytes(&c), out).expect("submit");
    a.dispatch(10, 0, out).expect("dispatch");
    let mut m = take(out);
    assert_eq!(m.len(), 1);
    m.remove(0)
}

/// [`write_req`] delivered to B at 20 and served at 30: returns B's WR_RDREQ.
fn rdreq_for(a: &mut Nic, b: &mut Nic, len: u16, out: &mut Outputs) -> Vec<u8> {
    let req = write_req(a, b, len, out);
    b.receive(20, &req, out).expect("rx");
    b.serve_inbound(30, InQueue::Write, out).expect("serve");
    take(out).remove(0)
}

/// [`rdreq_for`] delivered to A at 40, its source read by 1,000: returns A's WR_DATA frames.
fn wr_data_for(a: &mut Nic, b: &mut Nic, len: u16, out: &mut Outputs) -> Vec<Vec<u8>> {
    let rdreq = rdreq_for(a, b, len, out);
    a.receive(40, &rdreq, out).expect("rx");
    a.advance(1_000, out).expect("advance");
    take(out)
}

#[test]
fn write_hold_rearm_and_reply_matching() {
    let (mut a, mut b) = manual_pair(|_| {});
    let mut out = Outputs::default();
    let req = write_req(&mut a, &b, 4000, &mut out);
    assert_eq!(
        b.receive(20, &req, &mut out).expect("rx"),
        RxOutcome::Enqueued
    );
    b.serve_inbound(30, InQueue::Write, &mut out)
        .expect("serve");
    let rdreq = take(&mut out).remove(0);
    let h = hdr(&rdreq);
    assert_eq!(h.msg_type, MsgType::WrRdreq);
    assert_eq!(
        h.hold_ns,
        b.config().hold_ns(),
        "the server states its own hold"
    );
    assert_eq!(u64::from(h.hold_ns), b.config().timing().hold_ns());
    // A WR_CMPL before any WR_RDREQ matches nothing.
    let t_r = 40;
    assert_eq!(
        a.receive(t_r, &rdreq, &mut out).expect("rx"),
        RxOutcome::Accepted
    );
    // Duplicate WR_RDREQ: dropped, the op goes on.
    assert_eq!(
        a.receive(t_r + 1, &rdreq, &mut out).expect("rx"),
        RxOutcome::Dropped(DropReason::Stale)
    );
    // Source data read, then two WR_DATA chunks (4000 bytes).
    a.advance(t_r + 1_000, &mut out).expect("advance");
    let data = take(&mut out);
    assert_eq!(data.len(), 2);
    assert!(
        data.iter()
            .all(|f| hdr(f).ctx == h.ctx && hdr(f).prev_counter == h.counter)
    );
    let outcomes = rx_all(&mut b, t_r + 1_001, &data, &mut out);
    assert!(
        outcomes.iter().all(|o| *o == RxOutcome::Accepted),
        "{outcomes:?}"
    );
    b.advance(t_r + 2_000, &mut out).expect("advance");
    let cmpl = take(&mut out).remove(0);
    let hc = hdr(&cmpl);
    assert_eq!((hc.msg_type, hc.status), (MsgType::WrCmpl, Status::Ok));
    // A WR_CMPL naming another context: stale. (Re-sealing is not needed: the match fails
    // before the tag is looked at, and a tampered header would fail the tag anyway.)
    let mut wrong = cmpl.clone();
    wrong[51] ^= 1; // low byte of the ctx field (header bytes 50-51)
    assert_ne!(hdr(&wrong).ctx, hc.ctx);
    assert!(matches!(
        a.receive(t_r + 2_001, &wrong, &mut out).expect("rx"),
        RxOutcome::Dropped(_)
    ));
    assert_eq!(
        a.receive(t_r + 2_002, &cmpl, &mut out).expect("rx"),
        RxOutcome::Accepted
    );
    let c = out.completions.pop().expect("completion");
    assert_eq!(c.cpl.status, Status::Ok);
    assert!(a.is_idle() && b.is_idle());
}

#[test]
fn write_times_out_exactly_at_the_rearmed_deadline() {
    let (mut a, mut b) = manual_pair(|_| {});
    let mut out = Outputs::default();
    let rdreq = rdreq_for(&mut a, &mut b, 64, &mut out);
    let t_r = 4_000; // late but before the op deadline (10 + op_timeout)
    assert_eq!(
        a.receive(t_r, &rdreq, &mut out).expect("rx"),
        RxOutcome::Accepted
    );
    let d = t_r + rearm_cycles(hdr(&rdreq).hold_ns, a.config().clk_period_ps);
    assert!(d > 10 + a.config().op_timeout, "the re-arm extends the op");
    a.advance(d - 1, &mut out).expect("advance");
    assert!(out.completions.is_empty(), "timed out early");
    a.advance(d, &mut out).expect("advance");
    let c = out.completions.pop().expect("TIMEOUT");
    assert_eq!((c.cpl.status, c.t_cpl), (Status::Timeout, d));
}

#[test]
fn server_deadline_edge_and_hold_cap() {
    let (mut a, mut b) = manual_pair(|_| {});
    let mut out = Outputs::default();
    let rdreq = rdreq_for(&mut a, &mut b, 64, &mut out);
    a.receive(40, &rdreq, &mut out).expect("rx");
    a.advance(2_000, &mut out).expect("advance");
    let data = take(&mut out).remove(0);
    let deadline = 30 + b.config().server_timeout;
    // A frame whose last beat is at the deadline is not taken (late, or the context already
    // ended: both are drops); one cycle earlier it is taken.
    assert!(matches!(
        b.receive(deadline, &data, &mut out).expect("rx"),
        RxOutcome::Dropped(DropReason::Late | DropReason::Stale)
    ));
    let (mut a2, mut b2) = manual_pair(|_| {});
    let rdreq = rdreq_for(&mut a2, &mut b2, 64, &mut out);
    a2.receive(40, &rdreq, &mut out).expect("rx");
    a2.advance(2_000, &mut out).expect("advance");
    let data = take(&mut out).remove(0);
    assert_eq!(
        b2.receive(deadline - 1, &data, &mut out).expect("rx"),
        RxOutcome::Accepted
    );

    // An initiator whose cap is below the server's hold drops the WR_RDREQ and never sends data.
    let (mut a3, mut b3) = manual_pair(|c| {
        if c.nic_addr == 0x100 {
            c.max_hold_ns = 1_000;
        }
    });
    let rdreq = rdreq_for(&mut a3, &mut b3, 64, &mut out);
    assert_eq!(
        a3.receive(40, &rdreq, &mut out).expect("rx"),
        RxOutcome::Dropped(DropReason::Hold)
    );
    let ot = 10 + a3.config().op_timeout;
    a3.advance(ot, &mut out).expect("advance");
    assert!(take(&mut out).is_empty(), "no WR_DATA after a refused hold");
    assert_eq!(
        out.completions.pop().map(|c| (c.cpl.status, c.t_cpl)),
        Some((Status::Timeout, ot))
    );
}

#[test]
fn wr_data_at_the_server_deadline_counts_drop_late() {
    // The context's deadline acts one cycle late (`deadline_lag` 1, within `TimerSlack`, §6.1):
    // at the deadline the context is still live, so a WR_DATA whose last beat is then is late
    // (§8.4: taken only before the deadline), counted once as `drop_late`, not `drop_stale`.
    let (mut a, mut b) = manual_pair(|c| c.deadline_lag = 1);
    let mut out = Outputs::default();
    let data = wr_data_for(&mut a, &mut b, 64, &mut out).remove(0);
    // B served at 30 and sent its WR_RDREQ then: deadline = t_s + server_timeout.
    let deadline = 30 + b.config().server_timeout;
    assert_eq!(
        b.receive(deadline, &data, &mut out).expect("rx"),
        RxOutcome::Dropped(DropReason::Late)
    );
    assert_eq!((b.counters().drop_late, b.counters().drop_stale), (1, 0));
}

#[test]
fn an_ended_context_leaves_no_wakeup() {
    // Every chunk written, the context ends with WR_CMPL OK (§8.4) before its deadline
    // (30 + server_timeout = 2,030): the deadline then has nothing to act on, so the server
    // has no work left (`next_wakeup` None), and is idle.
    let (mut a, mut b) = manual_pair(|_| {});
    let mut out = Outputs::default();
    let data = wr_data_for(&mut a, &mut b, 64, &mut out);
    assert_eq!(
        rx_all(&mut b, 1_001, &data, &mut out),
        [RxOutcome::Accepted]
    );
    b.advance(1_500, &mut out).expect("advance");
    let cmpl = take(&mut out);
    assert_eq!(cmpl.len(), 1);
    assert_eq!(hdr(&cmpl[0]).status, Status::Ok);
    assert!(b.is_idle());
    assert_eq!(b.next_wakeup(), None);
}

/// A READ of `len` bytes from A (slot 0) to B region 0, served by B; returns the RD_RESPs.
fn read_resps(a: &mut Nic, b: &mut Nic, len: u16, out: &mut Outputs) -> Vec<Vec<u8>> {
    let kd = kd_for(1, 0, a.addr(), OpType::Read);
    let c = cmd(OpType::Read, b.addr(), 0, 0, len, 0x100, 0, kd);
    a.submit(5, 0, &bytes(&c), out).expect("submit");
    a.dispatch(10, 0, out).expect("dispatch");
    let req = take(out).remove(0);
    assert_eq!(b.receive(20, &req, out).expect("rx"), RxOutcome::Enqueued);
    b.serve_inbound(30, InQueue::Read, out).expect("serve");
    b.advance(1_000, out).expect("advance");
    take(out)
}

#[test]
fn pending_chunk_owns_its_lines_and_a_forged_copy_is_no_use() {
    let (mut a, mut b) = manual_pair(|c| c.rx_crypto_latency = 50);
    let mut out = Outputs::default();
    let resps = read_resps(&mut a, &mut b, 64, &mut out);
    assert_eq!(resps.len(), 1);
    let mut forged = resps[0].clone();
    let n = forged.len();
    forged[n - 20] ^= 0x80; // a payload bit
    // The forged copy arrives first and is pending; the genuine copy meanwhile is a duplicate.
    assert_eq!(
        a.receive(2_000, &forged, &mut out).expect("rx"),
        RxOutcome::Accepted
    );
    assert_eq!(
        a.receive(2_010, &resps[0], &mut out).expect("rx"),
        RxOutcome::Dropped(DropReason::Dup)
    );
    // The forged tag fails: nothing is written, the chunk is missing again.
    a.advance(2_050, &mut out).expect("advance");
    assert!(
        a.mem()
            .expect("mem")
            .log
            .as_ref()
            .is_some_and(Vec::is_empty)
    );
    assert_eq!(a.counters().drop_auth, 1);
    // A later genuine copy (a fabric duplicate) completes the op with the server's bytes.
    assert_eq!(
        a.receive(2_100, &resps[0], &mut out).expect("rx"),
        RxOutcome::Accepted
    );
    a.advance(3_000, &mut out).expect("advance");
    assert_eq!(
        out.completions.pop().map(|c| c.cpl.status),
        Some(Status::Ok)
    );
    let got = a.mem().expect("mem").read_vec(DATA_BASE + 0x100, 64);
    let want = b.mem().expect("mem").read_vec(SERVED_BASE, 64);
    assert_eq!(got, want);
}

#[test]
fn a_tag_result_after_timeout_releases_nothing_and_lines_return_after_it() {
    let (mut a, mut b) = manual_pair(|c| {
        c.rx_crypto_latency = 100;
        c.rx_crypto_max = 100;
    });
    let mut out = Outputs::default();
    let resps = read_resps(&mut a, &mut b, 64, &mut out);
    let deadline = 10 + a.config().op_timeout;
    // Accepted one cycle before the deadline; its tag result comes 99 cycles after it.
    assert_eq!(
        a.receive(deadline - 1, &resps[0], &mut out).expect("rx"),
        RxOutcome::Accepted
    );
    a.advance(deadline, &mut out).expect("advance");
    let c = out.completions.pop().expect("TIMEOUT");
    assert_eq!(c.cpl.status, Status::Timeout);
    let total = a.config().window_lines;
    assert_eq!(
        a.window_free(),
        total - 1,
        "the pending chunk still owns its line"
    );
    a.advance(deadline + 200, &mut out).expect("advance");
    assert_eq!(a.window_free(), total);
    let log = a.mem().expect("mem").log.clone().unwrap_or_default();
    assert!(
        log.iter()
            .filter(|w| !matches!(w.purpose, onerma_model::WritePurpose::Completion { .. }))
            .all(|w| w.visible <= c.t_cpl),
        "nothing written after the completion: {log:?}"
    );
    assert!(
        !log.iter()
            .any(|w| matches!(w.purpose, onerma_model::WritePurpose::ReadData { .. })),
        "the late chunk was not released"
    );
    assert!(a.is_idle());
}

#[test]
fn region_generations_stop_host_access() {
    // Local region changed during a READ: LOCAL_ACCESS_ERROR, no landing write.
    let (mut a, mut b) = manual_pair(|_| {});
    let mut out = Outputs::default();
    let resps = read_resps(&mut a, &mut b, 64, &mut out);
    a.commit_rrt(1_500, DATA, local_entry(DATA_BASE, 64 * 1024))
        .expect("commit");
    a.receive(2_000, &resps[0], &mut out).expect("rx");
    a.advance(2_100, &mut out).expect("advance");
    assert_eq!(
        out.completions.pop().map(|c| c.cpl.status),
        Some(Status::LocalAccessError)
    );
    assert!(a.mem().expect("mem").log.as_ref().is_some_and(|l| {
        l.iter()
            .all(|w| !matches!(w.purpose, onerma_model::WritePurpose::ReadData { .. }))
    }));
    assert_eq!(a.counters().drop_region_changed, 1);
    // Served region deregistered while the request waits: no host access, the initiator times out.
    let (mut a, mut b) = manual_pair(|_| {});
    let kd = kd_for(1, 0, a.addr(), OpType::Read);
    let c = cmd(OpType::Read, b.addr(), 0, 0, 64, 0, 0, kd);
    a.submit(5, 0, &bytes(&c), &mut out).expect("submit");
    a.dispatch(10, 0, &mut out).expect("dispatch");
    let req = take(&mut out).remove(0);
    b.receive(20, &req, &mut out).expect("rx");
    b.deregister(0).expect("deregister");
    b.serve_inbound(30, InQueue::Read, &mut out).expect("serve");
    b.advance(1_000, &mut out).expect("advance");
    assert!(take(&mut out).is_empty());
    assert_eq!(b.counters().drop_region_changed, 1);
    assert!(
        b.mem()
            .expect("mem")
            .read_log
            .as_ref()
            .is_some_and(Vec::is_empty)
    );
}

#[test]
fn rekey_installs_only_if_the_entry_is_unchanged() {
    let (mut a, mut b) = manual_pair(|_| {});
    let mut out = Outputs::default();
    let new_key = [0x77u8; 16];
    a.mem_mut()
        .expect("mem")
        .write(DATA_BASE + 0x1000, &new_key);
    let kd = kd_for(1, 0, a.addr(), OpType::Rekey);
    let c = cmd(OpType::Rekey, b.addr(), 0, 0, 16, 0x1000, 0, kd);
    a.submit(5, 0, &bytes(&c), &mut out).expect("submit");
    a.dispatch(10, 0, &mut out).expect("dispatch");
    let req = take(&mut out).remove(0);
    b.receive(20, &req, &mut out).expect("rx");
    b.serve_inbound(30, InQueue::Write, &mut out)
        .expect("serve");
    let rdreq = take(&mut out).remove(0);
    a.receive(40, &rdreq, &mut out).expect("rx");
    a.advance(1_000, &mut out).expect("advance");
    let data = take(&mut out).remove(0);
    // The driver re-commits the entry (same contents) between the check and the install.
    let e = b.rrt(0).cloned().expect("entry");
    b.commit_rrt(1_001, 0, e.clone()).expect("commit");
    b.receive(1_002, &data, &mut out).expect("rx");
    b.advance(1_003, &mut out).expect("advance");
    let cmpl = take(&mut out).remove(0);
    assert_eq!(hdr(&cmpl).status, Status::RemoteAccessError);
    assert_eq!(b.rrt(0).map(|x| x.key), Some(e.key), "nothing installed");
    let c = b.counters();
    assert_eq!((c.rekey_installed, c.rekey_refused), (0, 1));
    // The reply names the context and nothing of a data frame or a hold.
    let h = hdr(&cmpl);
    assert_eq!((h.chunk_offset, h.chunk_len, h.hold_ns), (0, 0, 0));
    assert_eq!(h.ctx, hdr(&rdreq).ctx);
    a.receive(1_010, &cmpl, &mut out).expect("rx");
    assert_eq!(
        out.completions.pop().map(|c| c.cpl.status),
        Some(Status::RemoteAccessError)
    );
}

#[test]
fn torn_commands_and_page_rules() {
    let (mut a, b) = manual_pair(|_| {});
    let mut out = Outputs::default();
    let kd = kd_for(1, 0, a.addr(), OpType::Read);
    let c: Cmd = cmd(OpType::Read, b.addr(), 0, 0, 64, 0, 0, kd);
    let bytes = bytes(&c);
    // Quarters in any order: only the write that completes the mask submits.
    for (i, q) in [3usize, 0, 2].into_iter().enumerate() {
        let r = a.write_cmd_page(
            1 + i as u64,
            0,
            q * 16,
            &bytes[q * 16..q * 16 + 16],
            &mut out,
        );
        assert_eq!(r, Ok(None));
    }
    assert!(!a.slot_busy(0));
    let r = a.write_cmd_page(10, 0, 16, &bytes[16..32], &mut out);
    assert!(matches!(r, Ok(Some(SubmitOutcome::Queued { .. }))), "{r:?}");
    // Writes to a busy slot are refused and change nothing.
    assert_eq!(
        a.write_cmd_page(11, 0, 0, &[0xFF; 16], &mut out),
        Err(SubmitError::BusySlot(0))
    );
    // A write past the page is refused.
    assert!(matches!(
        a.write_cmd_page(12, 1, 60, &[0; 8], &mut out),
        Err(SubmitError::BadLength(_))
    ));
    // Disabling and enabling clears a half-written command: a later partial write submits nothing.
    a.write_cmd_page(13, 2, 0, &bytes[..48], &mut out)
        .expect("write");
    a.disable_slot(2).expect("disable");
    a.enable_slot(2, PID).expect("enable");
    assert_eq!(
        a.write_cmd_page(14, 2, 48, &bytes[48..], &mut out),
        Ok(None)
    );
    // REKEY with a remote offset: BAD_COMMAND.
    let mut rk = cmd(OpType::Rekey, b.addr(), 0, 16, 16, 0x1000, 16, kd);
    rk.remote_offset = 16;
    let r = a.submit(20, 3, &common::bytes(&rk), &mut out);
    assert!(
        matches!(
            r,
            Ok(SubmitOutcome::Completed {
                status: Status::BadCommand,
                ..
            })
        ),
        "{r:?}"
    );
}

#[test]
fn host_dma_errors_end_ops_with_their_status() {
    // Landing write error at the initiator: LOCAL_ACCESS_ERROR.
    let (mut a, mut b) = manual_pair(|_| {});
    let mut out = Outputs::default();
    let resps = read_resps(&mut a, &mut b, 64, &mut out);
    a.mem_mut().expect("mem").errors.push(ErrorRange {
        start: DATA_BASE,
        end: DATA_BASE + 0x1000,
        error: DmaError::SlvErr,
        reads: false,
    });
    a.receive(2_000, &resps[0], &mut out).expect("rx");
    a.advance(3_000, &mut out).expect("advance");
    assert_eq!(
        out.completions.pop().map(|c| c.cpl.status),
        Some(Status::LocalAccessError)
    );
    assert_eq!(a.counters().err_host_write, 1);
    // Read error at the server: no RD_RESP, the initiator times out.
    let (mut a, mut b) = manual_pair(|_| {});
    b.mem_mut().expect("mem").errors.push(ErrorRange {
        start: SERVED_BASE,
        end: SERVED_BASE + 64,
        error: DmaError::DecErr,
        reads: true,
    });
    let resps = read_resps(&mut a, &mut b, 64, &mut out);
    assert!(resps.is_empty());
    assert_eq!(b.counters().err_host_read, 1);
    // Write error at the server: WR_CMPL{REMOTE_ACCESS_ERROR}.
    let (mut a, mut b) = manual_pair(|_| {});
    b.mem_mut().expect("mem").errors.push(ErrorRange {
        start: SERVED_BASE,
        end: SERVED_BASE + 64,
        error: DmaError::SlvErr,
        reads: false,
    });
    let data = wr_data_for(&mut a, &mut b, 64, &mut out);
    rx_all(&mut b, 1_001, &data, &mut out);
    b.advance(2_000, &mut out).expect("advance");
    let cmpl = take(&mut out).remove(0);
    assert_eq!(hdr(&cmpl).status, Status::RemoteAccessError);
    a.receive(2_001, &cmpl, &mut out).expect("rx");
    assert_eq!(
        out.completions.pop().map(|c| c.cpl.status),
        Some(Status::RemoteAccessError)
    );
}

#[test]
fn queued_requests_age_out() {
    let (mut a, mut b) = manual_pair(|_| {});
    let mut out = Outputs::default();
    let kd = kd_for(1, 0, a.addr(), OpType::Write);
    let c = cmd(OpType::Write, b.addr(), 0, 0, 64, 0x2000, 0, kd);
    a.submit(5, 0, &bytes(&c), &mut out).expect("submit");
    a.dispatch(10, 0, &mut out).expect("dispatch");
    let req = take(&mut out).remove(0);
    b.receive(20, &req, &mut out).expect("rx");
    let age = b.config().inq_max_age;
    b.advance(20 + age, &mut out).expect("advance");
    assert_eq!(b.inbound_len(), 1);
    b.advance(20 + age + 1, &mut out).expect("advance");
    assert_eq!((b.inbound_len(), b.counters().drop_queue_age), (0, 1));
    assert!(take(&mut out).is_empty(), "aged out without a reply");
}

#[test]
fn wr_data_with_another_echo_is_stale_before_its_tag_is_tried() {
    // Every echoed field is checked (A6): a WR_DATA whose header names another PID, region or
    // offset than its context is stale, not accepted and then failed on its tag. Bytes of each
    // field in the header: pid 28-31, region 32-33, offset 36-43. (Another length is already
    // malformed: the chunk no longer has that op's chunk size.)
    for byte in [31usize, 33, 43] {
        let (mut a, mut b) = manual_pair(|_| {});
        let mut out = Outputs::default();
        let rdreq = rdreq_for(&mut a, &mut b, 64, &mut out);
        a.receive(40, &rdreq, &mut out).expect("rx");
        a.advance(1_000, &mut out).expect("advance");
        let mut data = take(&mut out).remove(0);
        data[byte] ^= 0x01;
        let r = b.receive(1_001, &data, &mut out).expect("rx");
        assert_eq!(r, RxOutcome::Dropped(DropReason::Stale), "byte {byte}");
        assert_eq!(b.counters().drop_auth, 0, "byte {byte}: the tag was tried");
    }
}

#[test]
fn local_read_and_write_permissions_are_separate() {
    // S7: a READ lands data, so it needs perm_local_write; a WRITE sources data, so it needs
    // perm_local_read.
    for (op, read, write, refused) in [
        (OpType::Read, 1, 0, true),
        (OpType::Read, 0, 1, false),
        (OpType::Write, 0, 1, true),
        (OpType::Write, 1, 0, false),
    ] {
        let (mut a, b) = manual_pair(|_| {});
        let mut out = Outputs::default();
        let mut e = local_entry(DATA_BASE, 64 * 1024);
        (e.perm_local_read, e.perm_local_write) = (read, write);
        a.write_rrt(DATA, e).expect("rrt");
        let kd = kd_for(1, 0, a.addr(), op);
        let c = cmd(op, b.addr(), 0, 0, 64, 0, 0, kd);
        let r = a.submit(5, 0, &bytes(&c), &mut out).expect("submit");
        let want = if refused {
            SubmitOutcome::Completed {
                seq: 1,
                status: Status::LocalAccessError,
            }
        } else {
            SubmitOutcome::Queued { seq: 1 }
        };
        assert_eq!(r, want, "{op:?} read {read} write {write}");
    }
}

#[test]
fn the_most_starved_class_goes_first() {
    // max_starve 1: every dispatch that passes a waiting class starves it. The model's own
    // choice is the class passed most often (ties: the lowest); a device may take any starving
    // class, and must take a starving one once a waiting class was passed over
    // MaxStarve + NumClasses - 1 = 4 times (§2.3: round-robin among starving classes).
    let (mut a, b) = manual_pair(|c| {
        c.max_starve = 1;
        c.num_classes = 4;
    });
    let mut out = Outputs::default();
    let kd = kd_for(1, 0, a.addr(), OpType::Read);
    let mut slot = 0u16;
    // Slots: class 0: 0; class 1: 1, 2; class 2: 3, 4; class 3: 5, 6.
    for (class, n) in [(0u8, 1), (1, 2), (2, 2), (3, 2)] {
        for _ in 0..n {
            let mut c = cmd(
                OpType::Read,
                b.addr(),
                0,
                0,
                64,
                0x100 * u64::from(slot),
                0,
                kd,
            );
            c.cos = class;
            c.cq_offset = 16 * u64::from(slot);
            a.submit(5, slot, &bytes(&c), &mut out).expect("submit");
            slot += 1;
        }
    }
    assert_eq!(a.dispatch(10, 0, &mut out).expect("dispatch"), 0);
    // Classes 1, 2, 3 passed once each: a tie, the model takes the lowest.
    assert_eq!(a.ready_classes(), vec![1]);
    assert!(a.dispatch(11, 0, &mut out).is_err(), "class 0 is empty");
    // A device may take another starving class: class 2 (passed: 1 twice, 3 twice).
    assert_eq!(a.dispatch(11, 2, &mut out).expect("dispatch"), 3);
    assert_eq!(a.ready_classes(), vec![1]);
    // Class 2 again: it empties (its count starts afresh); classes 1 and 3 passed 3 times.
    assert_eq!(a.dispatch(12, 2, &mut out).expect("dispatch"), 4);
    // Class 3: class 1 is now passed over 4 times, the bound.
    assert_eq!(a.dispatch(13, 3, &mut out).expect("dispatch"), 5);
    assert_eq!(a.ready_classes(), vec![1]);
    // Class 3 was just served (not starving): refused while class 1 is at the bound.
    assert!(a.dispatch(14, 3, &mut out).is_err(), "class 1 is overdue");
    assert_eq!(a.dispatch(14, 1, &mut out).expect("dispatch"), 1);
}

#[test]
fn busy_and_idle_follow_ops_and_contexts() {
    let (mut a, mut b) = manual_pair(|_| {});
    let mut out = Outputs::default();
    assert!(a.is_idle() && b.is_idle() && !a.slot_busy(0));
    let rdreq = rdreq_for(&mut a, &mut b, 64, &mut out);
    assert!(a.slot_busy(0) && !a.is_idle());
    assert_eq!(b.contexts_in_use(), 1);
    assert!(!b.is_idle(), "a live context");
    a.receive(40, &rdreq, &mut out).expect("rx");
    a.advance(1_000, &mut out).expect("advance");
    let data = take(&mut out);
    rx_all(&mut b, 1_001, &data, &mut out);
    b.advance(2_000, &mut out).expect("advance");
    let cmpl = take(&mut out).remove(0);
    assert_eq!((b.contexts_in_use(), b.is_idle()), (0, true));
    a.receive(2_001, &cmpl, &mut out).expect("rx");
    a.advance(3_000, &mut out).expect("advance");
    assert_eq!(
        out.completions.pop().map(|c| c.cpl.status),
        Some(Status::Ok)
    );
    assert!(!a.slot_busy(0) && a.is_idle());
}

#[test]
fn a_chunk_after_the_deadline_is_stale_while_the_timeout_lags() {
    // The deadline action may come up to timer_slack late; a frame is still compared with the
    // exact deadline.
    let (mut a, mut b) = manual_pair(|c| c.deadline_lag = 40);
    let mut out = Outputs::default();
    let resps = read_resps(&mut a, &mut b, 64, &mut out);
    let deadline = 10 + a.config().op_timeout;
    assert_eq!(
        a.receive(deadline, &resps[0], &mut out).expect("rx"),
        RxOutcome::Dropped(DropReason::Stale)
    );
    a.advance(deadline + 40, &mut out).expect("advance");
    assert_eq!(
        out.completions.pop().map(|c| c.cpl.status),
        Some(Status::Timeout)
    );
}

#[test]
fn a_late_tag_result_never_reaches_the_slots_next_op() {
    // S3: op 1's chunk is pending at its deadline; op 2 takes the slot before op 1's tag result
    // comes. The result must release nothing, for either op.
    let (mut a, mut b) = manual_pair(|c| {
        c.rx_crypto_latency = 200;
        c.rx_crypto_max = 200;
    });
    let mut out = Outputs::default();
    let resps = read_resps(&mut a, &mut b, 64, &mut out);
    let deadline = 10 + a.config().op_timeout;
    a.receive(deadline - 1, &resps[0], &mut out).expect("rx");
    a.advance(deadline, &mut out).expect("advance");
    let c1 = out.completions.pop().expect("TIMEOUT");
    assert_eq!(c1.cpl.status, Status::Timeout);
    let t2 = a.slot_free_at(0).max(deadline + 1);
    assert!(
        t2 < deadline - 1 + 200,
        "op 2 starts before op 1's tag result"
    );
    let kd = kd_for(1, 0, a.addr(), OpType::Read);
    let c = cmd(OpType::Read, b.addr(), 0, 64, 64, 0x800, 0, kd);
    a.submit(t2, 0, &bytes(&c), &mut out).expect("submit");
    a.dispatch(t2, 0, &mut out).expect("dispatch");
    a.advance(deadline + 400, &mut out).expect("advance");
    assert!(
        out.completions.is_empty(),
        "op 2 got nothing yet: {:?}",
        out.completions
    );
    assert!(
        !a.mem().expect("mem").log.as_ref().is_some_and(|l| l
            .iter()
            .any(|w| matches!(w.purpose, onerma_model::WritePurpose::ReadData { .. }))),
        "op 1's chunk landed"
    );
}

#[test]
fn each_refusal_counts_once() {
    // The §12 counters the RTL's will be compared with, one event each.

    // A completion region changed during the op: the record cannot be written.
    let (mut a, mut b) = manual_pair(|_| {});
    let mut out = Outputs::default();
    let resps = read_resps(&mut a, &mut b, 64, &mut out);
    a.commit_rrt(1_500, CQ, local_entry(CQ_BASE, 4096))
        .expect("commit");
    a.receive(2_000, &resps[0], &mut out).expect("rx");
    a.advance(2_100, &mut out).expect("advance");
    let c = out.completions.pop().expect("completion");
    assert!(!c.delivered);
    assert!(a.counters().status_cq_write);
    assert_eq!(a.counters().err_cq_write, 1);

    // A WRITE's local region changed before its WR_RDREQ: LOCAL_ACCESS_ERROR.
    let (mut a, mut b) = manual_pair(|_| {});
    let mut out = Outputs::default();
    let rdreq = rdreq_for(&mut a, &mut b, 64, &mut out);
    a.commit_rrt(35, DATA, local_entry(DATA_BASE, 64 * 1024))
        .expect("commit");
    a.receive(40, &rdreq, &mut out).expect("rx");
    a.advance(1_000, &mut out).expect("advance");
    assert_eq!(
        out.completions.pop().map(|c| c.cpl.status),
        Some(Status::LocalAccessError)
    );
    assert_eq!(a.counters().drop_region_changed, 1);

    // A WRITE's source read fails: LOCAL_ACCESS_ERROR.
    let (mut a, mut b) = manual_pair(|_| {});
    let mut out = Outputs::default();
    a.mem_mut().expect("mem").errors.push(ErrorRange {
        start: DATA_BASE + 0x2000,
        end: DATA_BASE + 0x2040,
        error: DmaError::SlvErr,
        reads: true,
    });
    let rdreq = rdreq_for(&mut a, &mut b, 64, &mut out);
    a.receive(40, &rdreq, &mut out).expect("rx");
    a.advance(1_000, &mut out).expect("advance");
    assert!(take(&mut out).is_empty(), "no WR_DATA");
    assert_eq!(
        out.completions.pop().map(|c| c.cpl.status),
        Some(Status::LocalAccessError)
    );
    assert_eq!(a.counters().err_host_read, 1);

    // A request out of bounds: ACCESS_ERR.
    let (mut a, mut b) = manual_pair(|_| {});
    let mut out = Outputs::default();
    let kd = kd_for(1, 0, a.addr(), OpType::Read);
    let c = cmd(OpType::Read, b.addr(), 0, SERVED_SIZE - 8, 64, 0, 0, kd);
    a.submit(5, 0, &bytes(&c), &mut out).expect("submit");
    a.dispatch(10, 0, &mut out).expect("dispatch");
    let req = take(&mut out).remove(0);
    assert_eq!(
        b.receive(20, &req, &mut out).expect("rx"),
        RxOutcome::Replied(MsgType::AccessErr)
    );
    assert_eq!(b.counters().req_access_err, 1);

    // A WR_DATA whose body was altered: its tag fails at the server.
    let (mut a, mut b) = manual_pair(|_| {});
    let mut out = Outputs::default();
    let mut data = wr_data_for(&mut a, &mut b, 64, &mut out).remove(0);
    data[64] ^= 1;
    b.receive(1_001, &data, &mut out).expect("rx");
    b.advance(1_002, &mut out).expect("advance");
    assert_eq!(b.counters().drop_auth, 1);

    // The served region changed between the WRITE's check and its data: REMOTE_ACCESS_ERROR.
    let (mut a, mut b) = manual_pair(|_| {});
    let mut out = Outputs::default();
    let data = wr_data_for(&mut a, &mut b, 64, &mut out);
    let e = b.rrt(0).cloned().expect("entry");
    b.commit_rrt(1_000, 0, e).expect("commit");
    rx_all(&mut b, 1_001, &data, &mut out);
    b.advance(2_000, &mut out).expect("advance");
    let cmpl = take(&mut out).remove(0);
    assert_eq!(hdr(&cmpl).status, Status::RemoteAccessError);
    assert_eq!(b.counters().drop_region_changed, 1);
}
