//! Register-to-register static timing over the SDF that nextpnr writes with `--sdf` (every
//! `cargo xtask fpga` run leaves `build/fpga/<out>.sdf`; `cargo xtask sta` prints the report).
//! nextpnr prints only the worst path of each clock; this lists every failing endpoint, grouped
//! by start and end register.
//!
//! The clock is ideal: every register sees the same edge at time 0 (no skew between launch and
//! capture, no jitter, no uncertainty margin), so a path's slack is the period minus its
//! clock-to-q, logic and routing delays and the capture register's setup time. The SDF's
//! clock-network delays are not used. The report says so in its first line.

use std::borrow::Cow;
use std::collections::HashMap;

/// Pins that clock a cell: an IOPATH from one of them is a clock-to-q arc, where paths start.
const CLOCK_PINS: [&str; 4] = ["CLK", "CLKA", "CLKB", "WCK"];
/// Suffixes the ECP5 mapping appends to cell names; a group name is what precedes the first.
const MAP_SUFFIXES: [&str; 5] = ["_TRELLIS_FF_Q", "_LUT4_Z", "_PFUMX", "_L6MUX", "_CCU2C"];

/// How a path step reaches its pin.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Clock-to-q of a register or block RAM: the path starts here.
    ClkToQ,
    /// Routing (an SDF INTERCONNECT).
    Net,
    /// Through a cell, input to output (an SDF IOPATH).
    Cell,
}

impl Kind {
    fn label(self) -> &'static str {
        match self {
            Kind::ClkToQ => "clk2q",
            Kind::Net => "net",
            Kind::Cell => "cell",
        }
    }
}

/// A delay arc into a pin.
#[derive(Debug)]
struct Arc {
    from: usize,
    delay: f64,
    kind: Kind,
}

/// Strings numbered in order of first appearance.
#[derive(Debug, Default)]
struct Names {
    list: Vec<String>,
    ids: HashMap<String, usize>,
}

impl Names {
    fn id(&mut self, s: &str) -> usize {
        if let Some(&i) = self.ids.get(s) {
            return i;
        }
        let i = self.list.len();
        self.list.push(s.to_string());
        self.ids.insert(s.to_string(), i);
        i
    }
}

/// The timing graph of an SDF file: pins (cell, port) with their fanin arcs, clock-to-q starts
/// and setup checks.
#[derive(Debug, Default)]
pub struct Graph {
    cells: Names,
    ports: Names,
    /// Pin number -> (cell, port).
    pins: Vec<(usize, usize)>,
    pin_ids: HashMap<(usize, usize), usize>,
    fanin: Vec<Vec<Arc>>,
    /// Clock-to-q delay of pins that are path starts.
    clk2q: Vec<Option<f64>>,
    /// Setup time of pins that are path endpoints.
    setup: Vec<Option<f64>>,
}

impl Graph {
    fn pin(&mut self, cell: usize, port: &str) -> usize {
        let key = (cell, self.ports.id(port));
        if let Some(&p) = self.pin_ids.get(&key) {
            return p;
        }
        let p = self.pins.len();
        self.pins.push(key);
        self.pin_ids.insert(key, p);
        self.fanin.push(Vec::new());
        self.clk2q.push(None);
        self.setup.push(None);
        p
    }

    /// `cell/port` of an INTERCONNECT: the port is what follows the last `/`, so cell names
    /// may themselves contain `/`.
    fn path_pin(&mut self, path: &str) -> Option<usize> {
        let (cell, port) = path.rsplit_once('/')?;
        let cell = self.cells.id(cell);
        Some(self.pin(cell, port))
    }

    pub fn cell_name(&self, pin: usize) -> &str {
        &self.cells.list[self.pins[pin].0]
    }

    pub fn port_name(&self, pin: usize) -> &str {
        &self.ports.list[self.pins[pin].1]
    }

    /// Number of pins (cell, port) in the graph.
    pub fn pin_count(&self) -> usize {
        self.pins.len()
    }

    pub fn arcs(&self) -> usize {
        self.fanin.iter().map(Vec::len).sum()
    }

    pub fn starts(&self) -> usize {
        self.clk2q.iter().flatten().count()
    }
}

/// Remove SDF escapes: a backslash makes the next character literal (`\$`, `\[`, `\\`, ...).
fn unescape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            out.extend(chars.next());
        } else {
            out.push(c);
        }
    }
    out
}

/// The identifier at the start of `s` (leading spaces skipped), unescaped, and the text after
/// it. An identifier ends at an unescaped space or parenthesis.
fn ident(s: &str) -> (Cow<'_, str>, &str) {
    let s = s.trim_start();
    let mut end = s.len();
    let mut escaped = false;
    let mut any_escape = false;
    for (i, c) in s.char_indices() {
        if escaped {
            escaped = false;
        } else if c == '\\' {
            escaped = true;
            any_escape = true;
        } else if c.is_whitespace() || c == '(' || c == ')' {
            end = i;
            break;
        }
    }
    let raw = &s[..end];
    let name = if any_escape {
        Cow::Owned(unescape(raw))
    } else {
        Cow::Borrowed(raw)
    };
    (name, &s[end..])
}

/// A port of an IOPATH or timing check, `NAME` or `(posedge NAME)` / `(negedge NAME)`, and the
/// text after it.
fn port_spec(s: &str) -> Option<(Cow<'_, str>, &str)> {
    let s = s.trim_start();
    let (name, rest) = match s.strip_prefix('(') {
        Some(edge) => {
            let edge = edge.trim_start();
            let inner = edge
                .strip_prefix("posedge")
                .or_else(|| edge.strip_prefix("negedge"))?;
            let (name, rest) = ident(inner);
            (name, rest.trim_start().strip_prefix(')')?)
        }
        None => ident(s),
    };
    (!name.is_empty()).then_some((name, rest))
}

/// Two ports (IOPATH: input and output; SETUPHOLD: data and clock) and the text after them.
type PortPair<'a> = (Cow<'a, str>, Cow<'a, str>, &'a str);

fn port_pair(s: &str) -> Option<PortPair<'_>> {
    let (a, rest) = port_spec(s)?;
    let (b, rest) = port_spec(rest)?;
    Some((a, b, rest))
}

/// The maximum of every `(min:typ:max)` triple in `s`, in order (a single value counts as its
/// own maximum, an empty `()` is skipped).
fn triple_maxima(s: &str) -> std::result::Result<Vec<f64>, String> {
    let mut out = Vec::new();
    for group in s.split('(').skip(1) {
        let inner = group.split(')').next().unwrap_or_default();
        let mut max = None;
        for v in inner.split(':').map(str::trim).filter(|v| !v.is_empty()) {
            max = Some(
                v.parse::<f64>()
                    .map_err(|_| format!("bad delay `({inner})`"))?,
            );
        }
        out.extend(max);
    }
    Ok(out)
}

/// Delay of an arc: the larger of the rise and fall maxima (the first two triples).
fn arc_delay(s: &str) -> std::result::Result<f64, String> {
    Ok(triple_maxima(s)?
        .into_iter()
        .take(2)
        .reduce(f64::max)
        .unwrap_or(0.0))
}

/// Build the timing graph from the text of an SDF file written by nextpnr. Only INSTANCE,
/// INTERCONNECT, IOPATH and SETUPHOLD entries matter; each is on one line.
pub fn parse(text: &str) -> std::result::Result<Graph, String> {
    let mut g = Graph::default();
    let mut cell = g.cells.id("");
    for (n, line) in text.lines().enumerate() {
        let Some(body) = line.trim_start().strip_prefix('(') else {
            continue;
        };
        let kw_end = body
            .find(|c: char| c.is_whitespace() || c == '(' || c == ')')
            .unwrap_or(body.len());
        let (kw, rest) = body.split_at(kw_end);
        let bad = |why: &str| format!("line {}: {why}: {}", n + 1, line.trim());
        match kw {
            "INSTANCE" => {
                let (name, _) = ident(rest);
                cell = g.cells.id(&name);
            }
            "INTERCONNECT" => {
                let (from, rest) = ident(rest);
                let (to, rest) = ident(rest);
                let (Some(from), Some(to)) = (g.path_pin(&from), g.path_pin(&to)) else {
                    return Err(bad("expected `cell/port cell/port`"));
                };
                let delay = arc_delay(rest).map_err(|e| bad(&e))?;
                g.fanin[to].push(Arc {
                    from,
                    delay,
                    kind: Kind::Net,
                });
            }
            "IOPATH" => {
                let (from, to, rest) =
                    port_pair(rest).ok_or_else(|| bad("expected input and output ports"))?;
                let delay = arc_delay(rest).map_err(|e| bad(&e))?;
                let to = g.pin(cell, &to);
                if CLOCK_PINS.contains(&from.as_ref()) {
                    let q = &mut g.clk2q[to];
                    *q = Some(q.map_or(delay, |d| d.max(delay)));
                } else {
                    let from = g.pin(cell, &from);
                    g.fanin[to].push(Arc {
                        from,
                        delay,
                        kind: Kind::Cell,
                    });
                }
            }
            "SETUPHOLD" => {
                let (port, _clock, rest) =
                    port_pair(rest).ok_or_else(|| bad("expected data and clock ports"))?;
                let setup = *triple_maxima(rest)
                    .map_err(|e| bad(&e))?
                    .first()
                    .ok_or_else(|| bad("no setup time"))?;
                let pin = g.pin(cell, &port);
                let s = &mut g.setup[pin];
                *s = Some(s.map_or(setup, |d| d.max(setup)));
            }
            _ => {}
        }
    }
    Ok(g)
}

/// Longest arrival time at every pin upstream of `roots`, and the fanin arc (index into
/// `fanin[pin]`) it came through (`None`: the pin's own clock-to-q). A pin reached from no
/// clock-to-q start has no arrival. Iterative depth-first search: paths are thousands of pins
/// deep. An arc from a pin still on the search stack closes a combinational loop and is ignored.
fn arrivals(g: &Graph, roots: &[usize]) -> (Vec<Option<f64>>, Vec<Option<usize>>) {
    #[derive(Clone, Copy, PartialEq, Eq)]
    enum State {
        New,
        Open,
        Done,
    }
    let n = g.pins.len();
    let mut state = vec![State::New; n];
    let mut arrival: Vec<Option<f64>> = vec![None; n];
    let mut via = vec![None; n];
    // (pin, next fanin arc to visit)
    let mut stack: Vec<(usize, usize)> = Vec::new();
    for &root in roots {
        if state[root] != State::New {
            continue;
        }
        state[root] = State::Open;
        stack.push((root, 0));
        while let Some((pin, next)) = stack.last_mut() {
            let pin = *pin;
            if let Some(arc) = g.fanin[pin].get(*next) {
                *next += 1;
                if state[arc.from] == State::New {
                    state[arc.from] = State::Open;
                    stack.push((arc.from, 0));
                }
                continue;
            }
            stack.pop();
            let mut best = g.clk2q[pin];
            let mut best_arc = None;
            for (i, arc) in g.fanin[pin].iter().enumerate() {
                if state[arc.from] != State::Done {
                    continue; // back edge of a combinational loop
                }
                if let Some(a) = arrival[arc.from] {
                    let t = a + arc.delay;
                    if best.is_none_or(|b| t > b) {
                        best = Some(t);
                        best_arc = Some(i);
                    }
                }
            }
            arrival[pin] = best;
            via[pin] = best_arc;
            state[pin] = State::Done;
        }
    }
    (arrival, via)
}

/// One pin of a path: arrival there, and the arc that reached it.
#[derive(Debug, Clone, PartialEq)]
pub struct Step {
    pub pin: usize,
    pub arrival: f64,
    pub kind: Kind,
    pub delay: f64,
}

#[derive(Debug)]
pub struct Endpoint {
    pub pin: usize,
    pub slack: f64,
    /// Worst path, start (clock-to-q) first.
    pub path: Vec<Step>,
}

/// Failing endpoints with the same start group and end group.
#[derive(Debug)]
pub struct Group {
    pub start: String,
    pub end: String,
    /// Indices into `Analysis::failing`, worst first.
    pub endpoints: Vec<usize>,
}

#[derive(Debug)]
pub struct Analysis {
    /// Pins with a setup check.
    pub checked: usize,
    /// Worst slack over the endpoints reached from a clock-to-q start.
    pub worst: Option<f64>,
    /// Endpoints with negative slack, worst first.
    pub failing: Vec<Endpoint>,
    /// Groups of `failing`, worst first.
    pub groups: Vec<Group>,
}

/// Group name of a cell: its name with the mapping suffixes (from the first of
/// [`MAP_SUFFIXES`] on) removed, `[digits]` replaced by `[*]` and a trailing `_digits` removed,
/// so the bits of one register or the LUTs of one net fall together.
pub fn group_name(cell: &str) -> String {
    let cut = MAP_SUFFIXES
        .iter()
        .filter_map(|s| cell.find(s))
        .min()
        .unwrap_or(cell.len());
    let mut rest = &cell[..cut];
    let mut out = String::with_capacity(rest.len());
    while let Some(i) = rest.find('[') {
        out.push_str(&rest[..i]);
        let after = &rest[i + 1..];
        let digits = after.bytes().take_while(u8::is_ascii_digit).count();
        if digits > 0 && after[digits..].starts_with(']') {
            out.push_str("[*]");
            rest = &after[digits + 1..];
        } else {
            out.push('[');
            rest = after;
        }
    }
    out.push_str(rest);
    if let Some((head, tail)) = out.rsplit_once('_')
        && !tail.is_empty()
        && tail.bytes().all(|b| b.is_ascii_digit())
    {
        out.truncate(head.len());
    }
    out
}

/// Setup slack of every endpoint at a clock period of `period_ps`; the failing ones with their
/// worst paths, grouped.
pub fn analyse(g: &Graph, period_ps: f64) -> Analysis {
    let checks: Vec<(usize, f64)> = g
        .setup
        .iter()
        .enumerate()
        .filter_map(|(pin, s)| s.map(|s| (pin, s)))
        .collect();
    let roots: Vec<usize> = checks.iter().map(|&(pin, _)| pin).collect();
    let (arrival, via) = arrivals(g, &roots);
    let trace = |end: usize| {
        let mut path = Vec::new();
        let mut pin = end;
        loop {
            let a = arrival[pin].unwrap_or_default();
            match via[pin] {
                Some(i) => {
                    let arc = &g.fanin[pin][i];
                    path.push(Step {
                        pin,
                        arrival: a,
                        kind: arc.kind,
                        delay: arc.delay,
                    });
                    pin = arc.from;
                }
                None => {
                    path.push(Step {
                        pin,
                        arrival: a,
                        kind: Kind::ClkToQ,
                        delay: a,
                    });
                    break;
                }
            }
        }
        path.reverse();
        path
    };
    let mut worst: Option<f64> = None;
    let mut failing = Vec::new();
    for &(pin, setup) in &checks {
        let Some(a) = arrival[pin] else { continue };
        let slack = period_ps - setup - a;
        worst = Some(worst.map_or(slack, |w| w.min(slack)));
        if slack < 0.0 {
            failing.push(Endpoint {
                pin,
                slack,
                path: trace(pin),
            });
        }
    }
    failing.sort_by(|a, b| {
        a.slack
            .total_cmp(&b.slack)
            .then_with(|| g.cell_name(a.pin).cmp(g.cell_name(b.pin)))
            .then_with(|| g.port_name(a.pin).cmp(g.port_name(b.pin)))
    });
    // Endpoints are worst first, so groups are created worst first.
    let mut groups: Vec<Group> = Vec::new();
    let mut index: HashMap<(String, String), usize> = HashMap::new();
    for (i, e) in failing.iter().enumerate() {
        let start = group_name(g.cell_name(e.path[0].pin));
        let end = group_name(g.cell_name(e.pin));
        let k = *index
            .entry((start.clone(), end.clone()))
            .or_insert_with(|| {
                groups.push(Group {
                    start,
                    end,
                    endpoints: Vec::new(),
                });
                groups.len() - 1
            });
        groups[k].endpoints.push(i);
    }
    Analysis {
        checked: checks.len(),
        worst,
        failing,
        groups,
    }
}

/// The report: a summary line, then the worst `max_groups` groups, each with its worst path.
pub fn report(g: &Graph, a: &Analysis, period_ns: f64, max_groups: usize) -> String {
    let plural = |n: usize| if n == 1 { "" } else { "s" };
    let worst = match a.worst {
        Some(w) => format!("worst slack {w:.0} ps"),
        None => "no register-to-register path".to_string(),
    };
    let mut lines = vec![format!(
        "{} failing endpoint{} at {period_ns} ns (of {} checked); {worst}; {} start->end group{}; \
         ideal clock (no skew, jitter or uncertainty)",
        a.failing.len(),
        plural(a.failing.len()),
        a.checked,
        a.groups.len(),
        plural(a.groups.len())
    )];
    for grp in a.groups.iter().take(max_groups) {
        let e = &a.failing[grp.endpoints[0]];
        let sum = |f: fn(Kind) -> bool| -> f64 {
            e.path.iter().filter(|s| f(s.kind)).map(|s| s.delay).sum()
        };
        let logic = sum(|k| k != Kind::Net);
        let routing = sum(|k| k == Kind::Net);
        let cells = e.path.iter().filter(|s| s.kind == Kind::Cell).count();
        lines.push(String::new());
        lines.push(format!(
            "== slack {:.0} ps, {} endpoint{}, {logic:.0} ps logic / {routing:.0} ps routing / \
             {cells} cell arc{}: {}  ->  {}",
            e.slack,
            grp.endpoints.len(),
            plural(grp.endpoints.len()),
            plural(cells),
            grp.start,
            grp.end
        ));
        for s in &e.path {
            lines.push(format!(
                "   {:7.0} {:5} {:6.0}  {}|{}",
                s.arrival,
                s.kind.label(),
                s.delay,
                g.cell_name(s.pin),
                g.port_name(s.pin)
            ));
        }
    }
    if a.groups.len() > max_groups {
        let more = a.groups.len() - max_groups;
        lines.push(String::new());
        lines.push(format!(
            "({more} more group{} not shown: --groups)",
            plural(more)
        ));
    }
    let mut out = lines.join("\n");
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two launching flops (`q_reg`, `s_q`), LUTs `a/b_LUT4_Z` (a `/` in the cell name) and
    /// `u$x[3]_LUT4_Z_1` (escaped), capturing flops `d_q[7]_..._2`, `d_q[12]_...`, `z_9`,
    /// `q_reg`, and `in_ff` fed only from a pad (no arrival). Delays in ps; arc delay = max of
    /// rise max and fall max.
    ///
    /// q_reg Q: clk2q max(500, 520) = 520
    /// -> a/b A: net max(900, 1000) = 1000                           1520
    /// -> a/b F: cell 236                                            1756
    ///    (via s_q: 300 + 100 + B->F 300 = 700: shorter, though its arcs come first)
    /// -> u$x C: net max(2000, 2100) = 2100                          3856
    /// -> u$x F: cell 250                                            4106
    /// -> d_q[12] DI: net 3100 = 7206, setup 120: 7000-120-7206 = -326
    /// -> d_q[7]  DI: net 3000 = 7106, setup max(150, 140): 7000-150-7106 = -256
    /// a/b F -> d_q[7] M: 1756 + 500 = 2256, setup 100: 7000-100-2256 = 4644
    /// s_q Q (300) -> z_9 DI: 6800 = 7100, setup 100: -200
    /// s_q Q (300) -> q_reg DI: 50 = 350, setup 120: 6530
    const SDF: &str = r#"(DELAYFILE
  (SDFVERSION "3.0")
  (DESIGN "top")
  (VENDOR "nextpnr")
  (DIVIDER /)
  (TIMESCALE 1ps)
  (CELL
    (CELLTYPE "top")
    (INSTANCE )
    (DELAY
      (ABSOLUTE
        (INTERCONNECT \$gbuf\$clk/CLKO q_reg_TRELLIS_FF_Q/CLK (0:0:0) (0:0:0))
        (INTERCONNECT q_reg_TRELLIS_FF_Q/Q a/b_LUT4_Z/A (800:850:900) (900:950:1000))
        (INTERCONNECT s_q_TRELLIS_FF_Q/Q a/b_LUT4_Z/B (100:100:100) (100:100:100))
        (INTERCONNECT a/b_LUT4_Z/F u\$x\[3\]_LUT4_Z_1/C (1900:2000:2000) (2000:2050:2100))
        (INTERCONNECT u\$x\[3\]_LUT4_Z_1/F d_q\[7\]_TRELLIS_FF_Q_2/DI (3000:3000:3000) (3000:3000:3000))
        (INTERCONNECT u\$x\[3\]_LUT4_Z_1/F d_q\[12\]_TRELLIS_FF_Q/DI (3100:3100:3100) (3000:3000:3000))
        (INTERCONNECT a/b_LUT4_Z/F d_q\[7\]_TRELLIS_FF_Q_2/M (500:500:500) (500:500:500))
        (INTERCONNECT s_q_TRELLIS_FF_Q/Q q_reg_TRELLIS_FF_Q/DI (50:50:50) (50:50:50))
        (INTERCONNECT s_q_TRELLIS_FF_Q/Q z_9/DI (6800:6800:6800) (6800:6800:6800))
        (INTERCONNECT in_pad/O in_ff_TRELLIS_FF_Q/DI (10:10:10) (10:10:10))
      )
    )
  )
  (CELL
    (CELLTYPE "TRELLIS_FF")
    (INSTANCE q_reg_TRELLIS_FF_Q)
    (DELAY
      (ABSOLUTE
        (IOPATH CLK Q (400:450:500) (410:460:520))
      )
    )
    (TIMINGCHECK
      (SETUPHOLD (posedge DI) (posedge CLK) (100:110:120) (0:0:0))
    )
  )
  (CELL
    (CELLTYPE "TRELLIS_FF")
    (INSTANCE s_q_TRELLIS_FF_Q)
    (DELAY
      (ABSOLUTE
        (IOPATH CLK Q (300:300:300) (300:300:300))
      )
    )
  )
  (CELL
    (CELLTYPE "TRELLIS_COMB")
    (INSTANCE a/b_LUT4_Z)
    (DELAY
      (ABSOLUTE
        (IOPATH B F (300:300:300) (300:300:300))
        (IOPATH A F (200:218:236) (200:210:230))
      )
    )
  )
  (CELL
    (CELLTYPE "TRELLIS_COMB")
    (INSTANCE u\$x\[3\]_LUT4_Z_1)
    (DELAY
      (ABSOLUTE
        (IOPATH C F (200:225:250) (200:225:250))
      )
    )
  )
  (CELL
    (CELLTYPE "TRELLIS_FF")
    (INSTANCE d_q\[7\]_TRELLIS_FF_Q_2)
    (TIMINGCHECK
      (SETUPHOLD (posedge DI) (posedge CLK) (150:150:150) (0:0:0))
      (SETUPHOLD (negedge DI) (posedge CLK) (140:140:140) (0:0:0))
      (SETUPHOLD (posedge M) (posedge CLK) (100:100:100) (0:0:0))
    )
  )
  (CELL
    (CELLTYPE "TRELLIS_FF")
    (INSTANCE d_q\[12\]_TRELLIS_FF_Q)
    (TIMINGCHECK
      (SETUPHOLD (posedge DI) (posedge CLK) (0:0:120) (0:0:0))
    )
  )
  (CELL
    (CELLTYPE "TRELLIS_FF")
    (INSTANCE z_9)
    (TIMINGCHECK
      (SETUPHOLD (posedge DI) (posedge CLK) (100:100:100) (0:0:0))
    )
  )
  (CELL
    (CELLTYPE "TRELLIS_FF")
    (INSTANCE in_ff_TRELLIS_FF_Q)
    (TIMINGCHECK
      (SETUPHOLD (posedge DI) (posedge CLK) (100:100:100) (0:0:0))
    )
  )
)
"#;

    fn pin_named(g: &Graph, cell: &str, port: &str) -> usize {
        (0..g.pins.len())
            .find(|&p| g.cell_name(p) == cell && g.port_name(p) == port)
            .unwrap_or_else(|| panic!("no pin {cell}|{port}"))
    }

    /// Slack of every endpoint reached from a start, by `cell|port`.
    fn slacks(g: &Graph, period_ps: f64) -> Vec<(String, f64)> {
        let roots: Vec<usize> = (0..g.pins.len())
            .filter(|&p| g.setup[p].is_some())
            .collect();
        let (arrival, _) = arrivals(g, &roots);
        let mut v: Vec<(String, f64)> = roots
            .iter()
            .filter_map(|&p| {
                let a = arrival[p]?;
                let s = g.setup[p]?;
                Some((
                    format!("{}|{}", g.cell_name(p), g.port_name(p)),
                    period_ps - s - a,
                ))
            })
            .collect();
        v.sort_by(|a, b| a.0.cmp(&b.0));
        v
    }

    #[test]
    fn parses_escapes_slashes_clocks_and_checks() {
        let g = parse(SDF).expect("parse");
        let lut = pin_named(&g, "u$x[3]_LUT4_Z_1", "C");
        let ab = pin_named(&g, "a/b_LUT4_Z", "F");
        assert_eq!(g.fanin[lut].len(), 1);
        assert_eq!(g.fanin[lut][0].from, ab);
        assert_eq!(g.fanin[lut][0].delay, 2100.0);
        assert_eq!(g.fanin[lut][0].kind, Kind::Net);
        // Cell arcs of `a/b_LUT4_Z`, from the IOPATHs of its INSTANCE.
        let arcs: Vec<(&str, f64, Kind)> = g.fanin[ab]
            .iter()
            .map(|a| (g.port_name(a.from), a.delay, a.kind))
            .collect();
        assert_eq!(arcs, [("B", 300.0, Kind::Cell), ("A", 236.0, Kind::Cell)]);
        assert_eq!(
            g.clk2q[pin_named(&g, "q_reg_TRELLIS_FF_Q", "Q")],
            Some(520.0)
        );
        assert_eq!(g.clk2q[pin_named(&g, "s_q_TRELLIS_FF_Q", "Q")], Some(300.0));
        assert_eq!(g.starts(), 2);
        // posedge and negedge checks of one pin: the larger setup.
        assert_eq!(
            g.setup[pin_named(&g, "d_q[7]_TRELLIS_FF_Q_2", "DI")],
            Some(150.0)
        );
        assert_eq!(
            g.setup[pin_named(&g, "d_q[12]_TRELLIS_FF_Q", "DI")],
            Some(120.0)
        );
        assert_eq!(g.setup.iter().flatten().count(), 6);
    }

    #[test]
    fn slacks_are_longest_path() {
        let g = parse(SDF).expect("parse");
        let got = slacks(&g, 7000.0);
        let want = [
            ("d_q[12]_TRELLIS_FF_Q|DI", -326.0),
            ("d_q[7]_TRELLIS_FF_Q_2|DI", -256.0),
            ("d_q[7]_TRELLIS_FF_Q_2|M", 4644.0),
            ("q_reg_TRELLIS_FF_Q|DI", 6530.0),
            ("z_9|DI", -200.0),
        ];
        let want: Vec<(String, f64)> = want.iter().map(|(n, s)| (n.to_string(), *s)).collect();
        // `in_ff` is fed only from a pad: no arrival, so no slack.
        assert_eq!(got, want);
    }

    #[test]
    fn failing_endpoints_grouped_with_worst_path() {
        let g = parse(SDF).expect("parse");
        let a = analyse(&g, 7000.0);
        assert_eq!(a.checked, 6);
        assert_eq!(a.worst, Some(-326.0));
        let failing: Vec<(&str, f64)> = a
            .failing
            .iter()
            .map(|e| (g.cell_name(e.pin), e.slack))
            .collect();
        assert_eq!(
            failing,
            [
                ("d_q[12]_TRELLIS_FF_Q", -326.0),
                ("d_q[7]_TRELLIS_FF_Q_2", -256.0),
                ("z_9", -200.0)
            ]
        );
        let groups: Vec<(&str, &str, &[usize])> = a
            .groups
            .iter()
            .map(|g| (g.start.as_str(), g.end.as_str(), g.endpoints.as_slice()))
            .collect();
        assert_eq!(
            groups,
            [("q_reg", "d_q[*]", &[0, 1][..]), ("s_q", "z", &[2][..])]
        );
        let path: Vec<(String, f64, Kind, f64)> = a.failing[0]
            .path
            .iter()
            .map(|s| {
                let pin = format!("{}|{}", g.cell_name(s.pin), g.port_name(s.pin));
                (pin, s.arrival, s.kind, s.delay)
            })
            .collect();
        let want = [
            ("q_reg_TRELLIS_FF_Q|Q", 520.0, Kind::ClkToQ, 520.0),
            ("a/b_LUT4_Z|A", 1520.0, Kind::Net, 1000.0),
            ("a/b_LUT4_Z|F", 1756.0, Kind::Cell, 236.0),
            ("u$x[3]_LUT4_Z_1|C", 3856.0, Kind::Net, 2100.0),
            ("u$x[3]_LUT4_Z_1|F", 4106.0, Kind::Cell, 250.0),
            ("d_q[12]_TRELLIS_FF_Q|DI", 7206.0, Kind::Net, 3100.0),
        ];
        let want: Vec<(String, f64, Kind, f64)> = want
            .iter()
            .map(|&(p, a, k, d)| (p.to_string(), a, k, d))
            .collect();
        assert_eq!(path, want);
    }

    #[test]
    fn report_text() {
        let g = parse(SDF).expect("parse");
        let r = report(&g, &analyse(&g, 7000.0), 7.0, 1);
        let lines: Vec<&str> = r.lines().collect();
        assert_eq!(
            lines[0],
            "3 failing endpoints at 7 ns (of 6 checked); worst slack -326 ps; \
             2 start->end groups; ideal clock (no skew, jitter or uncertainty)"
        );
        assert_eq!(
            lines[2],
            "== slack -326 ps, 2 endpoints, 1006 ps logic / 6200 ps routing / 2 cell arcs: \
             q_reg  ->  d_q[*]"
        );
        assert_eq!(lines[3], "       520 clk2q    520  q_reg_TRELLIS_FF_Q|Q");
        assert_eq!(lines[8], "      7206 net     3100  d_q[12]_TRELLIS_FF_Q|DI");
        assert_eq!(lines[10], "(1 more group not shown: --groups)");
        assert_eq!(lines.len(), 11);
        // At 8 ns everything passes.
        let r = report(&g, &analyse(&g, 8000.0), 8.0, 20);
        assert_eq!(
            r,
            "0 failing endpoints at 8 ns (of 6 checked); worst slack 674 ps; \
             0 start->end groups; ideal clock (no skew, jitter or uncertainty)\n"
        );
    }

    #[test]
    fn combinational_loop_terminates() {
        // l0 and l1 feed each other; l0 also has a path from the flop. The loop arc found
        // open on the search stack (l1 F -> l0 A, reached through l0 F) contributes nothing.
        let sdf = r#"
        (INSTANCE )
        (INTERCONNECT f/Q l0/B (10:10:10) (10:10:10))
        (INTERCONNECT l0/F l1/A (10:10:10) (10:10:10))
        (INTERCONNECT l1/F l0/A (10:10:10) (10:10:10))
        (INTERCONNECT l0/F e/DI (10:10:10) (10:10:10))
        (INSTANCE f)
        (IOPATH CLK Q (520:520:520) (520:520:520))
        (INSTANCE l0)
        (IOPATH A F (100:100:100) (100:100:100))
        (IOPATH B F (100:100:100) (100:100:100))
        (INSTANCE l1)
        (IOPATH A F (100:100:100) (100:100:100))
        (INSTANCE e)
        (SETUPHOLD (posedge DI) (posedge CLK) (0:0:0) (0:0:0))
        "#;
        let g = parse(sdf).expect("parse");
        // f Q 520 -> l0 B 530 -> l0 F 630 -> e DI 640.
        assert_eq!(slacks(&g, 1000.0), [("e|DI".to_string(), 360.0)]);
    }

    #[test]
    fn group_names() {
        assert_eq!(group_name("u.a_q_TRELLIS_FF_Q_184"), "u.a_q");
        assert_eq!(group_name("u.g[3].p[12]_LUT4_Z_D_PFUMX_Z"), "u.g[*].p[*]");
        assert_eq!(group_name("u.x_L6MUX21_Z_SD_LUT4_Z"), "u.x");
        assert_eq!(group_name("c_CCU2C_A0_7"), "c");
        assert_eq!(group_name("r_12_5"), "r_12");
        assert_eq!(group_name("m[a]_x"), "m[a]_x");
        assert_eq!(group_name("plain"), "plain");
    }

    #[test]
    fn bad_input_is_an_error() {
        let e = parse("(INTERCONNECT noslash b/A (1:1:1) (1:1:1))").expect_err("no /");
        assert!(e.starts_with("line 1:"), "{e}");
        let e = parse("(INSTANCE c)\n(IOPATH A F (1:x:2) (1:1:1))").expect_err("bad delay");
        assert!(e.starts_with("line 2: bad delay `(1:x:2)`"), "{e}");
        assert!(parse("(INSTANCE c)\n(SETUPHOLD (posedge D) (posedge CLK))").is_err());
    }
}
