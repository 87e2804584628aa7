//! Endgame tables: a directory of `*.dstb` files made by `doushou tb
//! generate`, opened once and probed for boards.

use crate::TablebaseError;
use crate::board::{Board, rules_dict};
use doushou::rules::{Position, Rules};
use doushou::tb::{TableSet, Verdict as RustVerdict};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::path::PathBuf;
use std::sync::Arc;

/// A table's answer for the side to move: `kind` is `win`, `loss` or
/// `draw`; `plies` is how long the game lasts with best play (0 for a draw).
#[pyclass(module = "doushou.tablebase", frozen, eq, hash)]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Verdict(RustVerdict);

#[pymethods]
impl Verdict {
    /// `win`, `loss` or `draw`.
    #[getter]
    fn kind(&self) -> &'static str {
        match self.0 {
            RustVerdict::Win(_) => "win",
            RustVerdict::Loss(_) => "loss",
            RustVerdict::Draw => "draw",
        }
    }

    /// Plies to the end of the game with best play (0 for a draw).
    #[getter]
    fn plies(&self) -> u32 {
        match self.0 {
            RustVerdict::Win(n) | RustVerdict::Loss(n) => n,
            RustVerdict::Draw => 0,
        }
    }

    /// `win N`, `loss N` or `draw`, as `doushou tb probe` prints it.
    fn __str__(&self) -> String {
        self.0.to_string()
    }

    fn __repr__(&self) -> String {
        format!("<Verdict {}>", self.0)
    }
}

/// The tables of one directory, under the rules they were made under.
#[pyclass(module = "doushou.tablebase", frozen)]
pub struct Tablebase {
    set: Arc<TableSet>,
    path: PathBuf,
}

impl Tablebase {
    /// The position of `board`, if these tables answer under its rules.
    fn position_of(&self, board: &Board) -> PyResult<Position> {
        let rules: &Rules = board.game.rules();
        if !self.set.answers_for(rules) {
            return Err(TablebaseError::new_err(format!(
                "the tables in {} were made under other rules ({}); the board plays {}",
                self.path.display(),
                self.set.rules(),
                rules
            )));
        }
        Ok(*board.position())
    }
}

#[pymethods]
impl Tablebase {
    /// The verdict for the side to move on `board`, or `None` when no table
    /// holds its material. Repetition and the no-capture limit are left out,
    /// as the tables leave them out.
    fn probe(&self, board: PyRef<'_, Board>) -> PyResult<Option<Verdict>> {
        Ok(self.set.probe(&self.position_of(&board)?).map(Verdict))
    }

    /// `probe` for many boards at once, with the interpreter's lock released.
    fn probe_many(
        &self,
        py: Python<'_>,
        boards: Vec<PyRef<'_, Board>>,
    ) -> PyResult<Vec<Option<Verdict>>> {
        let positions = boards
            .iter()
            .map(|b| self.position_of(b))
            .collect::<PyResult<Vec<Position>>>()?;
        let set = Arc::clone(&self.set);
        Ok(py.detach(move || {
            positions
                .iter()
                .map(|p| set.probe(p).map(Verdict))
                .collect()
        }))
    }

    /// The most pieces of any table.
    #[getter]
    fn max_pieces(&self) -> u32 {
        self.set.max_pieces()
    }

    /// The materials held (`ELvr`: Red's animals, `v`, Blue's).
    fn materials(&self) -> Vec<String> {
        self.set
            .infos()
            .into_iter()
            .map(|t| t.material.to_string())
            .collect()
    }

    /// The rules the tables were made under, as `Board.rules` gives them.
    #[getter]
    fn rules<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        rules_dict(py, self.set.rules())
    }

    fn __len__(&self) -> usize {
        self.set.len()
    }

    fn __repr__(&self) -> String {
        format!(
            "<Tablebase {} ({} tables)>",
            self.path.display(),
            self.set.len()
        )
    }
}

/// The tables in `path`: every `*.dstb` file, all made under the same rules
/// and checked. A missing directory, no tables or a refused file raise
/// `TablebaseError` with the reason.
#[pyfunction]
fn open_tablebase(py: Python<'_>, path: PathBuf) -> PyResult<Tablebase> {
    let dir = path.clone();
    let set = py
        .detach(move || TableSet::shared(&dir, None))
        .map_err(|e| TablebaseError::new_err(e.to_string()))?;
    Ok(Tablebase { set, path })
}

/// Adds the table classes to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Verdict>()?;
    m.add_class::<Tablebase>()?;
    m.add_function(wrap_pyfunction!(open_tablebase, m)?)?;
    Ok(())
}
