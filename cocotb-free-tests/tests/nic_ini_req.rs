//! `onerma_ini_req` against the hop-1 request of protocol.md §2.3, §7.1 and §8.1.
//!
//! Random commands are accepted into random slots (the accept handshake tap), and accepted slots
//! are dispatched at random times while the sealer stalls at random. Checked for every job: it
//! is the next dispatched slot's, in order; its header is the request the protocol describes for
//! the command last accepted on that slot (message type by op type, status OK, `dst_nic`,
//! `prev_counter` 0, the slot's PID, region, slot, offset, length, everything else 0); the key is
//! the command's K_d; the job holds still while stalled; every dispatch pulses the timer arm with
//! `t_disp + op_timeout`; and the room the block offers is a register (the same before and after
//! the cycle's inputs). A dispatch is pulsed only with room, as `onerma_dispatch` does.

use onerma_layouts::{Cmd, Hdr, MsgType, OpType, Status};
use onerma_rtl_tests::bits::{be_to_words, from_words, words_to_be};
use proptest::prelude::*;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::collections::VecDeque;

trait Dut {
    const SLOTS: usize;
    fn fresh() -> Self;
    fn eval(&mut self);
    fn tick(&mut self);
    fn drive(&mut self, d: &Drive);
    fn sample(&self) -> Sample;
    /// `disp_room_o` as the last clock edge left it.
    fn room(&self) -> bool;
}

#[derive(Default)]
struct Drive {
    op_timeout: u32,
    acc: Option<(usize, [u32; 16], u32)>,
    disp: Option<(usize, u32)>,
    job_ready: bool,
}

#[derive(PartialEq, Eq, Clone, Debug)]
struct Job {
    hdr: [u8; 64],
    key: u128,
    slot: usize,
}

struct Sample {
    disp_room: bool,
    arm: Option<(usize, u32)>,
    job: Option<Job>,
}

macro_rules! dut {
    ($m:ident, $slots:expr) => {
        impl Dut for onerma_rtl::$m::Model {
            const SLOTS: usize = $slots;
            onerma_rtl_tests::model_basics!(onerma_rtl::$m::Model);
            fn drive(&mut self, d: &Drive) {
                self.set_op_timeout_i(d.op_timeout);
                let (aslot, acmd, apid) = d.acc.unwrap_or((0, [0; 16], 0));
                self.set_acc_fire_i(u8::from(d.acc.is_some()));
                self.set_acc_slot_i(aslot as _);
                self.set_acc_cmd_i(&acmd);
                self.set_acc_pid_i(apid);
                let (dslot, dtime) = d.disp.unwrap_or((0, 0));
                self.set_disp_i(u8::from(d.disp.is_some()));
                self.set_disp_slot_i(dslot as _);
                self.set_disp_time_i(dtime);
                self.set_job_ready_i(u8::from(d.job_ready));
            }
            fn room(&self) -> bool {
                self.disp_room_o() != 0
            }
            fn sample(&self) -> Sample {
                let mut hdr = [0u8; 64];
                words_to_be(&self.job_hdr_o(), &mut hdr);
                let key = u128::from_be_bytes(from_words(&self.job_key_o()));
                Sample {
                    disp_room: self.disp_room_o() != 0,
                    arm: (self.arm_o() != 0)
                        .then(|| (self.arm_slot_o() as usize, self.arm_deadline_o())),
                    job: (self.job_valid_o() != 0).then(|| Job {
                        hdr,
                        key,
                        slot: self.job_meta_o() as usize,
                    }),
                }
            }
        }
    };
}

dut!(ini_req, 8);
dut!(ini_req_default, 64);

/// The hop-1 request of a command (§7.1, §8.1), written from the protocol text.
fn request(cmd: &Cmd, pid: u32, slot: usize) -> Result<[u8; 64], TestCaseError> {
    let (msg_type, op_type) = match cmd.op_type {
        2 => (MsgType::WrReq, OpType::Write),
        3 => (MsgType::RekeyReq, OpType::Rekey),
        _ => (MsgType::RdReq, OpType::Read),
    };
    let h = Hdr {
        msg_type,
        op_type,
        status: Status::Ok,
        src_nic: 0,
        dst_nic: cmd.remote_nic,
        counter: 0,
        prev_counter: 0,
        pid,
        region: cmd.remote_region,
        slot: slot as u16,
        offset: cmd.remote_offset,
        length: cmd.length,
        chunk_offset: 0,
        chunk_len: 0,
        ctx: 0,
        hold_ns: 0,
    };
    h.to_bytes()
        .map_err(|e| TestCaseError::fail(format!("header: {e}")))
}

fn random_cmd(rng: &mut StdRng) -> Cmd {
    Cmd {
        op_type: rng.random_range(1..=3),
        cos: rng.random_range(0..4),
        length: rng.random_range(1..=4096),
        remote_nic: rng.random(),
        remote_region: rng.random(),
        local_region: rng.random(),
        cq_region: rng.random(),
        remote_offset: rng.random(),
        local_offset: rng.random(),
        cq_offset: rng.random(),
        kd: rng.random(),
    }
}

/// `p_disp` / `p_ready`: percent of cycles a dispatch is offered / the sealer is ready.
fn run<D: Dut>(seed: u64, p_disp: u32, p_ready: u32, cycles: u64) -> Result<usize, TestCaseError> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut dut = D::fresh();
    let op_timeout: u32 = rng.random();
    // Per slot: the command last accepted and its PID; whether it waits for dispatch.
    let mut memo: Vec<Option<(Cmd, u32)>> = vec![None; D::SLOTS];
    let mut waiting: Vec<usize> = Vec::new();
    let mut expect: VecDeque<Job> = VecDeque::new();
    let mut disp_held: Option<(usize, u32)> = None;
    let mut prev_job: Option<(Job, bool)> = None;
    let mut jobs = 0;
    let mut now: u32 = rng.random();
    for cycle in 0..cycles {
        let draining = cycle + 200 > cycles;
        now = now.wrapping_add(1);
        let mut d = Drive {
            op_timeout,
            job_ready: draining || rng.random_range(0..100) < p_ready,
            ..Drive::default()
        };
        // Accept a command on a slot that is neither waiting nor being dispatched.
        if !draining && rng.random_range(0..3) == 0 {
            let slot = rng.random_range(0..D::SLOTS);
            if !waiting.contains(&slot) && disp_held.is_none_or(|(s, _)| s != slot) {
                let cmd = random_cmd(&mut rng);
                let pid = rng.random();
                let bytes = cmd
                    .to_bytes()
                    .map_err(|e| TestCaseError::fail(format!("cmd: {e}")))?;
                d.acc = Some((slot, be_to_words::<16>(&bytes), pid));
                memo[slot] = Some((cmd, pid));
                waiting.push(slot);
            }
        }
        if disp_held.is_none() && !waiting.is_empty() && rng.random_range(0..100) < p_disp {
            // A slot accepted in an earlier cycle (the class queue needs a cycle at least).
            let cands: Vec<usize> = waiting
                .iter()
                .copied()
                .filter(|&s| d.acc.is_none_or(|(a, _, _)| a != s))
                .collect();
            if !cands.is_empty() {
                let s = cands[rng.random_range(0..cands.len())];
                disp_held = Some((s, now));
            }
        }
        let room = dut.room();
        d.disp = disp_held.filter(|_| room);
        dut.drive(&d);
        dut.eval();
        let s = dut.sample();
        prop_assert_eq!(s.disp_room, room, "room changed by the cycle's inputs");
        if let Some((p, stalled)) = &prev_job
            && *stalled
        {
            prop_assert_eq!(s.job.as_ref(), Some(p), "job changed while stalled");
        }
        if let Some((slot, t)) = d.disp {
            prop_assert_eq!(s.arm, Some((slot, t.wrapping_add(op_timeout))), "arm");
            let (cmd, pid) = memo[slot]
                .as_ref()
                .ok_or_else(|| TestCaseError::fail("dispatch of an empty slot"))?;
            expect.push_back(Job {
                hdr: request(cmd, *pid, slot)?,
                key: cmd.kd,
                slot,
            });
            waiting.retain(|&w| w != slot);
            disp_held = None;
        } else {
            prop_assert_eq!(s.arm, None, "arm without a dispatch");
        }
        if let Some(j) = &s.job {
            let want = expect
                .front()
                .ok_or_else(|| TestCaseError::fail("job without a dispatch"))?;
            prop_assert_eq!(j, want);
            if d.job_ready {
                expect.pop_front();
                jobs += 1;
            }
        }
        prev_job = s.job.clone().map(|j| (j, !d.job_ready));
        dut.tick();
    }
    prop_assert!(expect.is_empty(), "{} jobs never offered", expect.len());
    Ok(jobs)
}

fn pct() -> impl Strategy<Value = u32> {
    prop_oneof![Just(100u32), 20u32..100]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn small(seed in any::<u64>(), pd in pct(), pr in pct()) {
        run::<onerma_rtl::ini_req::Model>(seed, pd, pr, 2_000)?;
    }

    #[test]
    fn default_config(seed in any::<u64>(), pd in pct(), pr in pct()) {
        run::<onerma_rtl::ini_req_default::Model>(seed, pd, pr, 2_000)?;
    }
}
