//! `agon render`: a board diagram as SVG or PNG.

use crate::diagram::{draw, DiagramOptions};
use crate::error::{describe_io, CliError, CliResult};
use crate::output::Out;
use crate::select::PositionArgs;
use agon_core::Game;
use clap::{Args, ValueEnum};
use plotters::prelude::*;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Examples shown after `agon render --help`.
pub const EXAMPLES: &str = "\
Examples:
  agon render -o start.svg                           the standard start
  agon render --moves \"h9-g9 b7-c7\" -o board.png     after some actions, with an arrow
  agon render --record game.agn --ply 30 -o p30.png  a record after ply 30
  agon render --size 1200 --no-coordinates -o big.png
  agon render -o - > board.svg                       SVG to stdout
The format follows the file extension (.svg or .png) unless --format is given. The image
is SIZE pixels wide and 1.15 x SIZE high. Fonts are built in: no system font is needed.";

/// Image formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Scalable vector graphics.
    Svg,
    /// Portable network graphics.
    Png,
}

/// Options of `agon render`.
#[derive(Args, Debug)]
pub struct RenderArgs {
    /// Where to write the image (`-` for SVG on stdout).
    #[arg(short, long, value_name = "FILE")]
    pub output: PathBuf,

    /// Image format (default: from the extension of --output).
    #[arg(long, value_enum)]
    pub format: Option<Format>,

    /// Width in pixels (the height is 1.15 times the width).
    #[arg(long, value_name = "PIXELS", default_value_t = 800,
          value_parser = clap::value_parser!(u32).range(200..=8000))]
    pub size: u32,

    /// Do not draw the last action as an arrow.
    #[arg(long)]
    pub no_arrow: bool,

    /// Do not write cell names.
    #[arg(long)]
    pub no_coordinates: bool,

    /// Do not write the caption line (side to move, last action).
    #[arg(long)]
    pub no_caption: bool,

    #[command(flatten)]
    pub position: PositionArgs,
}

/// The image height for a width.
pub fn height_for(width: u32) -> u32 {
    (width as f64 * 1.15).round() as u32
}

/// The caption: the last action and whose turn it is, or the result.
pub fn caption(game: &Game) -> String {
    let mut parts = Vec::new();
    if let Some(ply) = game.plies().last() {
        let n = game.ply_count();
        let mover = game
            .position_before(n - 1)
            .map_or(String::new(), |p| format!("{} ", p.to_move()));
        parts.push(format!(
            "Ply {n}: {mover}{}",
            crate::cmd::moves::annotated(ply.action, ply.captures)
        ));
    }
    match game.outcome() {
        Some(outcome) => parts.push(format!("{} ({})", outcome.result, outcome.termination)),
        None => parts.push(format!("{} to move", game.position().to_move())),
    }
    let rules = game.rules();
    if rules != agon_core::Rules::STANDARD {
        parts.push(rules.to_string());
    }
    parts.join(" \u{b7} ")
}

fn format_of(path: &Path, format: Option<Format>) -> Result<Format, CliError> {
    if let Some(format) = format {
        return Ok(format);
    }
    if path.as_os_str() == "-" {
        return Ok(Format::Svg);
    }
    match path
        .extension()
        .and_then(|e| e.to_str())
        .map(|e| e.to_ascii_lowercase())
        .as_deref()
    {
        Some("svg") => Ok(Format::Svg),
        Some("png") => Ok(Format::Png),
        _ => Err(CliError::with_hint(
            format!(
                "cannot tell the image format of `{}` from its extension",
                path.display()
            ),
            "name the file .svg or .png, or pass --format svg|png",
        )),
    }
}

/// Runs `agon render`.
pub fn run(args: &RenderArgs) -> CliResult {
    let format = format_of(&args.output, args.format)?;
    let game = &args.position.select()?;
    let size = (args.size, height_for(args.size));
    let options = DiagramOptions {
        arrow: !args.no_arrow,
        coordinates: !args.no_coordinates,
        caption: !args.no_caption,
    };
    let caption = caption(game);
    let to_stdout = args.output.as_os_str() == "-";
    let drawing_error = |e: String| CliError::new(format!("cannot draw the board: {e}"));
    match format {
        Format::Svg => {
            let mut svg = String::new();
            {
                let root = SVGBackend::with_string(&mut svg, size).into_drawing_area();
                draw(&root, game, &caption, options).map_err(|e| drawing_error(e.to_string()))?;
                root.present().map_err(|e| drawing_error(e.to_string()))?;
            }
            if to_stdout {
                let mut out = Out::new();
                out.write_all(svg.as_bytes())?;
                out.flush()?;
            } else {
                agon_files::write_file(&args.output, svg.as_bytes())
                    .map_err(|e| write_error(&args.output, e))?;
            }
        }
        Format::Png => {
            if to_stdout {
                return Err(CliError::with_hint(
                    "PNG images cannot be written to stdout",
                    "give a file name, e.g. -o board.png, or use --format svg",
                ));
            }
            check_writable(&args.output)?;
            let mut failure = None;
            agon_files::write_file_via_path(&args.output, |temp| {
                let root = BitMapBackend::new(temp, size).into_drawing_area();
                let drawn = draw(&root, game, &caption, options)
                    .map_err(|e| drawing_error(e.to_string()))
                    .and_then(|()| {
                        root.present().map_err(|e| {
                            CliError::new(format!("cannot write {}: {e}", args.output.display()))
                        })
                    });
                drawn.map_err(|e| {
                    failure = Some(e);
                    std::io::Error::other("not drawn")
                })
            })
            .map_err(|e| {
                failure
                    .take()
                    .unwrap_or_else(|| write_error(&args.output, e))
            })?;
        }
    }
    Ok(0)
}

fn write_error(path: &Path, error: std::io::Error) -> CliError {
    CliError::new(format!(
        "cannot write {}: {}",
        path.display(),
        describe_io(&error)
    ))
}

/// Fails early with a clear message when the output's folder does not exist.
fn check_writable(path: &Path) -> Result<(), CliError> {
    match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() && !dir.is_dir() => Err(CliError::with_hint(
            format!(
                "cannot write {}: the folder {} does not exist",
                path.display(),
                dir.display()
            ),
            "create it first, or choose another --output",
        )),
        _ => Ok(()),
    }
}
