//! The `Request` side of an operation on one item by its `{id}`: shared by
//! the outright and group requests (`outright.rs`, `group.rs`).

/// `by_id!(GetFuture => FutureResponse, |r| checks)`: `new(id)` and the
/// `Request` implementation, `checks` being the request's structural checks
/// on `r` (the id's own check comes first).
macro_rules! by_id {
    ($get:ident => $response:ty, |$r:ident| $checks:expr) => {
        impl $get {
            pub fn new(id: impl Into<String>) -> Self {
                Self {
                    id: id.into(),
                    ..Self::default()
                }
            }
        }

        impl $crate::request::Request for $get {
            const OP: $crate::request::Operation = $crate::request::Operation::$get;
            const PATH_PARAMS: &'static [&'static str] = &["id"];
            type Response = $response;
            fn checked(&self) -> Result<Self, $crate::error::Error> {
                let $r = self;
                $crate::request::checks::path_id("id", &$r.id)?;
                $checks?;
                Ok(self.clone())
            }
            fn path(&self) -> Result<String, $crate::error::Error> {
                $crate::request::render_path(Self::PATH, &[("id", &self.id)])
            }
        }
    };
}
