//! The tables in use: loaded from their files, checked against the rules,
//! and probed by the search, the analysis and `doushou tb probe`.

use super::error::{Refusal, TbError};
use super::file::{self, rules_signature};
use super::index::{Indexer, Material};
use super::verdict::Verdict;
use crate::rules::{Move, Position, Rules, Side};
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError, Weak};

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
    /// used from a directory that holds one. So is a directory without
    /// tables: named as the tables, it is mistyped or not made yet.
    pub fn load(dir: &Path, rules: Rules) -> Result<TableSet, TbError> {
        let mut set = TableSet::empty(rules);
        let entries = std::fs::read_dir(dir).map_err(|e| TbError::io(dir, e))?;
        let mut paths: Vec<PathBuf> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "dstb"))
            .collect();
        if paths.is_empty() {
            return Err(TbError::NoTables(dir.to_path_buf()));
        }
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
        let entries = std::fs::read_dir(dir).map_err(|e| TbError::io(dir, e))?;
        let mut first: Option<PathBuf> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "dstb"))
            .min();
        let Some(path) = first.take() else {
            return Err(TbError::NoTables(dir.to_path_buf()));
        };
        let d = file::read(&path, None, None)?;
        let mut rules = Rules::default();
        rules
            .apply_settings(d.signature.split(' '))
            .map_err(|source| TbError::Invalid {
                path: path.clone(),
                why: Box::new(Refusal::UnknownRules {
                    signature: d.signature.clone(),
                    source,
                }),
            })?;
        TableSet::load(dir, rules)
    }

    /// The tables in `dir`, loaded once per process: while any engine,
    /// analysis job or GUI of this process still holds them, asking again
    /// for the same directory shares that copy instead of reading a second
    /// one (4-piece tables run to gigabytes; the engine's memory is to stay
    /// near its `Hash`). With `rules` the tables must have been made under
    /// them ([`TableSet::load`]); without, under the rules of the first file
    /// ([`TableSet::load_any`]). Files changed on disk are read again only
    /// once every holder has let the old copy go.
    pub fn shared(dir: &Path, rules: Option<Rules>) -> Result<Arc<TableSet>, TbError> {
        static LOADED: Mutex<Vec<(PathBuf, Weak<TableSet>)>> = Mutex::new(Vec::new());
        let key = dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf());
        // Held while loading, so that workers starting together read once.
        let mut loaded = LOADED.lock().unwrap_or_else(PoisonError::into_inner);
        loaded.retain(|(_, set)| set.strong_count() > 0);
        let cached = loaded
            .iter()
            .find(|(path, _)| *path == key)
            .and_then(|(_, set)| set.upgrade());
        if let Some(set) = cached
            && rules.is_none_or(|r| set.answers_for(&r))
        {
            return Ok(set);
        }
        let set = Arc::new(match rules {
            Some(r) => TableSet::load(dir, r)?,
            None => TableSet::load_any(dir)?,
        });
        loaded.retain(|(path, _)| *path != key);
        loaded.push((key, Arc::downgrade(&set)));
        Ok(set)
    }

    /// Reads one file into the set (`expected`: the material it must hold).
    pub(super) fn load_file(
        &mut self,
        path: &Path,
        expected: Option<Material>,
    ) -> Result<(), TbError> {
        let check = expected.map(|m| (m, Indexer::new(m).size()));
        let d = file::read(path, Some(&rules_signature(&self.rules)), check)?;
        let indexer = Indexer::new(d.material);
        if !d.material.is_canonical() || indexer.size() != d.data.len() {
            return Err(TbError::Invalid {
                path: path.to_path_buf(),
                why: Box::new(Refusal::DoesNotFit {
                    entries: d.data.len(),
                    material: d.material,
                }),
            });
        }
        self.insert(indexer, d.data, d.longest);
        Ok(())
    }

    /// Adds (or replaces) the table of `indexer`'s material.
    pub(super) fn insert(&mut self, indexer: Indexer, data: Vec<u8>, longest: u16) {
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

    /// The longest win in the table of `material` (stored form), if loaded.
    pub(super) fn longest(&self, material: Material) -> Option<u16> {
        match self.slots[material.key() as usize] {
            0 => None,
            k => Some(self.tables[k as usize - 1].longest),
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

    /// Whether `pos` is small enough for these tables. [`TableSet::probe`]
    /// also answers a finished game of any size (`loss 0`, as `tb probe`
    /// prints it); a report of what the tables hold asks this first.
    pub fn holds_size_of(&self, pos: &Position) -> bool {
        piece_count(pos) <= self.max_pieces
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
