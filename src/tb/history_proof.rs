//! Table draws under the game's history: a proof search of what the tables
//! cannot know. The tables answer for the board alone, but under
//! `Repetition=forbid` no position may occur a third time since the last
//! capture, so a side with few drawing moves can be squeezed out of a draw
//! the tables call a draw: the value depends on the path, the problem known
//! as graph-history interaction. This module decides such a draw exactly,
//! or says it could not within its budget, by df-pn over positions *with*
//! their history.
//!
//! **The question.** [`prove_under_history`]: at a table draw, with the side
//! to move, either the whole verdict ([`Question::Verdict`]: is the draw
//! held, and if so is it won) or only whether the side to move forces a win
//! ([`Question::Win`]), with one answer type, [`ProofVerdict`].
//!
//! **The state.** A position, its no-capture clock, who attacks, and the
//! positions since the last capture with how often each occurred (hashed).
//! The history grows with every move, so no state recurs on a line.
//!
//! **The moves searched.** Those the history allows, within the tables'
//! drawn positions of the material on the board, plus the attacker's wins
//! too long for the no-capture limit (a capture on the way starts the count
//! afresh); a capture into a smaller table draw starts the history afresh
//! and the search goes on there.
//!
//! **The terminals.**
//! - A move into a position the tables call lost for the side to move, in
//!   no more plies than the no-capture limit leaves: the mover wins.
//! - A side without a legal move (the history forbids them all) loses.
//! - The no-capture limit, and the defender's wins too long for it: a draw.
//! - A position outside the tables: not the attacker's to force.
//!
//! **What is exact.** A proof (won, lost) is exact. A refutation (held) is
//! exact but for the defender's too-long wins, taken as held. The proof
//! applies only where every position since the last capture that occurred
//! twice is unsettled by the tables ([`unsettled_by_tables`]): a winner's
//! fastest line meets a settled one at most once more, its second
//! occurrence, which the rule allows; twice, the rule may bar that line.

use super::set::{TableSet, plies_before_limit};
use super::verdict::Verdict;
use crate::rules::{Game, Move, Position, Repetition, Side};
use std::time::Instant;

mod memory;
mod verdicts;
use memory::{Numbers, mix};
pub use memory::{ProofMemory, STATE_BYTES};

/// What to prove at a table draw, for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Question {
    /// The whole verdict: is the draw held under the history, and where it
    /// is, does the side to move force a win? (`tb probe --history`.)
    Verdict,
    /// Only whether the side to move forces a win: where the opponent has
    /// just captured into this draw, a win is a loss for the capture.
    Win,
}

/// What the history makes of a table draw, for the side to move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProofVerdict {
    /// It forces the opponent out of the draw: these moves keep the win.
    Won(Vec<Move>),
    /// The opponent cannot force it out of the draw; after the moves
    /// listed (those the search came to prove) it could.
    Held {
        /// Moves proven to lose the draw.
        losing: Vec<Move>,
        /// Moves proven to hold it (at least one).
        holding: Vec<Move>,
        /// The side to move may also win: not refuted within the budget.
        may_win: bool,
    },
    /// The opponent forces it out of the draw, whatever the move.
    Lost,
    /// It forces no win ([`Question::Win`] asks no more: the draw may be
    /// held or lost).
    NotWon,
    /// Not decided within the budget (the moves listed are proven to lose
    /// the draw), or not a case the search handles (none listed).
    Unknown {
        /// Moves proven to lose the draw.
        losing: Vec<Move>,
    },
}

impl ProofVerdict {
    /// The verdict in one word: `won`, `held`, `lost`, `not-won` or `unknown`.
    pub fn word(&self) -> &'static str {
        match self {
            ProofVerdict::Won(_) => "won",
            ProofVerdict::Held { .. } => "held",
            ProofVerdict::Lost => "lost",
            ProofVerdict::NotWon => "not-won",
            ProofVerdict::Unknown { .. } => "unknown",
        }
    }
}

/// A number no search reaches: settled.
const INFINITE: u32 = u32::MAX / 4;
const PROVEN: Numbers = (0, INFINITE);
const REFUTED: Numbers = (INFINITE, 0);

/// What a proof may spend: positions expanded, and a time it stops at
/// (the engine's clock), if any. A number of positions alone is one.
#[derive(Clone, Copy, Debug)]
pub struct ProofBudget {
    /// Positions expanded, over both questions (a win, then the draw kept).
    pub positions: u64,
    /// When to stop, settled or not.
    pub deadline: Option<Instant>,
    /// Told how far a long proof has got, if anyone is (a tool's progress
    /// line).
    pub progress: Option<Progress>,
}

/// A report of a proof's progress: `report` is called with the positions
/// a search has expanded at every `every` of them.
#[derive(Clone, Copy, Debug)]
pub struct Progress {
    /// Positions between reports.
    pub every: u64,
    /// Called with the positions expanded so far.
    pub report: fn(u64),
}

impl From<u64> for ProofBudget {
    fn from(positions: u64) -> ProofBudget {
        ProofBudget {
            positions,
            deadline: None,
            progress: None,
        }
    }
}

/// What the history makes of the table draw at `game`'s position for the
/// side to move, as `question` asks, and the positions the search expanded
/// (within `budget`, over both searches where the verdict needs two: the
/// draw kept, then, where it is, a win in what that left); `memory` holds
/// what earlier searches of the same game learnt. `Unknown` (for
/// [`Question::Win`], `Unknown` too) where the proof does not apply: the
/// rules allow repetition, the position is settled by the tables (see
/// [`unsettled_by_tables`]), or a position since the last capture that
/// occurred twice is.
pub fn prove_under_history(
    tb: &TableSet,
    game: &Game,
    question: Question,
    budget: impl Into<ProofBudget>,
    memory: &mut ProofMemory,
) -> (ProofVerdict, u64) {
    let budget = budget.into();
    if !applies(tb, game) {
        let losing = Vec::new();
        return (ProofVerdict::Unknown { losing }, 0);
    }
    if question == Question::Win {
        return prove_win(tb, game, budget, memory, 0);
    }
    let (held, spent) = prove_held(tb, game, budget, memory);
    let ProofVerdict::Held {
        losing, holding, ..
    } = held
    else {
        return (held, spent);
    };
    // Where nothing else ends a line, a proof that the opponent forces the
    // draw away and a refutation of the side to move forcing it away are
    // the same tree: the win is asked only where the draw is held, so a
    // lost draw is searched once.
    let (won, spent) = prove_win(tb, game, budget, memory, spent);
    let verdict = match won {
        ProofVerdict::Won(winning) => ProofVerdict::Won(winning),
        settled => ProofVerdict::Held {
            losing,
            holding,
            may_win: settled != ProofVerdict::NotWon,
        },
    };
    (verdict, spent)
}

/// Whether the side to move forces a win, where the proof applies, after
/// `spent` positions of `budget` went to another search of the question
/// (they are counted in what it answers, and in its progress): `Won`,
/// `NotWon` or `Unknown`.
fn prove_win(
    tb: &TableSet,
    game: &Game,
    budget: ProofBudget,
    memory: &mut ProofMemory,
    spent: u64,
) -> (ProofVerdict, u64) {
    let us = game.position().side_to_move();
    let mut attack = Proof::new(tb, game.clone(), us, budget, memory);
    attack.nodes = spent;
    let won = match attack.prove() {
        PROVEN => ProofVerdict::Won(attack.settled_moves(|(pn, _)| pn == 0)),
        REFUTED => ProofVerdict::NotWon,
        _ => ProofVerdict::Unknown { losing: Vec::new() },
    };
    (won, attack.nodes)
}

/// Whether the proof applies at `game`: the rules forbid repetition, the
/// position is unsettled by the tables, and so is every one since the last
/// capture that occurred twice. One the tables settle that occurred once
/// (a win thrown away and the draw lost again) leaves the proof exact: a
/// winner's fastest line meets it at most once more, its second
/// occurrence, which the rule allows; twice, the rule may bar that line.
fn applies(tb: &TableSet, game: &Game) -> bool {
    if game.rules().repetition != Repetition::Forbid
        || !unsettled_by_tables(tb, game, game.position())
    {
        return false;
    }
    game.window_with_occurrences()
        .all(|(pos, occurrences)| occurrences < 2 || unsettled_by_tables(tb, game, pos))
}

/// Whether the side to move keeps the draw, where the proof applies:
/// `Held` (its win not asked), `Lost` or `Unknown`, and the positions the
/// search expanded within `budget`.
fn prove_held(
    tb: &TableSet,
    game: &Game,
    budget: ProofBudget,
    memory: &mut ProofMemory,
) -> (ProofVerdict, u64) {
    let them = game.position().side_to_move().opponent();
    let mut defence = Proof::new(tb, game.clone(), them, budget, memory);
    let settled = defence.prove();
    let losing = defence.settled_moves(|(pn, _)| pn == 0);
    let verdict = match settled {
        PROVEN => ProofVerdict::Lost,
        REFUTED => {
            let holding = defence.settled_moves(|(_, dn)| dn == 0);
            ProofVerdict::Held {
                losing,
                holding,
                may_win: true,
            }
        }
        _ => ProofVerdict::Unknown { losing },
    };
    (verdict, defence.nodes)
}

/// Whether the tables leave `pos` (of `game`'s window) to the proof: a
/// draw, or a win or loss longer than what the no-capture limit leaves at
/// `game`'s position. A proven win's fastest line then never meets such a
/// position: its distances fit in what the limit leaves, theirs do not.
pub fn unsettled_by_tables(tb: &TableSet, game: &Game, pos: &Position) -> bool {
    let left = plies_before_limit(game.rules(), game.position());
    match tb.probe(pos) {
        Some(Verdict::Draw) => true,
        Some(Verdict::Win(plies) | Verdict::Loss(plies)) => plies > left,
        None => false,
    }
}

/// One proof search: does `attacker` force the other side out of the draw?
struct Proof<'a> {
    /// The tables, each verdict read once (as far as its slot keeps it).
    tb: verdicts::Verdicts<'a>,
    game: Game,
    attacker: Side,
    /// The positions since the last capture with how often each occurred,
    /// hashed: with the position and its clock, the state the history leaves.
    window: u64,
    /// The windows the captures on the current line closed.
    closed: Vec<u64>,
    /// Moves made from the root on the current line.
    depth: usize,
    /// The root's moves and their numbers when its search last returned
    /// (the memory may since have given up some of their states).
    root_moves: Vec<(Move, Numbers)>,
    /// The numbers of the states searched, by [`Proof::state`].
    table: &'a mut ProofMemory,
    /// Positions expanded for the question, by this search and any
    /// before it (see [`prove_under_history`]).
    nodes: u64,
    budget: ProofBudget,
    /// The deadline has passed: every position on the line returns.
    timed_out: bool,
}

/// How far the best move's number may grow before the search turns to
/// the runner-up, whose number is `second`: a quarter beyond it, not just
/// one (the 1+epsilon trick of Pawlewicz and Lew), so the search does not
/// swing between two moves of nearly equal numbers, each swing
/// re-expanding a subtree that no state table keeps whole.
fn beyond(second: u32) -> u32 {
    second
        .saturating_add(1)
        .max(second.saturating_add(second / 4))
}

/// A position key and its occurrence count, mixed.
fn occurrence_hash(key: u64, occurrences: u16) -> u64 {
    mix(key ^ u64::from(occurrences).wrapping_mul(0x9E37_79B9_7F4A_7C15))
}

impl<'a> Proof<'a> {
    fn new(
        tb: &'a TableSet,
        game: Game,
        attacker: Side,
        budget: ProofBudget,
        table: &'a mut ProofMemory,
    ) -> Proof<'a> {
        // The root's window, as `make` would have hashed it move by move.
        let window = game
            .window_with_occurrences()
            .fold(0, |window, (pos, n)| window ^ occurrence_hash(pos.key(), n));
        Proof {
            tb: verdicts::Verdicts::new(tb),
            game,
            attacker,
            window,
            closed: Vec::new(),
            depth: 0,
            root_moves: Vec::new(),
            table,
            nodes: 0,
            budget,
            timed_out: false,
        }
    }

    /// The search from the root, until settled or out of budget.
    fn prove(&mut self) -> Numbers {
        self.expand(INFINITE, INFINITE)
    }

    /// The root's moves whose numbers `settled` accepts.
    fn settled_moves(&self, settled: impl Fn(Numbers) -> bool) -> Vec<Move> {
        let moves = self.root_moves.iter();
        moves
            .filter(|&&(_, n)| settled(n))
            .map(|&(m, _)| m)
            .collect()
    }

    /// The current state's key: the position with its clock (which the
    /// window does not tell when the game began with one) and who attacks,
    /// and the window.
    fn state(&self) -> (u64, u64) {
        let pos = self.game.position();
        let clock = u64::from(pos.plies_since_capture()) << 1 | self.attacker as u64;
        (pos.key() ^ occurrence_hash(clock, 0), self.window)
    }

    fn make(&mut self, m: Move) {
        if self.game.position().is_capture(m) {
            self.closed.push(self.window);
            self.window = 0;
        }
        self.game.make(m);
        self.window ^= occurrence_hash(self.game.position().key(), self.game.occurrences());
        self.depth += 1;
    }

    fn unmake(&mut self) {
        self.depth -= 1;
        self.window ^= occurrence_hash(self.game.position().key(), self.game.occurrences());
        // The move taken back was a capture: its window reopens.
        let captured = self.game.position().plies_since_capture() == 0;
        self.game.unmake();
        if captured {
            self.window = self.closed.pop().expect("a window per capture made");
        }
    }

    /// The numbers of the position after `m`: settled at once, as far as
    /// the search got, or unknown.
    fn child(&mut self, m: Move) -> Numbers {
        self.make(m);
        let numbers = self
            .settled_here()
            .or_else(|| self.table.get(self.state()))
            .unwrap_or_else(|| self.first_numbers());
        self.unmake();
        numbers
    }

    /// The numbers of a position not yet searched, by the side to move's
    /// room: its legal moves (the history's forbidden ones left out) that
    /// do not lose at once by the tables. A defender with much room is
    /// harder to squeeze out of the draw (its proof number), an attacker
    /// with much harder to refute (its disproof number). Instead of 1 and
    /// 1 for every position: some 40 % fewer positions (and memory) for
    /// the same proofs (docs/records/tablebases-forbid.md, "A proof that
    /// counts the room").
    fn first_numbers(&self) -> Numbers {
        let pos = self.game.position();
        let attacking = pos.side_to_move() == self.attacker;
        let moves = self.game.legal_moves();
        let room = moves.iter().filter(|&&m| {
            let mut after = *pos;
            after.make(m);
            // Not a loss at once for the side to move here.
            self.by_tables(&after) != Some(!attacking)
        });
        let room = u32::try_from(room.count()).unwrap_or(INFINITE).max(1);
        if attacking { (1, room) } else { (room, 1) }
    }

    /// The numbers of the position just reached when it is settled without
    /// a search (see the module).
    fn settled_here(&self) -> Option<Numbers> {
        let pos = self.game.position();
        let to_move = pos.side_to_move();
        if pos.is_decided() {
            // The mover won.
            return Some(if to_move == self.attacker {
                REFUTED
            } else {
                PROVEN
            });
        }
        let attacker_wins = match self.by_tables(pos) {
            Some(wins) => wins,
            None => {
                if self.game.draw_reason().is_some() {
                    return Some(REFUTED);
                }
                if self.game.has_legal_move() {
                    return None;
                }
                // No legal move loses.
                to_move != self.attacker
            }
        };
        Some(if attacker_wins { PROVEN } else { REFUTED })
    }

    /// Whether the attacker wins at `pos` by the tables alone (the history
    /// aside), or `None` where the search goes on from it.
    fn by_tables(&self, pos: &Position) -> Option<bool> {
        let to_move = pos.side_to_move();
        // A win or loss counts if it fits in what the no-capture limit leaves.
        let fits = |plies| plies <= plies_before_limit(self.game.rules(), pos);
        match self.tb.probe(pos) {
            Some(Verdict::Win(plies)) if fits(plies) => Some(to_move == self.attacker),
            Some(Verdict::Loss(plies)) if fits(plies) => Some(to_move != self.attacker),
            // The defender's win too long for the limit: at worst a draw
            // for it (the history aside).
            Some(Verdict::Win(_)) if to_move != self.attacker => Some(false),
            Some(Verdict::Loss(_)) if to_move == self.attacker => Some(false),
            // A draw, or the attacker's win too long for the limit, which
            // is no draw either: it may capture on the way and start the
            // count afresh. Both are searched on.
            Some(_) => None,
            // Out of the tables: not the attacker's to force.
            None => Some(false),
        }
    }

    /// Depth-first proof-number search below the current position, until
    /// its numbers reach the thresholds. The history grows with every
    /// move, so no state recurs on a line: the positions form no cycle.
    fn expand(&mut self, proof_limit: u32, disproof_limit: u32) -> Numbers {
        self.nodes += 1;
        // The clock is read now and then, not at every position.
        if self.nodes.is_multiple_of(1024)
            && self.budget.deadline.is_some_and(|d| Instant::now() >= d)
        {
            self.timed_out = true;
        }
        if let Some(progress) = self.budget.progress
            && self.nodes.is_multiple_of(progress.every.max(1))
        {
            (progress.report)(self.nodes);
        }
        let attacking = self.game.position().side_to_move() == self.attacker;
        let moves = self.game.legal_moves();
        let mut children: Vec<(Move, Numbers)> =
            moves.iter().map(|&m| (m, self.child(m))).collect();
        loop {
            // The attacker needs one move proven, the defender all refuted.
            let (min_of, sum_of) = (
                |f: fn(&Numbers) -> u32, c: &[(Move, Numbers)]| {
                    c.iter().map(|(_, n)| f(n)).min().unwrap_or(INFINITE)
                },
                |f: fn(&Numbers) -> u32, c: &[(Move, Numbers)]| {
                    c.iter()
                        .map(|(_, n)| f(n))
                        .fold(0, u32::saturating_add)
                        .min(INFINITE)
                },
            );
            let numbers = if attacking {
                (min_of(|n| n.0, &children), sum_of(|n| n.1, &children))
            } else {
                (sum_of(|n| n.0, &children), min_of(|n| n.1, &children))
            };
            let out_of_budget = self.nodes >= self.budget.positions || self.timed_out;
            if numbers.0 >= proof_limit || numbers.1 >= disproof_limit || out_of_budget {
                if self.depth == 0 {
                    self.root_moves = children;
                }
                self.table.insert(self.state(), numbers);
                return numbers;
            }
            // The most promising move (the attacker's least proof number,
            // the defender's least disproof number) and the runner-up's.
            let key = |n: &Numbers| if attacking { n.0 } else { n.1 };
            let (best, _) = children
                .iter()
                .enumerate()
                .min_by_key(|(_, (_, n))| key(n))
                .expect("a position with legal moves");
            let second = children
                .iter()
                .enumerate()
                .filter(|&(i, _)| i != best)
                .map(|(_, (_, n))| key(n))
                .min()
                .unwrap_or(INFINITE);
            let (m, (pn, dn)) = children[best];
            let limits = if attacking {
                (
                    proof_limit.min(beyond(second)),
                    disproof_limit - numbers.1 + dn,
                )
            } else {
                (
                    proof_limit - numbers.0 + pn,
                    disproof_limit.min(beyond(second)),
                )
            };
            self.make(m);
            children[best].1 = self.expand(limits.0.min(INFINITE), limits.1.min(INFINITE));
            self.unmake();
        }
    }
}

#[cfg(test)]
mod tests;
