//! `#[model]`: the wire conventions of predmarket-core's models, written
//! once instead of on every field.
//!
//! Put it above the struct's `#[derive(..)]`. For every named field it
//! adds, unless the field already says otherwise:
//!
//! - `Option<T>`: `#[serde(default, skip_serializing_if = "…::is_none")]`,
//!   so an absent or `null` value decodes as `None` and the strict server
//!   still omits it. The path is deliberately not `Option::is_none`: tsify
//!   0.5.8 turns exactly that path into `field?: T` and drops the `| null`
//!   that JS really receives; any other path gives `field?: T | null`.
//! - a tolerant deserializer by type (`crate::models::wire`): `f64` from a
//!   number or a numeric string; `String` from a string or a number;
//!   `bool` from a bool or `"true"`/`"false"`; `Vec<String>` from an array
//!   or a JSON-encoded string; `Vec<T>` keeping the items that decode; any
//!   other `T` becomes `None` when it does not decode, instead of failing
//!   the resource. A field with its own `with` / `deserialize_with` keeps it.
//! - TypeScript: `f64` is declared `Numeric` (`number | string`: the
//!   public service sends numeric strings), `#[model(timestamp)]` fields
//!   `Timestamp` (`string | number`), `#[model(ts = "X")]` declares `X`;
//!   for an `Option` each gets `| null`.
//!
//! On the struct it adds the tsify derive (feature `tsify`) and the
//! schemars derive (feature `schema`).
//!
//! Field markers, `#[model(..)]`:
//! - `always`: serialize `null` when `None` (no `skip_serializing_if`);
//! - `timestamp`: a time in any documented form (see `crate::time`); on an
//!   `f64` field it is read as Unix seconds, an ISO text converted;
//! - `ts = "X"`: the TypeScript type (without `| null`);
//! - `also = "name"`: a second wire spelling of the field (`serde(alias)`);
//!   the TypeScript declaration gets it as an optional member too, and the
//!   field itself becomes optional there (either spelling may be sent);
//! - `strict`: no tolerant deserializer;
//! - `integer`: an `f64` the spec calls an integer: written back as one
//!   (`2025`, not `2025.0`, see `wire::int`) and an `integer` in the JSON
//!   Schema, which describes what the server writes.
//!
//! The JSON Schema describes the serialized form, the one the strict
//! server writes: schemars ignores the tolerant `deserialize_with`, so an
//! `f64` is a `number` there, not the `number | string` a reader accepts
//! (that tolerance is in the TypeScript declarations only, which describe
//! what JS may receive from any service).

mod js_client;

use proc_macro::TokenStream;
use proc_macro2::TokenStream as Tokens;
use quote::quote;
use syn::{
    Attribute, Data, DeriveInput, Field, Fields, GenericArgument, LitStr, PathArguments, Type,
    parse_macro_input,
};

const WIRE: &str = "crate::models::wire";

#[proc_macro_attribute]
pub fn model(args: TokenStream, item: TokenStream) -> TokenStream {
    if !args.is_empty() {
        return syn::Error::new(
            proc_macro2::Span::call_site(),
            "#[model] takes no arguments",
        )
        .to_compile_error()
        .into();
    }
    let mut input = parse_macro_input!(item as DeriveInput);
    match expand(&mut input) {
        Ok(extra) => quote! {
            #[cfg_attr(feature = "tsify", derive(::tsify::Tsify))]
            #[cfg_attr(feature = "schema", derive(::schemars::JsonSchema))]
            #input
            #extra
        }
        .into(),
        Err(e) => e.to_compile_error().into(),
    }
}

#[derive(Default)]
struct Markers {
    always: bool,
    timestamp: bool,
    strict: bool,
    integer: bool,
    ts: Option<String>,
    also: Option<String>,
}

#[derive(Default)]
struct SerdeSeen {
    default: bool,
    skip_if: bool,
    with: bool,
    flatten: bool,
    rename: Option<String>,
}

fn expand(input: &mut DeriveInput) -> syn::Result<Tokens> {
    let name = input.ident.to_string();
    let mut extra_ts = Vec::new();
    let fields = match &mut input.data {
        Data::Struct(s) => match &mut s.fields {
            Fields::Named(named) => &mut named.named,
            _ => return Ok(Tokens::new()),
        },
        // Enums: only the derives.
        _ => return Ok(Tokens::new()),
    };
    for field in fields.iter_mut() {
        if let Some(member) = field_expand(field)? {
            extra_ts.push(member);
        }
    }
    if extra_ts.is_empty() {
        return Ok(Tokens::new());
    }
    let ts = format!("export interface {name} {{ {} }}", extra_ts.join(" "));
    Ok(quote! {
        // Declaration merging: the second spelling of a field, next to the
        // interface tsify derives.
        #[cfg(feature = "tsify")]
        const _: () = {
            #[::wasm_bindgen::prelude::wasm_bindgen(typescript_custom_section)]
            const TS: &'static str = #ts;
        };
    })
}

fn markers(field: &mut Field) -> syn::Result<Markers> {
    let mut m = Markers::default();
    let mut keep = Vec::with_capacity(field.attrs.len());
    for attr in field.attrs.drain(..) {
        if !attr.path().is_ident("model") {
            keep.push(attr);
            continue;
        }
        attr.parse_nested_meta(|meta| {
            if meta.path.is_ident("always") {
                m.always = true;
            } else if meta.path.is_ident("timestamp") {
                m.timestamp = true;
            } else if meta.path.is_ident("strict") {
                m.strict = true;
            } else if meta.path.is_ident("integer") {
                m.integer = true;
            } else if meta.path.is_ident("ts") {
                m.ts = Some(meta.value()?.parse::<LitStr>()?.value());
            } else if meta.path.is_ident("also") {
                m.also = Some(meta.value()?.parse::<LitStr>()?.value());
            } else {
                return Err(meta.error("expected always, timestamp, strict, integer, ts or also"));
            }
            Ok(())
        })?;
    }
    field.attrs = keep;
    Ok(m)
}

fn serde_seen(attrs: &[Attribute]) -> syn::Result<SerdeSeen> {
    let mut seen = SerdeSeen::default();
    for attr in attrs.iter().filter(|a| a.path().is_ident("serde")) {
        attr.parse_nested_meta(|meta| {
            let key = meta
                .path
                .get_ident()
                .map(ToString::to_string)
                .unwrap_or_default();
            match key.as_str() {
                "default" => seen.default = true,
                "skip_serializing_if" => seen.skip_if = true,
                "with" | "deserialize_with" => seen.with = true,
                "flatten" => seen.flatten = true,
                _ => {}
            }
            if meta.input.peek(syn::Token![=]) {
                let value: syn::Expr = meta.value()?.parse()?;
                if key == "rename"
                    && let syn::Expr::Lit(syn::ExprLit {
                        lit: syn::Lit::Str(s),
                        ..
                    }) = value
                {
                    seen.rename = Some(s.value());
                }
            } else if meta.input.peek(syn::token::Paren) {
                // e.g. rename(serialize = ..): skip the group.
                meta.parse_nested_meta(|inner| {
                    if inner.input.peek(syn::Token![=]) {
                        let _: syn::Expr = inner.value()?.parse()?;
                    }
                    Ok(())
                })?;
            }
            Ok(())
        })?;
    }
    Ok(seen)
}

/// `Some(inner)` when `ty` is `Name<inner>`.
fn generic_arg<'a>(ty: &'a Type, name: &str) -> Option<&'a Type> {
    let Type::Path(path) = ty else { return None };
    let last = path.path.segments.last()?;
    if last.ident != name {
        return None;
    }
    let PathArguments::AngleBracketed(args) = &last.arguments else {
        return None;
    };
    match args.args.first()? {
        GenericArgument::Type(t) => Some(t),
        _ => None,
    }
}

/// The TypeScript name of a plain type, as tsify writes it.
fn ts_name(ty: &Type) -> Option<String> {
    let Type::Path(p) = ty else { return None };
    let ident = p.path.get_ident()?.to_string();
    Some(match ident.as_str() {
        "String" => "string".to_owned(),
        "f64" => "Numeric".to_owned(),
        "bool" => "boolean".to_owned(),
        _ => ident,
    })
}

fn is(ty: &Type, name: &str) -> bool {
    matches!(ty, Type::Path(p) if p.qself.is_none() && p.path.is_ident(name))
}

/// The field's changes; returns the extra TypeScript member of an `also`.
fn field_expand(field: &mut Field) -> syn::Result<Option<String>> {
    let m = markers(field)?;
    let seen = serde_seen(&field.attrs)?;
    if seen.flatten {
        // Flattened maps: serde's own handling; only the declared type.
        if let Some(ts) = &m.ts {
            field
                .attrs
                .push(syn::parse_quote!(#[cfg_attr(feature = "tsify", tsify(type = #ts))]));
        }
        return Ok(None);
    }
    let option = generic_arg(&field.ty, "Option").cloned();
    let inner = option.as_ref().unwrap_or(&field.ty);
    let null = if option.is_some() { " | null" } else { "" };

    // serde
    let mut serde_items: Vec<Tokens> = Vec::new();
    if option.is_some() {
        if !seen.default {
            serde_items.push(quote!(default));
        }
        if !seen.skip_if && !m.always {
            let path = format!("{WIRE}::is_none");
            serde_items.push(quote!(skip_serializing_if = #path));
        }
    }
    if let Some(also) = &m.also {
        serde_items.push(quote!(alias = #also));
    }
    if m.integer {
        let (ser, schema) = if option.is_some() {
            ("int", quote!(Option<i64>))
        } else {
            ("int_value", quote!(i64))
        };
        let path = format!("{WIRE}::{ser}");
        serde_items.push(quote!(serialize_with = #path));
        let schema = schema.to_string();
        field
            .attrs
            .push(syn::parse_quote!(#[cfg_attr(feature = "schema", schemars(with = #schema))]));
    }
    if !seen.with && !m.strict {
        let de = if option.is_some() {
            if is(inner, "f64") {
                Some(if m.timestamp {
                    "unix_seconds"
                } else {
                    "lenient_number"
                })
            } else if is(inner, "String") {
                Some("text")
            } else if is(inner, "bool") {
                Some("flag")
            } else if let Some(item) = generic_arg(inner, "Vec") {
                Some(if is(item, "String") {
                    "string_list"
                } else {
                    "list_or_none"
                })
            } else {
                Some("or_none")
            }
        } else if is(inner, "f64") {
            Some("number")
        } else if is(inner, "String") {
            Some("id")
        } else if generic_arg(inner, "Vec").is_some() && seen.default {
            Some("list_or_empty")
        } else {
            None
        };
        if let Some(de) = de {
            let path = format!("{WIRE}::{de}");
            serde_items.push(quote!(deserialize_with = #path));
        }
    }
    if !serde_items.is_empty() {
        field
            .attrs
            .push(syn::parse_quote!(#[serde(#(#serde_items),*)]));
    }

    // TypeScript
    let ts = if let Some(ts) = &m.ts {
        Some(ts.clone())
    } else if m.timestamp {
        Some("Timestamp".to_owned())
    } else if is(inner, "f64") {
        Some("Numeric".to_owned())
    } else if option.is_none() && seen.default {
        // A list that reads `null` as empty: JS sees the `null`.
        generic_arg(inner, "Vec")
            .and_then(ts_name)
            .map(|item| format!("{item}[] | null"))
    } else {
        None // tsify writes `T | null` for an `Option` itself
    };
    let mut ts_items: Vec<Tokens> = Vec::new();
    if let Some(ts) = ts {
        let ty = format!("{ts}{null}");
        ts_items.push(quote!(type = #ty));
    }
    if m.also.is_some() && option.is_none() {
        ts_items.push(quote!(optional));
    }
    if !ts_items.is_empty() {
        field
            .attrs
            .push(syn::parse_quote!(#[cfg_attr(feature = "tsify", tsify(#(#ts_items),*))]));
    }

    Ok(m.also.map(|also| {
        let ts = m.ts.clone().unwrap_or_else(|| "string".to_owned());
        format!("{also}?: {ts} | null;")
    }))
}

/// `#[derive(Params)]` on a request struct of predmarket-core: its
/// parameter table (`crate::request::params::Params`) from the fields
/// themselves: the wire name is serde's (`rename` honoured), the kind and
/// whether it is required come from the field's type (`ParamValue`), and a
/// `#[serde(default)]` field is never required. One declaration: the table
/// cannot name a parameter the struct does not have, and the contract test
/// holds it to serde's names and the JSON Schema's required list.
/// The JS client's methods (`methods`) or pager classes (`pagers`) from
/// the operation table's entries, as `predmarket-wasm` forwards them: see
/// the `js_client` module.
#[proc_macro]
pub fn js_client(input: TokenStream) -> TokenStream {
    match js_client::parse(input) {
        Ok(input) => js_client::expand(input).into(),
        Err(error) => error.to_compile_error().into(),
    }
}

#[proc_macro_derive(Params)]
pub fn params(item: TokenStream) -> TokenStream {
    let input = parse_macro_input!(item as DeriveInput);
    match params_expand(&input) {
        Ok(tokens) => tokens.into(),
        Err(e) => e.to_compile_error().into(),
    }
}

fn params_expand(input: &DeriveInput) -> syn::Result<Tokens> {
    let name = &input.ident;
    let module = quote!(crate::request::params);
    let Data::Struct(data) = &input.data else {
        return Err(syn::Error::new_spanned(
            name,
            "#[derive(Params)] is for request structs",
        ));
    };
    let fields: Vec<&Field> = match &data.fields {
        Fields::Named(named) => named.named.iter().collect(),
        Fields::Unit => Vec::new(),
        Fields::Unnamed(_) => {
            return Err(syn::Error::new_spanned(
                name,
                "#[derive(Params)] needs named fields",
            ));
        }
    };
    let mut entries = Vec::new();
    let mut reads = Vec::new();
    let mut writes = Vec::new();
    for field in &fields {
        let ident = field
            .ident
            .as_ref()
            .ok_or_else(|| syn::Error::new_spanned(field, "a field without a name"))?;
        let ty = &field.ty;
        let seen = serde_seen(&field.attrs)?;
        let wire = seen
            .rename
            .clone()
            .unwrap_or_else(|| ident.to_string().trim_start_matches("r#").to_owned());
        let required = if seen.default {
            quote!(false)
        } else {
            quote!(<#ty as #module::ParamValue>::REQUIRED)
        };
        entries.push(quote! {
            #module::Param {
                name: #wire,
                kind: <#ty as #module::ParamValue>::KIND,
                required: #required,
            }
        });
        reads.push(quote! {
            #ident: <#ty as #module::ParamValue>::from_value(values.next().flatten())
        });
        writes.push(quote! {
            <#ty as #module::ParamValue>::write(&self.#ident, #wire, out);
        });
    }
    let build = match &data.fields {
        Fields::Unit => quote!(Self),
        _ => quote!(Self { #(#reads),* }),
    };
    let values_arg = if fields.is_empty() {
        quote!(_values)
    } else {
        quote!(values)
    };
    let out_arg = if fields.is_empty() {
        quote!(_out)
    } else {
        quote!(out)
    };
    let iter = if fields.is_empty() {
        Tokens::new()
    } else {
        quote!(let mut values = values.into_iter();)
    };
    Ok(quote! {
        impl #module::Params for #name {
            const PARAMS: &'static [#module::Param] = &[#(#entries),*];
            fn from_values(#values_arg: ::std::vec::Vec<::std::option::Option<#module::Value>>) -> Self {
                #iter
                #build
            }
            fn write_values(&self, #out_arg: &mut ::std::vec::Vec<(::std::string::String, ::std::string::String)>) {
                #(#writes)*
            }
        }
    })
}
