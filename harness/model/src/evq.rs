//! The system's event queue: a min-queue on (time, seq) where `seq` is the push order, so equal
//! times come out first-in first-out (what makes every run reproducible).
//!
//! A binary heap did this with O(log n) moves of every entry; nearly every event lands within a
//! few thousand cycles of now (fabric latency, DMA, timers), so the near future is a ring of
//! one-cycle buckets instead (a calendar queue). Every event in the ring lies in
//! `[base, base + RING)`, where `base` is the time of the last event popped, so each bucket holds
//! one time only and, filled in push order, is already sorted by seq. Events further out, or
//! (never in practice) behind `base`, wait in a small heap; `pop` takes whichever of the ring's
//! first event and the heap's top is smaller on (time, seq), so the order is exactly the heap's.
//!
//! A bucket is a singly linked list through one pool of nodes, not a queue of its own: with a
//! buffer per bucket, nearly every push and pop touched a bucket header and a buffer that had
//! left the cache since the ring last came round (the largest single cost in profiles). Freed
//! nodes are reused last-in first-out, so the few in use stay in cache.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Ring size in cycles (a power of two).
const RING: usize = 4096;
const WORDS: usize = RING / 64;
/// End of a bucket's list, or an empty bucket.
const NIL: u32 = u32::MAX;

/// Heap entry ordered by (time, seq) only.
struct Far<T> {
    time: u64,
    seq: u64,
    item: T,
}

impl<T> PartialEq for Far<T> {
    fn eq(&self, o: &Self) -> bool {
        (self.time, self.seq) == (o.time, o.seq)
    }
}
impl<T> Eq for Far<T> {}
impl<T> PartialOrd for Far<T> {
    fn partial_cmp(&self, o: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(o))
    }
}
impl<T> Ord for Far<T> {
    fn cmp(&self, o: &Self) -> std::cmp::Ordering {
        (self.time, self.seq).cmp(&(o.time, o.seq))
    }
}

/// A ring event; `item` is `None` only while the node is free.
struct Node<T> {
    time: u64,
    seq: u64,
    next: u32,
    item: Option<T>,
}

/// First and last node of a bucket's list.
#[derive(Clone, Copy)]
struct Bucket {
    head: u32,
    tail: u32,
}

const EMPTY: Bucket = Bucket {
    head: NIL,
    tail: NIL,
};

/// Min-queue of `T` on (time, push order).
pub struct EventQueue<T> {
    buckets: Vec<Bucket>,
    nodes: Vec<Node<T>>,
    /// Free nodes, the most recently freed last.
    free: Vec<u32>,
    /// Bit `t % RING` set iff that bucket is non-empty.
    occupied: [u64; WORDS],
    /// Bit `w` set iff `occupied[w]` is non-zero: the next occupied word is one bit search
    /// away, not a walk over the words between (events lie up to several hundred cycles ahead).
    words: u64,
    in_ring: usize,
    far: BinaryHeap<Reverse<Far<T>>>,
    base: u64,
    seq: u64,
}

impl<T> std::fmt::Debug for EventQueue<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EventQueue")
            .field("len", &self.len())
            .field("base", &self.base)
            .finish_non_exhaustive()
    }
}

impl<T> Default for EventQueue<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T> EventQueue<T> {
    #[must_use]
    pub fn new() -> Self {
        Self {
            buckets: vec![EMPTY; RING],
            nodes: Vec::new(),
            free: Vec::new(),
            occupied: [0; WORDS],
            words: 0,
            in_ring: 0,
            far: BinaryHeap::new(),
            base: 0,
            seq: 0,
        }
    }

    #[must_use]
    pub fn len(&self) -> usize {
        self.in_ring + self.far.len()
    }

    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn push(&mut self, time: u64, item: T) {
        self.seq += 1;
        let seq = self.seq;
        if time < self.base || time - self.base >= RING as u64 {
            self.far.push(Reverse(Far { time, seq, item }));
            return;
        }
        let n = match self.free.pop() {
            Some(n) => {
                // Field by field: the event is written once, in place (assigning a whole node
                // built first copied it twice).
                let node = &mut self.nodes[n as usize];
                node.time = time;
                node.seq = seq;
                node.next = NIL;
                node.item = Some(item);
                n
            }
            None => {
                // More than 4 G events in the ring at once would need more memory than any
                // machine running the model has, so the index always fits.
                let n = u32::try_from(self.nodes.len()).unwrap_or(NIL - 1);
                self.nodes.push(Node {
                    time,
                    seq,
                    next: NIL,
                    item: Some(item),
                });
                n
            }
        };
        let b = (time % RING as u64) as usize;
        let bucket = &mut self.buckets[b];
        if bucket.tail == NIL {
            bucket.head = n;
            self.occupied[b / 64] |= 1 << (b % 64);
            self.words |= 1 << (b / 64);
        } else {
            self.nodes[bucket.tail as usize].next = n;
        }
        bucket.tail = n;
        self.in_ring += 1;
    }

    /// Bucket of the earliest ring event: the first occupied bucket at or after `base`.
    fn first_bucket(&self) -> Option<usize> {
        if self.in_ring == 0 {
            return None;
        }
        let start = (self.base % RING as u64) as usize;
        let (w0, bit0) = (start / 64, start % 64);
        let head = self.occupied[w0] & (u64::MAX << bit0);
        if head != 0 {
            return Some(w0 * 64 + head.trailing_zeros() as usize);
        }
        // The next occupied word after `w0`, wrapping round; `w0` itself last (its low bits).
        let later = self.words & (u64::MAX << w0 << 1);
        let w = if later != 0 {
            later.trailing_zeros() as usize
        } else if self.words != 0 {
            self.words.trailing_zeros() as usize
        } else {
            return None;
        };
        Some(w * 64 + self.occupied[w].trailing_zeros() as usize)
    }

    /// (time, seq) of the ring's first event and its bucket.
    fn ring_head(&self) -> Option<(u64, u64, usize)> {
        let b = self.first_bucket()?;
        let n = self.nodes.get(self.buckets[b].head as usize)?;
        Some((n.time, n.seq, b))
    }

    /// Time of the earliest event.
    #[must_use]
    pub fn peek_time(&self) -> Option<u64> {
        let ring = self.ring_head().map(|(t, _, _)| t);
        let far = self.far.peek().map(|Reverse(f)| f.time);
        match (ring, far) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// Removes the earliest event (smallest time, then earliest push).
    pub fn pop(&mut self) -> Option<(u64, T)> {
        let ring = self.ring_head();
        let far = self.far.peek().map(|Reverse(f)| (f.time, f.seq));
        let from_ring = match (ring, far) {
            (None, None) => return None,
            (Some((t, s, _)), Some(f)) => (t, s) < f,
            (r, _) => r.is_some(),
        };
        let (time, item) = if let (true, Some((_, _, b))) = (from_ring, ring) {
            let bucket = &mut self.buckets[b];
            let n = bucket.head;
            let node = self.nodes.get_mut(n as usize)?;
            let item = node.item.take()?;
            bucket.head = node.next;
            if bucket.head == NIL {
                bucket.tail = NIL;
                self.occupied[b / 64] &= !(1 << (b % 64));
                if self.occupied[b / 64] == 0 {
                    self.words &= !(1 << (b / 64));
                }
            }
            self.free.push(n);
            self.in_ring -= 1;
            (node.time, item)
        } else {
            let Reverse(f) = self.far.pop()?;
            (f.time, f.item)
        };
        // Every remaining ring event is at or after this time, so the window may move here.
        self.base = self.base.max(time);
        Some((time, item))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Same output order as a binary heap on (time, seq), over pushes interleaved with pops,
        /// near and far times (both sides of the ring edge) and repeated times.
        #[test]
        fn matches_a_heap(ops in proptest::collection::vec(
            prop_oneof![
                3 => (0u64..64).prop_map(Some),
                2 => (0u64..3 * RING as u64).prop_map(Some),
                1 => Just(None::<u64>),
            ],
            1..400,
        )) {
            let mut q = EventQueue::new();
            let mut heap = BinaryHeap::new();
            let (mut seq, mut now) = (0u64, 0u64);
            for op in ops {
                match op {
                    Some(dt) => {
                        seq += 1;
                        q.push(now + dt, seq);
                        heap.push(Reverse((now + dt, seq)));
                    }
                    None => {
                        prop_assert_eq!(q.peek_time(), heap.peek().map(|Reverse((t, _))| *t));
                        let want = heap.pop().map(|Reverse(e)| e);
                        prop_assert_eq!(q.pop(), want);
                        if let Some((t, _)) = want {
                            now = t;
                        }
                    }
                }
                prop_assert_eq!(q.len(), heap.len());
            }
            while let Some(Reverse(e)) = heap.pop() {
                prop_assert_eq!(q.pop(), Some(e));
            }
            prop_assert!(q.pop().is_none());
        }
    }

    #[test]
    fn behind_base_still_ordered() {
        let mut q = EventQueue::new();
        q.push(100, 'a');
        assert_eq!(q.pop(), Some((100, 'a')));
        // Behind the window start: goes to the heap, still comes out first.
        q.push(50, 'b');
        q.push(100, 'c');
        q.push(100 + RING as u64, 'd');
        q.push(100, 'e');
        assert_eq!(q.pop(), Some((50, 'b')));
        assert_eq!(q.pop(), Some((100, 'c')));
        assert_eq!(q.pop(), Some((100, 'e')));
        assert_eq!(q.pop(), Some((100 + RING as u64, 'd')));
        assert_eq!(q.pop(), None);
    }
}
