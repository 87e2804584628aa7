use clap::{CommandFactory, FromArgMatches};
use doushou::cli::{self, Cli};
use std::io::IsTerminal;

fn main() {
    let matches = Cli::command().get_matches();
    let args = Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
    cli::init_logging(matches.subcommand_name());
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
