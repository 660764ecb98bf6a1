//! Everything `water` prints on stdout goes through [`Stdout`], whose write errors become a
//! [`Failure`] instead of the panic `println!` raises.
//!
//! - A closed pipe (`water run ... | head -1`, or a reader that exits): the reader wanted no
//!   more, so nothing is said; `water` stops printing and exits with status
//!   [`CLOSED_PIPE_STATUS`] (141, what a shell reports for a process that a `SIGPIPE` ended, as
//!   `yes | head -1` does), so `set -o pipefail` still sees that not everything was read. The
//!   command's work (the files it writes) is done before it prints.
//! - Any other error (`> /dev/full`: no space left): one line on stderr naming the cause,
//!   exit 1.

use std::fmt;
use std::io::{self, Write};

/// Exit status after stdout was closed by its reader: 128 + `SIGPIPE` (13).
pub const CLOSED_PIPE_STATUS: u8 = 141;

/// Why a command stopped.
#[derive(Debug)]
pub enum Failure {
    /// A one-line cause for stderr; exit 1.
    Message(String),
    /// A library's typed error, printed as its one-line message; exit 1.
    Error(Box<dyn std::error::Error + Send + Sync>),
    /// Stdout's reader went away; exit [`CLOSED_PIPE_STATUS`] quietly.
    ClosedPipe,
}

impl From<String> for Failure {
    fn from(message: String) -> Self {
        Self::Message(message)
    }
}

/// Typed errors pass through `?` as themselves; only their message reaches stderr.
macro_rules! failure_from {
    ($($error:ty),* $(,)?) => {
        $(impl From<$error> for Failure {
            fn from(error: $error) -> Self {
                Self::Error(Box::new(error))
            }
        })*
    };
}

failure_from!(
    crate::run::RunError,
    crate::bench::BenchError,
    crate::bench_scene::SceneBenchError,
    water_scene::scenario::ScenarioError,
    water_scene::UnknownBackend,
    water_core::WaterError,
    serde_json::Error,
    io::Error,
);

impl From<&str> for Failure {
    fn from(message: &str) -> Self {
        Self::Message(message.to_owned())
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Message(m) => f.write_str(m),
            Self::Error(e) => write!(f, "{e}"),
            Self::ClosedPipe => f.write_str("stdout was closed by its reader"),
        }
    }
}

/// A write error on stdout as a [`Failure`].
#[must_use]
pub fn stdout_failure(e: &io::Error) -> Failure {
    if e.kind() == io::ErrorKind::BrokenPipe {
        Failure::ClosedPipe
    } else {
        Failure::Message(format!("cannot write to stdout: {e}"))
    }
}

/// Stdout, written and flushed at once so that a full disk is reported by the write that hit
/// it, not by a panic in a buffer's destructor.
#[derive(Debug, Default)]
pub struct Stdout;

impl Stdout {
    /// Writes `text` as it is and flushes.
    ///
    /// # Errors
    /// [`Failure::ClosedPipe`] for a closed pipe, [`Failure::Message`] for other errors.
    pub fn print(&mut self, text: &str) -> Result<(), Failure> {
        let mut out = io::stdout().lock();
        out.write_all(text.as_bytes())
            .and_then(|()| out.flush())
            .map_err(|e| stdout_failure(&e))
    }

    /// Writes `text` and a newline, and flushes.
    ///
    /// # Errors
    /// As [`Stdout::print`].
    pub fn line(&mut self, text: &str) -> Result<(), Failure> {
        self.print(&format!("{text}\n"))
    }
}

/// Writes `message` as one line on stderr; a closed stderr is ignored (there is nowhere left to
/// say anything).
pub fn report(message: &str) {
    let one_line = message.replace('\n', " ");
    let _ = writeln!(io::stderr().lock(), "error: {one_line}");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_broken_pipe_is_quiet_and_other_errors_are_named() {
        let closed = io::Error::from(io::ErrorKind::BrokenPipe);
        assert!(matches!(stdout_failure(&closed), Failure::ClosedPipe));
        let full = io::Error::from_raw_os_error(28); // ENOSPC
        match stdout_failure(&full) {
            Failure::Message(m) => assert!(m.contains("cannot write to stdout"), "{m}"),
            other => panic!("a full disk is a one-line message, got {other}"),
        }
    }
}
