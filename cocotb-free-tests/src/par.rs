//! Applies one step to every item of a slice on several threads, once per simulated cycle.
//!
//! A many-NIC system spends most of a cycle in its NICs' own work (the Verilated top's eval, its
//! bus models and its observer), which touches nothing of the other NICs. [`Pool::each`] splits
//! the nodes into contiguous runs, one per thread, and returns when all are done, so the owner's
//! sequential part (the fabric, the workload, the end-to-end checks) sees exactly the state a
//! one-thread run would: the results do not depend on the thread count (`nic_system`'s
//! `threads_do_not_change_the_run` compares them).
//!
//! A cycle is a few microseconds, far less than waking a sleeping thread, so a helper spins while
//! jobs keep coming and parks only after [`IDLE_PARK`] without one (between runs). The
//! hand-over is two counters per helper; the slice is passed as a raw pointer, which is sound
//! because `each` holds the `&mut` borrow until every helper has reported (also when a step
//! panics: the panic is carried back and resumed on the owner's thread).

use std::any::Any;
use std::cell::UnsafeCell;
use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

/// The thread count for stepping `nodes` nodes: `ONERMA_THREADS` if set to a positive integer,
/// else the machine's cores, at most one per node.
pub fn default_threads(nodes: usize) -> usize {
    let cores = thread::available_parallelism().map_or(1, std::num::NonZero::get);
    std::env::var("ONERMA_THREADS")
        .ok()
        .and_then(|v| v.parse::<usize>().ok())
        .filter(|&t| t > 0)
        .unwrap_or_else(|| cores.min(nodes.max(1)))
}

/// How long a helper spins without a job before it parks.
const IDLE_PARK: Duration = Duration::from_millis(2);

/// A step's outcome: the first failure (index in the helper's run, error), or a panic.
type Outcome<E> = Result<Option<(usize, E)>, Box<dyn Any + Send>>;

struct Job<T, E> {
    items: *mut T,
    len: usize,
    step: fn(&mut T) -> Result<(), E>,
}

/// One helper's hand-over: the owner writes `job` then bumps `start`; the helper runs it, writes
/// `outcome` and sets `done` to `start`'s value. Each cell is touched by one side at a time,
/// ordered by those two counters.
struct Lane<T, E> {
    start: AtomicU64,
    done: AtomicU64,
    quit: AtomicBool,
    job: UnsafeCell<Option<Job<T, E>>>,
    outcome: UnsafeCell<Outcome<E>>,
}

// The cells are handed between the two threads by the counters' release / acquire pairs; the
// items they point to are `Send` and reached by one thread at a time.
unsafe impl<T: Send, E: Send> Sync for Lane<T, E> {}
unsafe impl<T: Send, E: Send> Send for Lane<T, E> {}

fn run_all<T, E>(items: &mut [T], step: fn(&mut T) -> Result<(), E>) -> Option<(usize, E)> {
    items
        .iter_mut()
        .enumerate()
        .find_map(|(k, t)| step(t).err().map(|e| (k, e)))
}

fn helper<T: Send, E: Send>(lane: &Lane<T, E>) {
    let mut seen = 0u64;
    loop {
        let mut idle_since: Option<Instant> = None;
        let mut spins = 0u32;
        loop {
            if lane.quit.load(Ordering::Acquire) {
                return;
            }
            let s = lane.start.load(Ordering::Acquire);
            if s != seen {
                seen = s;
                break;
            }
            spins = spins.wrapping_add(1);
            if spins.is_multiple_of(1024) {
                let t0 = *idle_since.get_or_insert_with(Instant::now);
                if t0.elapsed() >= IDLE_PARK {
                    thread::park_timeout(IDLE_PARK);
                } else {
                    thread::yield_now();
                }
            } else {
                std::hint::spin_loop();
            }
        }
        // SAFETY: `start` moved, so the owner wrote `job` before it (release / acquire) and
        // does not touch `job`, `outcome` or the items until `done` reaches `seen`.
        let out = unsafe {
            match &*lane.job.get() {
                Some(j) => {
                    let items = std::slice::from_raw_parts_mut(j.items, j.len);
                    let step = j.step;
                    catch_unwind(AssertUnwindSafe(|| run_all(items, step)))
                }
                None => Ok(None),
            }
        };
        unsafe { *lane.outcome.get() = out };
        lane.done.store(seen, Ordering::Release);
    }
}

/// A helper's hand-over and its thread.
type Helper<T, E> = (Arc<Lane<T, E>>, JoinHandle<()>);

/// The owner's thread plus `threads - 1` helpers.
pub struct Pool<T, E> {
    lanes: Vec<Helper<T, E>>,
    epoch: u64,
}

impl<T: Send + 'static, E: Send + 'static> Pool<T, E> {
    /// A pool of `threads` threads in all (0 and 1: the owner's only, no helper).
    pub fn new(threads: usize) -> Self {
        let lanes = (1..threads.max(1))
            .map(|_| {
                let lane = Arc::new(Lane {
                    start: AtomicU64::new(0),
                    done: AtomicU64::new(0),
                    quit: AtomicBool::new(false),
                    job: UnsafeCell::new(None),
                    outcome: UnsafeCell::new(Ok(None)),
                });
                let l = Arc::clone(&lane);
                (lane, thread::spawn(move || helper(&l)))
            })
            .collect();
        Self { lanes, epoch: 0 }
    }

    /// Threads in all, the owner's included.
    pub fn threads(&self) -> usize {
        self.lanes.len() + 1
    }

    /// `step` on every item, the items split into one contiguous run per thread; the error of
    /// the lowest-indexed item that failed (each run stops at its first failure), after every
    /// thread has finished. A panic in a step is resumed here, after every thread has finished.
    ///
    /// # Errors
    /// The first failing item's error, in item order.
    pub fn each(&mut self, items: &mut [T], step: fn(&mut T) -> Result<(), E>) -> Result<(), E> {
        let parts = self.threads().min(items.len());
        if parts <= 1 {
            return run_all(items, step).map_or(Ok(()), |(_, e)| Err(e));
        }
        self.epoch += 1;
        let epoch = self.epoch;
        let base = items.len() / parts;
        let extra = items.len() % parts;
        // Run 0 is the owner's; helper k - 1 takes run k.
        let len = |k: usize| base + usize::from(k < extra);
        let (own, mut rest) = items.split_at_mut(len(0));
        let mut starts = Vec::with_capacity(parts);
        starts.push(0usize);
        let mut at = own.len();
        for (k, (lane, h)) in self.lanes.iter().enumerate().take(parts - 1) {
            let (run, tail) = std::mem::take(&mut rest).split_at_mut(len(k + 1));
            rest = tail;
            starts.push(at);
            at += run.len();
            // SAFETY: the helper finished its last job (`each` waited for it) and reads `job`
            // only after the `start` store below.
            unsafe {
                *lane.job.get() = Some(Job {
                    items: run.as_mut_ptr(),
                    len: run.len(),
                    step,
                });
            }
            lane.start.store(epoch, Ordering::Release);
            h.thread().unpark();
        }
        let mine = catch_unwind(AssertUnwindSafe(|| run_all(own, step)));
        let mut outcomes: Vec<Outcome<E>> = vec![mine];
        for (lane, _) in self.lanes.iter().take(parts - 1) {
            let mut spins = 0u32;
            while lane.done.load(Ordering::Acquire) != epoch {
                spins = spins.wrapping_add(1);
                if spins.is_multiple_of(1024) {
                    thread::yield_now();
                } else {
                    std::hint::spin_loop();
                }
            }
            // SAFETY: `done` reached this epoch: the helper wrote `outcome` before it and
            // touches nothing until the next `start`.
            let out = unsafe { std::mem::replace(&mut *lane.outcome.get(), Ok(None)) };
            unsafe { *lane.job.get() = None };
            outcomes.push(out);
        }
        let mut first: Option<(usize, E)> = None;
        for (k, out) in outcomes.into_iter().enumerate() {
            match out {
                Err(p) => resume_unwind(p),
                Ok(Some((i, e))) => {
                    let i = starts[k] + i;
                    if first.as_ref().is_none_or(|(j, _)| i < *j) {
                        first = Some((i, e));
                    }
                }
                Ok(None) => {}
            }
        }
        first.map_or(Ok(()), |(_, e)| Err(e))
    }
}

impl<T, E> Drop for Pool<T, E> {
    fn drop(&mut self) {
        for (lane, h) in &self.lanes {
            lane.quit.store(true, Ordering::Release);
            h.thread().unpark();
        }
        for (_, h) in self.lanes.drain(..) {
            let _ = h.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Pool;

    /// Fails on reaching a multiple of 1000, with that value.
    fn bump(x: &mut u64) -> Result<(), u64> {
        *x += 1;
        if x.is_multiple_of(1000) {
            Err(*x)
        } else {
            Ok(())
        }
    }

    #[test]
    fn every_item_is_stepped_once_per_call_on_any_thread_count() {
        for threads in 1..=4 {
            let mut pool = Pool::<u64, u64>::new(threads);
            for n in 0..10usize {
                let mut v: Vec<u64> = (0..n as u64).map(|i| i * 100).collect();
                for _ in 0..5 {
                    assert_eq!(pool.each(&mut v, bump), Ok(()));
                }
                let want: Vec<u64> = (0..n as u64).map(|i| i * 100 + 5).collect();
                assert_eq!(v, want, "{threads} threads, {n} items");
            }
        }
    }

    #[test]
    fn the_lowest_failing_item_is_reported() {
        for threads in 1..=3 {
            let mut pool = Pool::<u64, u64>::new(threads);
            // Items 2 and 5 fail on the first call, 5 in a later run than 2 from 2 threads on.
            let mut v = vec![0u64, 5, 999, 3, 4, 1999];
            assert_eq!(pool.each(&mut v, bump), Err(1000), "{threads} threads");
            // Every item was stepped up to its run's first failure.
            assert_eq!(v[..3], [1, 6, 1000], "{threads} threads");
            let mut w = vec![0u64, 5, 4];
            assert_eq!(pool.each(&mut w, bump), Ok(()), "{threads} threads");
        }
    }

    #[test]
    fn a_panicking_step_panics_the_caller_and_the_pool_lives_on() {
        let mut pool = Pool::<u64, u64>::new(2);
        let mut v = vec![0u64; 4];
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            pool.each(&mut v, |x| if *x == 0 { panic!("step") } else { Ok(()) })
        }));
        assert!(r.is_err());
        let mut w = vec![1u64; 4];
        assert_eq!(pool.each(&mut w, bump), Ok(()));
        assert_eq!(w, vec![2u64; 4]);
    }
}
