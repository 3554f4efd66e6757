//! A tiny harness: a temporary directory and the `overtalk` binary run inside it.
#![allow(dead_code)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// A scratch directory removed when dropped.
pub struct Dir {
    dir: tempfile::TempDir,
}

impl Dir {
    /// A new empty directory.
    pub fn new() -> Dir {
        Dir { dir: tempfile::tempdir().expect("temporary directory") }
    }

    /// The directory's path.
    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    /// Writes a file (creating parents) and returns its path.
    pub fn create(&self, name: &str, contents: &str) -> PathBuf {
        let p = self.dir.path().join(name);
        if let Some(parent) = p.parent() {
            std::fs::create_dir_all(parent).unwrap();
        }
        std::fs::write(&p, contents).unwrap();
        p
    }

    /// Reads a file of the directory.
    pub fn read(&self, name: &str) -> String {
        std::fs::read_to_string(self.dir.path().join(name)).unwrap()
    }

    /// `overtalk ARGS…` with this directory as working directory.
    pub fn run(&self, args: &[&str]) -> Run {
        self.run_with_stdin(args, None)
    }

    /// `overtalk ARGS…` with these environment variables set.
    pub fn run_env(&self, args: &[&str], env: &[(&str, &Path)]) -> Run {
        self.spawn(args, None, env)
    }

    /// `overtalk ARGS…` fed `stdin`.
    pub fn run_with_stdin(&self, args: &[&str], stdin: Option<&str>) -> Run {
        self.spawn(args, stdin, &[])
    }

    /// `overtalk ARGS…` fed these bytes on stdin.
    pub fn run_bytes(&self, args: &[&str], stdin: &[u8]) -> Run {
        self.spawn_bytes(args, Some(stdin), &[])
    }

    fn spawn(&self, args: &[&str], stdin: Option<&str>, env: &[(&str, &Path)]) -> Run {
        self.spawn_bytes(args, stdin.map(str::as_bytes), env)
    }

    fn spawn_bytes(&self, args: &[&str], stdin: Option<&[u8]>, env: &[(&str, &Path)]) -> Run {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_overtalk"));
        cmd.envs(env.iter().copied())
            .args(args)
            .current_dir(self.dir.path())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let mut child = cmd.spawn().expect("overtalk runs");
        if let Some(input) = stdin {
            child.stdin.take().unwrap().write_all(input).unwrap();
        } else {
            drop(child.stdin.take());
        }
        Run(child.wait_with_output().unwrap())
    }
}

/// The outcome of one run.
pub struct Run(pub Output);

impl Run {
    /// Exit code.
    pub fn code(&self) -> i32 {
        self.0.status.code().unwrap_or(-1)
    }

    /// Stdout as text.
    pub fn stdout(&self) -> String {
        String::from_utf8_lossy(&self.0.stdout).into_owned()
    }

    /// Stderr as text.
    pub fn stderr(&self) -> String {
        String::from_utf8_lossy(&self.0.stderr).into_owned()
    }

    /// Asserts success and returns stdout.
    pub fn ok(&self) -> String {
        assert_eq!(self.code(), 0, "stderr: {}", self.stderr());
        self.stdout()
    }
}

pub use overtalk_testkit::{audio_fixture, repo_root, shared_data};

/// Lets the thread at the other end of the named pipe `fifo` finish, whatever the run under test
/// did with the pipe: opens the pipe's opposite end without blocking (`O_NONBLOCK`) and closes it,
/// until the thread is done. A thread blocked in `open` is released by the partner; one blocked in
/// a read or write sees end of file or a broken pipe. A plain blocking `open` could wait forever
/// when the thread had finished between the check and the call. Panics after 30 s rather than
/// hanging the test run.
#[cfg(unix)]
pub fn release_fifo<T>(fifo: &Path, thread: std::thread::JoinHandle<T>, thread_writes: bool) -> T {
    use std::os::unix::fs::OpenOptionsExt;
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    while !thread.is_finished() {
        assert!(
            std::time::Instant::now() < deadline,
            "the thread at {} never finished",
            fifo.display()
        );
        // A write end opened without a reader fails with ENXIO: nothing to release then.
        drop(
            std::fs::OpenOptions::new()
                .read(thread_writes)
                .write(!thread_writes)
                .custom_flags(libc::O_NONBLOCK)
                .open(fifo),
        );
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    thread.join().expect("the pipe's thread")
}
