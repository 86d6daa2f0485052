//! The choices the hardware may legitimately make, as a trait. In automatic mode the NIC asks
//! its policy; in checker mode (`Nic::set_manual`) the co-simulation feeds the DUT's choices
//! through `Nic::dispatch` / `Nic::serve_inbound` and the model checks that each one is legal.

use rand::{Rng, SeedableRng};

use crate::responder::InQueue;
use rand_chacha::ChaCha8Rng;

/// Arbitration choices of one NIC.
pub trait Policy: Send {
    /// Picks which ready class (a class whose FIFO is non-empty, listed ascending) enters
    /// service now, or `None` to wait. The NIC calls it only when the window allows a dispatch.
    /// Returning a class not in `ready` is a policy bug: the NIC counts it and waits.
    fn pick_class(&mut self, now: u64, ready: &[u8]) -> Option<u8>;

    /// Picks which inbound queue's servable head is served now, or `None` to wait.
    fn pick_inbound(&mut self, now: u64, servable: &[InQueue]) -> Option<InQueue>;
}

/// Strict priority (class 0 first; the NIC restricts the choice at the anti-starvation bound)
/// and the READ queue before the WRITE queue.
#[derive(Debug, Clone, Copy, Default)]
pub struct DefaultPolicy;

impl Policy for DefaultPolicy {
    fn pick_class(&mut self, _now: u64, ready: &[u8]) -> Option<u8> {
        ready.first().copied()
    }
    fn pick_inbound(&mut self, _now: u64, servable: &[InQueue]) -> Option<InQueue> {
        servable.first().copied()
    }
}

/// Uniformly random legal choices (seeded): exercises every arbitration order the hardware
/// might take, for property tests.
#[derive(Debug, Clone)]
pub struct RandomPolicy(ChaCha8Rng);

impl RandomPolicy {
    #[must_use]
    pub fn new(seed: u64) -> Self {
        Self(ChaCha8Rng::seed_from_u64(seed))
    }
}

impl Policy for RandomPolicy {
    fn pick_class(&mut self, _now: u64, ready: &[u8]) -> Option<u8> {
        if ready.is_empty() {
            None
        } else {
            Some(ready[self.0.random_range(0..ready.len())])
        }
    }
    fn pick_inbound(&mut self, _now: u64, servable: &[InQueue]) -> Option<InQueue> {
        if servable.is_empty() {
            None
        } else {
            Some(servable[self.0.random_range(0..servable.len())])
        }
    }
}
