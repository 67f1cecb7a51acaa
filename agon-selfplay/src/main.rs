//! The `agon-selfplay` command: run experiments, report on them, merge shards, and rate
//! agents in round-robin tournaments. A thin layer over the `agon_selfplay` library; one
//! module per subcommand.

mod cli;

use clap::Parser;

fn main() {
    let args = cli::Cli::parse();
    let code = match cli::dispatch(args) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("agon-selfplay: {e}");
            2
        }
    };
    std::process::exit(code);
}
