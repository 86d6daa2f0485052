//! The timing rules of protocol.md §6: the server's WRITE hold, the initiator's re-arm, and the
//! completion bound, as integer arithmetic (no floating point: every conversion rounds up
//! exactly).

use onerma_layouts::{CLOCK_TOLERANCE_PPM, WINDOW_LINE_BYTES};

const PPM: u128 = 1_000_000;
/// `1 + 2 * CLOCK_TOLERANCE_PPM * 1e-6` as a fraction over [`PPM`].
const TOL_NUM: u128 = PPM + 2 * CLOCK_TOLERANCE_PPM as u128;

fn ceil_div(a: u128, b: u128) -> u128 {
    a.div_ceil(b)
}

fn to_u64(x: u128) -> u64 {
    u64::try_from(x).unwrap_or(u64::MAX)
}

/// Cycles of a clock with period `clk_period_ps` that surely cover `ns` nanoseconds of real time
/// when both clocks are within [`CLOCK_TOLERANCE_PPM`] (§6.2): rounded up, plus one.
#[must_use]
pub fn rearm_cycles(ns: u32, clk_period_ps: u32) -> u64 {
    let ps = u128::from(ns) * 1000 * TOL_NUM;
    to_u64(ceil_div(ps, u128::from(clk_period_ps.max(1)) * PPM)) + 1
}

/// Nanoseconds that surely cover `cycles` of a clock with period `clk_period_ps` (§6.2).
#[must_use]
pub fn cycles_to_ns_up(cycles: u64, clk_period_ps: u32) -> u64 {
    let ps = u128::from(cycles) * u128::from(clk_period_ps) * TOL_NUM;
    to_u64(ceil_div(ps, 1000 * PPM))
}

/// The quantities §6 computes from one NIC's configuration.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Timing {
    pub clk_period_ps: u32,
    pub dispatch_timeout: u64,
    pub op_timeout: u64,
    pub server_timeout: u64,
    pub rx_crypto_max: u64,
    pub host_write_max: u64,
    pub host_write_bytes_per_cycle: u32,
    pub window_lines: u32,
    pub num_slots: u32,
    pub timer_slack: u64,
    pub max_hold_ns: u32,
}

impl Timing {
    /// Longest a write waits behind others on the host write channel: the window bounds the
    /// payload queued, the slots the completion records (§6.4).
    #[must_use]
    pub fn drain(&self) -> u64 {
        let bytes = u64::from(self.window_lines) * WINDOW_LINE_BYTES as u64;
        bytes.div_ceil(u64::from(self.host_write_bytes_per_cycle.max(1)))
            + u64::from(self.num_slots)
    }

    /// `Hold_s`: cycles from sending WR_RDREQ to the server's last side effect (§6.2).
    #[must_use]
    pub fn hold_cycles(&self) -> u64 {
        self.server_timeout + self.rx_crypto_max + self.drain() + self.host_write_max
    }

    /// `hold_ns` the server states in WR_RDREQ.
    #[must_use]
    pub fn hold_ns(&self) -> u64 {
        cycles_to_ns_up(self.hold_cycles(), self.clk_period_ps)
    }

    /// Cycles an initiator re-arms for the largest hold it accepts.
    #[must_use]
    pub fn max_hold_cycles(&self) -> u64 {
        rearm_cycles(self.max_hold_ns, self.clk_period_ps)
    }

    /// §6.4: a READ's record is complete within this many cycles of submission.
    #[must_use]
    pub fn read_bound(&self) -> u64 {
        self.dispatch_timeout
            + self.op_timeout
            + self.timer_slack
            + 2 * (self.drain() + self.host_write_max)
    }

    /// §6.4: a WRITE's or REKEY's record is complete within this many cycles of submission.
    #[must_use]
    pub fn write_bound(&self) -> u64 {
        self.dispatch_timeout + self.op_timeout - 1
            + self.max_hold_cycles()
            + self.timer_slack
            + self.drain()
            + self.host_write_max
    }

    /// §6.4: every accepted command's record is complete within this many cycles of submission.
    #[must_use]
    pub fn completion_bound(&self) -> u64 {
        self.read_bound().max(self.write_bound())
    }

    /// Cycles to microseconds (for reports), rounded to ns.
    #[must_use]
    pub fn us(&self, cycles: u64) -> f64 {
        (cycles as f64) * f64::from(self.clk_period_ps) / 1e6
    }
}

/// The margin of the "initiator always times out last" inequality for a server `s` that states
/// `hold_ns` and an initiator `i` (§6.2), in picoseconds of real time with each clock at its
/// worst tolerance: the earliest real time the initiator's re-armed deadline can fall after
/// WR_RDREQ was sent, minus the latest real time of the server's last side effect. Positive: the
/// initiator times out last.
#[must_use]
pub fn hold_margin_ps(server: &Timing, initiator: &Timing, hold_ns: u32) -> i128 {
    let tol = u128::from(CLOCK_TOLERANCE_PPM as u64);
    // Server clock as slow as allowed: its cycles last longest.
    let server_last_ps =
        u128::from(server.hold_cycles()) * u128::from(server.clk_period_ps) * (PPM + tol) / PPM;
    // Initiator clock as fast as allowed: its cycles last shortest; it receives WR_RDREQ no
    // earlier than it was sent (zero fabric delay).
    let cycles = rearm_cycles(hold_ns, initiator.clk_period_ps);
    let deadline_ps = u128::from(cycles) * u128::from(initiator.clk_period_ps) * (PPM - tol) / PPM;
    i128::try_from(deadline_ps).unwrap_or(i128::MAX)
        - i128::try_from(server_last_ps).unwrap_or(i128::MAX)
}

/// Whether an initiator times out after a server's last side effect when the server states its
/// own hold (§6.2). `None` if the initiator would drop the WR_RDREQ (`hold_ns > max_hold_ns`:
/// then the server never writes).
#[must_use]
pub fn initiator_times_out_last(server: &Timing, initiator: &Timing) -> Option<bool> {
    let hold_ns = u32::try_from(server.hold_ns()).ok()?;
    if hold_ns > initiator.max_hold_ns {
        return None;
    }
    Some(hold_margin_ps(server, initiator, hold_ns) > 0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::NicConfig;

    #[test]
    fn defaults_meet_timing_bounds() {
        let t = NicConfig::default().timing();
        // protocol.md §6.4 table, line by line.
        assert_eq!(t.drain(), 1_088);
        assert_eq!(t.hold_cycles(), 3_538);
        assert_eq!(t.hold_ns(), 14_158);
        assert_eq!(t.max_hold_cycles(), 3_553);
        assert_eq!(t.read_bound(), 10_240);
        assert_eq!(t.write_bound(), 12_454);
        // T4: every op within the paper's 50 us at 250 MHz.
        assert!(
            t.us(t.completion_bound()) < 50.0,
            "{}",
            t.us(t.completion_bound())
        );
        // T1/T2: a default server is accepted by a default initiator, which times out last.
        assert!(t.hold_ns() <= u64::from(t.max_hold_ns));
        assert_eq!(initiator_times_out_last(&t, &t), Some(true));
        // The margin by hand: server 3,538 cycles x 4,000 ps x 1.0002 = 14,154,830 ps; initiator
        // re-arm ceil(14,158 ns x 1.0004 / 4 ns) + 1 = 3,542 cycles x 4,000 ps x 0.9998 =
        // 14,165,166 ps.
        assert_eq!(hold_margin_ps(&t, &t, 14_158), 14_165_166 - 14_154_830);
        assert!((t.us(12_454) - 49.816).abs() < 1e-9);
        assert!((t.us(1) - 0.004).abs() < 1e-12);
    }

    #[test]
    fn a_server_understating_its_hold_breaks_the_inequality() {
        let t = NicConfig::default().timing();
        // Half the stated hold: the initiator would time out ~7 us before the server's last write.
        assert!(hold_margin_ps(&t, &t, 7_079) < 0);
        // The stated hold is tight: a few ns less and the margin is gone.
        let m = hold_margin_ps(&t, &t, 14_158);
        assert!(m > 0 && m < 12_000, "{m}");
        assert!(hold_margin_ps(&t, &t, 14_158 - 12) < 0);
    }

    #[test]
    fn inequality_holds_across_unequal_configurations() {
        let base = NicConfig::default().timing();
        for server_period in [2_000u32, 3_333, 4_000, 6_400, 10_000] {
            for initiator_period in [2_000u32, 3_333, 4_000, 6_400, 10_000] {
                for server_timeout in [500u64, 2_000, 7_919] {
                    let s = Timing {
                        clk_period_ps: server_period,
                        server_timeout,
                        ..base
                    };
                    let i = Timing {
                        clk_period_ps: initiator_period,
                        max_hold_ns: u32::MAX,
                        ..base
                    };
                    assert_eq!(
                        initiator_times_out_last(&s, &i),
                        Some(true),
                        "server {server_period} ps, initiator {initiator_period} ps, timeout {server_timeout}"
                    );
                }
            }
        }
    }

    #[test]
    fn a_hold_equal_to_the_cap_is_accepted() {
        let t = NicConfig::default().timing();
        let i = Timing {
            max_hold_ns: u32::try_from(t.hold_ns()).unwrap_or(u32::MAX),
            ..t
        };
        assert_eq!(initiator_times_out_last(&t, &i), Some(true));
        let i = Timing {
            max_hold_ns: i.max_hold_ns - 1,
            ..t
        };
        assert_eq!(initiator_times_out_last(&t, &i), None);
    }

    #[test]
    fn a_hold_above_the_cap_is_refused() {
        let base = NicConfig::default().timing();
        let s = Timing {
            server_timeout: 10_000,
            ..base
        };
        assert!(s.hold_ns() > u64::from(base.max_hold_ns));
        assert_eq!(initiator_times_out_last(&s, &base), None);
    }

    #[test]
    fn conversions_round_up() {
        // 1 ns at 4 ns per cycle: 1 cycle, plus the +1 of the re-arm.
        assert_eq!(rearm_cycles(1, 4_000), 2);
        assert_eq!(rearm_cycles(0, 4_000), 1);
        // 3 cycles of 4 ns with 400 ppm margin: 12.0048 ns -> 13.
        assert_eq!(cycles_to_ns_up(3, 4_000), 13);
        assert_eq!(cycles_to_ns_up(0, 4_000), 0);
    }
}
