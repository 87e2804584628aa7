//! Endgame tablebases: every position of a few pieces solved exactly (win,
//! draw or loss for the side to move, and the distance in plies to the end of
//! the game with best play: the winner the shortest, the loser the longest).
//! Generation by retrograde analysis, one file per material, and probing.
//! A layer of its own between the rules and the engine: it knows the rules,
//! nothing of search. docs/tablebases.md describes the format and the figures.
//!
//! The tables ignore repetition and the no-capture limit (the game's history):
//! they answer for the board and the side to move alone.

mod file;
pub mod generate;
mod index;

pub use file::{TABLE_SWITCHES, VERSION, file_name, rules_signature};
pub use index::{Indexer, Material};

use crate::rules::{Move, Position, Rules, Side};
use std::fmt;
use std::path::{Path, PathBuf};

/// A table byte that is no position of a game (two pieces on one square).
pub const NO_POSITION: u8 = 255;

/// A table's answer for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Verdict {
    /// It wins, the game ending in this many plies (odd; 0 when it has already won).
    Win(u32),
    /// It loses in this many plies (even; 0 when the game is already lost).
    Loss(u32),
    /// Neither side can force a win.
    Draw,
}

impl Verdict {
    /// The verdict a table byte holds, `None` for no position.
    #[inline]
    pub fn from_byte(b: u8) -> Option<Verdict> {
        match b {
            0 => Some(Verdict::Draw),
            NO_POSITION => None,
            v => {
                let n = (v - 1) as u32;
                Some(if n % 2 == 1 {
                    Verdict::Win(n)
                } else {
                    Verdict::Loss(n)
                })
            }
        }
    }

    /// The verdict for the side that made the move leading to a position
    /// with this verdict.
    pub fn before(self) -> Verdict {
        match self {
            Verdict::Win(n) => Verdict::Loss(n + 1),
            Verdict::Loss(n) => Verdict::Win(n + 1),
            Verdict::Draw => Verdict::Draw,
        }
    }

    /// Orders verdicts for the side to move: larger is better (a faster win,
    /// a slower loss).
    pub fn rank(self) -> i64 {
        match self {
            Verdict::Win(n) => 1_000_000 - n as i64,
            Verdict::Draw => 0,
            Verdict::Loss(n) => -1_000_000 + n as i64,
        }
    }
}

impl fmt::Display for Verdict {
    /// `win N`, `loss N` or `draw`, as `doushou tb probe` prints it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Verdict::Win(n) => write!(f, "win {n}"),
            Verdict::Loss(n) => write!(f, "loss {n}"),
            Verdict::Draw => f.write_str("draw"),
        }
    }
}

/// Why tables could not be made or read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TbError {
    /// A file or directory could not be read or written.
    Io(String),
    /// A file was refused: other rules, corrupted, or not a table.
    Invalid {
        /// The file.
        path: String,
        /// Why.
        why: String,
    },
    /// A material one capture away has no table yet.
    Missing(Material),
    /// A distance beyond what a table byte holds.
    TooLong(usize),
}

impl fmt::Display for TbError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TbError::Io(e) => write!(f, "{e}"),
            TbError::Invalid { path, why } => write!(f, "table {path} refused: {why}"),
            TbError::Missing(m) => write!(f, "the table of {m} is needed first"),
            TbError::TooLong(d) => write!(
                f,
                "a distance of {d} plies is beyond the format's {}",
                generate::MAX_DISTANCE
            ),
        }
    }
}

impl std::error::Error for TbError {}

/// One material's table in memory.
struct Table {
    indexer: Indexer,
    data: Vec<u8>,
    longest: u16,
}

/// Facts about one loaded table, for reports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableInfo {
    /// Its material (stored form).
    pub material: Material,
    /// Entries (one byte each).
    pub entries: usize,
    /// The longest win, plies.
    pub longest: u16,
    /// Positions won, drawn and lost for the side to move.
    pub wdl: [u64; 3],
}

/// The tables in use, for one set of rules.
pub struct TableSet {
    rules: Rules,
    tables: Vec<Table>,
    /// Material key to `tables` index + 1; 0 when there is no table. An array,
    /// not a hash map: the lookup is on the search's path.
    slots: Box<[u16]>,
    max_pieces: u32,
}

impl fmt::Debug for TableSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "TableSet({} tables, up to {} pieces)",
            self.tables.len(),
            self.max_pieces
        )
    }
}

impl TableSet {
    /// No tables, for `rules`.
    pub fn empty(rules: Rules) -> TableSet {
        TableSet {
            rules,
            tables: Vec::new(),
            slots: vec![0u16; 1 << 16].into_boxed_slice(),
            max_pieces: 0,
        }
    }

    /// Every table (`*.dstb`) in `dir`, checked against `rules`. A file made
    /// under other rules, corrupted, or not a table is an error: nothing is
    /// used from a directory that holds one.
    pub fn load(dir: &Path, rules: Rules) -> Result<TableSet, TbError> {
        let mut set = TableSet::empty(rules);
        let entries =
            std::fs::read_dir(dir).map_err(|e| TbError::Io(format!("{}: {e}", dir.display())))?;
        let mut paths: Vec<PathBuf> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "dstb"))
            .collect();
        paths.sort();
        for path in paths {
            set.load_file(&path, None)?;
        }
        Ok(set)
    }

    /// Every table in `dir`, under the rules the first file was made under
    /// (the engine's `TablebasePath`: the rules may be set after it). Files
    /// made under different rules, corrupted, or not tables are an error.
    pub fn load_any(dir: &Path) -> Result<TableSet, TbError> {
        let entries =
            std::fs::read_dir(dir).map_err(|e| TbError::Io(format!("{}: {e}", dir.display())))?;
        let mut first: Option<PathBuf> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "dstb"))
            .min();
        let Some(path) = first.take() else {
            return Err(TbError::Io(format!(
                "{}: no table files (*.dstb)",
                dir.display()
            )));
        };
        let d = file::read(&path, None, None)?;
        let mut rules = Rules::default();
        rules
            .apply_settings(d.signature.split(' '))
            .map_err(|e| TbError::Invalid {
                path: path.display().to_string(),
                why: format!("unknown rules [{}]: {e}", d.signature),
            })?;
        TableSet::load(dir, rules)
    }

    /// Reads one file into the set (`expected`: the material it must hold).
    fn load_file(&mut self, path: &Path, expected: Option<Material>) -> Result<(), TbError> {
        let check = expected.map(|m| (m, Indexer::new(m).size()));
        let d = file::read(path, Some(&rules_signature(&self.rules)), check)?;
        let indexer = Indexer::new(d.material);
        if !d.material.is_canonical() || indexer.size() != d.data.len() {
            return Err(TbError::Invalid {
                path: path.display().to_string(),
                why: format!(
                    "{} entries do not fit material {}",
                    d.data.len(),
                    d.material
                ),
            });
        }
        self.insert(indexer, d.data, d.longest);
        Ok(())
    }

    fn insert(&mut self, indexer: Indexer, data: Vec<u8>, longest: u16) {
        let m = indexer.material();
        self.max_pieces = self.max_pieces.max(m.count());
        let table = Table {
            indexer,
            data,
            longest,
        };
        match self.slots[m.key() as usize] {
            0 => {
                self.tables.push(table);
                self.slots[m.key() as usize] = self.tables.len() as u16;
            }
            k => self.tables[k as usize - 1] = table,
        }
    }

    /// The rules the tables were made under.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// Whether the tables answer under `rules` (the repetition rule and the
    /// no-capture limit aside, which the tables leave out).
    pub fn answers_for(&self, rules: &Rules) -> bool {
        rules_signature(rules) == rules_signature(&self.rules)
    }

    /// The most pieces of any table.
    pub fn max_pieces(&self) -> u32 {
        self.max_pieces
    }

    /// How many tables are loaded.
    pub fn len(&self) -> usize {
        self.tables.len()
    }

    /// Whether no table is loaded.
    pub fn is_empty(&self) -> bool {
        self.tables.is_empty()
    }

    /// Whether `material` (either colour order) has a table.
    pub fn has(&self, material: Material) -> bool {
        self.slots[material.canonical().key() as usize] != 0
    }

    /// Facts about every table, in load order.
    pub fn infos(&self) -> Vec<TableInfo> {
        self.tables
            .iter()
            .map(|t| {
                let mut wdl = [0u64; 3];
                for &b in &t.data {
                    match Verdict::from_byte(b) {
                        Some(Verdict::Win(_)) => wdl[0] += 1,
                        Some(Verdict::Draw) => wdl[1] += 1,
                        Some(Verdict::Loss(_)) => wdl[2] += 1,
                        None => {}
                    }
                }
                TableInfo {
                    material: t.indexer.material(),
                    entries: t.data.len(),
                    longest: t.longest,
                    wdl,
                }
            })
            .collect()
    }

    /// The verdict for the side to move in `pos`, repetition and the
    /// no-capture limit aside; `None` when no table holds it. A finished game
    /// is answered by the rules: `loss 0` for the side whose den was entered,
    /// which has no pieces, or (from the table) which has no move.
    #[inline]
    pub fn probe(&self, pos: &Position) -> Option<Verdict> {
        let us = pos.side_to_move();
        if let Some(winner) = pos.den_winner() {
            return Some(if winner == us {
                Verdict::Win(0)
            } else {
                Verdict::Loss(0)
            });
        }
        if pos.occupied(us) == 0 {
            return Some(Verdict::Loss(0));
        }
        if pos.occupied(us.opponent()) == 0 {
            return Some(Verdict::Win(0));
        }
        let material = Material::of(pos);
        let slot = self.slots[material.canonical().key() as usize];
        if slot == 0 {
            return None;
        }
        let table = &self.tables[slot as usize - 1];
        let turned;
        let (pos, side) = if material.is_canonical() {
            (pos, us)
        } else {
            turned = pos.mirrored();
            (&turned, us.opponent())
        };
        let mut sq = [0u8; 16];
        table.indexer.squares_of(pos, &mut sq)?;
        let n = table.indexer.pieces().len();
        let i = table.indexer.index(&sq[..n], side)?;
        Verdict::from_byte(table.data[i])
    }

    /// Every legal move of `pos` (repetition aside) with the verdict it
    /// leads to for the side to move, best first: the fastest win, then
    /// draws, then the slowest loss. `None` when a child is not in the tables.
    pub fn rank_moves(&self, pos: &Position) -> Option<Vec<(Move, Verdict)>> {
        let mut out = Vec::new();
        for &m in pos.generate(&self.rules).iter() {
            let mut child = *pos;
            child.make(m);
            out.push((m, self.probe(&child)?.before()));
        }
        out.sort_by_key(|&(m, v)| (std::cmp::Reverse(v.rank()), m.bits()));
        Some(out)
    }

    /// Solves `material` (either colour order) with the tables already here
    /// and adds it; answers the bytes of its file.
    pub fn solve(&mut self, material: Material) -> Result<Vec<u8>, TbError> {
        let material = material.canonical();
        let solved = generate::solve(material, &self.rules, self)?;
        let bytes = file::encode(material, &self.rules, &solved.data, solved.longest);
        self.insert(Indexer::new(material), solved.data, solved.longest);
        Ok(bytes)
    }
}

/// The pieces on the board of `pos`.
#[inline]
pub fn piece_count(pos: &Position) -> u32 {
    (pos.occupied(Side::Red) | pos.occupied(Side::Blue)).count_ones()
}

/// Plies the no-capture limit leaves in `pos` before it draws the game (no
/// limit: all): a table's win or loss in more plies may not come to pass.
#[inline]
pub fn plies_before_limit(rules: &Rules, pos: &Position) -> u32 {
    match rules.no_capture_limit {
        0 => u32::MAX,
        limit => limit.saturating_sub(pos.plies_since_capture()),
    }
}

/// Every material that `targets` need, smallest first: each target and,
/// recursively, every material one capture away with pieces on both sides.
pub fn with_dependencies(targets: &[Material]) -> Vec<Material> {
    let mut all: Vec<Material> = Vec::new();
    let mut stack: Vec<Material> = targets.iter().map(|m| m.canonical()).collect();
    while let Some(m) = stack.pop() {
        if all.contains(&m) {
            continue;
        }
        all.push(m);
        for p in m.pieces() {
            let sub = m.without(p);
            if sub.mask(Side::Red) != 0 && sub.mask(Side::Blue) != 0 {
                stack.push(sub.canonical());
            }
        }
    }
    all.sort_by_key(|m| (m.count(), std::cmp::Reverse(m.key())));
    all
}

/// What [`generate`] did with one material.
#[derive(Clone, Debug)]
pub struct Generated {
    /// The material.
    pub material: Material,
    /// Whether a valid file was there already (and was read, not made).
    pub skipped: bool,
    /// Seconds spent making it (0 when skipped).
    pub seconds: f64,
    /// Its file's size in bytes.
    pub bytes: u64,
    /// Its longest win, plies.
    pub longest: u16,
}

/// Makes the tables of `targets` and of every material they need in `dir`,
/// smallest first, skipping each whose file is there and valid (so an
/// interrupted run resumes where it stopped). Each file is written whole
/// under a temporary name, then renamed. `report` hears of each material.
pub fn generate(
    dir: &Path,
    rules: Rules,
    targets: &[Material],
    mut report: impl FnMut(&Generated),
) -> Result<TableSet, TbError> {
    std::fs::create_dir_all(dir).map_err(|e| TbError::Io(format!("{}: {e}", dir.display())))?;
    let mut set = TableSet::empty(rules);
    for m in with_dependencies(targets) {
        let path = dir.join(file_name(m));
        let start = std::time::Instant::now();
        let skipped = path.exists() && set.load_file(&path, Some(m)).is_ok();
        if !skipped {
            let bytes = set.solve(m)?;
            crate::util::fs::write_atomically(&path, &bytes)
                .map_err(|e| TbError::Io(format!("{}: {e}", path.display())))?;
        }
        let slot = set.slots[m.key() as usize] as usize - 1;
        report(&Generated {
            material: m,
            skipped,
            seconds: if skipped {
                0.0
            } else {
                start.elapsed().as_secs_f64()
            },
            bytes: std::fs::metadata(&path).map_or(0, |md| md.len()),
            longest: set.tables[slot].longest,
        });
    }
    Ok(set)
}
