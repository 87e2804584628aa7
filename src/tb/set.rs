//! The tables in use: their files mapped and checked against the rules, and
//! probed by the search, the analysis and `doushou tb probe`.

use super::entries::{Entries, Mapped};
use super::error::{Refusal, TbError};
use super::file::{self, Header, rules_signature};
use super::index::{Indexer, Material};
use super::verdict::Verdict;
use crate::rules::{Move, Position, Rules, Side};
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError, Weak};

/// One material's table.
struct Table {
    indexer: Indexer,
    entries: Entries,
    longest: u16,
    /// Positions won, drawn and lost for the side to move.
    counts: [u64; 3],
}

/// Facts about one loaded table, for reports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableInfo {
    /// Its material (stored form).
    pub material: Material,
    /// Entries (positions and non-positions).
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

    /// Every table (`*.dstb`) in `dir`, mapped and checked against `rules`
    /// (header and index: each block is checked when it is first read). A
    /// file made under other rules, corrupted, of another version or not a
    /// table is skipped with a warning that names it; the others answer. If
    /// no file is left, the first refusal is the error (and no warning is
    /// given), and a directory
    /// without tables is one too: named as the tables, it is mistyped or not
    /// made yet.
    pub fn load(dir: &Path, rules: Rules) -> Result<TableSet, TbError> {
        let mut set = TableSet::empty(rules);
        let mut refused = Vec::new();
        for path in file::table_files(dir)? {
            if let Err(e) = set.load_file(&path) {
                refused.push(e);
            }
        }
        if set.is_empty() && !refused.is_empty() {
            // Every file refused: one error for the directory, not a warning a file.
            return Err(refused.swap_remove(0));
        }
        for e in refused {
            log::warn!("{e}; skipped");
        }
        Ok(set)
    }

    /// Every table in `dir`, under the rules the first file (by name) that
    /// reads was made under (the engine's `TablebasePath`: the rules may be
    /// set after it); files made under other rules, or refused, are skipped
    /// with a warning ([`TableSet::load`]).
    pub fn load_any(dir: &Path) -> Result<TableSet, TbError> {
        let mut first_error = None;
        for path in file::table_files(dir)? {
            let header = match file::map(&path, None, None) {
                Ok((header, _)) => header,
                Err(e) => {
                    first_error.get_or_insert(e);
                    continue;
                }
            };
            let mut rules = Rules::default();
            match rules.apply_settings(header.signature.split(' ')) {
                Ok(()) => return TableSet::load(dir, rules),
                Err(source) => {
                    first_error.get_or_insert(TbError::Invalid {
                        path: path.clone(),
                        why: Box::new(Refusal::UnknownRules {
                            signature: header.signature.clone(),
                            source,
                        }),
                    });
                }
            }
        }
        Err(first_error.unwrap_or_else(|| TbError::NoTables(dir.to_path_buf())))
    }

    /// The tables in `dir`, mapped once per process: while any engine,
    /// analysis job or GUI of this process still holds them, asking again
    /// for the same directory shares those maps (and the blocks cached from
    /// them) instead of opening the files again. The pages of a mapped file
    /// are the system's page cache, shared with every other process that maps
    /// it: none holds a copy of its own. With `rules` the tables must have
    /// been made under them ([`TableSet::load`]); without, under the rules of
    /// the first file ([`TableSet::load_any`]). Files changed on disk are
    /// opened again only once every holder has let the old maps go.
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

    /// Maps one file into the set.
    pub(super) fn load_file(&mut self, path: &Path) -> Result<(), TbError> {
        let (header, map) = file::map(path, Some(&rules_signature(&self.rules)), None)?;
        let indexer = fitting_indexer(path, &header)?;
        let mapped = Mapped::new(header.clone(), map, path.to_path_buf());
        self.insert(indexer, Entries::Mapped(mapped), &header);
        Ok(())
    }

    /// Reads one file whole into the set, every block checked (generation
    /// reads the tables one capture away so: they are probed for every
    /// capture of every position).
    pub(super) fn load_whole(&mut self, path: &Path, material: Material) -> Result<(), TbError> {
        let expected = Some((material, Indexer::new(material).size()));
        let signature = rules_signature(&self.rules);
        let (header, data) = file::read_whole(path, Some(&signature), expected)?;
        let indexer = fitting_indexer(path, &header)?;
        self.insert(indexer, Entries::Whole(data), &header);
        Ok(())
    }

    /// Adds (or replaces) the table of `indexer`'s material.
    fn insert(&mut self, indexer: Indexer, entries: Entries, header: &Header) {
        let m = indexer.material();
        self.max_pieces = self.max_pieces.max(m.count());
        let table = Table {
            indexer,
            entries,
            longest: header.longest,
            counts: header.counts,
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
            .map(|t| TableInfo {
                material: t.indexer.material(),
                entries: t.indexer.size(),
                longest: t.longest,
                wdl: t.counts,
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
        // A material stored with its colours swapped is read turned.
        let turned = !material.is_canonical();
        let side = if turned { us.opponent() } else { us };
        let mut sq = [0u8; 16];
        table.indexer.squares_of(pos, turned, &mut sq)?;
        let n = table.indexer.pieces().len();
        let i = table.indexer.index(&sq[..n], side)?;
        Verdict::from_byte(table.entries.get(i)?)
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

/// The index of the material `header` names, if the file at `path` holds
/// its stored form with as many entries.
fn fitting_indexer(path: &Path, header: &Header) -> Result<Indexer, TbError> {
    let indexer = Indexer::new(header.material);
    if !header.material.is_canonical() || indexer.size() != header.entries {
        return Err(TbError::Invalid {
            path: path.to_path_buf(),
            why: Box::new(Refusal::DoesNotFit {
                entries: header.entries,
                material: header.material,
            }),
        });
    }
    Ok(indexer)
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
