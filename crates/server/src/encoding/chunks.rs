//! An answer's body as the three pieces it is made of (a head, a kept
//! middle, a tail), handed to hyper as they are: it writes them with one
//! `writev`, so the kept middle is never copied into a buffer of the whole
//! answer. Its length is known, so the answer carries `Content-Length`
//! (a body of unknown length would be sent chunked).

use bytes::Bytes;
use http_body::{Frame, SizeHint};
use std::convert::Infallible;
use std::pin::Pin;
use std::task::{Context, Poll};

/// Up to three pieces, sent in order; empty ones are skipped.
#[derive(Debug, Clone)]
pub struct Chunks {
    pieces: [Bytes; 3],
    next: usize,
}

impl Chunks {
    pub fn new(head: Bytes, middle: Bytes, tail: Bytes) -> Self {
        Self {
            pieces: [head, middle, tail],
            next: 0,
        }
    }

    /// Bytes not yet handed out.
    pub fn len(&self) -> usize {
        self.pieces[self.next..].iter().map(Bytes::len).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The pieces joined (tests, and what a client reads).
    pub fn concat(&self) -> Vec<u8> {
        self.pieces[self.next..].concat()
    }
}

impl http_body::Body for Chunks {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        self: Pin<&mut Self>,
        _cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        let this = self.get_mut();
        while let Some(piece) = this.pieces.get_mut(this.next) {
            this.next += 1;
            if !piece.is_empty() {
                return Poll::Ready(Some(Ok(Frame::data(std::mem::take(piece)))));
            }
        }
        Poll::Ready(None)
    }

    fn is_end_stream(&self) -> bool {
        // hyper then writes the last piece together with the end of the
        // answer instead of polling once more.
        self.is_empty()
    }

    fn size_hint(&self) -> SizeHint {
        SizeHint::with_exact(self.len() as u64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use http_body::Body;

    async fn next(body: &mut Chunks) -> Option<Bytes> {
        std::future::poll_fn(|cx| Pin::new(&mut *body).poll_frame(cx))
            .await
            .map(|frame| {
                frame
                    .ok()
                    .and_then(|f| f.into_data().ok())
                    .unwrap_or_default()
            })
    }

    #[tokio::test]
    async fn pieces_come_in_order_with_their_length_known() {
        let chunks = Chunks::new(
            Bytes::from_static(b"{\"a\":"),
            Bytes::new(),
            Bytes::from_static(b"1}"),
        );
        assert_eq!(chunks.size_hint().exact(), Some(7));
        assert_eq!(chunks.concat(), b"{\"a\":1}");
        assert!(!chunks.is_end_stream());
        let mut body = chunks;
        assert_eq!(next(&mut body).await.as_deref(), Some(&b"{\"a\":"[..]));
        assert_eq!(body.size_hint().exact(), Some(2));
        // The empty middle is skipped; the tail is the last piece.
        assert_eq!(next(&mut body).await.as_deref(), Some(&b"1}"[..]));
        assert!(body.is_end_stream());
        assert_eq!(next(&mut body).await, None);
    }
}
