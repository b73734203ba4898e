//! The parameters of an operation, derived from its request type in core
//! (schemars, core feature `schema`): a field added to a request struct is
//! a parameter here with no edit of this server. What the server adds is
//! only what it alone decides: which platforms and leagues it serves (the
//! capability table), that it accepts exactly the known values of an open
//! set, its page-size defaults, and prose.

use crate::data::sports::LEAGUES;
use crate::query::platforms;
use predmarket_core::capabilities::Capability;
use predmarket_core::request::{Request, parameter_names};
use schemars::JsonSchema;
use serde_json::{Value, json};

/// What this server narrows or adds to the core's declaration of one
/// operation's parameters.
#[derive(Debug, Clone, Copy, Default)]
pub struct Served {
    /// The platforms `platform` may name: those with this capability.
    pub capability: Option<Capability>,
    /// `limit` when absent.
    pub default_limit: Option<u32>,
}

/// Server prose for parameters whose behaviour is the server's (cursor
/// policy, capping), in front of the core's own description.
fn server_prose(name: &str, served: &Served) -> Option<String> {
    match name {
        "limit" => Some(format!(
            "{}Above the maximum it is capped; 0, negative or non-numeric values are 400 \
             VALIDATION_ERROR.",
            served
                .default_limit
                .map(|d| format!("Default {d}. "))
                .unwrap_or_default()
        )),
        "cursor" => Some(
            "Bound to the operation and its filters, valid 15 minutes; otherwise 400 \
             INVALID_CURSOR."
                .to_owned(),
        ),
        "platform" => Some("One platform; a list is 400.".to_owned()),
        _ => None,
    }
}

/// The OpenAPI parameter objects of `R`, in declaration order.
pub fn parameters<R: Request + JsonSchema>(served: &Served) -> Vec<Value> {
    let root = serde_json::to_value(schemars::schema_for!(R)).unwrap_or_default();
    let required: Vec<&str> = root["required"]
        .as_array()
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    parameter_names::<R>()
        .iter()
        .filter_map(|&name| {
            let declared = root["properties"].get(name)?;
            let in_path = R::PATH_PARAMS.contains(&name);
            let core_doc = declared["description"].as_str().unwrap_or_default();
            let description = match server_prose(name, served) {
                Some(prose) if core_doc.is_empty() => prose,
                Some(prose) => format!("{core_doc} {prose}"),
                None => core_doc.to_owned(),
            };
            let mut schema = plain(declared, &root["$defs"], name, served);
            if in_path {
                schema["minLength"] = json!(1);
            }
            if name == "limit"
                && let Some(default) = served.default_limit
            {
                schema["default"] = json!(default);
            }
            Some(json!({
                "name": name,
                "in": if in_path { "path" } else { "query" },
                "required": in_path || required.contains(&name),
                "description": description,
                "schema": schema,
            }))
        })
        .collect()
}

/// A property schema as a query parameter's: absent rather than null,
/// definitions inlined, and the sets this server accepts spelled out.
fn plain(declared: &Value, defs: &Value, name: &str, served: &Served) -> Value {
    let mut schema = declared.clone();
    // `Option<T>`: `anyOf: [T, null]` or `type: [t, "null"]`.
    if let Some(any) = schema.get("anyOf").and_then(Value::as_array) {
        let not_null: Vec<&Value> = any.iter().filter(|s| s["type"] != "null").collect();
        if let [only] = not_null.as_slice() {
            schema = (*only).clone();
        }
    }
    if let Some(types) = schema.get("type").and_then(Value::as_array) {
        let kept: Vec<Value> = types.iter().filter(|t| *t != "null").cloned().collect();
        schema["type"] = match kept.as_slice() {
            [one] => one.clone(),
            _ => Value::Array(kept),
        };
    }
    let mut open_set = None;
    if let Some(reference) = schema.get("$ref").and_then(Value::as_str) {
        let def = reference.rsplit('/').next().unwrap_or_default();
        open_set = Some(def.to_owned());
        schema = defs
            .get(def)
            .cloned()
            .unwrap_or_else(|| json!({"type": "string"}));
    }
    let Some(object) = schema.as_object_mut() else {
        return schema;
    };
    object.remove("description");
    if object
        .get("format")
        .and_then(Value::as_str)
        .is_some_and(|f| f.starts_with("uint"))
    {
        // Not an OpenAPI format; `minimum` says it already.
        object.remove("format");
    }
    if let Some(def) = open_set {
        let known = object.remove("examples");
        let allowed: Option<Vec<&str>> = match (def.as_str(), name) {
            ("PlatformId", _) => served.capability.map(platforms),
            ("League", _) => Some(LEAGUES.iter().map(|l| l.id).collect()),
            _ => None,
        };
        // An open set of the core (known values as examples): this server
        // accepts exactly those (or, for platforms and leagues, its own).
        let values = match allowed {
            Some(values) => Some(json!(values)),
            None => known,
        };
        if let Some(values) = values {
            object.insert("enum".to_owned(), values);
        }
    }
    Value::Object(std::mem::take(object))
}

#[cfg(test)]
mod tests {
    use super::*;
    use predmarket_core::request::{GetProfileInfo, ListMarkets, ListPlatforms};
    use serde_json::Map;

    fn by_name(parameters: &[Value]) -> Map<String, Value> {
        parameters
            .iter()
            .map(|p| (p["name"].as_str().unwrap_or("").to_owned(), p.clone()))
            .collect()
    }

    #[test]
    fn every_field_is_a_parameter_in_declaration_order() {
        let served = Served {
            capability: Some(Capability::Markets),
            default_limit: Some(25),
        };
        let list = parameters::<ListMarkets>(&served);
        let names: Vec<&str> = list.iter().filter_map(|p| p["name"].as_str()).collect();
        assert_eq!(names, parameter_names::<ListMarkets>());
        let p = by_name(&list);
        assert_eq!(p["limit"]["schema"]["type"], "integer");
        assert_eq!(p["limit"]["schema"]["default"], 25);
        assert_eq!(p["limit"]["schema"]["minimum"], 1);
        assert_eq!(p["limit"]["required"], false);
        assert_eq!(p["include_raw"]["schema"], json!({"type": "boolean"}));
        assert_eq!(
            p["platform"]["schema"]["enum"],
            json!(platforms(Capability::Markets))
        );
        assert_eq!(p["status"]["schema"]["enum"][0], "open");
        assert!(parameters::<ListPlatforms>(&Served::default()).is_empty());
    }

    #[test]
    fn required_fields_are_required_parameters() {
        let served = Served {
            capability: Some(Capability::Profiles),
            default_limit: None,
        };
        let p = by_name(&parameters::<GetProfileInfo>(&served));
        assert_eq!(p["platform"]["required"], true);
        assert_eq!(p["user"]["required"], true);
        assert_eq!(p["include_metrics"]["required"], false);
        assert_eq!(
            p["platform"]["schema"]["enum"],
            json!(["platform_a", "platform_b"])
        );
    }
}
