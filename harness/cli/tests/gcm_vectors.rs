//! `onerma gcm-vectors` on our own vector file (cocotb-free-tests/vectors/gcm_small.json, made
//! with RustCrypto; see cocotb-free-tests/tests/gcm.rs), on a corrupted copy and on a bad file.

use std::path::PathBuf;
use std::process::Command;

fn vectors() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../cocotb-free-tests/vectors/gcm_small.json")
}

fn onerma(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_onerma"))
        .args(args)
        .output()
        .expect("run onerma");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// (cases the engine runs, skipped cases), counted from the file itself.
fn counts(text: &str) -> (usize, usize) {
    let v: serde_json::Value = serde_json::from_str(text).expect("json");
    let mut run = 0;
    let mut skipped = 0;
    for g in v["testGroups"].as_array().expect("groups") {
        let n = g["tests"].as_array().expect("tests").len();
        if (
            g["keySize"].as_u64(),
            g["ivSize"].as_u64(),
            g["tagSize"].as_u64(),
        ) == (Some(128), Some(96), Some(128))
        {
            run += n;
        } else {
            skipped += n;
        }
    }
    (run, skipped)
}

#[test]
fn small_file_passes() {
    let text = std::fs::read_to_string(vectors()).expect("vector file");
    let (run, skipped) = counts(&text);
    assert!(run > 10 && skipped > 0);
    let (code, out, err) = onerma(&["gcm-vectors", vectors().to_str().expect("utf-8 path")]);
    assert_eq!(code, 0, "stdout:\n{out}\nstderr:\n{err}");
    assert!(
        out.contains(&format!("{run} passed, 0 failed, {skipped} skipped")),
        "{out}"
    );
    assert!(out.contains("skipped: keySize 256"), "{out}");
}

#[test]
fn corrupted_case_is_reported() {
    let text = std::fs::read_to_string(vectors()).expect("vector file");
    let mut v: serde_json::Value = serde_json::from_str(&text).expect("json");
    // Turn the first valid case's tag wrong while keeping it marked valid: the engine's tag then
    // differs on encryption and the decryption is rejected, so the case must fail.
    let t = &mut v["testGroups"][0]["tests"][0];
    let id = t["tcId"].as_u64().expect("tcId");
    let tag = t["tag"].as_str().expect("tag").to_string();
    let flipped = if tag.starts_with('0') { "1" } else { "0" };
    t["tag"] = serde_json::Value::String(format!("{flipped}{}", &tag[1..]));
    let dir = std::env::temp_dir().join(format!("onerma-gcm-vectors-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("corrupt.json");
    std::fs::write(&path, serde_json::to_string(&v).expect("json")).expect("write");
    let (code, out, _) = onerma(&["gcm-vectors", path.to_str().expect("utf-8 path")]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains(&format!("FAIL tcId {id}: encrypt: tag differs")),
        "{out}"
    );
    assert!(out.contains(", 1 failed,"), "{out}");

    std::fs::write(&path, "{\"testGroups\": 3}").expect("write");
    let (code, out, err) = onerma(&["gcm-vectors", path.to_str().expect("utf-8 path")]);
    assert_eq!(code, 2, "{out}{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
