//! Shell completions and manual pages of both binaries (`completions SHELL`, `man
//! [COMMAND]`), generated from the clap definitions: every subcommand has its page, every
//! option is in it, and the bash script is valid bash that registers the completion.

use agon_tests::run::Run;
use std::process::Command;

/// Runs a binary by name (`agon` or `agon-selfplay`) with arguments.
fn run(binary: &str, args: &[&str]) -> Run {
    match binary {
        "agon" => agon_tests::cli::agon(args),
        _ => agon_tests::selfplay::selfplay(args),
    }
}

fn path(binary: &str) -> String {
    match binary {
        "agon" => agon_tests::cli::agon_path(),
        _ => agon_tests::selfplay::binary(),
    }
    .display()
    .to_string()
}

/// The subcommands `--help` lists (the indented names under `Commands:`).
fn subcommands(binary: &str) -> Vec<String> {
    let help = run(binary, &["--help"]).code(0).stdout;
    let commands = help
        .split_once("Commands:\n")
        .unwrap_or_else(|| panic!("{binary} --help lists no commands:\n{help}"))
        .1;
    commands
        .lines()
        .take_while(|l| l.starts_with("  "))
        .map(|l| l.split_whitespace().next().unwrap().to_string())
        .collect()
}

/// The long options `BINARY COMMAND --help` lists.
fn long_options(binary: &str, command: &str) -> Vec<String> {
    run(binary, &[command, "--help"])
        .code(0)
        .stdout
        .split_whitespace()
        .filter(|w| w.starts_with("--") && w.len() > 2)
        .map(|w| {
            w.trim_end_matches([',', '.', ')', '`'])
                .split(['=', '`'])
                .next()
                .unwrap()
                .to_string()
        })
        .collect()
}

/// roff escapes every `-` of a name or option.
fn roff(text: &str) -> String {
    text.replace('-', "\\-")
}

#[test]
fn the_man_page_lists_every_subcommand_and_each_has_a_page_with_its_options() {
    for binary in ["agon", "agon-selfplay"] {
        let commands = subcommands(binary);
        assert!(commands.len() >= 5, "{binary}: {commands:?}");
        for expected in ["completions", "man"] {
            assert!(
                commands.iter().any(|c| c == expected),
                "{binary} {expected}"
            );
        }
        let page = run(binary, &["man"]).ok().stdout;
        assert!(page.starts_with(".ie \\n(.g"), "{binary}: not roff");
        assert!(page.contains(&format!(".TH {binary} 1")), "{binary}");
        for command in &commands {
            assert!(
                page.contains(&roff(&format!("{binary}-{command}(1)"))),
                "{binary}(1) does not mention {command}"
            );
            if command == "help" {
                continue;
            }
            let sub = run(binary, &["man", command]).ok().stdout;
            assert!(
                sub.contains(&format!(".TH {binary}-{command} 1")),
                "{binary} man {command}"
            );
            for option in long_options(binary, command) {
                assert!(
                    sub.contains(&roff(&option)),
                    "{binary}-{command}(1) does not mention {option}"
                );
            }
        }
        let unknown = run(binary, &["man", "nonsense"]).code(2);
        assert!(
            unknown.stderr.contains("`nonsense` is not a subcommand"),
            "{binary}"
        );
    }
}

#[test]
fn bash_completions_parse_and_register_every_subcommand() {
    for binary in ["agon", "agon-selfplay"] {
        let script = run(binary, &["completions", "bash"]).ok().stdout;
        for command in subcommands(binary) {
            assert!(
                script.contains(&command),
                "{binary}: {command} not completed"
            );
        }
        // Valid bash, and sourcing it registers a completion function for the binary.
        let check = Command::new("bash")
            .arg("-c")
            .arg(format!(
                "set -e; source <(\"$0\" completions bash); complete -p {binary}"
            ))
            .arg(path(binary))
            .output()
            .expect("run bash");
        let registered = String::from_utf8_lossy(&check.stdout);
        assert!(
            check.status.success() && registered.trim_end().ends_with(&format!(" {binary}")),
            "{binary}: {registered}\n{}",
            String::from_utf8_lossy(&check.stderr)
        );
    }
}

#[test]
fn every_shell_has_a_script_and_others_are_refused() {
    for binary in ["agon", "agon-selfplay"] {
        for (shell, marker) in [
            ("zsh", format!("#compdef {binary}")),
            ("fish", format!("complete -c {binary}")),
            ("powershell", format!("'{binary}'")),
            ("elvish", format!("'{binary}'")),
        ] {
            let script = run(binary, &["completions", shell]).ok().stdout;
            assert!(script.contains(&marker), "{binary} {shell}");
        }
        let refused = run(binary, &["completions", "tcsh"]).code(2);
        assert!(refused.stderr.contains("possible values"), "{binary}");
    }
}
