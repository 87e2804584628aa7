//! The JSON of the API (docs/gui.md): what requests carry and what the state
//! of a game looks like.

use crate::client::TimeControl;
use crate::rules::Side;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The body of `POST /api/game/{id}/move`.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct MoveRequest {
    /// The move in protocol notation (`g3g4`).
    #[serde(rename = "move")]
    pub text: String,
}

/// The body of `POST /api/game/{id}/line`.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct LineRequest {
    /// The moves to play from the position shown, in protocol notation.
    pub moves: Vec<String>,
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
    /// Which of the engines analyses, by name.
    #[serde(default)]
    pub engine: Option<String>,
}

/// The body of `POST /api/game/{id}/review`.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct ReviewRequest {
    /// Start (true, the default) or cancel (false) the review.
    #[serde(default = "yes")]
    pub on: bool,
    /// The depth each position is searched to (1 to 30; default 8).
    #[serde(default)]
    pub depth: Option<u32>,
}

fn yes() -> bool {
    true
}

/// The body of `POST /api/game/{id}/resign`.
#[derive(Deserialize, Debug, Default)]
#[serde(deny_unknown_fields)]
pub struct ResignRequest {
    /// The side that resigns (default: the side of the human, the side to
    /// move when both or neither are human).
    #[serde(default)]
    pub side: Option<String>,
}

/// The body of `POST /api/game/{id}/draw`.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct DrawRequest {
    /// `offer` (the opponent accepts or declines) or `claim` (a third
    /// repetition the rules do not end by themselves).
    pub action: String,
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
    /// Clocks for each side; a side with one plays on its time (`null`
    /// turns a side's clock off).
    #[serde(default)]
    pub clocks: Option<ClocksRequest>,
    /// The level each side's engine plays at.
    #[serde(default)]
    pub levels: Option<LevelsRequest>,
}

/// The clocks asked for, by side; a missing side is left as it is.
#[derive(Deserialize, Debug, Default)]
#[serde(deny_unknown_fields)]
pub struct ClocksRequest {
    /// Red's clock, or `null` for none.
    #[serde(default, deserialize_with = "some")]
    pub red: Option<Option<TimeControl>>,
    /// Blue's clock, or `null` for none.
    #[serde(default, deserialize_with = "some")]
    pub blue: Option<Option<TimeControl>>,
}

/// A present field as `Some`, even when it is `null`.
fn some<'de, T: Deserialize<'de>, D: serde::Deserializer<'de>>(
    d: D,
) -> Result<Option<T>, D::Error> {
    T::deserialize(d).map(Some)
}

/// One thing for each side, named as the JSON names the sides:
/// `{"red": ..., "blue": ...}`; a side missing in a request reads as
/// `T::default()`.
#[derive(Serialize, Deserialize, Debug, Clone, Copy, Default, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct BySide<T> {
    /// Red's (the side that moves first).
    #[serde(default)]
    pub red: T,
    /// Blue's (the side that moves second).
    #[serde(default)]
    pub blue: T,
}

impl<T> BySide<T> {
    /// The side's.
    pub fn of(&self, side: Side) -> &T {
        match side {
            Side::Red => &self.red,
            Side::Blue => &self.blue,
        }
    }
}

/// The levels asked for, by side; a missing side is left as it is.
pub type LevelsRequest = BySide<Option<Level>>;

/// How strong an engine plays: full strength (neither field), a `Skill Level`
/// (0-20), or a rating (`UCI_LimitStrength` with `UCI_Elo`).
#[derive(Serialize, Deserialize, Debug, Clone, Copy, Default, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Level {
    /// `Skill Level`, 0 (weakest) to 20 (full strength).
    #[serde(default)]
    pub skill: Option<u32>,
    /// `UCI_Elo` with `UCI_LimitStrength` on.
    #[serde(default)]
    pub elo: Option<u32>,
}

/// Who plays each side: `human` or an engine's name (in a request, a
/// missing side is left as it is).
pub type Players = BySide<Option<String>>;

/// How long an engine thinks per move: any combination, the first reached ends
/// the search; none at all means 1000 ms.
#[derive(Serialize, Deserialize, Debug, Clone, Default, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct MoveLimits {
    /// Milliseconds per move (1 to 3600000), sent as `go movetime`.
    #[serde(default)]
    pub movetime: Option<u64>,
    /// The depth to search to, plies (1 to 64), sent as `go depth`.
    #[serde(default)]
    pub depth: Option<u32>,
    /// The nodes to search (1 to 10^10), sent as `go nodes`.
    #[serde(default)]
    pub nodes: Option<u64>,
}

/// The whole state of a game, as `GET /api/game/{id}` and every change answer.
#[derive(Serialize, Debug)]
pub struct State {
    /// The game id, the `{id}` of the API's paths.
    pub id: String,
    /// Grows with every change, so that pages can drop late updates.
    pub version: u64,
    /// Grows with every change of position or settings; analysis updates carry it.
    pub generation: u64,
    /// The position shown, as a FEN (not always the end of the game line).
    pub fen: String,
    /// Where the game started.
    pub start_fen: String,
    /// Every move of the game line, also those after the position shown.
    pub moves: Vec<String>,
    /// How many of `moves` lead to the position shown.
    pub ply: usize,
    /// The side to move in the position shown: `red` or `blue`.
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
    /// Each move of the game line for people: the piece's letter (lowercase
    /// for Blue), the squares and `×` for a capture (`L g1×g2`, `r a7a6`).
    pub move_list: Vec<MoveView>,
    /// Each side's clock, if it has one.
    pub clocks: ClocksView,
    /// Each side's engine level.
    pub levels: LevelsView,
    /// The `UCI_Elo` ratings the level menu offers: doushou's calibrated
    /// range, every 100 ([`crate::engine::skill::elo_choices`]).
    pub elo_choices: Vec<i32>,
    /// The review of the game line, if one was asked.
    pub review: Option<ReviewView>,
    /// What the endgame tables (`--tablebases`) say about the position
    /// shown; `null` when it is not in them or no tables answer for the rules.
    pub tablebase: Option<TablebaseView>,
    /// Whether a draw can be claimed in the position shown.
    pub draw_claimable: bool,
    /// Whether Takeback would change anything: the line has a move, or an
    /// ending (resignation, flag, draw) to take back.
    pub can_take_back: bool,
    /// The record's result: `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub result: String,
}

/// One move of the game line, for people.
#[derive(Serialize, Debug, Clone)]
pub struct MoveView {
    /// The move in protocol notation, `g1g2`.
    #[serde(rename = "move")]
    pub text: String,
    /// The piece's letter as FEN writes it: uppercase for Red (`L`),
    /// lowercase for Blue (`l`).
    pub letter: String,
    /// Whether it took a piece.
    pub capture: bool,
    /// `L g1g2`, or `L g1×g2` for a capture (`l a9a8` for Blue).
    pub display: String,
}

/// Both sides' clocks and which one runs.
#[derive(Serialize, Debug, Clone, Default)]
pub struct ClocksView {
    /// Red's clock, `null` when Red plays without one.
    pub red: Option<ClockView>,
    /// Blue's clock, `null` when Blue plays without one.
    pub blue: Option<ClockView>,
    /// The side whose clock runs now, if one does.
    pub running: Option<String>,
}

/// One side's clock: its control and the time it had left.
#[derive(Serialize, Debug, Clone)]
pub struct ClockView {
    /// Its time control: base time and increment.
    pub control: TimeControl,
    /// Time left when the state was made, ms (it runs on while `running`).
    pub remaining_ms: i64,
}

/// The level each side's engine plays at.
pub type LevelsView = BySide<Level>;

/// The review of a game: a search of every position, each move judged.
#[derive(Serialize, Debug, Clone)]
pub struct ReviewView {
    /// The depth of each search.
    pub depth: u32,
    /// Positions searched so far.
    pub done: usize,
    /// Positions to search (moves + 1).
    pub total: usize,
    /// Whether the searches go on.
    pub running: bool,
    /// Why it stopped early, if it failed.
    pub error: Option<String>,
    /// One entry per move, once all are searched.
    pub plies: Vec<ReviewPly>,
}

/// One move of a review.
#[derive(Serialize, Debug, Clone)]
pub struct ReviewPly {
    /// Which move (from 1).
    pub ply: usize,
    /// The move played, protocol notation.
    #[serde(rename = "move")]
    pub played: String,
    /// The engine's choice in the position before it.
    pub best: String,
    /// The evaluation after the move, centipawns from Red's view (mates as ±10000).
    pub cp: i32,
    /// Centipawns the move lost against the engine's choice.
    pub drop: i32,
    /// `inaccuracy`, `mistake` or `blunder`, if it is one.
    pub judgement: Option<&'static str>,
}

/// One square of the board.
#[derive(Serialize, Debug)]
pub struct SquareView {
    /// Its name, file and rank: `a1`.
    pub square: String,
    /// `land`, `water`, `trap` or `den`.
    pub ground: &'static str,
    /// The side a trap or den belongs to.
    pub owner: Option<String>,
}

/// One piece on the board.
#[derive(Serialize, Debug)]
pub struct PieceView {
    /// The square it stands on, `a1`.
    pub square: String,
    /// The FEN letter, uppercase for Red.
    pub piece: String,
    /// Whose it is: `red` or `blue`.
    pub side: String,
    /// Its animal's name: `elephant`, `lion`, ..., `rat`.
    pub animal: &'static str,
    /// Its rank where it stands under the rules in force (1 rat .. 8
    /// elephant; 0 in a trap that weakens it).
    pub rank: u8,
}

/// How the game ended.
#[derive(Serialize, Debug)]
pub struct OutcomeView {
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub result: &'static str,
    /// `den`, `no_pieces`, `no_move`, `repetition`, `no_capture_limit`,
    /// `resignation`, `time` or `agreement`.
    pub reason: &'static str,
    /// `red`, `blue`, or none for a draw.
    pub winner: Option<String>,
    /// The result in words.
    pub text: String,
}

/// One rule option, as the page's Rules card shows it.
#[derive(Serialize, Debug)]
pub struct RuleView {
    /// Its protocol name (`DogOverWolf`), as `setoption` takes it.
    pub name: &'static str,
    /// What it is called for people.
    pub label: &'static str,
    /// What it changes, in a sentence.
    pub help: &'static str,
    /// Its value in the game now, as the protocol writes it.
    pub value: String,
    /// `check`, `combo` or `spin`.
    pub kind: &'static str,
    /// Its value under the default rules.
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
    /// The depth the engine reached for it, plies.
    pub depth: u32,
    /// Its score, from Red's point of view.
    pub score: ScoreView,
    /// `lower` or `upper` (from Red's view) when the score is a bound.
    pub bound: Option<&'static str>,
    /// Nodes searched so far.
    pub nodes: Option<u64>,
    /// Its moves from the position analysed, protocol notation.
    pub pv: Vec<String>,
}

/// The analysis of the position shown.
#[derive(Serialize, Debug, Clone)]
pub struct AnalysisView {
    /// Whether the analysis runs (it stops when no page listens).
    pub on: bool,
    /// How many lines are asked.
    pub multipv: u32,
    /// The name of the engine that analyses.
    pub engine: String,
    /// The lines so far, best first.
    pub lines: Vec<AnalysisLine>,
}

/// An engine thinking about its move.
#[derive(Serialize, Debug, Clone)]
pub struct Thinking {
    /// The side it plays.
    pub side: String,
    /// The name of the engine that thinks.
    pub engine: String,
    /// Its latest main line.
    pub line: Option<AnalysisLine>,
}

/// A table's verdict for one side, as `doushou tb probe` prints it and in parts.
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct VerdictView {
    /// `win N`, `loss N` or `draw`.
    pub text: String,
    /// `win`, `draw` or `loss`.
    pub result: &'static str,
    /// Plies to the end of the game with best play; `null` for a draw.
    pub plies: Option<u32>,
}

/// The endgame tables on the position shown.
#[derive(Serialize, Debug, Clone)]
pub struct TablebaseView {
    /// The verdict for the side to move.
    pub verdict: VerdictView,
    /// Each legal move with the verdict for the side that plays it (the
    /// plies counting the move itself), best first: wins by fewest plies,
    /// then draws, then losses by most plies. Empty when the game is over.
    pub moves: Vec<TablebaseMove>,
    /// Plies the no-capture limit leaves before it draws the game (`null`:
    /// no limit); a win or loss longer than this may not come to pass.
    pub plies_before_limit: Option<u32>,
}

/// One legal move ranked by the tables.
#[derive(Serialize, Debug, Clone)]
pub struct TablebaseMove {
    /// The move in protocol notation, `g1g2`.
    #[serde(rename = "move")]
    pub text: String,
    /// For people: `L g1g2`, `L g1×g2` for a capture.
    pub display: String,
    /// The verdict after it, for the side that played it.
    pub verdict: VerdictView,
}
