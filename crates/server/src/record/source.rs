//! The hook into the live layer: a `Source` around the pollers' own that
//! hands every answer to the recorder. A poll is recorded where it is
//! made, so with `--redis` only the lease holder (the replica that polls)
//! records a resource, and no row is written twice.

use super::Recorder;
use crate::stream::source::{Answer, BudgetView, Source};
use futures::FutureExt;
use futures::future::BoxFuture;
use predmarket_core::HttpRequest;
use predmarket_core::change::WatchKind;
use predmarket_core::request::Operation;
use std::sync::Arc;

/// `inner`, recorded.
pub struct Recording {
    pub inner: Arc<dyn Source>,
    pub recorder: Arc<Recorder>,
}

/// `inner`, recorded by `recorder` when there is one.
pub fn wrap(inner: Arc<dyn Source>, recorder: Option<&Arc<Recorder>>) -> Arc<dyn Source> {
    match recorder {
        Some(recorder) => Arc::new(Recording {
            inner,
            recorder: recorder.clone(),
        }),
        None => inner,
    }
}

impl Recording {
    fn record(
        recorder: Arc<Recorder>,
        resource: Option<(WatchKind, String)>,
        fetch: BoxFuture<'static, Answer>,
    ) -> BoxFuture<'static, Answer> {
        let Some((kind, id)) = resource else {
            return fetch;
        };
        fetch
            .map(move |answer| {
                match &answer {
                    Answer::Fresh { body, age_ms } => {
                        let now =
                            i64::try_from(crate::stream::topic::unix_ms()).unwrap_or(i64::MAX);
                        let age = i64::try_from(*age_ms).unwrap_or(i64::MAX);
                        recorder.answered(kind, &id, now, age, body.clone());
                    }
                    Answer::Failed { .. } => recorder.failed(kind, &id),
                    // The resource cannot be watched: no row, and its
                    // topic ends.
                    Answer::Refused { .. } => {}
                }
                answer
            })
            .boxed()
    }
}

impl Source for Recording {
    fn fetch(&self, op: Operation, http: HttpRequest) -> BoxFuture<'static, Answer> {
        let resource = super::resource::resource(op, &http);
        Self::record(self.recorder.clone(), resource, self.inner.fetch(op, http))
    }

    fn fetch_in_lane(
        &self,
        op: Operation,
        http: HttpRequest,
        lane: u64,
    ) -> BoxFuture<'static, Answer> {
        let resource = super::resource::resource(op, &http);
        Self::record(
            self.recorder.clone(),
            resource,
            self.inner.fetch_in_lane(op, http, lane),
        )
    }

    fn budget(&self) -> Option<BudgetView> {
        self.inner.budget()
    }
}
