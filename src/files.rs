//! Writing the documents vigia produces (notices, the batch index; later actas and backups): the
//! bytes go to a hidden temporary file beside the target, readable by the owner only, and are
//! moved into place only when the caller says so (after the register's commit), never through a
//! symbolic link and never over an existing file unless replacing was asked for. Pure std; knows
//! no flag and no rule.

use std::fmt;
use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, SystemTime};

/// The name every temporary file starts with (hidden on Unix), so a leftover is recognisable.
pub const TEMP_PREFIX: &str = ".vigia-tmp-";

/// How old a leftover temporary file must be, before the run that finds it started, to be
/// removed by [`remove_stale`]: old enough that no other vigia run can still be about to move it.
pub const STALE_AFTER: Duration = Duration::from_secs(10 * 60);

/// Why a document was not written or not placed.
#[derive(Debug)]
pub enum FileError {
    /// Something is already at the target and replacing it was not asked for.
    Exists(PathBuf),
    /// The target (a file or a directory to write into) is a symbolic link.
    Symlink(PathBuf),
    /// The target is a directory where a file was to go.
    IsDir(PathBuf),
    /// The operating system refused: `path` is the target the caller named.
    Io { path: PathBuf, error: io::Error },
}

impl FileError {
    /// The target the error is about.
    pub fn path(&self) -> &Path {
        match self {
            FileError::Exists(p) | FileError::Symlink(p) | FileError::IsDir(p) => p,
            FileError::Io { path, .. } => path,
        }
    }
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FileError::Exists(p) => write!(f, "{} already exists", p.display()),
            FileError::Symlink(p) => write!(f, "{} is a symbolic link", p.display()),
            FileError::IsDir(p) => write!(f, "{} is a directory", p.display()),
            FileError::Io { path, error } => write!(f, "{}: {error}", path.display()),
        }
    }
}

impl std::error::Error for FileError {}

/// The operating system's error a [`FileError`] stands for (its kind says what happened; the
/// text is the English the error displays, the path left out: the caller names it).
impl From<FileError> for io::Error {
    fn from(e: FileError) -> io::Error {
        match e {
            FileError::Io { error, .. } => error,
            FileError::Exists(_) => io::Error::new(io::ErrorKind::AlreadyExists, "already exists"),
            FileError::IsDir(_) => io::Error::new(io::ErrorKind::IsADirectory, "it is a directory"),
            FileError::Symlink(_) => io::Error::other("it is a symbolic link"),
        }
    }
}

fn io_error(path: &Path) -> impl FnOnce(io::Error) -> FileError + '_ {
    move |error| FileError::Io {
        path: path.to_path_buf(),
        error,
    }
}

/// Whether a document may be written at `target`: refused when it is a symbolic link (whatever
/// `replace` says), a directory, or (unless `replace`) anything else that exists.
pub fn check_target(target: &Path, replace: bool) -> Result<(), FileError> {
    match fs::symlink_metadata(target) {
        Ok(m) if m.file_type().is_symlink() => Err(FileError::Symlink(target.to_path_buf())),
        Ok(m) if m.is_dir() => Err(FileError::IsDir(target.to_path_buf())),
        Ok(_) if !replace => Err(FileError::Exists(target.to_path_buf())),
        Ok(_) => Ok(()),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(io_error(target)(e)),
    }
}

/// The directory a file at `target` lives in.
fn parent_of(target: &Path) -> &Path {
    target
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."))
}

/// A document written to its temporary file and flushed to disk, waiting to be placed. Dropped
/// without [`Staged::place`] (the register's commit failed, the run was refused), the temporary
/// file is removed.
#[derive(Debug)]
pub struct Staged {
    tmp: PathBuf,
    target: PathBuf,
    replace: bool,
    done: bool,
}

/// Creates a new, empty temporary file in `dir`: `O_CREAT|O_EXCL` (never an existing file, never
/// through a symbolic link), mode 0600 where the system has modes.
fn create_temp(dir: &Path, target: &Path) -> Result<(PathBuf, File), FileError> {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let nanos = SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or(0);
    loop {
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let tmp = dir.join(format!(
            "{TEMP_PREFIX}{}-{n}-{nanos:09}",
            std::process::id()
        ));
        let mut options = OpenOptions::new();
        options.write(true).create_new(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            options.mode(0o600);
        }
        match options.open(&tmp) {
            Ok(f) => return Ok((tmp, f)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(io_error(target)(e)),
        }
    }
}

/// Writes `bytes` to a new temporary file in `target`'s directory and flushes it to disk, after
/// [`check_target`]. Nothing is at `target` until [`Staged::place`].
pub fn stage(target: &Path, bytes: &[u8], replace: bool) -> Result<Staged, FileError> {
    reserve(target, replace)?.fill(bytes)
}

/// The empty temporary file a document will be written to, beside its target: made before the
/// register's transaction commits (so that a target that cannot be written refuses the command
/// while nothing is stored yet), written after it, when the document is rendered. Dropped
/// unwritten, it is removed.
#[derive(Debug)]
pub struct Reserved {
    staged: Staged,
    file: io::BufWriter<File>,
}

/// Reserves the temporary file of a document for `target`, after [`check_target`]: the
/// directory must exist and take a new file; nothing is at `target` until [`Staged::place`].
pub fn reserve(target: &Path, replace: bool) -> Result<Reserved, FileError> {
    check_target(target, replace)?;
    let (tmp, file) = create_temp(parent_of(target), target)?;
    Ok(Reserved {
        staged: Staged {
            tmp,
            target: target.to_path_buf(),
            replace,
            done: false,
        },
        file: io::BufWriter::with_capacity(1 << 16, file),
    })
}

impl Reserved {
    /// The target the document is for.
    pub fn target(&self) -> &Path {
        &self.staged.target
    }

    /// Writes the whole document and flushes it to disk.
    pub fn fill(mut self, bytes: &[u8]) -> Result<Staged, FileError> {
        let target = self.staged.target.clone();
        self.file.write_all(bytes).map_err(io_error(&target))?;
        self.finish()
    }

    /// Flushes what was written through [`Write`] to disk: the document is staged.
    pub fn finish(self) -> Result<Staged, FileError> {
        let Reserved { staged, file } = self;
        let target = staged.target.clone();
        let file = file
            .into_inner()
            .map_err(|e| io_error(&target)(e.into_error()))?;
        file.sync_all().map_err(io_error(&target))?;
        Ok(staged)
    }
}

/// A document streamed into its temporary file (then [`Reserved::finish`]).
impl Write for Reserved {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.file.write(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.file.flush()
    }
}

/// A document written as it is produced (a report too large to hold in memory): a new temporary
/// file in `target`'s directory, after [`check_target`], and the open file to write it into. The
/// caller flushes the file, then [`Staged::place`]s it; dropped, the temporary file is removed.
pub fn stage_file(target: &Path, replace: bool) -> Result<(Staged, File), FileError> {
    check_target(target, replace)?;
    let (tmp, file) = create_temp(parent_of(target), target)?;
    let staged = Staged {
        tmp,
        target: target.to_path_buf(),
        replace,
        done: false,
    };
    Ok((staged, file))
}

/// A large file written from start to end (a report streamed into [`stage_file`]'s file), sent
/// to disk as it grows: after every [`SYNC_EVERY`] bytes written, a thread of its own syncs what
/// the file holds so far (`sync_data` through a second handle) while the writing goes on, so that
/// the caller's last sync, before the file is placed, waits only for the tail. Nothing is
/// promised before that last sync: the early ones only move its wait under the writing.
pub struct SyncedAsWritten {
    file: File,
    every: u64,
    unsynced: u64,
    wake: std::sync::mpsc::SyncSender<()>,
    syncer: std::thread::JoinHandle<io::Result<()>>,
}

/// How many bytes [`SyncedAsWritten`] lets the file gather before its thread syncs them.
pub const SYNC_EVERY: u64 = 32 << 20;

impl SyncedAsWritten {
    pub fn new(file: File) -> io::Result<SyncedAsWritten> {
        SyncedAsWritten::every(file, SYNC_EVERY)
    }

    /// Syncing after every `every` bytes.
    fn every(file: File, every: u64) -> io::Result<SyncedAsWritten> {
        let second = file.try_clone()?;
        // one wake-up waiting at most: a sync covers whatever was written before it started
        let (wake, woken) = std::sync::mpsc::sync_channel::<()>(1);
        let syncer =
            std::thread::Builder::new()
                .name("sync".into())
                .spawn(move || -> io::Result<()> {
                    for () in woken {
                        second.sync_data()?;
                    }
                    Ok(())
                })?;
        Ok(SyncedAsWritten {
            file,
            every,
            unsynced: 0,
            wake,
            syncer,
        })
    }

    /// The file, once its thread has stopped; the first error of an early sync, if one failed
    /// (the handles share the file's error state, so the caller's own sync might not see it).
    pub fn into_file(self) -> io::Result<File> {
        let SyncedAsWritten {
            file, wake, syncer, ..
        } = self;
        drop(wake);
        syncer
            .join()
            .unwrap_or_else(|_| Err(io::Error::other("the syncing thread panicked")))?;
        Ok(file)
    }
}

impl Write for SyncedAsWritten {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.file.write(buf)?;
        self.unsynced += n as u64;
        if self.unsynced >= self.every {
            self.unsynced = 0;
            // full: a sync is already waiting, and will cover these bytes; disconnected: the
            // thread stopped on an error, which `into_file` reports
            let _ = self.wake.try_send(());
        }
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.file.flush()
    }
}

impl Staged {
    /// Where the bytes wait.
    pub fn temp_path(&self) -> &Path {
        &self.tmp
    }

    /// Moves the document into place. Without `replace` the last step is a hard link, which
    /// fails, changing nothing, when anything appeared at the target meanwhile (on a file system
    /// without hard links: a copy into a file created with `O_EXCL`); with `replace` a rename,
    /// which replaces a file (or a link) at the target without following it. On failure the
    /// temporary file is kept, and the error's `path` is the target.
    pub fn place(mut self) -> Result<PathBuf, FileError> {
        let placed = self.move_into_place();
        self.done = true; // placed, or kept for the caller to name: it may have committed already
        placed
    }

    fn move_into_place(&mut self) -> Result<PathBuf, FileError> {
        let target = self.target.clone();
        if self.replace {
            check_target(&target, true)?;
            fs::rename(&self.tmp, &target).map_err(io_error(&target))?;
        } else {
            match fs::hard_link(&self.tmp, &target) {
                Ok(()) => {
                    let _ = fs::remove_file(&self.tmp);
                }
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
                    return Err(FileError::Exists(target));
                }
                Err(_) => copy_exclusive(&self.tmp, &target)?,
            }
        }
        sync_dir(parent_of(&target));
        Ok(target)
    }
}

impl Drop for Staged {
    fn drop(&mut self) {
        if !self.done {
            let _ = fs::remove_file(&self.tmp);
        }
    }
}

/// Copies the temporary file to a target created with `O_EXCL` (mode 0600; never through a
/// symbolic link, which `O_EXCL` refuses as an existing file), a buffer at a time (by the system
/// where it can: `io::copy`), flushes it, then removes the temporary file. The last step cannot
/// be a rename here: it would replace what appeared at the target meanwhile. A copy that fails
/// removes the target it created, so nothing half-written is left there.
fn copy_exclusive(tmp: &Path, target: &Path) -> Result<(), FileError> {
    let mut source = File::open(tmp).map_err(io_error(target))?;
    let mut options = OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    let mut f = options.open(target).map_err(|e| {
        if e.kind() == io::ErrorKind::AlreadyExists {
            FileError::Exists(target.to_path_buf())
        } else {
            io_error(target)(e)
        }
    })?;
    if let Err(e) = io::copy(&mut source, &mut f).and_then(|_| f.sync_all()) {
        drop(f);
        let _ = fs::remove_file(target);
        return Err(io_error(target)(e));
    }
    let _ = fs::remove_file(tmp);
    Ok(())
}

/// Flushes a directory's entries (the new name) to disk where the system allows it.
fn sync_dir(dir: &Path) {
    #[cfg(unix)]
    if let Ok(d) = File::open(dir) {
        let _ = d.sync_all();
    }
    #[cfg(not(unix))]
    let _ = dir;
}

/// Writes a whole document at `target` now: [`stage`] then [`Staged::place`]. For documents no
/// register transaction depends on (the batch index).
/// On failure nothing is left behind.
pub fn write(target: &Path, bytes: &[u8], replace: bool) -> Result<PathBuf, FileError> {
    let mut staged = stage(target, bytes, replace)?;
    let placed = staged.move_into_place();
    staged.done = placed.is_ok();
    placed
}

/// Replaces the document at `target`, open as `source`, by its first `len` bytes (those the
/// caller read: a signature's digest covers exactly them) followed by `extra` (a signature's
/// incremental update): copied from `source` into a temporary file beside it (by the system
/// where it can; never into memory whole), flushed, then renamed over it. A `source` shorter
/// than `len`, or longer (something wrote to it since it was read), is refused. On failure the
/// document is left as it was and the temporary file removed.
pub fn append(target: &Path, source: &File, len: u64, extra: &[u8]) -> Result<PathBuf, FileError> {
    use std::io::{Read, Seek};
    let mut reserved = reserve(target, true)?;
    let mut source = source;
    let changed = || {
        io::Error::new(
            io::ErrorKind::UnexpectedEof,
            "the document changed while it was being signed",
        )
    };
    source
        .seek(io::SeekFrom::Start(0))
        .and_then(|_| io::copy(&mut source.take(len), &mut reserved.file))
        .and_then(|copied| {
            if copied == len {
                Ok(())
            } else {
                Err(changed())
            }
        })
        .and_then(|_| source.metadata())
        .and_then(|m| {
            if m.len() == len {
                Ok(())
            } else {
                Err(changed())
            }
        })
        .and_then(|_| reserved.file.write_all(extra))
        .map_err(io_error(target))?;
    let mut staged = reserved.finish()?;
    let placed = staged.move_into_place();
    staged.done = placed.is_ok();
    placed
}

/// Makes sure `dir` is a directory to write into: refused when it is a symbolic link or not a
/// directory; created (with its missing parents) mode 0700 when it does not exist.
pub fn private_dir(dir: &Path) -> Result<(), FileError> {
    match fs::symlink_metadata(dir) {
        Ok(m) if m.file_type().is_symlink() => Err(FileError::Symlink(dir.to_path_buf())),
        Ok(m) if m.is_dir() => Ok(()),
        Ok(_) => Err(FileError::Io {
            path: dir.to_path_buf(),
            error: io::Error::other("it exists and is not a directory"),
        }),
        Err(e) if e.kind() == io::ErrorKind::NotFound => create_dirs(dir),
        Err(e) => Err(io_error(dir)(e)),
    }
}

/// Creates `dir` and its missing parents, each mode 0700 where the system has modes; what
/// exists already is left as it is (a symbolic link to a directory included).
pub fn create_dirs(dir: &Path) -> Result<(), FileError> {
    let mut b = fs::DirBuilder::new();
    b.recursive(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::DirBuilderExt;
        b.mode(0o700);
    }
    b.create(dir).map_err(io_error(dir))
}

/// Whether `name` is one of vigia's own temporary files: `.vigia-tmp-*` (documents, reports,
/// backups and the files SQLite makes beside a backup's copy), or a backup's copy as earlier
/// builds named it (`.FILE.XXXXXX.vigia-backup`, and its `-journal`, `-wal`, `-shm`).
pub fn is_vigia_temp(name: &str) -> bool {
    let legacy = name.starts_with('.')
        && ["", "-journal", "-wal", "-shm"]
            .iter()
            .any(|s| name.ends_with(&format!(".vigia-backup{s}")));
    name.starts_with(TEMP_PREFIX) || legacy
}

/// Removes the temporary files ([`is_vigia_temp`], regular files only) in `dir` last modified more
/// than [`STALE_AFTER`] before `run_started`: leftovers of runs killed between writing a document
/// and placing it. Returns how many were removed; what cannot be read or removed is left alone.
pub fn remove_stale(dir: &Path, run_started: SystemTime) -> usize {
    let Some(cutoff) = run_started.checked_sub(STALE_AFTER) else {
        return 0;
    };
    let Ok(entries) = fs::read_dir(dir) else {
        return 0;
    };
    let mut removed = 0;
    for entry in entries.flatten() {
        if !is_vigia_temp(&entry.file_name().to_string_lossy()) {
            continue;
        }
        let Ok(m) = fs::symlink_metadata(entry.path()) else {
            continue;
        };
        if m.is_file()
            && m.modified().is_ok_and(|t| t < cutoff)
            && fs::remove_file(entry.path()).is_ok()
        {
            removed += 1;
        }
    }
    removed
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temps(dir: &Path) -> Vec<String> {
        fs::read_dir(dir)
            .unwrap()
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| n.starts_with(TEMP_PREFIX))
            .collect()
    }

    #[test]
    fn a_staged_document_appears_only_when_placed() {
        let d = tempfile::tempdir().unwrap();
        let target = d.path().join("n.pdf");
        let staged = stage(&target, b"uno", false).unwrap();
        assert!(!target.exists());
        assert_eq!(temps(d.path()).len(), 1);
        assert_eq!(fs::read(staged.temp_path()).unwrap(), b"uno");
        staged.place().unwrap();
        assert_eq!(fs::read(&target).unwrap(), b"uno");
        assert!(temps(d.path()).is_empty());
    }

    #[test]
    fn a_reserved_file_is_written_later_and_removed_when_abandoned() {
        let d = tempfile::tempdir().unwrap();
        let target = d.path().join("n.pdf");
        // reserved: an empty hidden file, nothing at the target
        let r = reserve(&target, false).unwrap();
        let tmp = d.path().join(&temps(d.path())[0]);
        assert_eq!(fs::read(tmp).unwrap(), b"");
        assert!(!target.exists());
        drop(r);
        assert!(
            temps(d.path()).is_empty(),
            "an abandoned reservation is removed"
        );
        // written through Write, in pieces, then placed
        let mut r = reserve(&target, false).unwrap();
        r.write_all(b"u").unwrap();
        r.write_all(b"no").unwrap();
        r.finish().unwrap().place().unwrap();
        assert_eq!(fs::read(&target).unwrap(), b"uno");
        assert!(temps(d.path()).is_empty());
        // a directory that does not exist refuses at once, before anything is rendered
        let missing = d.path().join("no").join("n.pdf");
        assert!(matches!(
            reserve(&missing, false),
            Err(FileError::Io { .. })
        ));
        assert!(matches!(reserve(&target, false), Err(FileError::Exists(_))));
    }

    #[test]
    fn an_abandoned_document_leaves_nothing() {
        // the register's commit failed: the staged document is dropped, not placed
        let d = tempfile::tempdir().unwrap();
        let target = d.path().join("n.pdf");
        let staged = stage(&target, b"uno", false).unwrap();
        drop(staged);
        assert!(!target.exists());
        assert!(temps(d.path()).is_empty());
    }

    #[test]
    fn a_file_synced_as_it_is_written_holds_every_byte_in_order() {
        let d = tempfile::tempdir().unwrap();
        let target = d.path().join("report.json");
        let (staged, file) = stage_file(&target, false).unwrap();
        // a sync after every 1,000 bytes: 37 writes of 300 bytes wake the thread 11 times,
        // some while it is still syncing
        let mut w = SyncedAsWritten::every(file, 1000).unwrap();
        let mut expected = Vec::new();
        for i in 0..37u8 {
            let chunk = [b'a' + i % 26; 300];
            w.write_all(&chunk).unwrap();
            expected.extend_from_slice(&chunk);
        }
        w.into_file().unwrap().sync_all().unwrap();
        staged.place().unwrap();
        assert_eq!(fs::read(&target).unwrap(), expected);
    }

    #[test]
    fn never_over_an_existing_file_unless_replacing() {
        let d = tempfile::tempdir().unwrap();
        let target = d.path().join("n.pdf");
        fs::write(&target, b"old").unwrap();
        assert!(matches!(
            stage(&target, b"new", false),
            Err(FileError::Exists(_))
        ));
        // a file that appears between the check and the placing is not replaced either
        fs::remove_file(&target).unwrap();
        let staged = stage(&target, b"new", false).unwrap();
        fs::write(&target, b"raced").unwrap();
        let tmp = staged.temp_path().to_path_buf();
        assert!(matches!(staged.place(), Err(FileError::Exists(_))));
        assert_eq!(fs::read(&target).unwrap(), b"raced");
        assert_eq!(fs::read(&tmp).unwrap(), b"new", "the bytes are kept");
        // replacing
        write(&target, b"new", true).unwrap();
        assert_eq!(fs::read(&target).unwrap(), b"new");
    }

    #[cfg(unix)]
    #[test]
    fn never_through_a_symbolic_link_and_owner_only() {
        use std::os::unix::fs::PermissionsExt;
        let d = tempfile::tempdir().unwrap();
        let elsewhere = d.path().join("elsewhere");
        fs::write(&elsewhere, b"keep").unwrap();
        let link = d.path().join("n.pdf");
        std::os::unix::fs::symlink(&elsewhere, &link).unwrap();
        for replace in [false, true] {
            assert!(matches!(
                write(&link, b"x", replace),
                Err(FileError::Symlink(_))
            ));
        }
        assert_eq!(fs::read(&elsewhere).unwrap(), b"keep");
        let target = d.path().join("m.pdf");
        write(&target, b"x", false).unwrap();
        let mode = fs::metadata(&target).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
        let sub = d.path().join("a").join("b");
        private_dir(&sub).unwrap();
        let mode = fs::metadata(&sub).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o700);
        let dir_link = d.path().join("c");
        std::os::unix::fs::symlink(&sub, &dir_link).unwrap();
        assert!(matches!(private_dir(&dir_link), Err(FileError::Symlink(_))));
    }

    #[cfg(unix)]
    #[test]
    fn appending_replaces_the_file_by_its_bytes_and_the_update_owner_only_never_through_a_link() {
        use std::os::unix::fs::PermissionsExt;
        let d = tempfile::tempdir().unwrap();
        let target = d.path().join("acta.pdf");
        write(&target, b"%PDF-1.3 cuerpo", false).unwrap();
        let source = File::open(&target).unwrap();
        // a length other than the file's (it changed since it was read) is refused, nothing
        // replaced and no temporary file left
        for len in [5, 20] {
            assert!(matches!(
                append(&target, &source, len, b"\nfirma"),
                Err(FileError::Io { .. })
            ));
            assert_eq!(fs::read(&target).unwrap(), b"%PDF-1.3 cuerpo");
            assert!(temps(d.path()).is_empty(), "{:?}", temps(d.path()));
        }
        append(&target, &source, 15, b"\nfirma").unwrap();
        assert_eq!(fs::read(&target).unwrap(), b"%PDF-1.3 cuerpo\nfirma");
        let mode = fs::metadata(&target).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
        assert!(temps(d.path()).is_empty(), "{:?}", temps(d.path()));
        // a link put at the path is refused, the file it points at left as it was
        let link = d.path().join("enlace.pdf");
        std::os::unix::fs::symlink(&target, &link).unwrap();
        assert!(matches!(
            append(&link, &source, 21, b"x"),
            Err(FileError::Symlink(_))
        ));
        assert_eq!(fs::read(&target).unwrap(), b"%PDF-1.3 cuerpo\nfirma");
    }

    /// The copy made where hard links cannot be: the temporary file's bytes (several buffers'
    /// worth), owner only, the temporary file gone; never over a file or through a link that is
    /// at the target, which are left as they were, with the temporary file kept.
    #[test]
    fn the_exclusive_copy_writes_the_bytes_owner_only_and_never_over_a_file_or_a_link() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let bytes: Vec<u8> = (0..3_000_000u32).map(|i| (i % 251) as u8).collect();
        let tmp = dir.path().join(".vigia-tmp-copia");
        fs::write(&tmp, &bytes).unwrap();
        let target = dir.path().join("acta.pdf");
        copy_exclusive(&tmp, &target).unwrap();
        assert_eq!(fs::read(&target).unwrap(), bytes);
        let mode = fs::metadata(&target).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
        assert!(!tmp.exists());

        fs::write(&tmp, b"otro").unwrap();
        assert!(matches!(
            copy_exclusive(&tmp, &target),
            Err(FileError::Exists(p)) if p == target
        ));
        assert_eq!(fs::read(&target).unwrap(), bytes);
        let elsewhere = dir.path().join("otro.pdf");
        let link = dir.path().join("enlace.pdf");
        std::os::unix::fs::symlink(&elsewhere, &link).unwrap();
        assert!(matches!(
            copy_exclusive(&tmp, &link),
            Err(FileError::Exists(_))
        ));
        assert!(!elsewhere.exists());
        assert_eq!(fs::read(&tmp).unwrap(), b"otro");
    }

    #[test]
    fn stale_temporary_files_are_removed_fresh_ones_kept() {
        let d = tempfile::tempdir().unwrap();
        let now = SystemTime::now();
        let old = d.path().join(format!("{TEMP_PREFIX}old"));
        let fresh = d.path().join(format!("{TEMP_PREFIX}fresh"));
        let other = d.path().join("old-notes.txt");
        for p in [&old, &fresh, &other] {
            fs::write(p, b"x").unwrap();
        }
        let hour_ago = now - Duration::from_secs(3600);
        for p in [&old, &other] {
            File::options()
                .write(true)
                .open(p)
                .unwrap()
                .set_modified(hour_ago)
                .unwrap();
        }
        assert_eq!(remove_stale(d.path(), now), 1);
        assert!(!old.exists() && fresh.exists() && other.exists());
    }
}
