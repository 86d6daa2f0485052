//! `cargo xtask bench`: run every benchmark of the CLI and refresh docs/performance.md.

use crate::util::{Result, XtaskError, capture, cargo, io_err, root};
use serde::Deserialize;

#[derive(Debug, Deserialize)]
pub struct Row {
    pub metric: String,
    pub value: f64,
    pub unit: String,
    pub config: String,
    pub limit: Option<f64>,
}

const BEGIN: &str = "<!-- bench:begin -->";
const END: &str = "<!-- bench:end -->";

const INTRO: &str = "# Performance\n\n\
Measured numbers of the simulation harness and the RTL. Regenerate the table with\n\n\
```sh\ncargo xtask bench\n```\n\n\
which runs `onerma bench --json` (release build) and rewrites the table below. `limit` is the\n\
physical or theoretical bound for the metric where one exists.\n\n";

fn fmt_num(v: f64) -> String {
    if v.abs() >= 1000.0 {
        format!("{v:.0}")
    } else {
        format!("{v:.3}")
    }
}

pub fn table(rows: &[Row]) -> String {
    let mut s =
        String::from("| metric | value | unit | config | limit |\n|---|---:|---|---|---:|\n");
    for r in rows {
        s.push_str(&format!(
            "| `{}` | {} | {} | {} | {} |\n",
            r.metric,
            fmt_num(r.value),
            r.unit,
            r.config,
            r.limit.map_or("n/a".to_string(), fmt_num)
        ));
    }
    s
}

pub fn splice(doc: &str, table: &str) -> String {
    match (doc.find(BEGIN), doc.find(END)) {
        (Some(b), Some(e)) if b < e => {
            format!("{}{BEGIN}\n{table}{}", &doc[..b], &doc[e..])
        }
        _ => format!("{doc}\n{BEGIN}\n{table}{END}\n"),
    }
}

pub fn bench() -> Result<()> {
    let out = capture(
        "onerma bench",
        cargo().args([
            "run",
            "--release",
            "-q",
            "-p",
            "onerma-cli",
            "--features",
            "nic-bench,crypto-bench",
            "--",
            "bench",
            "--json",
        ]),
    )?;
    let mut rows = Vec::new();
    for line in String::from_utf8_lossy(&out.stdout).lines() {
        if line.trim().is_empty() {
            continue;
        }
        println!("{line}");
        let r: Row = serde_json::from_str(line).map_err(|e| XtaskError::Parse {
            path: "onerma bench --json output".into(),
            why: format!("{e}: `{line}`"),
        })?;
        rows.push(r);
    }
    let t = table(&rows);
    print!("\n{t}");
    let path = root().join("docs").join("performance.md");
    let doc = std::fs::read_to_string(&path).unwrap_or_else(|_| INTRO.to_string());
    std::fs::write(&path, splice(&doc, &t)).map_err(io_err(&path))?;
    println!("bench: updated docs/performance.md");
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splice_replaces_only_between_markers() {
        let doc = format!("intro\n{BEGIN}\nold\n{END}\ntail\n");
        let out = splice(&doc, "new\n");
        assert_eq!(out, format!("intro\n{BEGIN}\nnew\n{END}\ntail\n"));
        let fresh = splice("intro\n", "t\n");
        assert!(fresh.ends_with(&format!("{BEGIN}\nt\n{END}\n")));
    }
}
