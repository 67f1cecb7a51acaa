//! Replacing an output file safely: never half written, never a device turned into a
//! regular file, links, mode and owner kept, write errors reported, no temporary file left
//! behind.
//!
//! A regular (or new) file is written to a temporary sibling, `.NAME.agon-tmp-PID-N`,
//! created exclusively and `flock`ed while it is written; then it is synced, given the old
//! file's mode and owner, renamed over the target, and the directory is synced, so the new
//! content survives a power cut once the call returns. If anything fails the temporary
//! file is removed and the target is untouched.
//!
//! Two cases cannot be renamed over without losing something, so the new content (complete
//! and synced in the temporary file first) is copied into the existing file instead: a file
//! with several hard links (a rename would split them) and a file whose owner a new file
//! cannot get (we are not root). That copy is not atomic.
//!
//! A target that exists and is not a regular file or a directory (a character device such
//! as `/dev/null`, a FIFO, a socket) is opened and written directly: there is nothing to
//! replace, and a rename would destroy the device.
//!
//! A writer killed with `kill -9` leaves its temporary file. The first write into a
//! directory (once per process) removes every temporary file of this naming there that no
//! live writer holds locked (a lock dies with its process).

use std::collections::BTreeSet;
use std::ffi::OsStr;
use std::fs::{self, File, Metadata, OpenOptions};
use std::io::{self, BufWriter, Seek, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, PoisonError};

/// What marks our temporary files: `.NAME` + `TEMP_MARK` + `PID-N`.
pub const TEMP_MARK: &str = ".agon-tmp-";

/// Symbolic links followed before giving up (as the system's own limit, `ELOOP`).
const MAX_LINKS: usize = 40;

/// The longest part of the target's name kept in a temporary file's name, so that the
/// temporary name stays under the usual 255-byte limit.
const MAX_NAME_PART: usize = 160;

/// Whether a file name is one of our temporary files (`.NAME.agon-tmp-...`).
pub fn is_temp_name(name: &OsStr) -> bool {
    let name = name.to_string_lossy();
    name.starts_with('.') && name.contains(TEMP_MARK)
}

/// Writes `bytes` to `path`: see the module documentation.
pub fn write_file(path: &Path, bytes: &[u8]) -> io::Result<()> {
    write_file_with(path, |out| out.write_all(bytes))
}

/// Writes to `path` what `fill` writes (streamed through a buffer, never held whole in
/// memory). If `fill` fails, its error is returned and a regular target is left as it was.
pub fn write_file_with(
    path: &Path,
    fill: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> io::Result<()> {
    let target = follow_links(path)?;
    match Kind::of(&target)? {
        Kind::Special => write_direct(&target, fill),
        Kind::Replaceable(old) => replace(&target, old.as_ref(), None, |temp| {
            let mut out = BufWriter::new(&temp.file);
            fill(&mut out)?;
            out.flush()
        }),
    }
}

/// Like [`write_file_with`] for producers that write to a path themselves (an image
/// library): `produce` is given the path of a temporary file with the target's extension,
/// which then replaces the target exactly as above (or, for a device, is copied into it).
pub fn write_file_via_path(
    path: &Path,
    produce: impl FnOnce(&Path) -> io::Result<()>,
) -> io::Result<()> {
    let target = follow_links(path)?;
    let extension = target.extension().map(|e| e.to_string_lossy().into_owned());
    match Kind::of(&target)? {
        Kind::Special => {
            let mut temp = TempFile::create(
                &std::env::temp_dir(),
                OsStr::new("agon-output"),
                extension.as_deref(),
            )?;
            produce(&temp.path)?;
            temp.file.rewind()?;
            write_direct(&target, |out| io::copy(&mut temp.file, out).map(drop))
        }
        Kind::Replaceable(old) => replace(&target, old.as_ref(), extension.as_deref(), |temp| {
            produce(&temp.path)
        }),
    }
}

/// What kind of file a target is.
enum Kind {
    /// A device, FIFO or socket: written directly.
    Special,
    /// A regular file (its metadata) or no file yet (`None`): replaced.
    Replaceable(Option<Metadata>),
}

impl Kind {
    fn of(target: &Path) -> io::Result<Kind> {
        match fs::metadata(target) {
            Ok(meta) if meta.is_dir() => Err(io::Error::new(
                io::ErrorKind::IsADirectory,
                "is a directory",
            )),
            Ok(meta) if meta.is_file() => Ok(Kind::Replaceable(Some(meta))),
            Ok(_) => Ok(Kind::Special),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(Kind::Replaceable(None)),
            Err(e) => Err(e),
        }
    }
}

/// The path a chain of symbolic links ends at (the path itself if it is not a link; the
/// last link's target may not exist yet, and is then created).
fn follow_links(path: &Path) -> io::Result<PathBuf> {
    let mut current = path.to_path_buf();
    for _ in 0..MAX_LINKS {
        match fs::symlink_metadata(&current) {
            Ok(meta) if meta.file_type().is_symlink() => {
                let next = fs::read_link(&current)?;
                current = match current.parent() {
                    Some(dir) if next.is_relative() => dir.join(next),
                    _ => next,
                };
            }
            _ => return Ok(current),
        }
    }
    Err(io::Error::other(format!(
        "more than {MAX_LINKS} symbolic links in a chain"
    )))
}

/// Writes straight into a device, FIFO or socket.
fn write_direct(
    target: &Path,
    fill: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> io::Result<()> {
    let file = OpenOptions::new().write(true).open(target)?;
    let mut out = BufWriter::new(file);
    fill(&mut out)?;
    out.flush()
}

/// The directory a path lives in (`.` for a bare name).
fn parent_dir(path: &Path) -> PathBuf {
    match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// Replaces a regular file (or creates a new one) through a temporary sibling, which
/// `fill` fills (`suffix`: an extension the temporary name must end with).
fn replace(
    target: &Path,
    old: Option<&Metadata>,
    suffix: Option<&str>,
    fill: impl FnOnce(&mut TempFile) -> io::Result<()>,
) -> io::Result<()> {
    let dir = parent_dir(target);
    remove_stale_temp_files(&dir);
    let name = target.file_name().unwrap_or(OsStr::new("output"));
    let mut temp = TempFile::create(&dir, name, suffix)?;
    fill(&mut temp)?;
    let in_place = match old {
        Some(old) => links(old) > 1 || !keep_owner(&temp.file, old)?,
        None => false,
    };
    if let Some(old) = old {
        // After the owner: changing the owner clears the set-user-ID and set-group-ID bits.
        temp.file.set_permissions(old.permissions())?;
    }
    temp.file.sync_all()?;
    if in_place {
        copy_into(&mut temp.file, target)
        // The temporary file is removed when `temp` is dropped.
    } else {
        fs::rename(&temp.path, target)?;
        temp.keep();
        sync_dir(&dir)
    }
}

/// Copies the complete new content into the existing file (keeping its inode: links,
/// owner, mode), then syncs it.
fn copy_into(content: &mut File, target: &Path) -> io::Result<()> {
    content.rewind()?;
    let mut file = OpenOptions::new().write(true).truncate(true).open(target)?;
    io::copy(content, &mut file)?;
    file.sync_all()
}

/// Makes a rename durable: syncs the directory that holds the renamed file.
fn sync_dir(dir: &Path) -> io::Result<()> {
    match File::open(dir).and_then(|d| d.sync_all()) {
        // Some file systems cannot sync a directory; the rename is as durable as they allow.
        Err(e) if e.kind() == io::ErrorKind::InvalidInput => Ok(()),
        Err(e) if e.kind() == io::ErrorKind::Unsupported => Ok(()),
        other => other,
    }
}

#[cfg(unix)]
fn links(meta: &Metadata) -> u64 {
    std::os::unix::fs::MetadataExt::nlink(meta)
}

#[cfg(not(unix))]
fn links(_meta: &Metadata) -> u64 {
    1
}

/// Gives the new file the old file's owner and group. Returns false when the system does
/// not let us (we are not root and the old file is someone else's).
#[cfg(unix)]
fn keep_owner(file: &File, old: &Metadata) -> io::Result<bool> {
    use std::os::unix::fs::MetadataExt;
    let new = file.metadata()?;
    if (new.uid(), new.gid()) == (old.uid(), old.gid()) {
        return Ok(true);
    }
    match std::os::unix::fs::fchown(file, Some(old.uid()), Some(old.gid())) {
        Ok(()) => Ok(true),
        Err(e) if e.kind() == io::ErrorKind::PermissionDenied => Ok(false),
        Err(e) => Err(e),
    }
}

#[cfg(not(unix))]
fn keep_owner(_file: &File, _old: &Metadata) -> io::Result<bool> {
    Ok(true)
}

/// A temporary file being written, locked by this process; removed when dropped unless it
/// was renamed ([`TempFile::keep`]).
struct TempFile {
    path: PathBuf,
    file: File,
    remove: bool,
}

impl TempFile {
    /// Creates `DIR/.NAME.agon-tmp-PID-N` (with `.SUFFIX` if given) with a number `N` no
    /// other temporary file of this process has used, exclusively (never an existing
    /// file), and locks it.
    fn create(dir: &Path, name: &OsStr, suffix: Option<&str>) -> io::Result<TempFile> {
        static SEQUENCE: AtomicU64 = AtomicU64::new(0);
        let mut name = name.to_string_lossy().into_owned();
        if name.len() > MAX_NAME_PART {
            let mut end = MAX_NAME_PART;
            while !name.is_char_boundary(end) {
                end -= 1;
            }
            name.truncate(end);
        }
        let pid = std::process::id();
        let suffix = suffix.map(|s| format!(".{s}")).unwrap_or_default();
        loop {
            let n = SEQUENCE.fetch_add(1, Ordering::Relaxed);
            let path = dir.join(format!(".{name}{TEMP_MARK}{pid}-{n}{suffix}"));
            let file = match OpenOptions::new()
                .read(true)
                .write(true)
                .create_new(true)
                .open(&path)
            {
                Ok(file) => file,
                // A dead process with our pid left it: take the next number.
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
                Err(e) => return Err(e),
            };
            match file.try_lock() {
                Ok(()) => {
                    return Ok(TempFile {
                        path,
                        file,
                        remove: true,
                    })
                }
                // Another process cleaning the directory took it for a stale file between
                // its creation and our lock; it removes it. Take the next number.
                Err(fs::TryLockError::WouldBlock) => continue,
                Err(fs::TryLockError::Error(e)) => {
                    let _ = fs::remove_file(&path);
                    return Err(e);
                }
            }
        }
    }

    /// The file was renamed into place: nothing to remove.
    fn keep(&mut self) {
        self.remove = false;
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        if self.remove {
            let _ = fs::remove_file(&self.path);
        }
    }
}

/// Removes the temporary files in `dir` that writers killed before they finished left
/// behind: ours by name, and not locked (a live writer holds its lock). Done once per
/// directory and process; errors are ignored (the write goes on).
fn remove_stale_temp_files(dir: &Path) {
    static CLEANED: Mutex<BTreeSet<PathBuf>> = Mutex::new(BTreeSet::new());
    let key = fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
    if !CLEANED
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .insert(key)
    {
        return;
    }
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        if !is_temp_name(&entry.file_name()) || !entry.file_type().is_ok_and(|t| t.is_file()) {
            continue;
        }
        let path = entry.path();
        let Ok(file) = File::open(&path) else {
            continue;
        };
        if file.try_lock().is_ok() {
            let _ = fs::remove_file(&path);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use agon_tests::scratch::ScratchDir;

    fn scratch(name: &str) -> ScratchDir {
        ScratchDir::new(&format!("files-{name}"))
    }

    fn names(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn a_new_file_is_written_and_no_temporary_file_stays() {
        let dir = scratch("new");
        let path = dir.join("out.txt");
        write_file(&path, b"hello\n").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"hello\n");
        write_file(&path, b"again\n").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"again\n");
        assert_eq!(names(&dir), ["out.txt"]);
    }

    #[test]
    fn a_failed_fill_leaves_the_old_file_and_no_temporary_file() {
        let dir = scratch("failed");
        let path = dir.join("out.txt");
        fs::write(&path, "old").unwrap();
        let error = write_file_with(&path, |out| {
            out.write_all(&[b'x'; 100_000])?;
            Err(io::Error::from(io::ErrorKind::StorageFull))
        })
        .unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::StorageFull);
        assert_eq!(fs::read_to_string(&path).unwrap(), "old");
        assert_eq!(names(&dir), ["out.txt"]);
    }

    #[test]
    fn temporary_names_are_never_shared() {
        let dir = scratch("names");
        let a = TempFile::create(&dir, OsStr::new("games.csv"), None).unwrap();
        let b = TempFile::create(&dir, OsStr::new("games.agn"), None).unwrap();
        let c = TempFile::create(&dir, OsStr::new("games.csv"), None).unwrap();
        let paths = [&a.path, &b.path, &c.path];
        for (i, p) in paths.iter().enumerate() {
            assert!(is_temp_name(p.file_name().unwrap()), "{}", p.display());
            for q in &paths[i + 1..] {
                assert_ne!(p, q);
            }
        }
        assert!(a
            .path
            .file_name()
            .unwrap()
            .to_string_lossy()
            .starts_with(".games.csv.agon-tmp-"));
        drop((a, b, c));
        assert!(names(&dir).is_empty());
    }

    #[test]
    fn a_long_name_still_makes_a_valid_temporary_name() {
        let dir = scratch("long");
        let path = dir.join("é".repeat(120));
        write_file(&path, b"x").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"x");
    }

    #[test]
    fn stale_temporary_files_are_removed_and_live_ones_kept() {
        let dir = scratch("stale");
        let stale = dir.join(".out.txt.agon-tmp-999999999-0");
        fs::write(&stale, "left by a killed writer").unwrap();
        let live = dir.join(".other.agon-tmp-1-0");
        fs::write(&live, "being written").unwrap();
        let holder = File::open(&live).unwrap();
        holder.try_lock().unwrap();
        let unrelated = dir.join(".hidden");
        fs::write(&unrelated, "not ours").unwrap();
        write_file(&dir.join("out.txt"), b"new").unwrap();
        assert_eq!(names(&dir), [".hidden", ".other.agon-tmp-1-0", "out.txt"]);
        drop(holder);
    }

    #[cfg(unix)]
    #[test]
    fn symbolic_links_are_followed() {
        let dir = scratch("symlink");
        fs::create_dir(dir.join("real")).unwrap();
        fs::write(dir.join("real/file"), "old").unwrap();
        std::os::unix::fs::symlink("real/file", dir.join("link")).unwrap();
        std::os::unix::fs::symlink("link", dir.join("link2")).unwrap();
        write_file(&dir.join("link2"), b"new").unwrap();
        assert!(fs::symlink_metadata(dir.join("link2"))
            .unwrap()
            .file_type()
            .is_symlink());
        assert!(fs::symlink_metadata(dir.join("link"))
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(fs::read_to_string(dir.join("real/file")).unwrap(), "new");
        assert_eq!(names(&dir.join("real")), ["file"]);
        // A dangling link: its target is created.
        std::os::unix::fs::symlink("real/missing", dir.join("dangling")).unwrap();
        write_file(&dir.join("dangling"), b"made").unwrap();
        assert_eq!(
            fs::read_to_string(dir.join("real/missing")).unwrap(),
            "made"
        );
    }

    #[cfg(unix)]
    #[test]
    fn hard_links_and_mode_are_kept() {
        use std::os::unix::fs::{MetadataExt, PermissionsExt};
        let dir = scratch("hardlink");
        let path = dir.join("a");
        fs::write(&path, "old").unwrap();
        fs::set_permissions(&path, fs::Permissions::from_mode(0o640)).unwrap();
        fs::hard_link(&path, dir.join("b")).unwrap();
        write_file(&path, b"new").unwrap();
        let (a, b) = (
            fs::metadata(&path).unwrap(),
            fs::metadata(dir.join("b")).unwrap(),
        );
        assert_eq!(a.ino(), b.ino());
        assert_eq!(fs::read_to_string(dir.join("b")).unwrap(), "new");
        assert_eq!(a.mode() & 0o7777, 0o640);
        assert_eq!(names(&dir), ["a", "b"]);
        // A single link: replaced by a rename, the mode carried over.
        fs::remove_file(dir.join("b")).unwrap();
        write_file(&path, b"newer").unwrap();
        assert_eq!(fs::metadata(&path).unwrap().mode() & 0o7777, 0o640);
        assert_ne!(fs::metadata(&path).unwrap().ino(), a.ino());
    }

    #[test]
    fn producers_that_want_a_path_get_one_with_the_extension() {
        let dir = scratch("via-path");
        let path = dir.join("chart.png");
        fs::write(&path, "old").unwrap();
        let mut seen = PathBuf::new();
        write_file_via_path(&path, |temp| {
            seen = temp.to_path_buf();
            fs::write(temp, "new")
        })
        .unwrap();
        assert_eq!(seen.extension().unwrap(), "png");
        assert!(is_temp_name(seen.file_name().unwrap()));
        assert_eq!(fs::read_to_string(&path).unwrap(), "new");
        assert_eq!(names(&dir), ["chart.png"]);
        let error = write_file_via_path(&path, |_| Err(io::Error::other("cannot draw")));
        assert_eq!(error.unwrap_err().to_string(), "cannot draw");
        assert_eq!(fs::read_to_string(&path).unwrap(), "new");
        assert_eq!(names(&dir), ["chart.png"]);
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_is_written_through_not_replaced() {
        use std::os::unix::fs::FileTypeExt;
        let dir = scratch("fifo");
        let fifo = dir.join("pipe.png");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        assert!(made.unwrap().success());
        for round in 0..2 {
            let reader = {
                let fifo = fifo.clone();
                std::thread::spawn(move || fs::read_to_string(fifo).unwrap())
            };
            if round == 0 {
                write_file(&fifo, b"streamed").unwrap();
                assert_eq!(reader.join().unwrap(), "streamed");
            } else {
                write_file_via_path(&fifo, |temp| fs::write(temp, "drawn")).unwrap();
                assert_eq!(reader.join().unwrap(), "drawn");
            }
            assert!(fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo());
        }
        assert_eq!(names(&dir), ["pipe.png"]);
    }

    #[test]
    fn a_directory_is_refused() {
        let dir = scratch("dir");
        let error = write_file(&dir, b"x").unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::IsADirectory);
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_full_device_reports_the_error() {
        // /dev/full is a character device: written directly, never replaced.
        let error = write_file(Path::new("/dev/full"), b"x").unwrap_err();
        assert_eq!(error.raw_os_error(), Some(28), "{error}");
    }
}
