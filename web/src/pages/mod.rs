//! One module per page.

pub mod platforms;
