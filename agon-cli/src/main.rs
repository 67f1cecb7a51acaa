//! The `agon` command.
fn main() {
    eprintln!("agon: not yet implemented");
    std::process::exit(2);
}
