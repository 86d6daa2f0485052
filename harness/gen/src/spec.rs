//! `spec/layouts.json`: the raw schema and its validation into a checked model.
//!
//! Everything the renderers need (bit offsets, identifier spellings, Rust types) is computed
//! here once, so the three outputs cannot disagree about a layout.

use std::collections::{BTreeMap, BTreeSet};

use serde::Deserialize;

use crate::GenError;
use crate::names::{is_lower_snake, is_rust_keyword, is_sv_keyword, is_upper_snake, upper_camel};

/// The file as written. Unknown keys are rejected so that a typo such as `"reserverd": true`
/// cannot silently turn a reserved field into a data field.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawSpec {
    pub package: String,
    #[serde(default)]
    pub doc: Option<String>,
    #[serde(default)]
    pub constants: Vec<RawConstant>,
    #[serde(default)]
    pub enums: Vec<RawEnum>,
    #[serde(default)]
    pub layouts: Vec<RawLayout>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawConstant {
    pub name: String,
    pub value: u64,
    #[serde(default)]
    pub doc: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawEnum {
    pub name: String,
    pub bits: u32,
    #[serde(default)]
    pub doc: Option<String>,
    pub values: Vec<RawEnumValue>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawEnumValue {
    pub name: String,
    pub value: u128,
    #[serde(default)]
    pub doc: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawLayout {
    pub name: String,
    #[serde(default)]
    pub doc: Option<String>,
    pub bytes: usize,
    pub fields: Vec<RawField>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawField {
    pub name: String,
    pub bits: u32,
    #[serde(default)]
    pub doc: Option<String>,
    #[serde(default, rename = "enum")]
    pub enum_name: Option<String>,
    #[serde(default)]
    pub reserved: bool,
}

/// Validated spec with every derived spelling and offset.
#[derive(Debug)]
pub struct Spec {
    pub package: String,
    pub doc: String,
    pub constants: Vec<Constant>,
    pub enums: Vec<Enum>,
    pub layouts: Vec<Layout>,
}

#[derive(Debug)]
pub struct Constant {
    pub name: String,
    pub sv_name: String,
    pub value: u64,
    pub doc: String,
}

#[derive(Debug)]
pub struct Enum {
    pub name: String,
    pub bits: u32,
    pub doc: String,
    /// `op_type_e`
    pub sv_type: String,
    /// `OpType`
    pub rust_type: String,
    /// `u8`, `u16`, ... : smallest unsigned type holding `bits`.
    pub rust_repr: &'static str,
    pub values: Vec<EnumValue>,
}

#[derive(Debug)]
pub struct EnumValue {
    pub name: String,
    pub value: u128,
    pub doc: String,
    /// `OpTypeRead`
    pub sv_name: String,
    /// `Read`
    pub rust_name: String,
}

#[derive(Debug)]
pub struct Layout {
    pub name: String,
    pub doc: String,
    pub bytes: usize,
    /// `cmd_t`
    pub sv_type: String,
    /// `CmdTBits`
    pub sv_bits_param: String,
    /// `Cmd`
    pub rust_type: String,
    pub fields: Vec<Field>,
}

impl Layout {
    pub fn bits(&self) -> usize {
        self.bytes * 8
    }

    pub fn data_fields(&self) -> impl Iterator<Item = &Field> {
        self.fields
            .iter()
            .filter(|f| !matches!(f.kind, FieldKind::Reserved))
    }
}

#[derive(Debug)]
pub struct Field {
    pub name: String,
    pub bits: u32,
    pub doc: String,
    /// Bit offset of the field's most significant bit, counted from the most significant bit of
    /// byte 0 (network order).
    pub offset: usize,
    pub kind: FieldKind,
}

impl Field {
    /// Most significant bit index in the packed SV struct of a layout of `total` bits.
    pub fn sv_msb(&self, total: usize) -> usize {
        total - 1 - self.offset
    }

    pub fn sv_lsb(&self, total: usize) -> usize {
        total - self.offset - self.bits as usize
    }
}

#[derive(Debug)]
pub enum FieldKind {
    /// Plain unsigned value held in the Rust type named here.
    Value {
        rust_type: &'static str,
    },
    /// Index into [`Spec::enums`].
    Enum {
        index: usize,
    },
    Reserved,
}

/// Rust's smallest unsigned integer type that holds `bits` (1..=128).
pub fn rust_uint(bits: u32) -> &'static str {
    match bits {
        0..=8 => "u8",
        9..=16 => "u16",
        17..=32 => "u32",
        33..=64 => "u64",
        _ => "u128",
    }
}

fn doc(d: &Option<String>) -> String {
    d.as_deref().unwrap_or("").trim().to_string()
}

/// Records every identifier emitted into one namespace and reports the first clash with the
/// spec names that produced it, since two spec names can map to one spelling (`a_b` vs `ab_`).
struct Namespace {
    what: &'static str,
    seen: BTreeMap<String, String>,
}

impl Namespace {
    fn new(what: &'static str) -> Self {
        Self {
            what,
            seen: BTreeMap::new(),
        }
    }

    fn claim(&mut self, ident: &str, origin: &str) -> Result<(), GenError> {
        if let Some(prev) = self.seen.insert(ident.to_string(), origin.to_string()) {
            return Err(GenError::Spec(format!(
                "{} identifier `{ident}` produced by both {prev} and {origin}",
                self.what
            )));
        }
        Ok(())
    }
}

fn check_lower(name: &str, what: &str) -> Result<(), GenError> {
    if !is_lower_snake(name) {
        return Err(GenError::Spec(format!(
            "{what} name `{name}` must be lower_snake_case ([a-z][a-z0-9]*(_[a-z0-9]+)*)"
        )));
    }
    if is_sv_keyword(name) || is_rust_keyword(name) {
        return Err(GenError::Spec(format!(
            "{what} name `{name}` is a SystemVerilog or Rust keyword"
        )));
    }
    Ok(())
}

fn check_upper(name: &str, what: &str) -> Result<(), GenError> {
    if !is_upper_snake(name) {
        return Err(GenError::Spec(format!(
            "{what} name `{name}` must be UPPER_SNAKE_CASE ([A-Z][A-Z0-9]*(_[A-Z0-9]+)*)"
        )));
    }
    Ok(())
}

/// Validates a raw spec: names, widths, enum ranges, and that every layout's field widths add
/// up to exactly `bytes * 8`.
/// The chunk constants are written out (HDL port widths need plain constants) but must agree:
/// `MAX_CHUNKS = MAX_OP_BYTES / CHUNK_BYTES`, a power of two, and `CHUNK_INDEX_BITS` its log2
/// (at least 1, so a chunk index is never a zero-width vector).
fn check_chunk_constants(constants: &[Constant]) -> Result<(), GenError> {
    let get = |n: &str| constants.iter().find(|c| c.name == n).map(|c| c.value);
    let (Some(op), Some(chunk), Some(max), Some(bits)) = (
        get("MAX_OP_BYTES"),
        get("CHUNK_BYTES"),
        get("MAX_CHUNKS"),
        get("CHUNK_INDEX_BITS"),
    ) else {
        return Ok(());
    };
    let want_bits = u64::from(max.max(2).next_power_of_two().trailing_zeros());
    if chunk == 0
        || op % chunk != 0
        || op / chunk != max
        || !max.is_power_of_two()
        || bits != want_bits
    {
        return Err(GenError::Spec(format!(
            "chunk constants disagree: MAX_OP_BYTES {op}, CHUNK_BYTES {chunk}, MAX_CHUNKS {max} \
             (must be MAX_OP_BYTES / CHUNK_BYTES, a power of two), CHUNK_INDEX_BITS {bits} (must be {want_bits})"
        )));
    }
    Ok(())
}

pub fn validate(raw: RawSpec) -> Result<Spec, GenError> {
    check_lower(&raw.package, "package")?;

    // SV package scope and Rust module scope are each one namespace for what we emit.
    let mut sv = Namespace::new("SystemVerilog");
    let mut rs = Namespace::new("Rust");
    // Names the generated Rust imports from the hand-written part of the crate.
    for fixed in [
        "Layout",
        "LayoutEnum",
        "LayoutError",
        "FieldInfo",
        "FieldKind",
    ] {
        rs.claim(fixed, "the onerma-layouts support code")?;
    }

    let mut constants = Vec::new();
    for c in &raw.constants {
        check_upper(&c.name, "constant")?;
        if c.value > u64::from(u32::MAX) {
            return Err(GenError::Spec(format!(
                "constant {} = {} does not fit the SV `int unsigned` it is emitted as",
                c.name, c.value
            )));
        }
        let sv_name = upper_camel(&c.name);
        sv.claim(&sv_name, &format!("constant {}", c.name))?;
        rs.claim(&c.name, &format!("constant {}", c.name))?;
        constants.push(Constant {
            name: c.name.clone(),
            sv_name,
            value: c.value,
            doc: doc(&c.doc),
        });
    }

    check_chunk_constants(&constants)?;

    let mut enums = Vec::new();
    let mut enum_index = BTreeMap::new();
    for e in &raw.enums {
        check_lower(&e.name, "enum")?;
        if !(1..=128).contains(&e.bits) {
            return Err(GenError::Spec(format!(
                "enum {}: bits = {} not in 1..=128",
                e.name, e.bits
            )));
        }
        if e.values.is_empty() {
            return Err(GenError::Spec(format!("enum {} has no values", e.name)));
        }
        let sv_type = format!("{}_e", e.name);
        let rust_type = upper_camel(&e.name);
        sv.claim(&sv_type, &format!("enum {}", e.name))?;
        rs.claim(&rust_type, &format!("enum {}", e.name))?;
        let mut variant_names = Namespace::new("Rust variant");
        let mut raw_values = BTreeSet::new();
        let mut values = Vec::new();
        for v in &e.values {
            check_upper(&v.name, &format!("enum {} value", e.name))?;
            if e.bits < 128 && v.value >> e.bits != 0 {
                return Err(GenError::Spec(format!(
                    "enum {}: value {} = {} does not fit in {} bits",
                    e.name, v.name, v.value, e.bits
                )));
            }
            if !raw_values.insert(v.value) {
                return Err(GenError::Spec(format!(
                    "enum {}: value {} = {} is used twice",
                    e.name, v.name, v.value
                )));
            }
            let sv_name = upper_camel(&format!("{}_{}", e.name, v.name));
            let rust_name = upper_camel(&v.name);
            sv.claim(&sv_name, &format!("enum value {}.{}", e.name, v.name))?;
            variant_names.claim(&rust_name, &format!("enum value {}.{}", e.name, v.name))?;
            values.push(EnumValue {
                name: v.name.clone(),
                value: v.value,
                doc: doc(&v.doc),
                sv_name,
                rust_name,
            });
        }
        if enum_index.insert(e.name.clone(), enums.len()).is_some() {
            return Err(GenError::Spec(format!("enum {} defined twice", e.name)));
        }
        enums.push(Enum {
            name: e.name.clone(),
            bits: e.bits,
            doc: doc(&e.doc),
            sv_type,
            rust_type,
            rust_repr: rust_uint(e.bits),
            values,
        });
    }

    let mut layouts = Vec::new();
    for l in &raw.layouts {
        check_lower(&l.name, "layout")?;
        if l.bytes == 0 {
            return Err(GenError::Spec(format!(
                "layout {}: bytes must be at least 1",
                l.name
            )));
        }
        let sv_type = format!("{}_t", l.name);
        let sv_bits_param = format!("{}Bits", upper_camel(&sv_type));
        let rust_type = upper_camel(&l.name);
        sv.claim(&sv_type, &format!("layout {}", l.name))?;
        sv.claim(&sv_bits_param, &format!("layout {}", l.name))?;
        rs.claim(&rust_type, &format!("layout {}", l.name))?;

        let mut field_names = BTreeSet::new();
        let mut offset = 0usize;
        let mut fields = Vec::new();
        for f in &l.fields {
            let what = format!("layout {} field", l.name);
            check_lower(&f.name, &what)?;
            if !field_names.insert(f.name.clone()) {
                return Err(GenError::Spec(format!(
                    "layout {}: field {} appears twice",
                    l.name, f.name
                )));
            }
            if !(1..=128).contains(&f.bits) {
                return Err(GenError::Spec(format!(
                    "layout {}: field {} has bits = {}, not in 1..=128",
                    l.name, f.name, f.bits
                )));
            }
            let kind = match (&f.enum_name, f.reserved) {
                (Some(_), true) => {
                    return Err(GenError::Spec(format!(
                        "layout {}: field {} is both reserved and an enum",
                        l.name, f.name
                    )));
                }
                (Some(en), false) => {
                    let index = *enum_index.get(en).ok_or_else(|| {
                        GenError::Spec(format!(
                            "layout {}: field {} refers to unknown enum {en}",
                            l.name, f.name
                        ))
                    })?;
                    let e = &enums[index];
                    if e.bits != f.bits {
                        return Err(GenError::Spec(format!(
                            "layout {}: field {} has {} bits but enum {} has {}",
                            l.name, f.name, f.bits, e.name, e.bits
                        )));
                    }
                    FieldKind::Enum { index }
                }
                (None, true) => FieldKind::Reserved,
                (None, false) => FieldKind::Value {
                    rust_type: rust_uint(f.bits),
                },
            };
            fields.push(Field {
                name: f.name.clone(),
                bits: f.bits,
                doc: doc(&f.doc),
                offset,
                kind,
            });
            offset += f.bits as usize;
        }
        if offset != l.bytes * 8 {
            return Err(GenError::Spec(format!(
                "layout {}: fields add up to {offset} bits but bytes = {} needs {} bits ({})",
                l.name,
                l.bytes,
                l.bytes * 8,
                if offset < l.bytes * 8 {
                    format!("{} missing", l.bytes * 8 - offset)
                } else {
                    format!("{} too many", offset - l.bytes * 8)
                }
            )));
        }
        layouts.push(Layout {
            name: l.name.clone(),
            doc: doc(&l.doc),
            bytes: l.bytes,
            sv_type,
            sv_bits_param,
            rust_type,
            fields,
        });
    }

    Ok(Spec {
        package: raw.package,
        doc: doc(&raw.doc),
        constants,
        enums,
        layouts,
    })
}
