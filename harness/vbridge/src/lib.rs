//! Build-time Verilator bridge: verilate a top, generate a safe Rust handle.
//!
//! Used from a `build.rs`: [`build_all`] runs Verilator 5 on each [`TopSpec`], compiles the
//! generated C++ plus a small shim with the `cc` crate, archives everything into one static
//! library and writes `models.rs`, which the crate `include!`s. See `docs/verilator-bridge.md`.

mod codegen;
pub mod header;

pub use header::{Dir, Port, Storage, parse_ports};

use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;

/// One Verilated top: which SV module, from which files, with which parameters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TopSpec {
    /// Model name: the Rust module in `models.rs` and the Verilator prefix `V<name>`.
    pub name: String,
    /// SystemVerilog module used as `--top-module`.
    pub top: String,
    /// Source files, relative to the repository root, in compile order.
    pub sources: Vec<String>,
    /// Top-level parameter overrides (`-G<k>=<v>`).
    pub params: BTreeMap<String, String>,
    /// Preprocessor defines (`-D<def>`, `NAME` or `NAME=value`).
    pub defines: Vec<String>,
    /// Cargo feature of the consuming crate that enables this top.
    pub group: String,
    /// Built with `--trace-fst`, so that `Model::trace_start` can write FST waves. Off for most
    /// tops: the wave code was about 30 % of a model's C++ time (`nic_default`: 70 s of 235 s of
    /// compile) and only the NIC tops' rig and `onerma replay` write waves. A build script can
    /// turn it on for every top (onerma-rtl's feature `waves`).
    pub waves: bool,
}

/// Everything that can go wrong while building or running a bridged model.
#[derive(Debug, thiserror::Error)]
pub enum BridgeError {
    #[error("I/O error on {path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("cannot run `{cmd}` (is it installed? try `cargo xtask install`): {source}")]
    Spawn {
        cmd: String,
        #[source]
        source: std::io::Error,
    },
    #[error("`{cmd}` failed ({status}):\n{output}")]
    Tool {
        cmd: String,
        status: String,
        output: String,
    },
    #[error("{path}: invalid top spec: {why}")]
    SpecFile { path: PathBuf, why: String },
    #[error("top `{top}`: {why}")]
    Spec { top: String, why: String },
    #[error("model header line {line}: {why}: `{text}`")]
    Header {
        line: usize,
        text: String,
        why: String,
    },
    #[error("C++ build of `{top}` failed: {message}")]
    Compile { top: String, message: String },
    #[error("cannot open trace file {path}")]
    Trace { path: PathBuf },
    #[error(
        "model `{model}` was built without waves: set `\"waves\": true` in its top spec, or \
         build with onerma-rtl's feature `waves` (every top)"
    )]
    NoWaves { model: String },
    #[error(
        "model `{model}`: a simulation assertion failed in cycle {cycle} (the %Error line \
         printed by Verilator names it)"
    )]
    Assertion { model: String, cycle: u64 },
}

fn io_err(path: &Path) -> impl FnOnce(std::io::Error) -> BridgeError + '_ {
    move |source| BridgeError::Io {
        path: path.to_path_buf(),
        source,
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SpecFile {
    /// FuseSoC core (`onerma:common:fifo`) whose target gives the top and the sources.
    core: String,
    #[serde(default = "sim_target")]
    target: String,
    #[serde(default)]
    params: BTreeMap<String, serde_json::Value>,
    #[serde(default)]
    defines: Vec<String>,
    group: String,
    #[serde(default)]
    waves: bool,
}

fn sim_target() -> String {
    "sim".into()
}

/// Read every `*.json` top spec in `dir` (model name = file stem), sorted by name. Each names a
/// core of `cores` and a target (default `sim`); the target gives the top module, the source
/// files in compile order, and parameters and defines under the spec's own.
///
/// Parameter values may be JSON strings (passed verbatim) or numbers.
pub fn load_specs(dir: &Path, cores: &onerma_cores::Library) -> Result<Vec<TopSpec>, BridgeError> {
    let mut specs = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(io_err(dir))? {
        let path = entry.map_err(io_err(dir))?.path();
        if path.extension().and_then(|e| e.to_str()) != Some("json") {
            continue;
        }
        let bad = |why: String| BridgeError::SpecFile {
            path: path.clone(),
            why,
        };
        let name = path
            .file_stem()
            .and_then(|s| s.to_str())
            .ok_or_else(|| bad("file name is not UTF-8".into()))?
            .to_string();
        let text = std::fs::read_to_string(&path).map_err(io_err(&path))?;
        let f: SpecFile = serde_json::from_str(&text).map_err(|e| bad(e.to_string()))?;
        let r = cores
            .resolve(&f.core, &f.target)
            .map_err(|e| bad(e.to_string()))?;
        let top = r.toplevel.clone().ok_or_else(|| {
            bad(format!(
                "target `{}` of `{}` has no toplevel",
                f.target, f.core
            ))
        })?;
        let mut params = r.params.clone();
        for (k, v) in f.params {
            let v = match v {
                serde_json::Value::String(s) => s,
                serde_json::Value::Number(n) => n.to_string(),
                other => return Err(bad(format!("param `{k}`: unsupported value {other}"))),
            };
            params.insert(k, v);
        }
        let mut defines = r.defines.clone();
        defines.extend(f.defines);
        specs.push(TopSpec {
            name,
            top,
            sources: r.sources(),
            params,
            defines,
            group: f.group,
            waves: f.waves,
        });
    }
    specs.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(specs)
}

/// Flags shared by every C++ compile; part of the cache key.
const CXX_FLAGS: &[&str] = &["-std=c++17", "-faligned-new", "-w"];
/// Optimisation of the Verilator runtime (built once, shared by every model).
const OPT_FAST: u32 = 2;

/// How hard the C++ compiler optimises a model's per-cycle code (`*.cpp` other than the slow and
/// trace files); part of the cache key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ModelOpt {
    /// `-O1`: the builds of the tests (`cargo xtask test`, the demo). About half the C++ time of
    /// `-O2` (the small `nic` top's per-cycle files: 17.9 s against 33.2 s on 2 cores); an
    /// earlier measurement put it about 15 % slower to simulate, yet the suite's tests ran no
    /// slower (81 s against 80 s; docs/verilator-bridge.md).
    Test,
    /// `-O2`: the builds of the benchmarks (any `bench` feature of onerma-rtl), which the
    /// figures of docs/performance.md are measured on.
    Bench,
}

impl ModelOpt {
    fn level(self) -> u32 {
        match self {
            ModelOpt::Test => 1,
            ModelOpt::Bench => 2,
        }
    }
}
/// Verilator's `*__Slow.cpp` files (construction, initial evaluation, trace declarations) run
/// once per model, and `verilated.mk` compiles them unoptimised (`OPT_SLOW` is empty). At `-O2`
/// they were 60 % of a crypto top's C++ time (`seal_default`: 115 s of 180 s, 24 s at `-O0`).
/// The `*__Trace__N.cpp` files (the per-cycle wave dump) are built the same way: they run only
/// while waves are written (`onerma replay`), and at `-O2` `seal_default`'s 3.4 MB trace file
/// took 43 s (13 s at `-O0`).
const OPT_SLOW: u32 = 0;
/// `--assert`: simulation assertions (the stream rules of onerma_stream_check among them) are
/// compiled in and on by default, and a failure reaches Rust through `try_tick` / a panic of
/// `tick`; a benchmark switches them off at run time (`Model::set_assertions(false)`), which
/// leaves one predictable branch per check, so one build serves both and nothing is compiled
/// twice.
/// `-O3 --x-assign fast --x-initial fast`: Verilator's fastest code (docs/performance.md).
const VERILATOR_FLAGS: &[&str] = &[
    "--cc",
    "-Wall",
    "--assert",
    "-O3",
    "--x-assign",
    "fast",
    "--x-initial",
    "fast",
];
/// Added for a top with `waves` ([`TopSpec::waves`]). FST (GTKWave, Surfer): compressed, so a
/// whole multi-NIC run's waves stay small.
const WAVES_FLAG: &str = "--trace-fst";
const RUNTIME_SOURCES: &[&str] = &[
    "verilated.cpp",
    "verilated_threads.cpp",
    "verilated_fst_c.cpp",
];
/// Bump when `build_top`/`base_build` change how a model is built in a way the flag lists do
/// not capture. The generators are fingerprinted in full below.
const CACHE_VERSION: &str = "3";
/// The generators' source: a change to the shim or header parser invalidates every cached model.
const SELF_FINGERPRINT: &[&str] = &[
    CACHE_VERSION,
    include_str!("codegen.rs"),
    include_str!("header.rs"),
];

/// FNV-1a 64: stable across Rust versions, unlike `DefaultHasher`, and enough for a cache key.
struct Fnv(u64);
impl Fnv {
    fn new() -> Self {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
    fn add(&mut self, bytes: &[u8]) {
        // Length prefix so that ("ab","c") and ("a","bc") differ.
        for b in (bytes.len() as u64).to_le_bytes().iter().chain(bytes) {
            self.0 ^= u64::from(*b);
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }
    fn hex(&self) -> String {
        format!("{:016x}", self.0)
    }
}

fn run(cmd: &mut Command) -> Result<String, BridgeError> {
    let shown = format!("{cmd:?}");
    let out = cmd.output().map_err(|source| BridgeError::Spawn {
        cmd: shown.clone(),
        source,
    })?;
    let mut text = String::from_utf8_lossy(&out.stdout).into_owned();
    text.push_str(&String::from_utf8_lossy(&out.stderr));
    if !out.status.success() {
        return Err(BridgeError::Tool {
            cmd: shown,
            status: out.status.to_string(),
            output: text,
        });
    }
    Ok(text)
}

struct Toolchain {
    version: String,
    root: PathBuf,
}

fn toolchain() -> Result<Toolchain, BridgeError> {
    let version = run(Command::new("verilator").arg("--version"))?
        .trim()
        .to_string();
    let root =
        PathBuf::from(run(Command::new("verilator").args(["--getenv", "VERILATOR_ROOT"]))?.trim());
    Ok(Toolchain { version, root })
}

fn base_build(tc: &Toolchain, obj_dir: &Path, opt: u32) -> cc::Build {
    let mut b = cc::Build::new();
    b.cpp(true)
        .opt_level(opt)
        .debug(false)
        .warnings(false)
        .extra_warnings(false)
        .cargo_metadata(false)
        .out_dir(obj_dir)
        .include(tc.root.join("include"))
        .include(tc.root.join("include").join("vltstd"));
    for f in CXX_FLAGS {
        b.flag(f);
    }
    // Same switches verilated.mk passes; the runtime and the model must agree on them.
    for (k, v) in [
        ("VM_COVERAGE", "0"),
        ("VM_SC", "0"),
        ("VM_TRACE", "1"),
        ("VM_TRACE_FST", "1"),
        ("VM_TRACE_VCD", "0"),
    ] {
        b.define(k, v);
    }
    b
}

const OBJ_LIST: &str = "objects.txt";

/// Where built models live. Model objects do not depend on the cargo profile (the C++ flags are
/// fixed), so the cache sits next to the profile dirs and `cargo clippy` (dev) and
/// `cargo test --release` share one build of each model instead of compiling it twice.
fn cache_root(out_dir: &Path) -> PathBuf {
    let mut up = out_dir.ancestors();
    // OUT_DIR = <target>/<profile>/build/<pkg>-<hash>/out
    match (up.nth(2), up.nth(1)) {
        (Some(build), Some(target)) if build.file_name().is_some_and(|n| n == "build") => {
            target.join("onerma-vbridge-cache")
        }
        _ => out_dir.join("onerma-vbridge-cache"),
    }
}

/// Content-addressed cache entry `<cache>/<label>-<key>`: built in a private temporary dir and
/// renamed into place when complete, so concurrent or interrupted builds never see half an
/// entry. Returns the entry dir and its object files.
fn cached_entry(
    cache: &Path,
    label: &str,
    key: &str,
    build: impl FnOnce(&Path) -> Result<Vec<PathBuf>, BridgeError>,
) -> Result<(PathBuf, Vec<PathBuf>), BridgeError> {
    let entry = cache.join(format!("{label}-{key}"));
    if let Some(objs) = read_entry(&entry) {
        return Ok((entry, objs));
    }
    let tmp = cache.join(format!("{label}-{key}.tmp{}", std::process::id()));
    fresh_dir(&tmp)?;
    let objs = build(&tmp)?;
    let rel: Vec<String> = objs
        .iter()
        .map(|o| o.strip_prefix(&tmp).unwrap_or(o).display().to_string())
        .collect();
    let list = tmp.join(OBJ_LIST);
    std::fs::write(&list, rel.join("\n")).map_err(io_err(&list))?;
    if std::fs::rename(&tmp, &entry).is_err() {
        // Another build finished the same entry first; theirs is identical.
        let _ = std::fs::remove_dir_all(&tmp);
    }
    prune(cache, label, key);
    read_entry(&entry)
        .map(|objs| (entry.clone(), objs))
        .ok_or_else(|| BridgeError::Compile {
            top: label.to_string(),
            message: format!("cache entry {} incomplete after build", entry.display()),
        })
}

fn read_entry(entry: &Path) -> Option<Vec<PathBuf>> {
    let list = std::fs::read_to_string(entry.join(OBJ_LIST)).ok()?;
    let objs: Vec<PathBuf> = list.lines().map(|l| entry.join(l)).collect();
    objs.iter().all(|o| o.is_file()).then_some(objs)
}

/// Drop older entries of the same label so edits do not grow the cache without bound.
fn prune(cache: &Path, label: &str, key: &str) {
    let Ok(rd) = std::fs::read_dir(cache) else {
        return;
    };
    for e in rd.flatten() {
        let name = e.file_name();
        let Some(rest) = name.to_str().and_then(|n| n.strip_prefix(label)) else {
            continue;
        };
        let Some(k) = rest.strip_prefix('-') else {
            continue;
        };
        if k != key && k.len() == 16 && k.bytes().all(|b| b.is_ascii_hexdigit()) {
            let _ = std::fs::remove_dir_all(e.path());
        }
        // Leftovers of killed builds: the temporary dir of a process that no longer exists.
        if let Some((_, pid)) = k.split_once(".tmp")
            && pid != std::process::id().to_string()
            && Path::new("/proc/self").exists()
            && !Path::new("/proc").join(pid).exists()
        {
            let _ = std::fs::remove_dir_all(e.path());
        }
    }
}

fn fresh_dir(dir: &Path) -> Result<(), BridgeError> {
    if dir.exists() {
        std::fs::remove_dir_all(dir).map_err(io_err(dir))?;
    }
    std::fs::create_dir_all(dir).map_err(io_err(dir))
}

fn build_runtime(tc: &Toolchain, cache: &Path) -> Result<Vec<PathBuf>, BridgeError> {
    let mut h = Fnv::new();
    h.add(tc.version.as_bytes());
    h.add(CXX_FLAGS.join(" ").as_bytes());
    h.add(&OPT_FAST.to_le_bytes());
    // The sources and the trace format: the FST runtime is not the VCD one.
    h.add(RUNTIME_SOURCES.join(" ").as_bytes());
    h.add(VERILATOR_FLAGS.join(" ").as_bytes());
    h.add(WAVES_FLAG.as_bytes());
    let (_, objs) = cached_entry(cache, "_verilated_runtime", &h.hex(), |dir| {
        let mut b = base_build(tc, &dir.join("obj"), OPT_FAST);
        for f in RUNTIME_SOURCES {
            b.file(tc.root.join("include").join(f));
        }
        b.try_compile_intermediates()
            .map_err(|e| BridgeError::Compile {
                top: "verilator runtime".into(),
                message: e.to_string(),
            })
    })?;
    Ok(objs)
}

struct Built {
    spec: TopSpec,
    ports: Vec<Port>,
    objects: Vec<PathBuf>,
}

fn is_ident(s: &str) -> bool {
    let mut c = s.chars();
    matches!(c.next(), Some(f) if f.is_ascii_lowercase() || f == '_')
        && c.all(|x| x.is_ascii_lowercase() || x.is_ascii_digit() || x == '_')
}

fn build_top(
    tc: &Toolchain,
    repo_root: &Path,
    spec: &TopSpec,
    cache: &Path,
    opt: ModelOpt,
) -> Result<Built, BridgeError> {
    let mut h = Fnv::new();
    h.add(format!("{spec:?}").as_bytes());
    h.add(tc.version.as_bytes());
    h.add(VERILATOR_FLAGS.join(" ").as_bytes());
    h.add(WAVES_FLAG.as_bytes());
    h.add(CXX_FLAGS.join(" ").as_bytes());
    h.add(&opt.level().to_le_bytes());
    h.add(&OPT_SLOW.to_le_bytes());
    for s in SELF_FINGERPRINT {
        h.add(s.as_bytes());
    }
    for src in &spec.sources {
        let p = repo_root.join(src);
        h.add(&std::fs::read(&p).map_err(io_err(&p))?);
    }
    let header = format!("V{}.h", spec.name);
    let (entry, objects) = cached_entry(cache, &spec.name, &h.hex(), |dir| {
        let t = std::time::Instant::now();
        let objs = verilate_and_compile(tc, repo_root, spec, dir, opt)?;
        // Plain stdout of a build script (target/<profile>/build/<pkg>-*/output): the build
        // time of each model, for finding the ones that dominate a clean build.
        println!(
            "onerma-vbridge: built {} in {:.1} s",
            spec.name,
            t.elapsed().as_secs_f64()
        );
        Ok(objs)
    })?;
    let header_path = entry.join(&header);
    let text = std::fs::read_to_string(&header_path).map_err(io_err(&header_path))?;
    Ok(Built {
        spec: spec.clone(),
        ports: parse_ports(&text)?,
        objects,
    })
}

fn verilate_and_compile(
    tc: &Toolchain,
    repo_root: &Path,
    spec: &TopSpec,
    dir: &Path,
    opt: ModelOpt,
) -> Result<Vec<PathBuf>, BridgeError> {
    let mut cmd = Command::new("verilator");
    cmd.current_dir(repo_root).args(VERILATOR_FLAGS);
    if spec.waves {
        cmd.arg(WAVES_FLAG);
    }
    cmd.arg("--prefix")
        .arg(format!("V{}", spec.name))
        .arg("--top-module")
        .arg(&spec.top);
    let mut incdirs: Vec<String> = spec
        .sources
        .iter()
        .filter_map(|s| Path::new(s).parent())
        .map(|p| p.display().to_string())
        .filter(|p| !p.is_empty())
        .collect();
    incdirs.sort();
    incdirs.dedup();
    for d in incdirs {
        cmd.arg(format!("+incdir+{d}"));
    }
    for (k, v) in &spec.params {
        cmd.arg(format!("-G{k}={v}"));
    }
    for d in &spec.defines {
        cmd.arg(format!("-D{d}"));
    }
    cmd.arg("-Mdir").arg(dir).args(&spec.sources);
    run(&mut cmd)?;
    let header_path = dir.join(format!("V{}.h", spec.name));
    let text = std::fs::read_to_string(&header_path).map_err(io_err(&header_path))?;
    let ports = parse_ports(&text)?;
    codegen::check_names(&spec.name, &ports)?;
    let shim = dir.join("onerma_shim.cpp");
    std::fs::write(&shim, codegen::cpp_shim(&spec.name, &ports, spec.waves))
        .map_err(io_err(&shim))?;
    let mut cpp: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(io_err(dir))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().and_then(|e| e.to_str()) == Some("cpp"))
        .collect();
    cpp.sort();
    let (slow, fast): (Vec<PathBuf>, Vec<PathBuf>) = cpp.into_iter().partition(|p| {
        p.file_stem()
            .and_then(|s| s.to_str())
            .is_some_and(|s| s.ends_with("__Slow") || s.contains("__Trace__"))
    });
    let mut objs = Vec::new();
    for (files, opt, kind) in [(fast, opt.level(), "fast"), (slow, OPT_SLOW, "slow")] {
        if files.is_empty() {
            continue;
        }
        let units = unity_units(dir, &files, kind)?;
        let mut b = base_build(tc, &dir.join("obj"), opt);
        b.include(dir);
        b.files(&units);
        objs.extend(
            b.try_compile_intermediates()
                .map_err(|e| BridgeError::Compile {
                    top: spec.name.clone(),
                    message: e.to_string(),
                })?,
        );
    }
    Ok(objs)
}

/// Source bytes per translation unit of a model's C++ (see [`unity_units`]).
const UNITY_BYTES: u64 = 6 << 20;

/// Group Verilator's `.cpp` files into translation units of about [`UNITY_BYTES`] each, as
/// `verilated.mk` does for a design without `--output-split` (its `__ALL.cpp` includes every
/// file). Every file parses `verilated.h` and the model's headers, about 0.7 s of g++ each, which
/// was most of a small top's build (a FIFO: 7.2 s in 8 files, 1.7 s in 2 units). Over the
/// suite's 73 models (781 files) the summed build time fell from 1,093 s to 633 s. The large tops
/// keep several units so their compile still spreads over the cores.
fn unity_units(dir: &Path, files: &[PathBuf], kind: &str) -> Result<Vec<PathBuf>, BridgeError> {
    let mut groups: Vec<Vec<&Path>> = Vec::new();
    let mut size = 0;
    for f in files {
        let len = std::fs::metadata(f).map_err(io_err(f))?.len();
        if groups.is_empty() || size + len > UNITY_BYTES {
            groups.push(Vec::new());
            size = 0;
        }
        size += len;
        if let Some(g) = groups.last_mut() {
            g.push(f);
        }
    }
    let mut units = Vec::new();
    for (i, g) in groups.iter().enumerate() {
        let unit = dir.join(format!("onerma_unity_{kind}_{i}.cpp"));
        let mut text = String::from("// Generated by onerma-vbridge: one translation unit.\n");
        for f in g {
            let name =
                f.file_name()
                    .and_then(|n| n.to_str())
                    .ok_or_else(|| BridgeError::Compile {
                        top: dir.display().to_string(),
                        message: format!("non-UTF-8 file name {}", f.display()),
                    })?;
            text.push_str(&format!("#include \"{name}\"\n"));
        }
        std::fs::write(&unit, text).map_err(io_err(&unit))?;
        units.push(unit);
    }
    Ok(units)
}

fn validate(specs: &[TopSpec]) -> Result<(), BridgeError> {
    let mut names = std::collections::BTreeSet::new();
    for s in specs {
        let bad = |why: &str| BridgeError::Spec {
            top: s.name.clone(),
            why: why.to_string(),
        };
        if !is_ident(&s.name) {
            return Err(bad("model name must be lower_snake_case [a-z0-9_]"));
        }
        if !names.insert(&s.name) {
            return Err(bad("duplicate model name"));
        }
        if s.top.is_empty() || s.sources.is_empty() {
            return Err(bad("`top` and `sources` must be non-empty"));
        }
        if s.sources.iter().any(|p| Path::new(p).is_absolute()) {
            return Err(bad("sources must be relative to the repository root"));
        }
    }
    Ok(())
}

enum Job<'a> {
    Runtime,
    Top(&'a TopSpec),
}

enum Done {
    Runtime(Vec<PathBuf>),
    Top(Box<Built>),
}

/// Verilate and compile every spec (in parallel, skipping unchanged tops), link them into the
/// calling crate and write `out_dir/models.rs`. Returns the path of `models.rs`.
///
/// Must be called from a build script: it prints `cargo:` directives and relies on the
/// environment cargo gives build scripts (`TARGET`, `HOST`, ...).
pub fn build_all(
    repo_root: &Path,
    specs: &[TopSpec],
    out_dir: &Path,
    opt: ModelOpt,
) -> Result<PathBuf, BridgeError> {
    validate(specs)?;
    for s in specs {
        for src in &s.sources {
            println!("cargo:rerun-if-changed={}", repo_root.join(src).display());
        }
    }
    let models_rs = out_dir.join("models.rs");
    let mut text =
        String::from("// Generated by onerma-vbridge from the top specs. Do not edit.\n\n");
    text.push_str(&format!(
        "/// The C++ optimisation level of the models' per-cycle code (`-O1` for tests, `-O2` for\n\
         /// benchmark builds; onerma_vbridge::ModelOpt).\n\
         pub const MODEL_OPT_LEVEL: u32 = {};\n\n",
        opt.level()
    ));
    if specs.is_empty() {
        std::fs::write(&models_rs, text).map_err(io_err(&models_rs))?;
        return Ok(models_rs);
    }
    let tc = toolchain()?;
    let cache = cache_root(out_dir);
    std::fs::create_dir_all(&cache).map_err(io_err(&cache))?;
    // Largest tops first (source count as the size estimate): with a few workers a big model
    // started last would otherwise run alone at the end of a clean build.
    let mut by_size: Vec<&TopSpec> = specs.iter().collect();
    by_size.sort_by_key(|s| std::cmp::Reverse(s.sources.len()));
    let jobs: Vec<Job> = std::iter::once(Job::Runtime)
        .chain(by_size.into_iter().map(Job::Top))
        .collect();
    let workers = std::env::var("NUM_JOBS")
        .ok()
        .and_then(|n| n.parse::<usize>().ok())
        .or_else(|| std::thread::available_parallelism().ok().map(|n| n.get()))
        .unwrap_or(1)
        .clamp(1, jobs.len());
    let queue = Mutex::new(jobs.into_iter());
    let results: Mutex<Vec<Result<Done, BridgeError>>> = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| {
                loop {
                    let job = match queue.lock() {
                        Ok(mut q) => q.next(),
                        Err(_) => None,
                    };
                    let Some(job) = job else { break };
                    let r = match job {
                        Job::Runtime => build_runtime(&tc, &cache).map(Done::Runtime),
                        Job::Top(s) => build_top(&tc, repo_root, s, &cache, opt)
                            .map(|b| Done::Top(Box::new(b))),
                    };
                    if let Ok(mut v) = results.lock() {
                        v.push(r);
                    }
                }
            });
        }
    });
    let results = results.into_inner().map_err(|_| BridgeError::Compile {
        top: "(all)".into(),
        message: "a build worker panicked".into(),
    })?;
    let mut objects = Vec::new();
    let mut built = Vec::new();
    for r in results {
        match r? {
            Done::Runtime(o) => objects.extend(o),
            Done::Top(b) => built.push(*b),
        }
    }
    built.sort_by(|a, b| a.spec.name.cmp(&b.spec.name));
    for b in &built {
        objects.extend(b.objects.iter().cloned());
        text.push_str(&codegen::rust_module(&b.spec.name, &b.spec.top, &b.ports));
        text.push('\n');
    }
    // One archive for runtime + all models: the linker then resolves shim -> model ->
    // runtime inside a single archive regardless of link order.
    let ar = base_build(&tc, out_dir, OPT_FAST);
    let lib = ar
        .try_create_archive("onerma_vmodels", &objects)
        .map_err(|e| BridgeError::Compile {
            top: "(archive)".into(),
            message: e.to_string(),
        })?;
    let mut link = base_build(&tc, out_dir, OPT_FAST);
    link.cargo_metadata(true);
    cc::try_emit_link_directives(&link, &lib).map_err(|e| BridgeError::Compile {
        top: "(link)".into(),
        message: e.to_string(),
    })?;
    // The FST writer (verilated_fst_c.cpp, GTKWave's fstapi) compresses with zlib.
    println!("cargo:rustc-link-lib=z");
    std::fs::write(&models_rs, text).map_err(io_err(&models_rs))?;
    Ok(models_rs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv_is_stable_and_length_prefixed() {
        let mut a = Fnv::new();
        a.add(b"ab");
        a.add(b"c");
        let mut b = Fnv::new();
        b.add(b"a");
        b.add(b"bc");
        assert_ne!(a.hex(), b.hex());
        let mut c = Fnv::new();
        c.add(b"");
        // FNV-1a of eight zero bytes (the length prefix of ""): fixed forever.
        let mut expect: u64 = 0xcbf2_9ce4_8422_2325;
        for _ in 0..8 {
            expect = expect.wrapping_mul(0x0100_0000_01b3);
        }
        assert_eq!(c.hex(), format!("{expect:016x}"));
    }

    #[test]
    fn validate_rejects_bad_specs() {
        let ok = TopSpec {
            name: "probe".into(),
            top: "m".into(),
            sources: vec!["rtl/m.sv".into()],
            params: BTreeMap::new(),
            defines: vec![],
            group: "common".into(),
            waves: false,
        };
        assert!(validate(std::slice::from_ref(&ok)).is_ok());
        let mut bad = ok.clone();
        bad.name = "Probe".into();
        assert!(validate(&[bad]).is_err());
        assert!(validate(&[ok.clone(), ok.clone()]).is_err());
        let mut abs = ok;
        abs.sources = vec!["/abs.sv".into()];
        assert!(validate(&[abs]).is_err());
    }

    #[test]
    fn generated_rust_has_masked_setters_and_wide_arrays() {
        let ports = parse_ports(
            "VL_IN8(&clk_i,0,0);\nVL_IN8(&rst_ni,0,0);\nVL_IN8(&en_i,2,0);\nVL_INW(&w_i,99,0,4);\nVL_OUT64(&q_o,63,0);",
        )
        .expect("parse");
        let rs = codegen::rust_module("probe", "onerma_probe", &ports);
        assert!(rs.contains("pub fn set_en_i(&mut self, v: u8)"));
        assert!(rs.contains("v & 0x7"));
        assert!(rs.contains("pub fn set_w_i(&mut self, v: &[u32; 4])"));
        assert!(rs.contains("w[3] &= 0xf;"));
        assert!(rs.contains("pub fn q_o(&self) -> u64"));
        assert!(!rs.contains("set_q_o"));
        assert!(rs.contains("pub fn tick(&mut self)"));
        assert!(rs.contains("pub fn set_assertions(&mut self, on: bool)"));
        for waves in [false, true] {
            let shim = codegen::cpp_shim("probe", &ports, waves);
            assert!(shim.contains("assertOn(on != 0)"));
            assert!(shim.contains("case 4: return"), "every port in the table");
            // Only a model with waves touches the FST writer (its symbols exist only then).
            assert_eq!(shim.contains("VerilatedFstC"), waves);
            assert_eq!(shim.contains("traceEverOn"), waves);
        }
        assert!(rs.contains("-2 => Err(onerma_vbridge::BridgeError::NoWaves"));
        assert!(rs.contains("pub fn reset(&mut self, cycles: u32)"));
        let comb = parse_ports("VL_IN8(&a_i,0,0);\nVL_OUT8(&y_o,0,0);").expect("parse");
        let rs = codegen::rust_module("comb", "c", &comb);
        assert!(!rs.contains("fn tick"));
        assert!(!rs.contains("fn reset"));
    }

    #[test]
    fn cache_is_shared_between_profiles() {
        let d = cache_root(Path::new("/t/debug/build/onerma-rtl-1/out"));
        let r = cache_root(Path::new("/t/release/build/onerma-rtl-2/out"));
        assert_eq!(d, Path::new("/t/onerma-vbridge-cache"));
        assert_eq!(d, r);
        assert_eq!(
            cache_root(Path::new("/x/out")),
            Path::new("/x/out/onerma-vbridge-cache")
        );
    }

    #[test]
    fn accessor_clash_is_rejected() {
        let ports = parse_ports("VL_IN8(&tick,0,0);").expect("parse");
        assert!(codegen::check_names("m", &ports).is_err());
    }
}
