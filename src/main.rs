use clap::Parser;
use doushou::cli::{self, Cli};

fn main() {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let args = Cli::parse();
    let code = match args.command {
        Some(command) => cli::run(command),
        None => {
            doushou::protocol::run_stdio();
            0
        }
    };
    std::process::exit(code);
}
