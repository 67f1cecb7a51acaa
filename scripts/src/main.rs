//! `cargo xtask`: the project's automation, in Rust so that it runs wherever the project
//! builds (CI has the Rust toolchain and nothing else) and reads the experiments through
//! the `agon_selfplay` library's own types. See scripts/README.md.
//!
//! `cargo xtask docs` regenerates every figure of `docs/` that comes from an experiment:
//! it plays the experiments of the config files in `scripts/docs/` with `agon-selfplay`,
//! and rewrites the generated blocks of the documents (`<!-- regen:NAME begin -->` ...
//! `<!-- regen:NAME end -->`) and the charts in `docs/img/`.

mod blocks;
mod context;
mod docs;
mod experiments;
mod figures;
mod markdown;
mod sections;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// Errors end the command with a message.
type Result<T> = std::result::Result<T, Box<dyn std::error::Error>>;

/// The project's automation.
#[derive(Parser, Debug)]
#[command(name = "cargo xtask", version = agon_provenance::LONG_VERSION)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Regenerate every figure of docs/ that comes from an experiment (scripts/README.md).
    Docs(docs::DocsArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Docs(args) => docs::run(args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("xtask: {e}");
            ExitCode::from(2)
        }
    }
}
