//! Output files of `agon` under hostile conditions: a device or a FIFO as the output, a
//! full device, symbolic and hard links, a file owned by someone else, temporary files
//! left by a writer killed with `kill -9`. Every command writes files through agon-files
//! (`docs/cli.md`, "Guarantees").
//!
//! Some checks need root (creating device nodes, giving a file to another owner); without
//! it they print why they were skipped and pass.

use agon_tests::cli::{agon, agon_with_stdin, scratch};
use std::fs;
use std::os::unix::fs::{FileTypeExt, MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::Command;

const GAME: &str = "1. h9-g9 b7-c7 *\n";
/// The same game, not canonical (no tags, odd spacing).
const MESSY: &str = "1.h9-g9   b7-c7    *\n";

fn write(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    fs::write(&path, text).unwrap();
    path.to_str().unwrap().to_string()
}

/// Makes a character device node `major:minor` at `path` (root only); false if not allowed.
fn mknod(path: &Path, major: u32, minor: u32) -> bool {
    let made = Command::new("mknod")
        .arg(path)
        .args(["c", &major.to_string(), &minor.to_string()])
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !made {
        eprintln!(
            "skipped: cannot create a device node at {} (needs root)",
            path.display()
        );
    }
    made
}

fn is_char_device(path: &Path) -> bool {
    fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_char_device())
}

/// The names in a directory, sorted.
fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn convert_onto_a_character_device_keeps_it_a_device() {
    let dir = scratch("device");
    let input = write(&dir, "x.agn", GAME);
    let null = dir.join("null");
    if !mknod(&null, 1, 3) {
        return;
    }
    agon(&["convert", "-o", null.to_str().unwrap(), &input]).ok();
    assert!(is_char_device(&null), "the device node was replaced");
    assert_eq!(names(&dir), ["null", "x.agn"]);
}

#[test]
fn play_save_onto_a_character_device_keeps_it_a_device() {
    let dir = scratch("device-play");
    let null = dir.join("null");
    if !mknod(&null, 1, 3) {
        return;
    }
    let run = agon_with_stdin(
        &[
            "play",
            "--white",
            "random",
            "--black",
            "random",
            "--seed",
            "1",
            "--max-plies",
            "6",
            "--save",
            null.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(is_char_device(&null), "the device node was replaced");
}

/// A full device (`/dev/full`, or a node of it in a scratch folder when we may make one):
/// the write error is an error, exit 2, and the device stays a device.
#[test]
fn convert_onto_a_full_device_fails_with_the_error() {
    let dir = scratch("full");
    let input = write(&dir, "x.agn", GAME);
    let own = dir.join("full");
    let full: PathBuf = if mknod(&own, 1, 7) {
        own
    } else {
        // Without root a rename over /dev/full is impossible, so the old behaviour cannot
        // damage it either.
        PathBuf::from("/dev/full")
    };
    let run = agon(&["convert", "-o", full.to_str().unwrap(), &input]).code(2);
    assert_eq!(
        run.stderr,
        format!(
            "agon: cannot write {}: No space left on device\n",
            full.display()
        )
    );
    assert!(is_char_device(&full));
}

#[test]
fn convert_into_a_fifo_writes_through_it() {
    let dir = scratch("fifo");
    let input = write(&dir, "x.agn", GAME);
    let fifo = dir.join("fifo");
    assert!(Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());
    // The reader runs on its own thread and reports through a channel, so that a FIFO
    // replaced by a regular file (its reader then blocks for ever) fails the test instead
    // of hanging it.
    let (sender, received) = std::sync::mpsc::channel();
    {
        let fifo = fifo.clone();
        std::thread::spawn(move || sender.send(fs::read_to_string(fifo)));
    }
    agon(&["convert", "-o", fifo.to_str().unwrap(), &input]).ok();
    let received = received
        .recv_timeout(std::time::Duration::from_secs(20))
        .expect("nothing came through the FIFO")
        .unwrap();
    assert!(
        received.starts_with("{\"tags\":{},\"variant\":\"standard\""),
        "{received}"
    );
    assert!(fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo());
    assert_eq!(names(&dir), ["fifo", "x.agn"]);
}

#[test]
fn fmt_in_place_follows_a_symbolic_link() {
    let dir = scratch("fmt-symlink");
    fs::create_dir(dir.join("real")).unwrap();
    write(&dir, "real/game.agn", MESSY);
    std::os::unix::fs::symlink("real/game.agn", dir.join("link.agn")).unwrap();
    agon(&["fmt", "--in-place", dir.join("link.agn").to_str().unwrap()]).ok();
    assert!(fs::symlink_metadata(dir.join("link.agn"))
        .unwrap()
        .file_type()
        .is_symlink());
    let canonical = agon(&["fmt", dir.join("real/game.agn").to_str().unwrap()]).ok();
    assert_eq!(
        fs::read_to_string(dir.join("real/game.agn")).unwrap(),
        canonical.stdout
    );
    assert!(canonical.stdout.starts_with("[Result \"*\"]"));
    assert_eq!(names(&dir.join("real")), ["game.agn"]);
}

#[test]
fn fmt_in_place_keeps_hard_links_and_the_mode() {
    let dir = scratch("fmt-hardlink");
    let path = write(&dir, "a.agn", MESSY);
    fs::set_permissions(&path, fs::Permissions::from_mode(0o640)).unwrap();
    fs::hard_link(&path, dir.join("b.agn")).unwrap();
    agon(&["fmt", "--in-place", &path]).ok();
    let (a, b) = (
        fs::metadata(&path).unwrap(),
        fs::metadata(dir.join("b.agn")).unwrap(),
    );
    assert_eq!(a.ino(), b.ino(), "the hard link was split");
    assert_eq!(a.mode() & 0o7777, 0o640);
    assert!(fs::read_to_string(dir.join("b.agn"))
        .unwrap()
        .starts_with("[Result \"*\"]"));
    assert_eq!(names(&dir), ["a.agn", "b.agn"]);
}

#[test]
fn fmt_in_place_keeps_the_owner() {
    let dir = scratch("fmt-owner");
    let path = write(&dir, "a.agn", MESSY);
    if Command::new("chown")
        .args(["4321:4322", &path])
        .status()
        .map_or(true, |s| !s.success())
    {
        eprintln!("skipped: cannot give a file to another owner (needs root)");
        return;
    }
    agon(&["fmt", "--in-place", &path]).ok();
    let meta = fs::metadata(&path).unwrap();
    assert_eq!((meta.uid(), meta.gid()), (4321, 4322));
    assert!(fs::read_to_string(&path).unwrap().starts_with("[Result"));
}

/// A writer killed with `kill -9` leaves `.NAME.agon-tmp-PID...`; the next write into the
/// folder removes it (no live process holds its lock).
#[test]
fn stale_temporary_files_are_removed() {
    let dir = scratch("fmt-stale");
    let path = write(&dir, "a.agn", MESSY);
    write(&dir, ".a.agn.agon-tmp-4000000", "left by a killed writer");
    write(&dir, ".b.agn.agon-tmp-4000001-3", "left by another");
    write(&dir, ".hidden", "not ours");
    agon(&["fmt", "--in-place", &path]).ok();
    assert_eq!(names(&dir), [".hidden", "a.agn"]);
}

#[test]
fn render_onto_a_character_device_keeps_it_a_device() {
    let dir = scratch("render-device");
    let null = dir.join("null.svg");
    if !mknod(&null, 1, 3) {
        return;
    }
    agon(&["render", "-o", null.to_str().unwrap()]).ok();
    assert!(is_char_device(&null));
    let png = dir.join("null.png");
    if !mknod(&png, 1, 3) {
        return;
    }
    agon(&["render", "-o", png.to_str().unwrap()]).ok();
    assert!(is_char_device(&png));
    assert_eq!(names(&dir), ["null.png", "null.svg"]);
}
