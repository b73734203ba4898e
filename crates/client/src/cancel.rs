//! Cancellation of a call, whatever the runtime: the JS library ties it to
//! an `AbortSignal`, native code calls `cancel()`.

use futures::FutureExt;
use futures::channel::oneshot;
use futures::future::Shared;
use std::sync::{Arc, Mutex};

#[derive(Clone, Debug)]
pub struct CancelToken {
    sender: Arc<Mutex<Option<oneshot::Sender<()>>>>,
    receiver: Shared<oneshot::Receiver<()>>,
}

impl Default for CancelToken {
    fn default() -> Self {
        Self::new()
    }
}

impl CancelToken {
    pub fn new() -> Self {
        let (sender, receiver) = oneshot::channel();
        Self {
            sender: Arc::new(Mutex::new(Some(sender))),
            receiver: receiver.shared(),
        }
    }

    pub fn cancel(&self) {
        if let Ok(mut sender) = self.sender.lock()
            && let Some(sender) = sender.take()
        {
            let _ = sender.send(());
        }
    }

    pub fn is_cancelled(&self) -> bool {
        matches!(self.receiver.peek(), Some(Ok(())))
            || self.sender.lock().map(|s| s.is_none()).unwrap_or(false)
    }

    /// Resolves when `cancel` is called; never, otherwise.
    pub async fn cancelled(&self) {
        if self.receiver.clone().await.is_err() {
            // Every token was dropped without cancelling: never resolve.
            futures::future::pending::<()>().await;
        }
    }
}
