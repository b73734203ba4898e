//! Pieces shared by the pages.

mod error_notice;

pub use error_notice::ErrorNotice;
