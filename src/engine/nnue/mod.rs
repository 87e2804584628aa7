//! The learned evaluation (NNUE-style): a one-hidden-layer network whose first
//! layer is kept up to date incrementally as moves are made and unmade.
//! `docs/nnue.md` describes the architecture, the file format and the recipe
//! that produced the shipped net.

pub mod features;
