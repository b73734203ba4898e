//! Answer bodies as a test compares them: decompressed from the coding
//! the server chose, and without the members that legitimately vary from
//! one request to the next.

use serde_json::Value;
use std::io::Read;

/// `bytes` decompressed from `encoding` (`Content-Encoding`; `None`:
/// identity).
pub fn decompress(bytes: &[u8], encoding: Option<&str>) -> Vec<u8> {
    let mut out = Vec::new();
    match encoding {
        None => out.extend_from_slice(bytes),
        Some("gzip") => {
            flate2::read::GzDecoder::new(bytes)
                .read_to_end(&mut out)
                .expect("gzip");
        }
        Some("br") => {
            brotli::Decompressor::new(bytes, 4096)
                .read_to_end(&mut out)
                .expect("brotli");
        }
        Some(other) => panic!("unexpected Content-Encoding {other}"),
    }
    out
}

/// `value` without the members named in `varying`, wherever they are.
pub fn without(mut value: Value, varying: &[&str]) -> Value {
    fn strip(value: &mut Value, varying: &[&str]) {
        match value {
            Value::Object(members) => {
                members.retain(|k, _| !varying.contains(&k.as_str()));
                members.values_mut().for_each(|v| strip(v, varying));
            }
            Value::Array(items) => items.iter_mut().for_each(|v| strip(v, varying)),
            _ => {}
        }
    }
    strip(&mut value, varying);
    value
}
