//! Valid/ready streams from the test bench's side: a source and a sink that stall at random
//! (seeded), and a monitor of the stream rule.
//!
//! A cycle with a Verilated model goes: ask the source what to drive ([`Source::offer`]) and the
//! sink whether to take ([`Sink::ready`]), drive, `eval`, look at the DUT, report the handshakes
//! ([`Source::handshake`], [`Sink::handshake`]), `tick`. Each stall decision is made once per
//! cycle, so an offered word stays offered until the DUT takes it (the stream rule the RTL
//! assumes of its inputs).

use std::collections::VecDeque;
use std::fmt::Debug;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// A broken stream rule, or a bad stall setting.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum StreamError {
    #[error("stream `{stream}`, cycle {cycle}: valid dropped before ready")]
    ValidDropped { stream: String, cycle: u64 },
    #[error("stream `{stream}`, cycle {cycle}: data changed while stalled ({was} -> {now})")]
    DataChanged {
        stream: String,
        cycle: u64,
        was: String,
        now: String,
    },
    #[error("probability {0} is not in 0..=1")]
    Probability(f64),
}

/// Per-cycle yes/no decisions with a fixed probability of "yes", from a seeded generator.
#[derive(Debug, Clone)]
pub struct Throttle {
    rng: StdRng,
    p: f64,
}

impl Throttle {
    /// `p` is the chance per cycle that the side is willing (offers / is ready).
    ///
    /// # Errors
    /// [`StreamError::Probability`] unless `0 <= p <= 1`.
    pub fn new(seed: u64, p: f64) -> Result<Self, StreamError> {
        if !(0.0..=1.0).contains(&p) {
            return Err(StreamError::Probability(p));
        }
        Ok(Self {
            rng: StdRng::seed_from_u64(seed),
            p,
        })
    }

    /// Never stalls.
    pub fn always() -> Self {
        Self {
            rng: StdRng::seed_from_u64(0),
            p: 1.0,
        }
    }

    /// `p` in eighths (0 = never, 8 = always), the unit of the proptest strategies.
    ///
    /// # Errors
    /// [`StreamError::Probability`] if `eighths > 8`.
    pub fn eighths(seed: u64, eighths: u8) -> Result<Self, StreamError> {
        Self::new(seed, f64::from(eighths) / 8.0)
    }

    /// One decision.
    pub fn go(&mut self) -> bool {
        // Exact at the ends, so "always" and "never" do not depend on the generator.
        if self.p >= 1.0 {
            true
        } else if self.p <= 0.0 {
            false
        } else {
            self.rng.random_bool(self.p)
        }
    }
}

/// Drives a stream: items queued with [`Source::push`] are offered one at a time, with random
/// idle cycles between them; an offered item stays on the bus until taken.
#[derive(Debug, Clone)]
pub struct Source<T> {
    queue: VecDeque<T>,
    offer: Option<T>,
    throttle: Throttle,
    decided: bool,
    sent: usize,
}

impl<T: Clone> Source<T> {
    pub fn new(throttle: Throttle) -> Self {
        Self {
            queue: VecDeque::new(),
            offer: None,
            throttle,
            decided: false,
            sent: 0,
        }
    }

    pub fn push(&mut self, item: T) {
        self.queue.push_back(item);
    }

    /// The item to drive this cycle (`None` = valid low). Calling it again in the same cycle
    /// returns the same answer.
    pub fn offer(&mut self) -> Option<&T> {
        if !self.decided {
            self.decided = true;
            if self.offer.is_none() && !self.queue.is_empty() && self.throttle.go() {
                self.offer = self.queue.pop_front();
            }
        }
        self.offer.as_ref()
    }

    /// End of the cycle: `ready` is what the DUT showed. Returns the item transferred, if any.
    pub fn handshake(&mut self, ready: bool) -> Option<T> {
        self.decided = false;
        if ready {
            let item = self.offer.take();
            self.sent += usize::from(item.is_some());
            item
        } else {
            None
        }
    }

    /// Take back the offered item without a transfer (after a flush or reset of the DUT, which
    /// ends the rule); it is dropped. Ends the cycle like [`Source::handshake`].
    pub fn withdraw(&mut self) -> Option<T> {
        self.decided = false;
        self.offer.take()
    }

    /// Items transferred so far.
    pub fn sent(&self) -> usize {
        self.sent
    }

    /// Nothing queued and nothing on the bus.
    pub fn is_idle(&self) -> bool {
        self.queue.is_empty() && self.offer.is_none()
    }
}

/// Takes a stream with random back-pressure and keeps what it receives.
#[derive(Debug, Clone)]
pub struct Sink<T> {
    throttle: Throttle,
    ready: Option<bool>,
    received: Vec<T>,
}

impl<T> Sink<T> {
    pub fn new(throttle: Throttle) -> Self {
        Self {
            throttle,
            ready: None,
            received: Vec::new(),
        }
    }

    /// Ready for this cycle; the same answer until [`Sink::handshake`].
    pub fn ready(&mut self) -> bool {
        *self.ready.get_or_insert_with(|| self.throttle.go())
    }

    /// End of the cycle with what the DUT offered; returns whether a transfer happened.
    pub fn handshake(&mut self, item: Option<T>) -> bool {
        let ready = self.ready();
        self.ready = None;
        match item {
            Some(x) if ready => {
                self.received.push(x);
                true
            }
            _ => false,
        }
    }

    pub fn received(&self) -> &[T] {
        &self.received
    }

    pub fn into_received(self) -> Vec<T> {
        self.received
    }
}

/// The stream rule, checked from outside: once valid is high without ready, valid stays high
/// and the data unchanged until the transfer. The same rule as `onerma_stream_check.sv`.
#[derive(Debug, Clone)]
pub struct RuleMonitor<T> {
    name: String,
    held: Option<T>,
}

impl<T: Clone + PartialEq + Debug> RuleMonitor<T> {
    pub fn new(name: impl Into<String>) -> Self {
        Self {
            name: name.into(),
            held: None,
        }
    }

    /// One cycle as the clock edge sees it (`data` matters only while `valid`).
    ///
    /// # Errors
    /// The first broken rule; the monitor then follows the new state.
    pub fn check(
        &mut self,
        cycle: u64,
        valid: bool,
        ready: bool,
        data: &T,
    ) -> Result<(), StreamError> {
        let held = self.held.take();
        if valid && !ready {
            self.held = Some(data.clone());
        }
        match held {
            Some(_) if !valid => Err(StreamError::ValidDropped {
                stream: self.name.clone(),
                cycle,
            }),
            Some(was) if was != *data => Err(StreamError::DataChanged {
                stream: self.name.clone(),
                cycle,
                was: format!("{was:?}"),
                now: format!("{data:?}"),
            }),
            _ => Ok(()),
        }
    }

    /// A reset or flush ends the rule for the word on the bus.
    pub fn clear(&mut self) {
        self.held = None;
    }

    /// Whether a word is stalled on the bus (offered, not taken, last cycle).
    pub fn stalled(&self) -> Option<&T> {
        self.held.as_ref()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn monitor_catches_both_rules() {
        let mut m = RuleMonitor::new("s");
        assert!(m.check(0, true, false, &1u8).is_ok());
        assert!(m.check(1, true, false, &1u8).is_ok());
        assert!(matches!(
            m.check(2, true, false, &2u8),
            Err(StreamError::DataChanged { cycle: 2, .. })
        ));
        assert!(matches!(
            m.check(3, false, false, &2u8),
            Err(StreamError::ValidDropped { cycle: 3, .. })
        ));
        // After a transfer the bus is free again.
        assert!(m.check(4, true, true, &7u8).is_ok());
        assert!(m.check(5, false, false, &0u8).is_ok());
    }

    #[test]
    fn source_holds_its_offer_until_taken() {
        let mut s = Source::new(Throttle::new(3, 0.5).expect("valid p"));
        let mut mon = RuleMonitor::new("src");
        let mut sink = Throttle::new(4, 0.3).expect("valid p");
        for i in 0..50u32 {
            s.push(i);
        }
        let mut got = Vec::new();
        for cycle in 0..2000 {
            let offer = s.offer().copied();
            let ready = sink.go();
            mon.check(cycle, offer.is_some(), ready, &offer.unwrap_or(0))
                .expect("source keeps the rule");
            got.extend(s.handshake(ready));
        }
        assert_eq!(got, (0..50).collect::<Vec<_>>());
        assert!(s.is_idle());
    }

    #[test]
    fn throttle_rejects_bad_probability_and_is_exact_at_the_ends() {
        assert!(Throttle::new(0, 1.5).is_err());
        assert!(Throttle::eighths(0, 9).is_err());
        let mut never = Throttle::eighths(1, 0).expect("valid p");
        let mut always = Throttle::eighths(1, 8).expect("valid p");
        assert!((0..100).all(|_| !never.go() && always.go()));
        // About half at p = 1/2 (a seeded run: the bound is loose, not a statistics test).
        let mut half = Throttle::new(7, 0.5).expect("valid p");
        let n = (0..1000).filter(|_| half.go()).count();
        assert!((400..600).contains(&n), "{n}");
    }
}
