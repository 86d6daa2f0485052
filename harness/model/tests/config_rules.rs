//! `NicConfig::validate`: each range the model requires, at its last accepted value and the first
//! refused one, and the §6 quantities a configuration derives (protocol.md §6.2, §6.4 table).

use onerma_model::config::NicConfig;
use onerma_model::error::ModelError;
use onerma_model::timing::Timing;

/// Whether `cfg` is refused, with a message naming `param`.
fn refused_for(cfg: &NicConfig, param: &str) -> bool {
    match cfg.validate() {
        Err(ModelError::Config(m)) => m.contains(param),
        _ => false,
    }
}

/// Checks that `edit(v)` is accepted for every `ok` value and refused, naming `param`, for every
/// `bad` one: a boundary test of one range, every other parameter at its default.
fn range(param: &str, ok: &[u64], bad: &[u64], edit: impl Fn(&mut NicConfig, u64)) {
    for &v in ok {
        let mut c = NicConfig::default();
        edit(&mut c, v);
        assert_eq!(c.validate(), Ok(()), "{param} = {v} must be accepted");
    }
    for &v in bad {
        let mut c = NicConfig::default();
        edit(&mut c, v);
        assert!(refused_for(&c, param), "{param} = {v}: {:?}", c.validate());
    }
}

fn n16(v: u64) -> u16 {
    u16::try_from(v).expect("test value fits u16")
}

fn n32(v: u64) -> u32 {
    u32::try_from(v).expect("test value fits u32")
}

#[test]
fn the_default_configuration_is_valid() {
    assert_eq!(NicConfig::default().validate(), Ok(()));
}

#[test]
fn slots_are_1_to_1024() {
    range("num_slots", &[1, 64, 1024], &[0, 1025], |c, v| {
        c.num_slots = n16(v);
    });
}

#[test]
fn classes_are_1_to_16() {
    range("num_classes", &[1, 4, 16], &[0, 17], |c, v| {
        c.num_classes = u8::try_from(v).expect("fits u8");
    });
}

#[test]
fn the_window_holds_at_least_one_dispatch_quantum() {
    // DISPATCH_QUANTUM_BYTES 4096 / WINDOW_LINE_BYTES 64 = 64 lines (protocol.md §1).
    range("window_lines", &[64, 65, 1024], &[0, 63], |c, v| {
        c.window_lines = n32(v);
    });
}

#[test]
fn the_nack_depth_is_at_most_the_inbound_queue() {
    // Default in_queue_depth 32.
    range("nack_depth", &[0, 31, 32], &[33, 1000], |c, v| {
        c.nack_depth = n16(v);
    });
    let c = NicConfig {
        in_queue_depth: 8,
        nack_depth: 9,
        ..NicConfig::default()
    };
    assert!(refused_for(&c, "nack_depth"));
}

#[test]
fn write_contexts_are_1_to_4096() {
    range("num_write_ctx", &[1, 16, 4096], &[0, 4097], |c, v| {
        c.num_write_ctx = n16(v);
    });
}

#[test]
fn the_clock_period_is_nonzero() {
    range("clk_period_ps", &[1, 4000], &[0], |c, v| {
        c.clk_period_ps = n32(v);
    });
}

#[test]
fn the_host_write_throughput_is_nonzero() {
    range("host_write_bytes_per_cycle", &[1, 64], &[0], |c, v| {
        c.host_write_bytes_per_cycle = n32(v);
    });
}

#[test]
fn the_deadline_lag_is_within_the_timer_slack() {
    // Default timer_slack 64 (protocol.md §6.4: TimerSlack = NumSlots).
    range("deadline_lag", &[0, 63, 64], &[65, 1000], |c, v| {
        c.deadline_lag = v;
    });
}

#[test]
fn the_receive_crypto_latency_is_within_its_bound() {
    // Default rx_crypto_max 200.
    range(
        "rx_crypto_latency",
        &[0, 199, 200],
        &[201, 10_000],
        |c, v| {
            c.rx_crypto_latency = v;
        },
    );
}

#[test]
fn a_hold_that_does_not_fit_32_bits_is_refused() {
    // 2e9 cycles of 4 ns are 8e9 ns of server timeout alone, past u32::MAX (~4.29e9) ns.
    let c = NicConfig {
        server_timeout: 2_000_000_000,
        ..NicConfig::default()
    };
    assert_eq!(c.hold_ns(), u32::MAX, "saturated");
    assert!(refused_for(&c, "hold_ns"), "{:?}", c.validate());
    // 1e9 cycles (4e9 ns, x 1.0004 = 4.0016e9 ns) still fit.
    let c = NicConfig {
        server_timeout: 1_000_000_000,
        ..NicConfig::default()
    };
    assert!(c.hold_ns() < u32::MAX);
    assert_eq!(c.validate(), Ok(()));
}

#[test]
fn the_hold_and_bound_of_the_defaults_are_the_protocol_table() {
    // protocol.md §6.4 at the defaults: Hold_s = 2000 + 200 + Drain 1088 + 250 = 3538 cycles;
    // hold_ns = ceil(3538 x 4 ns x 1.0004) = ceil(14157.66) = 14158.
    let c = NicConfig::default();
    assert_eq!(c.hold_ns(), 14_158);
    // WRITE bound 2500 + 5000 - 1 + 3553 + 64 + 1088 + 250 = 12454 > READ bound
    // 2500 + 5000 + 64 + 2 x (1088 + 250) = 10240.
    assert_eq!(c.completion_bound(), 12_454);
    // op_timeout 20000: READ 2500 + 20000 + 64 + 2676 = 25240, WRITE
    // 2500 + 20000 - 1 + 3553 + 64 + 1338 = 27454.
    let c = NicConfig {
        op_timeout: 20_000,
        ..NicConfig::default()
    };
    assert_eq!(c.completion_bound(), 27_454);
    // A slow host write channel: drain = 65536 B / 1 B per cycle + 64 = 65600, so the READ bound
    // 2500 + 5000 + 64 + 2 x (65600 + 250) = 139264 exceeds the WRITE bound
    // 2500 + 5000 - 1 + 3553 + 64 + 65600 + 250 = 76966.
    let c = NicConfig {
        host_write_bytes_per_cycle: 1,
        ..NicConfig::default()
    };
    assert_eq!(c.completion_bound(), 139_264);
}

#[test]
fn timing_carries_each_parameter() {
    // Every value distinct, so a field copied from the wrong parameter shows.
    let c = NicConfig {
        clk_period_ps: 3_001,
        dispatch_timeout: 3_002,
        op_timeout: 3_003,
        server_timeout: 3_004,
        rx_crypto_max: 3_005,
        host_write_max: 3_006,
        host_write_bytes_per_cycle: 3_007,
        window_lines: 3_008,
        num_slots: 1_009,
        timer_slack: 3_010,
        max_hold_ns: 3_011,
        ..NicConfig::default()
    };
    assert_eq!(
        c.timing(),
        Timing {
            clk_period_ps: 3_001,
            dispatch_timeout: 3_002,
            op_timeout: 3_003,
            server_timeout: 3_004,
            rx_crypto_max: 3_005,
            host_write_max: 3_006,
            host_write_bytes_per_cycle: 3_007,
            window_lines: 3_008,
            num_slots: 1_009,
            timer_slack: 3_010,
            max_hold_ns: 3_011,
        }
    );
}
