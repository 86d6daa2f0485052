//! One Verilated `onerma_nic` on the model's fabric: its buses driven (AXI4-Lite registers,
//! 64-byte command bursts, AXI4 host memory, AXI4-Stream receive and transmit) and every input
//! and output shown to its own model `Observer`, held back [`HOLD`] cycles so inputs learnt late
//! (a B answer) still arrive in cycle order. A [`Node`] does not own the fabric: its owner (the
//! one-NIC [`Rig`](crate::nic_rig::Rig) or the many-NIC [`MultiRig`](crate::nic_sys::MultiRig))
//! steps every node's ports, puts the frames in [`Node::outbox`] on the model `System`'s fabric,
//! and hands each node the frames the fabric delivered to its address ([`Node::deliver`]).
//! Nothing expected is read from the DUT.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap, VecDeque};

use onerma_layouts::{Cmd, Cpl, Hdr, OpType, RrtEntry, Status};

/// Protocol CHUNK_BYTES as a host address step.
const CHUNK: u64 = onerma_layouts::CHUNK_BYTES as u64;
use onerma_model::crypto::{self, Key};
use onerma_model::{NicConfig, Observer, ObserverConfig, Seen};
use onerma_regs as regs;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use crate::Throttle;
use crate::axi::{Addr, AxiMem, BResp, MasterOut, MemConfig, Resp, SlaveOut, WBeat};
use crate::axi_wmaster::{AxiWriteMaster, WriteBurst};
use crate::axil::{AxilMaster, LiteMasterOut, LiteSlaveOut};
use crate::bits::{get_bits, put_bits};
use crate::nic_rig::{
    CLIENT_PID, CQ_SIZE, Dut, HOLD, MAX_WORDS, NicPorts, PID, RTL_REGION, RTL_SERVED_SIZE,
    RigError, TopConfig, fail,
};

/// The register writes that stage RRT entry `index` (index, flags, owner, base, size, key;
/// `rrt_commit` then commits them as a whole), as `(address, value)`.
pub fn rrt_writes(index: u32, e: &RrtEntry) -> [(u64, u32); 11] {
    let flags = regs::rrt_flags::VALID.place(e.valid.into())
        | regs::rrt_flags::PERM_REMOTE_READ.place(e.perm_remote_read.into())
        | regs::rrt_flags::PERM_REMOTE_WRITE.place(e.perm_remote_write.into())
        | regs::rrt_flags::PERM_REMOTE_REKEY.place(e.perm_remote_rekey.into())
        | regs::rrt_flags::PERM_LOCAL_READ.place(e.perm_local_read.into())
        | regs::rrt_flags::PERM_LOCAL_WRITE.place(e.perm_local_write.into());
    [
        (regs::rrt_index::ADDR, index),
        (regs::rrt_flags::ADDR, flags),
        (regs::rrt_owner_pid::ADDR, e.owner_pid),
        (regs::rrt_base_lo::ADDR, e.base_addr as u32),
        (regs::rrt_base_hi::ADDR, (e.base_addr >> 32) as u32),
        (regs::rrt_size_lo::ADDR, e.size as u32),
        (regs::rrt_size_hi::ADDR, (e.size >> 32) as u32),
        (regs::rrt_key0::ADDR, (e.key >> 96) as u32),
        (regs::rrt_key1::ADDR, (e.key >> 64) as u32),
        (regs::rrt_key2::ADDR, (e.key >> 32) as u32),
        (regs::rrt_key3::ADDR, e.key as u32),
    ]
}

/// The driver's two local regions of a NIC on `top`: 0 the slots' buffers (readable and
/// writable by the NIC), 1 the completion records (writable), both owned by [`PID`].
pub fn local_regions(top: &TopConfig) -> [(u16, RrtEntry); 2] {
    [
        (0u16, top.data_base, top.data_size(), 1u8),
        (1, top.cq_base, CQ_SIZE, 0),
    ]
    .map(|(index, base, size, rd)| {
        (
            index,
            RrtEntry {
                valid: 1,
                perm_remote_read: 0,
                perm_remote_write: 0,
                perm_remote_rekey: 0,
                perm_local_read: rd,
                perm_local_write: 1,
                owner_pid: PID,
                base_addr: base,
                size,
                key: 0,
            },
        )
    })
}

/// The valid RRT entry of served region `RTL_REGION + i` under `key` in `top`'s memory map:
/// `RTL_REGION` readable, writable and rekeyable, `RTL_REGION + 1` writable only, owned by
/// [`CLIENT_PID`].
pub fn served_entry_for(top: &TopConfig, i: u16, key: &Key) -> RrtEntry {
    RrtEntry {
        valid: 1,
        perm_remote_read: u8::from(i == 0),
        perm_remote_write: 1,
        perm_remote_rekey: u8::from(i == 0),
        perm_local_read: 0,
        perm_local_write: 0,
        owner_pid: CLIENT_PID,
        base_addr: top.rtl_served_base + u64::from(i) * RTL_SERVED_SIZE,
        size: RTL_SERVED_SIZE,
        key: crypto::key_to_u128(key),
    }
}

/// An input or output of the RTL NIC, as the observer is shown it.
#[derive(Debug)]
pub enum ObsEv {
    Cmd {
        slot: u16,
        bytes: [u8; 64],
        ok: bool,
    },
    Receive(Vec<u8>),
    Frame(Vec<u8>),
    Write {
        addr: u64,
        data: Vec<u8>,
    },
    Read {
        addr: u64,
        len: u64,
    },
    Software {
        addr: u64,
        data: Vec<u8>,
    },
    Rrt {
        index: u16,
        e: RrtEntry,
    },
    Enable {
        slot: u16,
    },
    /// The driver's `nic_enable` write was answered.
    NicEnable {
        on: bool,
    },
}

/// A `nic_enable` change in progress ([`Node::set_nic_enable`]). The RTL judges a frame by the
/// value in force at its last beat and a command write when it decides it; the observer is told
/// at the register write's answer. So no frame and no command is in flight from the request
/// to two cycles after the answer, and each side judges every frame and command alike.
#[derive(Debug, Clone, Copy)]
enum EnableChange {
    /// Waiting for the frame on the receive port and the commands on the bus to finish.
    Quiesce(bool),
    /// The register write with this issue index is in flight.
    Writing(usize),
    /// Answered; the receive port and the command bus resume at this cycle.
    Settle(u64),
}

/// Observer inputs in cycle order, held back [`HOLD`] cycles.
struct Delayed {
    heap: BinaryHeap<Reverse<(u64, u64)>>,
    evs: HashMap<u64, ObsEv>,
    seq: u64,
}

impl Delayed {
    fn push(&mut self, cycle: u64, ev: ObsEv) {
        self.heap.push(Reverse((cycle, self.seq)));
        self.evs.insert(self.seq, ev);
        self.seq += 1;
    }
    fn pop_until(&mut self, until: u64) -> Option<(u64, ObsEv)> {
        let Reverse((c, s)) = *self.heap.peek()?;
        if c > until {
            return None;
        }
        self.heap.pop();
        self.evs.remove(&s).map(|e| (c, e))
    }
}

#[derive(Default, Debug)]
pub struct Stats {
    pub submitted: u64,
    pub refused: u64,
    pub records: u64,
    pub ok: u64,
    pub statuses: [u64; 8],
    pub frames_out: u64,
    pub frames_in: u64,
    pub host_bytes: u64,
    pub rekeys: u64,
    /// Payload bytes of the frames the RTL NIC sent (RD_RESP and WR_DATA chunks).
    pub tx_payload: u64,
    /// Host read beats answered SLVERR or DECERR.
    pub read_errors: u64,
    /// Client READ / WRITE completions whose bytes the rig did not check: a concurrent WRITE
    /// overlapped them (the observer checked them).
    pub raced_checks: u64,
    /// Most frames at once that the fabric had delivered to the RTL NIC and its receive port
    /// had not yet taken (a backlog here means the RTL's receive path, not the model, is slow).
    pub rx_backlog_max: u64,
}

/// One RTL NIC and everything at its edges (see the module documentation).
pub struct Node<D: NicPorts = Dut> {
    /// This NIC's index in the model `System` (frames it sends are `System::send_external(_, idx, _)`).
    pub idx: usize,
    pub m: D,
    /// The top's parameters and memory map (`D::TOP`).
    pub top: TopConfig,
    lite: AxilMaster,
    /// Register writes queued so far, and how many of their answers were checked.
    lite_issued: usize,
    lite_seen: usize,
    /// Observer inputs due when the register write with that issue index is answered OKAY.
    lite_then: VecDeque<(usize, ObsEv)>,
    cmd: AxiWriteMaster,
    pub mem: AxiMem,
    pub obs: Observer,
    ev: Delayed,
    /// The observer has ended ([`Node::finish`]): cycles stepped afterwards (a register read)
    /// are not shown to it, and an output it would have been shown is an error.
    obs_ended: bool,
    pub cycle: u64,
    pub rng: StdRng,
    /// Frames waiting for the receive port, and the one being driven (bytes, next offset).
    rx_q: VecDeque<Vec<u8>>,
    rx_cur: Option<(Vec<u8>, usize)>,
    tx_buf: Vec<u8>,
    /// Addresses of the host write bursts whose B is outstanding, in AW order.
    b_addrs: VecDeque<u64>,
    /// AWs taken, with the cycle of their handshake (a host write is shown at its issue).
    w_aws: VecDeque<(Addr, u64)>,
    w_beats: Vec<WBeat>,
    w_done: VecDeque<Vec<WBeat>>,
    /// Command bursts written, waiting for their B: (slot, bytes, cycle of the last W beat).
    cmd_open: VecDeque<(u16, [u8; 64], Option<u64>)>,
    /// Per slot: the command in flight and the cycle it may be reused.
    pub busy: Vec<Option<u64>>,
    enable_change: Option<EnableChange>,
    /// Slots whose command the NIC refused (SLVERR: it never entered the NIC), for the owner.
    pub refused_slots: Vec<u16>,
    pub stats: Stats,
    p_tx_ready: f64,
    rx_valid: bool,
    tx_ready: bool,
    /// Cycle of every command's doorbell beat (the last W beat of its burst), in order.
    pub doorbells: Vec<u64>,
    /// Cycle of the first beat of every frame the RTL NIC sent, in order.
    pub tx_starts: Vec<u64>,
    /// Cycles after a record's B before its slot gets a new command (the RTL frees the slot at
    /// that B; the margin covers its way to the command port).
    pub reuse_after: u64,
    /// Per slot: the end of the source bytes of its last WRITE / REKEY ([`Node::load_source`]).
    src_end: Vec<u64>,
    /// The RTL NIC's configuration as programmed (and as the observer's shadow has it).
    pub cfg: NicConfig,
    /// The RTL NIC's served regions: their keys and contents (the rig's own copy).
    pub rtl_keys: Vec<Key>,
    pub rtl_served: Vec<Vec<u8>>,
    /// Host ranges of served READs requested so far (a DMA read past a range's end reads whole
    /// bus beats: the observer is shown the read trimmed to the range).
    served_ranges: Vec<(u64, u64)>,
    /// The end of the served chunk being read.
    served_chunk_end: Option<u64>,
    /// The ends of every served chunk the open chunk's first burst fitted: when two READs'
    /// chunks start at one address and that burst ends at a 4 KB page, both fit it, and the
    /// continuing burst's length tells them apart.
    served_cands: Vec<u64>,
    /// Where the last burst inside the open chunk ended: a burst starting there continues that
    /// chunk (a chunk crossing a 4 KB page is read as two bursts), even if another READ's chunk
    /// starts at the same address.
    served_next: Option<u64>,
    /// With [`Node::log_frames`] set: every frame the RTL NIC received (`false`) or sent (`true`)
    /// as (cycle of its last beat, sent, header).
    pub frame_log: Vec<(u64, bool, Hdr)>,
    pub log_frames: bool,
    /// A VCD of the top for cycles `[from, to)`: (path, from, to).
    pub vcd: Option<(std::path::PathBuf, u64, u64)>,
    /// Frames the RTL NIC finished sending in the last [`Node::step_ports`] (cycle of the last
    /// beat, bytes), for the owner to put on the fabric.
    pub outbox: Vec<(u64, Vec<u8>)>,
    /// Completion records the RTL NIC wrote to its registered completion region since the owner
    /// last took them.
    pub records: Vec<Cpl>,
}

impl<D: NicPorts> Node<D> {
    /// A fresh top `D` as fabric NIC `idx` with registers (and the observer's view of them) from
    /// `cfg`; host memory from `mem_cfg` with the top's bus width and at least its size; the
    /// transmit port ready with chance `p_tx_ready` per cycle.
    pub fn new(
        idx: usize,
        seed: u64,
        mut mem_cfg: MemConfig,
        p_tx_ready: f64,
        cfg: NicConfig,
    ) -> Self {
        let top = D::TOP;
        mem_cfg.bus_bytes = top.bus;
        mem_cfg.size = mem_cfg.size.max(top.mem_size);
        // The RTL's tag results come when its engines get to a frame: up to `rx_crypto_max`
        // after the shadow's (latency 0); a failed chunk stays a duplicate until its window
        // lines are unwound (a margin of 1,024 cycles, far above a chunk's 32 lines).
        let oc = ObserverConfig {
            nack_skew: D::TOP.nack_skew(),
            tag_skew: cfg.rx_crypto_max + 1_024,
            ..ObserverConfig::for_nic(&cfg)
        };
        let obs = Observer::new(&cfg, oc, None).expect("observer");
        let thr = |s: u64| Throttle::new(seed ^ s, 1.0).expect("throttle");
        let slots = usize::from(top.slots);
        Self {
            idx,
            m: D::fresh(),
            top,
            lite: AxilMaster::new(thr(1)),
            lite_issued: 0,
            lite_seen: 0,
            lite_then: VecDeque::new(),
            cmd: AxiWriteMaster::new(thr(2), thr(3), thr(4)),
            mem: AxiMem::new(mem_cfg).expect("memory"),
            obs,
            ev: Delayed {
                heap: BinaryHeap::new(),
                evs: HashMap::new(),
                seq: 0,
            },
            obs_ended: false,
            cycle: 0,
            rng: StdRng::seed_from_u64(seed ^ 0x6e6f_6465),
            rx_q: VecDeque::new(),
            rx_cur: None,
            tx_buf: Vec::new(),
            b_addrs: VecDeque::new(),
            w_aws: VecDeque::new(),
            w_beats: Vec::new(),
            w_done: VecDeque::new(),
            cmd_open: VecDeque::new(),
            busy: vec![None; slots],
            enable_change: None,
            refused_slots: Vec::new(),
            stats: Stats::default(),
            p_tx_ready,
            rx_valid: false,
            tx_ready: false,
            doorbells: Vec::new(),
            tx_starts: Vec::new(),
            reuse_after: 8,
            src_end: vec![0; slots],
            cfg,
            rtl_keys: Vec::new(),
            rtl_served: Vec::new(),
            served_ranges: Vec::new(),
            served_chunk_end: None,
            served_cands: Vec::new(),
            served_next: None,
            frame_log: Vec::new(),
            log_frames: false,
            vcd: None,
            outbox: Vec::new(),
            records: Vec::new(),
        }
    }

    /// Whether every queued register write was answered.
    pub fn lite_idle(&self) -> bool {
        self.lite.is_idle() && self.lite_seen == self.lite_issued
    }

    /// Queues a register write; `then` is shown to the observer when it is answered OKAY (a
    /// write answered otherwise stops the run).
    pub fn lite_queue(&mut self, addr: u64, data: u32, then: Option<ObsEv>) {
        self.lite.write(addr, data, 0xf);
        if let Some(e) = then {
            self.lite_then.push_back((self.lite_issued, e));
        }
        self.lite_issued += 1;
    }

    /// Queues a register read; its value is [`Node::lite_value`] of the returned index once answered.
    pub fn lite_read(&mut self, addr: u64) -> usize {
        self.lite.read(addr);
        self.lite_issued += 1;
        self.lite_issued - 1
    }

    /// The data of answered register access `idx` (a read's value).
    pub fn lite_value(&self, idx: usize) -> Option<u32> {
        self.lite.done().get(idx).map(|d| d.data)
    }

    /// Queues the writes of RRT entry `index` (the observer learns the commit at its answer: no
    /// frame can name the region in between).
    pub fn rrt_queue(&mut self, index: u16, e: &RrtEntry) {
        for (a, v) in rrt_writes(u32::from(index), e) {
            self.lite_queue(a, v, None);
        }
        self.lite_queue(
            regs::rrt_commit::ADDR,
            regs::rrt_commit::COMMIT.place(1),
            Some(ObsEv::Rrt {
                index,
                e: e.clone(),
            }),
        );
    }

    /// Queues the driver's programming: registers, the local regions (0: the slots' buffers,
    /// 1: the completion records), every slot enabled for [`PID`], then `nic_enable`.
    pub fn setup_queue(&mut self) {
        let c = self.cfg.clone();
        for (a, v) in [
            (regs::nic_addr::ADDR, c.nic_addr),
            (regs::clk_period_ps::ADDR, c.clk_period_ps),
            (regs::dispatch_timeout::ADDR, c.dispatch_timeout as u32),
            (regs::op_timeout::ADDR, c.op_timeout as u32),
            (regs::server_timeout::ADDR, c.server_timeout as u32),
            (regs::max_hold_ns::ADDR, c.max_hold_ns),
            (regs::hold_ns::ADDR, c.hold_ns()),
            (regs::inq_max_age::ADDR, c.inq_max_age as u32),
            (regs::nack_depth::ADDR, u32::from(c.nack_depth)),
        ] {
            self.lite_queue(a, v, None);
        }
        let t = self.top;
        for (index, e) in local_regions(&t) {
            self.rrt_queue(index, &e);
        }
        for s in 0..t.slots {
            self.lite_queue(regs::slot_index::ADDR, u32::from(s), None);
            self.lite_queue(regs::slot_cfg::ADDR, regs::slot_cfg::ENABLE.place(1), None);
            self.lite_queue(regs::slot_pid::ADDR, PID, None);
            self.lite_queue(
                regs::slot_commit::ADDR,
                regs::slot_commit::COMMIT.place(1),
                Some(ObsEv::Enable { slot: s }),
            );
        }
        self.lite_queue(
            regs::nic_enable::ADDR,
            regs::nic_enable::ENABLE.place(1),
            Some(ObsEv::NicEnable { on: true }),
        );
    }

    /// Stops (`on = false`) or starts the NIC through `nic_enable` (protocol §1.1), once the frame
    /// being received and the commands on the bus are done; meanwhile and until the write is
    /// answered no frame is received and no slot is free. A second call replaces a change not
    /// yet written.
    pub fn set_nic_enable(&mut self, on: bool) {
        match self.enable_change {
            None | Some(EnableChange::Quiesce(_)) => {
                self.enable_change = Some(EnableChange::Quiesce(on));
            }
            Some(_) => {}
        }
    }

    /// Whether a `nic_enable` change is still in progress.
    pub fn enable_changing(&self) -> bool {
        self.enable_change.is_some()
    }

    fn step_enable_change(&mut self) {
        self.enable_change = match self.enable_change {
            Some(EnableChange::Quiesce(on))
                if self.rx_cur.is_none() && self.cmd_open.is_empty() =>
            {
                let idx = self.lite_issued;
                self.lite_queue(
                    regs::nic_enable::ADDR,
                    regs::nic_enable::ENABLE.place(u32::from(on)),
                    Some(ObsEv::NicEnable { on }),
                );
                Some(EnableChange::Writing(idx))
            }
            Some(EnableChange::Writing(idx)) if self.lite_seen > idx => {
                Some(EnableChange::Settle(self.cycle + 2))
            }
            Some(EnableChange::Settle(t)) if self.cycle >= t => None,
            c => c,
        };
    }

    /// Queues the RTL NIC's two served regions: random keys and contents (the contents loaded
    /// now and shown to the observer as software writes), `RTL_REGION` readable, writable and
    /// rekeyable, `RTL_REGION + 1` writable only.
    pub fn serve_queue(&mut self) {
        for i in 0..2u16 {
            let key: Key = self.rng.random();
            let base = self.top.rtl_served_base + u64::from(i) * RTL_SERVED_SIZE;
            let fill: Vec<u8> = (0..RTL_SERVED_SIZE).map(|_| self.rng.random()).collect();
            let _ = self.mem.load(base as usize, &fill);
            self.ev.push(
                self.cycle,
                ObsEv::Software {
                    addr: base,
                    data: fill.clone(),
                },
            );
            self.rtl_keys.push(key);
            self.rtl_served.push(fill);
            let e = self.served_entry(i, true);
            self.rrt_queue(RTL_REGION + i, &e);
        }
    }

    /// Frames the fabric delivered to this NIC, queued at its receive port.
    pub fn deliver(&mut self, frames: impl IntoIterator<Item = Vec<u8>>) {
        self.rx_q.extend(frames);
        self.stats.rx_backlog_max = self.stats.rx_backlog_max.max(self.rx_q.len() as u64);
    }

    /// Records a served READ's host range (the trimming of its DMA reads, see `step_ports`):
    /// whoever issues a READ to this NIC calls it at submission.
    pub fn expect_served_read(&mut self, region: u16, offset: u64, len: u16) {
        if let Some(i) = region.checked_sub(RTL_REGION).filter(|i| *i < 2) {
            let a = self.top.rtl_served_base + u64::from(i) * RTL_SERVED_SIZE + offset;
            self.served_ranges.push((a, a + u64::from(len)));
        }
    }

    /// Whether slot `s` may get a new command this cycle.
    pub fn slot_free(&self, s: u16) -> bool {
        self.enable_change.is_none()
            && self
                .busy
                .get(usize::from(s))
                .is_some_and(|b| b.is_none_or(|t| t <= self.cycle))
    }

    /// Whether a command is still in flight on some slot.
    pub fn any_busy(&self) -> bool {
        self.busy.iter().any(|b| b.is_some_and(|t| t > self.cycle))
    }

    /// Shows the observer everything held back, then ends it: whatever the RTL NIC still owes
    /// is an error.
    pub fn finish(&mut self) -> Result<(), RigError> {
        self.feed_observer(self.cycle)?;
        self.obs_ended = true;
        self.obs
            .finish(self.cycle)
            .map_err(|e| fail(format!("observer at the end: {e}")))
    }

    /// The RRT entry of the RTL NIC's served region `RTL_REGION + i` (its key as the rig holds
    /// it), valid or not.
    pub fn served_entry(&self, i: u16, valid: bool) -> RrtEntry {
        let key = self
            .rtl_keys
            .get(usize::from(i))
            .copied()
            .unwrap_or_default();
        RrtEntry {
            valid: u8::from(valid),
            ..served_entry_for(&self.top, i, &key)
        }
    }

    /// Software writes `data` at `addr` of the RTL NIC's host memory (e.g. a WRITE's source),
    /// shown to the observer.
    pub fn load_source(&mut self, addr: u64, data: &[u8]) {
        let (db, ds) = (self.top.data_base, self.top.data_size());
        if (db..db + ds).contains(&addr) {
            let slot = ((addr - db) / 8192) as usize;
            if let Some(e) = self.src_end.get_mut(slot) {
                *e = addr + data.len() as u64;
            }
        }
        let _ = self.mem.load(addr as usize, data);
        self.ev.push(
            self.cycle,
            ObsEv::Software {
                addr,
                data: data.to_vec(),
            },
        );
    }

    /// Host access errors in the RTL NIC's memory: `ranges` answer SLVERR (or DECERR) to reads
    /// and writes, in the AXI memory model and in the observer's shadow alike. Call before the first step.
    ///
    /// An AXI slave answers per beat: a beat fails when any byte of it is in a range, and the
    /// NIC's DMA engines start a request's first burst at its exact address and end its last
    /// beat at the bus boundary. So an access `[a, e)` fails iff a range meets `[a, align_up(e))`,
    /// which for the observer's byte-exact shadow is the range with its start aligned down to
    /// the bus width (`start' < e` iff `start < align_up(e)`).
    pub fn host_errors(&mut self, ranges: &[(u64, u64, bool)]) {
        let bus = self.top.bus as u64;
        for &(start, end, slv) in ranges {
            self.mem
                .add_error(start..end, if slv { Resp::SlvErr } else { Resp::DecErr });
            // The AXI memory answers reads and writes of the range alike.
            for reads in [true, false] {
                self.obs.error_range(onerma_model::ErrorRange {
                    start: start - start % bus,
                    end,
                    error: if slv {
                        onerma_model::DmaError::SlvErr
                    } else {
                        onerma_model::DmaError::DecErr
                    },
                    reads,
                });
            }
        }
    }

    fn log_frame(&mut self, cycle: u64, sent: bool, f: &[u8]) {
        if self.log_frames
            && let Some(Ok(h)) = f.get(..64).map(Hdr::from_bytes)
        {
            self.frame_log.push((cycle, sent, h));
        }
    }

    /// A VCD of the top for cycles `[from, to)` at [`Node::vcd`], or with
    /// `ONERMA_RIG_VCD=path:from:to` for NIC `ONERMA_RIG_VCD_NIC` (default 0; debugging).
    fn vcd_window(&mut self) {
        let env_nic = std::env::var("ONERMA_RIG_VCD_NIC")
            .ok()
            .and_then(|v| v.parse::<usize>().ok())
            .unwrap_or(0);
        if self.vcd.is_none() && self.idx == env_nic && self.cycle == 0 {
            self.vcd = std::env::var_os("ONERMA_RIG_VCD").and_then(|v| {
                let v = v.to_string_lossy().into_owned();
                let mut it = v.rsplitn(3, ':');
                let (to, from, path) = (it.next()?, it.next()?, it.next()?);
                Some((path.into(), from.parse().ok()?, to.parse().ok()?))
            });
        }
        let Some((path, from, to)) = &self.vcd else {
            return;
        };
        if self.cycle == *from {
            if let Err(e) = self.m.trace_start(path) {
                eprintln!("vcd: {e}");
            }
        } else if self.cycle == *to {
            self.m.trace_stop();
        }
    }

    /// Writes the command of `op` on `slot`: `len` bytes at `offset` of region `region` of the
    /// NIC at fabric address `remote`, K_d derived from that region's key `kr` for this NIC and
    /// [`PID`]; the local buffer at `slot * 8192` of region 0, the record at `slot * 16` of
    /// region `cq_region` (1 is the registered one).
    #[allow(clippy::too_many_arguments)]
    pub fn submit_to(
        &mut self,
        op: OpType,
        slot: u16,
        remote: u32,
        region: u16,
        kr: &Key,
        offset: u64,
        len: u16,
        cos: u8,
        cq_region: u16,
    ) {
        let kd = crypto::derive_kd(kr, self.cfg.nic_addr, PID, op).unwrap_or_default();
        let cmd = Cmd {
            op_type: op as u8,
            cos,
            length: len,
            remote_nic: remote,
            remote_region: region,
            local_region: 0,
            cq_region,
            remote_offset: offset,
            local_offset: u64::from(slot) * 8192,
            cq_offset: u64::from(slot) * 16,
            kd: crypto::key_to_u128(&kd),
        };
        let Ok(bytes) = cmd.to_bytes() else { return };
        // Software clears the slot's record first (mirrored to the observer).
        let cq = self.top.cq_base + u64::from(slot) * 16;
        let _ = self.mem.load(cq as usize, &[0; 16]);
        self.ev.push(
            self.cycle,
            ObsEv::Software {
                addr: cq,
                data: vec![0; 16],
            },
        );
        // One bus-wide beat after another (the small top: four 16-byte beats; the default: one).
        let size = self.top.bus.min(64).trailing_zeros() as u8;
        if let Some(b) = WriteBurst::range(u64::from(slot) * 4096, &bytes, size, self.top.bus) {
            self.cmd.push(b);
            self.cmd_open.push_back((slot, bytes, None));
            self.busy[usize::from(slot)] = Some(u64::MAX);
            self.stats.submitted += 1;
        }
    }

    fn drive(&mut self) -> (MasterOut, SlaveOut, LiteMasterOut) {
        let (bus, words) = (self.top.bus, self.top.words());
        let m = &mut self.m;
        let lo = self.lite.outputs();
        m.set_s_axil_awvalid_i(u8::from(lo.aw.is_some()));
        m.set_s_axil_awaddr_i(lo.aw.unwrap_or(0));
        m.set_s_axil_wvalid_i(u8::from(lo.w.is_some()));
        m.set_s_axil_wdata_i(lo.w.map_or(0, |w| w.0));
        m.set_s_axil_wstrb_i(lo.w.map_or(0, |w| w.1));
        m.set_s_axil_bready_i(u8::from(lo.b_ready));
        m.set_s_axil_arvalid_i(u8::from(lo.ar.is_some()));
        m.set_s_axil_araddr_i(lo.ar.unwrap_or(0));
        m.set_s_axil_rready_i(u8::from(lo.r_ready));
        let co = self.cmd.outputs();
        let aw = co.aw.clone();
        m.set_s_axi_awvalid_i(u8::from(aw.is_some()));
        m.set_s_axi_awid_i(aw.as_ref().map_or(0, |a| a.id));
        m.set_s_axi_awaddr_i(aw.as_ref().map_or(0, |a| a.addr));
        m.set_s_axi_awlen_i(aw.as_ref().map_or(0, |a| a.len));
        m.set_s_axi_awsize_i(aw.as_ref().map_or(0, |a| a.size));
        let w = co.w.clone();
        m.set_s_axi_wvalid_i(u8::from(w.is_some()));
        let mut wd = [0u32; MAX_WORDS];
        if let Some(w) = &w {
            for (k, b) in w.data.iter().enumerate() {
                put_bits(&mut wd, 8 * k, 8, u128::from(*b));
            }
        }
        m.set_s_axi_wdata_i(&wd[..words]);
        m.set_s_axi_wstrb_i(w.as_ref().map_or(0, |w| w.strb));
        m.set_s_axi_wlast_i(u8::from(w.as_ref().is_some_and(|w| w.last)));
        m.set_s_axi_bready_i(u8::from(co.b_ready));
        m.set_s_axi_arvalid_i(0u8);
        m.set_s_axi_rready_i(1u8);
        let so = self.mem.outputs();
        m.set_m_axi_awready_i(u8::from(so.aw_ready));
        m.set_m_axi_wready_i(u8::from(so.w_ready));
        m.set_m_axi_bvalid_i(u8::from(so.b.is_some()));
        m.set_m_axi_bid_i(so.b.as_ref().map_or(0, |b| b.id));
        m.set_m_axi_bresp_i(so.b.as_ref().map_or(0, |b| b.resp.bits()));
        m.set_m_axi_arready_i(u8::from(so.ar_ready));
        m.set_m_axi_rvalid_i(u8::from(so.r.is_some()));
        m.set_m_axi_rid_i(so.r.as_ref().map_or(0, |r| r.id));
        let mut rd = [0u32; MAX_WORDS];
        if let Some(r) = &so.r {
            for (k, b) in r.data.iter().enumerate() {
                put_bits(&mut rd, 8 * k, 8, u128::from(*b));
            }
        }
        m.set_m_axi_rdata_i(&rd[..words]);
        m.set_m_axi_rresp_i(so.r.as_ref().map_or(0, |r| r.resp.bits()));
        m.set_m_axi_rlast_i(u8::from(so.r.as_ref().is_some_and(|r| r.last)));
        // Receive: one frame at a time, BUS bytes per beat, first byte in lane 0.
        if self.rx_cur.is_none() && self.enable_change.is_none() {
            self.rx_cur = self.rx_q.pop_front().map(|f| (f, 0));
        }
        let mut rx = [0u32; MAX_WORDS];
        let mut keep = 0u64;
        let mut last = false;
        if let Some((f, off)) = &self.rx_cur {
            let n = (f.len() - off).min(bus);
            for k in 0..n {
                put_bits(&mut rx, 8 * k, 8, u128::from(f[off + k]));
                keep |= 1 << k;
            }
            last = off + n == f.len();
        }
        self.rx_valid = self.rx_cur.is_some();
        m.set_s_axis_rx_tvalid_i(u8::from(self.rx_valid));
        m.set_s_axis_rx_tdata_i(&rx[..words]);
        m.set_s_axis_rx_tkeep_i(keep);
        m.set_s_axis_rx_tlast_i(u8::from(last));
        self.tx_ready = self.rng.random_bool(self.p_tx_ready);
        m.set_m_axis_tx_tready_i(u8::from(self.tx_ready));
        m.eval();
        let mo = MasterOut {
            ar: (m.m_axi_arvalid_o() != 0).then(|| {
                Addr::incr(
                    m.m_axi_arid_o() as u32,
                    m.m_axi_araddr_o(),
                    m.m_axi_arlen_o() as u16 + 1,
                    m.m_axi_arsize_o() as u8,
                )
            }),
            aw: (m.m_axi_awvalid_o() != 0).then(|| {
                Addr::incr(
                    m.m_axi_awid_o() as u32,
                    m.m_axi_awaddr_o(),
                    m.m_axi_awlen_o() as u16 + 1,
                    m.m_axi_awsize_o() as u8,
                )
            }),
            w: (m.m_axi_wvalid_o() != 0).then(|| {
                let mut wd = [0u32; MAX_WORDS];
                m.m_axi_wdata_o(&mut wd[..words]);
                WBeat {
                    data: (0..bus).map(|k| get_bits(&wd, 8 * k, 8) as u8).collect(),
                    strb: m.m_axi_wstrb_o(),
                    last: m.m_axi_wlast_o() != 0,
                }
            }),
            r_ready: m.m_axi_rready_o() != 0,
            b_ready: m.m_axi_bready_o() != 0,
        };
        (mo, so, lo)
    }

    /// One clock cycle of the RTL NIC and its buses: frames it finished sending are left in
    /// [`Node::outbox`]. The owner then runs the fabric to [`Node::cycle`], hands the node what
    /// arrived ([`Node::deliver`]) and calls [`Node::observe`].
    pub fn step_ports(&mut self) -> Result<(), RigError> {
        self.outbox.clear();
        self.step_enable_change();
        self.vcd_window();
        let (mo, so, _lo) = self.drive();
        let cyc = self.cycle;
        // Configuration and command buses.
        let ls = LiteSlaveOut {
            aw_ready: self.m.s_axil_awready_o() != 0,
            w_ready: self.m.s_axil_wready_o() != 0,
            b: (self.m.s_axil_bvalid_o() != 0).then(|| resp(self.m.s_axil_bresp_o())),
            ar_ready: self.m.s_axil_arready_o() != 0,
            r: (self.m.s_axil_rvalid_o() != 0).then(|| {
                (
                    self.m.s_axil_rdata_o() as u32,
                    resp(self.m.s_axil_rresp_o()),
                )
            }),
        };
        self.lite
            .tick(&ls)
            .map_err(|e| fail(format!("axil: {e}")))?;
        while let Some(d) = self.lite.done().get(self.lite_seen).copied() {
            if d.resp != Resp::Okay {
                return Err(fail(format!("register write {:?}: {:?}", d.op, d.resp)));
            }
            while self
                .lite_then
                .front()
                .is_some_and(|(i, _)| *i == self.lite_seen)
            {
                if let Some((_, e)) = self.lite_then.pop_front() {
                    self.ev.push(cyc, e);
                }
            }
            self.lite_seen += 1;
        }
        let cs = SlaveOut {
            aw_ready: self.m.s_axi_awready_o() != 0,
            w_ready: self.m.s_axi_wready_o() != 0,
            b: (self.m.s_axi_bvalid_o() != 0).then(|| BResp {
                id: self.m.s_axi_bid_o() as u32,
                resp: resp(self.m.s_axi_bresp_o()),
            }),
            ar_ready: false,
            r: None,
        };
        let we = self
            .cmd
            .tick(&cs)
            .map_err(|e| fail(format!("cmd bus: {e}")))?;
        if let Some((_, _, w)) = &we.w
            && w.last
            && let Some(o) = self.cmd_open.iter_mut().find(|o| o.2.is_none())
        {
            o.2 = Some(cyc);
            self.doorbells.push(cyc);
        }
        if let Some((_, r)) = &we.b {
            let (slot, bytes, at) = self
                .cmd_open
                .pop_front()
                .ok_or_else(|| fail("command B without a burst"))?;
            let ok = *r == Resp::Okay;
            if !ok {
                self.stats.refused += 1;
                self.refused_slots.push(slot);
                self.busy[usize::from(slot)] = Some(cyc + 50);
            }
            self.ev
                .push(at.unwrap_or(cyc), ObsEv::Cmd { slot, bytes, ok });
        }
        // Host memory.
        if let Some(a) = &mo.ar
            && so.ar_ready
        {
            let len = (a.beats() as u64) << a.size;
            let mut len = len - (a.addr & ((1 << a.size) - 1));
            // A served READ reads chunk by chunk (CHUNK_BYTES from the op's start), one READ at a
            // time: a burst at a chunk's start opens that chunk, and every burst is trimmed to
            // the open chunk's end (the observer grants each byte once; the last beat of a chunk
            // also holds the next chunk's first bytes). Of READs whose chunks start at the same
            // address, the one whose chunk length fits the burst's beat count (a burst ends at
            // its chunk's end unless a 4 KB page ends first, inside the chunk).
            let bus = self.top.bus as u64;
            // Whether this burst is how the device reads from `a.addr` to `chunk_end`.
            let fits_end = |chunk_end: u64| {
                let l = chunk_end - a.addr;
                let page_end = (a.addr | 0xfff) + 1;
                let burst_end = (a.addr & !(bus - 1)) + a.beats() as u64 * bus;
                (burst_end == page_end && chunk_end >= page_end)
                    || (a.addr % bus + l).div_ceil(bus) == a.beats() as u64
            };
            let fits = |e: u64| fits_end(e.min(a.addr + CHUNK));
            let starts: Vec<u64> = self
                .served_ranges
                .iter()
                .filter(|&&(s, e)| (s..e).contains(&a.addr) && (a.addr - s).is_multiple_of(CHUNK))
                .map(|&(_, e)| e)
                .collect();
            let continues = self.served_next == Some(a.addr)
                && self.served_chunk_end.is_some_and(|e| a.addr < e);
            let mut claimed = continues;
            if continues
                && let Some(&e) = self
                    .served_cands
                    .iter()
                    .find(|&&e| a.addr < e && fits_end(e))
            {
                self.served_chunk_end = Some(e);
                self.served_cands = vec![e];
            }
            if !continues && let Some(&first) = starts.first() {
                self.served_cands = starts
                    .iter()
                    .filter(|&&e| fits(e))
                    .map(|&e| e.min(a.addr + CHUNK))
                    .collect();
                let end = self.served_cands.first().copied().unwrap_or(first);
                self.served_chunk_end = Some(end.min(a.addr + CHUNK));
                claimed = true;
            }
            self.served_next = None;
            if let Some(end) = self.served_chunk_end.filter(|&e| claimed && a.addr < e) {
                let burst_end = (a.addr & !(bus - 1)) + a.beats() as u64 * bus;
                if burst_end < end {
                    self.served_next = Some(burst_end);
                }
                len = len.min(end - a.addr);
            } else {
                // The DMA reads whole bus beats; the bytes past the op's source range in the
                // last beat are never used, and the observer grants exactly the source range.
                // (Not for a served chunk's burst: served regions overlap the slots' data.)
                let (db, ds) = (self.top.data_base, self.top.data_size());
                if (db..db + ds).contains(&a.addr) {
                    let slot = ((a.addr - db) / 8192) as usize;
                    if let Some(&end) = self.src_end.get(slot) {
                        len = len.min(end.saturating_sub(a.addr));
                    }
                }
            }
            self.ev.push(cyc, ObsEv::Read { addr: a.addr, len });
        }
        if let Some(a) = &mo.aw
            && so.aw_ready
        {
            self.w_aws.push_back((a.clone(), cyc));
            self.b_addrs.push_back(a.addr);
        }
        if let Some(w) = &mo.w
            && so.w_ready
        {
            self.w_beats.push(w.clone());
            if w.last {
                let done = std::mem::take(&mut self.w_beats);
                self.w_done.push_back(done);
            }
        }
        // A record's B frees its slot in the RTL NIC (and, by then, in the model): the slot may
        // get its next command `reuse_after` cycles later.
        if so.b.is_some() && mo.b_ready {
            let a = self
                .b_addrs
                .pop_front()
                .ok_or_else(|| fail("B without an AW"))?;
            let cq = self.top.cq_base;
            if (cq..cq + CQ_SIZE).contains(&a) {
                let slot = ((a - cq) / 16) as usize;
                if let Some(b) = self.busy.get_mut(slot) {
                    *b = Some(cyc + self.reuse_after);
                }
            }
        }
        // W beats may come before their AW (AXI4): pair whole bursts with AWs in order.
        while !self.w_aws.is_empty() && !self.w_done.is_empty() {
            let (Some((a, issued)), Some(beats)) =
                (self.w_aws.pop_front(), self.w_done.pop_front())
            else {
                break;
            };
            {
                // Every strobed run of bytes is one host write as the observer sees them.
                let mut run: Option<(u64, Vec<u8>)> = None;
                for (n, b) in beats.iter().enumerate() {
                    for addr in a.beat_bytes(n) {
                        let lane = (addr % self.top.bus as u64) as usize;
                        if b.strb >> lane & 1 == 1 {
                            match run.as_mut() {
                                Some((s, d)) if *s + d.len() as u64 == addr => d.push(b.data[lane]),
                                _ => {
                                    if let Some((s, d)) = run.take() {
                                        self.host_write(issued, s, d);
                                    }
                                    run = Some((addr, vec![b.data[lane]]));
                                }
                            }
                        }
                    }
                }
                if let Some((s, d)) = run {
                    self.host_write(issued, s, d);
                }
            }
        }
        if let Some(r) = &so.r
            && mo.r_ready
            && r.resp != Resp::Okay
        {
            self.stats.read_errors += 1;
        }
        self.mem
            .tick(&mo)
            .map_err(|e| fail(format!("host memory: {e}")))?;
        // Network.
        if self.rx_valid
            && self.m.s_axis_rx_tready_o() != 0
            && let Some((f, off)) = self.rx_cur.as_mut()
        {
            *off = (*off + self.top.bus).min(f.len());
            if *off == f.len() {
                let f = std::mem::take(f);
                self.rx_cur = None;
                self.stats.frames_in += 1;
                self.log_frame(cyc, false, &f);
                self.ev.push(cyc, ObsEv::Receive(f));
            }
        }
        if self.m.m_axis_tx_tvalid_o() != 0 && self.tx_ready {
            if self.tx_buf.is_empty() {
                self.tx_starts.push(cyc);
            }
            let mut words = [0u32; MAX_WORDS];
            self.m.m_axis_tx_tdata_o(&mut words[..self.top.words()]);
            let keep = self.m.m_axis_tx_tkeep_o();
            for k in 0..self.top.bus {
                if keep >> k & 1 == 1 {
                    self.tx_buf.push(get_bits(&words, 8 * k, 8) as u8);
                }
            }
            if self.m.m_axis_tx_tlast_o() != 0 {
                let f = std::mem::take(&mut self.tx_buf);
                self.stats.frames_out += 1;
                self.stats.tx_payload += f.len().saturating_sub(80) as u64;
                self.outbox.push((cyc, f.clone()));
                self.log_frame(cyc, true, &f);
                self.ev.push(cyc, ObsEv::Frame(f));
            }
        }
        self.m.tick();
        self.cycle += 1;
        Ok(())
    }

    /// After the fabric ran to [`Node::cycle`]: the observer is shown what is no longer held.
    pub fn observe(&mut self) -> Result<(), RigError> {
        self.feed_observer(self.cycle.saturating_sub(HOLD))
    }

    fn host_write(&mut self, cyc: u64, addr: u64, data: Vec<u8>) {
        self.stats.host_bytes += data.len() as u64;
        // A completion record: the slot may be reused once its write is answered.
        let cq = self.top.cq_base;
        if (cq..cq + CQ_SIZE).contains(&addr)
            && data.len() == 16
            && let Ok(c) = Cpl::from_bytes(&data)
        {
            self.stats.records += 1;
            if let Some(n) = self.stats.statuses.get_mut(c.status as usize) {
                *n += 1;
            }
            if c.status == Status::Ok {
                self.stats.ok += 1;
            }
            self.records.push(c);
        }
        self.ev.push(cyc, ObsEv::Write { addr, data });
    }

    fn feed_observer(&mut self, until: u64) -> Result<(), RigError> {
        if self.obs_ended {
            return match self.ev.pop_until(u64::MAX) {
                Some((c, _)) => Err(fail(format!(
                    "an observer input at cycle {c} after the observer ended"
                ))),
                None => Ok(()),
            };
        }
        while let Some((c, e)) = self.ev.pop_until(until) {
            let r = match e {
                ObsEv::Cmd { slot, bytes, ok } => self.obs.cmd_write(c, slot, 0, &bytes, ok),
                ObsEv::Receive(f) => {
                    trace(self.idx, c, "in ", &f);
                    self.obs.receive(c, &f).map(|_| ())
                }
                ObsEv::Frame(f) => {
                    trace(self.idx, c, "out", &f);
                    self.obs.seen(c, Seen::Frame(&f))
                }
                ObsEv::Write { addr, data } => {
                    self.obs.seen(c, Seen::HostWrite { addr, data: &data })
                }
                ObsEv::Read { addr, len } => {
                    if std::env::var_os("ONERMA_RIG_TRACE").is_some() {
                        eprintln!("{c:>8} nic {} host read {addr:#x}+{len}", self.idx);
                    }
                    self.obs.seen(c, Seen::HostRead { addr, len })
                }
                ObsEv::Software { addr, data } => {
                    self.obs.software_write(addr, &data);
                    Ok(())
                }
                ObsEv::Rrt { index, e } => self.obs.commit_rrt(c, index, e),
                ObsEv::Enable { slot } => self.obs.enable_slot(slot, PID),
                ObsEv::NicEnable { on } => self.obs.set_enabled(c, on),
            };
            r.map_err(|e| fail(format!("observer: {e}")))?;
        }
        if until.is_multiple_of(32) {
            self.obs
                .advance(until)
                .map_err(|e| fail(format!("observer: {e}")))?;
        }
        Ok(())
    }
}

fn resp(bits: u64) -> Resp {
    match bits {
        0 => Resp::Okay,
        2 => Resp::SlvErr,
        _ => Resp::DecErr,
    }
}

/// With `ONERMA_RIG_TRACE` set, every frame RTL NIC `nic` receives and sends, one line each
/// (debugging a divergence the observer reports).
fn trace(nic: usize, cycle: u64, dir: &str, f: &[u8]) {
    if std::env::var_os("ONERMA_RIG_TRACE").is_none() {
        return;
    }
    match f.get(..64).map(Hdr::from_bytes) {
        Some(Ok(h)) => eprintln!(
            "{cycle:>8} nic {nic} {dir} {} src {:#x} counter {:#x} status {:?}",
            onerma_model::hdr_text(&h),
            h.src_nic,
            h.counter,
            h.status
        ),
        _ => eprintln!("{cycle:>8} nic {nic} {dir} {} bytes, no header", f.len()),
    }
}
