//! The board: sides, animals, squares, and the fixed geometry of water, traps,
//! dens and river jumps as 63-bit bitboards.
//!
//! Square index = `rank * 7 + file`, with `a1` = 0 and `g9` = 62. Bit `i` of a
//! [`Bitboard`] is square `i`; bit 63 is always clear.

use std::fmt;
use std::str::FromStr;

/// A set of squares: bit `i` is the square with index `i`.
pub type Bitboard = u64;

/// Number of files (a..g).
pub const FILES: u8 = 7;
/// Number of ranks (1..9).
pub const RANKS: u8 = 9;
/// Number of squares on the board.
pub const SQUARES: usize = 63;
/// Number of pieces, both sides: the range of [`Piece::index`].
pub const PIECES: usize = 16;
/// Every square of the board.
pub const ALL_SQUARES: Bitboard = (1 << SQUARES) - 1;

/// One of the two players. Red moves first and starts at the bottom (ranks 1-3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Side {
    /// Uppercase letters, moves first, den at d1.
    Red = 0,
    /// Lowercase letters, den at d9.
    Blue = 1,
}

impl Side {
    /// Both sides, Red first.
    pub const BOTH: [Side; 2] = [Side::Red, Side::Blue];

    /// The other side: Red for Blue, Blue for Red.
    #[inline]
    pub const fn opponent(self) -> Side {
        match self {
            Side::Red => Side::Blue,
            Side::Blue => Side::Red,
        }
    }

    /// 0 for Red, 1 for Blue: an index into per-side tables.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The protocol letter: `w` for Red (the FEN convention), `b` for Blue.
    pub const fn fen_char(self) -> char {
        match self {
            Side::Red => 'w',
            Side::Blue => 'b',
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Side::Red => "red",
            Side::Blue => "blue",
        })
    }
}

/// The eight animals, weakest first; the discriminant is the default rank minus one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Animal {
    /// Rank 1: swims, and may take the elephant.
    Rat = 0,
    /// Rank 2: no special move.
    Cat = 1,
    /// Rank 3 (4 with `DogOverWolf`).
    Dog = 2,
    /// Rank 4 (3 with `DogOverWolf`).
    Wolf = 3,
    /// Rank 5 (leopard): no special move.
    Panther = 4,
    /// Rank 6: jumps rivers.
    Tiger = 5,
    /// Rank 7: jumps rivers.
    Lion = 6,
    /// Rank 8: may not take the rat.
    Elephant = 7,
}

impl Animal {
    /// All animals, weakest first.
    pub const ALL: [Animal; 8] = [
        Animal::Rat,
        Animal::Cat,
        Animal::Dog,
        Animal::Wolf,
        Animal::Panther,
        Animal::Tiger,
        Animal::Lion,
        Animal::Elephant,
    ];

    /// 0..8, an index into per-animal tables.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The animal with the given index (0..8).
    #[inline]
    pub const fn from_index(i: usize) -> Animal {
        Animal::ALL[i]
    }

    /// The uppercase letter of the animal (Red's spelling).
    pub const fn letter(self) -> char {
        match self {
            Animal::Rat => 'R',
            Animal::Cat => 'C',
            Animal::Dog => 'D',
            Animal::Wolf => 'W',
            Animal::Panther => 'P',
            Animal::Tiger => 'T',
            Animal::Lion => 'L',
            Animal::Elephant => 'E',
        }
    }

    /// The animal spelled by a letter of either case.
    pub fn from_letter(c: char) -> Option<Animal> {
        Animal::ALL
            .into_iter()
            .find(|a| a.letter() == c.to_ascii_uppercase())
    }

    /// The English name, lowercase (`rat`, `panther`), as messages use it.
    pub const fn name(self) -> &'static str {
        match self {
            Animal::Rat => "rat",
            Animal::Cat => "cat",
            Animal::Dog => "dog",
            Animal::Wolf => "wolf",
            Animal::Panther => "panther",
            Animal::Tiger => "tiger",
            Animal::Lion => "lion",
            Animal::Elephant => "elephant",
        }
    }
}

/// An animal of one side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Whose piece it is.
    pub side: Side,
    /// Which animal it is.
    pub animal: Animal,
}

impl Piece {
    /// A piece of `side`.
    pub const fn new(side: Side, animal: Animal) -> Piece {
        Piece { side, animal }
    }

    /// 0..16: Red's animals then Blue's; an index into per-piece tables.
    #[inline]
    pub const fn index(self) -> usize {
        self.side.index() * 8 + self.animal.index()
    }

    /// The FEN letter: uppercase for Red, lowercase for Blue.
    pub fn letter(self) -> char {
        match self.side {
            Side::Red => self.animal.letter(),
            Side::Blue => self.animal.letter().to_ascii_lowercase(),
        }
    }

    /// The piece spelled by a FEN letter.
    pub fn from_letter(c: char) -> Option<Piece> {
        let animal = Animal::from_letter(c)?;
        let side = if c.is_ascii_uppercase() {
            Side::Red
        } else {
            Side::Blue
        };
        Some(Piece::new(side, animal))
    }
}

/// One of the 63 squares, `a1` = 0 .. `g9` = 62.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// The square at `file` (0 = a) and `rank` (0 = rank 1), if on the board.
    #[inline]
    pub const fn new(file: u8, rank: u8) -> Option<Square> {
        if file < FILES && rank < RANKS {
            Some(Square(rank * FILES + file))
        } else {
            None
        }
    }

    /// The square with index `i`; `i` must be below 63.
    #[inline]
    pub const fn from_index(i: u8) -> Square {
        debug_assert!((i as usize) < SQUARES);
        Square(i)
    }

    /// 0..63: `a1` is 0, then along the rank (`b1` is 1), `g9` is 62.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// 0 = file a .. 6 = file g.
    #[inline]
    pub const fn file(self) -> u8 {
        self.0 % FILES
    }

    /// 0 = rank 1 .. 8 = rank 9.
    #[inline]
    pub const fn rank(self) -> u8 {
        self.0 / FILES
    }

    /// This square alone, as a bitboard.
    #[inline]
    pub const fn bit(self) -> Bitboard {
        1 << self.0
    }

    /// The same square seen from the other side (the board turned half a turn).
    #[inline]
    pub const fn rotated(self) -> Square {
        Square(62 - self.0)
    }

    /// Every square, `a1` first.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..SQUARES as u8).map(Square)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank() + 1)
    }
}

/// Why a square name was rejected.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("'{0}' is not a square (files a-g, ranks 1-9, e.g. c3)")]
pub struct SquareParseError(pub String);

impl FromStr for Square {
    type Err = SquareParseError;

    fn from_str(s: &str) -> Result<Square, SquareParseError> {
        let b = s.as_bytes();
        if b.len() != 2 || !(b'a'..=b'g').contains(&b[0]) || !(b'1'..=b'9').contains(&b[1]) {
            return Err(SquareParseError(s.to_string()));
        }
        Ok(Square((b[1] - b'1') * FILES + (b[0] - b'a')))
    }
}

/// Iterates over the squares of a bitboard, lowest index first.
#[inline]
pub fn squares(mut bb: Bitboard) -> impl Iterator<Item = Square> {
    std::iter::from_fn(move || {
        if bb == 0 {
            None
        } else {
            let i = bb.trailing_zeros() as u8;
            bb &= bb - 1;
            Some(Square(i))
        }
    })
}

const fn bb_of(names: &[&str]) -> Bitboard {
    let mut bb = 0;
    let mut i = 0;
    while i < names.len() {
        let b = names[i].as_bytes();
        bb |= 1 << ((b[1] - b'1') * FILES + (b[0] - b'a'));
        i += 1;
    }
    bb
}

/// The twelve water squares of the two rivers.
pub const WATER: Bitboard = bb_of(&[
    "b4", "c4", "b5", "c5", "b6", "c6", "e4", "f4", "e5", "f5", "e6", "f6",
]);

/// Each side's den: `d1` for Red, `d9` for Blue.
pub const DEN: [Bitboard; 2] = [bb_of(&["d1"]), bb_of(&["d9"])];

/// The traps that belong to each side (around its own den).
pub const TRAPS: [Bitboard; 2] = [bb_of(&["c1", "e1", "d2"]), bb_of(&["c9", "e9", "d8"])];

/// All six traps, both sides' (where `UniversalTraps` weakens anyone).
pub const ALL_TRAPS: Bitboard = TRAPS[0] | TRAPS[1];

/// Squares one step up, down, left or right of each square.
pub const NEIGHBOURS: [Bitboard; SQUARES] = {
    let mut t = [0; SQUARES];
    let mut i = 0;
    while i < SQUARES {
        let (f, r) = ((i % 7) as u8, (i / 7) as u8);
        if f > 0 {
            t[i] |= 1 << (i - 1);
        }
        if f < FILES - 1 {
            t[i] |= 1 << (i + 1);
        }
        if r > 0 {
            t[i] |= 1 << (i - 7);
        }
        if r < RANKS - 1 {
            t[i] |= 1 << (i + 7);
        }
        i += 1;
    }
    t
};

/// The farthest reach of [`DEN_APPROACH`], in steps.
pub const MAX_APPROACH: usize = 4;

/// The squares at most `k` steps (up, down, left or right, water or not)
/// from each side's den, the den included, for `k` from 0 to
/// [`MAX_APPROACH`]: `DEN_APPROACH[side][k]`. An enemy piece there is
/// racing for the den.
pub const DEN_APPROACH: [[Bitboard; MAX_APPROACH + 1]; 2] = {
    let mut t = [[0; MAX_APPROACH + 1]; 2];
    let mut side = 0;
    while side < 2 {
        t[side][0] = DEN[side];
        let mut k = 1;
        while k <= MAX_APPROACH {
            let mut reach = t[side][k - 1];
            let mut i = 0;
            while i < SQUARES {
                if t[side][k - 1] & (1 << i) != 0 {
                    reach |= NEIGHBOURS[i];
                }
                i += 1;
            }
            t[side][k] = reach;
            k += 1;
        }
        side += 1;
    }
    t
};

/// A river jump: the landing square and the water squares it crosses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Jump {
    /// Where the jumper lands.
    pub to: Square,
    /// The water squares in between; a blocking rat on any of them stops the jump.
    pub over: Bitboard,
    /// True for the jumps along a rank (over two squares), false for those along a file.
    pub horizontal: bool,
}

/// The river jumps from each square (at most two: one per axis).
pub const JUMPS: [[Option<Jump>; 2]; SQUARES] = {
    let mut t = [[None; 2]; SQUARES];
    let mut i = 0;
    while i < SQUARES {
        let from = i as i32;
        if WATER & (1 << i) == 0 {
            // Step in each direction; a jump exists when the first square is water
            // and the walk ends on land after crossing only water.
            let dirs: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
            let mut d = 0;
            let mut n = 0;
            while d < 4 {
                let (df, dr) = dirs[d];
                let (mut f, mut r) = (from % 7 + df, from / 7 + dr);
                let mut over: Bitboard = 0;
                while f >= 0 && f < 7 && r >= 0 && r < 9 && WATER & (1 << (r * 7 + f)) != 0 {
                    over |= 1 << (r * 7 + f);
                    f += df;
                    r += dr;
                }
                if over != 0 && f >= 0 && f < 7 && r >= 0 && r < 9 {
                    t[i][n] = Some(Jump {
                        to: Square((r * 7 + f) as u8),
                        over,
                        horizontal: dr == 0,
                    });
                    n += 1;
                }
                d += 1;
            }
        }
        i += 1;
    }
    t
};

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
        s.parse().unwrap()
    }

    #[test]
    fn squares_print_and_parse() {
        for s in Square::all() {
            assert_eq!(s.to_string().parse::<Square>().unwrap(), s);
        }
        assert_eq!(sq("a1").index(), 0);
        assert_eq!(sq("g9").index(), 62);
        assert!("h1".parse::<Square>().is_err());
        assert!("a0".parse::<Square>().is_err());
        assert!("a10".parse::<Square>().is_err());
    }

    #[test]
    fn jump_table_has_the_sixteen_crossings_each_way() {
        let mut n = 0;
        for s in Square::all() {
            for j in JUMPS[s.index()].iter().flatten() {
                n += 1;
                let back = JUMPS[j.to.index()].iter().flatten().any(|b| b.to == s);
                assert!(back, "{s}->{} has no way back", j.to);
                let len = j.over.count_ones();
                assert_eq!(len, if j.horizontal { 2 } else { 3 });
            }
        }
        // Vertical: 4 crossings x 2 directions; horizontal: 3 ranks x 2 crossings x 2.
        assert_eq!(n, 8 + 12);
        let b3 = JUMPS[sq("b3").index()];
        assert_eq!(b3[0].unwrap().to, sq("b7"));
        let d5: Vec<Square> = JUMPS[sq("d5").index()]
            .iter()
            .flatten()
            .map(|j| j.to)
            .collect();
        assert!(d5.contains(&sq("a5")) && d5.contains(&sq("g5")));
    }
}
