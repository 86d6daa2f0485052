//! FuseSoC's conditional string syntax, used in a target's `filesets` and a fileset's `depend`
//! lists: `word`, `flag ? (words)`, `!flag ? (words)`, nested and space-separated
//! (fusesoc/capi2/exprs.py). A condition holds when the flag is in the set of flag names.

use std::collections::BTreeSet;

#[derive(Debug, Clone, PartialEq, Eq)]
enum Node {
    Word(String),
    Cond {
        negated: bool,
        flag: String,
        body: Vec<Node>,
    },
}

fn is_word_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || "`:<>.[]_-,=~/^+\"$".contains(c)
}

struct Parser<'a> {
    rest: &'a str,
}

impl<'a> Parser<'a> {
    fn skip_ws(&mut self) {
        self.rest = self.rest.trim_start();
    }

    fn word(&mut self) -> Option<&'a str> {
        let end = self
            .rest
            .char_indices()
            .find(|&(_, c)| !is_word_char(c))
            .map_or(self.rest.len(), |(i, _)| i);
        if end == 0 {
            return None;
        }
        let (w, r) = self.rest.split_at(end);
        self.rest = r;
        Some(w)
    }

    fn eat(&mut self, c: char) -> bool {
        self.skip_ws();
        if let Some(r) = self.rest.strip_prefix(c) {
            self.rest = r;
            true
        } else {
            false
        }
    }

    /// exprs until end of input or a closing parenthesis (left for the caller).
    fn exprs(&mut self) -> Result<Vec<Node>, String> {
        let mut out = Vec::new();
        loop {
            self.skip_ws();
            if self.rest.is_empty() || self.rest.starts_with(')') {
                return Ok(out);
            }
            let negated = self.eat('!');
            self.skip_ws();
            let w = self
                .word()
                .ok_or_else(|| format!("unexpected `{}`", self.rest))?;
            if self.eat('?') {
                if !self.eat('(') {
                    return Err(format!("`{w} ?` must be followed by `(`"));
                }
                let body = self.exprs()?;
                if !self.eat(')') {
                    return Err("missing `)`".into());
                }
                out.push(Node::Cond {
                    negated,
                    flag: w.to_string(),
                    body,
                });
            } else if negated {
                return Err(format!("`!{w}` must be followed by `? (...)`"));
            } else {
                out.push(Node::Word(w.to_string()));
            }
        }
    }
}

fn parse(s: &str) -> Result<Vec<Node>, String> {
    let mut p = Parser { rest: s };
    let nodes = p.exprs()?;
    p.skip_ws();
    if !p.rest.is_empty() {
        return Err(format!("unexpected `{}`", p.rest));
    }
    if nodes.is_empty() {
        return Err("empty expression".into());
    }
    Ok(nodes)
}

fn expand_nodes(nodes: &[Node], flags: &BTreeSet<String>, out: &mut Vec<String>) {
    for n in nodes {
        match n {
            Node::Word(w) => out.push(w.clone()),
            Node::Cond {
                negated,
                flag,
                body,
            } => {
                if flags.contains(flag) != *negated {
                    expand_nodes(body, flags, out);
                }
            }
        }
    }
}

/// The words of `s` whose conditions hold for `flags`, in order.
pub fn expand(s: &str, flags: &BTreeSet<String>) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    expand_nodes(&parse(s)?, flags, &mut out);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn flags(f: &[&str]) -> BTreeSet<String> {
        f.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn words_and_conditions() {
        let e = "rtl !ecp5 ? (generic) ecp5 ? (tech a:b:c)";
        assert_eq!(expand(e, &flags(&[])).unwrap(), ["rtl", "generic"]);
        assert_eq!(
            expand(e, &flags(&["ecp5"])).unwrap(),
            ["rtl", "tech", "a:b:c"]
        );
    }

    #[test]
    fn nested() {
        let e = "a ? (x b ? (y) !b ? (z))";
        assert_eq!(expand(e, &flags(&["a", "b"])).unwrap(), ["x", "y"]);
        assert_eq!(expand(e, &flags(&["a"])).unwrap(), ["x", "z"]);
        assert!(expand(e, &flags(&["b"])).unwrap().is_empty());
    }

    #[test]
    fn malformed() {
        for bad in ["", "a ? b", "a ? (b", "!a", "a)", "a ? (b))", "(a)"] {
            assert!(expand(bad, &flags(&[])).is_err(), "{bad:?} accepted");
        }
    }
}
