//! A game: the rules in force, the current position and the history behind it.
//! Repetition, the no-capture limit and the result of a game live here, since
//! they need the history that a [`Position`] does not keep.

use super::board::{Side, Square};
use super::position::{FenError, Move, MoveList, MoveParseError, Position};
use super::variant::{Repetition, Rules};
use std::fmt;

/// How a game was won.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WinReason {
    /// A piece entered the enemy den.
    Den,
    /// The loser has no pieces left.
    AllCaptured,
    /// The loser, to move, has no legal move (repetition-forbidden moves included).
    NoLegalMove,
}

/// How a game was drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DrawReason {
    /// A position occurred for the third time (`Repetition=draw`).
    Repetition,
    /// `NoCaptureLimit` plies passed without a capture.
    NoCaptureLimit,
}

/// The result of a finished game, with its reason.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// One side won: a den entered, or the other side without pieces or moves.
    Win {
        /// The side that won, Red or Blue.
        winner: Side,
        /// How: den, all captured, or no legal move.
        reason: WinReason,
    },
    /// Nobody won: repetition or the no-capture limit.
    Draw(DrawReason),
}

impl Outcome {
    /// The result as game records write it: `1-0` (Red won), `0-1`, `1/2-1/2`.
    pub fn score_text(self) -> &'static str {
        match self {
            Outcome::Win {
                winner: Side::Red, ..
            } => "1-0",
            Outcome::Win {
                winner: Side::Blue, ..
            } => "0-1",
            Outcome::Draw(_) => "1/2-1/2",
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Win { winner, reason } => {
                let loser = winner.opponent();
                match reason {
                    WinReason::Den => write!(f, "{winner} wins: a piece entered the {loser} den"),
                    WinReason::AllCaptured => {
                        write!(f, "{winner} wins: {loser} has no pieces left")
                    }
                    WinReason::NoLegalMove => {
                        write!(f, "{winner} wins: {loser} has no legal move")
                    }
                }
            }
            Outcome::Draw(DrawReason::Repetition) => {
                write!(f, "draw: a position occurred for the third time")
            }
            Outcome::Draw(DrawReason::NoCaptureLimit) => {
                write!(f, "draw: the no-capture limit was reached")
            }
        }
    }
}

/// Why a move given as text could not be played.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// The text is not a move at all.
    #[error(transparent)]
    Malformed(#[from] MoveParseError),
    /// A well-formed move that the rules do not allow here.
    #[error("illegal move {text}: {why}")]
    Illegal {
        /// The move as written.
        text: String,
        /// Why the rules refuse it.
        why: Illegal,
    },
}

/// Why the rules refuse a well-formed move.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Illegal {
    /// The game is over.
    #[error("the game is over ({0})")]
    GameOver(Outcome),
    /// The null move (`0000`) is no move of the game.
    #[error("the null move is not a move of the game")]
    NullMove,
    /// No piece stands on the origin.
    #[error("no piece on {0}")]
    NoPiece(Square),
    /// The piece on the origin is the opponent's.
    #[error("the piece on {square} is not {side}'s")]
    NotYourPiece {
        /// The origin.
        square: Square,
        /// The side to move.
        side: Side,
    },
    /// The piece cannot go there under the rules in force.
    #[error("the rules do not allow it")]
    NotAllowed,
    /// It would make a position occur a third time under `Repetition=forbid`.
    #[error(
        "it would repeat a position a third time ({}={})",
        super::variant::switch::REPETITION,
        Repetition::Forbid.name()
    )]
    ThirdRepetition,
}

/// Why a position with moves (`FEN moves m1 m2 ...`) was rejected.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    /// The position itself is malformed.
    #[error("bad position: {0}")]
    Fen(#[from] FenError),
    /// The move at this index (0-based) of the list is malformed or illegal.
    #[error("move {} of the list: {error}", .index + 1)]
    Move {
        /// Index in the move list, from 0.
        index: usize,
        /// What was wrong with it.
        #[source]
        error: MoveError,
    },
}

/// What the history remembers of each position of the game.
#[derive(Clone, Copy, Debug)]
struct HistoryEntry {
    key: u64,
    /// How often this position has occurred so far, this time included.
    occurrences: u16,
    /// Index of the first position since the last capture: older ones cannot recur.
    window_start: usize,
    /// For each parity of index (so, of side to move), the index of the
    /// latest position up to this one that had occurred twice or more, if
    /// any: no move can repeat a third time unless one is in the window.
    last_repeated: [Option<usize>; 2],
}

/// Positions that occurred twice which [`Game::forbidden`] gathers; more,
/// and it scans the window for each move.
const FORBIDDEN_KEYS: usize = 32;

/// The moves `Repetition=forbid` takes away in one position of a game
/// ([`Game::forbidden`]).
pub struct Forbidden<'a> {
    game: &'a Game,
    /// The keys of the positions that occurred twice, opponent to move.
    keys: [u64; FORBIDDEN_KEYS],
    /// How many `keys` hold; `usize::MAX` when there were more.
    len: usize,
}

impl Forbidden<'_> {
    /// Whether no move is forbidden here.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Whether `m` (a move of the position) is forbidden: it would make a
    /// position occur for the third time.
    #[inline]
    pub fn contains(&self, m: Move) -> bool {
        if self.len == usize::MAX {
            return self.game.position_twice_after(m);
        }
        let position = &self.game.position;
        self.len != 0
            && !position.is_capture(m)
            && self.keys[..self.len].contains(&position.key_after(m))
    }
}

/// A game in progress: rules, position and history, with make and unmake.
#[derive(Clone, Debug)]
pub struct Game {
    rules: Rules,
    position: Position,
    /// Each move played, with the position before it (for unmake).
    undo: Vec<(Position, Move)>,
    /// One record per position of the game, the current one last.
    history: Vec<HistoryEntry>,
}

impl Game {
    /// A game starting at `position`, with no history before it.
    pub fn new(rules: Rules, position: Position) -> Game {
        let mut history = Vec::with_capacity(256);
        history.push(HistoryEntry {
            key: position.key(),
            occurrences: 1,
            window_start: 0,
            last_repeated: [None; 2],
        });
        Game {
            rules,
            position,
            undo: Vec::with_capacity(256),
            history,
        }
    }

    /// A game from a position's text and moves in protocol notation, as the
    /// `position` command and `--fen/--moves` give them.
    pub fn from_fen_and_moves<S: AsRef<str>>(
        rules: Rules,
        fen: &str,
        moves: &[S],
    ) -> Result<Game, GameError> {
        let position: Position = fen.parse().map_err(GameError::Fen)?;
        let mut game = Game::new(rules, position);
        for (index, text) in moves.iter().enumerate() {
            game.play_text(text.as_ref())
                .map_err(|error| GameError::Move { index, error })?;
        }
        Ok(game)
    }

    /// The rules in force.
    #[inline]
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The current position, after every move played.
    #[inline]
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// Plies played since the game's first position.
    #[inline]
    pub fn plies_played(&self) -> usize {
        self.undo.len()
    }

    /// The game's first position, before every move played.
    pub fn start_position(&self) -> &Position {
        self.undo.first().map_or(&self.position, |(p, _)| p)
    }

    /// The last move made, if any.
    pub fn last_move(&self) -> Option<Move> {
        self.undo.last().map(|&(_, m)| m)
    }

    /// The moves played, in order.
    pub fn moves_played(&self) -> Vec<Move> {
        self.undo.iter().map(|&(_, m)| m).collect()
    }

    /// The positions since the last capture (or the start), oldest first, the
    /// current one last: the only ones a move can repeat.
    pub fn window(&self) -> impl Iterator<Item = &Position> {
        let start = self.current().window_start;
        self.undo[start.min(self.undo.len())..]
            .iter()
            .map(|(p, _)| p)
            .chain(std::iter::once(&self.position))
    }

    /// [`Game::window`]'s positions, each with how often it had occurred
    /// when it stood (that time included), as [`Game::occurrences`] told
    /// then.
    pub fn window_with_occurrences(&self) -> impl Iterator<Item = (&Position, u16)> {
        let start = self.current().window_start;
        let counts = self.history[start..].iter().map(|h| h.occurrences);
        self.window().zip(counts)
    }

    /// How often the current position has occurred in the game, this time included.
    #[inline]
    pub fn occurrences(&self) -> u16 {
        self.current().occurrences
    }

    #[inline]
    fn current(&self) -> &HistoryEntry {
        self.history.last().expect("history is never empty")
    }

    /// Whether playing `m` here would make a position occur for the third time,
    /// which `Repetition=forbid` makes illegal. To ask it of many moves, take
    /// [`Game::forbidden`] once.
    #[inline]
    pub fn would_repeat_third(&self, m: Move) -> bool {
        self.repetition_may_forbid() && self.position_twice_after(m)
    }

    /// Whether the position after `m` (no capture) has occurred twice since
    /// the last capture: a scan of the window.
    fn position_twice_after(&self, m: Move) -> bool {
        if self.position.is_capture(m) {
            return false;
        }
        let key = self.position.key_after(m);
        // Positions with the other side to move sit an odd number of plies back.
        self.window_with_opponent_to_move()
            .find(|r| r.key == key)
            .is_some_and(|r| r.occurrences >= 2)
    }

    /// The window's positions with the opponent to move, the latest first.
    fn window_with_opponent_to_move(&self) -> impl Iterator<Item = &HistoryEntry> {
        let n = self.history.len() - 1;
        let start = self.current().window_start;
        let newest = n.checked_sub(1).filter(|&j| j >= start);
        newest
            .into_iter()
            .flat_map(move |j| (start..=j).rev().step_by(2))
            .map(|j| &self.history[j])
    }

    /// The moves repetition forbids here, to be asked of many moves: the
    /// positions that occurred twice are gathered once, so a move costs a
    /// key and a few comparisons, not a scan of the window.
    pub fn forbidden(&self) -> Forbidden<'_> {
        let mut forbidden = Forbidden {
            game: self,
            keys: [0; FORBIDDEN_KEYS],
            len: 0,
        };
        if self.rules.repetition != Repetition::Forbid {
            return forbidden;
        }
        // The positions that occurred twice with the opponent to move (an
        // odd number of plies back), followed back through the window: each
        // record knows the latest such position of each parity up to it.
        let n = self.history.len() - 1;
        let start = self.current().window_start;
        let mut next = self.current().last_repeated[(n + 1) % 2];
        while let Some(k) = next.filter(|&k| k >= start) {
            if forbidden.len == FORBIDDEN_KEYS {
                forbidden.len = usize::MAX;
                break;
            }
            forbidden.keys[forbidden.len] = self.history[k].key;
            forbidden.len += 1;
            next = k
                .checked_sub(1)
                .and_then(|j| self.history[j].last_repeated[k % 2]);
        }
        forbidden
    }

    /// Every legal move: the position's moves less those forbidden by repetition.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = self.position.generate(&self.rules);
        let forbidden = self.forbidden();
        if !forbidden.is_empty() {
            list.retain(|m| !forbidden.contains(m));
        }
        list
    }

    /// Whether there is any legal move, found without listing them where
    /// repetition cannot forbid one.
    #[inline]
    pub fn has_legal_move(&self) -> bool {
        let forbidden = self.forbidden();
        if !forbidden.is_empty() {
            let moves = self.position.generate(&self.rules);
            moves.iter().any(|&m| !forbidden.contains(m))
        } else {
            self.position.has_move(&self.rules)
        }
    }

    /// How many legal moves there are (the fast path of perft's last ply).
    #[inline]
    pub fn count_legal_moves(&self) -> u64 {
        if self.repetition_may_forbid() {
            self.legal_moves().len() as u64
        } else {
            self.position.count_moves(&self.rules)
        }
    }

    /// Whether some move here might be forbidden by repetition: only if a position
    /// in the window since the last capture has already occurred twice.
    #[inline]
    pub fn repetition_may_forbid(&self) -> bool {
        let cur = self.current();
        self.rules.repetition == Repetition::Forbid
            && cur
                .last_repeated
                .iter()
                .any(|&last| last.is_some_and(|i| i >= cur.window_start))
    }

    /// Whether `m` is legal here.
    pub fn is_legal(&self, m: Move) -> bool {
        self.position.generate(&self.rules).contains(&m) && !self.would_repeat_third(m)
    }

    /// Plays `m`, which must be legal (see [`Game::play_text`] for unchecked input).
    #[inline]
    pub fn make(&mut self, m: Move) {
        self.undo.push((self.position, m));
        self.position.make(m);
        let n = self.history.len();
        let prev = self.history[n - 1];
        let key = self.position.key();
        let window_start = if self.position.plies_since_capture() == 0 {
            n
        } else {
            prev.window_start
        };
        let mut occurrences = 1;
        let mut j = n as isize - 2;
        while j >= window_start as isize {
            let r = &self.history[j as usize];
            if r.key == key {
                occurrences = r.occurrences.saturating_add(1);
                break;
            }
            j -= 2;
        }
        let mut last_repeated = prev.last_repeated;
        if occurrences >= 2 {
            last_repeated[n % 2] = Some(n);
        }
        self.history.push(HistoryEntry {
            key,
            occurrences,
            window_start,
            last_repeated,
        });
    }

    /// Passes the turn, for search's null-move pruning. A pass is no move of the
    /// game: the repetition window restarts after it, and [`Game::unmake`] takes it back.
    pub fn make_null(&mut self) {
        self.undo.push((self.position, Move::NULL));
        self.position.make_null();
        let n = self.history.len();
        let prev = self.history[n - 1];
        self.history.push(HistoryEntry {
            key: self.position.key(),
            occurrences: 1,
            window_start: n,
            last_repeated: prev.last_repeated,
        });
    }

    /// Takes back the last move made.
    #[inline]
    pub fn unmake(&mut self) {
        self.position = self.undo.pop().expect("unmake without a move").0;
        self.history.pop();
    }

    /// Reads a move in protocol notation and plays it if it is legal here.
    pub fn play_text(&mut self, text: &str) -> Result<Move, MoveError> {
        let m: Move = text.parse().map_err(MoveError::Malformed)?;
        self.play(m)?;
        Ok(m)
    }

    /// Plays `m` if it is legal here; if not, says why and changes nothing.
    pub fn play(&mut self, m: Move) -> Result<(), MoveError> {
        let illegal = |why: Illegal| MoveError::Illegal {
            text: m.to_string(),
            why,
        };
        if let Some(outcome) = self.outcome() {
            return Err(illegal(Illegal::GameOver(outcome)));
        }
        if m.is_null() {
            return Err(illegal(Illegal::NullMove));
        }
        let side = self.position.side_to_move();
        match self.position.piece_at(m.from()) {
            None => return Err(illegal(Illegal::NoPiece(m.from()))),
            Some(p) if p.side != side => {
                return Err(illegal(Illegal::NotYourPiece {
                    square: m.from(),
                    side,
                }));
            }
            Some(_) => {}
        }
        if !self.position.generate(&self.rules).contains(&m) {
            return Err(illegal(Illegal::NotAllowed));
        }
        if self.would_repeat_third(m) {
            return Err(illegal(Illegal::ThirdRepetition));
        }
        self.make(m);
        Ok(())
    }

    /// The result if the game is over, checked in the order of `docs/rules.md`: den,
    /// no pieces, no legal move, repetition draw, no-capture draw.
    pub fn outcome(&self) -> Option<Outcome> {
        let pos = &self.position;
        if let Some(winner) = pos.den_winner() {
            return Some(Outcome::Win {
                winner,
                reason: WinReason::Den,
            });
        }
        let to_move = pos.side_to_move();
        for side in [to_move, to_move.opponent()] {
            if pos.occupied(side) == 0 {
                return Some(Outcome::Win {
                    winner: side.opponent(),
                    reason: WinReason::AllCaptured,
                });
            }
        }
        if self.legal_moves().is_empty() {
            return Some(Outcome::Win {
                winner: to_move.opponent(),
                reason: WinReason::NoLegalMove,
            });
        }
        self.draw_reason().map(Outcome::Draw)
    }

    /// The draw by rule that holds here, if any (repetition, then no-capture
    /// limit); the caller has checked that the game is not already won.
    #[inline]
    pub fn draw_reason(&self) -> Option<DrawReason> {
        if self.rules.repetition == Repetition::Draw && self.current().occurrences >= 3 {
            return Some(DrawReason::Repetition);
        }
        let limit = self.rules.no_capture_limit;
        if limit > 0 && self.position.plies_since_capture() >= limit {
            return Some(DrawReason::NoCaptureLimit);
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::position::START_FEN;

    #[test]
    fn a_bad_move_of_a_list_keeps_its_place_and_its_cause() {
        let error = Game::from_fen_and_moves(Rules::default(), START_FEN, &["g3g4", "zz"])
            .map(|_| ())
            .unwrap_err();
        assert_eq!(
            error.to_string(),
            "move 2 of the list: 'zz' is not a move (origin and target square, e.g. g3g4)"
        );
        let cause = std::error::Error::source(&error).and_then(|e| e.downcast_ref::<MoveError>());
        assert_eq!(
            cause,
            Some(&MoveError::Malformed(MoveParseError("zz".into())))
        );
    }

    /// The gathered positions answer as the scan of the window does, in
    /// random shuffles where many positions occur twice (more than
    /// `FORBIDDEN_KEYS`), across passes, and only under `forbid`.
    #[test]
    fn forbidden_moves_agree_with_a_scan_of_the_window() {
        let mut rng = crate::util::rng::SplitMix64::new(29);
        let mut overflowed = false;
        let mut forbade = 0;
        for repetition in [Repetition::Forbid, Repetition::Draw] {
            let rules = Rules {
                repetition,
                ..Rules::default()
            };
            // Three pieces far apart: shuffles repeat positions often.
            let start: Position = "l6/7/7/7/7/7/7/7/5TE w 0 1".parse().unwrap();
            let mut game = Game::new(rules, start);
            for step in 0..600 {
                let forbidden = game.forbidden();
                overflowed |= forbidden.len == usize::MAX;
                let moves = game.position().generate(&rules);
                for &m in moves.iter() {
                    let scanned = repetition == Repetition::Forbid
                        && game.repetition_may_forbid()
                        && game.position_twice_after(m);
                    assert_eq!(forbidden.contains(m), scanned, "{m} at step {step}");
                    assert_eq!(game.would_repeat_third(m), scanned);
                    forbade += scanned as usize;
                }
                let legal = game.legal_moves();
                assert_eq!(game.has_legal_move(), !legal.is_empty());
                let quiet: Vec<Move> = legal
                    .iter()
                    .copied()
                    .filter(|&m| !game.position().is_capture(m))
                    .collect();
                // Mostly back to a position seen before, to pile repetitions up.
                let seen: Vec<Move> = quiet
                    .iter()
                    .copied()
                    .filter(|&m| {
                        let key = game.position().key_after(m);
                        game.history.iter().any(|r| r.key == key)
                    })
                    .collect();
                let pool = if !seen.is_empty() && rng.below(10) < 8 {
                    &seen
                } else {
                    &quiet
                };
                if pool.is_empty() || step % 250 == 249 {
                    game.make_null();
                } else {
                    game.make(pool[rng.below(pool.len())]);
                }
            }
        }
        assert!(
            overflowed && forbade >= 20,
            "{forbade} forbidden, overflowed {overflowed}"
        );
    }
}
