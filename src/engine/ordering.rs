//! Move ordering: which move a node tries first. The table's move, then
//! captures (most valuable victim, least valuable attacker), then the two
//! killers of the ply, then quiet moves by their history. What the search
//! learns for ordering (killers, history) lives here too, so that the search
//! only says when a move refuted a node.

use super::params::{
    ORDER_CAPTURE, ORDER_KILLER, ORDER_TT_MOVE, ORDER_VICTIM_WEIGHT, SearchParams,
};
use crate::rules::{MAX_MOVES, Move, MoveList, PIECES, Position, Rules, SQUARES};

/// What one search thread has learnt about quiet moves: two killers per ply
/// (quiet moves that refuted a sibling node) and a history score per piece
/// and target square.
pub struct Heuristics {
    killers: Vec<[Move; 2]>,
    history: Box<[[i32; SQUARES]; PIECES]>,
}

impl Heuristics {
    /// Empty heuristics for a search at most `plies` deep.
    pub fn new(plies: usize) -> Heuristics {
        Heuristics {
            killers: vec![[Move::NULL; 2]; plies],
            history: Box::new([[0; SQUARES]; PIECES]),
        }
    }

    /// Whether `mv` is one of the killers at `ply`.
    #[inline]
    pub fn is_killer(&self, ply: usize, mv: Move) -> bool {
        self.killers[ply].contains(&mv)
    }

    /// The history score of `mv` in `pos`, within ±[`SearchParams::history_limit`].
    #[inline]
    pub fn history(&self, pos: &Position, mv: Move) -> i32 {
        let piece = pos.piece_at(mv.from()).expect("a move has a mover");
        self.history[piece.index()][mv.to().index()]
    }

    /// A quiet move `mv` refuted the node at `ply`, searched `depth` deep:
    /// it becomes the first killer and gains history; the quiet moves tried
    /// before it (`tried`, which ends with `mv`) lose history, by the amounts
    /// of `params`.
    pub fn reward_quiet(
        &mut self,
        params: &SearchParams,
        pos: &Position,
        mv: Move,
        ply: usize,
        depth: i32,
        tried: &[Move],
    ) {
        let killers = &mut self.killers[ply];
        if killers[0] != mv {
            killers[1] = killers[0];
            killers[0] = mv;
        }
        let bonus = (depth * depth).min(params.history_bonus_max());
        let limit = params.history_limit();
        for &m in tried {
            let piece = pos.piece_at(m.from()).expect("a move has a mover").index();
            let h = &mut self.history[piece][m.to().index()];
            let delta = if m == mv { bonus } else { -bonus };
            // Gravity keeps the table within ±limit.
            *h += delta - *h * delta.abs() / limit;
        }
    }

    /// `moves` of `pos` at `ply`, scored for ordering with `tt_move` first.
    pub fn order(
        &self,
        pos: &Position,
        rules: &Rules,
        moves: &MoveList,
        tt_move: Move,
        ply: usize,
    ) -> OrderedMoves {
        let mut ordered = OrderedMoves {
            moves: *moves,
            scores: [0; MAX_MOVES],
            len: moves.len(),
        };
        let killers = self.killers[ply];
        for (i, &m) in moves.iter().enumerate() {
            let mover = pos.piece_at(m.from()).expect("a move has a mover");
            ordered.scores[i] = if m == tt_move {
                ORDER_TT_MOVE
            } else if let Some(victim) = pos.piece_at(m.to()) {
                ORDER_CAPTURE + rules.rank(victim.animal) as i32 * ORDER_VICTIM_WEIGHT
                    - rules.rank(mover.animal) as i32
            } else if killers[0] == m {
                ORDER_KILLER + 1
            } else if killers[1] == m {
                ORDER_KILLER
            } else {
                self.history[mover.index()][m.to().index()]
            };
        }
        ordered
    }
}

/// Moves with ordering scores, picked best-first lazily (most nodes cut
/// early, so sorting them all would be wasted).
pub struct OrderedMoves {
    moves: MoveList,
    scores: [i32; MAX_MOVES],
    len: usize,
}

impl OrderedMoves {
    /// How many moves there are.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there are none.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Swaps the best of the moves from `i` on into place `i` and answers it;
    /// called with `i` = 0, 1, 2, ... it yields the moves best first.
    #[inline]
    pub fn pick(&mut self, i: usize) -> Move {
        let mut best = i;
        for j in i + 1..self.len {
            if self.scores[j] > self.scores[best] {
                best = j;
            }
        }
        self.scores.swap(i, best);
        self.moves.as_mut_slice().swap(i, best);
        self.moves[i]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Game;

    #[test]
    fn the_table_move_comes_first_then_captures_then_killers() {
        let game = Game::new(Rules::default(), Position::startpos());
        let pos = *game.position();
        let moves = game.legal_moves();
        let mut h = Heuristics::new(4);
        let tt_move = moves[moves.len() - 1];
        let killer = moves[1];
        let params = SearchParams::default();
        h.reward_quiet(&params, &pos, killer, 0, 3, &[moves[0], killer]);
        assert!(h.is_killer(0, killer) && !h.is_killer(1, killer));
        assert!(h.history(&pos, killer) > 0 && h.history(&pos, moves[0]) < 0);
        let mut order = h.order(&pos, &Rules::default(), &moves, tt_move, 0);
        assert_eq!(order.len(), moves.len());
        assert_eq!(order.pick(0), tt_move);
        assert_eq!(order.pick(1), killer);
        let rest: Vec<Move> = (2..order.len()).map(|i| order.pick(i)).collect();
        assert_eq!(rest.len() + 2, moves.len());
        assert!(!rest.contains(&tt_move) && !rest.contains(&killer));
        // The move that lost history comes last among the quiet ones.
        assert_eq!(rest.last(), Some(&moves[0]));
    }
}
