//! Which watched resource a poll reads: its kind, from the operation,
//! and its id, from the path segment where the kind's request puts it.

use predmarket_core::HttpRequest;
use predmarket_core::change::WatchKind;
use predmarket_core::request::Operation;

/// The watched resource `op` `http` reads, if it reads one.
pub fn resource(op: Operation, http: &HttpRequest) -> Option<(WatchKind, String)> {
    let kind = WatchKind::ALL.into_iter().find(|k| k.operation() == op)?;
    const MARK: &str = "0recorded-id0";
    let template = kind.request(MARK).ok()?;
    let at = template.path.split('/').position(|s| s == MARK)?;
    let segment = http.path.split('/').nth(at)?;
    let id = form_urlencoded::parse(format!("i={}", segment.replace('+', "%2B")).as_bytes())
        .next()
        .map(|(_, v)| v.into_owned())?;
    Some((kind, id))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_poll_names_its_resource_and_ids_come_back_decoded() {
        for kind in WatchKind::ALL {
            for id in ["m-1", "a b/c+d", "ünï"] {
                let http = kind.request(id).unwrap();
                assert_eq!(
                    resource(kind.operation(), &http),
                    Some((kind, id.to_owned())),
                    "{kind:?} {id}"
                );
            }
        }
        assert_eq!(
            resource(Operation::ListMarkets, &HttpRequest::new("/markets")),
            None
        );
    }
}
