//! The `agon-selfplay` command.
fn main() {
    eprintln!("agon-selfplay: not yet implemented");
    std::process::exit(2);
}
