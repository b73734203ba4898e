//! The resources of `service.md` and the shapes of
//! `where-the-spec-is-silent.md`, as they appear on the wire.
//!
//! Conventions, applied to every model:
//! - field names are the wire names (snake_case, plus the camelCase the
//!   service itself uses in a few places), so JS users see what the service
//!   sends;
//! - `id` is required; every other field the spec does not mark required is
//!   an `Option` and absent from serialized output when `None`;
//! - unknown fields are ignored, never an error;
//! - status-like values are open enums (see `open_enum!`).

mod platform;

pub use platform::*;

/// TypeScript declarations of every open enum of the models.
pub(crate) const OPEN_ENUM_TS: &[&str] = &[PLATFORM_STATUS_TS, HEALTH_STATUS_TS];
