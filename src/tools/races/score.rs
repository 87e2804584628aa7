//! Scoring a search against the den-race suite: how many of its positions the
//! search answers with a move that holds.

use super::SuiteEntry;
use crate::client::{
    ClientError, EngineLimits, EngineProcess, EngineSpec, later, position_command,
};
use crate::engine::GoLimits;
use crate::protocol::reply::Reply;
use crate::rules::Move;
use crate::tools::analyse::pool::{self, AnalysisTask, Setup, TaskError};
use std::time::{Duration, Instant};

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

impl SuiteEntry {
    /// What choosing `best` here is, by the suite.
    pub fn verdict_of(&self, best: Move) -> Verdict {
        if self.holds.contains(&best) {
            Verdict::Held
        } else if best == self.mistake {
            Verdict::Mistake
        } else {
            Verdict::OtherLoss
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
        let verdict = entries[i].verdict_of(best);
        score.add(verdict);
        on_answer(i, Answer { best, verdict });
        Ok::<(), TaskError>(())
    })?;
    Ok(score)
}

/// What stops scoring the suite with an engine program.
#[derive(Debug, thiserror::Error)]
pub enum ProgramError {
    /// The engine could not be started, or stopped answering.
    #[error("engine '{name}': {source}")]
    Engine {
        /// The engine's name.
        name: String,
        /// What went wrong.
        #[source]
        source: ClientError,
    },
    /// The engine refused a position or an option (`info string error`).
    #[error("engine '{name}' refused entry {entry}: {reply}")]
    Refused {
        /// The engine's name.
        name: String,
        /// The entry's number, from 1.
        entry: usize,
        /// The engine's line.
        reply: String,
    },
    /// The engine answered a search with a `bestmove` line that is not a move.
    #[error("engine '{name}' answered entry {entry} with an unreadable move: '{reply}': {why}")]
    Unreadable {
        /// The engine's name.
        name: String,
        /// The entry's number, from 1.
        entry: usize,
        /// The engine's line.
        reply: String,
        /// Why it is not a move.
        why: String,
    },
}

/// The longest wait for an engine program's handshake and its `readyok`.
const PROGRAM_TIMEOUT: Duration = Duration::from_secs(60);

/// Like [`score_suite`], but each search is asked of an engine program
/// (any engine speaking protocol.md, an older doushou among them): per
/// entry the entry's rules, `ucinewgame`, the position and `go` with
/// `limits`, on `jobs` processes at once. The answers are handed on in the
/// suite's order once every search is done.
pub fn score_suite_with_program(
    entries: &[SuiteEntry],
    spec: &EngineSpec,
    limits: &GoLimits,
    jobs: usize,
    mut on_answer: impl FnMut(usize, Answer),
) -> Result<SuiteScore, ProgramError> {
    let jobs = jobs.clamp(1, entries.len().max(1));
    let fixed = EngineLimits {
        movetime: limits.time.movetime,
        depth: limits.depth,
        nodes: limits.nodes,
        tc: None,
    };
    let go = format!("go{}", fixed.fixed_go_words());
    let parts: Vec<Result<Vec<(usize, Move)>, ProgramError>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..jobs)
            .map(|job| {
                let go = &go;
                let mine = (job..entries.len()).step_by(jobs);
                scope.spawn(move || ask_program(entries, mine, spec, go, limits))
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a scoring thread panicked"))
            .collect()
    });
    let mut best = vec![Move::NULL; entries.len()];
    for part in parts {
        for (i, m) in part? {
            best[i] = m;
        }
    }
    let mut score = SuiteScore::default();
    for (i, (entry, &best)) in entries.iter().zip(&best).enumerate() {
        let verdict = entry.verdict_of(best);
        score.add(verdict);
        on_answer(i, Answer { best, verdict });
    }
    Ok(score)
}

/// One process's share of the suite: the move it chooses in each entry.
fn ask_program(
    entries: &[SuiteEntry],
    mine: impl Iterator<Item = usize>,
    spec: &EngineSpec,
    go: &str,
    limits: &GoLimits,
) -> Result<Vec<(usize, Move)>, ProgramError> {
    let failed = |source| ProgramError::Engine {
        name: spec.name.clone(),
        source,
    };
    let mut engine = EngineProcess::spawn(spec).map_err(failed)?;
    let result = (|| {
        engine.handshake(PROGRAM_TIMEOUT).map_err(failed)?;
        for (name, value) in &spec.options {
            engine.set_option(name, value).map_err(failed)?;
        }
        let search_wait =
            PROGRAM_TIMEOUT + Duration::from_millis(limits.time.movetime.unwrap_or(0));
        let mut answers = Vec::new();
        for i in mine {
            let entry = &entries[i];
            for (name, value) in entry.rules.settings() {
                engine.set_option(name, &value).map_err(failed)?;
            }
            engine.send("ucinewgame").map_err(failed)?;
            let position = position_command(&entry.position.fen, &entry.position.moves);
            engine.send(&position).map_err(failed)?;
            if let Some(reply) = engine.sync_refusal(PROGRAM_TIMEOUT).map_err(failed)? {
                return Err(ProgramError::Refused {
                    name: spec.name.clone(),
                    entry: i + 1,
                    reply,
                });
            }
            engine.send(go).map_err(failed)?;
            let sent = Instant::now();
            let best = loop {
                let line = engine
                    .recv(later(sent, search_wait), "bestmove", sent)
                    .map_err(failed)?;
                match line.text.parse::<Reply>() {
                    Ok(Reply::BestMove { best, .. }) => break best,
                    // Said at once, as the match runner does: waiting on
                    // would only end at the timeout.
                    Err(e) if Reply::is_bestmove_line(&line.text) => {
                        return Err(ProgramError::Unreadable {
                            name: spec.name.clone(),
                            entry: i + 1,
                            reply: line.text,
                            why: e.to_string(),
                        });
                    }
                    // Info lines and anything else an engine says are not moves.
                    _ => {}
                }
            };
            answers.push((i, best));
        }
        Ok(answers)
    })();
    engine.shutdown();
    result
}
