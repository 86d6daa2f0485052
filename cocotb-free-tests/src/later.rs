//! A bench's scheduled answers: values due at a cycle, delivered in order once due (an engine's
//! tag results, a window's unwind reports, a DMA's write answers). Shared by the op-table and
//! write-context tests.

use std::collections::VecDeque;

/// Scheduled answers: (due cycle, value), delivered in order once due.
pub struct Later<T>(pub VecDeque<(u64, T)>);

impl<T: Clone> Default for Later<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: Clone> Later<T> {
    /// An empty schedule.
    pub fn new() -> Self {
        Later(VecDeque::new())
    }
    /// Schedules `v` at `due`, but never before the previous entry (answers stay in order).
    pub fn push(&mut self, due: u64, v: T) {
        let due = self.0.back().map_or(due, |(d, _)| due.max(*d));
        self.0.push_back((due, v));
    }
    /// The head, if due at `now`.
    pub fn peek(&self, now: u64) -> Option<T> {
        self.0
            .front()
            .filter(|(d, _)| *d <= now)
            .map(|(_, v)| v.clone())
    }
    /// Removes the head (after it was delivered).
    pub fn pop(&mut self) {
        self.0.pop_front();
    }
    /// Whether nothing is scheduled.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}
