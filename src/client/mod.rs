//! The client's side of the protocol: other engines (or this one) started as
//! processes and spoken to through their pipes, as the match runner and the
//! GUI drive them. Above `protocol` (it reads the engine's answers with
//! [`crate::protocol::reply::Reply`]), below the tools that use it.
//!
//! - [`spec`]: an engine to start, and how long it may think per move.
//! - [`process`]: one running engine, every wait with a deadline.

pub mod process;
pub mod spec;

pub use process::{
    ClientError, EngineProcess, Line, interrupt, interrupted, later, position_command,
};
pub use spec::{EngineLimits, EngineSpec, SpecError, TimeControl, dedupe_names};
