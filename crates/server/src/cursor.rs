//! Pagination cursors: opaque, signed, bound to one operation and its
//! filters, and short-lived.
//!
//! Policy (recorded in the OpenAPI document): a cursor that does not verify
//! is refused with 400 `INVALID_CURSOR`, never silently restarted at the
//! first page, because a client that restarts unknowingly would see items
//! twice. `details.reason` says why: `malformed`, `tampered`,
//! `other_operation`, `filters_changed` or `expired`. The page size (`limit`)
//! is not a filter: it may change between pages.
//!
//! Token: base64url (no padding) of
//! `version(1) | issued_at(8) | offset(4) | operation digest(4) | filters digest(8) | mac(16)`,
//! where `mac` is HMAC-SHA256, truncated, under a secret drawn at start-up,
//! so a restarted server refuses the cursors of the previous one.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use hmac::{Hmac, Mac};
use sha2::{Digest, Sha256};

const VERSION: u8 = 1;
const MAC_LEN: usize = 16;
const BODY_LEN: usize = 1 + 8 + 4 + 4 + 8;
/// Longest token worth decoding; anything longer is malformed.
const MAX_TOKEN_CHARS: usize = 128;

type HmacSha256 = Hmac<Sha256>;

/// What a cursor is bound to: the operation and every filter that shapes the
/// list (not `limit`, not `cursor`).
///
/// The filters are hashed as they are added, each as its name, `0xff`, the
/// length of its written form (8 bytes, big-endian) and that form (`=`
/// and the value, or one `0` byte when absent), rather than kept as
/// strings: every page of every list builds a scope, and the strings
/// were two allocations a filter (docs/benchmarks.md, "Fourth round").
#[derive(Clone)]
pub struct Scope {
    operation: &'static str,
    filters: Sha256,
}

impl std::fmt::Debug for Scope {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Scope")
            .field("operation", &self.operation)
            .finish_non_exhaustive()
    }
}

/// Bytes written by a `Display`, counted.
struct Counted(usize);

impl std::fmt::Write for Counted {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        self.0 += s.len();
        Ok(())
    }
}

/// A `Display` written into a hash.
struct Hashed<'a>(&'a mut Sha256);

impl std::fmt::Write for Hashed<'_> {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        self.0.update(s.as_bytes());
        Ok(())
    }
}

impl Scope {
    pub fn new(operation: &'static str) -> Self {
        Self {
            operation,
            filters: Sha256::new(),
        }
    }

    /// Adds a filter; an absent one is bound too (as absent), so adding a
    /// filter later also invalidates the cursor.
    pub fn with(mut self, name: &'static str, value: Option<impl std::fmt::Display>) -> Self {
        use std::fmt::Write;
        self.filters.update(name.as_bytes());
        self.filters.update([0xff]);
        match value {
            // A leading byte that no present value starts with keeps "absent"
            // apart from the empty string.
            None => {
                self.filters.update(1u64.to_be_bytes());
                self.filters.update([0]);
            }
            Some(value) => {
                // The value is written twice (counted, then hashed), as
                // the length comes first; neither writes to memory.
                let mut counted = Counted(1);
                let _ = write!(counted, "{value}");
                self.filters.update((counted.0 as u64).to_be_bytes());
                self.filters.update(b"=");
                let _ = write!(Hashed(&mut self.filters), "{value}");
            }
        }
        self
    }

    fn operation_digest(&self) -> [u8; 4] {
        let hash = Sha256::digest(self.operation.as_bytes());
        [hash[0], hash[1], hash[2], hash[3]]
    }

    fn filters_digest(&self) -> [u8; 8] {
        let hash = self.filters.clone().finalize();
        let mut out = [0u8; 8];
        out.copy_from_slice(&hash[..8]);
        out
    }
}

/// Why a cursor was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CursorError {
    Malformed,
    Tampered,
    OtherOperation,
    FiltersChanged,
    Expired,
}

impl CursorError {
    pub fn reason(self) -> &'static str {
        match self {
            Self::Malformed => "malformed",
            Self::Tampered => "tampered",
            Self::OtherOperation => "other_operation",
            Self::FiltersChanged => "filters_changed",
            Self::Expired => "expired",
        }
    }

    pub fn message(self) -> &'static str {
        match self {
            Self::Malformed => "the cursor is not one this server issued",
            Self::Tampered => "the cursor does not verify (altered, or from another server run)",
            Self::OtherOperation => "the cursor belongs to another operation",
            Self::FiltersChanged => {
                "the filters changed since the cursor was issued; restart from the first page"
            }
            Self::Expired => "the cursor expired; restart from the first page",
        }
    }
}

/// Issues and checks cursors with this process's secret.
pub struct CursorKey {
    secret: [u8; 32],
    ttl_secs: u64,
}

impl CursorKey {
    /// A key with a fresh random secret.
    pub fn random(ttl_secs: u64) -> Self {
        let mut secret = [0u8; 32];
        if getrandom::fill(&mut secret).is_err() {
            // No OS randomness: still unique per process and start time,
            // which is all a local test server needs.
            let seed = format!("{:?}{}", std::time::SystemTime::now(), std::process::id());
            secret.copy_from_slice(&Sha256::digest(seed.as_bytes()));
        }
        Self::with_secret(secret, ttl_secs)
    }

    pub fn with_secret(secret: [u8; 32], ttl_secs: u64) -> Self {
        Self {
            secret,
            ttl_secs: ttl_secs.max(1),
        }
    }

    fn mac(&self, body: &[u8]) -> [u8; MAC_LEN] {
        let mut out = [0u8; MAC_LEN];
        // HMAC takes keys of any length, so this never fails.
        if let Ok(mut mac) = HmacSha256::new_from_slice(&self.secret) {
            mac.update(body);
            out.copy_from_slice(&mac.finalize().into_bytes()[..MAC_LEN]);
        }
        out
    }

    pub fn issue(&self, scope: &Scope, offset: u32, now_unix: u64) -> String {
        let mut bytes = Vec::with_capacity(BODY_LEN + MAC_LEN);
        bytes.push(VERSION);
        bytes.extend_from_slice(&now_unix.to_be_bytes());
        bytes.extend_from_slice(&offset.to_be_bytes());
        bytes.extend_from_slice(&scope.operation_digest());
        bytes.extend_from_slice(&scope.filters_digest());
        let mac = self.mac(&bytes);
        bytes.extend_from_slice(&mac);
        URL_SAFE_NO_PAD.encode(bytes)
    }

    /// The offset a cursor points at, if it verifies for `scope` at `now_unix`.
    pub fn open(&self, scope: &Scope, token: &str, now_unix: u64) -> Result<u32, CursorError> {
        if token.len() > MAX_TOKEN_CHARS {
            return Err(CursorError::Malformed);
        }
        let bytes = URL_SAFE_NO_PAD
            .decode(token.trim())
            .map_err(|_| CursorError::Malformed)?;
        if bytes.len() != BODY_LEN + MAC_LEN || bytes[0] != VERSION {
            return Err(CursorError::Malformed);
        }
        let (body, mac) = bytes.split_at(BODY_LEN);
        let expected = self.mac(body);
        if !bool::from(subtle::ConstantTimeEq::ct_eq(&expected[..], mac)) {
            return Err(CursorError::Tampered);
        }
        let issued = u64::from_be_bytes(array(&body[1..9]));
        let offset = u32::from_be_bytes(array(&body[9..13]));
        if body[13..17] != scope.operation_digest() {
            return Err(CursorError::OtherOperation);
        }
        if body[17..25] != scope.filters_digest() {
            return Err(CursorError::FiltersChanged);
        }
        if now_unix.saturating_sub(issued) > self.ttl_secs {
            return Err(CursorError::Expired);
        }
        Ok(offset)
    }
}

fn array<const N: usize>(slice: &[u8]) -> [u8; N] {
    let mut out = [0u8; N];
    out.copy_from_slice(&slice[..N]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key() -> CursorKey {
        CursorKey::with_secret([7; 32], 600)
    }

    fn scope(platform: Option<&str>) -> Scope {
        Scope::new("listMarkets")
            .with("platform", platform)
            .with("status", Some("open"))
    }

    #[test]
    fn round_trip() {
        let token = key().issue(&scope(Some("platform_a")), 250, 1000);
        assert_eq!(
            key().open(&scope(Some("platform_a")), &token, 1100),
            Ok(250)
        );
        assert!(
            token
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
        );
    }

    #[test]
    fn refusals() {
        let k = key();
        let token = k.issue(&scope(Some("platform_a")), 25, 1000);
        assert_eq!(
            k.open(&scope(Some("platform_b")), &token, 1000),
            Err(CursorError::FiltersChanged)
        );
        assert_eq!(
            k.open(&scope(None), &token, 1000),
            Err(CursorError::FiltersChanged)
        );
        assert_eq!(
            k.open(&Scope::new("listEvents"), &token, 1000),
            Err(CursorError::OtherOperation)
        );
        assert_eq!(
            k.open(&scope(Some("platform_a")), &token, 1601),
            Err(CursorError::Expired)
        );
        let other = CursorKey::with_secret([8; 32], 600);
        assert_eq!(
            other.open(&scope(Some("platform_a")), &token, 1000),
            Err(CursorError::Tampered)
        );
        let mut bytes = URL_SAFE_NO_PAD.decode(&token).unwrap();
        bytes[12] ^= 1; // the offset
        let forged = URL_SAFE_NO_PAD.encode(&bytes);
        assert_eq!(
            k.open(&scope(Some("platform_a")), &forged, 1000),
            Err(CursorError::Tampered)
        );
        for junk in ["", "abc", "!!!!", &"A".repeat(500)] {
            assert_eq!(
                k.open(&scope(Some("platform_a")), junk, 1000),
                Err(CursorError::Malformed)
            );
        }
    }

    #[test]
    fn filters_are_hashed_in_their_written_form() {
        let scope = Scope::new("op")
            .with("q", Some("rain"))
            .with("n", Some(42))
            .with("x", None::<&str>);
        let mut written = Vec::new();
        for (name, form) in [("q", &b"=rain"[..]), ("n", b"=42"), ("x", b"\0")] {
            written.extend_from_slice(name.as_bytes());
            written.push(0xff);
            written.extend_from_slice(&(form.len() as u64).to_be_bytes());
            written.extend_from_slice(form);
        }
        assert_eq!(scope.filters_digest()[..], Sha256::digest(&written)[..8]);
    }

    #[test]
    fn absent_and_empty_filters_differ() {
        let k = key();
        let a = Scope::new("op").with("q", None::<&str>);
        let b = Scope::new("op").with("q", Some(""));
        let token = k.issue(&a, 1, 0);
        assert_eq!(k.open(&b, &token, 0), Err(CursorError::FiltersChanged));
    }
}
