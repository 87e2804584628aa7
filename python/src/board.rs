//! `Board`, `Move`, `Piece`, `Outcome`, `Termination` and the square
//! helpers: the crate's `Game` (rules, position, history) as python-chess
//! shapes a board.

use crate::{IllegalMoveError, InvalidFenError, InvalidMoveError, InvalidRuleError};
use doushou::rules::{
    Animal, DrawReason, FILES, Game, MoveError, Outcome as RustOutcome, Position, RANKS, Rules,
    SQUARES, Side, Square, VARIANTS, WinReason, perft_divide,
};
use doushou::rules::{Move as RustMove, Piece as RustPiece};
use doushou::tools::show::{board_svg, board_text};
use doushou::util::options::OptionKind;
use pyo3::exceptions::{PyIndexError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBool, PyDict, PyList, PyString};

/// Red, who moves first (python-chess's `WHITE`).
pub const RED: bool = true;

/// The side as python-chess spells a colour: `True` for Red.
fn color(side: Side) -> bool {
    side == Side::Red
}

fn side(color: bool) -> Side {
    if color { Side::Red } else { Side::Blue }
}

/// A square's index (0 = a1 .. 62 = g9) read from Python, checked.
fn on_board(index: i64) -> PyResult<Square> {
    if (0..SQUARES as i64).contains(&index) {
        Ok(Square::from_index(index as u8))
    } else {
        Err(PyValueError::new_err(format!(
            "square {index} is off the board (0 = a1 .. 62 = g9)"
        )))
    }
}

/// A move: its origin and target square. Moves compare and hash by their
/// squares; `Move.from_uci("g3g4")` equals the move `legal_moves` lists.
#[pyclass(module = "doushou", frozen, eq, hash)]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move(pub RustMove);

/// One `Move` object per bit pattern, made once: `legal_moves` hands out
/// these instead of allocating a Python object per move, which is most of
/// what a random playout from Python would otherwise spend.
static MOVES: PyOnceLock<Vec<Py<Move>>> = PyOnceLock::new();

/// The shared Python object of `m`.
fn move_object(py: Python<'_>, m: RustMove) -> Py<Move> {
    let all = MOVES.get_or_init(py, || {
        (0..1u16 << 12)
            .map(|bits| {
                let m = RustMove::from_bits(bits).unwrap_or(RustMove::NULL);
                Py::new(py, Move(m)).expect("a Move object is allocated")
            })
            .collect()
    });
    all[m.bits() as usize].clone_ref(py)
}

#[pymethods]
impl Move {
    /// The move from `from_square` to `to_square` (indices 0 = a1 .. 62 = g9).
    #[new]
    fn new(from_square: i64, to_square: i64) -> PyResult<Move> {
        let (from, to) = (on_board(from_square)?, on_board(to_square)?);
        if from == to {
            return Err(InvalidMoveError::new_err(format!(
                "a move from {from} to {to} goes nowhere"
            )));
        }
        Ok(Move(RustMove::new(from, to)))
    }

    /// The move written as origin and target square (`g3g4`), or `0000`.
    #[staticmethod]
    fn from_uci(uci: &str) -> PyResult<Move> {
        uci.parse()
            .map(Move)
            .map_err(|e: doushou::rules::MoveParseError| InvalidMoveError::new_err(e.to_string()))
    }

    /// No move (`0000`): what an engine answers when it has nothing to play.
    #[staticmethod]
    fn null() -> Move {
        Move(RustMove::NULL)
    }

    /// The move as the protocol writes it: `g3g4`, `0000` for no move.
    fn uci(&self) -> String {
        self.0.to_string()
    }

    /// The square the piece leaves.
    // python-chess's name, which scripts use; no conversion of `self`.
    #[allow(clippy::wrong_self_convention)]
    #[getter]
    fn from_square(&self) -> usize {
        self.0.from().index()
    }

    /// The square the piece goes to.
    #[allow(clippy::wrong_self_convention)]
    #[getter]
    fn to_square(&self) -> usize {
        self.0.to().index()
    }

    fn __bool__(&self) -> bool {
        !self.0.is_null()
    }

    fn __str__(&self) -> String {
        self.0.to_string()
    }

    fn __repr__(&self) -> String {
        format!("Move.from_uci('{}')", self.0)
    }
}

/// An animal of one side. `animal` is its default rank, 1 (rat) to 8
/// (elephant), as the constants `doushou.RAT` .. `doushou.ELEPHANT` name them.
#[pyclass(module = "doushou", frozen, eq, hash)]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Piece(pub RustPiece);

#[pymethods]
impl Piece {
    /// The piece of `animal` (1 = rat .. 8 = elephant) and `color` (`True` = Red).
    #[new]
    fn new(animal: i64, color: bool) -> PyResult<Piece> {
        if !(1..=8).contains(&animal) {
            return Err(PyValueError::new_err(format!(
                "animal {animal}: expected 1 (rat) to 8 (elephant)"
            )));
        }
        Ok(Piece(RustPiece::new(
            side(color),
            Animal::from_index(animal as usize - 1),
        )))
    }

    /// The piece a FEN letter stands for: uppercase Red, lowercase Blue.
    #[staticmethod]
    fn from_symbol(symbol: &str) -> PyResult<Piece> {
        let mut chars = symbol.chars();
        match (chars.next().and_then(RustPiece::from_letter), chars.next()) {
            (Some(p), None) => Ok(Piece(p)),
            _ => Err(PyValueError::new_err(format!(
                "'{symbol}' is no piece (E L T P W D C R, lowercase for Blue)"
            ))),
        }
    }

    /// Its default rank, 1 (rat) to 8 (elephant).
    #[getter]
    fn animal(&self) -> usize {
        self.0.animal.index() + 1
    }

    /// `True` for Red, `False` for Blue.
    #[getter]
    fn color(&self) -> bool {
        color(self.0.side)
    }

    /// The FEN letter: uppercase for Red, lowercase for Blue.
    fn symbol(&self) -> String {
        self.0.letter().to_string()
    }

    /// The animal's English name: `rat` .. `elephant`.
    fn animal_name(&self) -> &'static str {
        self.0.animal.name()
    }

    fn __str__(&self) -> String {
        self.symbol()
    }

    fn __repr__(&self) -> String {
        format!("Piece.from_symbol('{}')", self.0.letter())
    }
}

/// How a game ended.
#[pyclass(
    module = "doushou",
    frozen,
    eq,
    eq_int,
    hash,
    rename_all = "SCREAMING_SNAKE_CASE"
)]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub enum Termination {
    /// A piece entered the enemy den.
    Den,
    /// The loser has no pieces left.
    NoPieces,
    /// The side to move has no legal move, and loses.
    NoMoves,
    /// A position occurred for the third time (`Repetition=draw`).
    Repetition,
    /// `NoCaptureLimit` plies passed without a capture.
    NoCaptureLimit,
}

/// The end of a game: how (`termination`) and who won (`winner`: `True`
/// Red, `False` Blue, `None` for a draw).
#[pyclass(module = "doushou", frozen, eq)]
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Outcome(RustOutcome);

#[pymethods]
impl Outcome {
    /// How the game ended.
    #[getter]
    fn termination(&self) -> Termination {
        match self.0 {
            RustOutcome::Win { reason, .. } => match reason {
                WinReason::Den => Termination::Den,
                WinReason::AllCaptured => Termination::NoPieces,
                WinReason::NoLegalMove => Termination::NoMoves,
            },
            RustOutcome::Draw(DrawReason::Repetition) => Termination::Repetition,
            RustOutcome::Draw(DrawReason::NoCaptureLimit) => Termination::NoCaptureLimit,
        }
    }

    /// `True` if Red won, `False` if Blue won, `None` for a draw.
    #[getter]
    fn winner(&self) -> Option<bool> {
        match self.0 {
            RustOutcome::Win { winner, .. } => Some(color(winner)),
            RustOutcome::Draw(_) => None,
        }
    }

    /// `1-0` (Red won), `0-1` or `1/2-1/2`, as records write it.
    fn result(&self) -> &'static str {
        self.0.score_text()
    }

    /// In words, as the `Termination` tag of a record says it.
    fn __str__(&self) -> String {
        self.0.to_string()
    }

    fn __repr__(&self) -> String {
        format!("<Outcome {}: {}>", self.0.score_text(), self.0)
    }
}

/// A rule value from Python as the protocol spells it (`true`, `100`, `both`).
fn rule_value(value: &Bound<'_, PyAny>) -> PyResult<String> {
    if let Ok(b) = value.cast::<PyBool>() {
        Ok(b.is_true().to_string())
    } else if let Ok(i) = value.extract::<i64>() {
        Ok(i.to_string())
    } else if let Ok(s) = value.cast::<PyString>() {
        Ok(s.to_str()?.to_string())
    } else {
        Err(PyTypeError::new_err(
            "a rule's value is a bool, an int or a str",
        ))
    }
}

/// The rules of a `variant` preset with the `rules` switches applied: a
/// dict `{"DogOverWolf": True}` or the text `"DogOverWolf=true ..."`.
pub fn rules_of(variant: &str, rules: Option<&Bound<'_, PyAny>>) -> PyResult<Rules> {
    let mut r = Rules::preset(variant).ok_or_else(|| {
        InvalidRuleError::new_err(format!(
            "unknown variant '{variant}' (one of: {})",
            VARIANTS.join(", ")
        ))
    })?;
    let bad = |e: doushou::util::options::OptionError| InvalidRuleError::new_err(e.to_string());
    match rules {
        None => {}
        Some(text) if text.is_instance_of::<PyString>() => {
            let text: String = text.extract()?;
            r.apply_settings(text.split_whitespace()).map_err(bad)?;
        }
        Some(switches) => {
            let switches = switches.cast::<PyDict>().map_err(|_| {
                PyTypeError::new_err("rules are a dict {name: value} or a str 'Name=Value ...'")
            })?;
            for (name, value) in switches.iter() {
                let name: String = name.extract()?;
                r.set(&name, &rule_value(&value)?).map_err(bad)?;
            }
        }
    }
    Ok(r)
}

/// The rules as a dict of Python values: checks as bools, spins as ints,
/// combos as strs; every switch but the preset.
pub fn rules_dict<'py>(py: Python<'py>, rules: &Rules) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    for (name, value) in rules.settings() {
        match Rules::option_kind(name) {
            Some(OptionKind::Check { .. }) => dict.set_item(name, value == "true")?,
            Some(OptionKind::Spin { .. }) => {
                dict.set_item(name, value.parse::<i64>().unwrap_or_default())?
            }
            _ => dict.set_item(name, value)?,
        }
    }
    Ok(dict)
}

/// The message of a move that cannot be played, as the right exception.
fn move_error(e: MoveError) -> PyErr {
    match e {
        MoveError::Malformed(e) => InvalidMoveError::new_err(e.to_string()),
        e @ MoveError::Illegal { .. } => IllegalMoveError::new_err(e.to_string()),
    }
}

/// A game of Dou Shou Qi under a set of rules: the position, the moves that
/// led to it (repetition needs them) and the moves from here.
#[pyclass(module = "doushou")]
#[derive(Clone)]
pub struct Board {
    pub game: Game,
}

impl Board {
    /// The position after every move played.
    pub fn position(&self) -> &Position {
        self.game.position()
    }
}

#[pymethods]
impl Board {
    /// The position `fen` (default: the start position) under the preset
    /// `variant` (`jungle` or `xoudouqi`) with the `rules` switches on top.
    #[new]
    #[pyo3(signature = (fen = None, *, variant = "jungle", rules = None))]
    fn new(fen: Option<&str>, variant: &str, rules: Option<&Bound<'_, PyAny>>) -> PyResult<Board> {
        let rules = rules_of(variant, rules)?;
        let position: Position = fen
            .unwrap_or(doushou::rules::START_FEN)
            .parse()
            .map_err(|e: doushou::rules::FenError| InvalidFenError::new_err(e.to_string()))?;
        Ok(Board {
            game: Game::new(rules, position),
        })
    }

    /// The position's text: board, side to move, plies since the last
    /// capture, move number.
    fn fen(&self) -> String {
        self.position().fen()
    }

    /// Every legal move, in the order the rules generate them (repetition
    /// under `Repetition=forbid` included).
    #[getter]
    fn legal_moves<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let moves = self.game.legal_moves();
        PyList::new(py, moves.iter().map(|&m| move_object(py, m)))
    }

    /// Whether `move` is legal here.
    fn is_legal(&self, r#move: &Bound<'_, Move>) -> bool {
        let m = r#move.get().0;
        !m.is_null() && self.game.is_legal(m)
    }

    /// Plays `move`; an illegal one raises `IllegalMoveError` and changes nothing.
    fn push(&mut self, r#move: &Bound<'_, Move>) -> PyResult<()> {
        let m = r#move.get().0;
        // The common case in one move generation (a decided game has no
        // moves); `play` finds the reason for anything else.
        if !m.is_null() && self.game.draw_reason().is_none() && self.game.is_legal(m) {
            self.game.make(m);
            return Ok(());
        }
        self.game.play(m).map_err(move_error)
    }

    /// Plays the move written `uci` (`g3g4`) and answers it.
    fn push_uci(&mut self, py: Python<'_>, uci: &str) -> PyResult<Py<Move>> {
        let m = self.game.play_text(uci).map_err(move_error)?;
        Ok(move_object(py, m))
    }

    /// Takes back the last move and answers it; `IndexError` if there is none.
    fn pop(&mut self, py: Python<'_>) -> PyResult<Py<Move>> {
        let m = self
            .game
            .last_move()
            .ok_or_else(|| PyIndexError::new_err("pop from a board with no move played"))?;
        self.game.unmake();
        Ok(move_object(py, m))
    }

    /// The last move played; `IndexError` if there is none.
    fn peek(&self, py: Python<'_>) -> PyResult<Py<Move>> {
        let m = self
            .game
            .last_move()
            .ok_or_else(|| PyIndexError::new_err("peek at a board with no move played"))?;
        Ok(move_object(py, m))
    }

    /// The moves played since the first position, in order.
    #[getter]
    fn move_stack<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        PyList::new(
            py,
            self.game
                .moves_played()
                .into_iter()
                .map(|m| move_object(py, m)),
        )
    }

    /// The board as it was before the first move played.
    fn root(&self) -> Board {
        Board {
            game: Game::new(*self.game.rules(), *self.game.start_position()),
        }
    }

    /// Plies played since the first position.
    fn ply(&self) -> usize {
        self.game.plies_played()
    }

    /// The side to move: `True` (`doushou.RED`) or `False` (`doushou.BLUE`).
    #[getter]
    fn turn(&self) -> bool {
        color(self.position().side_to_move())
    }

    /// Plies since the last capture (the no-capture counter).
    #[getter]
    fn plies_since_capture(&self) -> u32 {
        self.position().plies_since_capture()
    }

    /// The move number: 1 at the start, one more after each Blue move.
    #[getter]
    fn fullmove_number(&self) -> u32 {
        self.position().move_number()
    }

    /// The preset the rules equal (`jungle`, `xoudouqi`), or `custom`.
    #[getter]
    fn variant(&self) -> &'static str {
        self.game.rules().preset_name().unwrap_or("custom")
    }

    /// Every rule switch, `{name: value}`, as the protocol names them.
    #[getter]
    fn rules<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        rules_dict(py, self.game.rules())
    }

    /// The piece on `square` (0 = a1 .. 62 = g9), or `None`.
    fn piece_at(&self, square: i64) -> PyResult<Option<Piece>> {
        Ok(self.position().piece_at(on_board(square)?).map(Piece))
    }

    /// The piece `move` would move here, or `None` if its origin is empty.
    fn piece_moved(&self, r#move: &Bound<'_, Move>) -> Option<Piece> {
        let m = r#move.get().0;
        if m.is_null() {
            return None;
        }
        self.position().piece_at(m.from()).map(Piece)
    }

    /// Whether `move` takes a piece.
    fn is_capture(&self, r#move: &Bound<'_, Move>) -> bool {
        let m = r#move.get().0;
        !m.is_null() && self.position().is_capture(m)
    }

    /// How the game ended, or `None` while it goes on.
    fn outcome(&self) -> Option<Outcome> {
        self.game.outcome().map(Outcome)
    }

    /// Whether the game is over (a den entered, no pieces or no moves, a draw by rule).
    fn is_game_over(&self) -> bool {
        self.game.outcome().is_some()
    }

    /// A board of its own with the same rules, position and history.
    fn copy(&self) -> Board {
        self.clone()
    }

    fn __copy__(&self) -> Board {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Board {
        self.clone()
    }

    /// The leaves of the legal move tree `depth` plies deep, as `doushou
    /// perft` counts them (history included), on `threads` threads (at
    /// most 256, as the engine's `Threads`). The interpreter's lock is
    /// released while it counts.
    #[pyo3(signature = (depth, threads = 1))]
    fn perft(&self, py: Python<'_>, depth: u32, threads: usize) -> u64 {
        let game = self.game.clone();
        py.detach(move || perft_divide(&game, depth, threads.clamp(1, 256)).nodes)
    }

    /// The Zobrist key of the board and side to move (not the counters), as
    /// the engine's transposition table and `d`'s `Key:` use it.
    fn zobrist_hash(&self) -> u64 {
        self.position().key()
    }

    /// The position as an SVG picture, with `arrow` (a move) drawn if given.
    #[pyo3(signature = (arrow = None))]
    fn svg(&self, arrow: Option<&Bound<'_, Move>>) -> String {
        board_svg(
            &self.game,
            arrow.map(|m| m.get().0).filter(|m| !m.is_null()),
        )
    }

    /// The SVG picture without its XML declaration, for notebooks to inline.
    fn _repr_svg_(&self) -> String {
        let svg = self.svg(None);
        match svg.find("<svg") {
            Some(start) => svg[start..].to_string(),
            None => svg,
        }
    }

    /// The board as `doushou show` draws it in a terminal.
    fn __str__(&self) -> String {
        board_text(&self.game, false)
    }

    fn __repr__(&self) -> String {
        match self.game.rules().preset_name() {
            Some("jungle") => format!("Board('{}')", self.fen()),
            Some(v) => format!("Board('{}', variant='{v}')", self.fen()),
            None => format!("Board('{}', rules='{}')", self.fen(), self.game.rules()),
        }
    }

    /// Boards are equal when their positions (counters included) and rules are.
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        match other.cast::<Board>() {
            Ok(other) => {
                let other = other.borrow();
                self.position() == other.position() && self.game.rules() == other.game.rules()
            }
            Err(_) => false,
        }
    }

    /// The Zobrist key: equal boards hash alike.
    fn __hash__(&self) -> u64 {
        self.position().key()
    }
}

/// The index of the square named `name` (`a1` .. `g9`).
#[pyfunction]
fn parse_square(name: &str) -> PyResult<usize> {
    name.parse::<Square>()
        .map(Square::index)
        .map_err(|e| PyValueError::new_err(e.to_string()))
}

/// The name of square `square` (0 = a1 .. 62 = g9).
#[pyfunction]
fn square_name(square: i64) -> PyResult<String> {
    Ok(on_board(square)?.to_string())
}

/// Adds the board's classes and the square helpers to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Board>()?;
    m.add_class::<Move>()?;
    m.add_class::<Piece>()?;
    m.add_class::<Outcome>()?;
    m.add_class::<Termination>()?;
    m.add_function(wrap_pyfunction!(parse_square, m)?)?;
    m.add_function(wrap_pyfunction!(square_name, m)?)?;
    m.add("RED", RED)?;
    m.add("BLUE", !RED)?;
    m.add("FILES", FILES)?;
    m.add("RANKS", RANKS)?;
    m.add("STARTING_FEN", doushou::rules::START_FEN)?;
    m.add("VARIANTS", VARIANTS.to_vec())?;
    Ok(())
}
