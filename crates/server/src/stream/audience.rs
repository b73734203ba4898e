//! Who watches a topic. A stream is opened by a viewer: the proxy key it
//! showed, or else its client's address as public mode counts visitors
//! (`proxy::visitors`: through `--trusted-proxy`, IPv6 by its /64). A
//! topic's audience is what the pollers' budget is divided by
//! (`share`), what a viewer's topic quota counts, and what tells a topic
//! nobody watches (the first evicted at the cap of topics).

use crate::proxy::visitors;
use axum::http::HeaderMap;
use std::collections::HashMap;
use std::net::IpAddr;

/// Who a stream counts as.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Viewer {
    /// The id of the key it showed.
    Key(usize),
    /// Its client's address as a visitor (IPv6 by its /64).
    Address(IpAddr),
}

impl Viewer {
    /// The viewer of a request: its key, or else its client's address
    /// (the peer, or behind a `trusted` proxy the address it forwards),
    /// counted as public mode counts visitors.
    pub fn of(
        key: Option<usize>,
        peer: IpAddr,
        headers: &HeaderMap,
        trusted: &[visitors::Network],
    ) -> Viewer {
        match key {
            Some(id) => Viewer::Key(id),
            None => Viewer::Address(visitors::visitor_key(visitors::client_addr(
                peer, headers, trusted,
            ))),
        }
    }
}

/// A topic's viewers, each with its number of streams watching it.
#[derive(Debug, Default)]
pub struct Audience {
    viewers: HashMap<Viewer, usize>,
    /// The viewer who left last: while nobody watches, the topic waits
    /// out its grace period on that viewer's quota.
    last: Option<Viewer>,
}

impl Audience {
    pub fn add(&mut self, viewer: Viewer) {
        *self.viewers.entry(viewer).or_default() += 1;
    }

    pub fn remove(&mut self, viewer: Viewer) {
        if let Some(count) = self.viewers.get_mut(&viewer) {
            *count -= 1;
            if *count == 0 {
                self.viewers.remove(&viewer);
                self.last = Some(viewer);
            }
        }
    }

    /// Nobody watches (the topic waits out its grace, or was just made).
    pub fn is_empty(&self) -> bool {
        self.viewers.is_empty()
    }

    /// The distinct viewers watching now.
    pub fn viewers(&self) -> impl Iterator<Item = &Viewer> {
        self.viewers.keys()
    }

    /// Whether the topic counts against `viewer`'s quota: it watches, or
    /// left it last and the topic waits out its grace.
    pub fn charges(&self, viewer: Viewer) -> bool {
        self.viewers.contains_key(&viewer) || (self.is_empty() && self.last == Some(viewer))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(text: &str) -> IpAddr {
        text.parse().expect("address")
    }

    #[test]
    fn a_viewer_is_its_key_or_its_visitor_address() {
        let none = HeaderMap::new();
        assert_eq!(
            Viewer::of(Some(3), ip("192.0.2.1"), &none, &[]),
            Viewer::Key(3)
        );
        // One /64 is one viewer.
        assert_eq!(
            Viewer::of(None, ip("2001:db8::1"), &none, &[]),
            Viewer::of(None, ip("2001:db8::ffff"), &none, &[])
        );
        // Behind a trusted proxy, the address it forwards.
        let trusted = [visitors::Network::parse("127.0.0.1").expect("network")];
        let mut forwarded = HeaderMap::new();
        forwarded.insert(
            "x-forwarded-for",
            "198.51.100.7".parse().expect("header value"),
        );
        assert_eq!(
            Viewer::of(None, ip("127.0.0.1"), &forwarded, &trusted),
            Viewer::Address(ip("198.51.100.7"))
        );
        assert_eq!(
            Viewer::of(None, ip("127.0.0.1"), &forwarded, &[]),
            Viewer::Address(ip("127.0.0.1"))
        );
    }

    #[test]
    fn a_topic_charges_its_viewers_then_the_last_to_leave() {
        let (a, b) = (Viewer::Key(1), Viewer::Key(2));
        let mut audience = Audience::default();
        audience.add(a);
        audience.add(a);
        audience.add(b);
        assert_eq!(audience.viewers().count(), 2);
        audience.remove(a);
        assert!(audience.charges(a), "one stream of a's still watches");
        audience.remove(a);
        assert!(!audience.charges(a) && audience.charges(b));
        audience.remove(b);
        assert!(audience.is_empty());
        assert!(audience.charges(b) && !audience.charges(a), "b left last");
        audience.add(a);
        assert!(!audience.charges(b));
    }
}
