//! N NICs on one fabric, driven by an event queue keyed by (time, push order).

use crate::config::NicConfig;
use crate::crypto::FastMap;
use crate::error::{ModelError, SubmitError};
use crate::evq::EventQueue;
use crate::fabric::{Arrival, Fabric, FabricConfig};
use crate::nic::{Completion, Nic, Outputs, SubmitOutcome};
use crate::observer::{Divergence, ObserveError, Observer, ObserverConfig, Seen};

#[derive(Debug)]
enum Ev {
    Deliver {
        dst: usize,
        frame: Vec<u8>,
    },
    Wake(usize),
    Submit {
        nic: usize,
        slot: u16,
        /// Inline, not boxed: an allocation and a free per op cost more than moving the larger
        /// event through the queue.
        cmd: [u8; 64],
    },
}

/// Something the system reports to its driver (workload, test).
#[derive(Debug, Clone)]
pub enum Report {
    Completion {
        nic: usize,
        c: Completion,
    },
    Submitted {
        nic: usize,
        slot: u16,
        result: Result<SubmitOutcome, SubmitError>,
    },
}

/// NICs, fabric and the event queue.
#[derive(Debug)]
pub struct System {
    pub nics: Vec<Nic>,
    pub fabric: Fabric,
    route: FastMap<u32, usize>,
    /// Equal times keep insertion order, which makes every run reproducible.
    queue: EventQueue<Ev>,
    now: u64,
    wake_at: Vec<u64>,
    out: Outputs,
    arrivals: Vec<Arrival>,
    /// Reports not yet taken by the driver.
    pub reports: Vec<Report>,
    /// Whether an accepted doorbell is reported ([`Report::Submitted`] with `Ok`); on unless
    /// the driver turns it off. A refused one is always reported. A driver with no use for
    /// accepted submissions (the benchmark) saves a report per op.
    pub report_accepted: bool,
    /// Every frame a NIC handed to the fabric `(cycle, source NIC, frame)`, when on (tests that
    /// pin the byte-exact behaviour; see [`System::log_messages`]).
    pub message_log: Option<Vec<(u64, usize, Vec<u8>)>>,
    /// Internal inconsistencies a NIC reported `(cycle, NIC, error)`: a correct model has none.
    pub errors: Vec<(u64, usize, ModelError)>,
    /// Per NIC: the observer checking it as a device (mixed mode, [`System::observe`]), and how
    /// much of its DMA logs the observer has seen.
    observers: Vec<Option<Watch>>,
    /// The first divergence of each observed NIC `(NIC, divergence)`; that NIC's observer stops.
    pub divergences: Vec<(usize, Divergence)>,
    tamper: Option<Tamper>,
    /// Per NIC: a device outside the model (an RTL NIC in mixed mode, [`System::set_external`]):
    /// frames for it are handed to the driver in [`System::external_rx`], not to a model NIC.
    external: Vec<bool>,
    /// Frames that arrived for external NICs `(cycle, NIC, frame)`, in arrival order; the driver
    /// takes them.
    pub external_rx: Vec<(u64, usize, Vec<u8>)>,
}

/// A fault planted in a NIC's outputs before they are shown to observers and the fabric: a
/// stand-in for a buggy device, so tests can show that the observer catches it.
pub type TamperFn = dyn FnMut(usize, u64, &mut Outputs, &mut Nic) + Send;

struct Tamper(Box<TamperFn>);

impl std::fmt::Debug for Tamper {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Tamper")
    }
}

#[derive(Debug)]
struct Watch {
    obs: Observer,
    writes_seen: usize,
    reads_seen: usize,
}

impl System {
    /// Builds NICs from `configs` (each with its own `nic_addr`) on a fabric.
    ///
    /// # Errors
    /// A bad NIC configuration or duplicate fabric addresses.
    pub fn new(configs: Vec<NicConfig>, fabric: FabricConfig) -> Result<Self, ModelError> {
        let mut route = FastMap::default();
        let mut nics = Vec::with_capacity(configs.len());
        for (i, c) in configs.into_iter().enumerate() {
            if route.insert(c.nic_addr, i).is_some() {
                return Err(ModelError::Config(format!(
                    "duplicate nic_addr {:#x}",
                    c.nic_addr
                )));
            }
            nics.push(Nic::new(c)?);
        }
        let n = nics.len();
        Ok(Self {
            fabric: Fabric::new(fabric, n),
            nics,
            route,
            queue: EventQueue::new(),
            now: 0,
            wake_at: vec![u64::MAX; n],
            out: Outputs::default(),
            arrivals: Vec::new(),
            reports: Vec::new(),
            report_accepted: true,
            message_log: None,
            errors: Vec::new(),
            observers: (0..n).map(|_| None).collect(),
            divergences: Vec::new(),
            tamper: None,
            external: vec![false; n],
            external_rx: Vec::new(),
        })
    }

    /// Plants `f` on every NIC's outputs (NIC, cycle, its frames and completions, the NIC with
    /// its DMA logs) before observers and the fabric see them.
    pub fn set_tamper(&mut self, f: Box<TamperFn>) {
        self.tamper = Some(Tamper(f));
    }

    /// Checks NIC `i` from now on as a device with an [`Observer`] (its outputs against the
    /// model's obligations), starting from the NIC's current setup. Turns the NIC's DMA logs on.
    ///
    /// # Errors
    /// No such NIC, or a configuration the shadow refuses.
    pub fn observe(&mut self, i: usize) -> Result<(), ModelError> {
        let cfg = self
            .nics
            .get(i)
            .ok_or(ModelError::NoSuchNic(i))?
            .config()
            .clone();
        let oc = ObserverConfig::for_nic(&cfg);
        self.observe_with(i, &cfg, oc)
    }

    /// [`System::observe`] with the observer's own view of the NIC's configuration and its
    /// tolerances (a shadow that does not know the device's receive-crypto latency, say).
    ///
    /// # Errors
    /// No such NIC, or a configuration the shadow refuses.
    pub fn observe_with(
        &mut self,
        i: usize,
        cfg: &NicConfig,
        oc: ObserverConfig,
    ) -> Result<(), ModelError> {
        let nic = self.nics.get_mut(i).ok_or(ModelError::NoSuchNic(i))?;
        let (mut writes_seen, mut reads_seen) = (0, 0);
        if let Some(m) = nic.mem_mut() {
            writes_seen = m.log.get_or_insert_with(Vec::new).len();
            reads_seen = m.read_log.get_or_insert_with(Vec::new).len();
        }
        let obs = Observer::new(cfg, oc, Some(&self.nics[i]))?;
        self.observers[i] = Some(Watch {
            obs,
            writes_seen,
            reads_seen,
        });
        Ok(())
    }

    /// The observer of NIC `i`, if it is observed.
    #[must_use]
    pub fn observer(&self, i: usize) -> Option<&Observer> {
        self.observers.get(i)?.as_ref().map(|w| &w.obs)
    }

    /// Software writes host memory of NIC `i` directly (mirrored to its observer).
    pub fn software_write(&mut self, i: usize, addr: u64, data: &[u8]) {
        if let Some(m) = self.nics.get_mut(i).and_then(Nic::mem_mut) {
            m.write(addr, data);
        }
        if let Some(Some(w)) = self.observers.get_mut(i) {
            w.obs.software_write(addr, data);
        }
    }

    /// Ends every observer at `now`: what a device still owes is a divergence.
    pub fn finish_observers(&mut self, now: u64) {
        for i in 0..self.observers.len() {
            self.watch(i, |o| o.finish(now));
        }
    }

    /// Runs `f` on NIC `i`'s observer; a divergence is recorded and stops that observer.
    fn watch(&mut self, i: usize, f: impl FnOnce(&mut Observer) -> Result<(), ObserveError>) {
        let Some(Some(w)) = self.observers.get_mut(i) else {
            return;
        };
        if let Err(e) = f(&mut w.obs) {
            let d = match e {
                ObserveError::Diverged(d) => *d,
                ObserveError::Model(m) => Divergence {
                    cycle: self.now,
                    nic: self.nics[i].addr(),
                    field: "observer".into(),
                    expected: "a consistent shadow model".into(),
                    got: m.to_string(),
                },
            };
            self.divergences.push((i, d));
            self.observers[i] = None;
        }
    }

    /// Shows NIC `i`'s outputs of this step to its observer: DMA reads and writes from its
    /// host logs, then the frames it sent.
    fn show(&mut self, i: usize, out: &Outputs) {
        let Some(Some(w)) = self.observers.get_mut(i) else {
            return;
        };
        let Some(m) = self.nics[i].mem() else {
            return;
        };
        let now = self.now;
        let mut r = Ok(());
        // Reads and writes in the order the NIC made them (a READ service and a WRITE landing
        // on the same bytes in one cycle must be seen in that order).
        let reads = m.read_log.as_deref().unwrap_or(&[]);
        let writes = m.log.as_deref().unwrap_or(&[]);
        let (mut ri, mut wi) = (
            w.reads_seen.min(reads.len()),
            w.writes_seen.min(writes.len()),
        );
        while r.is_ok() && (ri < reads.len() || wi < writes.len()) {
            let read_first = match (reads.get(ri), writes.get(wi)) {
                (Some(x), Some(y)) => x.seq < y.seq,
                (Some(_), None) => true,
                _ => false,
            };
            r = if read_first {
                let x = &reads[ri];
                ri += 1;
                w.obs.seen(
                    x.issued.max(now),
                    Seen::HostRead {
                        addr: x.addr,
                        len: x.len,
                    },
                )
            } else {
                let x = &writes[wi];
                wi += 1;
                w.obs.seen(
                    x.issued.max(now),
                    Seen::HostWrite {
                        addr: x.addr,
                        data: &x.data,
                    },
                )
            };
        }
        w.reads_seen = reads.len();
        w.writes_seen = writes.len();
        for f in &out.messages {
            if r.is_ok() {
                r = w.obs.seen(now, Seen::Frame(f));
            }
        }
        self.watch(i, |_| r);
    }

    #[must_use]
    pub fn now(&self) -> u64 {
        self.now
    }

    /// NIC index of a fabric address.
    #[must_use]
    pub fn index_of(&self, addr: u32) -> Option<usize> {
        self.route.get(&addr).copied()
    }

    fn push(&mut self, time: u64, ev: Ev) {
        self.queue.push(time, ev);
    }

    /// Turns the log of sent frames on (an empty log) or off.
    pub fn log_messages(&mut self, on: bool) {
        self.message_log = on.then(Vec::new);
    }

    /// Schedules a doorbell write of `cmd` to `slot` of NIC `nic` at `time` (not before now).
    pub fn schedule_submit(&mut self, time: u64, nic: usize, slot: u16, cmd: [u8; 64]) {
        let t = time.max(self.now);
        self.push(t, Ev::Submit { nic, slot, cmd });
    }

    /// Injects a frame as if it arrived at NIC `dst` at `time` (tests, adversaries).
    pub fn inject(&mut self, time: u64, dst: usize, frame: Vec<u8>) {
        let t = time.max(self.now);
        self.push(t, Ev::Deliver { dst, frame });
    }

    /// Makes NIC `i` external: a device the driver runs (an RTL NIC). Frames for it go to
    /// [`System::external_rx`]; it sends with [`System::send_external`]. Its model NIC stays idle
    /// (it only gives the fabric its address).
    ///
    /// # Errors
    /// No such NIC.
    pub fn set_external(&mut self, i: usize) -> Result<(), ModelError> {
        *self.external.get_mut(i).ok_or(ModelError::NoSuchNic(i))? = true;
        Ok(())
    }

    /// A frame external NIC `src` put on the wire at `time` (its last beat; not before now): it
    /// crosses the fabric like any NIC's frame (latency, faults).
    pub fn send_external(&mut self, time: u64, src: usize, frame: Vec<u8>) {
        let t = time.max(self.now);
        if let Some(log) = self.message_log.as_mut() {
            log.push((t, src, frame.clone()));
        }
        let route = &self.route;
        self.fabric.send(
            t,
            src,
            frame,
            |a| route.get(&a).copied(),
            &mut self.arrivals,
        );
        let mut arr = std::mem::take(&mut self.arrivals);
        for (at, dst, f) in arr.drain(..) {
            self.push(at, Ev::Deliver { dst, frame: f });
        }
        self.arrivals = arr;
    }

    /// Time of the next event, if any.
    #[must_use]
    pub fn next_time(&self) -> Option<u64> {
        self.queue.peek_time()
    }

    /// Processes the next event. Returns false when nothing is left.
    pub fn step(&mut self) -> bool {
        let Some((time, ev)) = self.queue.pop() else {
            return false;
        };
        self.now = time;
        // The outputs buffer is used in place: taking it out and putting it back cost writing a
        // default and dropping it on every event.
        self.out.clear();
        let i = match ev {
            Ev::Deliver { dst, frame } if self.external.get(dst).copied().unwrap_or(false) => {
                self.external_rx.push((time, dst, frame));
                return true;
            }
            Ev::Deliver { dst, frame } => {
                self.watch(dst, |o| o.receive(time, &frame).map(|_| ()));
                if let Err(e) = self.nics[dst].receive(time, &frame, &mut self.out) {
                    self.errors.push((time, dst, e));
                }
                self.nics[dst].recycle(frame);
                dst
            }
            Ev::Wake(i) => {
                if self.wake_at[i] == time {
                    self.wake_at[i] = u64::MAX;
                }
                self.watch(i, |o| o.advance(time));
                if let Err(e) = self.nics[i].advance(time, &mut self.out) {
                    self.errors.push((time, i, e));
                }
                i
            }
            Ev::Submit { nic, slot, cmd } => {
                let result = self.nics[nic].submit(time, slot, &cmd[..], &mut self.out);
                let accepted = result.is_ok();
                self.watch(nic, |o| o.cmd_write(time, slot, 0, &cmd[..], accepted));
                if let Err(SubmitError::Model(e)) = &result {
                    self.errors.push((time, nic, e.clone()));
                }
                if self.report_accepted || !accepted {
                    self.reports.push(Report::Submitted { nic, slot, result });
                }
                nic
            }
        };
        self.after(i);
        true
    }

    /// Shows NIC `i`'s outputs in `self.out` to a tamperer and an observer, then routes them.
    fn after(&mut self, i: usize) {
        if let Some(t) = self.tamper.as_mut() {
            (t.0)(i, self.now, &mut self.out, &mut self.nics[i]);
        }
        if matches!(self.observers.get(i), Some(Some(_))) {
            let out = std::mem::take(&mut self.out);
            self.show(i, &out);
            self.out = out;
        }
        let now = self.now;
        // Most inputs send nothing or complete nothing: skip setting up the drains then.
        if !self.out.messages.is_empty() {
            let route = &self.route;
            for frame in self.out.messages.drain(..) {
                if let Some(log) = self.message_log.as_mut() {
                    log.push((now, i, frame.clone()));
                }
                self.fabric.send(
                    now,
                    i,
                    frame,
                    |a| route.get(&a).copied(),
                    &mut self.arrivals,
                );
            }
            let mut arr = std::mem::take(&mut self.arrivals);
            for (t, dst, frame) in arr.drain(..) {
                self.push(t, Ev::Deliver { dst, frame });
            }
            self.arrivals = arr;
        }
        if !self.out.completions.is_empty() {
            for c in self.out.completions.drain(..) {
                self.reports.push(Report::Completion { nic: i, c });
            }
        }
        if let Some(w) = self.nics[i].next_wakeup()
            && w < self.wake_at[i]
        {
            self.wake_at[i] = w;
            self.push(w.max(now), Ev::Wake(i));
        }
    }

    /// Runs every event up to and including `until`.
    pub fn run_until(&mut self, until: u64) {
        while self.next_time().is_some_and(|t| t <= until) {
            self.step();
        }
        self.now = self.now.max(until);
    }

    /// Runs until no event is left (every op has completed and every timer has fired).
    pub fn run_to_quiescence(&mut self) {
        while self.step() {}
    }
}
