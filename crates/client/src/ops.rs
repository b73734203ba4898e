//! One typed method per operation and a named pager per list, expanded
//! from the core's operation table (so an operation added there has its
//! method and pager here with no edit). Each method runs the core's
//! checks, then the client's machinery (cache, coalescing, budget,
//! retries, timeout); for per-call options such as a cancel token, use
//! [`Client::send`] with the same request.

use crate::{CallOptions, Client, Error, Paginator, Transport};
use predmarket_core::request::Request;

macro_rules! operations {
    ($(
        $(#[$doc:meta])*
        $variant:ident($request:path) $method:ident $name:literal $path:literal $paging:ident [$($item:literal),*]
            pager[$($pager:tt)*] args($($args:tt)+) -> $answer:ident cache($fresh:literal, $revalidate:literal);
    )+) => {
        impl<T: Transport + 'static> Client<T> {
            $(operations!(@method $variant($request) $method $path);)+
            $(operations!(@pager $request, $path, $paging, $($pager)*);)+
        }
    };
    (@pager $request:path, $path:literal, single,) => {};
    (@pager $request:path, $path:literal, $paging:ident, $pager:ident $item:ident) => {
        #[doc = concat!("Every item of `GET ", $path, "` (", stringify!($paging), " paging).")]
        pub fn $pager(&self, request: $request) -> Paginator<T, $request> {
            self.paginate(request)
        }
    };
    // The one operation without parameters is called without an argument.
    (@method ListPlatforms($request:path) $method:ident $path:literal) => {
        #[doc = concat!("`GET ", $path, "` (no parameters).")]
        pub async fn $method(&self) -> Result<<$request as Request>::Response, Error> {
            self.send(&<$request>::default(), &CallOptions::default()).await
        }
    };
    (@method $variant:ident($request:path) $method:ident $path:literal) => {
        #[doc = concat!("`GET ", $path, "`.")]
        pub async fn $method(
            &self,
            request: &$request,
        ) -> Result<<$request as Request>::Response, Error> {
            self.send(request, &CallOptions::default()).await
        }
    };
}

predmarket_core::for_each_operation!(operations);
