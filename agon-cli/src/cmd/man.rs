//! `agon man [COMMAND]`: the manual pages (roff), generated from the same clap definitions
//! as the parser: `agon(1)` lists every subcommand, `agon-COMMAND(1)` has its options.

use crate::error::{CliError, CliResult};
use crate::output::Out;
use clap::Args;
use std::io::Write;

/// Examples shown after `agon man --help`.
pub const EXAMPLES: &str = "\
Examples:
  agon man | man -l -                        read agon(1) now
  agon man validate | man -l -               read agon-validate(1)
  for c in '' play show moves render validate fmt convert perft engine completions man; do
    agon man $c > ~/.local/share/man/man1/agon${c:+-$c}.1
  done                                       install every page";

/// Options of `agon man`.
#[derive(Args, Debug)]
pub struct ManArgs {
    /// A subcommand, for its own page `agon-COMMAND(1)`; none for `agon(1)`.
    #[arg(value_name = "COMMAND")]
    pub command: Option<String>,
}

/// Prints the page of `command` (the whole `agon` command line) or of one subcommand.
pub fn run(args: &ManArgs, mut command: clap::Command) -> CliResult {
    command.build();
    let page_of = match &args.command {
        None => command,
        Some(name) => {
            let Some(sub) = command.find_subcommand(name) else {
                let names: Vec<&str> = command.get_subcommands().map(|c| c.get_name()).collect();
                return Err(CliError::with_hint(
                    format!("`{name}` is not a subcommand of agon"),
                    format!("subcommands: {}", names.join(", ")),
                ));
            };
            // The page is agon-COMMAND(1); its synopsis shows how it is typed.
            let (top, name) = (command.get_name(), sub.get_name());
            sub.clone()
                .display_name(format!("{top}-{name}"))
                .bin_name(format!("{top} {name}"))
        }
    };
    let mut page = Vec::new();
    clap_mangen::Man::new(page_of).render(&mut page)?;
    let mut out = Out::new();
    out.write_all(&page)?;
    out.flush()?;
    Ok(0)
}
