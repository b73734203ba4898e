//! A broker's side of a topic that follows a resource: where it is, and
//! where the events the broker took go.

use crate::stream::frame::Frame;
use std::sync::Arc;

/// A topic as its broker sees it while it follows a resource.
pub trait Follower: Send + Sync {
    /// The number of the last event it holds while another replica polls
    /// the resource; `None` while it polls itself (its own events reach it
    /// as the broker takes them, `replicate`).
    fn following_from(&self) -> Option<u64>;
    /// An event the broker took, in order; one already held is ignored.
    fn deliver(&self, frame: Arc<Frame>);
}

/// A follower's registration: dropped, the broker delivers to it no more.
pub type Following = Box<dyn Send + Sync>;
