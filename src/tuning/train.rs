//! Fitting the NNUE (`docs/nnue.md`) to self-play data.
//!
//! Each position becomes the active inputs of the side to move's view and of
//! the other side's ([`crate::engine::nnue::features`]), and its labels are
//! turned to the side to move's view ([`positions`]). The float network
//! ([`net::FloatNet`]) predicts the win probability `sigmoid(score / K)`; the
//! target mixes the game's result and the search score's probability,
//! `λ·result + (1-λ)·sigmoid(score / K)`, and the loss is the mean squared error.
//!
//! Minibatches are drawn from a shuffle of the training positions that
//! depends only on the seed and the epoch, and each batch is cut into chunks
//! of a fixed size whose gradients are computed in parallel (rayon) and summed
//! in chunk order ([`fit`]): the same seed and data give the same net, bit for
//! bit, however many threads run, and a run resumed from a checkpoint
//! ([`files`]) ends where the uninterrupted run would. [`command`] is the
//! whole `doushou train` run.
//!
//! The files import downwards only: `error` < `positions` < `net` < `files`
//! < `fit` < `command`; this root only declares them.

pub mod command;
pub mod error;
pub mod files;
pub mod fit;
pub mod net;
pub mod positions;
