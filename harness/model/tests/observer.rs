//! The observer (docs/model.md, "Observer") as a checker: a model NIC standing in for a device
//! passes it, and each planted fault in that NIC's outputs is a divergence naming the field.

use std::sync::{Arc, Mutex};

use onerma_layouts::{Hdr, MsgType};
use onerma_model::workload::{ClientSpec, PolicyKind, RateSpec, Runner, Scenario};
use onerma_model::{FabricConfig, Nic, NicConfig, Outputs, WritePurpose};

/// NIC 0 is the device: observed, serving READs and WRITEs of NIC 1 and issuing its own.
fn scenario(seed: u64, crypto_latency: u64, random: bool) -> Scenario {
    Scenario {
        seed,
        nics: 2,
        nic: NicConfig {
            num_slots: 8,
            num_regions: 16,
            rx_crypto_latency: crypto_latency,
            ..NicConfig::default()
        },
        fabric: FabricConfig {
            seed,
            latency: 150,
            bytes_per_cycle: 50,
            jitter_mean: 20.0,
            ..FabricConfig::default()
        },
        served_regions: 2,
        region_bytes: 8 * 1024,
        // Two classes of service, so dispatches are forced from both.
        clients: vec![
            ClientSpec {
                every_nic: true,
                slots: 4,
                read: 2,
                write: 1,
                sizes: vec![1, 64, 1000, 4096],
                rate: RateSpec::ClosedLoop { think: 3 },
                ..ClientSpec::default()
            },
            ClientSpec {
                every_nic: true,
                slots: 2,
                cos: 1,
                read: 1,
                write: 1,
                sizes: vec![100, 2000],
                rate: RateSpec::ClosedLoop { think: 10 },
                ..ClientSpec::default()
            },
        ],
        duration: 20_000,
        policy: if random {
            PolicyKind::Random
        } else {
            PolicyKind::Default
        },
        observe: vec![0],
        ..Scenario::default()
    }
}

type Fault = Box<dyn FnMut(u64, &mut Outputs, &mut Nic) -> bool + Send>;

/// Runs the scenario with `fault` planted on NIC 0 (it returns true once it fired) and returns
/// the divergences and whether the fault fired.
fn run(mut fault: Fault) -> (Vec<String>, bool) {
    let mut r = Runner::new(&scenario(7, 40, false)).expect("scenario");
    let fired = Arc::new(Mutex::new(false));
    let f2 = Arc::clone(&fired);
    r.system.set_tamper(Box::new(move |nic, now, out, n| {
        let mut done = f2.lock().expect("lock");
        if nic == 0 && !*done {
            *done = fault(now, out, n);
        }
    }));
    r.run();
    let fired = *fired.lock().expect("lock");
    (r.stats.divergences.clone(), fired)
}

fn hdr(f: &[u8]) -> Hdr {
    Hdr::from_bytes(&f[..Hdr::BYTES]).expect("header")
}

/// The device's DMA writes of this cycle with a purpose.
fn new_writes<'a>(
    n: &'a mut Nic,
    now: u64,
    purpose: impl Fn(&WritePurpose) -> bool + 'a,
) -> impl Iterator<Item = &'a mut onerma_model::HostWrite> + 'a {
    n.mem_mut()
        .and_then(|m| m.log.as_mut())
        .into_iter()
        .flat_map(|l| l.iter_mut())
        .filter(move |w| w.issued == now && purpose(&w.purpose))
}

fn assert_caught(divs: &[String], fired: bool, what: &str) {
    assert!(fired, "the fault never fired");
    assert_eq!(divs.len(), 1, "{divs:#?}");
    assert!(
        divs[0].contains(what),
        "expected a divergence on `{what}`: {divs:#?}"
    );
}

#[test]
fn a_model_device_passes_the_observer() {
    for (seed, lat, random) in [(1, 0, false), (2, 120, true), (3, 200, false), (4, 7, true)] {
        let st = onerma_model::run_scenario(&scenario(seed, lat, random)).expect("run");
        assert!(st.divergences.is_empty(), "{:#?}", st.divergences);
        // Every kind of output was checked, in numbers.
        assert!(st.observed.iter().all(|&n| n > 20), "{:?}", st.observed);
        assert!(st.bytes_read_ok > 0 && st.bytes_written_ok > 0, "{st:?}");
    }
}

#[test]
fn a_flipped_payload_bit_is_a_tag_divergence() {
    let (d, fired) = run(Box::new(|_, out, _| {
        for f in &mut out.messages {
            if hdr(f).msg_type == MsgType::RdResp {
                f[Hdr::BYTES + 3] ^= 0x10;
                return true;
            }
        }
        false
    }));
    assert_caught(&d, fired, "RdResp frame tag");
}

#[test]
fn a_wrong_header_field_is_named() {
    let (d, fired) = run(Box::new(|_, out, _| {
        for f in &mut out.messages {
            let mut h = hdr(f);
            if h.msg_type == MsgType::RdResp {
                h.offset += 1;
                f[..Hdr::BYTES].copy_from_slice(&h.to_bytes().expect("hdr"));
                return true;
            }
        }
        false
    }));
    assert_caught(&d, fired, "field offset");
}

#[test]
fn a_reused_counter_is_caught() {
    let mut last = None;
    let (d, fired) = run(Box::new(move |_, out, _| {
        for f in &mut out.messages {
            let mut h = hdr(f);
            if let Some(c) = last {
                h.counter = c;
                f[..Hdr::BYTES].copy_from_slice(&h.to_bytes().expect("hdr"));
                return true;
            }
            last = Some(h.counter);
        }
        false
    }));
    assert_caught(&d, fired, "frame counter");
}

#[test]
fn a_missing_frame_is_caught_at_its_deadline() {
    let (d, fired) = run(Box::new(|_, out, _| {
        let n = out.messages.len();
        out.messages.retain(|f| hdr(f).msg_type != MsgType::WrCmpl);
        out.messages.len() != n
    }));
    assert_caught(&d, fired, "WrCmpl");
}

#[test]
fn read_data_at_the_wrong_offset_is_caught() {
    let (d, fired) = run(Box::new(|now, _, n| {
        let mut hit = false;
        for w in new_writes(n, now, |p| matches!(p, WritePurpose::ReadData { .. })) {
            w.addr += 64;
            hit = true;
        }
        hit
    }));
    assert_caught(&d, fired, "host write");
}

#[test]
fn a_changed_landing_byte_is_caught() {
    let (d, fired) = run(Box::new(|now, _, n| {
        if let Some(w) =
            new_writes(n, now, |p| matches!(p, WritePurpose::RemoteWrite { .. })).next()
        {
            w.data[0] ^= 1;
            return true;
        }
        false
    }));
    assert_caught(&d, fired, "host write byte");
}

#[test]
fn a_wrong_status_or_delay_in_a_record_is_caught() {
    for (field, what) in [(1usize, "status"), (12, "total_delay")] {
        let (d, fired) = run(Box::new(move |now, _, n| {
            if let Some(w) =
                new_writes(n, now, |p| matches!(p, WritePurpose::Completion { .. })).next()
            {
                // Byte 1 is the status (Cpl is big-endian from bit 127), byte 12 in total_delay.
                w.data[field] ^= 0x04;
                return true;
            }
            false
        }));
        assert_caught(&d, fired, what);
    }
}

#[test]
fn a_missing_record_is_caught() {
    let (d, fired) = run(Box::new(|now, _, n| {
        let Some(log) = n.mem_mut().and_then(|m| m.log.as_mut()) else {
            return false;
        };
        let k = log.len();
        log.retain(|w| !(w.issued == now && matches!(w.purpose, WritePurpose::Completion { .. })));
        log.len() != k
    }));
    // The slot's next record, at the same address, is then taken for the missing one.
    assert_caught(&d, fired, "record of slot");
}

#[test]
fn a_read_outside_every_service_is_caught() {
    let (d, fired) = run(Box::new(|now, _, n| {
        let Some(log) = n.mem_mut().and_then(|m| m.read_log.as_mut()) else {
            return false;
        };
        match log.iter().rposition(|r| r.issued == now) {
            Some(i) => {
                let mut r = log[i].clone();
                r.addr = 0x7777_0000;
                log.push(r);
                true
            }
            None => false,
        }
    }));
    assert_caught(&d, fired, "host read");
}

#[test]
fn an_ok_record_with_a_landing_missing_is_caught() {
    // The device drops one chunk's landing write but still completes OK.
    let (d, fired) = run(Box::new(|now, _, n| {
        let Some(log) = n.mem_mut().and_then(|m| m.log.as_mut()) else {
            return false;
        };
        let k = log.len();
        if let Some(i) = log
            .iter()
            .position(|w| w.issued == now && matches!(w.purpose, WritePurpose::ReadData { .. }))
        {
            log.remove(i);
        }
        log.len() != k
    }));
    assert_caught(&d, fired, "with an output missing");
}

#[test]
fn a_write_whose_data_never_left_is_caught() {
    // The device never sends one WR_DATA: owed long before the op's deadline, it is missing
    // when due (a TIMEOUT later would not excuse it).
    let (d, fired) = run(Box::new(|_, out, _| {
        let n = out.messages.len();
        if let Some(i) = out
            .messages
            .iter()
            .position(|f| hdr(f).msg_type == MsgType::WrData)
        {
            out.messages.remove(i);
        }
        out.messages.len() != n
    }));
    assert_caught(&d, fired, "expected WrData");
}

/// A device whose receive-crypto latency (120 cycles) the observer does not know (its shadow
/// checks tags at once, as the RTL rigs' do), with forged copies of frames (one bit flipped under
/// the tag) arriving 75 cycles ahead of the genuine ones: the device drops a genuine copy that
/// comes while the forged one is pending (protocol §7.4), the shadow would accept it. Returns
/// the divergences and the observer's (held, held and then accepted) counts.
fn unknown_latency(seed: u64, tag_skew: u64) -> (Vec<String>, u64, u64) {
    let mut sc = scenario(seed, 120, false);
    sc.observe.clear();
    sc.fabric.jitter_mean = 5.0;
    sc.fabric.forge_body = 0.05;
    let mut r = Runner::new(&sc).expect("scenario");
    let shadow_cfg = NicConfig {
        rx_crypto_latency: 0,
        ..r.system.nics[0].config().clone()
    };
    let oc = onerma_model::ObserverConfig {
        tag_skew,
        ..onerma_model::ObserverConfig::for_nic(&shadow_cfg)
    };
    r.system.observe_with(0, &shadow_cfg, oc).expect("observer");
    r.run();
    // An observer that found a divergence has stopped.
    let (held, accepted) = r
        .system
        .observer(0)
        .map_or((0, 0), |o| (o.stats().held, o.stats().held_accepted));
    (r.stats.divergences.clone(), held, accepted)
}

#[test]
fn a_copy_behind_a_pending_forged_one_is_held_until_the_device_shows_its_choice() {
    let (mut held, mut accepted) = (0, 0);
    for seed in 1..=40 {
        let (divs, h, a) = unknown_latency(seed, 200);
        assert!(divs.is_empty(), "seed {seed}: {divs:#?}");
        (held, accepted) = (held + h, accepted + a);
    }
    // Both outcomes happened: copies the device dropped and copies it took.
    assert!(
        accepted > 0 && held > accepted,
        "held {held}, accepted {accepted}: the runs did not test both outcomes"
    );
    println!("held {held}, of them accepted {accepted}");
    // Without the skew the shadow accepts what the device dropped.
    let (divs, _, _) = unknown_latency(11, 0);
    assert!(
        divs.first()
            .is_some_and(|d| d.contains("completion record") && d.contains("expected Ok")),
        "a shadow without the tag skew passed, or failed otherwise: {divs:#?}"
    );
}
