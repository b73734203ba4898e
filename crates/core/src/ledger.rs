//! One budget per key across every tab and reload of an origin.
//!
//! Each tab has its own client, so each would spend the key's 100 requests
//! a minute on its own. The tabs share a *ledger* instead: the send times of
//! the last window and a "blocked until" (from a 429), kept where all of
//! them read it (localStorage, under a lock). This module is the ledger's
//! arithmetic and its text form, sans-IO; the client does the storage.
//!
//! Times are wall-clock milliseconds (`Date.now()`): each tab's monotonic
//! clock starts at its own zero, so only the wall clock is common to them.

use crate::rate::MAX_HEADER_WAIT_MS;

/// The service's window.
pub const WINDOW_MS: f64 = 60_000.0;

/// Added to the window: a tab records a request when it sends it, the
/// service counts it when it arrives, and the two gaps differ from request
/// to request. Without a margin, the 101st request sent exactly one window
/// after the first can arrive less than a window after it.
pub const SAFETY_MS: f64 = 3_000.0;

/// The most send times kept (a limit above this is treated as this).
pub const MAX_ENTRIES: usize = 2_000;

/// The longest a 429 may block the key.
pub const MAX_BLOCK_MS: f64 = MAX_HEADER_WAIT_MS;

/// What a key's ledger is stored under starts with this ([`budget_name`]).
pub const NAME_PREFIX: &str = "predmarket.budget.";

/// The IndexedDB database and object store of the ledgers in a browser,
/// shared by the Rust client (the demo) and the npm package, so their tabs
/// share a key's budget.
pub const DATABASE: &str = "predmarket-budget";
pub const STORE: &str = "ledgers";

/// The ledger of one key.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Ledger {
    /// Send times, ascending.
    sent: Vec<f64>,
    /// No request before this time (a 429's `Retry-After`).
    blocked_until: f64,
}

impl Ledger {
    /// Reads the text form. Storage is shared with other code and may hold
    /// anything: what cannot be read is dropped, never an error (a lost
    /// entry costs at most one request of margin, which `SAFETY_MS` and
    /// the service's headers cover).
    pub fn decode(text: &str) -> Self {
        let mut parts = text.split(';');
        if parts.next() != Some("v1") {
            return Self::default();
        }
        let number = |s: &str| s.trim().parse::<f64>().ok().filter(|n| n.is_finite());
        let blocked_until = parts.next().and_then(number).unwrap_or(0.0);
        let mut sent: Vec<f64> = parts
            .next()
            .unwrap_or("")
            .split(',')
            .filter_map(number)
            .take(MAX_ENTRIES)
            .collect();
        sent.sort_by(f64::total_cmp);
        Self {
            sent,
            blocked_until,
        }
    }

    /// The text form: `v1;<blocked until>;<t1>,<t2>,…` in whole milliseconds.
    pub fn encode(&self) -> String {
        let mut out = format!("v1;{:.0};", self.blocked_until);
        for (i, t) in self.sent.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            out.push_str(&format!("{t:.0}"));
        }
        out
    }

    fn forget_old(&mut self, now_ms: f64) {
        let window = WINDOW_MS + SAFETY_MS;
        // Entries from the future beyond a window mean the clock was set
        // back: they would block the key for as long, so they go too.
        self.sent
            .retain(|t| now_ms - t < window && t - now_ms < window);
        if self.blocked_until - now_ms > MAX_BLOCK_MS {
            self.blocked_until = now_ms + MAX_BLOCK_MS;
        }
    }

    /// Takes a slot for a request at `now_ms` under `limit` requests a
    /// window, or says how long to wait before asking again.
    pub fn try_acquire(&mut self, now_ms: f64, limit: u32) -> Result<(), f64> {
        self.forget_old(now_ms);
        if now_ms < self.blocked_until {
            return Err(self.blocked_until - now_ms);
        }
        let limit = (limit.max(1) as usize).min(MAX_ENTRIES);
        if self.sent.len() < limit {
            self.sent.push(now_ms);
            self.sent.sort_by(f64::total_cmp);
            return Ok(());
        }
        // The slot frees when the entry that makes the count reach the
        // limit leaves the window.
        let oldest = self.sent[self.sent.len() - limit];
        Err((oldest + WINDOW_MS + SAFETY_MS - now_ms).max(1.0))
    }

    /// Requests left at `now_ms` under `limit`.
    pub fn remaining(&mut self, now_ms: f64, limit: u32) -> u32 {
        self.forget_old(now_ms);
        if now_ms < self.blocked_until {
            return 0;
        }
        limit.saturating_sub(self.sent.len() as u32)
    }

    /// How long until a request may go at `now_ms` (0: now).
    pub fn wait_ms(&mut self, now_ms: f64, limit: u32) -> f64 {
        let mut probe = self.clone();
        match probe.try_acquire(now_ms, limit) {
            Ok(()) => 0.0,
            Err(ms) => ms,
        }
    }

    /// A 429 arrived: nothing more from any tab for `wait_ms` (capped at
    /// one window).
    pub fn block_for(&mut self, now_ms: f64, wait_ms: f64) {
        let wait = wait_ms.clamp(0.0, MAX_BLOCK_MS);
        self.blocked_until = self.blocked_until.max(now_ms + wait);
    }

    /// Send times in the window.
    pub fn len(&self) -> usize {
        self.sent.len()
    }

    pub fn is_empty(&self) -> bool {
        self.sent.is_empty()
    }
}

/// The name a key's budget is stored under: a hash of the base URL and the
/// key, so the key itself is never written to storage.
pub fn budget_name(base_url: &str, api_key: &str) -> String {
    let digest = sha256(format!("{base_url}\n{api_key}").as_bytes());
    let hex: String = digest[..12].iter().map(|b| format!("{b:02x}")).collect();
    format!("{NAME_PREFIX}{hex}")
}

/// SHA-256 (FIPS 180-4). Here, not a dependency: a few lines, and the JS
/// library's size counts every crate.
pub fn sha256(data: &[u8]) -> [u8; 32] {
    const K: [u32; 64] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4,
        0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
        0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f,
        0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
        0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
        0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
        0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116,
        0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
        0xc67178f2,
    ];
    let mut h: [u32; 8] = [
        0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab,
        0x5be0cd19,
    ];
    let mut message = data.to_vec();
    let bits = (data.len() as u64).wrapping_mul(8);
    message.push(0x80);
    while message.len() % 64 != 56 {
        message.push(0);
    }
    message.extend_from_slice(&bits.to_be_bytes());
    for block in message.chunks_exact(64) {
        let mut w = [0u32; 64];
        for (i, word) in block.chunks_exact(4).enumerate() {
            w[i] = u32::from_be_bytes([word[0], word[1], word[2], word[3]]);
        }
        for i in 16..64 {
            let s0 = w[i - 15].rotate_right(7) ^ w[i - 15].rotate_right(18) ^ (w[i - 15] >> 3);
            let s1 = w[i - 2].rotate_right(17) ^ w[i - 2].rotate_right(19) ^ (w[i - 2] >> 10);
            w[i] = w[i - 16]
                .wrapping_add(s0)
                .wrapping_add(w[i - 7])
                .wrapping_add(s1);
        }
        let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut hh] = h;
        for i in 0..64 {
            let s1 = e.rotate_right(6) ^ e.rotate_right(11) ^ e.rotate_right(25);
            let ch = (e & f) ^ (!e & g);
            let t1 = hh
                .wrapping_add(s1)
                .wrapping_add(ch)
                .wrapping_add(K[i])
                .wrapping_add(w[i]);
            let s0 = a.rotate_right(2) ^ a.rotate_right(13) ^ a.rotate_right(22);
            let maj = (a & b) ^ (a & c) ^ (b & c);
            let t2 = s0.wrapping_add(maj);
            hh = g;
            g = f;
            f = e;
            e = d.wrapping_add(t1);
            d = c;
            c = b;
            b = a;
            a = t1.wrapping_add(t2);
        }
        for (slot, v) in h.iter_mut().zip([a, b, c, d, e, f, g, hh]) {
            *slot = slot.wrapping_add(v);
        }
    }
    let mut out = [0u8; 32];
    for (i, word) in h.iter().enumerate() {
        out[i * 4..i * 4 + 4].copy_from_slice(&word.to_be_bytes());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hex(bytes: &[u8]) -> String {
        bytes.iter().map(|b| format!("{b:02x}")).collect()
    }

    #[test]
    fn sha256_matches_the_standard_vectors() {
        assert_eq!(
            hex(&sha256(b"")),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
        assert_eq!(
            hex(&sha256(b"abc")),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert_eq!(
            hex(&sha256(
                b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"
            )),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        );
    }

    #[test]
    fn the_budget_name_hides_the_key() {
        let name = budget_name("http://127.0.0.1:8787", "pm_demo_key");
        assert!(name.starts_with("predmarket.budget."));
        assert!(!name.contains("pm_demo_key"));
        assert_ne!(name, budget_name("http://127.0.0.1:8787", "other"));
        assert_ne!(name, budget_name("http://127.0.0.1:9999", "pm_demo_key"));
        // The npm package's shared-budget.js names ledgers the same way
        // (tests/node/package.test.mjs holds it to this value).
        assert_eq!(
            budget_name("http://127.0.0.1:8787", "k"),
            "predmarket.budget.35824d0bbe2f6959d5dc0ae4"
        );
    }

    #[test]
    fn tabs_sharing_the_text_share_the_limit() {
        // Three tabs, each reading and writing the same stored text.
        let mut stored = String::new();
        let mut granted = 0;
        for i in 0..300 {
            let now = 1_000_000.0 + f64::from(i) * 10.0;
            let mut ledger = Ledger::decode(&stored);
            if ledger.try_acquire(now, 100).is_ok() {
                granted += 1;
            }
            stored = ledger.encode();
        }
        assert_eq!(granted, 100);
        let mut ledger = Ledger::decode(&stored);
        let wait = ledger.wait_ms(1_002_990.0, 100);
        // The first slot frees one window and the margin after the first send.
        assert_eq!(wait, 1_000_000.0 + WINDOW_MS + SAFETY_MS - 1_002_990.0);
        assert!(
            ledger
                .try_acquire(1_000_000.0 + WINDOW_MS + SAFETY_MS, 100)
                .is_ok()
        );
    }

    #[test]
    fn a_lower_limit_counts_the_newest_entries() {
        let mut ledger = Ledger::default();
        for i in 0..10 {
            ledger.try_acquire(f64::from(i) * 1_000.0, 100).unwrap();
        }
        // Limit 5: the slot frees when the 6th newest leaves the window.
        let wait = ledger.try_acquire(10_000.0, 5).unwrap_err();
        assert_eq!(wait, 5_000.0 + WINDOW_MS + SAFETY_MS - 10_000.0);
        assert_eq!(ledger.remaining(10_000.0, 5), 0);
        assert_eq!(ledger.remaining(10_000.0, 100), 90);
    }

    #[test]
    fn a_429_blocks_every_tab_for_at_most_a_window() {
        let mut ledger = Ledger::default();
        ledger.block_for(0.0, 2_000.0);
        let mut other = Ledger::decode(&ledger.encode());
        assert_eq!(other.try_acquire(500.0, 100), Err(1_500.0));
        assert!(other.try_acquire(2_000.0, 100).is_ok());
        ledger.block_for(0.0, 1e15);
        assert_eq!(ledger.wait_ms(0.0, 100), MAX_HEADER_WAIT_MS);
    }

    #[test]
    fn garbage_and_a_clock_set_back_are_survived() {
        assert_eq!(Ledger::decode("nonsense"), Ledger::default());
        assert_eq!(Ledger::decode("v1;x;1,zz,3").len(), 2);
        let mut ledger = Ledger::decode("v1;0;10000000,10000001");
        // The clock went back by hours: those entries no longer block.
        assert_eq!(ledger.remaining(1_000.0, 2), 2);
    }
}
