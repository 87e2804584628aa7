//! Materials and the index of a material's positions.
//!
//! A material is which animals each side has: one bit per animal and side, so
//! it fits a `u16` (Red's mask low, Blue's high). A position of a material is
//! indexed by the square of each of its pieces, Red's strongest first, then
//! Blue's, then the side to move:
//!
//! ```text
//! index = ((s0 * n1 + s1) * n2 + s2 ...) * 2 + side
//! ```
//!
//! where `si` counts the squares piece `i` may stand on in a game that is not
//! over: not water unless it is a rat, neither den (its own is forbidden; in
//! the other the game is over). The first piece keeps to files a-d: a position
//! with it on files e-g is read as its mirror image (files a<->g), which the
//! rules treat alike under every switch. Indices where two pieces share a
//! square are no positions.

use crate::rules::{Animal, DEN, FILES, Piece, Position, SQUARES, Side, Square, standable};
use std::fmt;
use std::str::FromStr;

/// Which animals each side has.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Material {
    /// Bit `a` set: the side has animal `a` ([`Animal::index`]); Red, Blue.
    masks: [u8; 2],
}

impl Material {
    /// The material of the given animal masks.
    pub const fn new(red: u8, blue: u8) -> Material {
        Material { masks: [red, blue] }
    }

    /// The material on the board of `pos`.
    pub fn of(pos: &Position) -> Material {
        let mut masks = [0u8; 2];
        for side in Side::BOTH {
            for sq in crate::rules::squares(pos.occupied(side)) {
                if let Some(p) = pos.piece_at(sq) {
                    masks[side.index()] |= 1 << p.animal.index();
                }
            }
        }
        Material { masks }
    }

    /// The animal mask of `side`.
    pub fn mask(self, side: Side) -> u8 {
        self.masks[side.index()]
    }

    /// A 16-bit key: Red's mask low, Blue's high.
    pub fn key(self) -> u16 {
        self.masks[0] as u16 | (self.masks[1] as u16) << 8
    }

    /// Pieces on the board, both sides.
    pub fn count(self) -> u32 {
        self.masks[0].count_ones() + self.masks[1].count_ones()
    }

    /// The same material with the colours swapped.
    pub fn swapped(self) -> Material {
        Material::new(self.masks[1], self.masks[0])
    }

    /// Whether this material's table is stored as it is; otherwise its
    /// positions are read, colours swapped and the board turned, in the table
    /// of [`Material::swapped`]. The stored one has the side with more pieces
    /// (or, with as many, the larger mask) as Red.
    pub fn is_canonical(self) -> bool {
        let size = |m: u8| (m.count_ones(), m);
        size(self.masks[0]) >= size(self.masks[1])
    }

    /// The stored form: this material or its colour swap.
    pub fn canonical(self) -> Material {
        if self.is_canonical() {
            self
        } else {
            self.swapped()
        }
    }

    /// The pieces in index order: Red's strongest first, then Blue's.
    pub fn pieces(self) -> Vec<Piece> {
        let mut out = Vec::new();
        for side in Side::BOTH {
            for a in Animal::ALL.iter().rev() {
                if self.masks[side.index()] & (1 << a.index()) != 0 {
                    out.push(Piece::new(side, *a));
                }
            }
        }
        out
    }

    /// The material with `piece` taken off.
    pub fn without(self, piece: Piece) -> Material {
        let mut m = self;
        m.masks[piece.side.index()] &= !(1 << piece.animal.index());
        m
    }

    /// Every material with `n` pieces, each side having at least one, in the
    /// stored (canonical) form, in a fixed order.
    pub fn all_canonical(n: u32) -> Vec<Material> {
        let mut out = Vec::new();
        for red in 1..=255u8 {
            for blue in 1..=255u8 {
                let m = Material::new(red, blue);
                if m.count() == n && m.is_canonical() {
                    out.push(m);
                }
            }
        }
        out.sort_by_key(|m| std::cmp::Reverse((m.masks[0], m.masks[1])));
        out
    }
}

impl fmt::Display for Material {
    /// Red's letters (uppercase, strongest first), `v`, Blue's (lowercase): `ELvr`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = String::new();
        for (i, side) in Side::BOTH.into_iter().enumerate() {
            if i == 1 {
                s.push('v');
            }
            for p in self.pieces().into_iter().filter(|p| p.side == side) {
                s.push(p.letter());
            }
        }
        f.write_str(&s)
    }
}

/// A material's name that does not read ([`Material`]'s `FromStr`).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("material '{text}': {fault} (e.g. ELvr: Red's animals, v, Blue's)")]
pub struct MaterialError {
    /// The text as it was given.
    pub text: String,
    /// What is wrong with it.
    pub fault: MaterialFault,
}

/// What is wrong with a material's name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MaterialFault {
    /// No `v` separates Red's animals from Blue's.
    #[error("no 'v' between the sides")]
    NoSeparator,
    /// A side has no animal.
    #[error("each side needs an animal")]
    EmptySide,
    /// A letter that names no animal.
    #[error("'{0}' is no animal (E L T P W D C R)")]
    NotAnAnimal(char),
    /// One side has the same animal twice.
    #[error("'{0}' twice on one side")]
    Twice(char),
}

impl FromStr for Material {
    type Err = MaterialError;

    /// Reads `ELvr` (letters in any case: the side is before or after the `v`).
    fn from_str(text: &str) -> Result<Material, MaterialError> {
        let bad = |fault| MaterialError {
            text: text.to_string(),
            fault,
        };
        let (red, blue) = text
            .trim()
            .split_once(['v', 'V'])
            .ok_or_else(|| bad(MaterialFault::NoSeparator))?;
        let mut masks = [0u8; 2];
        for (side, letters) in [red, blue].into_iter().enumerate() {
            if letters.is_empty() {
                return Err(bad(MaterialFault::EmptySide));
            }
            for c in letters.chars() {
                let a = Animal::from_letter(c).ok_or_else(|| bad(MaterialFault::NotAnAnimal(c)))?;
                if masks[side] & (1 << a.index()) != 0 {
                    return Err(bad(MaterialFault::Twice(c)));
                }
                masks[side] |= 1 << a.index();
            }
        }
        Ok(Material { masks })
    }
}

/// Square `sq` seen in the mirror (files a<->g).
#[inline]
pub fn mirror_file(sq: u8) -> u8 {
    let (rank, file) = (sq / FILES, sq % FILES);
    rank * FILES + (FILES - 1 - file)
}

/// Marks a square outside a piece's domain in [`Domain::lookup`].
const OFF: u8 = 0xFF;

/// The squares one piece may stand on in the index.
#[derive(Clone, Debug)]
struct Domain {
    /// Index within the domain to square.
    squares: Vec<u8>,
    /// Square to index within the domain, or `OFF`.
    lookup: [u8; SQUARES],
}

impl Domain {
    fn new(piece: Piece, first: bool) -> Domain {
        let mut squares = Vec::new();
        let mut lookup = [OFF; SQUARES];
        for sq in Square::all() {
            let bit = sq.bit();
            let water = standable(piece.animal) & bit == 0;
            let den = (DEN[0] | DEN[1]) & bit != 0;
            let east = first && sq.file() > 3;
            if !water && !den && !east {
                lookup[sq.index()] = squares.len() as u8;
                squares.push(sq.index() as u8);
            }
        }
        Domain { squares, lookup }
    }
}

/// The index of one material's positions.
#[derive(Clone, Debug)]
pub struct Indexer {
    material: Material,
    pieces: Vec<Piece>,
    domains: Vec<Domain>,
    size: usize,
}

impl Indexer {
    /// The index of `material`'s positions (in the orientation given: the
    /// caller passes the stored form).
    pub fn new(material: Material) -> Indexer {
        let pieces = material.pieces();
        let domains: Vec<Domain> = pieces
            .iter()
            .enumerate()
            .map(|(i, &p)| Domain::new(p, i == 0))
            .collect();
        let size = domains.iter().map(|d| d.squares.len()).product::<usize>() * 2;
        Indexer {
            material,
            pieces,
            domains,
            size,
        }
    }

    /// The material whose positions this indexes.
    pub fn material(&self) -> Material {
        self.material
    }

    /// The pieces in index order.
    pub fn pieces(&self) -> &[Piece] {
        &self.pieces
    }

    /// The number of entries (positions and non-positions).
    pub fn size(&self) -> usize {
        self.size
    }

    /// The entry of the position with the pieces on `squares` (index order)
    /// and `side` to move, read in the mirror when the first piece is on files
    /// e-g; `None` when a piece is outside its domain (a den, say).
    #[inline]
    pub fn index(&self, squares: &[u8], side: Side) -> Option<usize> {
        let mirror = squares[0] % FILES > 3;
        let mut i = 0usize;
        for (d, &sq) in self.domains.iter().zip(squares) {
            let sq = if mirror { mirror_file(sq) } else { sq };
            let k = d.lookup[sq as usize];
            if k == OFF {
                return None;
            }
            i = i * d.squares.len() + k as usize;
        }
        Some(i * 2 + side.index())
    }

    /// The one entry that stands for a position and its mirror image during
    /// generation: with the first piece on file d both images have entries,
    /// and the smaller is the one solved (the other is copied at the end).
    #[inline]
    pub fn canonical_index(&self, squares: &[u8], side: Side) -> Option<usize> {
        let i = self.index(squares, side)?;
        if squares[0] % FILES != 3 {
            return Some(i);
        }
        let mut mirrored = [0u8; 16];
        for (m, &s) in mirrored.iter_mut().zip(squares) {
            *m = mirror_file(s);
        }
        let j = self.index(&mirrored[..squares.len()], side)?;
        Some(i.min(j))
    }

    /// The squares (index order) and side to move of entry `i`; `None` when
    /// two pieces share a square.
    #[inline]
    pub fn decode(&self, i: usize, squares: &mut [u8]) -> Option<Side> {
        let side = if i & 1 == 0 { Side::Red } else { Side::Blue };
        let mut rest = i / 2;
        for (k, d) in self.domains.iter().enumerate().rev() {
            let n = d.squares.len();
            squares[k] = d.squares[rest % n];
            rest /= n;
        }
        let n = self.pieces.len();
        for a in 0..n {
            for b in a + 1..n {
                if squares[a] == squares[b] {
                    return None;
                }
            }
        }
        Some(side)
    }

    /// The squares of this material's pieces in `pos`, index order; with
    /// `turned`, in `pos.mirrored()` (colours swapped, board turned half a
    /// turn), read from `pos` itself: building the turned position costs a
    /// walk over every square, and a search probes it at every node.
    #[inline]
    pub fn squares_of(&self, pos: &Position, turned: bool, out: &mut [u8]) -> Option<()> {
        for (o, &p) in out.iter_mut().zip(&self.pieces) {
            *o = if turned {
                let piece = Piece::new(p.side.opponent(), p.animal);
                pos.square_of(piece)?.rotated().index() as u8
            } else {
                pos.square_of(p)?.index() as u8
            };
        }
        Some(())
    }

    /// The position with the pieces on `squares` and `side` to move.
    pub fn position(&self, squares: &[u8], side: Side) -> Position {
        let mut pos = Position::empty(side);
        for (&p, &s) in self.pieces.iter().zip(squares) {
            pos.put(p, Square::from_index(s));
        }
        pos
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn materials_print_and_parse() {
        let m: Material = "ELvr".parse().unwrap();
        assert_eq!(m.to_string(), "ELvr");
        assert_eq!(
            "le V R"
                .replace(' ', "")
                .parse::<Material>()
                .unwrap()
                .to_string(),
            "ELvr"
        );
        let fault = |t: &str| t.parse::<Material>().unwrap_err().fault;
        assert_eq!(fault("ELr"), MaterialFault::NoSeparator);
        assert_eq!(fault("EEvr"), MaterialFault::Twice('E'));
        assert_eq!(fault("Evx"), MaterialFault::NotAnAnimal('x'));
        assert_eq!(fault("vr"), MaterialFault::EmptySide);
        assert!("vr".parse::<Material>().is_err());
        assert!(m.is_canonical() && !m.swapped().is_canonical());
    }

    #[test]
    fn there_are_36_two_piece_and_224_three_piece_stored_materials() {
        assert_eq!(Material::all_canonical(2).len(), 36);
        assert_eq!(Material::all_canonical(3).len(), 224);
    }

    #[test]
    fn decode_inverts_index() {
        let ix = Indexer::new("LRvt".parse().unwrap());
        let mut sq = [0u8; 3];
        let mut back = [0u8; 3];
        let mut positions = 0;
        for i in 0..ix.size() {
            if let Some(side) = ix.decode(i, &mut sq) {
                positions += 1;
                assert_eq!(ix.index(&sq, side), Some(i));
                let pos = ix.position(&sq, side);
                ix.squares_of(&pos, false, &mut back).unwrap();
                assert_eq!(back, sq);
                ix.squares_of(&pos.mirrored(), true, &mut back).unwrap();
                assert_eq!(back, sq);
            }
        }
        assert!(positions > ix.size() / 2);
    }
}
