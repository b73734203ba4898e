//! Structured logs on stderr through `tracing`: `--log-format text` (the
//! default: one line per event, its fields as `key=value`) or `json` (one
//! JSON object per line, for a log collector).
//!
//! No event carries a header, so none carries `X-API-Key`; text that could
//! hold a key (a request's target) is scrubbed before it becomes a field
//! (`access_log::AccessLog`).

/// How log events are written.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum LogFormat {
    #[default]
    Text,
    Json,
}

/// Installs the process's log writer (the binary calls it once; in-process
/// tests install none, so their servers log nothing).
pub fn init(format: LogFormat) {
    let builder = tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_target(false)
        .with_max_level(tracing::Level::INFO);
    // Only fails when a writer is installed already: keep that one.
    let _ = match format {
        LogFormat::Text => builder.try_init(),
        LogFormat::Json => builder
            .json()
            .flatten_event(true)
            .with_current_span(false)
            .try_init(),
    };
}
