//! What every command receives from `main` and hands back to it, in a file of its own so that
//! the commands depend on it and `main` on the commands, never in a circle.

/// What a command reports back to `main`: success, or finished with a failed check.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// Everything requested was done and every check passed.
    Ok,
    /// Finished, but a check failed or inputs were skipped (exit code 1).
    Partial,
}

/// Settings every command receives.
#[derive(Debug, Clone, Copy)]
pub struct Globals {
    /// Suppress warnings and progress.
    pub quiet: bool,
}
