//! The block manifests of onerma: FuseSoC CAPI2 `.core` files beside the RTL.
//!
//! One job: read the subset of CAPI2 the repository uses and resolve `core` + `target` to the
//! ordered source files, the top-level module, its parameters and defines, the way FuseSoC
//! resolves them (so `fusesoc run` and every xtask command see the same files):
//!
//! - the selected target applies to the named core; every dependency uses its `default` target;
//! - the use flags are the selected target's `flags`, plus `target_<name>` and `tool_<tool>`
//!   (from `default_tool`); they apply to every core of the tree (`flag ? (...)` expressions in
//!   target `filesets` and fileset `depend` lists, see [`expr`]);
//! - dependencies come before the cores that depend on them (depth first, in `depend` order),
//!   each core once; files keep their fileset order; paths are relative to the core file.
//!
//! The subset is strict: an unknown key, a missing target or fileset, an unknown dependency, a
//! dependency cycle, a file that does not exist or a core named twice is an error.

pub mod expr;

use serde::Deserialize;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Component, Path, PathBuf};

#[derive(Debug, thiserror::Error)]
pub enum CoreError {
    #[error("I/O error on {path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{path}: {why}")]
    Parse { path: PathBuf, why: String },
    #[error("core `{core}`: {why}")]
    Core { core: String, why: String },
    #[error("no core named `{0}`")]
    Unknown(String),
}

fn io_err(path: &Path) -> impl FnOnce(std::io::Error) -> CoreError + '_ {
    move |source| CoreError::Io {
        path: path.to_path_buf(),
        source,
    }
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileAttrs {
    #[serde(default)]
    file_type: Option<String>,
    #[serde(default)]
    is_include_file: bool,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(untagged)]
enum FileEntry {
    Plain(String),
    WithAttrs(BTreeMap<String, FileAttrs>),
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct Fileset {
    #[serde(default)]
    files: Vec<FileEntry>,
    #[serde(default)]
    file_type: Option<String>,
    #[serde(default)]
    depend: Vec<String>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct Parameter {
    datatype: String,
    paramtype: String,
    #[serde(default)]
    default: Option<serde_yaml::Value>,
    #[serde(default)]
    #[allow(dead_code)]
    description: Option<String>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Target {
    #[serde(default)]
    pub description: Option<String>,
    #[serde(default)]
    pub default_tool: Option<String>,
    #[serde(default)]
    pub toplevel: Option<String>,
    #[serde(default)]
    filesets: Vec<String>,
    #[serde(default)]
    parameters: Vec<String>,
    #[serde(default)]
    pub flags: BTreeMap<String, bool>,
    /// Tool options, read by FuseSoC only.
    #[serde(default)]
    #[allow(dead_code)]
    tools: Option<serde_yaml::Value>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct CoreFile {
    name: String,
    #[serde(default)]
    description: Option<String>,
    #[serde(default)]
    filesets: BTreeMap<String, Fileset>,
    #[serde(default)]
    parameters: BTreeMap<String, Parameter>,
    #[serde(default)]
    targets: BTreeMap<String, Target>,
}

/// One parsed `.core` file.
#[derive(Debug, Clone)]
pub struct Core {
    /// `vendor:library:name` (the version, if any, is not part of it).
    pub name: String,
    pub description: Option<String>,
    /// The `.core` file, relative to the repository root.
    pub path: PathBuf,
    filesets: BTreeMap<String, Fileset>,
    parameters: BTreeMap<String, Parameter>,
    pub targets: BTreeMap<String, Target>,
}

/// A source file of a resolved target.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SourceFile {
    /// Relative to the repository root, `/`-separated.
    pub path: String,
    pub file_type: Option<String>,
    pub is_include_file: bool,
}

/// What a tool needs to build `core` for `target`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resolved {
    pub core: String,
    pub target: String,
    pub toplevel: Option<String>,
    /// Dependencies first.
    pub files: Vec<SourceFile>,
    /// `vlogparam` parameters the target sets (`NAME=value` or the parameter's default).
    pub params: BTreeMap<String, String>,
    /// `vlogdefine` parameters the target sets, as `NAME` or `NAME=value`.
    pub defines: Vec<String>,
    /// The cores of the tree, dependencies first.
    pub cores: Vec<String>,
    /// Their `.core` files, relative to the repository root.
    pub manifests: Vec<PathBuf>,
}

impl Resolved {
    /// The paths of the non-include source files, in order.
    pub fn sources(&self) -> Vec<String> {
        self.files
            .iter()
            .filter(|f| !f.is_include_file)
            .map(|f| f.path.clone())
            .collect()
    }

    /// The directories holding include files (for `+incdir+`).
    pub fn include_dirs(&self) -> Vec<String> {
        let mut dirs: Vec<String> = self
            .files
            .iter()
            .filter(|f| f.is_include_file)
            .map(|f| {
                Path::new(&f.path)
                    .parent()
                    .map(|p| p.to_string_lossy().replace('\\', "/"))
                    .unwrap_or_default()
            })
            .collect();
        dirs.sort();
        dirs.dedup();
        dirs
    }
}

/// `vendor:library:name[:version]` -> `vendor:library:name`.
fn vln(vlnv: &str) -> Option<String> {
    let parts: Vec<&str> = vlnv.split(':').collect();
    let ok = |s: &&&str| {
        !s.is_empty()
            && s.chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-' || c == '.')
    };
    match parts.as_slice() {
        [v, l, n] | [v, l, n, _] if [v, l, n].iter().all(ok) => Some(format!("{v}:{l}:{n}")),
        _ => None,
    }
}

/// `a/b/../c` -> `a/c`, without touching the file system; `None` if it leaves the root.
fn normalize(p: &Path) -> Option<PathBuf> {
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    return None;
                }
            }
            Component::Normal(s) => out.push(s),
            Component::RootDir | Component::Prefix(_) => return None,
        }
    }
    Some(out)
}

impl Core {
    /// Parse the text of a `.core` file at `path` (relative to the repository root).
    pub fn parse(path: &Path, text: &str) -> Result<Core, CoreError> {
        let bad = |why: String| CoreError::Parse {
            path: path.to_path_buf(),
            why,
        };
        if !text.starts_with("CAPI=2:") {
            return Err(bad("the first line must be `CAPI=2:`".into()));
        }
        // The header as a comment keeps the YAML parser's line numbers those of the file.
        let body = text.replacen("CAPI=2:", "#", 1);
        let f: CoreFile = serde_yaml::from_str(&body).map_err(|e| bad(e.to_string()))?;
        let name = vln(&f.name)
            .ok_or_else(|| bad(format!("name `{}` is not vendor:library:name", f.name)))?;
        Ok(Core {
            name,
            description: f.description,
            path: path.to_path_buf(),
            filesets: f.filesets,
            parameters: f.parameters,
            targets: f.targets,
        })
    }

    /// Every file any fileset of this core lists (relative to the repository root, sorted): the
    /// files the core owns, whichever target reads them.
    pub fn own_files(&self) -> Vec<String> {
        let mut out: Vec<String> = self
            .filesets
            .values()
            .flat_map(|fs| fs.files.iter())
            .flat_map(|e| match e {
                FileEntry::Plain(p) => vec![p.clone()],
                FileEntry::WithAttrs(m) => m.keys().cloned().collect(),
            })
            .filter_map(|p| normalize(&self.dir().join(p)))
            .map(|p| p.to_string_lossy().replace('\\', "/"))
            .collect();
        out.sort();
        out.dedup();
        out
    }

    fn err(&self, why: String) -> CoreError {
        CoreError::Core {
            core: self.name.clone(),
            why,
        }
    }

    fn dir(&self) -> &Path {
        self.path.parent().unwrap_or(Path::new(""))
    }

    fn target(&self, name: &str) -> Result<&Target, CoreError> {
        self.targets.get(name).ok_or_else(|| {
            self.err(format!(
                "no target `{name}` (has: {})",
                self.targets.keys().cloned().collect::<Vec<_>>().join(", ")
            ))
        })
    }

    /// Filesets selected by `target` under `flags`.
    fn filesets(&self, target: &str, flags: &BTreeSet<String>) -> Result<Vec<&Fileset>, CoreError> {
        let t = self.target(target)?;
        let mut out = Vec::new();
        for e in &t.filesets {
            let names = expr::expand(e, flags)
                .map_err(|why| self.err(format!("target `{target}`: `{e}`: {why}")))?;
            for n in names {
                out.push(self.filesets.get(&n).ok_or_else(|| {
                    self.err(format!("target `{target}` names no fileset `{n}`"))
                })?);
            }
        }
        Ok(out)
    }

    fn param_value(&self, spec: &str) -> Result<(String, String, String), CoreError> {
        let (name, value) = match spec.split_once('=') {
            Some((n, v)) => (n.trim(), Some(v.trim().to_string())),
            None => (spec.trim(), None),
        };
        let p = self
            .parameters
            .get(name)
            .ok_or_else(|| self.err(format!("target sets undeclared parameter `{name}`")))?;
        let value = match value {
            Some(v) => v,
            None => match &p.default {
                Some(serde_yaml::Value::String(s)) => s.clone(),
                Some(serde_yaml::Value::Bool(b)) => b.to_string(),
                Some(serde_yaml::Value::Number(n)) => n.to_string(),
                _ => return Err(self.err(format!("parameter `{name}` has no value"))),
            },
        };
        if !["int", "str", "bool", "file", "real"].contains(&p.datatype.as_str()) {
            return Err(self.err(format!("parameter `{name}`: unknown datatype")));
        }
        Ok((name.to_string(), p.paramtype.clone(), value))
    }
}

/// Every core of the repository, by name.
#[derive(Debug, Clone, Default)]
pub struct Library {
    root: PathBuf,
    cores: BTreeMap<String, Core>,
}

/// Directories never searched for cores: build output and tool installs.
const SKIP_DIRS: &[&str] = &["target", "build", "node_modules"];

fn find_core_files(root: &Path, dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), CoreError> {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .map_err(io_err(dir))?
        .collect::<Result<_, _>>()
        .map_err(io_err(dir))?;
    entries.sort_by_key(|e| e.file_name());
    for e in entries {
        let name = e.file_name();
        let name = name.to_string_lossy();
        let ty = e.file_type().map_err(io_err(&e.path()))?;
        if ty.is_dir() {
            let top_level_skip = dir == root && SKIP_DIRS.contains(&name.as_ref());
            if !name.starts_with('.') && !top_level_skip {
                find_core_files(root, &e.path(), out)?;
            }
        } else if ty.is_file() && name.ends_with(".core") {
            out.push(e.path());
        }
    }
    Ok(())
}

impl Library {
    /// Every `*.core` below `root` (not in hidden directories, `target/`, `build/`).
    pub fn load(root: &Path) -> Result<Library, CoreError> {
        let mut files = Vec::new();
        find_core_files(root, root, &mut files)?;
        let mut lib = Library {
            root: root.to_path_buf(),
            cores: BTreeMap::new(),
        };
        for f in files {
            let text = std::fs::read_to_string(&f).map_err(io_err(&f))?;
            let rel = f.strip_prefix(root).unwrap_or(&f).to_path_buf();
            lib.add(Core::parse(&rel, &text)?)?;
        }
        Ok(lib)
    }

    /// A library of the given cores (tests); files are looked up below `root`.
    pub fn from_cores(root: &Path, cores: Vec<Core>) -> Result<Library, CoreError> {
        let mut lib = Library {
            root: root.to_path_buf(),
            cores: BTreeMap::new(),
        };
        for c in cores {
            lib.add(c)?;
        }
        Ok(lib)
    }

    fn add(&mut self, c: Core) -> Result<(), CoreError> {
        if let Some(old) = self.cores.get(&c.name) {
            return Err(c.err(format!(
                "defined twice: {} and {}",
                old.path.display(),
                c.path.display()
            )));
        }
        self.cores.insert(c.name.clone(), c);
        Ok(())
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    pub fn cores(&self) -> impl Iterator<Item = &Core> {
        self.cores.values()
    }

    pub fn core(&self, name: &str) -> Result<&Core, CoreError> {
        let key = vln(name).unwrap_or_else(|| name.to_string());
        self.cores
            .get(&key)
            .ok_or_else(|| CoreError::Unknown(name.to_string()))
    }

    /// Resolve `core` for `target` (see the crate documentation for the rules).
    pub fn resolve(&self, core: &str, target: &str) -> Result<Resolved, CoreError> {
        let top = self.core(core)?;
        let t = top.target(target)?;
        let mut flags: BTreeSet<String> = t
            .flags
            .iter()
            .filter(|(_, on)| **on)
            .map(|(k, _)| k.clone())
            .collect();
        flags.insert(format!("target_{target}"));
        if let Some(tool) = &t.default_tool {
            flags.insert(format!("tool_{tool}"));
        }
        let mut r = Resolved {
            core: top.name.clone(),
            target: target.to_string(),
            toplevel: t.toplevel.clone(),
            files: Vec::new(),
            params: BTreeMap::new(),
            defines: Vec::new(),
            cores: Vec::new(),
            manifests: Vec::new(),
        };
        let mut visiting = Vec::new();
        let mut done = BTreeSet::new();
        self.visit(top, target, &flags, &mut visiting, &mut done, &mut r)?;
        for spec in &t.parameters {
            let (name, kind, value) = top.param_value(spec)?;
            match kind.as_str() {
                "vlogparam" => {
                    r.params.insert(name, value);
                }
                "vlogdefine" => r.defines.push(match value.as_str() {
                    "true" => name,
                    _ => format!("{name}={value}"),
                }),
                other => {
                    return Err(top.err(format!("parameter `{name}`: paramtype `{other}`")));
                }
            }
        }
        Ok(r)
    }

    fn visit<'a>(
        &'a self,
        core: &'a Core,
        target: &str,
        flags: &BTreeSet<String>,
        visiting: &mut Vec<&'a str>,
        done: &mut BTreeSet<&'a str>,
        r: &mut Resolved,
    ) -> Result<(), CoreError> {
        if done.contains(core.name.as_str()) {
            return Ok(());
        }
        if visiting.contains(&core.name.as_str()) {
            return Err(core.err(format!(
                "dependency cycle: {} -> {}",
                visiting.join(" -> "),
                core.name
            )));
        }
        visiting.push(&core.name);
        let filesets = core.filesets(target, flags)?;
        for fs in &filesets {
            for d in &fs.depend {
                let names = expr::expand(d, flags)
                    .map_err(|why| core.err(format!("depend `{d}`: {why}")))?;
                for n in names {
                    let dep = self.core(&n).map_err(|_| {
                        core.err(format!("depends on `{n}`, which no .core file defines"))
                    })?;
                    self.visit(dep, "default", flags, visiting, done, r)?;
                }
            }
        }
        for fs in &filesets {
            for entry in &fs.files {
                let list: Vec<(String, Option<FileAttrs>)> = match entry {
                    FileEntry::Plain(p) => vec![(p.clone(), None)],
                    FileEntry::WithAttrs(m) => m
                        .iter()
                        .map(|(p, a)| (p.clone(), Some(a.clone())))
                        .collect(),
                };
                for (p, attrs) in list {
                    let path = normalize(&core.dir().join(&p)).ok_or_else(|| {
                        core.err(format!("file `{p}` lies outside the repository"))
                    })?;
                    if !self.root.join(&path).is_file() {
                        return Err(core.err(format!("file `{p}` ({}) not found", path.display())));
                    }
                    let path = path.to_string_lossy().replace('\\', "/");
                    let file_type = attrs
                        .as_ref()
                        .and_then(|a| a.file_type.clone())
                        .or_else(|| fs.file_type.clone());
                    let is_include_file = attrs.is_some_and(|a| a.is_include_file);
                    if !r.files.iter().any(|f| f.path == path) {
                        r.files.push(SourceFile {
                            path,
                            file_type,
                            is_include_file,
                        });
                    }
                }
            }
        }
        visiting.pop();
        done.insert(&core.name);
        r.cores.push(core.name.clone());
        r.manifests.push(core.path.clone());
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A scratch repository with the given files (all empty) and cores.
    fn scratch(files: &[&str], cores: &[(&str, &str)]) -> (PathBuf, Result<Library, CoreError>) {
        let dir = std::env::temp_dir().join(format!(
            "onerma-cores-{}-{}",
            std::process::id(),
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_nanos())
                .unwrap_or(0)
        ));
        for f in files {
            let p = dir.join(f);
            std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
            std::fs::write(&p, "").expect("write");
        }
        for (path, text) in cores {
            let p = dir.join(path);
            std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
            std::fs::write(&p, text).expect("write");
        }
        let lib = Library::load(&dir);
        (dir, lib)
    }

    const A: &str = "CAPI=2:\nname: x:l:a\nfilesets:\n  rtl:\n    files: [a.sv]\n    depend: [x:l:b, \"fast ? (x:l:c)\"]\n\
                     targets:\n  default:\n    filesets: [rtl]\n  sim:\n    filesets: [rtl]\n    toplevel: a\n    parameters: [W=3, D]\n  fast:\n    filesets: [rtl]\n    toplevel: a\n    flags: {fast: true}\n\
                     parameters:\n  W: {datatype: int, paramtype: vlogparam, default: 1}\n  D: {datatype: bool, paramtype: vlogdefine, default: true}\n";
    const B: &str = "CAPI=2:\nname: x:l:b:1.0\nfilesets:\n  rtl:\n    files: [b_pkg.sv, ../sub/b.sv]\ntargets:\n  default:\n    filesets: [rtl]\n";
    const C: &str = "CAPI=2:\nname: x:l:c\nfilesets:\n  rtl:\n    files: [c.sv]\n    depend: [x:l:b]\ntargets:\n  default:\n    filesets: [rtl]\n";

    #[test]
    fn resolves_dependencies_first_with_flags_and_params() {
        let (dir, lib) = scratch(
            &["r/a.sv", "r/b_pkg.sv", "sub/b.sv", "r/c.sv"],
            &[("r/a.core", A), ("r/b.core", B), ("r/c.core", C)],
        );
        let lib = lib.expect("loads");
        let r = lib.resolve("x:l:a", "sim").expect("sim");
        assert_eq!(r.sources(), ["r/b_pkg.sv", "sub/b.sv", "r/a.sv"]);
        assert_eq!(r.toplevel.as_deref(), Some("a"));
        assert_eq!(r.params.get("W").map(String::as_str), Some("3"));
        assert_eq!(r.defines, ["D"]);
        let r = lib.resolve("x:l:a", "fast").expect("fast");
        assert_eq!(r.sources(), ["r/b_pkg.sv", "sub/b.sv", "r/c.sv", "r/a.sv"]);
        assert_eq!(r.cores, ["x:l:b", "x:l:c", "x:l:a"]);
        assert!(matches!(
            lib.resolve("x:l:a", "nope"),
            Err(CoreError::Core { .. })
        ));
        assert!(matches!(
            lib.resolve("x:l:z", "sim"),
            Err(CoreError::Unknown(_))
        ));
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn broken_cores_are_errors() {
        let cycle = "CAPI=2:\nname: x:l:b\nfilesets:\n  rtl:\n    files: [b_pkg.sv]\n    depend: [x:l:a]\ntargets:\n  default:\n    filesets: [rtl]\n";
        let (dir, lib) = scratch(
            &["r/a.sv", "r/b_pkg.sv"],
            &[("r/a.core", A), ("r/b.core", cycle)],
        );
        let e = lib
            .expect("loads")
            .resolve("x:l:a", "sim")
            .expect_err("cycle");
        assert!(e.to_string().contains("cycle"), "{e}");
        let _ = std::fs::remove_dir_all(dir);

        let (dir, lib) = scratch(&["r/a.sv"], &[("r/a.core", A), ("r/b.core", B)]);
        let e = lib
            .expect("loads")
            .resolve("x:l:a", "sim")
            .expect_err("missing file");
        assert!(e.to_string().contains("not found"), "{e}");
        let _ = std::fs::remove_dir_all(dir);

        let (dir, lib) = scratch(&["r/a.sv"], &[("r/a.core", A)]);
        let e = lib
            .expect("loads")
            .resolve("x:l:a", "sim")
            .expect_err("no b");
        assert!(e.to_string().contains("no .core file defines"), "{e}");
        let _ = std::fs::remove_dir_all(dir);

        let typo = A.replace(
            "filesets: [rtl]\n  sim",
            "filesets: [rtl]\n  sim:\n    fileset: [rtl]\n  simx",
        );
        let (dir, lib) = scratch(&["r/a.sv"], &[("r/a.core", &typo)]);
        assert!(
            matches!(lib, Err(CoreError::Parse { .. })),
            "unknown key accepted"
        );
        let _ = std::fs::remove_dir_all(dir);

        let (dir, lib) = scratch(&[], &[("r/a.core", "name: x:l:a\n")]);
        assert!(
            matches!(lib, Err(CoreError::Parse { .. })),
            "no CAPI=2 header"
        );
        let _ = std::fs::remove_dir_all(dir);

        let (dir, lib) = scratch(&[], &[("r/a.core", A), ("s/a.core", A)]);
        assert!(
            lib.expect_err("twice")
                .to_string()
                .contains("defined twice")
        );
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn paths_stay_inside_the_repository() {
        assert_eq!(
            normalize(Path::new("rtl/crypto/../../fpga/x.sv")),
            Some(PathBuf::from("fpga/x.sv"))
        );
        assert_eq!(normalize(Path::new("rtl/../../x.sv")), None);
        assert_eq!(vln("a:b:c:0.1").as_deref(), Some("a:b:c"));
        assert_eq!(vln("a:b"), None);
    }
}
