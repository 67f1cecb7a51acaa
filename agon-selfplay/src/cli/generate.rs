//! `agon-selfplay completions SHELL` and `agon-selfplay man [COMMAND]`: a shell completion
//! script and the manual pages, generated from the same clap definitions as the parser.

use super::{print, Cli};
use agon_selfplay::{Error, Result};
use clap::{Args, CommandFactory};
use clap_complete::Shell;

/// Options of `completions`.
#[derive(Args, Debug)]
#[command(after_help = "\
Examples:
  agon-selfplay completions bash > ~/.local/share/bash-completion/completions/agon-selfplay
  source <(agon-selfplay completions bash)   for the current bash session only")]
pub struct CompletionsArgs {
    /// The shell: bash, zsh, fish, powershell or elvish.
    #[arg(value_name = "SHELL")]
    shell: Shell,
}

/// Options of `man`.
#[derive(Args, Debug)]
#[command(after_help = "\
Examples:
  agon-selfplay man | man -l -               read agon-selfplay(1)
  agon-selfplay man run > agon-selfplay-run.1")]
pub struct ManArgs {
    /// A subcommand, for its own page `agon-selfplay-COMMAND(1)`; none for the main page.
    #[arg(value_name = "COMMAND")]
    command: Option<String>,
}

/// Prints the completion script.
pub fn completions(args: CompletionsArgs) -> Result<()> {
    let mut command = Cli::command();
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut command, "agon-selfplay", &mut script);
    print(&String::from_utf8_lossy(&script))
}

/// Prints a manual page.
pub fn man(args: ManArgs) -> Result<()> {
    let mut command = Cli::command();
    command.build();
    let page_of = match &args.command {
        None => command,
        Some(name) => {
            let sub = command.find_subcommand(name).ok_or_else(|| {
                let names: Vec<&str> = command.get_subcommands().map(|c| c.get_name()).collect();
                Error::Settings(format!(
                    "`{name}` is not a subcommand; subcommands: {}",
                    names.join(", ")
                ))
            })?;
            sub.clone()
                .display_name(format!("agon-selfplay-{name}"))
                .bin_name(format!("agon-selfplay {name}"))
        }
    };
    let mut page = Vec::new();
    clap_mangen::Man::new(page_of)
        .render(&mut page)
        .map_err(|e| Error::io(std::path::Path::new("<man page>"), e))?;
    print(&String::from_utf8_lossy(&page))
}
