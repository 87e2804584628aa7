//! The Rust half of the Python package `doushou` (the module
//! `doushou._doushou`): the rules, notation, pictures, records and tables of
//! the doushou crate behind a python-chess-like API. The Python half
//! (`doushou/*.py` beside this crate) re-exports these classes and adds the
//! engine driver, which is plain Python over a subprocess.
//!
//! - `board.rs`: `Board`, `Move`, `Piece`, `Outcome`, `Termination`, squares;
//! - `records.rs`: reading and writing game records (PGN);
//! - `tables.rs`: the endgame tables.
//!
//! Every error a script can cause is a Python exception carrying the crate's
//! own message; nothing here panics on input.

mod board;
mod records;
mod tables;

use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyValueError};
use pyo3::prelude::*;

create_exception!(
    doushou,
    InvalidFenError,
    PyValueError,
    "A position's text (FEN) that the rules refuse; the message says which field and why."
);
create_exception!(
    doushou,
    InvalidMoveError,
    PyValueError,
    "A move's text that names no move (origin and target square, e.g. g3g4)."
);
create_exception!(
    doushou,
    IllegalMoveError,
    PyValueError,
    "A well-formed move that the rules do not allow in the position."
);
create_exception!(
    doushou,
    InvalidRuleError,
    PyValueError,
    "An unknown variant, rule switch or value."
);
create_exception!(
    doushou,
    PgnError,
    PyValueError,
    "A game record that cannot be read; the message names its line."
);
create_exception!(
    doushou,
    TablebaseError,
    PyException,
    "Tables that cannot be opened, or a board under rules they were not made for."
);

/// The module `doushou._doushou`.
#[pymodule]
fn _doushou(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("InvalidFenError", py.get_type::<InvalidFenError>())?;
    m.add("InvalidMoveError", py.get_type::<InvalidMoveError>())?;
    m.add("IllegalMoveError", py.get_type::<IllegalMoveError>())?;
    m.add("InvalidRuleError", py.get_type::<InvalidRuleError>())?;
    m.add("PgnError", py.get_type::<PgnError>())?;
    m.add("TablebaseError", py.get_type::<TablebaseError>())?;
    board::register(m)?;
    records::register(m)?;
    tables::register(m)?;
    Ok(())
}
