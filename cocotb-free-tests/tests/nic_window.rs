//! `onerma_window` against a reference of what landed in each chunk (protocol.md §5).
//!
//! Random jobs (one chunk of an owner, 1..=CHUNK_BYTES / 16 beats of 16 bytes) land interleaved, as the GCM
//! pool's dout gives them: in words of `LANES` beats (beat 0 in the top bits), a partial last
//! word zero-filled as the pool's lanes give it; a finished job is dropped or read out. The line allocator is played by
//! the test (random free lines, random refusals of a take). Checked: a line is taken only for a
//! chunk's 1st, 5th, 9th, ... beat (every word when a word is a line); a released line is one the window holds, released once, and
//! only by the unwind of the chunk that holds it; an unwind releases exactly the chunk's lines
//! and reports done; a readout gives exactly the landed bytes, in order, in AXI lane order,
//! ceil(bytes / width) beats with `last` on the final one; every line is free at the end.

use onerma_rtl_tests::bits::be_to_words;
use proptest::prelude::*;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use std::collections::{HashMap, VecDeque};

trait Dut {
    const LINES: usize;
    const OWNERS: usize;
    const WIDTH: usize;
    /// 16-byte beats per landing word (`LandLanes`).
    const LANES: usize;
    fn fresh() -> Self;
    fn eval(&mut self);
    fn tick(&mut self);
    fn drive(&mut self, d: &Drive);
    fn sample(&self) -> Sample;
}

#[derive(Default, Clone)]
struct Drive {
    /// (owner, chunk, word bytes: 16 x LANES, byte 0 first).
    land: Option<(usize, usize, Vec<u8>)>,
    take_ready: bool,
    take_line: usize,
    uw: Option<(usize, usize, bool)>,
    out_ready: bool,
}

struct Sample {
    land_ready: bool,
    take_valid: bool,
    rel: Option<usize>,
    uw_ready: bool,
    uw_done: Option<(usize, usize)>,
    out: Option<(Vec<u8>, bool)>,
}

/// Port words in AXI lane order (byte 0 in bits 7:0) as bytes.
fn lane_bytes(w: &[u32]) -> Vec<u8> {
    w.iter().flat_map(|x| x.to_le_bytes()).collect()
}

macro_rules! dut {
    ($m:ident, $lines:expr, $owners:expr, $width:expr, $lanes:expr) => {
        impl Dut for onerma_rtl::$m::Model {
            const LINES: usize = $lines;
            const OWNERS: usize = $owners;
            const WIDTH: usize = $width;
            const LANES: usize = $lanes;
            onerma_rtl_tests::model_basics!(onerma_rtl::$m::Model);
            fn drive(&mut self, d: &Drive) {
                let (lo, lc, ld) = d.land.clone().unwrap_or((0, 0, vec![0; 16 * $lanes]));
                self.set_land_valid_i(u8::from(d.land.is_some()));
                self.set_land_owner_i(lo as _);
                self.set_land_chunk_i(lc as _);
                // Byte 0 of the word in the top bits: beat 0 first, each in GCM order.
                self.set_land_data_i(&be_to_words::<{ 4 * $lanes }>(&ld));
                self.set_take_ready_i(u8::from(d.take_ready));
                self.set_take_line_i(d.take_line as _);
                let (uo, uc, ur) = d.uw.unwrap_or((0, 0, false));
                self.set_uw_valid_i(u8::from(d.uw.is_some()));
                self.set_uw_owner_i(uo as _);
                self.set_uw_chunk_i(uc as _);
                self.set_uw_read_i(u8::from(ur));
                self.set_out_ready_i(u8::from(d.out_ready));
            }
            fn sample(&self) -> Sample {
                Sample {
                    land_ready: self.land_ready_o() != 0,
                    take_valid: self.take_valid_o() != 0,
                    rel: (self.rel_valid_o() != 0).then(|| self.rel_line_o() as usize),
                    uw_ready: self.uw_ready_o() != 0,
                    uw_done: (self.uw_done_o() != 0).then(|| {
                        (
                            self.uw_done_owner_o() as usize,
                            self.uw_done_chunk_o() as usize,
                        )
                    }),
                    out: (self.out_valid_o() != 0)
                        .then(|| (lane_bytes(&self.out_data_o()), self.out_last_o() != 0)),
                }
            }
        }
    };
}

dut!(window, 128, 8, 128, 1);
dut!(window_w256, 128, 4, 256, 1);
dut!(window_default, 1024, 64, 512, 1);
dut!(window_l4, 128, 8, 512, 4);

/// A chunk's state in the reference.
#[derive(Default)]
struct Chunk {
    /// Words still to land (the job's remainder).
    todo: VecDeque<Vec<u8>>,
    /// Bytes landed so far.
    landed: Vec<u8>,
    /// Lines the window took for this chunk.
    lines: Vec<usize>,
    /// Unwinding: Some(read).
    unwinding: Option<bool>,
    released: usize,
    /// A job owns the chunk (from its start until it was dropped or read out).
    active: bool,
}

/// `p_land`, `p_take`, `p_out`: percent of cycles willing.
#[allow(clippy::too_many_lines)]
fn run<D: Dut>(
    seed: u64,
    jobs: usize,
    p_land: u32,
    p_take: u32,
    p_out: u32,
) -> Result<u64, TestCaseError> {
    let mut rng = StdRng::seed_from_u64(seed);
    let bw = D::WIDTH / 8;
    let mut dut = D::fresh();
    let mut free: Vec<usize> = (0..D::LINES).collect();
    free.shuffle(&mut rng);
    let mut holder: HashMap<usize, (usize, usize)> = HashMap::new();
    let mut chunks: HashMap<(usize, usize), Chunk> = HashMap::new();
    let mut started = 0usize;
    let mut finished = 0usize;
    // Landing offer held until taken (the stream rule): (owner, chunk, beat).
    let mut land_held: Option<(usize, usize, Vec<u8>)> = None;
    let mut uw_queue: VecDeque<(usize, usize, bool)> = VecDeque::new();
    // Reads accepted, in order, with the bytes read out so far.
    let mut reading: VecDeque<((usize, usize), Vec<u8>)> = VecDeque::new();
    // Lines the started jobs will hold until released (the allocator's reservation).
    let mut reserved = 0usize;
    let mut cycle = 0u64;
    while finished < jobs {
        cycle += 1;
        if cycle >= 100_000 {
            let busy: Vec<String> = chunks
                .iter()
                .filter(|(_, c)| c.active)
                .map(|(k, c)| {
                    format!(
                        "{k:?}: todo {} landed {} lines {} released {} unwinding {:?}",
                        c.todo.len(),
                        c.landed.len() / 16,
                        c.lines.len(),
                        c.released,
                        c.unwinding
                    )
                })
                .collect();
            return Err(TestCaseError::fail(format!(
                "no progress: {finished} of {jobs} jobs; started {started}; uw queue {uw_queue:?}; \
                 reads {}; land held {:?}; chunks {busy:?}",
                reading.len(),
                land_held.as_ref().map(|(o, c, _)| (*o, *c))
            )));
        }
        // Start jobs on idle chunks while the window has room for them.
        if started < jobs && rng.random_range(0..4) == 0 {
            let key = (
                rng.random_range(0..D::OWNERS),
                rng.random_range(0..onerma_layouts::MAX_CHUNKS),
            );
            let c = chunks.entry(key).or_default();
            let beats = rng.random_range(1..=onerma_layouts::CHUNK_BYTES / 16);
            let words = beats.div_ceil(D::LANES);
            let lines = (words * D::LANES).div_ceil(4);
            if !c.active && reserved + lines <= D::LINES {
                reserved += lines;
                c.active = true;
                // The last word's beats past the job's end are zero, as the pool's packer
                // fills them; the window counts and reads them like the others.
                c.todo = (0..words)
                    .map(|w| {
                        (0..D::LANES)
                            .flat_map(|k| {
                                let b: [u8; 16] = if w * D::LANES + k < beats {
                                    rng.random()
                                } else {
                                    [0; 16]
                                };
                                b
                            })
                            .collect()
                    })
                    .collect();
                started += 1;
            }
        }
        let mut d = Drive {
            take_ready: rng.random_range(0..100) < p_take,
            take_line: free.last().copied().unwrap_or(0),
            out_ready: rng.random_range(0..100) < p_out,
            ..Drive::default()
        };
        if land_held.is_none() && rng.random_range(0..100) < p_land {
            let ready: Vec<(usize, usize)> = chunks
                .iter()
                .filter(|(_, c)| !c.todo.is_empty())
                .map(|(k, _)| *k)
                .collect();
            if let Some(&k) = ready.get(rng.random_range(0..ready.len().max(1))) {
                let word = chunks.get_mut(&k).and_then(|c| c.todo.pop_front());
                land_held = word.map(|b| (k.0, k.1, b));
            }
        }
        d.land = land_held.clone();
        if free.is_empty() {
            d.take_ready = false;
        }
        d.uw = uw_queue.front().copied();
        dut.drive(&d);
        dut.eval();
        let s = dut.sample();
        // Landing and the take.
        if let Some((o, ch, b)) = &d.land {
            let (o, ch) = (*o, *ch);
            let c = chunks
                .get_mut(&(o, ch))
                .ok_or_else(|| TestCaseError::fail("chunk"))?;
            let want_take = c.landed.len() % 64 == 0;
            prop_assert_eq!(
                s.take_valid,
                want_take,
                "take on beat {}",
                c.landed.len() / 16
            );
            prop_assert_eq!(s.land_ready, !want_take || d.take_ready);
            if s.land_ready {
                if want_take {
                    let line = free.pop().ok_or_else(|| TestCaseError::fail("no line"))?;
                    prop_assert!(holder.insert(line, (o, ch)).is_none());
                    c.lines.push(line);
                }
                c.landed.extend_from_slice(b);
                land_held = None;
                if c.todo.is_empty() {
                    // The job landed whole: drop or read it out.
                    uw_queue.push_back((o, ch, rng.random()));
                }
            }
        } else {
            prop_assert!(!s.take_valid, "take without a landing beat");
        }
        // Unwind requests.
        if let Some((o, ch, read)) = d.uw
            && s.uw_ready
        {
            uw_queue.pop_front();
            let c = chunks
                .get_mut(&(o, ch))
                .ok_or_else(|| TestCaseError::fail("chunk"))?;
            c.unwinding = Some(read);
            if read {
                reading.push_back(((o, ch), Vec::new()));
            }
        }
        // Releases: a line the window holds, for the chunk being unwound.
        if let Some(line) = s.rel {
            let owner = holder
                .remove(&line)
                .ok_or_else(|| TestCaseError::fail(format!("line {line} released, not held")))?;
            let c = chunks
                .get_mut(&owner)
                .ok_or_else(|| TestCaseError::fail("chunk"))?;
            prop_assert!(
                c.unwinding.is_some(),
                "line {} of {:?} released unasked",
                line,
                owner
            );
            prop_assert_eq!(c.lines[c.released], line, "lines released out of order");
            c.released += 1;
            reserved -= 1;
            free.insert(rng.random_range(0..=free.len()), line);
        }
        if let Some(k) = s.uw_done {
            let c = chunks
                .get_mut(&k)
                .ok_or_else(|| TestCaseError::fail("done of unknown"))?;
            prop_assert!(c.unwinding.is_some(), "done without unwind {:?}", k);
            prop_assert_eq!(
                c.released,
                c.lines.len(),
                "done before every line of {:?}",
                k
            );
            if c.unwinding == Some(false) {
                *c = Chunk::default();
                finished += 1;
            }
        }
        // Readout.
        if let Some((bytes, last)) = s.out
            && d.out_ready
        {
            let ((o, ch), got) = reading
                .front_mut()
                .ok_or_else(|| TestCaseError::fail("readout beat without a read"))?;
            got.extend_from_slice(&bytes);
            let c = chunks
                .get_mut(&(*o, *ch))
                .ok_or_else(|| TestCaseError::fail("chunk"))?;
            let want_beats = c.landed.len().div_ceil(bw);
            prop_assert_eq!(last, got.len() / bw == want_beats, "last flag");
            if last {
                prop_assert_eq!(&got[..c.landed.len()], &c.landed[..], "readout bytes");
                prop_assert_eq!(c.released, c.lines.len());
                *c = Chunk::default();
                reading.pop_front();
                finished += 1;
            }
        }
        dut.tick();
    }
    prop_assert!(
        holder.is_empty(),
        "lines still held at the end: {}",
        holder.len()
    );
    prop_assert_eq!(free.len(), D::LINES);
    Ok(cycle)
}

fn pct() -> impl Strategy<Value = u32> {
    prop_oneof![Just(100u32), 30u32..100]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 16, ..ProptestConfig::default() })]

    #[test]
    fn small(seed in any::<u64>(), pl in pct(), pt in pct(), po in pct()) {
        run::<onerma_rtl::window::Model>(seed, 60, pl, pt, po)?;
    }

    #[test]
    fn width_256(seed in any::<u64>(), pl in pct(), pt in pct(), po in pct()) {
        run::<onerma_rtl::window_w256::Model>(seed, 40, pl, pt, po)?;
    }

    /// Words of 4 beats (a whole line) land, as the GCM pool's words at 512 bits.
    #[test]
    fn words_of_a_line(seed in any::<u64>(), pl in pct(), pt in pct(), po in pct()) {
        run::<onerma_rtl::window_l4::Model>(seed, 60, pl, pt, po)?;
    }

    #[test]
    fn default_config(seed in any::<u64>(), pl in pct(), pt in pct(), po in pct()) {
        run::<onerma_rtl::window_default::Model>(seed, 60, pl, pt, po)?;
    }
}
