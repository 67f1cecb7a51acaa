//! The `agon` command: play, validate, inspect and draw games of Agon (Queen's Guard).
//!
//! A thin layer over `agon-core` (rules) and `agon-notation` (records and position
//! strings): argument parsing, output formats and files. No rule logic lives here.

mod board_geometry;
mod board_text;
mod cmd;
mod corpus;
mod diagram;
mod error;
mod files;
mod games;
mod output;
mod records;
mod select;
mod status;
mod typed;

use clap::{CommandFactory, Parser, Subcommand};
use error::{CliError, EXIT_ERROR};
use std::process::ExitCode;

const EXAMPLES: &str = "\
Examples:
  agon show                                 the start position as a picture
  agon moves                                the legal actions, one per line
  agon play --black random                  play White against the computer
  agon validate games/*.agn                 check game records (exit 1 if any is invalid)
  agon analyse --json game.agn              an engine's scores and blunders for every ply
  agon filter --result 1-0 games/ | agon stats   corpus tools: filter, dedupe, split, stats
  agon render --record game.agn -o board.png
  agon perft 4                              count the game tree (engine check)
  agon playout --games 10000                random games: lengths, endings, actions/s
  agon serve games.agn --open               replay, play and analyse in the browser
Run `agon help COMMAND` for the options and examples of each command.";

/// Play, validate, inspect and draw games of Agon (Queen's Guard).
#[derive(Parser, Debug)]
#[command(
    name = "agon",
    version = agon_provenance::LONG_VERSION,
    after_help = EXAMPLES,
    propagate_version = true
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Play a game in the terminal, against a person or an agent (scriptable via stdin).
    #[command(after_help = cmd::play::EXAMPLES)]
    Play(cmd::play::PlayArgs),
    /// Show the board of a position as text.
    #[command(after_help = cmd::show::EXAMPLES)]
    Show(cmd::show::ShowArgs),
    /// Print the legal actions of a position, one per line.
    #[command(after_help = cmd::moves::EXAMPLES)]
    Moves(cmd::moves::MovesArgs),
    /// Draw a board diagram as SVG or PNG.
    #[command(after_help = cmd::render::EXAMPLES)]
    Render(cmd::render::RenderArgs),
    /// Check game records: every action legal, captures and results right.
    #[command(after_help = cmd::validate::EXAMPLES)]
    Validate(cmd::validate::ValidateArgs),
    /// Rewrite game records in canonical form (to stdout, or in place).
    #[command(after_help = cmd::fmt::EXAMPLES)]
    Fmt(cmd::fmt::FmtArgs),
    /// Judge every ply of game records with an engine: scores, best lines, blunders.
    #[command(after_help = cmd::analyse::EXAMPLES)]
    Analyse(cmd::analyse::AnalyseArgs),
    /// Convert game records to JSON and back, or list every position of every game.
    #[command(after_help = cmd::convert::EXAMPLES)]
    Convert(cmd::convert::ConvertArgs),
    /// Print the games of a corpus that match conditions (tags, rules, result, length, ...).
    #[command(after_help = cmd::filter::EXAMPLES)]
    Filter(cmd::filter::FilterArgs),
    /// Drop repeated games (same actions, or same final position), keeping the first.
    #[command(after_help = cmd::dedupe::EXAMPLES)]
    Dedupe(cmd::dedupe::DedupeArgs),
    /// Cut a corpus into files: every N games, or one file per value of a tag.
    #[command(after_help = cmd::split::EXAMPLES)]
    Split(cmd::split::SplitArgs),
    /// Count results, terminations, lengths and captures per rule set.
    #[command(after_help = cmd::stats::EXAMPLES)]
    Stats(cmd::stats::StatsArgs),
    /// Build an opening suite from games: their first N plies, de-duplicated, by frequency.
    #[command(after_help = cmd::book::EXAMPLES)]
    Book(cmd::book::BookArgs),
    /// Count the leaves of the game tree to a depth (engine correctness check).
    #[command(after_help = cmd::perft::EXAMPLES)]
    Perft(cmd::perft::PerftArgs),
    /// Play uniformly random games to the end: lengths, endings and actions per second.
    #[command(after_help = cmd::playout::EXAMPLES)]
    Playout(cmd::playout::PlayoutArgs),
    /// Speak the engine protocol on stdin/stdout (for harnesses and GUIs).
    #[command(after_help = cmd::engine::EXAMPLES)]
    Engine(cmd::engine::EngineArgs),
    /// Print a shell completion script (bash, zsh, fish, powershell, elvish).
    #[command(after_help = cmd::completions::EXAMPLES)]
    Completions(cmd::completions::CompletionsArgs),
    /// Print the manual page (roff) of `agon`.
    #[command(after_help = cmd::man::EXAMPLES)]
    Man(cmd::man::ManArgs),
    /// A web board on this machine: replay records, play agents, analyse, set up positions.
    #[command(after_help = cmd::serve::EXAMPLES)]
    Serve(cmd::serve::ServeArgs),
}

fn run(cli: &Cli) -> error::CliResult {
    match &cli.command {
        Command::Validate(args) => cmd::validate::run(args),
        Command::Convert(args) => cmd::convert::run(args),
        Command::Analyse(args) => cmd::analyse::run(args),
        Command::Fmt(args) => cmd::fmt::run(args),
        Command::Filter(args) => cmd::filter::run(args),
        Command::Dedupe(args) => cmd::dedupe::run(args),
        Command::Split(args) => cmd::split::run(args),
        Command::Stats(args) => cmd::stats::run(args),
        Command::Book(args) => cmd::book::run(args),
        Command::Moves(args) => cmd::moves::run(args),
        Command::Show(args) => cmd::show::run(args),
        Command::Perft(args) => cmd::perft::run(args),
        Command::Play(args) => cmd::play::run(args),
        Command::Playout(args) => cmd::playout::run(args),
        Command::Render(args) => cmd::render::run(args),
        Command::Engine(args) => cmd::engine::run(args),
        Command::Completions(args) => cmd::completions::run(args, Cli::command()),
        Command::Man(args) => cmd::man::run(args, Cli::command()),
        Command::Serve(args) => cmd::serve::run(args),
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(&cli) {
        Ok(code) => ExitCode::from(code),
        Err(CliError::BrokenPipe) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("{error}");
            ExitCode::from(EXIT_ERROR)
        }
    }
}
