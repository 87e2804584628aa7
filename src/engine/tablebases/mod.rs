//! What the engine does with the endgame tables ([`crate::tb`]), in one
//! place: at the root, a win or loss they decide is played without a
//! search, a draw is searched among its drawing moves only and reported as
//! the draw, and the time a move plans grows where the tables are near;
//! inside the search (`room.rs`), when a table draw is trusted and how it
//! is scored.
//!
//! Under `Repetition=forbid` a table draw may be a loss: the tables know
//! the board, not the game's history, and a defender with few drawing moves
//! can be squeezed out of fresh positions (graph-history interaction; the
//! proof that decides it is [`crate::tb::prove_under_history`]). The
//! engine meets that in three ways, each kept because a match or the suite
//! of draws lost (bench-positions/tb-draws-lost.txt) showed it gains
//! (docs/records/tablebases-forbid.md): the drawing room scores trusted
//! draws; a table draw root plans more time; and before the search the
//! root's captures into a table draw are proven, one the opponent then wins
//! being searched as the loss it is.

pub(super) mod room;

use super::limits::GoLimits;
use super::options::EngineOptions;
use super::params::SearchParams;
use super::score::{self, TB_BOUND};
use super::search::{Listener, SearchInfo, SearchLimits, SearchResult};
use super::time::Clock;
use crate::rules::{Game, Move, Repetition, Rules};
use crate::tb::{self, TableSet, Verdict};
use std::time::Instant;

/// What the tables make of the root, before any search.
pub(super) enum RootVerdict {
    /// A win or loss that stands under the no-capture limit: the fastest
    /// win or the longest loss, played without a search.
    Decided(Box<SearchResult>),
    /// A root to search, as the tables see it.
    Search(TableRoot),
}

/// A root to search, as the tables see it.
pub(super) struct TableRoot {
    /// The moves to search: at a table draw the drawing ones (with any the
    /// user restricted the search to); else the user's (empty: every move).
    pub searchmoves: Vec<Move>,
    /// The root is a table draw: its lines are the tables' draw, reported
    /// as `cp 0` unless the search finds the history losing or winning it.
    pub table_draw: bool,
    /// The share of the usual time the move plans, percent.
    pub time_percent: u64,
}

/// The tables that answer at `game`'s root, if any (`tables` as loaded,
/// `TablebaseMaxPieces` applied), and what they make of it. A decided root
/// is searched all the same where the user wants analysis, not a move
/// (several lines, or thinking until `stop`), each move then scored by the
/// tables one ply down.
pub(super) fn at_root(
    tables: Option<&TableSet>,
    game: &Game,
    limits: &GoLimits,
    options: &EngineOptions,
    start: Instant,
) -> RootVerdict {
    let searched = |table_draw, searchmoves| {
        let entering = tables.is_some_and(|tb| {
            let largest = tb.max_pieces().min(options.tb_max_pieces);
            tb::piece_count(game.position()) == largest + 1
        });
        RootVerdict::Search(TableRoot {
            searchmoves,
            table_draw,
            time_percent: time_percent(game.rules(), table_draw, entering, &options.params),
        })
    };
    let Some(tb) = tables else {
        return searched(false, limits.searchmoves.clone());
    };
    let analysing = limits.infinite || options.multipv > 1;
    match root_by_tables(tb, game, limits, start) {
        ByTables::Decided(result) if !analysing => RootVerdict::Decided(result),
        ByTables::Decided(_) | ByTables::Unknown => searched(false, limits.searchmoves.clone()),
        ByTables::Drawing(moves) => searched(true, moves),
    }
}

/// The share of the usual time a move plans, percent: more
/// (`TABLE_DRAW_TIME_PERCENT`) where the root is one capture from the
/// tables (`entering`: the capture chooses the table position) and, under
/// `Repetition=forbid`, where it is a table draw the history may squeeze;
/// the usual elsewhere.
fn time_percent(rules: &Rules, table_draw: bool, entering: bool, params: &SearchParams) -> u64 {
    if entering || (table_draw && rules.repetition == Repetition::Forbid) {
        params.table_draw_time_percent() as u64
    } else {
        100
    }
}

/// Positions the proofs of the root's captures may expand in all, whatever
/// the clock leaves; their memory takes 4.5 MB at most, only where a proof
/// runs. The captures seen settled took 300 to 140,000.
const PROOF_POSITIONS: u64 = 200_000;

/// Under `Repetition=forbid`, each root capture into a table draw that the
/// opponent, to move with the history begun afresh by the capture, is
/// proven to win, capped at [`HISTORY_LOSS_CAP`]: the tables' draw there is
/// the history's loss from the start, which no search of the root's depth
/// sees. The proofs share [`PROOF_POSITIONS`] and `HISTORY_PROOF_PERCENT`
/// of the move's planned time; a capture left unsettled is searched as any
/// other. Answers the caps for [`SearchLimits::root_caps`].
pub(super) fn captures_lost_by_history(
    tb: &TableSet,
    game: &Game,
    clock: &Clock,
    limits: &SearchLimits,
    options: &EngineOptions,
    listener: &dyn Listener,
) -> Vec<(Move, i32)> {
    let percent = options.params.history_proof_percent();
    if game.rules().repetition != Repetition::Forbid || percent == 0 {
        return Vec::new();
    }
    let pos = game.position();
    let deadline = clock.deadline_after_search(percent as u64);
    let mut memory = tb::ProofMemory::new(2 * PROOF_POSITIONS as usize);
    let mut spent = 0;
    let mut lost = Vec::new();
    for &m in game.legal_moves().iter() {
        let searched = limits.searchmoves.is_empty() || limits.searchmoves.contains(&m);
        if !searched || !pos.is_capture(m) {
            continue;
        }
        let mut after = game.clone();
        after.make(m);
        let small = tb::piece_count(after.position()) <= options.tb_max_pieces;
        if !small || tb.probe(after.position()) != Some(Verdict::Draw) {
            continue;
        }
        let budget = tb::ProofBudget {
            positions: PROOF_POSITIONS.saturating_sub(spent),
            deadline,
            progress: None,
        };
        let question = tb::Question::Win;
        let (won, nodes) = tb::prove_under_history(tb, &after, question, budget, &mut memory);
        spent += nodes;
        if let tb::ProofVerdict::Won(_) = won {
            listener.message(&format!(
                "{m} captures into a table draw the history loses ({nodes} positions)"
            ));
            lost.push((m, HISTORY_LOSS_CAP));
        }
    }
    lost
}

/// The most a root capture into a table draw the history is proven to
/// lose scores: a loss, of unknown length, above the losses the search
/// proved (which may come sooner); still a centipawn score, not a table
/// loss of some length.
const HISTORY_LOSS_CAP: i32 = -(TB_BOUND - 1);

/// What the tables make of the root.
enum ByTables {
    /// Decided: the answer.
    Decided(Box<SearchResult>),
    /// A draw: the moves that keep it.
    Drawing(Vec<Move>),
    /// Not in the tables, or a verdict the no-capture limit may overturn.
    Unknown,
}

/// The root's legal moves ranked by the tables (repetition respected), and
/// what the best one means.
fn root_by_tables(tb: &TableSet, game: &Game, limits: &GoLimits, start: Instant) -> ByTables {
    let pos = game.position();
    if !tb.holds_size_of(pos) {
        return ByTables::Unknown;
    }
    let Some(ranked) = tb.rank_moves(pos) else {
        return ByTables::Unknown;
    };
    let legal = game.legal_moves();
    let ranked: Vec<(Move, Verdict)> = ranked
        .into_iter()
        .filter(|(m, _)| {
            legal.contains(m) && (limits.searchmoves.is_empty() || limits.searchmoves.contains(m))
        })
        .collect();
    let Some(&(best, verdict)) = ranked.first() else {
        return ByTables::Unknown;
    };
    let left = tb::plies_before_limit(game.rules(), pos);
    let Some(score) = score::table_score(verdict, 0, left) else {
        if verdict == Verdict::Draw {
            let drawing = ranked.iter().filter(|(_, v)| *v == Verdict::Draw);
            return ByTables::Drawing(drawing.map(|(m, _)| *m).collect());
        }
        return ByTables::Unknown;
    };
    let pv = table_line(tb, game, best);
    let tbhits = ranked.len() as u64 + pv.len() as u64;
    let time_ms = start.elapsed().as_millis() as u64;
    ByTables::Decided(Box::new(SearchResult {
        best_move: best,
        ponder_move: pv.get(1).copied(),
        score,
        depth: 1,
        nodes: tbhits,
        lines: vec![(score, pv.clone())],
        seldepth: pv.len() as i32,
        pv,
        time_ms,
        hashfull: 0,
        outcome: None,
        tbhits,
    }))
}

/// The one `info` line of a root the tables decided.
pub(super) fn decided_info(result: &SearchResult) -> SearchInfo {
    SearchInfo {
        depth: result.depth,
        seldepth: result.seldepth,
        multipv: 1,
        score: result.score,
        nodes: result.nodes,
        time_ms: result.time_ms,
        hashfull: 0,
        pv: result.pv.clone(),
        tbhits: result.tbhits,
    }
}

/// The line both sides play by the tables from `first` on, to the end of the
/// game (at most 64 plies shown).
fn table_line(tb: &TableSet, game: &Game, first: Move) -> Vec<Move> {
    let mut g = game.clone();
    let mut line = vec![first];
    g.make(first);
    while line.len() < 64 && g.outcome().is_none() {
        let legal = g.legal_moves();
        let next = tb
            .rank_moves(g.position())
            .and_then(|r| r.into_iter().find(|(m, _)| legal.contains(m)));
        let Some((m, _)) = next else { break };
        g.make(m);
        line.push(m);
    }
    line
}

/// The score of a line among the tables' drawing moves: the draw (0), or a
/// win or loss the search found because the game's history forbids moves
/// the tables count on.
fn as_table_draw(score: i32) -> i32 {
    if score.abs() >= TB_BOUND { score } else { 0 }
}

/// A table draw root's result as the draw it is (see [`as_table_draw`]).
pub(super) fn report_as_draw(result: &mut SearchResult) {
    result.score = as_table_draw(result.score);
    for (score, _) in &mut result.lines {
        *score = as_table_draw(*score);
    }
}

/// Reports every line of a search at a table draw root as the draw (see
/// [`as_table_draw`]).
pub(super) struct DrawListener<'a>(pub &'a dyn Listener);

impl Listener for DrawListener<'_> {
    fn info(&self, info: &SearchInfo) {
        self.0.info(&SearchInfo {
            score: as_table_draw(info.score),
            ..info.clone()
        });
    }

    fn message(&self, text: &str) {
        self.0.message(text);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn more_time_one_capture_from_the_tables_and_at_a_table_draw_under_forbid() {
        let params = SearchParams::default();
        let under = |repetition| Rules {
            repetition,
            ..Rules::default()
        };
        let more = params.table_draw_time_percent() as u64;
        assert!(more > 100);
        let forbid = under(Repetition::Forbid);
        assert_eq!(time_percent(&forbid, true, false, &params), more);
        assert_eq!(time_percent(&forbid, false, true, &params), more);
        assert_eq!(time_percent(&forbid, false, false, &params), 100);
        for rules in [under(Repetition::Draw), under(Repetition::None)] {
            // A table draw there is a draw: nothing to squeeze.
            assert_eq!(time_percent(&rules, true, false, &params), 100);
            assert_eq!(time_percent(&rules, false, true, &params), more);
        }
    }
}
