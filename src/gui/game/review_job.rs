//! The review of a game, as on lichess: every position of the game line
//! searched to one depth in the background, then each move judged exactly as
//! `doushou analyse --game` judges it (the same searches,
//! [`crate::tools::analyse::game_tasks`], and the same judgement,
//! [`annotate::annotate`]). The searches run in this process, one at a time,
//! with this binary's own engine; progress and the result go to a callback.

use crate::gui::api::{ReviewPly, ReviewView};
use crate::gui::limits::Slot;
use crate::rules::{Move, Rules, Side};
use crate::tools::analyse::annotate::{self, DEFAULT_BLUNDER_CP};
use crate::tools::analyse::game_tasks;
use crate::tools::analyse::pool::{self, Setup, TaskError};
use crate::tools::pgn::read::{GameSpec, PositionSpec};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;

/// A review of the game line: what was asked and what came back.
pub struct Review {
    /// The line reviewed: the review is dropped when the line changes.
    pub moves: Vec<Move>,
    /// What the page shows of it.
    pub view: ReviewView,
    /// The searches, while they run.
    pub job: Option<ReviewJob>,
    /// Tags the reports, so that a cancelled review's are dropped.
    pub id: u64,
}

/// The depth of a review when none is asked.
pub const DEFAULT_DEPTH: u32 = 8;
/// The deepest review asked for.
pub const MAX_DEPTH: u32 = 30;
/// The table of the review's engine, MB.
const HASH_MB: usize = 16;

/// What a review reports.
#[derive(Debug)]
pub enum ReviewEvent {
    /// Another position is searched: how many are, of how many.
    Progress(usize, usize),
    /// Every position searched: each move of the line judged, in order.
    Done(Vec<ReviewPly>),
    /// A search failed, and the review stopped: why.
    Failed(ReviewError),
}

/// Why a review stopped before its end.
#[derive(Debug, thiserror::Error)]
pub enum ReviewError {
    /// It was cancelled (a newer review, or the game ended).
    #[error("cancelled")]
    Cancelled,
    /// A search could not be made.
    #[error(transparent)]
    Search(#[from] TaskError),
    /// The moves do not replay under the game's rules.
    #[error("the game could not be replayed")]
    NotReplayable,
}

/// A review running in the background; dropping it cancels the searches
/// after the current one.
pub struct ReviewJob {
    cancelled: Arc<AtomicBool>,
}

impl Drop for ReviewJob {
    fn drop(&mut self) {
        self.cancelled.store(true, Ordering::Relaxed);
    }
}

impl ReviewJob {
    /// Starts reviewing the game from `start_fen` through `moves` under
    /// `rules` at `depth`; every report goes to `sink`, none after a cancel.
    /// The review holds `slot` until its searches end.
    pub fn start(
        rules: Rules,
        start_fen: String,
        moves: &[Move],
        depth: u32,
        slot: Slot,
        sink: impl Fn(ReviewEvent) + Send + 'static,
    ) -> ReviewJob {
        let cancelled = Arc::new(AtomicBool::new(false));
        let spec = GameSpec {
            line: 1,
            tags: Vec::new(),
            rules,
            start: PositionSpec {
                fen: start_fen,
                moves: moves.iter().map(ToString::to_string).collect(),
            },
            result: None,
        };
        let stop = Arc::clone(&cancelled);
        let spawned = thread::Builder::new()
            .name("gui-review".into())
            .spawn(move || {
                let _slot = slot;
                let event = review(&spec, depth, &stop, &sink);
                if !stop.load(Ordering::Relaxed) {
                    sink(event);
                }
            });
        if let Err(e) = spawned {
            log::error!("cannot start the review: {e}");
        }
        ReviewJob { cancelled }
    }
}

/// The searches and the judgement; `Failed(Cancelled)` when stopped.
fn review(
    spec: &GameSpec,
    depth: u32,
    stop: &AtomicBool,
    sink: &impl Fn(ReviewEvent),
) -> ReviewEvent {
    let tasks = game_tasks(spec);
    let setup = Setup {
        hash_mb: HASH_MB,
        multipv: 1,
        limits: crate::engine::GoLimits {
            depth: Some(depth),
            ..Default::default()
        },
        engine_options: Vec::new(),
    };
    let mut answers = vec![None; tasks.len()];
    let mut done = 0;
    let ran = pool::run(&tasks, &setup, 1, |i, result| {
        if stop.load(Ordering::Relaxed) {
            return Err(ReviewError::Cancelled);
        }
        answers[i] = Some(result?);
        done += 1;
        sink(ReviewEvent::Progress(done, tasks.len()));
        Ok(())
    });
    if let Err(e) = ran {
        return ReviewEvent::Failed(e);
    }
    let answers: Option<Vec<_>> = answers.iter().map(Option::as_ref).collect();
    let notes = answers.and_then(|a| annotate::annotate(spec, &a, DEFAULT_BLUNDER_CP as i32));
    let Some(notes) = notes else {
        return ReviewEvent::Failed(ReviewError::NotReplayable);
    };
    ReviewEvent::Done(
        notes
            .plies
            .iter()
            .map(|p| {
                let red = if p.side == Side::Red { 1 } else { -1 };
                ReviewPly {
                    ply: p.ply,
                    played: p.played.to_string(),
                    best: p.best.to_string(),
                    cp: annotate::centipawns(p.after) * red,
                    drop: p.drop,
                    judgement: p.judgement.map(annotate::Judgement::name),
                }
            })
            .collect(),
    )
}
