//! The `Request` side of an operation on one item by its `{id}`: shared by
//! the board and group requests (`board.rs`, `group.rs`).

/// `by_id!(GetFuture "getFuture" "/futures/{id}" => FutureResponse, |r| checks)`:
/// `new(id)` and the `Request` implementation, `checks` being the
/// request's structural checks on `r`.
macro_rules! by_id {
    ($get:ident $op:literal $path:literal => $response:ty, |$r:ident| $checks:expr) => {
        impl $get {
            pub fn new(id: impl Into<String>) -> Self {
                Self {
                    id: id.into(),
                    ..Self::default()
                }
            }
        }

        impl $crate::request::Request for $get {
            const OPERATION: &'static str = $op;
            const PATH: &'static str = $path;
            const PATH_PARAMS: &'static [&'static str] = &["id"];
            type Response = $response;
            fn checked(&self) -> Result<Self, $crate::error::Error> {
                let $r = self;
                $checks?;
                Ok(self.clone())
            }
            fn path(&self) -> Result<String, $crate::error::Error> {
                let id = $crate::request::path_segment("id", &self.id)?;
                Ok($path.replace("{id}", &id))
            }
        }
    };
}
