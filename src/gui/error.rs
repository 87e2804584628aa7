//! Why the server refused a request: [`ApiError`], one variant per cause,
//! each with its HTTP status; the answer's body is its message.

use super::clock::ClockError;
use super::game::review_job::MAX_DEPTH as MAX_REVIEW_DEPTH;
use super::http::ReadError;
use crate::rules::{FenError, GameError, MoveError, Side};
use crate::tools::pgn::read::InputError;
use crate::util::options::OptionError;
use crate::util::words::count;

/// A refused request, one variant per cause, each with its HTTP status
/// ([`ApiError::status`]); sent as `{"error": "<its message>"}`.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// Every request worker is busy and the queue is full.
    #[error("the server is busy; try again in a moment")]
    Busy,
    /// The request could not be read as HTTP.
    #[error(transparent)]
    Request(#[from] ReadError),
    /// The body is not the JSON the call takes.
    #[error("bad JSON: {0}")]
    Json(#[source] serde_json::Error),
    /// The `Host` header names another server (DNS rebinding).
    #[error("this server answers only requests addressed to it (Host header)")]
    ForeignHost,
    /// The `Origin` header names another site.
    #[error("this server answers only its own page (Origin {0:?} is another site)")]
    ForeignOrigin(String),
    /// A change not sent as JSON (a cross-site "simple" request).
    #[error("a change must be sent as JSON (Content-Type: application/json)")]
    NotJson,
    /// No API call has this method and path.
    #[error("no API call {method} {path}")]
    NoApiCall {
        /// The request's method.
        method: String,
        /// The request's path.
        path: String,
    },
    /// Nothing is served at this path.
    #[error("nothing at {0}")]
    NotFound(String),
    /// No game has this id.
    #[error("no game '{0}' (it may have ended with the server)")]
    NoGame(String),
    /// A game has no such action.
    #[error("no action '{0}'")]
    NoAction(String),
    /// As many pages listen as the server serves.
    #[error("{0} pages listen to this server already, the most it serves; close another tab of it")]
    TooManyStreams(usize),
    /// As many reviews run as the server runs at once.
    #[error("{0} reviews run already, the most this server runs at once; wait for one to end")]
    TooManyReviews(usize),
    /// A level given both ways.
    #[error("a level is a skill or an Elo, not both")]
    SkillAndElo,
    /// A level out of the range the seat's engine announces for its option.
    #[error("{option} {value}: expected {min} to {max}, the range engine {engine} announces")]
    Level {
        /// `Skill Level` or `UCI_Elo`.
        option: &'static str,
        /// The level asked for.
        value: u32,
        /// The engine of the seat.
        engine: String,
        /// The least value its option line gives.
        min: i64,
        /// The most.
        max: i64,
    },
    /// A level by an option the seat's engine does not announce.
    #[error("engine {engine} announces no {option} option: no such level for it")]
    NoLevelOption {
        /// `Skill Level` or `UCI_Elo`.
        option: &'static str,
        /// The engine of the seat.
        engine: String,
    },
    /// Analysis asked of a person.
    #[error("a person cannot analyse here")]
    HumanAnalyst,
    /// Too few or too many lines asked of the analysis.
    #[error("multipv {0}: expected 1 to 32")]
    MultiPv(u32),
    /// A player name that is no engine (and not `human`).
    #[error("no engine '{name}' (human, {})", .known.join(", "))]
    NoEngine {
        /// The name asked for.
        name: String,
        /// The engines there are.
        known: Vec<String>,
    },
    /// A move asked for after the end of the game.
    #[error("the game is over: {0}")]
    GameOver(String),
    /// A move asked of the page while an engine is to move.
    #[error("it is the engine's turn ({0} to move)")]
    EngineTurn(Side),
    /// A move that cannot be played here.
    #[error(transparent)]
    Move(MoveError),
    /// A line of no moves.
    #[error("an empty line")]
    EmptyLine,
    /// A move of a line that cannot be played.
    #[error("move {number} of the line: {error}")]
    LineMove {
        /// Its number in the line, from 1.
        number: usize,
        /// Why.
        #[source]
        error: MoveError,
    },
    /// A line asked for where the game is over.
    #[error("the game is over here")]
    OverHere,
    /// A position (or its moves) that does not read or play.
    #[error(transparent)]
    Position(InputError),
    /// A FEN that does not read.
    #[error(transparent)]
    Fen(FenError),
    /// A ply the game line does not have.
    #[error("ply {ply} asked, the game has {moves}")]
    Ply {
        /// The ply asked for.
        ply: usize,
        /// The moves of the line.
        moves: usize,
    },
    /// A resignation or draw once the game is over.
    #[error("the game is already over")]
    AlreadyOver,
    /// A draw claimed with no third occurrence.
    #[error("no draw to claim: the position has not occurred three times")]
    NoRepetition,
    /// The engine declines a draw offer.
    #[error("{0} declines the draw")]
    DrawDeclined(String),
    /// A draw action that is neither `offer` nor `claim`.
    #[error("draw action '{0}': expected offer or claim")]
    DrawAction(String),
    /// A take-back at the start.
    #[error("no move to take back")]
    NothingToTakeBack,
    /// A side that is neither `red` nor `blue`.
    #[error("side '{0}': expected red or blue")]
    SideName(String),
    /// A game record text without a game.
    #[error("no game in the text")]
    NoGameInText,
    /// A game record that does not read.
    #[error("line {line}: {error}")]
    Record {
        /// The line, from 1.
        line: usize,
        /// What is wrong there.
        #[source]
        error: InputError,
    },
    /// A game the record text does not have.
    #[error("game {asked} asked, the text has {}", count(*.games as u64, "game", "games"))]
    GameIndex {
        /// The game asked for, from 1.
        asked: usize,
        /// The games of the text.
        games: usize,
    },
    /// A rule option refused.
    #[error(transparent)]
    Rules(OptionError),
    /// A clock refused.
    #[error(transparent)]
    Clock(ClockError),
    /// The game's moves are not legal under the rules asked for.
    #[error("the game is not legal under these rules: {0}")]
    NotLegalUnder(#[source] GameError),
    /// A move limit out of its range.
    #[error("{what} {value}: expected {least} to {most}")]
    Limit {
        /// Which limit.
        what: &'static str,
        /// The value asked for.
        value: u64,
        /// The smallest taken.
        least: u64,
        /// The largest taken.
        most: u64,
    },
    /// A review depth out of range.
    #[error("review depth {0}: expected 1 to {MAX_REVIEW_DEPTH}")]
    ReviewDepth(u32),
    /// A review of a game with no move.
    #[error("no move to review")]
    NothingToReview,
}

impl ApiError {
    /// The HTTP status of the answer (docs/gui.md).
    pub fn status(&self) -> u16 {
        use ApiError::*;
        match self {
            Request(e) => e.status().unwrap_or(400),
            Json(_) | Position(_) | Fen(_) | NoGameInText | Record { .. } | GameIndex { .. } => 400,
            ForeignHost | ForeignOrigin(_) => 403,
            NoApiCall { .. } | NotFound(_) | NoGame(_) | NoAction(_) => 404,
            EngineTurn(_) | AlreadyOver | NoRepetition | DrawDeclined(_) | NothingToTakeBack
            | NotLegalUnder(_) | NothingToReview => 409,
            NotJson => 415,
            SkillAndElo
            | Level { .. }
            | NoLevelOption { .. }
            | HumanAnalyst
            | MultiPv(_)
            | NoEngine { .. }
            | GameOver(_)
            | Move(_)
            | EmptyLine
            | LineMove { .. }
            | OverHere
            | Ply { .. }
            | DrawAction(_)
            | SideName(_)
            | Rules(_)
            | Clock(_)
            | Limit { .. }
            | ReviewDepth(_) => 422,
            Busy | TooManyStreams(_) | TooManyReviews(_) => 503,
        }
    }
}
