//! A real browser for page tests: headless Chromium (Debian's `chromium`) run from the
//! command line, with a fresh profile each time. It loads a page, runs its scripts, and
//! gives back what a test needs to judge it: the console messages (errors included), the
//! document after the scripts ran, and a screenshot decoded to pixels.
//!
//! Without Chromium the tests that need it say so and pass, unless
//! `AGON_REQUIRE_BROWSER` is set (`.ci/run` sets it and installs the browser).

use crate::scratch::ScratchDir;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The names Chromium goes by on PATH.
pub const CHROMIUM: &[&str] = &["chromium", "chromium-browser", "google-chrome"];

/// The first of `names` found on PATH.
pub fn on_path(names: &[&str]) -> Option<PathBuf> {
    let paths = std::env::var_os("PATH")?;
    names.iter().find_map(|name| {
        std::env::split_paths(&paths)
            .map(|dir| dir.join(name))
            .find(|p| p.is_file())
    })
}

/// Says why the browser part of `test` does not run (`missing`: what is not installed);
/// panics instead when `AGON_REQUIRE_BROWSER` is set.
pub fn skip(test: &str, missing: &str) {
    assert!(
        std::env::var_os("AGON_REQUIRE_BROWSER").is_none(),
        "AGON_REQUIRE_BROWSER is set but {missing}"
    );
    eprintln!("SKIPPED the browser part of {test}: {missing}");
}

/// Chromium on this machine.
pub struct Browser {
    path: PathBuf,
    scratch: ScratchDir,
}

/// What a page load left behind.
pub struct PageLoad {
    /// Every console message the page logged (`console.*` and uncaught errors).
    pub console: Vec<String>,
    /// The screenshot, if one was asked for.
    pub screenshot: Option<Image>,
    /// The document after the scripts ran, if asked for.
    pub dom: Option<String>,
}

/// A decoded screenshot.
pub struct Image {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// RGBA pixels, row by row.
    pub pixels: Vec<[u8; 4]>,
}

impl Image {
    /// Decodes a PNG file.
    pub fn read(path: &Path) -> Image {
        let file = std::fs::File::open(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let mut decoder = png::Decoder::new(std::io::BufReader::new(file));
        decoder.set_transformations(png::Transformations::EXPAND | png::Transformations::STRIP_16);
        let mut reader = decoder
            .read_info()
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let mut buffer = vec![0; reader.output_buffer_size()];
        let info = reader
            .next_frame(&mut buffer)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let channels = info.color_type.samples();
        let pixels = buffer[..info.buffer_size()]
            .chunks(channels)
            .map(|p| match channels {
                4 => [p[0], p[1], p[2], p[3]],
                3 => [p[0], p[1], p[2], 255],
                2 => [p[0], p[0], p[0], p[1]],
                _ => [p[0], p[0], p[0], 255],
            })
            .collect();
        Image {
            width: info.width,
            height: info.height,
            pixels,
        }
    }

    /// The share of pixels that differ from the top-left pixel (the background).
    pub fn ink(&self) -> f64 {
        let background = self.pixels.first().copied().unwrap_or([255; 4]);
        let inked = self.pixels.iter().filter(|p| **p != background).count();
        inked as f64 / self.pixels.len().max(1) as f64
    }

    /// The number of distinct colours.
    pub fn colours(&self) -> usize {
        let mut seen: Vec<[u8; 4]> = self.pixels.clone();
        seen.sort_unstable();
        seen.dedup();
        seen.len()
    }
}

impl Browser {
    /// Chromium, if installed (`chromium`, `chromium-browser` or `google-chrome` on PATH).
    pub fn find() -> Option<Browser> {
        let path = on_path(CHROMIUM)?;
        // Tests of one binary run in parallel: each browser has its own directory.
        static BROWSERS: AtomicUsize = AtomicUsize::new(0);
        let scratch = ScratchDir::new(&format!(
            "browser-{}",
            BROWSERS.fetch_add(1, Ordering::Relaxed)
        ));
        Some(Browser { path, scratch })
    }

    /// Chromium for `test`, or `None` after saying why the test does not run; panics when
    /// `AGON_REQUIRE_BROWSER` is set and Chromium is missing.
    pub fn for_test(test: &str) -> Option<Browser> {
        let browser = Browser::find();
        if browser.is_none() {
            skip(
                test,
                "chromium is not installed (Debian: apt-get install -y chromium)",
            );
        }
        browser
    }

    /// Loads `page` (a local file) in a window of `size`; takes a screenshot and/or dumps
    /// the document after its scripts ran.
    pub fn load(&self, page: &Path, size: (u32, u32), screenshot: bool, dom: bool) -> PageLoad {
        static RUNS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let run = RUNS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let profile = self.scratch.join(format!("profile-{run}"));
        let shot = self.scratch.join(format!("shot-{run}.png"));
        let _ = std::fs::remove_dir_all(&profile);
        let _ = std::fs::remove_file(&shot);
        let page =
            std::fs::canonicalize(page).unwrap_or_else(|e| panic!("{}: {e}", page.display()));
        let mut command = Command::new(&self.path);
        command.args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--hide-scrollbars",
            "--enable-logging=stderr",
            "--v=0",
        ]);
        command
            .arg(format!("--user-data-dir={}", profile.display()))
            .arg(format!("--window-size={},{}", size.0, size.1));
        if screenshot {
            command.arg(format!("--screenshot={}", shot.display()));
        }
        if dom {
            command.arg("--dump-dom");
        }
        command.arg(format!("file://{}", page.display()));
        let output = command
            .output()
            .unwrap_or_else(|e| panic!("run {}: {e}", self.path.display()));
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(
            output.status.success(),
            "chromium failed on {}:\n{stderr}",
            page.display()
        );
        let console = stderr
            .lines()
            .filter(|l| l.contains(":CONSOLE"))
            .map(str::to_string)
            .collect();
        let screenshot = screenshot.then(|| Image::read(&shot));
        let _ = std::fs::remove_dir_all(&profile);
        let _ = std::fs::remove_file(&shot);
        PageLoad {
            console,
            screenshot,
            dom: dom.then(|| String::from_utf8_lossy(&output.stdout).into_owned()),
        }
    }

    /// Where a test may put pages of its own.
    pub fn scratch(&self) -> &Path {
        &self.scratch
    }
}

/// Every inline `<svg>...</svg>` of an HTML page, in order.
pub fn inline_svgs(html: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = html;
    while let Some(start) = rest.find("<svg") {
        let Some(len) = rest[start..].find("</svg>") else {
            break;
        };
        let end = start + len + "</svg>".len();
        out.push(&rest[start..end]);
        rest = &rest[end..];
    }
    out
}
