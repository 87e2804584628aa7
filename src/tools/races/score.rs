//! Scoring a search against the den-race suite: how many of its positions the
//! search answers with a move that holds.

use super::SuiteEntry;
use crate::rules::Move;
use crate::tools::analyse::pool::{self, AnalysisTask, Setup, TaskError};

/// How one entry was answered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Answer {
    /// The move the search chose.
    pub best: Move,
    /// What that move is, by the suite.
    pub verdict: Verdict,
}

/// What the chosen move is, by the suite's long searches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// One of the moves that hold.
    Held,
    /// The game's own mistake.
    Mistake,
    /// Another move that loses.
    OtherLoss,
}

impl Verdict {
    /// The word a report line gives it.
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Held => "held",
            Verdict::Mistake => "mistake",
            Verdict::OtherLoss => "lost",
        }
    }
}

/// The counts over the whole suite.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SuiteScore {
    /// Entries searched.
    pub total: usize,
    /// Answered with a move that holds.
    pub held: usize,
    /// Answered with the game's mistake.
    pub mistakes: usize,
}

impl SuiteScore {
    /// Counts one answer.
    fn add(&mut self, verdict: Verdict) {
        self.total += 1;
        match verdict {
            Verdict::Held => self.held += 1,
            Verdict::Mistake => self.mistakes += 1,
            Verdict::OtherLoss => {}
        }
    }

    /// The share held, in per cent (0 for an empty suite).
    pub fn held_percent(&self) -> f64 {
        if self.total == 0 {
            0.0
        } else {
            100.0 * self.held as f64 / self.total as f64
        }
    }
}

/// Searches every entry with `setup`'s limits on `jobs` threads (each search
/// from a clean table) and hands each answer to `on_answer` as it comes, with
/// the entry's index; answers the totals.
pub fn score_suite(
    entries: &[SuiteEntry],
    setup: &Setup,
    jobs: usize,
    mut on_answer: impl FnMut(usize, Answer),
) -> Result<SuiteScore, TaskError> {
    let tasks: Vec<AnalysisTask> = entries
        .iter()
        .map(|e| AnalysisTask {
            rules: e.rules,
            position: e.position.clone(),
            played: None,
        })
        .collect();
    let mut score = SuiteScore::default();
    pool::run(&tasks, setup, jobs, |i, result| {
        let best = result?.search.best_move;
        let entry = &entries[i];
        let verdict = if entry.holds.contains(&best) {
            Verdict::Held
        } else if best == entry.mistake {
            Verdict::Mistake
        } else {
            Verdict::OtherLoss
        };
        score.add(verdict);
        on_answer(i, Answer { best, verdict });
        Ok::<(), TaskError>(())
    })?;
    Ok(score)
}
