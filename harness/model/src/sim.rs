//! N NICs on one fabric, driven by an event queue keyed by (time, push order).

use crate::config::NicConfig;
use crate::crypto::FastMap;
use crate::error::{ModelError, SubmitError};
use crate::evq::EventQueue;
use crate::fabric::{Arrival, Fabric, FabricConfig};
use crate::nic::{Completion, Nic, Outputs, SubmitOutcome};

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
        cmd: Box<[u8; 64]>,
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
    /// Every frame a NIC handed to the fabric `(cycle, source NIC, frame)`, when on (tests that
    /// pin the byte-exact behaviour; see [`System::log_messages`]).
    pub message_log: Option<Vec<(u64, usize, Vec<u8>)>>,
    /// Internal inconsistencies a NIC reported `(cycle, NIC, error)`: a correct model has none.
    pub errors: Vec<(u64, usize, ModelError)>,
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
            message_log: None,
            errors: Vec::new(),
        })
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
        self.push(
            t,
            Ev::Submit {
                nic,
                slot,
                cmd: Box::new(cmd),
            },
        );
    }

    /// Injects a frame as if it arrived at NIC `dst` at `time` (tests, adversaries).
    pub fn inject(&mut self, time: u64, dst: usize, frame: Vec<u8>) {
        let t = time.max(self.now);
        self.push(t, Ev::Deliver { dst, frame });
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
        let mut out = std::mem::take(&mut self.out);
        out.clear();
        let i = match ev {
            Ev::Deliver { dst, frame } => {
                if let Err(e) = self.nics[dst].receive(time, &frame, &mut out) {
                    self.errors.push((time, dst, e));
                }
                self.nics[dst].recycle(frame);
                dst
            }
            Ev::Wake(i) => {
                if self.wake_at[i] == time {
                    self.wake_at[i] = u64::MAX;
                }
                if let Err(e) = self.nics[i].advance(time, &mut out) {
                    self.errors.push((time, i, e));
                }
                i
            }
            Ev::Submit { nic, slot, cmd } => {
                let result = self.nics[nic].submit(time, slot, &cmd[..], &mut out);
                if let Err(SubmitError::Model(e)) = &result {
                    self.errors.push((time, nic, e.clone()));
                }
                self.reports.push(Report::Submitted { nic, slot, result });
                nic
            }
        };
        self.after(i, &mut out);
        self.out = out;
        true
    }

    fn after(&mut self, i: usize, out: &mut Outputs) {
        let now = self.now;
        let route = &self.route;
        for frame in out.messages.drain(..) {
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
        for c in out.completions.drain(..) {
            self.reports.push(Report::Completion { nic: i, c });
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
