//! The searches of `doushou analyse`, shared out over worker threads. Each
//! worker owns an [`Engine`] (its own transposition table, one search thread)
//! and clears it before every position, so that a position's answer at a
//! fixed depth does not depend on which worker took it or what that worker
//! searched before: `--jobs 2` answers exactly as `--jobs 1`.
//!
//! A move of a game is judged against the engine's choice in the same
//! position at the same depth: when the move played is not the one the search
//! chose, a second search, again from a clean table, scores the played move
//! alone (as `go searchmoves` would) to the depth the first one reached.

use crate::engine::search::{SearchResult, Silent};
use crate::engine::{Engine, GoError, GoLimits, option};
use crate::rules::{GameError, Move, Rules};
use crate::tools::pgn::read::PositionSpec;
use crate::util::options::OptionError;

/// One search to run: a position under its rules.
#[derive(Clone, Debug)]
pub struct AnalysisTask {
    /// The rules the position is played under.
    pub rules: Rules,
    /// The position, with the moves that led to it (they matter for repetition).
    pub position: PositionSpec,
    /// The move a game played here, to be scored beside the engine's choice.
    pub played: Option<Move>,
}

/// What the searches of one task found.
#[derive(Clone, Debug)]
pub struct Answer {
    /// The search of the position: the engine's choice and its score.
    pub search: SearchResult,
    /// The played move's own search, when a move was played and it is not the
    /// engine's choice: that move alone at the root, to the depth of `search`.
    pub played: Option<SearchResult>,
}

/// How every worker's engine is set up and what each search is allowed.
#[derive(Clone, Debug)]
pub struct Setup {
    /// Transposition table per worker, MB.
    pub hash_mb: usize,
    /// Lines each search reports.
    pub multipv: usize,
    /// Depth, nodes or time of each search.
    pub limits: GoLimits,
    /// Further engine options, `(name, value)`, set after those above.
    pub engine_options: Vec<(String, String)>,
}

/// What one search answered; the error is for the user (it names the option
/// or position the engine refused, which the input checks should have caught).
pub type TaskResult = Result<Answer, TaskError>;

/// Why a task's engine could not search it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TaskError {
    /// An engine option (`--hash`, `--multipv`, `--eval-file`, the tables)
    /// was refused when the worker's engine was made.
    #[error(transparent)]
    Option(#[from] OptionError),
    /// The engine refused the task's position or moves.
    #[error(transparent)]
    Position(#[from] GameError),
    /// The engine would not search (it held no position).
    #[error("the engine holds no position")]
    Go(#[from] GoError),
}

/// Runs every task on `jobs` threads and hands each result to `on_result` on
/// the calling thread as soon as it is ready (in completion order, with the
/// task's index). An error from `on_result` stops the workers after their
/// current search and is returned.
pub fn run<E>(
    tasks: &[AnalysisTask],
    setup: &Setup,
    jobs: usize,
    on_result: impl FnMut(usize, TaskResult) -> Result<(), E>,
) -> Result<(), E> {
    crate::util::pool::run_jobs(
        tasks.len(),
        jobs,
        || new_engine(setup),
        |engine, i| match engine {
            Ok(engine) => search(engine, &tasks[i], &setup.limits),
            Err(e) => Err(e.clone()),
        },
        on_result,
    )
}

/// Runs `body` on the calling thread while `jobs` workers search each
/// `(index, task)` it sends, as soon as it is sent, and send
/// `wrap(index, result)` to `results` (see [`crate::util::pool::serve_jobs`]):
/// for input that arrives as it goes.
pub fn serve<M: Send, T>(
    setup: &Setup,
    jobs: usize,
    results: std::sync::mpsc::Sender<M>,
    wrap: impl Fn(usize, TaskResult) -> M + Sync,
    body: impl FnOnce(std::sync::mpsc::Sender<(usize, AnalysisTask)>) -> T,
) -> T {
    crate::util::pool::serve_jobs(
        jobs,
        || new_engine(setup),
        |engine, (i, task): (usize, AnalysisTask)| {
            wrap(
                i,
                match engine {
                    Ok(engine) => search(engine, &task, &setup.limits),
                    Err(e) => Err(e.clone()),
                },
            )
        },
        results,
        body,
    )
}

/// A worker's engine: one search thread, its own table, the lines asked for.
pub fn new_engine(setup: &Setup) -> Result<Engine, TaskError> {
    let mut engine = Engine::new();
    for (name, value) in [
        (option::THREADS, "1".to_string()),
        (option::HASH, setup.hash_mb.to_string()),
        (option::MULTIPV, setup.multipv.to_string()),
    ] {
        engine.set_option(name, Some(&value))?;
    }
    engine.set_options(&setup.engine_options)?;
    Ok(engine)
}

/// The task's searches, each from a clean table, under the task's rules;
/// the engine keeps the task's position afterwards.
pub fn search(engine: &mut Engine, task: &AnalysisTask, limits: &GoLimits) -> TaskResult {
    engine.set_rules(task.rules);
    let p = &task.position;
    engine.set_position(&p.fen, &p.moves)?;
    let mut run = |limits: &GoLimits| {
        engine.new_game();
        engine.search(limits, &Silent).map_err(TaskError::from)
    };
    let search = run(limits)?;
    let played = match task.played {
        Some(m) if m != search.best_move && search.outcome.is_none() => {
            // The depth the first search completed, and nothing else: a node or
            // time budget spent on one root move would reach deeper than the
            // search it is compared with.
            let only_played = GoLimits {
                depth: Some(search.depth.max(1) as u32),
                searchmoves: vec![m],
                ..GoLimits::default()
            };
            Some(run(&only_played)?)
        }
        _ => None,
    };
    Ok(Answer { search, played })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::START_FEN;

    fn task(fen: &str, moves: &[&str]) -> AnalysisTask {
        AnalysisTask {
            rules: Rules::JUNGLE,
            position: PositionSpec {
                fen: fen.to_string(),
                moves: moves.iter().map(|m| m.to_string()).collect(),
            },
            played: None,
        }
    }

    fn run_one(task: AnalysisTask, engine_options: Vec<(String, String)>) -> TaskResult {
        let setup = Setup {
            hash_mb: 1,
            multipv: 1,
            limits: GoLimits {
                depth: Some(1),
                ..GoLimits::default()
            },
            engine_options,
        };
        let mut out = None;
        run(&[task], &setup, 1, |_, r| {
            out = Some(r);
            Ok::<(), ()>(())
        })
        .unwrap();
        out.expect("the task was answered")
    }

    /// A refused option and a refused position are told apart, each keeping
    /// the engine's own error, so a caller can say which input was wrong.
    #[test]
    fn a_refused_option_and_a_refused_position_are_different_errors() {
        let bad_net = vec![("EvalFile".to_string(), "/nonexistent.nnue".to_string())];
        match run_one(task(START_FEN, &[]), bad_net) {
            Err(TaskError::Option(e)) => assert!(e.to_string().contains("EvalFile"), "{e}"),
            other => panic!("expected an option error, got {other:?}"),
        }
        match run_one(task(START_FEN, &["a1a2", "a1a2"]), Vec::new()) {
            Err(TaskError::Position(_)) => {}
            other => panic!("expected a position error, got {other:?}"),
        }
        assert!(run_one(task(START_FEN, &["a1a2"]), Vec::new()).is_ok());
    }
}
