//! `agon completions SHELL`: a completion script for a shell, generated from the same clap
//! definitions as the parser (so it never goes out of date).

use crate::error::CliResult;
use crate::output::Out;
use clap::Args;
use clap_complete::Shell;
use std::io::Write;

/// Examples shown after `agon completions --help`.
pub const EXAMPLES: &str = "\
Examples:
  agon completions bash > ~/.local/share/bash-completion/completions/agon
  agon completions zsh > \"${fpath[1]}/_agon\"
  agon completions fish > ~/.config/fish/completions/agon.fish
  source <(agon completions bash)            for the current bash session only";

/// Options of `agon completions`.
#[derive(Args, Debug)]
pub struct CompletionsArgs {
    /// The shell: bash, zsh, fish, powershell or elvish.
    #[arg(value_name = "SHELL")]
    pub shell: Shell,
}

/// Prints the script for `command` (the whole `agon` command line).
pub fn run(args: &CompletionsArgs, mut command: clap::Command) -> CliResult {
    let mut script = Vec::new();
    let name = command.get_name().to_string();
    clap_complete::generate(args.shell, &mut command, name, &mut script);
    let mut out = Out::new();
    out.write_all(&script)?;
    out.flush()?;
    Ok(0)
}
