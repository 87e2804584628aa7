//! The text protocol of `protocol.md` (UCI for this game): commands parsed into
//! a typed enum, and the loop that drives the engine with them.

pub mod command;
pub mod error;
pub mod reply;
pub mod uci;

pub use command::{Command, LenientLine};
pub use error::ParseError;
pub use uci::{Output, Session, run_stdio};
