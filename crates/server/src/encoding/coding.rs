//! Which content coding a client takes, read from its `Accept-Encoding`
//! (RFC 9110 §12.5.3): the coding with the highest q-value among those
//! this server makes, brotli on a tie (smaller), identity when neither is
//! acceptable.

use axum::http::{HeaderMap, HeaderValue, header};

/// A content coding of an answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Coding {
    Identity,
    Gzip,
    Brotli,
}

impl Coding {
    /// The coding to answer `headers` with.
    pub fn accepted(headers: &HeaderMap) -> Self {
        let (mut gzip, mut br, mut any) = (None::<f32>, None::<f32>, None::<f32>);
        for item in headers
            .get_all(header::ACCEPT_ENCODING)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(','))
        {
            let mut parts = item.split(';');
            let name = parts.next().unwrap_or_default().trim();
            let q = parts
                .filter_map(|p| p.trim().strip_prefix("q="))
                .find_map(|q| q.trim().parse::<f32>().ok())
                .unwrap_or(1.0);
            let slot = if name.eq_ignore_ascii_case("gzip") || name.eq_ignore_ascii_case("x-gzip") {
                &mut gzip
            } else if name.eq_ignore_ascii_case("br") {
                &mut br
            } else if name == "*" {
                &mut any
            } else {
                continue;
            };
            *slot = Some(slot.map_or(q, |seen| seen.max(q)));
        }
        // A coding not named takes the q-value of `*`, if any.
        let gzip = gzip.or(any).unwrap_or(0.0);
        let br = br.or(any).unwrap_or(0.0);
        if br > 0.0 && br >= gzip {
            Self::Brotli
        } else if gzip > 0.0 {
            Self::Gzip
        } else {
            Self::Identity
        }
    }

    /// The `Content-Encoding` of an answer in this coding (none for identity).
    pub fn header(self) -> Option<HeaderValue> {
        match self {
            Self::Identity => None,
            Self::Gzip => Some(HeaderValue::from_static("gzip")),
            Self::Brotli => Some(HeaderValue::from_static("br")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn of(value: &str) -> Coding {
        let mut headers = HeaderMap::new();
        headers.insert(
            header::ACCEPT_ENCODING,
            HeaderValue::from_str(value).unwrap(),
        );
        Coding::accepted(&headers)
    }

    #[test]
    fn the_best_acceptable_coding_wins() {
        assert_eq!(Coding::accepted(&HeaderMap::new()), Coding::Identity);
        assert_eq!(of("gzip, deflate, br, zstd"), Coding::Brotli);
        assert_eq!(of("gzip, br"), Coding::Brotli);
        assert_eq!(of("gzip"), Coding::Gzip);
        assert_eq!(of("x-gzip"), Coding::Gzip);
        assert_eq!(of("br;q=0.5, gzip"), Coding::Gzip);
        assert_eq!(of("br;q=0, gzip;q=0"), Coding::Identity);
        assert_eq!(of("*"), Coding::Brotli);
        assert_eq!(of("*;q=0, gzip"), Coding::Gzip);
        assert_eq!(of("identity"), Coding::Identity);
        assert_eq!(of("deflate"), Coding::Identity);
    }
}
