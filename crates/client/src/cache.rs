//! The optional response cache: successful bodies by URL for a fixed time.
//! Off unless `ClientConfig::cache_ttl` is set, because the service's data
//! moves (prices, order books) and a stale answer must be opted into.

use std::collections::HashMap;

pub(crate) struct Cache<B> {
    ttl_ms: f64,
    max_entries: usize,
    entries: HashMap<String, (f64, B)>,
}

impl<B: Clone> Cache<B> {
    pub(crate) fn new(ttl_ms: f64, max_entries: usize) -> Self {
        Self {
            ttl_ms,
            max_entries,
            entries: HashMap::new(),
        }
    }

    pub(crate) fn is_enabled(&self) -> bool {
        self.ttl_ms > 0.0 && self.max_entries > 0
    }

    pub(crate) fn get(&mut self, url: &str, now_ms: f64) -> Option<B> {
        let fresh = match self.entries.get(url) {
            Some((stored, _)) => now_ms - stored < self.ttl_ms,
            None => return None,
        };
        if fresh {
            self.entries.get(url).map(|(_, body)| body.clone())
        } else {
            self.entries.remove(url);
            None
        }
    }

    pub(crate) fn insert(&mut self, url: String, now_ms: f64, body: B) {
        if !self.is_enabled() {
            return;
        }
        let ttl = self.ttl_ms;
        self.entries.retain(|_, (stored, _)| now_ms - *stored < ttl);
        // Bounded, so a long-running pager cannot grow the cache without
        // limit; the oldest entry is the least useful one.
        while self.entries.len() >= self.max_entries {
            let oldest = self
                .entries
                .iter()
                .min_by(|a, b| a.1.0.total_cmp(&b.1.0))
                .map(|(url, _)| url.clone());
            match oldest {
                Some(url) => {
                    self.entries.remove(&url);
                }
                None => break,
            }
        }
        self.entries.insert(url, (now_ms, body));
    }

    pub(crate) fn clear(&mut self) {
        self.entries.clear();
    }

    pub(crate) fn len(&self) -> usize {
        self.entries.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_expire_and_the_oldest_goes_first() {
        let mut cache = Cache::new(1_000.0, 2);
        cache.insert("a".into(), 0.0, 1);
        cache.insert("b".into(), 10.0, 2);
        assert_eq!(cache.get("a", 999.0), Some(1));
        assert_eq!(cache.get("a", 1_000.0), None);
        cache.insert("c".into(), 20.0, 3);
        cache.insert("d".into(), 30.0, 4);
        assert_eq!(cache.get("b", 40.0), None, "evicted as the oldest");
        assert_eq!(cache.len(), 2);
    }

    #[test]
    fn a_zero_ttl_caches_nothing() {
        let mut cache = Cache::new(0.0, 10);
        cache.insert("a".into(), 0.0, 1);
        assert_eq!(cache.get("a", 0.0), None);
    }
}
