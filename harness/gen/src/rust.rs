//! Rust renderer. The output uses only `crate::bits` and the support types of `onerma-layouts`
//! so the bit arithmetic lives in one hand-written, unit-tested place.

use std::fmt::Write as _;

use crate::spec::{Enum, FieldKind, Layout, Spec};

fn doc(out: &mut String, indent: &str, text: &str) {
    for line in text.lines() {
        let line = line.trim_end();
        if line.is_empty() {
            let _ = writeln!(out, "{indent}///");
        } else {
            let _ = writeln!(out, "{indent}/// {line}");
        }
    }
}

/// Spec doc, then a blank doc line only when there was a spec doc, then `extra`.
fn doc_then(out: &mut String, indent: &str, text: &str, extra: &str) {
    doc(out, indent, text);
    if !text.is_empty() {
        let _ = writeln!(out, "{indent}///");
    }
    doc(out, indent, extra);
}

fn line_comment(out: &mut String, text: &str) {
    for line in text.lines() {
        let _ = writeln!(out, "// {}", line.trim_end());
    }
}

/// Expression converting `expr` of the Rust type `ty` to `u128`, without a no-op conversion
/// that clippy would flag.
fn to_u128(expr: &str, ty: &str) -> String {
    if ty == "u128" {
        expr.to_string()
    } else {
        format!("u128::from({expr})")
    }
}

/// Expression narrowing a `u128` already known to fit to `ty`.
fn from_u128(expr: &str, ty: &str) -> String {
    if ty == "u128" {
        expr.to_string()
    } else {
        format!("{expr} as {ty}")
    }
}

fn render_enum(o: &mut String, e: &Enum) {
    let ty = &e.rust_type;
    let repr = e.rust_repr;
    o.push('\n');
    doc_then(
        o,
        "",
        &e.doc,
        &format!("SV: `{}` ({} bits).", e.sv_type, e.bits),
    );
    let _ = writeln!(o, "#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]");
    let _ = writeln!(o, "#[repr({repr})]");
    let _ = writeln!(o, "pub enum {ty} {{");
    for v in &e.values {
        doc(o, "    ", &v.doc);
        let _ = writeln!(o, "    {} = {},", v.rust_name, v.value);
    }
    let _ = writeln!(o, "}}\n");

    let _ = writeln!(o, "impl {ty} {{");
    let _ = writeln!(o, "    /// Every value, in spec order.");
    let all: Vec<String> = e
        .values
        .iter()
        .map(|v| format!("Self::{}", v.rust_name))
        .collect();
    let _ = writeln!(
        o,
        "    pub const ALL: [Self; {}] = [{}];\n",
        e.values.len(),
        all.join(", ")
    );
    let _ = writeln!(o, "    /// The encoding on the wire and in the SV enum.");
    let _ = writeln!(
        o,
        "    pub const fn as_raw(self) -> {repr} {{\n        self as {repr}\n    }}"
    );
    let _ = writeln!(o, "}}\n");

    let _ = writeln!(o, "impl TryFrom<{repr}> for {ty} {{");
    let _ = writeln!(o, "    type Error = LayoutError;\n");
    let _ = writeln!(
        o,
        "    fn try_from(raw: {repr}) -> Result<Self, LayoutError> {{"
    );
    let _ = writeln!(o, "        match raw {{");
    for v in &e.values {
        let _ = writeln!(o, "            {} => Ok(Self::{}),", v.value, v.rust_name);
    }
    let _ = writeln!(
        o,
        "            _ => Err(LayoutError::UnknownEnumValue {{ enum_name: {:?}, value: {} }}),",
        e.name,
        to_u128("raw", repr)
    );
    let _ = writeln!(o, "        }}\n    }}\n}}\n");

    let _ = writeln!(o, "impl LayoutEnum for {ty} {{");
    let _ = writeln!(o, "    const NAME: &'static str = {:?};", e.name);
    let _ = writeln!(o, "    const BITS: u32 = {};", e.bits);
    let raws: Vec<String> = e.values.iter().map(|v| v.value.to_string()).collect();
    let _ = writeln!(
        o,
        "    const RAW_VALUES: &'static [u128] = &[{}];\n",
        raws.join(", ")
    );
    let _ = writeln!(o, "    fn from_u128(raw: u128) -> Option<Self> {{");
    if repr == "u128" {
        let _ = writeln!(o, "        Self::try_from(raw).ok()");
    } else {
        let _ = writeln!(
            o,
            "        {repr}::try_from(raw).ok().and_then(|r| Self::try_from(r).ok())"
        );
    }
    let _ = writeln!(o, "    }}\n");
    let _ = writeln!(
        o,
        "    fn to_u128(self) -> u128 {{\n        {}\n    }}",
        to_u128("self.as_raw()", repr)
    );
    let _ = writeln!(o, "}}");
}

fn render_layout(o: &mut String, spec: &Spec, l: &Layout) {
    let ty = &l.rust_type;
    let name = &l.name;
    let total = l.bits();
    o.push('\n');
    doc_then(
        o,
        "",
        &l.doc,
        &format!(
            "SV: `{}` ({} bytes). Reserved fields are not stored: they are zero on the wire.",
            l.sv_type, l.bytes
        ),
    );
    let _ = writeln!(o, "#[derive(Debug, Clone, PartialEq, Eq, Hash)]");
    let _ = writeln!(o, "pub struct {ty} {{");
    for f in l.data_fields() {
        let at = format!(
            "{} bits at `[{}:{}]`.",
            f.bits,
            f.sv_msb(total),
            f.sv_lsb(total)
        );
        doc_then(o, "    ", &f.doc, &at);
        let fty = match f.kind {
            FieldKind::Enum { index } => spec.enums[index].rust_type.as_str(),
            FieldKind::Value { rust_type } => rust_type,
            FieldKind::Reserved => continue,
        };
        let _ = writeln!(o, "    pub {}: {fty},", f.name);
    }
    let _ = writeln!(o, "}}\n");

    let _ = writeln!(o, "impl {ty} {{");
    let _ = writeln!(
        o,
        "    /// Serialised size.\n    pub const BYTES: usize = {};",
        l.bytes
    );
    let _ = writeln!(
        o,
        "    /// Width of the SV struct (`{}`).\n    pub const BITS: usize = {total};\n",
        l.sv_bits_param
    );
    let _ = writeln!(
        o,
        "    /// Packs into network order (byte 0 = most significant bits), reserved bits zero."
    );
    let _ = writeln!(
        o,
        "    ///\n    /// # Errors\n    /// [`LayoutError::FieldOverflow`] if a field holds a value wider than its spec width."
    );
    let _ = writeln!(
        o,
        "    pub fn to_bytes(&self) -> Result<[u8; Self::BYTES], LayoutError> {{"
    );
    let _ = writeln!(o, "        let mut b = [0u8; Self::BYTES];");
    for f in l.data_fields() {
        let val = match f.kind {
            FieldKind::Enum { .. } => format!("self.{}.to_u128()", f.name),
            FieldKind::Value { rust_type } => to_u128(&format!("self.{}", f.name), rust_type),
            FieldKind::Reserved => continue,
        };
        let _ = writeln!(
            o,
            "        bits::put_field(&mut b, {}, {}, {val}, \"{name}.{}\")?;",
            f.offset, f.bits, f.name
        );
    }
    let _ = writeln!(o, "        Ok(b)\n    }}\n");

    let _ = writeln!(o, "    /// Unpacks from network order.");
    let _ = writeln!(
        o,
        "    ///\n    /// # Errors\n    /// Wrong length, nonzero reserved bits or an unknown enum value: the NIC treats such input as malformed."
    );
    let _ = writeln!(
        o,
        "    pub fn from_bytes(b: &[u8]) -> Result<Self, LayoutError> {{"
    );
    let _ = writeln!(o, "        bits::check_len(b, Self::BYTES, {name:?})?;");
    for f in &l.fields {
        if matches!(f.kind, FieldKind::Reserved) {
            let _ = writeln!(
                o,
                "        bits::check_reserved(b, {}, {}, \"{name}.{}\")?;",
                f.offset, f.bits, f.name
            );
        }
    }
    let _ = writeln!(o, "        Ok(Self {{");
    for f in l.data_fields() {
        let expr = match f.kind {
            FieldKind::Enum { .. } => format!(
                "bits::get_enum(b, {}, {}, \"{name}.{}\")?",
                f.offset, f.bits, f.name
            ),
            FieldKind::Value { rust_type } => from_u128(
                &format!("bits::get(b, {}, {})", f.offset, f.bits),
                rust_type,
            ),
            FieldKind::Reserved => continue,
        };
        let _ = writeln!(o, "            {}: {expr},", f.name);
    }
    let _ = writeln!(o, "        }})\n    }}\n}}\n");

    let data: Vec<_> = l.data_fields().collect();
    let _ = writeln!(o, "impl Layout for {ty} {{");
    let _ = writeln!(o, "    const NAME: &'static str = {name:?};");
    let _ = writeln!(o, "    const BYTES: usize = {};", l.bytes);
    let _ = writeln!(o, "    const FIELDS: &'static [FieldInfo] = &[");
    for f in &l.fields {
        let kind = match f.kind {
            FieldKind::Enum { index } => {
                let t = &spec.enums[index].rust_type;
                format!("FieldKind::Enum {{ name: {t}::NAME, values: {t}::RAW_VALUES }}")
            }
            FieldKind::Value { .. } => "FieldKind::Value".to_string(),
            FieldKind::Reserved => "FieldKind::Reserved".to_string(),
        };
        let _ = writeln!(
            o,
            "        FieldInfo {{ name: {:?}, offset: {}, bits: {}, kind: {kind} }},",
            f.name, f.offset, f.bits
        );
    }
    let _ = writeln!(o, "    ];\n");
    let _ = writeln!(
        o,
        "    fn encode(&self) -> Result<Vec<u8>, LayoutError> {{\n        Ok(self.to_bytes()?.to_vec())\n    }}\n"
    );
    let _ = writeln!(
        o,
        "    fn decode(b: &[u8]) -> Result<Self, LayoutError> {{\n        Self::from_bytes(b)\n    }}\n"
    );
    let vals: Vec<String> = data
        .iter()
        .map(|f| match f.kind {
            FieldKind::Enum { .. } => format!("self.{}.to_u128()", f.name),
            FieldKind::Value { rust_type } => to_u128(&format!("self.{}", f.name), rust_type),
            FieldKind::Reserved => String::new(),
        })
        .collect();
    let _ = writeln!(
        o,
        "    fn field_values(&self) -> Vec<u128> {{\n        vec![{}]\n    }}\n",
        vals.join(", ")
    );
    let _ = writeln!(
        o,
        "    fn from_field_values(v: &[u128]) -> Result<Self, LayoutError> {{"
    );
    let _ = writeln!(o, "        if v.len() != {} {{", data.len());
    let _ = writeln!(
        o,
        "            return Err(LayoutError::FieldCount {{ layout: {name:?}, expected: {}, actual: v.len() }});\n        }}",
        data.len()
    );
    let _ = writeln!(o, "        Ok(Self {{");
    for (i, f) in data.iter().enumerate() {
        let expr = match f.kind {
            FieldKind::Enum { .. } => format!("bits::enum_value(v[{i}], \"{name}.{}\")?", f.name),
            FieldKind::Value { rust_type } => from_u128(
                &format!(
                    "bits::field_value(v[{i}], {}, \"{name}.{}\")?",
                    f.bits, f.name
                ),
                rust_type,
            ),
            FieldKind::Reserved => continue,
        };
        let _ = writeln!(o, "            {}: {expr},", f.name);
    }
    let _ = writeln!(o, "        }})\n    }}\n}}");
}

/// Unformatted Rust source; [`crate::rustfmt`] makes it match `cargo fmt`.
pub fn render(spec: &Spec, header: &str) -> String {
    let mut o = String::new();
    line_comment(&mut o, header);
    o.push('\n');
    if !spec.doc.is_empty() {
        line_comment(&mut o, &spec.doc);
        o.push('\n');
    }
    // Import only what is used so that a spec without enums or layouts stays warning-free.
    let mut imports = Vec::new();
    if !spec.layouts.is_empty() {
        o.push_str("use crate::bits;\n");
        imports.extend(["FieldInfo", "FieldKind", "Layout"]);
    }
    if !spec.enums.is_empty() {
        imports.push("LayoutEnum");
    }
    if !spec.enums.is_empty() || !spec.layouts.is_empty() {
        imports.push("LayoutError");
    }
    if !imports.is_empty() {
        let _ = writeln!(o, "use crate::{{{}}};", imports.join(", "));
    }

    for c in &spec.constants {
        o.push('\n');
        doc(&mut o, "", &c.doc);
        let _ = writeln!(o, "pub const {}: usize = {};", c.name, c.value);
    }
    for e in &spec.enums {
        render_enum(&mut o, e);
    }
    for l in &spec.layouts {
        render_layout(&mut o, spec, l);
    }

    o.push_str("\n/// Calls `$m!(Type)` once per layout struct, so tests and tools can cover every layout\n");
    o.push_str("/// without listing them by hand.\n#[macro_export]\nmacro_rules! for_each_layout {\n    ($m:ident) => {\n");
    for l in &spec.layouts {
        let _ = writeln!(o, "        $m!({});", l.rust_type);
    }
    o.push_str("    };\n}\n");
    o.push_str("\n/// Calls `$m!(Type, repr)` once per enum.\n#[macro_export]\nmacro_rules! for_each_enum {\n    ($m:ident) => {\n");
    for e in &spec.enums {
        let _ = writeln!(o, "        $m!({}, {});", e.rust_type, e.rust_repr);
    }
    o.push_str("    };\n}\n");
    o
}
