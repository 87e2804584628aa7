//! The JSON of the API (docs/gui.md): what requests carry and what the state
//! of a game looks like.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A refused request: an HTTP status (4xx) and why, sent as `{"error": ...}`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApiError {
    /// The HTTP status.
    pub status: u16,
    /// What was wrong, for people.
    pub message: String,
}

/// The body of `POST /api/game/{id}/move`.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct MoveRequest {
    /// The move in protocol notation (`g3g4`).
    #[serde(rename = "move")]
    pub text: String,
}

/// The body of `POST /api/game/{id}/position`.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct PositionRequest {
    /// `startpos` or a FEN, optionally followed by `moves ...`.
    pub fen: String,
}

/// The body of `POST /api/game/{id}/pgn`.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct PgnRequest {
    /// The records, as `doushou match` writes them.
    pub pgn: String,
    /// Which game of the text, from 0.
    #[serde(default)]
    pub index: usize,
}

/// The body of `POST /api/game/{id}/navigate`.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct NavigateRequest {
    /// Show the position after this many moves of the game.
    pub ply: usize,
}

/// The body of `POST /api/game/{id}/analysis`.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct AnalysisRequest {
    /// Start (true) or stop (false) the analysis.
    pub on: bool,
    /// How many lines (1 to 32).
    #[serde(default)]
    pub multipv: Option<u32>,
}

/// The body of `POST /api/game/{id}/options`; every part optional.
#[derive(Deserialize, Debug, Default)]
#[serde(deny_unknown_fields)]
pub struct OptionsRequest {
    /// Rule options by protocol name (`UCI_Variant` first), values as strings,
    /// booleans or numbers.
    #[serde(default)]
    pub rules: BTreeMap<String, serde_json::Value>,
    /// Who plays each side: `human` or an engine's name.
    #[serde(default)]
    pub players: Option<Players>,
    /// The engines' search limits per move.
    #[serde(default)]
    pub limits: Option<MoveLimits>,
}

/// Who plays each side.
#[derive(Serialize, Deserialize, Debug, Clone, Default)]
#[serde(deny_unknown_fields)]
pub struct Players {
    /// Red's player.
    pub red: Option<String>,
    /// Blue's player.
    pub blue: Option<String>,
}

/// How long an engine thinks per move: any combination, the first reached ends
/// the search; none at all means 1000 ms.
#[derive(Serialize, Deserialize, Debug, Clone, Default, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct MoveLimits {
    /// Milliseconds per move.
    #[serde(default)]
    pub movetime: Option<u64>,
    /// Plies.
    #[serde(default)]
    pub depth: Option<u32>,
    /// Nodes.
    #[serde(default)]
    pub nodes: Option<u64>,
}

/// The whole state of a game, as `GET /api/game/{id}` and every change answer.
#[derive(Serialize, Debug)]
pub struct State {
    /// The game id.
    pub id: String,
    /// Grows with every change, so that pages can drop late updates.
    pub version: u64,
    /// Grows with every change of position or settings; analysis updates carry it.
    pub generation: u64,
    /// The position shown.
    pub fen: String,
    /// Where the game started.
    pub start_fen: String,
    /// Every move of the game line, also those after the position shown.
    pub moves: Vec<String>,
    /// How many of `moves` lead to the position shown.
    pub ply: usize,
    /// `red` or `blue`.
    pub side_to_move: String,
    /// The 63 squares, top rank first, left to right.
    pub board: Vec<SquareView>,
    /// The pieces on the board.
    pub pieces: Vec<PieceView>,
    /// Legal moves by origin square; empty when the page may not move (an
    /// engine's turn, the game over).
    pub legal: BTreeMap<String, Vec<String>>,
    /// The move that led to the position shown.
    pub last_move: Option<String>,
    /// The end of the game at the position shown, if it is over.
    pub outcome: Option<OutcomeView>,
    /// `jungle`, `xoudouqi` or `custom`.
    pub variant: String,
    /// Every rule option with its value.
    pub rules: Vec<RuleView>,
    /// Who plays each side (`human` or an engine's name).
    pub players: Players,
    /// The engines that can play, by name; the first also analyses.
    pub engines: Vec<String>,
    /// The engines' limits per move.
    pub limits: MoveLimits,
    /// The engine that is thinking about its move, if one is.
    pub thinking: Option<Thinking>,
    /// The analysis of the position shown.
    pub analysis: AnalysisView,
    /// The options each engine process has acknowledged (`isready`), by engine.
    pub engine_options: BTreeMap<String, BTreeMap<String, String>>,
    /// The last engine failure, until the next change.
    pub error: Option<String>,
    /// The game as a record (`doushou match`'s format), to copy.
    pub pgn: String,
    /// The record's result: `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub result: String,
}

/// One square of the board.
#[derive(Serialize, Debug)]
pub struct SquareView {
    /// Its name, `a1`.
    pub square: String,
    /// `land`, `water`, `trap` or `den`.
    pub ground: &'static str,
    /// The side a trap or den belongs to.
    pub owner: Option<String>,
}

/// One piece on the board.
#[derive(Serialize, Debug)]
pub struct PieceView {
    /// Where it stands.
    pub square: String,
    /// The FEN letter, uppercase for Red.
    pub piece: String,
    /// `red` or `blue`.
    pub side: String,
    /// `elephant`, `lion`, ...
    pub animal: &'static str,
    /// Its rank under the rules in force (1 rat .. 8 elephant).
    pub rank: u8,
}

/// How the game ended.
#[derive(Serialize, Debug)]
pub struct OutcomeView {
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub result: &'static str,
    /// `den`, `no_pieces`, `no_move`, `repetition` or `no_capture_limit`.
    pub reason: &'static str,
    /// `red`, `blue`, or none for a draw.
    pub winner: Option<String>,
    /// The result in words.
    pub text: String,
}

/// One rule option.
#[derive(Serialize, Debug)]
pub struct RuleView {
    /// Its protocol name.
    pub name: &'static str,
    /// Its value now.
    pub value: String,
    /// `check`, `combo` or `spin`.
    pub kind: &'static str,
    /// Its default.
    pub default: String,
    /// The values of a combo.
    pub choices: Vec<&'static str>,
    /// The smallest value of a spin.
    pub min: Option<i64>,
    /// The largest value of a spin.
    pub max: Option<i64>,
}

/// A score from Red's point of view.
#[derive(Serialize, Debug, Clone, Default)]
pub struct ScoreView {
    /// Centipawns (positive: Red is better).
    pub cp: Option<i32>,
    /// Moves to a forced win (positive: Red wins).
    pub mate: Option<i32>,
    /// For people: `+0.35`, `+#3`.
    pub text: String,
}

/// One line of analysis.
#[derive(Serialize, Debug, Clone, Default)]
pub struct AnalysisLine {
    /// Its rank among the lines, from 1.
    pub multipv: u32,
    /// Its depth.
    pub depth: u32,
    /// Its score.
    pub score: ScoreView,
    /// `lower` or `upper` (from Red's view) when the score is a bound.
    pub bound: Option<&'static str>,
    /// Nodes searched so far.
    pub nodes: Option<u64>,
    /// The moves.
    pub pv: Vec<String>,
}

/// The analysis of the position shown.
#[derive(Serialize, Debug, Clone)]
pub struct AnalysisView {
    /// Whether it runs.
    pub on: bool,
    /// How many lines are asked.
    pub multipv: u32,
    /// The engine analysing.
    pub engine: String,
    /// The lines so far, best first.
    pub lines: Vec<AnalysisLine>,
}

/// An engine thinking about its move.
#[derive(Serialize, Debug, Clone)]
pub struct Thinking {
    /// The side it plays.
    pub side: String,
    /// Its name.
    pub engine: String,
    /// Its latest main line.
    pub line: Option<AnalysisLine>,
}
