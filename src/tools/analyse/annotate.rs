//! Turning the searches of a game's positions into notes on its moves: in the
//! position before each move, the engine's choice and its score, the played
//! move's score at the same depth, how much less it is (the drop), and whether
//! that makes the move a blunder. Both scores come from the same position and
//! depth, so the engine's own choice drops nothing by construction.

use super::pool::Answer;
use crate::engine::score::MATE_BOUND;
use crate::rules::{Game, Move, Outcome, Side};
use crate::tools::pgn::read::GameSpec;

/// Mates count as this many centipawns when measuring a drop: more than any
/// evaluation, so that throwing away a won game, or walking into a lost one,
/// is always past the threshold.
pub const MATE_CP: i32 = 10_000;

/// Centipawns lost past which a move is a blunder unless told otherwise
/// (`analyse --blunder`, the GUI's review).
pub const DEFAULT_BLUNDER_CP: u32 = 150;

/// Centipawns lost past which a move is an inaccuracy, then a mistake, as
/// the GUI's review marks them (a blunder is past the caller's threshold,
/// `analyse --blunder`).
pub const INACCURACY_CP: i32 = 50;
/// Centipawns lost past which a move is a mistake (see [`INACCURACY_CP`]).
pub const MISTAKE_CP: i32 = 100;

/// How bad a move other than the engine's choice is, by what it lost.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Judgement {
    /// Lost more than [`INACCURACY_CP`].
    Inaccuracy,
    /// Lost more than [`MISTAKE_CP`].
    Mistake,
    /// Lost more than the blunder threshold.
    Blunder,
}

impl Judgement {
    /// The judgement of a move that lost `drop` centipawns (the engine's own
    /// choice loses nothing and gets none); `blunder_cp` is the blunder
    /// threshold, which caps the two below it.
    pub fn of(drop: i32, engine_choice: bool, blunder_cp: i32) -> Option<Judgement> {
        if engine_choice {
            None
        } else if drop > blunder_cp {
            Some(Judgement::Blunder)
        } else if drop > MISTAKE_CP.min(blunder_cp) {
            Some(Judgement::Mistake)
        } else if drop > INACCURACY_CP.min(blunder_cp) {
            Some(Judgement::Inaccuracy)
        } else {
            None
        }
    }

    /// `inaccuracy`, `mistake` or `blunder`.
    pub fn name(self) -> &'static str {
        match self {
            Judgement::Inaccuracy => "inaccuracy",
            Judgement::Mistake => "mistake",
            Judgement::Blunder => "blunder",
        }
    }
}

/// What one move of a game gets.
#[derive(Clone, Debug)]
pub struct PlyNote {
    /// 1-based ply of the game.
    pub ply: usize,
    /// The move number the position before the move carries.
    pub move_number: u32,
    /// Who played the move.
    pub side: Side,
    /// The position before the move.
    pub fen: String,
    /// The move played in the game (compared with the engine's choice).
    pub played: Move,
    /// The engine's choice in the position before.
    pub best: Move,
    /// The engine's line from the position before.
    pub pv: Vec<Move>,
    /// Depth the position before was searched to.
    pub depth: i32,
    /// The engine's choice's score in the position before the move, from the
    /// mover's view (internal units).
    pub before: i32,
    /// The played move's score in the same position at the same depth, from
    /// the mover's view (internal units): `before` when it is the engine's choice.
    pub after: i32,
    /// How much the move lost, in centipawns (mates as [`MATE_CP`]); never negative.
    pub drop: i32,
    /// Whether the drop passed the threshold on a move other than the engine's.
    pub blunder: bool,
    /// How bad the move is, if it is more than a little worse than the
    /// engine's choice ([`Judgement::of`]).
    pub judgement: Option<Judgement>,
}

/// A game with a note on each move.
#[derive(Clone, Debug)]
pub struct GameNotes {
    /// One note per move, in order.
    pub plies: Vec<PlyNote>,
    /// How the game stands after its last move, if it is over.
    pub outcome: Option<Outcome>,
    /// The score of the last position, from the side to move's view (internal units).
    pub final_score: i32,
}

impl GameNotes {
    /// Blunders by each side, Red first.
    pub fn blunders(&self) -> [usize; 2] {
        let mut count = [0; 2];
        for p in self.plies.iter().filter(|p| p.blunder) {
            count[p.side.index()] += 1;
        }
        count
    }
}

/// A score in centipawns for measuring drops, mates as ±[`MATE_CP`].
pub fn centipawns(score: i32) -> i32 {
    if score >= MATE_BOUND {
        MATE_CP
    } else if score <= -MATE_BOUND {
        -MATE_CP
    } else {
        score.clamp(-MATE_CP, MATE_CP)
    }
}

/// Notes on every move of `spec`, from the searches of its positions: one per
/// position before each move (with the played move's own search where it is
/// not the engine's choice), then the last position (`results.len()` is the
/// number of moves plus one). `None` if the game or results do not fit.
pub fn annotate(spec: &GameSpec, results: &[&Answer], blunder_cp: i32) -> Option<GameNotes> {
    let moves = &spec.start.moves;
    if results.len() != moves.len() + 1 {
        return None;
    }
    let no_moves: &[&str] = &[];
    let mut game = Game::from_fen_and_moves(spec.rules, &spec.start.fen, no_moves).ok()?;
    let mut plies = Vec::with_capacity(moves.len());
    for (i, text) in moves.iter().enumerate() {
        let pos = game.position();
        let (side, move_number, fen) = (pos.side_to_move(), pos.move_number(), pos.fen());
        let played = game.play_text(text).ok()?;
        let before_search = &results[i].search;
        let before = before_search.score;
        let after = if played == before_search.best_move {
            before
        } else {
            results[i].played.as_ref()?.score
        };
        // A search of one root move may still see a little more than the full
        // one did (pruning differs): never a gain.
        let drop = (centipawns(before) - centipawns(after)).max(0);
        let judgement = Judgement::of(drop, played == before_search.best_move, blunder_cp);
        plies.push(PlyNote {
            ply: i + 1,
            move_number,
            side,
            fen,
            played,
            best: before_search.best_move,
            pv: before_search.pv.clone(),
            depth: before_search.depth,
            before,
            after,
            drop,
            blunder: judgement == Some(Judgement::Blunder),
            judgement,
        });
    }
    Some(GameNotes {
        plies,
        outcome: game.outcome(),
        final_score: results[moves.len()].search.score,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::score::MATE;

    #[test]
    fn judgements_grow_with_the_drop() {
        assert_eq!(Judgement::of(500, true, 200), None);
        assert_eq!(Judgement::of(40, false, 200), None);
        assert_eq!(Judgement::of(60, false, 200), Some(Judgement::Inaccuracy));
        assert_eq!(Judgement::of(150, false, 200), Some(Judgement::Mistake));
        assert_eq!(Judgement::of(201, false, 200), Some(Judgement::Blunder));
        // A low blunder threshold wins over the two below it.
        assert_eq!(Judgement::of(60, false, 30), Some(Judgement::Blunder));
    }

    #[test]
    fn mates_count_as_large_drops() {
        assert_eq!(centipawns(MATE - 5) - centipawns(-40), MATE_CP + 40);
        assert_eq!(centipawns(MATE - 5) - centipawns(MATE - 9), 0);
        assert_eq!(centipawns(123), 123);
    }
}
