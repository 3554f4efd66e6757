//! Writing a file atomically: a reader, a crash or an interrupt sees the old file or the new
//! one, never half of it.
//!
//! ```text
//! out.rttm                           the target, untouched until the last step
//! .overtalk-4242-0-9f3c1a7e.tmp      created beside it: same directory, same file system
//!     │  buffered writes
//!     │  flush, sync_all             the bytes are on disk before a name points at them
//!     ▼
//! rename(.overtalk-….tmp, out.rttm)  one step: the name moves from the old file to the new
//!     │
//!     ▼  sync the directory          the new name is on disk too
//! ```
//!
//! A rename within one directory replaces its target in one step, so the temporary file is
//! made in the target's own directory, under a short hidden name of its own (the process id, a
//! count and a random number: two writes of the same target, in two threads or two processes,
//! never share it, and a target name as long as the file system allows still leaves room for
//! it). The bytes are flushed and synced before the rename, so a crash just after it cannot
//! leave the new name on an empty file, and the directory is synced after it (Unix). Any
//! error — the writer's own, a full disk, a failed rename — removes the temporary file and
//! leaves the target as it was; so does a panic of the writer.
//!
//! What is not a regular file is handled as a shell's `>` does:
//!
//! - a device, a named pipe or a socket (`/dev/null`, `>(gzip)`) is written in place: a rename
//!   would replace the device with a file instead of writing to it;
//! - a symbolic link is followed, and the file it points to is replaced (created when the link
//!   dangles), so the link stays a link;
//! - a directory, or a target whose directory does not exist, is an error that names the path.
//!
//! A replaced file keeps its permission bits (Unix).
//!
//! Every temporary file in progress is registered in this process. A program that ends on a
//! signal calls [`remove_unfinished`] from its handler, so that an interrupted run leaves no
//! hidden file behind: the temporary file of each write is created and registered in one step
//! under the registry's lock, so the handler never misses one.

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard, PoisonError};

use crate::error::{Error, Result};

/// The temporary files of the writes in progress in this process.
static UNFINISHED: Registry = Registry::new();

/// Writes `bytes` to `path` atomically (see the [module](self)).
///
/// ```no_run
/// overtalk::atomic::write("out.rttm", b"SPEAKER clip 1 0.00 4.00 <NA> <NA> A <NA> <NA>\n")?;
/// # Ok::<(), overtalk::Error>(())
/// ```
pub fn write(path: impl AsRef<Path>, bytes: &[u8]) -> Result<()> {
    write_with(path, |out| Ok::<(), Error>(out.write_all(bytes)?))
}

/// Runs `write` into a temporary file beside `path` (buffered) and, once it has succeeded and
/// the bytes are synced to disk, renames the temporary file over `path` (see the
/// [module](self)). An error of `write` is returned as it is, after the temporary file is
/// removed; the other errors (the directory is missing, the target is a directory, the disk is
/// full, the rename fails) are library [`Error`]s that name `path`.
///
/// ```no_run
/// use std::io::Write;
/// overtalk::atomic::write_with("counts.txt", |out| -> overtalk::Result<()> {
///     for n in 1..=3 {
///         writeln!(out, "{n}")?;
///     }
///     Ok(())
/// })?;
/// # Ok::<(), overtalk::Error>(())
/// ```
pub fn write_with<E, F>(path: impl AsRef<Path>, write: F) -> std::result::Result<(), E>
where
    E: From<Error>,
    F: FnOnce(&mut dyn Write) -> std::result::Result<(), E>,
{
    write_registered(&UNFINISHED, path.as_ref(), write)
}

/// Removes the temporary file of every write in progress in this process, and holds them all
/// while the returned guard lives: meanwhile no write creates a temporary file or finishes (it
/// waits), and a write whose file was removed fails at its rename, its target untouched. For
/// a signal handler that then ends the process (keeping the guard until it does).
#[must_use = "the writes resume when the guard is dropped"]
pub fn remove_unfinished() -> WritesHeld {
    UNFINISHED.remove_all()
}

/// The signals this process was started with ignored, as the bit mask of `SigIgn` in
/// `/proc/self/status` (bit `n - 1` for signal `n`); `None` where that cannot be read (not
/// Linux). For a program that installs the handler calling [`remove_unfinished`]: a signal
/// ignored at start (`nohup`'s SIGHUP, a script's `cmd &` SIGINT) should stay ignored, and
/// safe Rust has no other way to ask (signal libraries install their handler whatever the
/// disposition was; reading it with `sigaction` is `unsafe`).
#[cfg(unix)]
pub fn ignored_signals() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let mask = status.lines().find_map(|l| l.strip_prefix("SigIgn:"))?;
    u64::from_str_radix(mask.trim(), 16).ok()
}

/// The atomic writes of this process held by [`remove_unfinished`], until dropped.
pub struct WritesHeld {
    _files: MutexGuard<'static, Vec<PathBuf>>,
}

impl std::fmt::Debug for WritesHeld {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("WritesHeld")
    }
}

/// A list of temporary files in progress, under the lock that an interrupt takes.
struct Registry {
    files: Mutex<Vec<PathBuf>>,
}

impl Registry {
    const fn new() -> Registry {
        Registry { files: Mutex::new(Vec::new()) }
    }

    fn lock(&self) -> MutexGuard<'_, Vec<PathBuf>> {
        self.files.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Creates a new temporary file in `dir` for the write of `target`, under a name no other
    /// write holds (another one when it exists, as in two containers that both run as process
    /// 1), and registers it in the same step.
    fn create(&self, dir: &Path, target: &Path) -> Result<(PathBuf, std::fs::File)> {
        use std::hash::{BuildHasher, Hasher};
        use std::sync::atomic::{AtomicUsize, Ordering};
        static WRITES: AtomicUsize = AtomicUsize::new(0);
        let mut last = None;
        for _ in 0..16 {
            let n = WRITES.fetch_add(1, Ordering::Relaxed);
            let random = std::collections::hash_map::RandomState::new().build_hasher().finish();
            let tmp =
                dir.join(format!(".overtalk-{}-{n}-{:08x}.tmp", std::process::id(), random as u32));
            let mut files = self.lock();
            match std::fs::OpenOptions::new().write(true).create_new(true).open(&tmp) {
                Ok(file) => {
                    files.push(tmp.clone());
                    return Ok((tmp, file));
                }
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => last = Some(e),
                Err(e) => return Err(io_error(target, "creating a temporary file beside it", e)),
            }
        }
        let e = last.unwrap_or_else(|| io::Error::from(io::ErrorKind::AlreadyExists));
        Err(io_error(target, "creating a temporary file beside it", e))
    }

    /// Forgets a temporary file (moved into place, or removed).
    fn finished(&self, tmp: &Path) {
        self.lock().retain(|f| f != tmp);
    }

    /// Removes every registered file and keeps the lock.
    fn remove_all(&'static self) -> WritesHeld {
        let files = self.lock();
        for f in files.iter() {
            let _ = std::fs::remove_file(f);
        }
        WritesHeld { _files: files }
    }
}

/// A temporary file in progress: removed unless it was moved into place, and forgotten by the
/// registry, when dropped (after an error, or a panic of the writer).
struct Unfinished<'a> {
    registry: &'a Registry,
    path: PathBuf,
    moved: bool,
}

impl Drop for Unfinished<'_> {
    fn drop(&mut self) {
        if !self.moved {
            let _ = std::fs::remove_file(&self.path);
        }
        self.registry.finished(&self.path);
    }
}

/// Where a write goes.
enum Destination {
    /// An existing special file (a device, a named pipe, a socket), opened and written.
    InPlace,
    /// A regular file (or none yet) at this path, replaced by a rename; symbolic links
    /// resolved.
    Replace(PathBuf),
}

fn destination(path: &Path) -> Result<Destination> {
    match std::fs::metadata(path) {
        Ok(meta) if meta.is_dir() => {
            return Err(Error::from(io::Error::new(
                io::ErrorKind::IsADirectory,
                "is a directory; name a file to write",
            ))
            .with_path(path));
        }
        Ok(meta) if !meta.is_file() => return Ok(Destination::InPlace),
        _ => {}
    }
    let resolved = resolve_links(path).map_err(|e| io_error(path, "following the link", e))?;
    Ok(Destination::Replace(resolved))
}

/// `path` with symbolic links in its last component followed (even when the last one
/// dangles): the file a write through the link creates or replaces.
fn resolve_links(path: &Path) -> io::Result<PathBuf> {
    let mut p = path.to_path_buf();
    // As many as Linux follows (`ELOOP` beyond).
    for _ in 0..40 {
        match std::fs::symlink_metadata(&p) {
            Ok(meta) if meta.file_type().is_symlink() => {
                let to = std::fs::read_link(&p)?;
                p = match p.parent() {
                    Some(dir) => dir.join(to),
                    None => to,
                };
            }
            _ => return Ok(p),
        }
    }
    Err(io::Error::other("too many levels of symbolic links"))
}

/// The directory a file at `path` is in (`.` for a bare name).
fn directory_of(path: &Path) -> PathBuf {
    match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// An I/O error about `path`, saying what was being done (its kind kept, so a closed pipe is
/// still told apart).
fn io_error(path: &Path, doing: &str, e: io::Error) -> Error {
    let message = crate::error::io_message(&e);
    Error::from(io::Error::new(e.kind(), format!("{doing}: {message}"))).with_path(path)
}

fn write_registered<E, F>(registry: &Registry, path: &Path, write: F) -> std::result::Result<(), E>
where
    E: From<Error>,
    F: FnOnce(&mut dyn Write) -> std::result::Result<(), E>,
{
    let target = match destination(path)? {
        Destination::InPlace => return write_in_place(path, write),
        Destination::Replace(target) => target,
    };
    let dir = directory_of(&target);
    if !dir.is_dir() {
        let e = if dir.exists() {
            io::Error::new(
                io::ErrorKind::NotADirectory,
                format!("{} is not a directory", dir.display()),
            )
        } else {
            io::Error::new(
                io::ErrorKind::NotFound,
                format!("the directory {} does not exist", dir.display()),
            )
        };
        return Err(Error::from(e).with_path(path).into());
    }
    let (tmp, file) = registry.create(&dir, path)?;
    let mut unfinished = Unfinished { registry, path: tmp, moved: false };
    keep_permissions(&file, &target);
    let mut buf = io::BufWriter::new(file);
    write(&mut buf)?;
    let file = buf.into_inner().map_err(|e| io_error(path, "writing", e.into_error()))?;
    file.sync_all().map_err(|e| io_error(path, "writing", e))?;
    drop(file);
    std::fs::rename(&unfinished.path, &target)
        .map_err(|e| io_error(path, "moving the written file into place", e))?;
    unfinished.moved = true;
    drop(unfinished);
    sync_directory(&dir);
    Ok(())
}

/// Writes straight into an existing special file (a device, a named pipe), where no atomic
/// replacement is possible or wanted.
fn write_in_place<E, F>(path: &Path, write: F) -> std::result::Result<(), E>
where
    E: From<Error>,
    F: FnOnce(&mut dyn Write) -> std::result::Result<(), E>,
{
    let file = std::fs::OpenOptions::new()
        .write(true)
        .open(path)
        .map_err(|e| io_error(path, "opening", e))?;
    let mut buf = io::BufWriter::new(file);
    write(&mut buf)?;
    buf.flush().map_err(|e| io_error(path, "writing", e))?;
    Ok(())
}

/// Gives the temporary file the permission bits of the file it replaces, if any (Unix; a
/// failure leaves the default ones).
fn keep_permissions(file: &std::fs::File, target: &Path) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        if let Ok(meta) = std::fs::metadata(target) {
            if meta.is_file() {
                let mode = meta.permissions().mode() & 0o777;
                let _ = file.set_permissions(std::fs::Permissions::from_mode(mode));
            }
        }
    }
    #[cfg(not(unix))]
    let _ = (file, target);
}

/// Syncs the directory after a rename, so that the new name itself is on disk (Unix; where a
/// directory cannot be opened or synced, the rename is left to the file system).
fn sync_directory(dir: &Path) {
    #[cfg(unix)]
    if let Ok(d) = std::fs::File::open(dir) {
        let _ = d.sync_all();
    }
    #[cfg(not(unix))]
    let _ = dir;
}

#[cfg(test)]
mod tests {
    use super::*;
    use overtalk_testkit::Scratch;

    /// The names in `dir`, sorted.
    fn names(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn writes_a_new_file_and_replaces_an_old_one() {
        let dir = Scratch::new();
        let out = dir.path().join("out.txt");
        write(&out, b"first\n").unwrap();
        assert_eq!(dir.read("out.txt"), "first\n");
        write(&out, b"second\n").unwrap();
        assert_eq!(dir.read("out.txt"), "second\n");
        assert_eq!(names(dir.path()), ["out.txt"]);
    }

    #[test]
    fn a_failing_writer_leaves_the_old_file_and_no_temporary_file() {
        let dir = Scratch::new();
        let out = dir.create("out.txt", "old\n");
        let got = write_with(&out, |w| {
            w.write_all(b"half of the new")?;
            // More than the buffer holds: some bytes reach the temporary file.
            w.write_all(&[b'x'; 64 * 1024])?;
            Err(Error::invalid("the writer failed"))
        });
        assert_eq!(got.unwrap_err().to_string(), "the writer failed");
        assert_eq!(dir.read("out.txt"), "old\n");
        assert_eq!(names(dir.path()), ["out.txt"]);
        // Nor when there was no file before.
        let new = dir.path().join("new.txt");
        let got: Result<()> = write_with(&new, |_| Err(Error::invalid("no")));
        assert!(got.is_err());
        assert_eq!(names(dir.path()), ["out.txt"]);
    }

    #[test]
    fn a_panicking_writer_leaves_no_temporary_file() {
        let dir = Scratch::new();
        let out = dir.create("out.txt", "old\n");
        let got = std::panic::catch_unwind(|| {
            let _: Result<()> = write_with(&out, |w| {
                w.write_all(b"new")?;
                panic!("the writer panicked");
            });
        });
        assert!(got.is_err());
        assert_eq!(dir.read("out.txt"), "old\n");
        assert_eq!(names(dir.path()), ["out.txt"]);
    }

    /// The writer's error type is the caller's: here a plain `String` that library errors
    /// convert into.
    #[test]
    fn the_writer_error_comes_back_as_it_is() {
        #[derive(Debug, PartialEq)]
        struct Mine(String);
        impl From<Error> for Mine {
            fn from(e: Error) -> Mine {
                Mine(e.to_string())
            }
        }
        let dir = Scratch::new();
        let out = dir.path().join("out.txt");
        let got = write_with(&out, |_| Err(Mine("mine".to_owned())));
        assert_eq!(got, Err(Mine("mine".to_owned())));
        let got = write_with(dir.path().join("no/out.txt"), |_| Ok::<(), Mine>(()));
        assert!(got.unwrap_err().0.contains("does not exist"));
    }

    #[cfg(unix)]
    #[test]
    fn a_symbolic_link_is_followed_and_kept() {
        let dir = Scratch::new();
        let real = dir.create("real/out.txt", "old\n");
        let link = dir.path().join("link.txt");
        std::os::unix::fs::symlink(&real, &link).unwrap();
        write(&link, b"new\n").unwrap();
        assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink());
        assert_eq!(dir.read("real/out.txt"), "new\n");
        // No temporary file left, in either directory.
        assert_eq!(names(dir.path()), ["link.txt", "real"]);
        assert_eq!(names(&dir.path().join("real")), ["out.txt"]);
        // A relative link, through a second one, that dangles: its file is created.
        let chain = dir.path().join("chain.txt");
        std::os::unix::fs::symlink("link2.txt", &chain).unwrap();
        std::os::unix::fs::symlink("real/later.txt", dir.path().join("link2.txt")).unwrap();
        write(&chain, b"later\n").unwrap();
        assert!(std::fs::symlink_metadata(&chain).unwrap().file_type().is_symlink());
        assert_eq!(dir.read("real/later.txt"), "later\n");
    }

    #[cfg(unix)]
    #[test]
    fn a_device_is_written_in_place() {
        write("/dev/null", b"nothing\n").unwrap();
        let meta = std::fs::metadata("/dev/null").unwrap();
        use std::os::unix::fs::FileTypeExt;
        assert!(meta.file_type().is_char_device());
    }

    #[test]
    fn a_missing_directory_is_an_error_naming_the_path() {
        let dir = Scratch::new();
        let out = dir.path().join("missing/out.txt");
        let e = write(&out, b"x").unwrap_err();
        let text = e.to_string();
        assert!(text.starts_with(&out.display().to_string()), "{text}");
        assert!(
            text.contains(&format!(
                "the directory {} does not exist",
                dir.path().join("missing").display()
            )),
            "{text}"
        );
        assert_eq!(e.path(), Some(out.as_path()));
        assert!(!dir.path().join("missing").exists());
        // A file where the directory should be.
        dir.create("file", "");
        let e = write(dir.path().join("file/out.txt"), b"x").unwrap_err();
        assert!(e.to_string().contains("is not a directory"), "{e}");
    }

    #[test]
    fn a_directory_target_is_an_error_naming_it() {
        let dir = Scratch::new();
        let e = write(dir.path(), b"x").unwrap_err();
        assert_eq!(e.path(), Some(dir.path()));
        assert!(e.to_string().contains("is a directory"), "{e}");
        assert!(names(dir.path()).is_empty());
    }

    #[test]
    fn two_threads_writing_one_target_both_succeed_with_one_whole_file() {
        let dir = Scratch::new();
        let out = dir.path().join("out.txt");
        let a = vec![b'a'; 200_000];
        let b = vec![b'b'; 300_000];
        for _ in 0..8 {
            std::thread::scope(|s| {
                let one = s.spawn(|| write(&out, &a));
                let two = s.spawn(|| write(&out, &b));
                one.join().unwrap().unwrap();
                two.join().unwrap().unwrap();
            });
            let got = std::fs::read(&out).unwrap();
            assert!(got == a || got == b, "a mixture of {} bytes", got.len());
            assert_eq!(names(dir.path()), ["out.txt"]);
        }
    }

    #[cfg(unix)]
    #[test]
    fn a_replaced_file_keeps_its_permissions() {
        use std::os::unix::fs::PermissionsExt;
        let dir = Scratch::new();
        let out = dir.create("out.txt", "old\n");
        std::fs::set_permissions(&out, std::fs::Permissions::from_mode(0o640)).unwrap();
        write(&out, b"new\n").unwrap();
        assert_eq!(std::fs::metadata(&out).unwrap().permissions().mode() & 0o777, 0o640);
    }

    #[test]
    fn a_long_file_name_is_written() {
        let dir = Scratch::new();
        let name = format!("{}.txt", "a".repeat(250));
        write(dir.path().join(&name), b"long\n").unwrap();
        assert_eq!(dir.read(&name), "long\n");
    }

    /// While a write is in progress its temporary file is registered; removing the unfinished
    /// files removes it, holds the other writes, and the interrupted write fails at its rename
    /// with the target untouched.
    #[test]
    fn removing_the_unfinished_files_fails_the_write_in_progress() {
        static REGISTRY: Registry = Registry::new();
        let dir = Scratch::new();
        let out = dir.create("out.txt", "old\n");
        let got: Result<()> = write_registered(&REGISTRY, &out, |w| {
            w.write_all(b"new\n")?;
            let registered = REGISTRY.lock().clone();
            assert_eq!(registered.len(), 1);
            assert!(registered[0].starts_with(dir.path()));
            assert!(registered[0].exists());
            let held = REGISTRY.remove_all();
            assert!(!registered[0].exists());
            // Another write waits for the registry while it is held.
            let (sent, waited) = std::sync::mpsc::channel();
            let other = dir.path().join("other.txt");
            let waiting = std::thread::spawn(move || {
                let r =
                    write_registered(&REGISTRY, &other, |w| Ok::<(), Error>(w.write_all(b"o")?));
                sent.send(()).unwrap();
                r
            });
            let timeout = std::time::Duration::from_millis(200);
            assert!(waited.recv_timeout(timeout).is_err());
            drop(held);
            waited.recv().unwrap();
            waiting.join().unwrap().unwrap();
            Ok(())
        });
        let e = got.unwrap_err();
        assert!(e.to_string().contains("moving the written file into place"), "{e}");
        assert_eq!(dir.read("out.txt"), "old\n");
        assert_eq!(dir.read("other.txt"), "o");
        assert!(REGISTRY.lock().is_empty());
        assert_eq!(names(dir.path()), ["other.txt", "out.txt"]);
    }
}
