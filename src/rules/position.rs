//! A position: where the pieces stand, whose turn it is, the two counters, and an
//! incrementally kept Zobrist key. Parsing and printing the FEN-like notation,
//! legal move generation under any [`Rules`], and making a move.
//!
//! The position knows nothing of the game's history; repetition lives in
//! [`crate::rules::Game`].

use super::board::*;
use super::movement::{jump_targets, standable, step_targets};
use super::variant::Rules;
use crate::util::words::count;
use std::fmt;
use std::str::FromStr;

/// The start position in the notation of `docs/rules.md`.
pub const START_FEN: &str = "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w 0 1";

/// A move: origin and target square packed as `from | to << 6`. `Move::NULL` (0,
/// printed `0000`) is no move, since a1 to a1 is never legal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Move(u16);

impl Move {
    /// No move: what `bestmove` answers when there is nothing to play.
    pub const NULL: Move = Move(0);

    /// The move from `from` to `to`.
    #[inline]
    pub const fn new(from: Square, to: Square) -> Move {
        Move(from.index() as u16 | (to.index() as u16) << 6)
    }

    /// Where the moving piece stands.
    #[inline]
    pub const fn from(self) -> Square {
        Square::from_index((self.0 & 63) as u8)
    }

    /// Where the moving piece goes.
    #[inline]
    pub const fn to(self) -> Square {
        Square::from_index((self.0 >> 6) as u8)
    }

    /// Whether this is the null move.
    #[inline]
    pub const fn is_null(self) -> bool {
        self.0 == 0
    }

    /// The packed 12-bit form, for transposition-table entries.
    #[inline]
    pub const fn bits(self) -> u16 {
        self.0
    }

    /// The move packed by [`Move::bits`]; `None` if the bits name no squares.
    #[inline]
    pub fn from_bits(bits: u16) -> Option<Move> {
        let (from, to) = (bits & 63, (bits >> 6) & 63);
        (bits < 1 << 12 && (from as usize) < SQUARES && (to as usize) < SQUARES)
            .then_some(Move(bits))
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_null() {
            f.write_str("0000")
        } else {
            write!(f, "{}{}", self.from(), self.to())
        }
    }
}

/// Why a move's text was rejected before looking at any position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("'{0}' is not a move (origin and target square, e.g. g3g4)")]
pub struct MoveParseError(pub String);

impl FromStr for Move {
    type Err = MoveParseError;

    /// Reads `g3g4` or `0000`; a move onto its own square (`a1a1`) is not a
    /// move. Whether the move is legal is the game's business.
    fn from_str(s: &str) -> Result<Move, MoveParseError> {
        let err = || MoveParseError(s.to_string());
        if s == "0000" {
            return Ok(Move::NULL);
        }
        if s.len() != 4 || !s.is_ascii() {
            return Err(err());
        }
        let from: Square = s[..2].parse().map_err(|_| err())?;
        let to: Square = s[2..].parse().map_err(|_| err())?;
        // A move goes somewhere; `a1a1` would also pack to the null move's
        // bits and read back as `0000`.
        if from == to {
            return Err(err());
        }
        Ok(Move::new(from, to))
    }
}

/// The most moves a position can have: eight pieces, four directions each.
pub const MAX_MOVES: usize = 32;

/// The moves of one position, in a fixed-size array (no allocation in search).
#[derive(Clone, Copy)]
pub struct MoveList {
    moves: [Move; MAX_MOVES],
    len: usize,
}

impl MoveList {
    /// An empty list; it holds up to [`MAX_MOVES`] without allocating.
    pub const fn new() -> MoveList {
        MoveList {
            moves: [Move::NULL; MAX_MOVES],
            len: 0,
        }
    }

    #[inline]
    fn push(&mut self, m: Move) {
        self.moves[self.len] = m;
        self.len += 1;
    }

    /// Keeps only the moves for which `keep` answers true, in order.
    pub fn retain(&mut self, mut keep: impl FnMut(Move) -> bool) {
        let mut n = 0;
        for i in 0..self.len {
            if keep(self.moves[i]) {
                self.moves[n] = self.moves[i];
                n += 1;
            }
        }
        self.len = n;
    }

    /// The moves as a slice.
    #[inline]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }

    /// The moves as a mutable slice (for ordering in place).
    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        &mut self.moves[..self.len]
    }
}

impl Default for MoveList {
    fn default() -> MoveList {
        MoveList::new()
    }
}

impl std::ops::Deref for MoveList {
    type Target = [Move];
    fn deref(&self) -> &[Move] {
        self.as_slice()
    }
}

impl fmt::Debug for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

/// Random keys for Zobrist hashing, fixed at compile time so that keys are the
/// same in every run (the bench and any stored key depend on it).
mod zobrist {
    use super::{PIECES, SQUARES};

    const fn splitmix(state: u64) -> (u64, u64) {
        let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = s;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        (s, z ^ (z >> 31))
    }

    /// One key per piece (16) and square (63).
    pub const PIECE_SQUARE: [[u64; SQUARES]; PIECES] = {
        let mut t = [[0; SQUARES]; PIECES];
        let mut state = 0x0064_6F75_7368_6F75_u64;
        let mut p = 0;
        while p < 16 {
            let mut s = 0;
            while s < 63 {
                let (next, k) = splitmix(state);
                state = next;
                t[p][s] = k;
                s += 1;
            }
            p += 1;
        }
        t
    };

    /// Folded in when Blue is to move.
    pub const BLUE_TO_MOVE: u64 = splitmix(0x5EED).1;
}

/// Why a position's text was rejected. Ranks are numbered as on the board (9 is
/// the first field of the text).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FenError {
    /// The text is empty.
    #[error("empty position")]
    Empty,
    /// The board field does not have nine ranks.
    #[error(
        "board field has {}, expected 9 separated by '/'",
        count(*.found as u64, "rank", "ranks")
    )]
    RankCount {
        /// How many `/`-separated ranks were found.
        found: usize,
    },
    /// A rank does not describe exactly seven squares.
    #[error("rank {rank} describes {width} squares, expected 7")]
    RankWidth {
        /// The rank (1..9; rank 1, Red's back rank, comes last in the FEN).
        rank: u8,
        /// How many squares it describes.
        width: usize,
    },
    /// A character that is neither an animal letter nor a digit 1-7.
    #[error(
        "rank {rank}: unknown character '{}' (animals are E L T P W D C R, lowercase for blue; digits 1-7 count empty squares)",
        .ch.escape_default()
    )]
    UnknownChar {
        /// The rank (1..9; rank 1, Red's back rank, comes last in the FEN).
        rank: u8,
        /// The character, as written.
        ch: char,
    },
    /// The same animal twice on one side.
    #[error("second '{letter}' on {square}: one of each animal per side")]
    DuplicateAnimal {
        /// The animal's letter as written.
        letter: char,
        /// The second square it was found on.
        square: Square,
    },
    /// An animal other than the rat on a water square.
    #[error("'{letter}' on {square} is in water: only a rat may be there")]
    NotRatInWater {
        /// The animal's letter as written.
        letter: char,
        /// The water square it stands on.
        square: Square,
    },
    /// A piece standing in its own den.
    #[error("'{letter}' on {square} stands in its own den")]
    PieceInOwnDen {
        /// The animal's letter as written.
        letter: char,
        /// The den it stands in (its own side's).
        square: Square,
    },
    /// Both dens are entered: no game reaches that.
    #[error("both dens are entered")]
    BothDensEntered,
    /// The side-to-move field is missing.
    #[error("side to move missing (w, r or b)")]
    MissingSide,
    /// The side-to-move field is not `w`, `r` or `b`.
    #[error("side to move '{0}': expected w, r or b")]
    BadSide(String),
    /// A counter is not a number in range.
    #[error("{field} '{value}' is not a number in range")]
    BadCounter {
        /// Which counter: `plies since capture` or `move number`.
        field: &'static str,
        /// What was written, as is.
        value: String,
    },
    /// More than four fields.
    #[error("unexpected field '{0}' after the move number")]
    ExtraField(String),
}

const NO_PIECE: u8 = 0xFF;
const NO_SQUARE: u8 = 0xFF;

/// A position of the game. Cheap to copy: search and perft copy-make.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Position {
    /// Piece index (see [`Piece::index`]) on each square, or `NO_PIECE`.
    board: [u8; SQUARES],
    /// Square index of each piece, or `NO_SQUARE` once taken.
    piece_square: [u8; PIECES],
    /// Each side's occupied squares.
    occupied: [Bitboard; 2],
    side_to_move: Side,
    plies_since_capture: u32,
    move_number: u32,
    key: u64,
}

impl Position {
    /// The start position of every game: [`START_FEN`].
    pub fn startpos() -> Position {
        START_FEN.parse().expect("the start position parses")
    }

    /// An empty board with `side` to move; add pieces with [`Position::put`].
    pub fn empty(side: Side) -> Position {
        let mut p = Position {
            board: [NO_PIECE; SQUARES],
            piece_square: [NO_SQUARE; PIECES],
            occupied: [0; 2],
            side_to_move: side,
            plies_since_capture: 0,
            move_number: 1,
            key: 0,
        };
        p.key = p.compute_key();
        p
    }

    /// Puts `piece` on the empty square `sq`, keeping the key. The caller keeps the
    /// position valid (the FEN parser checks; tests build positions with it).
    pub fn put(&mut self, piece: Piece, sq: Square) {
        debug_assert!(self.board[sq.index()] == NO_PIECE);
        debug_assert!(self.piece_square[piece.index()] == NO_SQUARE);
        self.board[sq.index()] = piece.index() as u8;
        self.piece_square[piece.index()] = sq.index() as u8;
        self.occupied[piece.side.index()] |= sq.bit();
        self.key ^= zobrist::PIECE_SQUARE[piece.index()][sq.index()];
    }

    /// The side to move.
    #[inline]
    pub fn side_to_move(&self) -> Side {
        self.side_to_move
    }

    /// Plies since the last capture (the no-capture counter).
    #[inline]
    pub fn plies_since_capture(&self) -> u32 {
        self.plies_since_capture
    }

    /// The move number (starts at 1, grows after Blue moves).
    #[inline]
    pub fn move_number(&self) -> u32 {
        self.move_number
    }

    /// The Zobrist key of board and side to move (not the counters).
    #[inline]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// The piece on `sq`, if any.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        let p = self.board[sq.index()];
        (p != NO_PIECE).then(|| piece_from_index(p))
    }

    /// Where `piece` stands, if it is still on the board.
    #[inline]
    pub fn square_of(&self, piece: Piece) -> Option<Square> {
        let s = self.piece_square[piece.index()];
        (s != NO_SQUARE).then(|| Square::from_index(s))
    }

    /// The squares held by `side`.
    #[inline]
    pub fn occupied(&self, side: Side) -> Bitboard {
        self.occupied[side.index()]
    }

    /// The side with a piece in the enemy den, if any: that side has won.
    #[inline]
    pub fn den_winner(&self) -> Option<Side> {
        if self.occupied[0] & DEN[1] != 0 {
            Some(Side::Red)
        } else if self.occupied[1] & DEN[0] != 0 {
            Some(Side::Blue)
        } else {
            None
        }
    }

    /// Whether the game is already decided on the board: a den entered or a side
    /// with no pieces. Such a position has no moves.
    #[inline]
    pub fn is_decided(&self) -> bool {
        self.den_winner().is_some() || self.occupied[0] == 0 || self.occupied[1] == 0
    }

    /// The key computed from scratch (the incremental one must always equal it).
    pub fn compute_key(&self) -> u64 {
        let mut k = 0;
        for (i, &p) in self.board.iter().enumerate() {
            if p != NO_PIECE {
                k ^= zobrist::PIECE_SQUARE[p as usize][i];
            }
        }
        if self.side_to_move == Side::Blue {
            k ^= zobrist::BLUE_TO_MOVE;
        }
        k
    }

    /// The key the position would have after `m` (a legal move), without making it.
    #[inline]
    pub fn key_after(&self, m: Move) -> u64 {
        let (from, to) = (m.from().index(), m.to().index());
        let p = self.board[from] as usize;
        let mut k = self.key
            ^ zobrist::BLUE_TO_MOVE
            ^ zobrist::PIECE_SQUARE[p][from]
            ^ zobrist::PIECE_SQUARE[p][to];
        let captured = self.board[to];
        if captured != NO_PIECE {
            k ^= zobrist::PIECE_SQUARE[captured as usize][to];
        }
        k
    }

    /// Whether `m` takes a piece.
    #[inline]
    pub fn is_capture(&self, m: Move) -> bool {
        self.board[m.to().index()] != NO_PIECE
    }

    /// Plays `m`, which must be legal here (from [`Position::generate`]).
    #[inline]
    pub fn make(&mut self, m: Move) {
        let (from, to) = (m.from().index(), m.to().index());
        let p = self.board[from];
        debug_assert!(p != NO_PIECE, "no piece on {} for {m}", m.from());
        let us = self.side_to_move.index();
        let captured = self.board[to];
        self.key ^= zobrist::BLUE_TO_MOVE
            ^ zobrist::PIECE_SQUARE[p as usize][from]
            ^ zobrist::PIECE_SQUARE[p as usize][to];
        if captured != NO_PIECE {
            self.key ^= zobrist::PIECE_SQUARE[captured as usize][to];
            self.occupied[us ^ 1] ^= 1 << to;
            self.piece_square[captured as usize] = NO_SQUARE;
            self.plies_since_capture = 0;
        } else {
            self.plies_since_capture = self.plies_since_capture.saturating_add(1);
        }
        self.board[to] = p;
        self.board[from] = NO_PIECE;
        self.piece_square[p as usize] = to as u8;
        self.occupied[us] ^= (1 << from) | (1 << to);
        if self.side_to_move == Side::Blue {
            self.move_number = self.move_number.saturating_add(1);
        }
        self.side_to_move = self.side_to_move.opponent();
    }

    /// Passes the turn (search's null move): only the side to move and key change.
    #[inline]
    pub fn make_null(&mut self) {
        self.key ^= zobrist::BLUE_TO_MOVE;
        self.side_to_move = self.side_to_move.opponent();
    }

    /// Whether `attacker`, standing on `from`, may take `defender` on `to`
    /// (squares next to each other or a jump apart), per `docs/rules.md` "Capture".
    #[inline]
    pub fn can_capture(
        rules: &Rules,
        attacker: Piece,
        from: Square,
        defender: Piece,
        to: Square,
    ) -> bool {
        let us = attacker.side.index();
        let weakening_for_attacker = if rules.universal_traps {
            ALL_TRAPS
        } else {
            TRAPS[us ^ 1]
        };
        if rules.trapped_attacker_powerless && weakening_for_attacker & from.bit() != 0 {
            return false;
        }
        let weakening_for_defender = if rules.universal_traps {
            ALL_TRAPS
        } else {
            TRAPS[us]
        };
        if weakening_for_defender & to.bit() != 0 {
            return true;
        }
        let (a, d) = (attacker.animal, defender.animal);
        let from_water = WATER & from.bit() != 0;
        if from_water != (WATER & to.bit() != 0) {
            // Only a rat crosses the bank; only the switches let it take across it.
            return match (a, d) {
                (Animal::Rat, Animal::Rat) => rules.rat_bank_capture,
                (Animal::Rat, Animal::Elephant) => from_water && rules.rat_water_elephant,
                _ => false,
            };
        }
        match (a, d) {
            (Animal::Elephant, Animal::Rat) => false,
            (Animal::Rat, Animal::Elephant) => true,
            _ => rules.rank(a) >= rules.rank(d),
        }
    }

    /// Feeds every legal move (repetition aside, which is the game's rule) to
    /// `sink`: quiet targets as bitboards, captures one by one once allowed.
    #[inline(always)]
    fn for_each_move(&self, rules: &Rules, us: Side, sink: &mut impl MoveSink) {
        if self.is_decided() {
            return;
        }
        let own = self.occupied[us.index()];
        let enemy = self.occupied[us.opponent().index()];
        let blockers = self.jump_blockers(rules, us);
        for from in squares(own) {
            let piece = piece_from_index(self.board[from.index()]);
            let targets = self.targets(rules, piece, from, blockers);
            let quiet_targets = targets & !enemy;
            if quiet_targets != 0 {
                sink.quiet(from, quiet_targets);
            }
            for to in squares(targets & enemy) {
                let defender = piece_from_index(self.board[to.index()]);
                if Position::can_capture(rules, piece, from, defender, to) {
                    sink.capture(from, to);
                }
            }
        }
    }

    /// Where `piece`, standing on `from`, may step or jump (`blockers`: the
    /// rats in the way of its side's jumps): never onto its own pieces or
    /// into its own den. An enemy piece there is a capture only if
    /// [`Position::can_capture`] allows it.
    #[inline(always)]
    pub(super) fn targets(
        &self,
        rules: &Rules,
        piece: Piece,
        from: Square,
        blockers: Bitboard,
    ) -> Bitboard {
        let side = piece.side.index();
        let reach =
            step_targets(piece.animal, from) | jump_targets(rules, piece.animal, from, blockers);
        reach & !self.occupied[side] & !DEN[side]
    }

    /// The squares of the rats that stop a jump by `side`.
    #[inline]
    pub(super) fn jump_blockers(&self, rules: &Rules, side: Side) -> Bitboard {
        let rat_bit = |s: Side| {
            let sq = self.piece_square[Piece::new(s, Animal::Rat).index()];
            if sq == NO_SQUARE { 0 } else { 1u64 << sq }
        };
        rules.jump_blockers(rat_bit(side), rat_bit(side.opponent()))
    }

    /// Every legal move here, repetition aside (see [`crate::rules::Game`]).
    /// A decided position (den entered, a side with no pieces) has none.
    pub fn generate(&self, rules: &Rules) -> MoveList {
        let mut list = MoveList::new();
        self.for_each_move(rules, self.side_to_move, &mut list);
        list
    }

    /// How many moves [`Position::generate`] would give, without listing them.
    #[inline]
    pub fn count_moves(&self, rules: &Rules) -> u64 {
        self.count_moves_of(rules, self.side_to_move)
    }

    /// How many moves `side` would have here if it were its turn (mobility).
    #[inline]
    pub fn count_moves_of(&self, rules: &Rules, side: Side) -> u64 {
        let mut counter = MoveCounter(0);
        self.for_each_move(rules, side, &mut counter);
        counter.0
    }

    /// The captures among [`Position::generate`]'s moves, in the same order:
    /// what quiescence searches, without listing the quiet moves it skips.
    pub fn generate_captures(&self, rules: &Rules) -> MoveList {
        let mut captures = CapturesOnly(MoveList::new());
        self.for_each_move(rules, self.side_to_move, &mut captures);
        captures.0
    }

    /// Whether [`Position::generate`] would give any move, found without
    /// listing them: most positions answer at their first piece.
    #[inline]
    pub fn has_move(&self, rules: &Rules) -> bool {
        if self.is_decided() {
            return false;
        }
        let us = self.side_to_move;
        let own = self.occupied[us.index()];
        let enemy = self.occupied[us.opponent().index()];
        let blockers = self.jump_blockers(rules, us);
        for from in squares(own) {
            let piece = piece_from_index(self.board[from.index()]);
            let targets = self.targets(rules, piece, from, blockers);
            if targets & !enemy != 0 {
                return true;
            }
            for to in squares(targets & enemy) {
                let defender = piece_from_index(self.board[to.index()]);
                if Position::can_capture(rules, piece, from, defender, to) {
                    return true;
                }
            }
        }
        false
    }

    /// Whether the side to move has a move into the enemy den (which wins at
    /// once), found without listing the moves. The den is entered by a step
    /// from a square next to it; no jump lands there.
    #[inline]
    pub fn can_enter_den(&self, rules: &Rules) -> bool {
        if self.is_decided() {
            return false;
        }
        let us = self.side_to_move;
        let den = DEN[us.opponent().index()];
        let blockers = self.jump_blockers(rules, us);
        let den_square = den.trailing_zeros() as usize;
        for from in squares(self.occupied[us.index()] & NEIGHBOURS[den_square]) {
            let piece = piece_from_index(self.board[from.index()]);
            if self.targets(rules, piece, from, blockers) & den != 0 {
                return true;
            }
        }
        false
    }

    /// The position turned half a turn with the colours swapped: the same game
    /// seen from the other side (for symmetry tests).
    pub fn mirrored(&self) -> Position {
        let mut p = Position::empty(self.side_to_move.opponent());
        for sq in Square::all() {
            if let Some(piece) = self.piece_at(sq) {
                p.put(
                    Piece::new(piece.side.opponent(), piece.animal),
                    sq.rotated(),
                );
            }
        }
        p.plies_since_capture = self.plies_since_capture;
        p.move_number = self.move_number;
        p
    }

    /// The position in the notation of `docs/rules.md`, counters included.
    pub fn fen(&self) -> String {
        let mut s = String::with_capacity(64);
        for rank in (0..RANKS).rev() {
            let mut empty = 0;
            for file in 0..FILES {
                let sq = Square::new(file, rank).expect("on board");
                match self.piece_at(sq) {
                    Some(p) => {
                        if empty > 0 {
                            s.push((b'0' + empty) as char);
                            empty = 0;
                        }
                        s.push(p.letter());
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                s.push((b'0' + empty) as char);
            }
            if rank > 0 {
                s.push('/');
            }
        }
        format!(
            "{s} {} {} {}",
            self.side_to_move.fen_char(),
            self.plies_since_capture,
            self.move_number
        )
    }
}

/// Where move generation puts what it finds: a list, or only a count.
trait MoveSink {
    /// Moves from `from` to each square of `targets`, none of them a capture.
    fn quiet(&mut self, from: Square, targets: Bitboard);
    /// A capture the rules allow.
    fn capture(&mut self, from: Square, to: Square);
}

impl MoveSink for MoveList {
    #[inline]
    fn quiet(&mut self, from: Square, targets: Bitboard) {
        for to in squares(targets) {
            self.push(Move::new(from, to));
        }
    }

    #[inline]
    fn capture(&mut self, from: Square, to: Square) {
        self.push(Move::new(from, to));
    }
}

/// Keeps the captures only.
struct CapturesOnly(MoveList);

impl MoveSink for CapturesOnly {
    #[inline]
    fn quiet(&mut self, _: Square, _: Bitboard) {}

    #[inline]
    fn capture(&mut self, from: Square, to: Square) {
        self.0.push(Move::new(from, to));
    }
}

struct MoveCounter(u64);

impl MoveSink for MoveCounter {
    #[inline]
    fn quiet(&mut self, _: Square, targets: Bitboard) {
        self.0 += targets.count_ones() as u64;
    }

    #[inline]
    fn capture(&mut self, _: Square, _: Square) {
        self.0 += 1;
    }
}

#[inline]
fn piece_from_index(i: u8) -> Piece {
    Piece::new(
        if i < 8 { Side::Red } else { Side::Blue },
        Animal::from_index((i & 7) as usize),
    )
}

impl FromStr for Position {
    type Err = FenError;

    fn from_str(text: &str) -> Result<Position, FenError> {
        let mut fields = text.split_whitespace();
        let board = fields.next().ok_or(FenError::Empty)?;
        let ranks: Vec<&str> = board.split('/').collect();
        if ranks.len() != RANKS as usize {
            return Err(FenError::RankCount { found: ranks.len() });
        }
        let mut pos = Position::empty(Side::Red);
        for (i, rank_text) in ranks.iter().enumerate() {
            let rank = RANKS - 1 - i as u8;
            let shown = rank + 1;
            let mut file: usize = 0;
            for ch in rank_text.chars() {
                if let Some(d) = ch.to_digit(10).filter(|d| (1..=7).contains(d)) {
                    file += d as usize;
                    continue;
                }
                let piece =
                    Piece::from_letter(ch).ok_or(FenError::UnknownChar { rank: shown, ch })?;
                if file >= FILES as usize {
                    file += 1;
                    continue; // reported as a width error below
                }
                let sq = Square::new(file as u8, rank).expect("checked");
                if pos.square_of(piece).is_some() {
                    return Err(FenError::DuplicateAnimal {
                        letter: ch,
                        square: sq,
                    });
                }
                if standable(piece.animal) & sq.bit() == 0 {
                    return Err(FenError::NotRatInWater {
                        letter: ch,
                        square: sq,
                    });
                }
                if DEN[piece.side.index()] & sq.bit() != 0 {
                    return Err(FenError::PieceInOwnDen {
                        letter: ch,
                        square: sq,
                    });
                }
                pos.put(piece, sq);
                file += 1;
            }
            if file != FILES as usize {
                return Err(FenError::RankWidth {
                    rank: shown,
                    width: file,
                });
            }
        }
        if pos.occupied[0] & DEN[1] != 0 && pos.occupied[1] & DEN[0] != 0 {
            return Err(FenError::BothDensEntered);
        }
        let side = match fields.next() {
            None => return Err(FenError::MissingSide),
            Some("w" | "r" | "W" | "R") => Side::Red,
            Some("b" | "B") => Side::Blue,
            Some(other) => return Err(FenError::BadSide(other.to_string())),
        };
        if side == Side::Blue {
            pos.side_to_move = Side::Blue;
            pos.key ^= zobrist::BLUE_TO_MOVE;
        }
        let counter = |field: &'static str, text: Option<&str>, min: u32| match text {
            None => Ok(None),
            Some(t) => match t.parse::<u32>() {
                Ok(v) if v >= min => Ok(Some(v)),
                _ => Err(FenError::BadCounter {
                    field,
                    value: t.to_string(),
                }),
            },
        };
        if let Some(n) = counter("plies since capture", fields.next(), 0)? {
            pos.plies_since_capture = n;
        }
        if let Some(n) = counter("move number", fields.next(), 1)? {
            pos.move_number = n;
        }
        if let Some(extra) = fields.next() {
            return Err(FenError::ExtraField(extra.to_string()));
        }
        Ok(pos)
    }
}

impl fmt::Display for Position {
    /// The board drawn with rank and file labels; water `~`, traps `#`, dens `*`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in (0..RANKS).rev() {
            write!(f, "{} ", rank + 1)?;
            for file in 0..FILES {
                let sq = Square::new(file, rank).expect("on board");
                let c = match self.piece_at(sq) {
                    Some(p) => p.letter(),
                    None if WATER & sq.bit() != 0 => '~',
                    None if ALL_TRAPS & sq.bit() != 0 => '#',
                    None if (DEN[0] | DEN[1]) & sq.bit() != 0 => '*',
                    None => '.',
                };
                write!(f, " {c}")?;
            }
            writeln!(f)?;
        }
        writeln!(f, "   a b c d e f g")
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({})", self.fen())
    }
}
