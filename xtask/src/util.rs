//! Shared plumbing: repo paths, running tools with `.tools/bin` first on PATH, errors.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

#[derive(Debug, thiserror::Error)]
pub enum XtaskError {
    #[error("{tool}: command failed: `{cmd}`{detail}")]
    Step {
        tool: String,
        cmd: String,
        detail: String,
    },
    #[error("{tool}: cannot start `{cmd}`: {source}")]
    Spawn {
        tool: String,
        cmd: String,
        #[source]
        source: std::io::Error,
    },
    #[error("I/O error on {path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{path}: {why}")]
    Parse { path: PathBuf, why: String },
    #[error("generator: {0}")]
    Gen(#[from] onerma_gen::GenError),
    #[error("{0}")]
    Failed(String),
}

pub type Result<T, E = XtaskError> = std::result::Result<T, E>;

pub fn io_err(path: &Path) -> impl FnOnce(std::io::Error) -> XtaskError + '_ {
    move |source| XtaskError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// Repository root (xtask lives one level below it).
pub fn root() -> PathBuf {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    manifest.parent().unwrap_or(manifest).to_path_buf()
}

pub fn tools_bin() -> PathBuf {
    root().join(".tools").join("bin")
}

pub fn venv_bin() -> PathBuf {
    root().join(".tools").join("venv").join("bin")
}

/// A command run from the repository root with `.tools/bin` first on PATH, so tools that
/// spawn other tools (sby -> yosys, smtbmc -> yices-smt2) find the pinned ones.
pub fn cmd(program: impl AsRef<std::ffi::OsStr>) -> Command {
    let mut c = Command::new(program);
    let mut paths = vec![tools_bin()];
    if let Some(p) = std::env::var_os("PATH") {
        paths.extend(std::env::split_paths(&p));
    }
    if let Ok(joined) = std::env::join_paths(paths) {
        c.env("PATH", joined);
    }
    c.current_dir(root());
    c
}

pub fn show(c: &Command) -> String {
    let mut s = c.get_program().to_string_lossy().into_owned();
    for a in c.get_args() {
        let a = a.to_string_lossy();
        if a.contains(' ') || a.contains(';') || a.is_empty() {
            s.push_str(&format!(" '{a}'"));
        } else {
            s.push(' ');
            s.push_str(&a);
        }
    }
    s
}

fn tail(text: &str, lines: usize) -> String {
    let v: Vec<&str> = text.lines().collect();
    let start = v.len().saturating_sub(lines);
    v[start..].join("\n")
}

/// Run with inherited stdio; a non-zero exit is an error naming the tool and command.
pub fn run(tool: &str, c: &mut Command) -> Result<()> {
    let shown = show(c);
    println!("  $ {shown}");
    let status = c.status().map_err(|source| XtaskError::Spawn {
        tool: tool.into(),
        cmd: shown.clone(),
        source,
    })?;
    if status.success() {
        Ok(())
    } else {
        Err(XtaskError::Step {
            tool: tool.into(),
            cmd: shown,
            detail: format!(" ({status})"),
        })
    }
}

/// Run capturing output; on failure the error carries the last lines of output.
pub fn capture(tool: &str, c: &mut Command) -> Result<Output> {
    let shown = show(c);
    let out = c
        .stdin(Stdio::null())
        .output()
        .map_err(|source| XtaskError::Spawn {
            tool: tool.into(),
            cmd: shown.clone(),
            source,
        })?;
    if out.status.success() {
        Ok(out)
    } else {
        let mut text = String::from_utf8_lossy(&out.stdout).into_owned();
        text.push_str(&String::from_utf8_lossy(&out.stderr));
        Err(XtaskError::Step {
            tool: tool.into(),
            cmd: shown,
            detail: format!(" ({})\n{}", out.status, tail(&text, 30)),
        })
    }
}

/// Run capturing output, in its own process group, for at most `limit`. Returns the output and
/// whether the run finished (false: the whole group was killed at the limit).
///
/// Why: yowasp-sby once hung after a failing task (a zombie smtbmc child it never reaped), which
/// would have held CI to its 90-minute timeout instead of reporting the failure.
pub fn output_with_limit(c: &mut Command, limit: Duration) -> std::io::Result<(Output, bool)> {
    use std::io::Read;
    use std::os::unix::process::CommandExt;
    let mut child = c
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .spawn()?;
    // Readers in threads so a chatty tool never blocks on a full pipe while we poll.
    let reader = |r: Option<Box<dyn Read + Send>>| {
        std::thread::spawn(move || {
            let mut buf = Vec::new();
            if let Some(mut r) = r {
                // A read error only truncates the captured text; the exit status still decides.
                let _ = r.read_to_end(&mut buf);
            }
            buf
        })
    };
    let out_t = reader(
        child
            .stdout
            .take()
            .map(|r| Box::new(r) as Box<dyn Read + Send>),
    );
    let err_t = reader(
        child
            .stderr
            .take()
            .map(|r| Box::new(r) as Box<dyn Read + Send>),
    );
    let t = Instant::now();
    let (status, finished) = loop {
        if let Some(st) = child.try_wait()? {
            break (st, true);
        }
        if t.elapsed() >= limit {
            // The negative pid names the group: sby's solver children go too.
            let _ = Command::new("kill")
                .args(["-KILL", &format!("-{}", child.id())])
                .status();
            break (child.wait()?, false);
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    let stdout = out_t.join().unwrap_or_default();
    let stderr = err_t.join().unwrap_or_default();
    Ok((
        Output {
            status,
            stdout,
            stderr,
        },
        finished,
    ))
}

pub fn elapsed(t: Instant) -> String {
    format!("{:.1}s", t.elapsed().as_secs_f64())
}

pub fn cargo() -> Command {
    cmd(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
}

/// Files under `dir` (recursively) with extension `ext`, sorted.
pub fn files_with_ext(dir: &Path, ext: &str) -> Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    if !dir.is_dir() {
        return Ok(out);
    }
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).map_err(io_err(&d))? {
            let p = e.map_err(io_err(&d))?.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().and_then(|x| x.to_str()) == Some(ext) {
                out.push(p);
            }
        }
    }
    out.sort();
    Ok(out)
}

/// `path` relative to the repo root (YoWASP tools cannot see absolute paths).
pub fn rel(path: &Path) -> String {
    path.strip_prefix(root())
        .unwrap_or(path)
        .display()
        .to_string()
}
