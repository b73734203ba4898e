//! The response schemas, derived from the core's models (schemars, core
//! feature `schema`, which `#[model]` turns on for every model): a field
//! added to a model is in the document with no edit here. Nothing in this
//! module names a model field; what it adds is what only this server
//! decides (the error codes it sends) and the settings that make the
//! schemas say what it writes.
//!
//! The schemas describe the serialized form (`Contract::Serialize`): the
//! server is a strict writer, so an `f64` is a `number` even though the
//! models read numeric strings too (schemars ignores the tolerant
//! `deserialize_with`), and a field the server omits when absent is
//! optional and never `null` (see [`no_null_when_omitted`]). The
//! conformance test (`tests/openapi.rs`) validates real answers against
//! them with every object closed, so a field the server sends that a model
//! does not declare fails it.

use crate::error::{SENT, wire_code};
use predmarket_core::ErrorBody;
use schemars::JsonSchema;
use schemars::generate::{Contract, SchemaGenerator, SchemaSettings};
use serde_json::{Map, Value, json};

/// Where the document keeps its schemas.
const COMPONENTS: &str = "/components/schemas";

/// The schemas of one document: each operation asks for its answer's
/// schema (a `$ref`), and [`Schemas::components`] is every schema those
/// refer to.
pub(super) struct Schemas {
    generator: SchemaGenerator,
}

impl Schemas {
    pub(super) fn new() -> Self {
        let generator = SchemaSettings::draft2020_12()
            .with(|s| {
                s.definitions_path = COMPONENTS.into();
                s.meta_schema = None;
                s.contract = Contract::Serialize;
            })
            .into_generator();
        Self { generator }
    }

    /// A reference to the schema of `T`, registered under its name.
    pub(super) fn of<T: JsonSchema>(&mut self) -> Value {
        let schema = self.generator.subschema_for::<T>();
        schema.to_value()
    }

    /// The error body, with the codes this server sends.
    pub(super) fn error(&mut self) -> Value {
        self.of::<ErrorBody>()
    }

    /// Every schema the references point to, under their names.
    pub(super) fn components(mut self) -> Value {
        let mut schemas = self.generator.take_definitions(true);
        schemas.values_mut().for_each(no_null_when_omitted);
        if let Some(detail) = schemas.get_mut("ErrorDetail") {
            let codes: Vec<&str> = SENT.into_iter().map(wire_code).collect();
            detail["properties"]["code"] = json!({"type": "string", "enum": codes});
            detail["required"] = json!(["code", "message"]);
        }
        Value::Object(schemas)
    }
}

/// A model's optional field is `Option<T>`, so schemars allows `null`; but
/// the server omits such a field when it is `None` (`skip_serializing_if`,
/// which makes it not required). Only the fields it always writes (the
/// required ones, e.g. `next_cursor`) may be `null`: say so, so a `null`
/// where the server should have omitted the field fails the conformance
/// test.
fn no_null_when_omitted(schema: &mut Value) {
    if let Value::Array(items) = schema {
        items.iter_mut().for_each(no_null_when_omitted);
        return;
    }
    let Some(object) = schema.as_object_mut() else {
        return;
    };
    let required: Vec<String> = object
        .get("required")
        .and_then(Value::as_array)
        .map(|r| {
            r.iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_default();
    if let Some(Value::Object(properties)) = object.get_mut("properties") {
        for (name, property) in properties.iter_mut() {
            if !required.contains(name) {
                drop_null(property);
            }
        }
    }
    // Nested schemas: items, properties, `anyOf` options.
    object.values_mut().for_each(no_null_when_omitted);
}

/// `type: [T, "null"]` → `type: T`; `anyOf: [S, {type: null}]` → `S`.
fn drop_null(property: &mut Value) {
    let Some(object) = property.as_object_mut() else {
        return;
    };
    if let Some(Value::Array(types)) = object.get_mut("type") {
        types.retain(|t| t != "null");
        if let [one] = types.as_slice() {
            let one = one.clone();
            object.insert("type".to_owned(), one);
        }
    }
    let single = match object.get_mut("anyOf") {
        Some(Value::Array(options)) => {
            options.retain(|o| o.get("type").is_none_or(|t| t != "null"));
            match options.as_slice() {
                [one] => Some(one.clone()),
                _ => None,
            }
        }
        _ => None,
    };
    if let Some(Value::Object(one)) = single {
        object.remove("anyOf");
        let rest: Map<String, Value> = std::mem::take(object);
        *object = one;
        // The field's own description and default stay beside the
        // reference (2020-12 allows `$ref` siblings).
        for (key, value) in rest {
            object.entry(key).or_insert(value);
        }
    }
}
