//! Tools that drive engines from outside, through the protocol: the match runner.

pub mod matches;
