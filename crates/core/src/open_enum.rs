//! Status-like wire values ("open", "binary", "buy", ...) are open sets: the
//! spec shows one value seen for each and says the full set is not shown. An
//! open enum keeps the known values as variants and any other value verbatim,
//! so decoding never fails on a value introduced later.

/// Defines an open enum: `open_enum!(MarketStatus { Open = "open", ... })`.
/// Also defines `<NAME>_TS`, its TypeScript declaration
/// (`"open" | "closed" | (string & {})`, which keeps editor completion for the
/// known values while accepting any string).
macro_rules! open_enum {
    ($(#[$meta:meta])* $name:ident, $ts:ident { $($(#[$vmeta:meta])* $variant:ident = $wire:literal),+ $(,)? }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, PartialEq, Eq, Hash)]
        pub enum $name {
            $($(#[$vmeta])* $variant,)+
            /// A value this version does not know, kept as sent.
            Other(String),
        }

        impl $name {
            /// Every value this version knows.
            pub const KNOWN: &'static [&'static str] = &[$($wire),+];

            /// The wire value.
            pub fn as_str(&self) -> &str {
                match self {
                    $(Self::$variant => $wire,)+
                    Self::Other(other) => other.as_str(),
                }
            }

            /// Whether this is a value this version knows.
            pub fn is_known(&self) -> bool {
                !matches!(self, Self::Other(_))
            }
        }

        /// The empty value: "not given", which a required parameter's check
        /// rejects.
        impl Default for $name {
            fn default() -> Self {
                Self::Other(String::new())
            }
        }

        $crate::request::params::open_enum_param!($name);

        impl AsRef<str> for $name {
            fn as_ref(&self) -> &str {
                self.as_str()
            }
        }

        // Any string, the known values as examples: the set is open.
        #[cfg(feature = "schema")]
        impl ::schemars::JsonSchema for $name {
            fn schema_name() -> ::std::borrow::Cow<'static, str> {
                stringify!($name).into()
            }
            fn json_schema(_: &mut ::schemars::SchemaGenerator) -> ::schemars::Schema {
                ::schemars::json_schema!({
                    "type": "string",
                    "examples": $name::KNOWN,
                })
            }
        }

        impl From<&str> for $name {
            fn from(value: &str) -> Self {
                match value {
                    $($wire => Self::$variant,)+
                    other => Self::Other(other.to_owned()),
                }
            }
        }

        impl From<String> for $name {
            fn from(value: String) -> Self {
                match value.as_str() {
                    $($wire => Self::$variant,)+
                    _ => Self::Other(value),
                }
            }
        }

        impl ::std::fmt::Display for $name {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl ::serde::Serialize for $name {
            fn serialize<S: ::serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.serialize_str(self.as_str())
            }
        }

        impl<'de> ::serde::Deserialize<'de> for $name {
            fn deserialize<D: ::serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                struct Visitor;
                impl<'de> ::serde::de::Visitor<'de> for Visitor {
                    type Value = $name;
                    fn expecting(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                        f.write_str("a string")
                    }
                    fn visit_str<E: ::serde::de::Error>(self, v: &str) -> Result<$name, E> {
                        Ok($name::from(v))
                    }
                    fn visit_string<E: ::serde::de::Error>(self, v: String) -> Result<$name, E> {
                        Ok($name::from(v))
                    }
                }
                deserializer.deserialize_str(Visitor)
            }
        }

        #[doc = concat!("TypeScript declaration of [`", stringify!($name), "`].")]
        pub const $ts: &str = concat!(
            "export type ", stringify!($name), " = ",
            $("\"", $wire, "\" | ",)+
            "(string & {});"
        );

        // With the `tsify` feature the declaration goes into the `.d.ts` of
        // whatever wasm-bindgen crate links the core.
        #[cfg(feature = "tsify")]
        const _: () = {
            #[::wasm_bindgen::prelude::wasm_bindgen(typescript_custom_section)]
            const TS: &'static str = $ts;
        };
    };
}
