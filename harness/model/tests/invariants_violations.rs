//! Each system invariant of `onerma_model::invariants` against a hand-built trace: the correct
//! trace passes every check, and each test breaks exactly one rule in a copy of it and expects
//! that rule (by name and by the branch's wording) to be the one reported. Built by hand rather
//! than by running the model, so a check that is weakened or routed to the wrong branch shows.

use onerma_layouts::{Cmd, Cpl, Hdr, MsgType, OpType, RrtEntry, Status};
use onerma_model::invariants::{self, Accepted, NicTrace, Trace, Violation};
use onerma_model::{Completion, HostRead, HostWrite, KeyInstall, ReadPurpose, WritePurpose};

/// Initiator NIC 0 and server NIC 1 fabric addresses.
const INI: u32 = 10;
const SRV: u32 = 20;
const BOUND: u64 = 1_000;

// Initiator regions: completion queue, READ landing buffer, WRITE/REKEY source.
const CQ: u16 = 1;
const LAND: u16 = 2;
const SRC: u16 = 4;
// Server regions: READ source, WRITE target, REKEY target.
const RSRC: u16 = 3;
const WDST: u16 = 5;
const KEYR: u16 = 6;

// Ops: READ 4096 B (slot 1, two chunks), WRITE 3000 B (slot 2, two chunks), REKEY (slot 3), READ
// that timed out (slot 4). Chunks are CHUNK_BYTES = 2048 (protocol.md §3.1).
const RC_READ: u64 = 0x101;
const RC_WRITE: u64 = 0x102;
const RC_REKEY: u64 = 0x103;
const RC_LATE: u64 = 0x104;

fn entry(base: u64, size: u64, perms: [u8; 5]) -> RrtEntry {
    let [rr, rw, rk, lr, lw] = perms;
    RrtEntry {
        valid: 1,
        perm_remote_read: rr,
        perm_remote_write: rw,
        perm_remote_rekey: rk,
        perm_local_read: lr,
        perm_local_write: lw,
        owner_pid: 7,
        base_addr: base,
        size,
        key: 0,
    }
}

fn bytes(seed: u8, n: usize) -> Vec<u8> {
    (0..n).map(|i| seed.wrapping_add((i % 251) as u8)).collect()
}

fn cmd(op: OpType, len: u16, rreg: u16, roff: u64, lreg: u16, loff: u64) -> Cmd {
    Cmd {
        op_type: op.as_raw(),
        cos: 0,
        length: len,
        remote_nic: SRV,
        remote_region: rreg,
        local_region: lreg,
        cq_region: CQ,
        remote_offset: roff,
        local_offset: loff,
        cq_offset: 0,
        kd: 0,
    }
}

fn completion(slot: u16, seq: u16, c: Cmd, status: Status, rc: u64, times: [u64; 3]) -> Completion {
    let [t_sub, t_cpl, visible] = times;
    Completion {
        cpl: Cpl {
            valid: 1,
            status,
            op_type: c.op_type,
            slot,
            seq,
            issue_delay: 0,
            total_delay: 0,
        },
        slot,
        cmd: c,
        t_sub,
        t_disp: Some(t_sub + 1),
        t_cpl,
        visible,
        delivered: true,
        req_counter: Some(rc),
        deadline: None,
    }
}

fn write(
    region: u16,
    addr: u64,
    data: Vec<u8>,
    issued: u64,
    visible: u64,
    p: WritePurpose,
) -> HostWrite {
    HostWrite {
        region,
        addr,
        data,
        issued,
        visible,
        purpose: p,
        seq: 0,
    }
}

fn read(region: u16, addr: u64, data: Vec<u8>, issued: u64, p: ReadPurpose) -> HostRead {
    HostRead {
        region,
        addr,
        len: data.len() as u64,
        seq: 0,
        data,
        issued,
        purpose: p,
    }
}

fn frame(src: u32, counter: u64) -> Vec<u8> {
    Hdr {
        msg_type: MsgType::RdReq,
        op_type: OpType::Read,
        status: Status::Ok,
        src_nic: src,
        dst_nic: if src == INI { SRV } else { INI },
        counter,
        prev_counter: 0,
        pid: 7,
        region: 0,
        slot: 0,
        offset: 0,
        length: 16,
        chunk_offset: 0,
        chunk_len: 0,
        ctx: 0,
        hold_ns: 0,
    }
    .to_bytes()
    .expect("header fits")
    .to_vec()
}

fn serve(slot: u16, rc: u64) -> ReadPurpose {
    ReadPurpose::Serve {
        initiator: INI,
        slot,
        req_counter: rc,
    }
}

fn remote(slot: u16, rc: u64) -> WritePurpose {
    WritePurpose::RemoteWrite {
        initiator: INI,
        slot,
        req_counter: rc,
    }
}

fn landing(slot: u16, rc: u64) -> WritePurpose {
    WritePurpose::ReadData {
        slot,
        req_counter: rc,
    }
}

fn source(slot: u16, rc: u64) -> ReadPurpose {
    ReadPurpose::WriteSource {
        slot,
        req_counter: rc,
    }
}

/// The REKEY's 16 source bytes, and the key they make.
fn key_bytes() -> Vec<u8> {
    bytes(0xC0, 16)
}

fn key_value() -> u128 {
    u128::from_be_bytes(key_bytes().try_into().expect("16 bytes"))
}

/// A run every invariant holds on. Each access is placed by hand from its op's command:
/// address = region base + op offset + chunk offset (protocol.md §4, §7, §8).
fn good() -> Trace {
    let a0 = bytes(0x10, 2048);
    let a1 = bytes(0x60, 2048);
    let b = bytes(0x90, 3000);
    // Initiator regions, with the permissions an op must not use set too, so that a check
    // reading the wrong permission shows.
    let ini = NicTrace {
        addr: INI,
        completion_bound: BOUND,
        writes: vec![
            // READ data, second chunk first (order of landing is free).
            write(
                LAND,
                0x10000 + 0x800 + 2048,
                a1.clone(),
                21,
                40,
                landing(1, RC_READ),
            ),
            write(
                LAND,
                0x10000 + 0x800,
                a0.clone(),
                20,
                30,
                landing(1, RC_READ),
            ),
            write(
                CQ,
                0x1000,
                vec![1; 16],
                40,
                45,
                WritePurpose::Completion { slot: 1 },
            ),
        ],
        reads: vec![
            read(SRC, 0x20000 + 0x200, b.clone(), 55, source(2, RC_WRITE)),
            read(SRC, 0x20000 + 0x1000, key_bytes(), 90, source(3, RC_REKEY)),
        ],
        rrt: vec![
            (0, CQ, entry(0x1000, 0x2000, [1, 1, 0, 0, 1]), 1),
            // The landing buffer ends exactly at the READ's last byte.
            (0, LAND, entry(0x10000, 0x800 + 4096, [1, 1, 0, 0, 1]), 1),
            (0, SRC, entry(0x20000, 0x2000, [1, 1, 0, 1, 0]), 1),
        ],
        keys: vec![],
        busy: None,
    };
    let srv = NicTrace {
        addr: SRV,
        completion_bound: 50,
        writes: vec![
            write(
                WDST,
                0x40000 + 0x100 + 2048,
                b[2048..].to_vec(),
                61,
                80,
                remote(2, RC_WRITE),
            ),
            write(
                WDST,
                0x40000 + 0x100,
                b[..2048].to_vec(),
                60,
                70,
                remote(2, RC_WRITE),
            ),
        ],
        reads: vec![
            read(RSRC, 0x30000 + 0x400, a0, 10, serve(1, RC_READ)),
            read(RSRC, 0x30000 + 0x400 + 2048, a1, 11, serve(1, RC_READ)),
        ],
        rrt: vec![
            // The READ source ends exactly at the READ's last byte.
            (0, RSRC, entry(0x30000, 0x400 + 4096, [1, 1, 0, 1, 1]), 1),
            (0, WDST, entry(0x40000, 0x2000, [1, 1, 0, 1, 1]), 1),
            (0, KEYR, entry(0x50000, 0x1000, [0, 0, 1, 0, 0]), 1),
        ],
        keys: vec![KeyInstall {
            t: 100,
            region: KEYR,
            key: key_value(),
            initiator: INI,
            slot: 3,
            req_counter: RC_REKEY,
        }],
        busy: None,
    };
    let read_cmd = cmd(OpType::Read, 4096, RSRC, 0x400, LAND, 0x800);
    let write_cmd = cmd(OpType::Write, 3000, WDST, 0x100, SRC, 0x200);
    let rekey_cmd = cmd(OpType::Rekey, 16, KEYR, 0, SRC, 0x1000);
    let late_cmd = cmd(OpType::Read, 64, RSRC, 0, LAND, 0);
    Trace {
        nics: vec![ini, srv],
        accepted: [(1, 7, 5), (2, 3, 50), (3, 1, 88), (4, 9, 500)]
            .into_iter()
            .map(|(slot, seq, t)| Accepted {
                nic: 0,
                slot,
                seq,
                t,
            })
            .collect(),
        completions: vec![
            (
                0,
                completion(1, 7, read_cmd, Status::Ok, RC_READ, [5, 40, 45]),
            ),
            (
                0,
                completion(2, 3, write_cmd, Status::Ok, RC_WRITE, [50, 80, 85]),
            ),
            (
                0,
                completion(3, 1, rekey_cmd, Status::Ok, RC_REKEY, [88, 100, 105]),
            ),
            // Took exactly the bound, and delivered nothing: allowed for a TIMEOUT.
            (
                0,
                completion(4, 9, late_cmd, Status::Timeout, RC_LATE, [500, 1500, 1500]),
            ),
        ],
        frames: vec![
            (1, 0, frame(INI, RC_READ)),
            (12, 1, frame(SRV, 0x201)),
            // The same counter from another sender is another IV.
            (13, 1, frame(SRV, RC_READ)),
            // Too short to carry a header: not a frame the IV rule can name.
            (14, 1, vec![0; 20]),
            (51, 0, frame(INI, RC_WRITE)),
        ],
    }
}

/// `t` breaks `invariant` (reported first by `check_all`, and by `check` alone) with a message
/// containing `why`.
fn broken(t: &Trace, check: fn(&Trace) -> Result<(), Violation>, invariant: &str, why: &str) {
    for r in [invariants::check_all(t), check(t)] {
        match r {
            Err(v) => assert!(
                v.invariant == invariant && v.detail.contains(why),
                "expected `{invariant}` ({why}), got {v}"
            ),
            Ok(()) => panic!("expected `{invariant}` ({why}), trace passed"),
        }
    }
}

fn ok(t: &Trace) {
    assert_eq!(invariants::check_all(t), Ok(()));
}

fn ini(t: &mut Trace) -> &mut NicTrace {
    &mut t.nics[0]
}

fn srv(t: &mut Trace) -> &mut NicTrace {
    &mut t.nics[1]
}

fn cpl(t: &mut Trace, slot: u16) -> &mut Completion {
    &mut t
        .completions
        .iter_mut()
        .find(|(_, c)| c.slot == slot)
        .expect("op of that slot")
        .1
}

#[test]
fn the_hand_built_trace_holds_every_invariant() {
    let t = good();
    ok(&t);
    for check in [
        invariants::one_completion_each,
        invariants::within_bound,
        invariants::accesses_inside_regions,
        invariants::read_data_lands_right,
        invariants::remote_writes_carry_the_source,
        invariants::ok_ops_deliver_their_range,
        invariants::key_provenance,
        invariants::no_iv_reuse,
        invariants::nothing_after_completion,
        invariants::idle_at_end,
    ] {
        assert_eq!(check(&t), Ok(()));
    }
}

// ---- one completion per accepted command

const ONE: &str = "one completion per accepted command";

#[test]
fn a_command_completed_twice() {
    let mut t = good();
    let c = t.completions[3].clone();
    t.completions.push(c);
    broken(
        &t,
        invariants::one_completion_each,
        ONE,
        "Some(2) completions",
    );
}

#[test]
fn a_command_never_completed() {
    let mut t = good();
    t.completions.retain(|(_, c)| c.slot != 4);
    broken(&t, invariants::one_completion_each, ONE, "None completions");
}

#[test]
fn a_completion_of_no_command() {
    let mut t = good();
    t.accepted.retain(|a| a.slot != 4);
    broken(
        &t,
        invariants::one_completion_each,
        ONE,
        "of no accepted command",
    );
    // The same slot and seq on the other NIC is another command.
    let mut t = good();
    t.accepted.iter_mut().for_each(|a| {
        if a.slot == 4 {
            a.nic = 1;
        }
    });
    broken(&t, invariants::one_completion_each, ONE, "None completions");
}

// ---- completion within the bound

#[test]
fn a_record_one_cycle_past_the_bound() {
    let mut t = good();
    // t_sub 500, visible 1501: 1001 cycles > 1000.
    cpl(&mut t, 4).visible = 1_501;
    broken(
        &t,
        invariants::within_bound,
        "completion within the bound",
        "1001 cycles > 1000",
    );
}

// ---- host accesses inside permitted regions

const ACC: &str = "host accesses inside permitted regions";

#[test]
fn a_write_to_an_invalid_region() {
    let mut t = good();
    ini(&mut t).rrt[1].2.valid = 0;
    broken(
        &t,
        invariants::accesses_inside_regions,
        ACC,
        "write to a region not registered",
    );
    // The message names the access (the first landing write in the log).
    broken(
        &t,
        invariants::accesses_inside_regions,
        ACC,
        "write of 2048 bytes at 0x11000 (region 2, issued 21, visible 40, ReadData",
    );
}

#[test]
fn a_write_before_its_region_is_committed() {
    // Committed in the cycle of the first landing write: in force.
    let mut t = good();
    ini(&mut t).rrt[1].0 = 20;
    ok(&t);
    let mut t = good();
    ini(&mut t).rrt[1].0 = 21;
    broken(
        &t,
        invariants::accesses_inside_regions,
        ACC,
        "write to a region not registered",
    );
}

#[test]
fn the_entry_in_force_is_the_last_commit() {
    // The landing region withdrawn in the cycle of the second landing write.
    let mut t = good();
    let mut gone = ini(&mut t).rrt[1].clone();
    gone.0 = 21;
    gone.2.valid = 0;
    gone.3 = 2;
    ini(&mut t).rrt.push(gone.clone());
    broken(
        &t,
        invariants::accesses_inside_regions,
        ACC,
        "write to a region not registered",
    );
    // Withdrawn after every access: nothing to report.
    let mut t = good();
    gone.0 = 41;
    ini(&mut t).rrt.push(gone);
    ok(&t);
}

#[test]
fn read_data_needs_local_write_permission() {
    let mut t = good();
    ini(&mut t).rrt[1].2.perm_local_write = 0;
    broken(
        &t,
        invariants::accesses_inside_regions,
        ACC,
        "write outside or without permission",
    );
}

#[test]
fn a_completion_record_needs_local_write_permission() {
    let mut t = good();
    ini(&mut t).rrt[0].2.perm_local_write = 0;
    broken(
        &t,
        invariants::accesses_inside_regions,
        ACC,
        "write outside or without permission",
    );
}

#[test]
fn a_remote_write_needs_remote_write_permission() {
    let mut t = good();
    srv(&mut t).rrt[1].2.perm_remote_write = 0;
    broken(
        &t,
        invariants::accesses_inside_regions,
        ACC,
        "write outside or without permission",
    );
}

#[test]
fn a_write_one_byte_past_its_region() {
    let mut t = good();
    ini(&mut t).rrt[1].2.size -= 1;
    broken(
        &t,
        invariants::accesses_inside_regions,
        ACC,
        "write outside or without permission",
    );
}

#[test]
fn a_write_below_its_region() {
    let mut t = good();
    // The first landing write (0x10800) now starts one byte before the base.
    ini(&mut t).rrt[1].2.base_addr = 0x10801;
    broken(
        &t,
        invariants::accesses_inside_regions,
        ACC,
        "write outside or without permission",
    );
}

#[test]
fn a_read_of_an_invalid_region() {
    let mut t = good();
    srv(&mut t).rrt[0].2.valid = 0;
    broken(
        &t,
        invariants::accesses_inside_regions,
        ACC,
        "read of a region not registered",
    );
    broken(
        &t,
        invariants::accesses_inside_regions,
        ACC,
        "read of 2048 bytes at 0x30400 (region 3, issued 10, Serve",
    );
}

#[test]
fn serving_a_read_needs_remote_read_permission() {
    let mut t = good();
    srv(&mut t).rrt[0].2.perm_remote_read = 0;
    broken(
        &t,
        invariants::accesses_inside_regions,
        ACC,
        "read outside or without permission",
    );
}

#[test]
fn a_write_source_needs_local_read_permission() {
    let mut t = good();
    ini(&mut t).rrt[2].2.perm_local_read = 0;
    broken(
        &t,
        invariants::accesses_inside_regions,
        ACC,
        "read outside or without permission",
    );
}

#[test]
fn a_read_one_byte_past_its_region() {
    let mut t = good();
    srv(&mut t).rrt[0].2.size -= 1;
    broken(
        &t,
        invariants::accesses_inside_regions,
        ACC,
        "read outside or without permission",
    );
}

// ---- READ data lands right

const LANDS: &str = "READ data lands right";

#[test]
fn landed_bytes_differ_from_the_servers() {
    let mut t = good();
    ini(&mut t).writes[0].data[5] ^= 1;
    broken(
        &t,
        invariants::read_data_lands_right,
        LANDS,
        "differs from the server's bytes",
    );
}

#[test]
fn a_chunk_landing_at_the_other_chunks_offset() {
    // Both chunks' bytes are the server's, but each at the other's offset.
    let mut t = good();
    let w = &mut ini(&mut t).writes;
    let (a1, a0) = (w[0].data.clone(), w[1].data.clone());
    w[0].data = a0;
    w[1].data = a1;
    broken(
        &t,
        invariants::read_data_lands_right,
        LANDS,
        "differs from the server's bytes",
    );
}

#[test]
fn read_data_of_no_op() {
    let mut t = good();
    ini(&mut t).writes[0].purpose = landing(1, 0x1FF);
    broken(
        &t,
        invariants::read_data_lands_right,
        LANDS,
        "READ data of no op",
    );
}

#[test]
fn read_data_off_the_chunk_grid() {
    let mut t = good();
    ini(&mut t).writes[1].addr += 16;
    broken(
        &t,
        invariants::read_data_lands_right,
        LANDS,
        "READ data at the wrong place",
    );
}

#[test]
fn read_data_past_the_ops_end() {
    // The op is one byte shorter than the two chunks landed.
    let mut t = good();
    cpl(&mut t, 1).cmd.length = 2047;
    broken(
        &t,
        invariants::read_data_lands_right,
        LANDS,
        "at the wrong place",
    );
}

#[test]
fn read_data_in_another_region() {
    // At the right offsets, but in the completion region (allowed to be written there).
    let mut t = good();
    let w = &mut ini(&mut t).writes[0];
    w.region = CQ;
    w.addr = 0x1000 + 0x800 + 2048;
    broken(
        &t,
        invariants::read_data_lands_right,
        LANDS,
        "READ data at the wrong place",
    );
}

#[test]
fn a_server_read_off_the_chunk_grid() {
    let mut t = good();
    srv(&mut t).reads[1].addr -= 16;
    broken(
        &t,
        invariants::read_data_lands_right,
        LANDS,
        "server read at the wrong place",
    );
}

#[test]
fn a_replayed_request_served_again_is_no_violation() {
    // A serve read for a counter no op has (a replay), and a second service of the READ with
    // other bytes: the landing data equals one of the services, so it is right.
    let mut t = good();
    let mut replay = srv(&mut t).reads[0].clone();
    replay.purpose = serve(1, 0x1FF);
    replay.addr += 3;
    let mut again = srv(&mut t).reads[1].clone();
    again.data[0] ^= 0xFF;
    srv(&mut t).reads.insert(0, again);
    srv(&mut t).reads.push(replay);
    ok(&t);
}

// ---- remote writes carry the source

const CARRY: &str = "remote writes carry the source";

#[test]
fn remote_bytes_differ_from_the_source() {
    let mut t = good();
    srv(&mut t).writes[0].data[100] ^= 1;
    broken(
        &t,
        invariants::remote_writes_carry_the_source,
        CARRY,
        "differs from the initiator's source",
    );
}

#[test]
fn a_remote_write_of_no_op() {
    let mut t = good();
    srv(&mut t).writes[0].purpose = remote(2, 0x1FF);
    broken(
        &t,
        invariants::remote_writes_carry_the_source,
        CARRY,
        "remote write of no op",
    );
}

#[test]
fn a_remote_write_for_a_read() {
    // In the READ's remote range, which also allows remote writes, but the op is a READ.
    let mut t = good();
    let a0 = srv(&mut t).reads[0].data.clone();
    srv(&mut t)
        .writes
        .push(write(RSRC, 0x30000 + 0x400, a0, 12, 13, remote(1, RC_READ)));
    broken(
        &t,
        invariants::remote_writes_carry_the_source,
        CARRY,
        "remote write of a non-WRITE",
    );
}

#[test]
fn a_remote_write_off_the_chunk_grid() {
    let mut t = good();
    srv(&mut t).writes[0].addr += 4;
    broken(
        &t,
        invariants::remote_writes_carry_the_source,
        CARRY,
        "remote write at the wrong place",
    );
}

#[test]
fn a_source_read_of_no_op() {
    let mut t = good();
    ini(&mut t).reads[0].purpose = source(2, 0x1FF);
    broken(
        &t,
        invariants::remote_writes_carry_the_source,
        "source reads",
        "source read of no op",
    );
}

#[test]
fn a_source_read_off_the_ops_range() {
    let mut t = good();
    ini(&mut t).reads[0].addr += 8;
    broken(
        &t,
        invariants::remote_writes_carry_the_source,
        "source reads",
        "source read at the wrong place",
    );
}

#[test]
fn a_source_read_per_chunk_is_as_good_as_one() {
    let mut t = good();
    let whole = ini(&mut t).reads.remove(0);
    let mut second = whole.clone();
    second.addr += 2048;
    second.data = whole.data[2048..].to_vec();
    let mut first = whole;
    first.data.truncate(2048);
    ini(&mut t).reads.extend([second, first]);
    ok(&t);
}

// ---- OK ops deliver their range

const DELIVER: &str = "OK ops deliver their range";

#[test]
fn an_ok_read_missing_its_last_chunk() {
    let mut t = good();
    ini(&mut t).writes.remove(0);
    broken(
        &t,
        invariants::ok_ops_deliver_their_range,
        DELIVER,
        "did not deliver 4096 bytes",
    );
}

#[test]
fn an_ok_write_missing_its_first_chunk() {
    let mut t = good();
    srv(&mut t).writes.remove(1);
    broken(
        &t,
        invariants::ok_ops_deliver_their_range,
        DELIVER,
        "did not deliver 3000 bytes",
    );
}

#[test]
fn an_ok_read_with_a_chunk_landed_twice() {
    let mut t = good();
    let again = ini(&mut t).writes[1].clone();
    ini(&mut t).writes.push(again);
    broken(
        &t,
        invariants::ok_ops_deliver_their_range,
        DELIVER,
        "did not deliver 4096 bytes",
    );
}

#[test]
fn an_ok_read_with_a_gap() {
    // Two 2048-byte parts at 0 and 4096 of a 4096-byte op: as many bytes, not the range. The
    // landing checks refuse the second part first, so this rule is asked alone.
    let mut t = good();
    ini(&mut t).writes[0].addr += 2048;
    assert!(invariants::ok_ops_deliver_their_range(&t).is_err());
    assert!(invariants::check_all(&t).is_err());
}

#[test]
fn a_failed_op_need_not_deliver() {
    // The WRITE's second chunk lost: fine once the op reports a failure.
    let mut t = good();
    srv(&mut t).writes.remove(0);
    cpl(&mut t, 2).cpl.status = Status::Timeout;
    ok(&t);
}

#[test]
fn an_ok_rekey_that_installed_nothing() {
    let mut t = good();
    srv(&mut t).keys.clear();
    broken(
        &t,
        invariants::ok_ops_deliver_their_range,
        DELIVER,
        "OK REKEY installed nothing",
    );
}

#[test]
fn an_ok_op_without_a_request() {
    let mut t = good();
    let c = cpl(&mut t, 4);
    c.cpl.status = Status::Ok;
    c.cmd.length = 0;
    c.req_counter = None;
    broken(
        &t,
        invariants::ok_ops_deliver_their_range,
        DELIVER,
        "OK op without a request",
    );
}

#[test]
fn an_ok_op_of_unknown_type() {
    let mut t = good();
    let c = cpl(&mut t, 4);
    c.cpl.status = Status::Ok;
    c.cmd.op_type = 9;
    broken(
        &t,
        invariants::ok_ops_deliver_their_range,
        DELIVER,
        "OK op of unknown type",
    );
}

// ---- key provenance

const KEY: &str = "key provenance";

#[test]
fn a_key_other_than_the_rekeys_data() {
    let mut t = good();
    srv(&mut t).keys[0].key ^= 1 << 64;
    broken(
        &t,
        invariants::key_provenance,
        KEY,
        "key is not its REKEY's data",
    );
}

#[test]
fn a_key_installed_twice() {
    let mut t = good();
    let k = srv(&mut t).keys[0].clone();
    srv(&mut t).keys.push(k);
    broken(&t, invariants::key_provenance, KEY, "REKEY installed twice");
}

#[test]
fn a_key_installed_by_no_op() {
    // Beside the REKEY's own install, which stays (the REKEY delivered).
    let mut t = good();
    let mut k = srv(&mut t).keys[0].clone();
    k.req_counter = 0x1FF;
    srv(&mut t).keys.push(k);
    broken(
        &t,
        invariants::key_provenance,
        KEY,
        "key installed by no op",
    );
}

#[test]
fn a_key_from_a_write() {
    // The WRITE's first 16 source bytes, installed in the WRITE's own region: only the op type
    // is wrong.
    let mut t = good();
    let src16 = ini(&mut t).reads[0].data[..16].to_vec();
    let mut k = srv(&mut t).keys[0].clone();
    k.slot = 2;
    k.req_counter = RC_WRITE;
    k.region = WDST;
    k.t = 80;
    k.key = u128::from_be_bytes(src16.try_into().expect("16 bytes"));
    srv(&mut t).keys.push(k);
    broken(
        &t,
        invariants::key_provenance,
        KEY,
        "key is not its REKEY's data",
    );
}

#[test]
fn a_key_installed_at_another_nic() {
    let mut t = good();
    let k = srv(&mut t).keys.remove(0);
    ini(&mut t).keys.push(k);
    broken(
        &t,
        invariants::key_provenance,
        KEY,
        "key is not its REKEY's data",
    );
}

#[test]
fn a_key_installed_in_another_region() {
    let mut t = good();
    srv(&mut t).keys[0].region = WDST;
    broken(
        &t,
        invariants::key_provenance,
        KEY,
        "key is not its REKEY's data",
    );
}

// ---- no IV reuse

#[test]
fn a_counter_sent_twice() {
    let mut t = good();
    t.frames.push((60, 1, frame(SRV, 0x201)));
    broken(
        &t,
        invariants::no_iv_reuse,
        "no IV reuse",
        "counter 0x201 of 0x14 sent twice",
    );
}

// ---- nothing after completion

const AFTER: &str = "nothing after completion";

#[test]
fn read_data_visible_after_the_record() {
    // The READ's record is issued at 40, its second chunk visible at 40 (allowed), now 41.
    let mut t = good();
    ini(&mut t).writes[0].visible = 41;
    broken(
        &t,
        invariants::nothing_after_completion,
        AFTER,
        "write visible at 41 after Ok at 40",
    );
}

#[test]
fn a_remote_write_visible_after_the_record() {
    let mut t = good();
    srv(&mut t).writes[0].visible = 81;
    broken(
        &t,
        invariants::nothing_after_completion,
        AFTER,
        "write visible at 81 after Ok at 80",
    );
}

#[test]
fn a_key_installed_after_the_record() {
    let mut t = good();
    srv(&mut t).keys[0].t = 101;
    broken(
        &t,
        invariants::nothing_after_completion,
        AFTER,
        "key installed at 101 after completion at 100",
    );
}

// ---- idle at the end

#[test]
fn a_nic_busy_at_the_end() {
    let mut t = good();
    srv(&mut t).busy = Some("context 3 live".into());
    broken(
        &t,
        invariants::idle_at_end,
        "window full when idle",
        "NIC 1 not idle at the end",
    );
}
