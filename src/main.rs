use clap::Parser;
use doushou::cli::{self, Cli};
use std::io::IsTerminal;

fn main() {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let args = Cli::parse();
    let code = match args.command {
        Some(command) => cli::run(command),
        None => {
            // A person at a terminal would otherwise wait for a prompt that
            // never comes; a GUI on a pipe gets nothing but the protocol.
            if std::io::stdin().is_terminal() {
                eprintln!("{}", cli::PROTOCOL_HINT);
            }
            doushou::protocol::run_stdio();
            0
        }
    };
    std::process::exit(code);
}
