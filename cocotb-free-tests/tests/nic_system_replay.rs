//! The saved op streams (issue 17): every `regressions/*.json` stream file (format in
//! docs/verification.md; written by `tests/nic_system_streams.rs` when a stream fails, after
//! shrinking) runs again on the RTL system and must now pass: setup, every step, drain, every
//! observer finished. An empty directory passes. `onerma replay FILE` runs one with waves.

use std::path::Path;

use onerma_rtl_tests::nic_streams::{SavedStream, replay, stream_files};

#[test]
fn saved_streams_pass() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("regressions");
    let files = stream_files(&dir).unwrap_or_else(|e| panic!("{e}"));
    let mut failed = Vec::new();
    for f in &files {
        let saved = SavedStream::load(f).unwrap_or_else(|e| panic!("{e}"));
        let t = std::time::Instant::now();
        let (r, res) = replay(&saved, |_| {});
        let cycles = r.as_ref().map_or(0, |r| r.cycle());
        println!(
            "{}: {} steps on {:?}, {cycles} cycles, {:.1} s: {}",
            f.display(),
            saved.steps.len(),
            saved.system,
            t.elapsed().as_secs_f64(),
            res.as_ref()
                .map_or_else(|e| format!("FAILED: {e}"), |()| "ok".into())
        );
        if let Err(e) = res {
            failed.push(format!("{}: {e}", f.display()));
        }
    }
    println!("{} saved stream(s) replayed", files.len());
    assert!(
        failed.is_empty(),
        "saved streams failed:\n{}",
        failed.join("\n")
    );
}
