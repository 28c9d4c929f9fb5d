//! Packer's function table (Packer v1.11.2, `hcl2template/functions.go`),
//! the oracle's `"funcs": "packer"`.
//!
//! Beside go-cty's stdlib functions (the same implementations as in
//! [`Functions::stdlib`](super::Functions::stdlib)) Packer has functions of
//! its own and of hashicorp/go-cty-funcs, reproduced here with their
//! results, types, refinements and error wording:
//!
//! - `cidrhost cidrnetmask cidrsubnet cidrsubnets` ([`cidr`]): Go's
//!   `net.ParseCIDR`, `net.IP.String` and apparentlymart/go-cidr, quirks
//!   included (negative host and network numbers, IPv4-mapped IPv6
//!   prefixes);
//! - `md5 sha1 sha256 sha512 bcrypt rsadecrypt uuidv4 uuidv5` ([`crypto`]);
//! - `base64encode base64decode urlencode` ([`encoding`]);
//! - `textencodebase64 textdecodebase64` ([`textencoding`]): every name
//!   and alias golang.org/x/text's `ianaindex` accepts, with x/text's own
//!   encodings (its charmap tables, UTF-16, its CJK codecs);
//! - `abspath basename dirname file fileexists pathexpand`
//!   ([`files`]), `fileset` ([`glob`]) and `templatefile` ([`template`]),
//!   which read the file system only as the host's [`FileAccess`] policy
//!   allows (templates are rendered by the `hclvm` crate, through a
//!   [`TemplateRenderer`]);
//! - `convert` (hcl's `typeexpr.ConvertFunc`), whose type argument the
//!   compiler reads as a type constraint ([`Param::type_constraint`]);
//! - `index length reverse coalesce` ([`collection`]): Packer's choices
//!   (`length` measures strings too, `reverse` reverses lists, `coalesce`
//!   skips empty strings);
//! - `timestamp legacy_isotime legacy_strftime` ([`time`]);
//! - `strrev` and `regex_replace`: the stdlib's `reverse` and
//!   `regexreplace` under Packer's names;
//! - `yamldecode yamlencode` ([`yaml`]): zclconf/go-cty-yaml's `Standard`
//!   converter and its libyaml port (syntax, implicit types, tags,
//!   anchors and merge keys, error texts and line numbers, the emitter's
//!   layout), with nesting and alias expansion bounded.
//!
//! `setsubtract`, `setsymmetricdifference`, `regexreplace` and the `to*`
//! conversion functions are not in Packer's table. The functions that read
//! the clock, randomness or the file system are impure
//! ([`Signature::pure`](super::Signature::pure) false): the compiler never
//! shares, memoizes or calls them ahead of evaluation.
//!
//! All of Packer's table is here but the three functions that read
//! secrets over the network, which the oracle leaves out too; a call to
//! one of them is
//! "Call to unknown function".

pub mod cidr;
pub mod collection;
pub mod crypto;
pub mod encoding;
pub mod files;
pub mod glob;
mod rsa;
pub mod template;
pub mod textencoding;
#[rustfmt::skip]
mod textencoding_cjk_tables;
mod textencoding_cjk;
mod textencoding_tables;
pub mod time;
pub mod yaml;

pub use files::FileAccess;
pub use template::{set_template_renderer, TemplateRenderer};

use super::{FnError, FunctionDef, ImplFn, Param, Signature, TypeFn};
use crate::types::Type;
use crate::value::Value;
use std::sync::Arc;

/// A definition plus its return type when that is fixed (as in `table.rs`).
type Entry = (FunctionDef, Option<Type>);

type Imp = fn(&[Value], &Type, &mut super::CallCtx) -> Result<Value, FnError>;

fn p(name: &str, ty: Type) -> Param {
    Param::new(name, ty)
}

/// A function with a fixed return type.
fn fixed(name: &str, params: Vec<Param>, var_param: Option<Param>, ret: Type, pure: bool, imp: ImplFn) -> Entry {
    let sig = Signature { params, var_param, pure };
    (FunctionDef::with_static_type(name, sig, ret.clone(), imp), Some(ret))
}

/// A function whose return type depends on its arguments.
fn typed(name: &str, params: Vec<Param>, var_param: Option<Param>, ty: TypeFn, imp: ImplFn) -> Entry {
    let def =
        FunctionDef { name: name.to_string(), signature: Signature { params, var_param, pure: true }, return_type: ty, imp, refine: None };
    (def, None)
}

fn imp(f: Imp) -> ImplFn {
    Arc::new(f)
}

/// The stdlib functions Packer's table does not have, or has in a version
/// of its own.
const NOT_FROM_STDLIB: &[&str] = &[
    "length",
    "coalesce",
    "reverse",
    "regexreplace",
    "setsubtract",
    "setsymmetricdifference",
    "tostring",
    "tonumber",
    "tobool",
    "tolist",
    "toset",
    "tomap",
];

/// Every function of Packer's table but `try` and `can` (special forms of
/// the VM), with the given file policy; `nested`: the table templates of
/// `templatefile` run with, where `templatefile` is Packer's stub.
pub(super) fn packer_entries(files: FileAccess, nested: bool) -> Vec<Entry> {
    use Type::{Bool as B, Dynamic as D, Number as N, String as S};
    let files = Arc::new(files);
    let mut out = Vec::new();
    for (mut def, ret) in super::table::stdlib_entries() {
        match def.name.as_str() {
            "reverse" => def.name = "strrev".to_string(),
            "regexreplace" => {
                def.name = "regex_replace".to_string();
                out.push((def, ret));
                continue;
            }
            n if NOT_FROM_STDLIB.contains(&n) => continue,
            _ => {}
        }
        out.push((def, ret));
    }
    let not_null = super::refine_not_null;
    let init_time = time::UtcTime::now();
    let f = files.clone();
    let file_fn: ImplFn = Arc::new(move |args, _, ctx| files::file(&f, args, ctx));
    let f = files.clone();
    let fileset_fn: ImplFn = Arc::new(move |args, _, ctx| glob::fileset(&f, args, ctx));
    let f = files.clone();
    let exists_fn: ImplFn = Arc::new(move |args, _, _| files::fileexists(&f, args));
    let f = files.clone();
    let abspath_fn: ImplFn = Arc::new(move |args, _, _| files::abspath(&f, args));
    let f = files.clone();
    let pathexpand_fn: ImplFn = Arc::new(move |args, _, _| files::pathexpand(&f, args));
    let templatefile_fn: ImplFn = if nested {
        Arc::new(|_, _, _| Err(FnError::new(template::RECURSIVE)))
    } else {
        let f = files.clone();
        let inner = Arc::new(std::sync::OnceLock::new());
        Arc::new(move |args, _, ctx| template::templatefile(&f, &inner, || super::Functions::packer_nested((*f).clone()), args, ctx))
    };
    let templatefile_type: TypeFn = if nested {
        Arc::new(|_| Err(FnError::new(template::RECURSIVE)))
    } else {
        // cty's type step renders the template to learn the type; here
        // the result is checked against dynamic, which any value is.
        Arc::new(|_| Ok(Type::Dynamic))
    };
    let isotime_fn: ImplFn = Arc::new(move |args, _, ctx| time::legacy_isotime(init_time, args, ctx));
    let strftime_fn: ImplFn = Arc::new(move |args, _, ctx| time::legacy_strftime(init_time, args, ctx));
    let mut own = vec![
        // collections: Packer's versions
        fixed("index", vec![p("list", D), p("value", D)], None, N, true, imp(collection::index)),
        typed("length", vec![p("value", D).dynamic().unknown()], None, Arc::new(collection::length_type), imp(collection::length)),
        typed("reverse", vec![p("list", D)], None, Arc::new(collection::reverse_type), imp(collection::reverse)),
        typed(
            "coalesce",
            vec![],
            Some(p("vals", D).unknown().dynamic().null()),
            Arc::new(crate::func::collection::coalesce_type),
            imp(collection::coalesce),
        ),
        // hcl's typeexpr.ConvertFunc
        typed(
            "convert",
            vec![p("value", D).null().dynamic(), Param::type_constraint("type")],
            None,
            Arc::new(convert_type),
            imp(convert_value),
        ),
        // cidr
        fixed("cidrhost", vec![p("prefix", S), p("hostnum", N)], None, S, true, imp(cidr::cidrhost)),
        fixed("cidrnetmask", vec![p("prefix", S)], None, S, true, imp(cidr::cidrnetmask)),
        fixed("cidrsubnet", vec![p("prefix", S), p("newbits", N), p("netnum", N)], None, S, true, imp(cidr::cidrsubnet)),
        fixed("cidrsubnets", vec![p("prefix", S)], Some(p("newbits", N)), Type::list(S), true, imp(cidr::cidrsubnets)),
        // crypto
        fixed("md5", vec![p("str", S)], None, S, true, imp(crypto::md5)),
        fixed("sha1", vec![p("str", S)], None, S, true, imp(crypto::sha1)),
        fixed("sha256", vec![p("str", S)], None, S, true, imp(crypto::sha256)),
        fixed("sha512", vec![p("str", S)], None, S, true, imp(crypto::sha512)),
        fixed("bcrypt", vec![p("str", S)], Some(p("cost", N)), S, false, imp(crypto::bcrypt)),
        fixed("uuidv4", vec![], None, S, false, imp(crypto::uuidv4)),
        fixed("rsadecrypt", vec![p("ciphertext", S), p("privatekey", S)], None, S, true, imp(crypto::rsadecrypt)),
        fixed("uuidv5", vec![p("namespace", S), p("name", S)], None, S, true, imp(crypto::uuidv5)),
        // encoding
        fixed("base64encode", vec![p("str", S)], None, S, true, imp(encoding::base64encode)),
        fixed("base64decode", vec![p("str", S)], None, S, true, imp(encoding::base64decode)),
        fixed("urlencode", vec![p("str", S)], None, S, true, imp(encoding::urlencode)),
        fixed("textencodebase64", vec![p("string", S), p("encoding", S)], None, S, true, imp(textencoding::textencodebase64)),
        fixed("textdecodebase64", vec![p("source", S), p("encoding", S)], None, S, true, imp(textencoding::textdecodebase64)),
        // files and paths
        fixed("basename", vec![p("path", S)], None, S, true, imp(files::basename)),
        fixed("dirname", vec![p("path", S)], None, S, true, imp(files::dirname)),
        fixed("abspath", vec![p("path", S)], None, S, false, abspath_fn),
        fixed("pathexpand", vec![p("path", S)], None, S, false, pathexpand_fn),
        fixed("file", vec![p("path", S)], None, S, false, file_fn),
        fixed("fileexists", vec![p("path", S)], None, B, false, exists_fn),
        (
            FunctionDef {
                name: "templatefile".into(),
                signature: Signature { params: vec![p("path", S), p("vars", D)], var_param: None, pure: false },
                return_type: templatefile_type,
                imp: templatefile_fn,
                refine: None,
            },
            None,
        ),
        fixed("fileset", vec![p("path", S), p("pattern", S)], None, Type::set(S), false, fileset_fn),
        // time
        fixed("timestamp", vec![], None, S, false, imp(time::timestamp)),
        fixed("legacy_isotime", vec![], Some(p("format", S)), S, false, isotime_fn),
        fixed("legacy_strftime", vec![], Some(p("format", S)), S, false, strftime_fn),
        // YAML (zclconf/go-cty-yaml)
        typed("yamldecode", vec![p("src", S)], None, Arc::new(|_| Ok(Type::Dynamic)), imp(yaml::yamldecode)),
        fixed("yamlencode", vec![p("value", D).dynamic().null()], None, S, true, imp(yaml::yamlencode)),
    ];
    // Packer's own functions (and go-cty's ReverseListFunc) declare their
    // results not null; go-cty-funcs' functions declare nothing.
    for (def, _) in &mut own {
        if matches!(
            def.name.as_str(),
            "index" | "length" | "reverse" | "timestamp" | "legacy_isotime" | "legacy_strftime" | "textencodebase64" | "textdecodebase64"
        ) {
            def.refine = Some(not_null);
        }
    }
    out.extend(own);
    out
}

/// The type a `convert` argument holds (the compiler passes a null of the
/// type constraint, [`Param::type_constraint`]).
fn wanted_type(v: &Value) -> Result<&Type, FnError> {
    match v {
        Value::Null(t) => Ok(t),
        _ => Err(FnError::arg(1, "a type constraint is required")),
    }
}

/// `convert`'s type: the type of the converted value.
fn convert_type(args: &[Value]) -> Result<Type, FnError> {
    let want = wanted_type(&args[1])?;
    crate::convert::convert(&args[0], want).map(|v| v.ty()).map_err(|e| FnError::arg(0, e.to_string()))
}

/// `convert(value, type)`: cty's `convert.Convert` to the type computed.
fn convert_value(args: &[Value], ret: &Type, _: &mut super::CallCtx) -> Result<Value, FnError> {
    crate::convert::convert(&args[0], ret).map_err(|e| FnError::arg(0, e.to_string()))
}
