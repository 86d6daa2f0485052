//! The repository's own cores: every target of every core resolves, each file belongs to one
//! core, and the trees the tools rely on hold what they must.

use onerma_cores::Library;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn lib() -> Library {
    Library::load(&repo()).expect("the repository's cores load")
}

#[test]
fn every_target_of_every_core_resolves() {
    let lib = lib();
    let mut n = 0;
    for c in lib.cores() {
        assert!(
            c.targets.contains_key("default"),
            "{}: no default target",
            c.name
        );
        for t in c.targets.keys() {
            let r = lib
                .resolve(&c.name, t)
                .unwrap_or_else(|e| panic!("{} {t}: {e}", c.name));
            assert_eq!(r.cores.last(), Some(&c.name));
            if t != "default" {
                assert!(r.toplevel.is_some(), "{} {t}: no toplevel", c.name);
            }
            n += 1;
        }
    }
    assert!(n > 60, "only {n} targets");
}

#[test]
fn each_file_belongs_to_one_core() {
    let lib = lib();
    let mut owner: BTreeMap<String, String> = BTreeMap::new();
    for c in lib.cores() {
        for f in c.own_files() {
            if let Some(o) = owner.insert(f.clone(), c.name.clone()) {
                panic!("{f} is listed by {o} and {}", c.name);
            }
        }
    }
    assert_eq!(
        owner.get("rtl/common/onerma_fifo.sv").map(String::as_str),
        Some("onerma:common:fifo")
    );
    // Every SystemVerilog file of the RTL, the FPGA shells and the proofs has a core.
    for dir in [
        "rtl",
        "rtl/common",
        "rtl/crypto",
        "fpga",
        "fpga/ecp5",
        "formal",
    ] {
        for e in std::fs::read_dir(repo().join(dir)).expect("dir") {
            let p = e.expect("entry").path();
            if p.extension().and_then(|x| x.to_str()) == Some("sv") {
                let rel = format!(
                    "{dir}/{}",
                    p.file_name().and_then(|n| n.to_str()).expect("name")
                );
                assert!(owner.contains_key(&rel), "{rel} belongs to no core");
            }
        }
    }
}

#[test]
fn fifo_sim_is_the_fifo_and_its_stream_checker() {
    let r = lib()
        .resolve("onerma:common:fifo", "sim")
        .expect("resolves");
    assert_eq!(
        r.sources(),
        [
            "rtl/common/onerma_stream_check.sv",
            "rtl/common/onerma_fifo.sv"
        ]
    );
    assert_eq!(r.toplevel.as_deref(), Some("onerma_fifo"));
}

#[test]
fn packages_come_before_their_users() {
    let r = lib()
        .resolve("onerma:crypto:gcm_pool", "sim")
        .expect("resolves");
    let s = r.sources();
    let at = |f: &str| {
        s.iter()
            .position(|x| x == f)
            .unwrap_or_else(|| panic!("{f}"))
    };
    assert!(at("rtl/crypto/onerma_aes_pkg.sv") < at("rtl/crypto/onerma_aes_sbox.sv"));
    assert!(at("rtl/crypto/onerma_gf128_pkg.sv") < at("rtl/crypto/onerma_ghash.sv"));
    assert_eq!(
        s.last().map(String::as_str),
        Some("rtl/crypto/onerma_gcm_pool.sv")
    );
}

#[test]
fn ecp5_variant_swaps_only_the_rom_primitive() {
    let lib = lib();
    let generic = lib
        .resolve("onerma:crypto:aes_core", "synth")
        .expect("resolves")
        .sources();
    let ecp5 = lib
        .resolve("onerma:crypto:aes_core", "synth_ecp5")
        .expect("resolves")
        .sources();
    let only = |a: &[String], b: &[String]| -> Vec<String> {
        a.iter().filter(|f| !b.contains(f)).cloned().collect()
    };
    assert_eq!(only(&generic, &ecp5), ["rtl/crypto/onerma_aes_sbox_rom.sv"]);
    assert_eq!(
        only(&ecp5, &generic),
        ["fpga/ecp5/DP16KD.sv", "fpga/ecp5/onerma_aes_sbox_rom.sv"]
    );
    // The proof reads the DP16KD model instead of the black box.
    let f = lib
        .resolve("onerma:crypto:aes_sbox_pair", "formal_ecp5")
        .expect("resolves")
        .sources();
    assert!(f.contains(&"formal/onerma_dp16kd_model.sv".to_string()));
    assert!(!f.contains(&"fpga/ecp5/DP16KD.sv".to_string()));
}

#[test]
fn pool_proof_reads_abstract_engines_and_fifo_invariants() {
    let s = lib()
        .resolve("onerma:crypto:gcm_pool", "formal")
        .expect("resolves")
        .sources();
    assert!(s.contains(&"formal/onerma_fifo_flags.sv".to_string()));
    assert!(s.contains(&"formal/onerma_gcm_engine_abstract.sv".to_string()));
    assert!(
        !s.iter()
            .any(|f| f.contains("gcm_engine.sv") || f.contains("aes"))
    );
    assert!(!s.contains(&"formal/onerma_fifo_props.sv".to_string()));
}
