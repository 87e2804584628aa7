//! One game on the page (a browser tab): the rules, the moves and which of
//! them is shown, who plays each side, the engines that play and analyse, and
//! the pages listening for changes. Every rule question (legal moves, FEN,
//! game end) goes to the rules code; engines are only asked for moves and
//! analysis.

use super::api::{
    AnalysisLine, AnalysisView, ApiError, Level, LevelsView, MoveLimits, MoveView, OptionsRequest,
    OutcomeView, PieceView, Players, ReviewView, RuleView, ScoreView, SquareView, State,
    TablebaseMove, TablebaseView, Thinking, VerdictView,
};
use super::clock::Clocks;
use super::engine::{EngineHandle, Event, Request};
use super::limits::Shared;
use super::review::{self, ReviewEvent, ReviewJob};
use super::rule_text::rule_text;
use crate::client::EngineSpec;
use crate::engine::score::{Score, ScoreBound};
use crate::protocol::reply::InfoLine;
use crate::rules::{
    DrawReason, Game, Move, Outcome, Position, RULE_OPTIONS, Rules, Side, WinReason,
};
use crate::tb::{self, TableSet, Verdict};
use crate::tools::pgn::{self, read as input};
use crate::tools::show::{Ground, ground, squares_top_down};
use crate::util::options::OptionKind;
use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex, MutexGuard, Weak};
use std::time::{Duration, Instant};

/// Who moves for one side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Player {
    /// The person at the page.
    Human,
    /// The configured engine with this index.
    Engine(usize),
}

/// Which engine thread an answer comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Role {
    /// The engine with this index, playing.
    Player(usize),
    /// The engine analysing the position shown (one per game).
    Analysis,
}

/// How long an engine playing a move may overrun its move time before it
/// counts as hung; searches to a depth or node count get [`HANG_UNTIMED`].
const HANG_GRACE: Duration = Duration::from_secs(10);
const HANG_UNTIMED: Duration = Duration::from_secs(120);

/// The move time when no limit is set, ms.
const DEFAULT_MOVETIME: u64 = 1000;
/// The limits accepted per move: milliseconds, depth, nodes.
const MOVETIME_RANGE: std::ops::RangeInclusive<u64> = 1..=3_600_000;
const DEPTH_RANGE: std::ops::RangeInclusive<u32> = 1..=64;
const NODES_RANGE: std::ops::RangeInclusive<u64> = 1..=10_000_000_000;
/// The levels accepted: `Skill Level` and `UCI_Elo`.
const SKILL_RANGE: std::ops::RangeInclusive<u32> = 0..=20;
const ELO_RANGE: std::ops::RangeInclusive<u32> = 500..=3000;

/// How a game line ended other than by the rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ending {
    /// This side resigned: the other wins.
    Resigned(Side),
    /// This side's time ran out.
    Flag(Side),
    /// A draw offered and accepted.
    Agreed,
    /// A draw claimed on a third repetition.
    Claimed,
}

impl Ending {
    fn view(self) -> OutcomeView {
        let (winner, reason, text) = match self {
            Ending::Resigned(side) => (
                Some(side.opponent()),
                "resignation",
                format!("{} wins: {side} resigns", side.opponent()),
            ),
            Ending::Flag(side) => (
                Some(side.opponent()),
                "time",
                format!("{} wins on time: {side}'s flag fell", side.opponent()),
            ),
            Ending::Agreed => (None, "agreement", "draw by agreement".to_string()),
            Ending::Claimed => (
                None,
                "repetition",
                "draw claimed: the position occurred a third time".to_string(),
            ),
        };
        OutcomeView {
            result: match winner {
                Some(Side::Red) => "1-0",
                Some(Side::Blue) => "0-1",
                None => "1/2-1/2",
            },
            reason,
            winner: winner.map(|w| w.to_string()),
            text,
        }
    }
}

/// A review of the game line: what was asked and what came back.
struct Review {
    /// The line reviewed: the review is dropped when the line changes.
    moves: Vec<Move>,
    view: ReviewView,
    /// The searches, while they run.
    job: Option<ReviewJob>,
    /// Tags the reports, so that a cancelled review's are dropped.
    id: u64,
}

struct Inner {
    rules: Rules,
    start: Position,
    /// Every move of the game line, also those after the shown ply.
    moves: Vec<Move>,
    /// How many moves of the line are played on the board shown.
    ply: usize,
    players: [Player; 2],
    limits: MoveLimits,
    analysis_on: bool,
    multipv: u32,
    /// The engine that analyses, by index.
    analysis_engine: usize,
    /// The side to move in the position being analysed (scores are turned to Red's view).
    analysed_side: Side,
    lines: Vec<AnalysisLine>,
    thinking: Option<Thinking>,
    /// Bumped at every change: answers of older searches are dropped.
    generation: u64,
    /// Bumped at every change of the state sent to pages.
    version: u64,
    actors: HashMap<usize, EngineHandle>,
    analyser: Option<EngineHandle>,
    /// The options each engine has acknowledged, by engine label.
    confirmed: BTreeMap<String, BTreeMap<String, String>>,
    error: Option<String>,
    /// Who played each move of the line (parallel to `moves`), so that the
    /// record names the players of the game, not those selected now.
    movers: Vec<Mover>,
    /// The day the game began (the `Date` tag).
    date: String,
    /// The game record loaded, if the game comes from one.
    loaded: Option<Loaded>,
    /// How the game line ended, if not by the rules.
    ending: Option<Ending>,
    clocks: Clocks,
    /// Each side's engine level.
    levels: [Level; 2],
    /// Engines that were sent a level, by index: they get full strength back
    /// explicitly.
    weakened: Vec<bool>,
    /// Each side's engine's last score while choosing its move (Red's view).
    last_score: [Option<ScoreView>; 2],
    review: Option<Review>,
    reviews_started: u64,
    /// Pages listening to the event stream.
    listeners: usize,
}

/// Who played a move, as the record names them.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Mover {
    /// `human`, an engine's name, or a loaded record's player.
    name: String,
    /// The level an engine played at, if it was weakened.
    level: Option<String>,
}

/// A game record loaded from a text.
#[derive(Clone, Debug)]
struct Loaded {
    /// Its tags in file order.
    tags: Vec<(String, String)>,
    /// Its moves: its `Result` and `Termination` hold while the line is these.
    moves: Vec<Move>,
    /// Its result, if it has one.
    result: Option<String>,
}

impl Inner {
    /// The game up to the shown ply.
    fn game(&self) -> Game {
        self.game_at(self.ply)
    }

    fn game_at(&self, ply: usize) -> Game {
        let mut game = Game::new(self.rules, self.start);
        for &m in &self.moves[..ply] {
            game.make(m);
        }
        game
    }

    fn side_player(&self, side: Side) -> Player {
        self.players[side.index()]
    }

    /// Plays `m` on the shown position by `mover`; the moves after it go.
    /// A move at the end of the line is charged to the mover's clock: if its
    /// flag had fallen the game is lost on time and the move is not played.
    fn push_move(&mut self, m: Move, mover: Mover) {
        if self.ply == self.moves.len() {
            let side = self.game().position().side_to_move();
            if self.clocks.moved(side) {
                self.ending = Some(Ending::Flag(side));
                return;
            }
        }
        self.moves.truncate(self.ply);
        self.movers.truncate(self.ply);
        self.moves.push(m);
        self.movers.push(mover);
        self.ply += 1;
        self.ending = None;
    }

    /// How the game stands at the shown position: over by the rules, or by
    /// an ending of the line (shown at its last position).
    fn outcome(&self) -> Option<OutcomeView> {
        if let Some(o) = self.game().outcome() {
            return Some(outcome_view(o));
        }
        self.ending
            .filter(|_| self.ply == self.moves.len())
            .map(Ending::view)
    }

    /// Whether the line is over (by the rules at its end, or an ending).
    fn line_over(&self) -> bool {
        self.ending.is_some() || self.game_at(self.moves.len()).outcome().is_some()
    }

    /// The side whose clock should run: the side to move at the end of a
    /// line still being played.
    fn clock_side(&self) -> Option<Side> {
        (self.ply == self.moves.len() && self.outcome().is_none())
            .then(|| self.game().position().side_to_move())
    }

    /// Drops a review of another line.
    fn drop_stale_review(&mut self) {
        if self.review.as_ref().is_some_and(|r| r.moves != self.moves) {
            self.review = None;
        }
    }

    /// Starts a new game line from `start` with `moves` played by `movers`.
    fn new_line(&mut self, start: Position, moves: Vec<Move>, movers: Vec<Mover>) {
        self.start = start;
        self.moves = moves;
        self.movers = movers;
        self.ply = self.moves.len();
        self.loaded = None;
        self.date = pgn::today();
        self.ending = None;
        self.clocks.reset();
        self.last_score = [None, None];
    }
}

/// A game and its engines; shared by the HTTP threads and the engine threads.
pub struct GuiGame {
    /// The game id of the API.
    pub id: String,
    engines: Arc<Vec<EngineSpec>>,
    /// The endgame tables of `--tablebases`, shared by every game.
    tables: Option<Arc<TableSet>>,
    /// The engine processes and reviews every game shares.
    shared: Shared,
    me: Weak<GuiGame>,
    inner: Mutex<Inner>,
    subscribers: Mutex<Vec<Sink>>,
    last_used: Mutex<Instant>,
}

/// Where a page's events go: each event, ready to write; false once the
/// page is gone (the sink is then dropped).
pub type Sink = Box<dyn Fn(&str) -> bool + Send>;

/// A page counted as listening until this is dropped. When the last page
/// goes, the analysis stops.
pub struct Listener {
    game: Weak<GuiGame>,
}

impl Drop for Listener {
    fn drop(&mut self) {
        if let Some(game) = self.game.upgrade() {
            game.listener_left();
        }
    }
}

/// Locks a mutex, also after a thread panicked while holding it (the data
/// stays consistent: every change is made whole under the lock).
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

fn bad(status: u16, message: impl Into<String>) -> ApiError {
    ApiError {
        status,
        message: message.into(),
    }
}

/// The protocol's `Name=Value` settings of every rule switch (the preset is
/// implied by the switches, so it is not sent).
fn rule_settings(rules: &Rules) -> Vec<(String, String)> {
    rules
        .settings()
        .into_iter()
        .map(|(name, value)| (name.to_string(), value))
        .collect()
}

/// A JSON value given for an option, as the protocol's text.
fn option_text(value: &serde_json::Value) -> String {
    match value {
        serde_json::Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// A score for the side to move, from Red's point of view.
fn red_view(score: Score, side_to_move: Side) -> ScoreView {
    let sign = if side_to_move == Side::Red { 1 } else { -1 };
    match score {
        Score::Cp(cp) => {
            let cp = cp * sign;
            ScoreView {
                cp: Some(cp),
                mate: None,
                text: format!("{:+.2}", f64::from(cp) / 100.0),
            }
        }
        Score::Mate(n) => {
            // Mate 0 is a loss for the side to move.
            let red_wins = (n > 0) == (sign > 0);
            ScoreView {
                cp: None,
                mate: Some(if red_wins { n.abs() } else { -n.abs() }),
                text: format!("{}#{}", if red_wins { "+" } else { "-" }, n.abs()),
            }
        }
    }
}

fn line_of(info: &InfoLine, side_to_move: Side) -> Option<AnalysisLine> {
    let score = info.score?;
    let pv = info.pv.as_ref()?;
    Some(AnalysisLine {
        multipv: info.multipv.unwrap_or(1),
        depth: info.depth.unwrap_or(0),
        score: red_view(score, side_to_move),
        bound: match info.bound {
            ScoreBound::Exact => None,
            ScoreBound::Lower if side_to_move == Side::Red => Some("lower"),
            ScoreBound::Upper if side_to_move == Side::Blue => Some("lower"),
            _ => Some("upper"),
        },
        nodes: info.nodes,
        pv: pv.iter().map(ToString::to_string).collect(),
    })
}

/// A game end by the rules as the page shows it.
fn outcome_view(o: Outcome) -> OutcomeView {
    OutcomeView {
        result: o.score_text(),
        reason: reason_word(o),
        winner: match o {
            Outcome::Win { winner, .. } => Some(winner.to_string()),
            Outcome::Draw(_) => None,
        },
        text: o.to_string(),
    }
}

/// Checks a level and answers the options that set it on an engine.
fn level_options(level: Level, weakened: bool) -> Result<Vec<(String, String)>, ApiError> {
    let pair = |n: &str, v: String| (n.to_string(), v);
    match (level.skill, level.elo) {
        (Some(_), Some(_)) => Err(bad(422, "a level is a skill or an Elo, not both")),
        (Some(s), None) if !SKILL_RANGE.contains(&s) => {
            Err(bad(422, format!("Skill Level {s}: expected 0 to 20")))
        }
        (None, Some(e)) if !ELO_RANGE.contains(&e) => {
            Err(bad(422, format!("UCI_Elo {e}: expected 500 to 3000")))
        }
        (Some(s), None) => Ok(vec![
            pair("UCI_LimitStrength", "false".into()),
            pair("Skill Level", s.to_string()),
        ]),
        (None, Some(e)) => Ok(vec![
            pair("UCI_LimitStrength", "true".into()),
            pair("UCI_Elo", e.to_string()),
        ]),
        // Full strength: said only to an engine that was weakened before,
        // so that engines without these options are never sent them.
        (None, None) if weakened => Ok(vec![
            pair("UCI_LimitStrength", "false".into()),
            pair("Skill Level", "20".into()),
        ]),
        (None, None) => Ok(Vec::new()),
    }
}

/// A mating line as the engine gives it may stop short of the move that
/// wins (the den entry ends the game, so the search reports no move after
/// it): the winning moves the rules find at its end are added, so that the
/// line shows the whole mate.
fn complete_mate(mut game: Game, pv: &mut Vec<String>) {
    for text in pv.iter() {
        if game.play_text(text).is_err() {
            return;
        }
    }
    while game.outcome().is_none() && pv.len() < 200 {
        let mover = game.position().side_to_move();
        let win = game.legal_moves().iter().copied().find(|&m| {
            let mut next = game.clone();
            next.make(m);
            matches!(next.outcome(), Some(Outcome::Win { winner, .. }) if winner == mover)
        });
        let Some(m) = win else { return };
        game.make(m);
        pv.push(m.to_string());
    }
}

/// The reason of a game end as one word for scripts.
fn reason_word(outcome: Outcome) -> &'static str {
    match outcome {
        Outcome::Win { reason, .. } => match reason {
            WinReason::Den => "den",
            WinReason::AllCaptured => "no_pieces",
            WinReason::NoLegalMove => "no_move",
        },
        Outcome::Draw(DrawReason::Repetition) => "repetition",
        Outcome::Draw(DrawReason::NoCaptureLimit) => "no_capture_limit",
    }
}

impl GuiGame {
    /// A new game from the start position under `rules`: Red played at the
    /// page, Blue by the first engine; `tables` judge the positions shown.
    pub fn new(
        id: String,
        engines: Arc<Vec<EngineSpec>>,
        tables: Option<Arc<TableSet>>,
        rules: Rules,
        shared: Shared,
    ) -> Arc<GuiGame> {
        Arc::new_cyclic(|me| GuiGame {
            id,
            shared,
            me: me.clone(),
            inner: Mutex::new(Inner {
                rules,
                start: Position::startpos(),
                moves: Vec::new(),
                ply: 0,
                players: [Player::Human, Player::Engine(0)],
                limits: MoveLimits {
                    movetime: Some(DEFAULT_MOVETIME),
                    depth: None,
                    nodes: None,
                },
                analysis_on: false,
                multipv: 3,
                analysis_engine: 0,
                analysed_side: Side::Red,
                lines: Vec::new(),
                thinking: None,
                generation: 0,
                version: 0,
                actors: HashMap::new(),
                analyser: None,
                confirmed: BTreeMap::new(),
                error: None,
                movers: Vec::new(),
                date: pgn::today(),
                loaded: None,
                ending: None,
                clocks: Clocks::default(),
                levels: [Level::default(); 2],
                weakened: vec![false; engines.len()],
                last_score: [None, None],
                review: None,
                reviews_started: 0,
                listeners: 0,
            }),
            engines,
            tables,
            subscribers: Mutex::new(Vec::new()),
            last_used: Mutex::new(Instant::now()),
        })
    }

    /// Loses the game on time for a side whose flag fell (the server looks
    /// every tenth of a second).
    pub fn check_flag(&self) {
        let state = {
            let mut inner = lock(&self.inner);
            let Some(side) = inner.clocks.flag_fallen() else {
                return;
            };
            inner.ending = Some(Ending::Flag(side));
            self.restart_engines(&mut inner);
            self.state_of(&inner)
        };
        self.publish(sse("state", &state));
    }

    /// A page stopped listening; the last one takes the analysis with it
    /// (an engine must not search for nobody).
    fn listener_left(&self) {
        let state = {
            let mut inner = lock(&self.inner);
            inner.listeners = inner.listeners.saturating_sub(1);
            if inner.listeners > 0 || !inner.analysis_on {
                return;
            }
            log::info!("gui: game {}: no page listens, analysis stopped", self.id);
            inner.analysis_on = false;
            self.end_analyser(&mut inner);
            self.restart_engines(&mut inner);
            self.state_of(&inner)
        };
        self.publish(sse("state", &state));
    }

    /// Ends the analysing engine's process (its thread ends with its
    /// handle), so that an analysis not running holds no engine.
    fn end_analyser(&self, inner: &mut Inner) {
        if inner.analyser.take().is_some() {
            let label = self.analyser_label(inner);
            inner.confirmed.remove(&label);
        }
    }

    /// The analysing engine as `engine_options` names it.
    fn analyser_label(&self, inner: &Inner) -> String {
        format!("{} (analysis)", self.engines[inner.analysis_engine].name)
    }

    /// How long since a request or a listening page last used this game.
    pub fn idle_for(&self) -> Duration {
        if lock(&self.inner).listeners > 0 {
            return Duration::ZERO;
        }
        lock(&self.last_used).elapsed()
    }

    fn touch(&self) {
        *lock(&self.last_used) = Instant::now();
    }

    /// The state as the API shows it.
    pub fn state(&self) -> State {
        self.touch();
        self.state_of(&lock(&self.inner))
    }

    /// Sends one page's server-sent events to `sink`: the state now, then
    /// every change.
    pub fn subscribe(&self, sink: Sink) -> Listener {
        let state = self.state();
        sink(&sse("state", &state));
        lock(&self.subscribers).push(sink);
        lock(&self.inner).listeners += 1;
        Listener {
            game: self.me.clone(),
        }
    }

    fn publish(&self, event: String) {
        lock(&self.subscribers).retain(|sink| sink(&event));
    }

    /// Runs a change of the game: on success the engines are told (searches
    /// restarted as needed) and the pages get the new state, which is answered.
    fn change(
        &self,
        f: impl FnOnce(&mut Inner) -> Result<(), ApiError>,
    ) -> Result<State, ApiError> {
        self.touch();
        let state = {
            let mut inner = lock(&self.inner);
            f(&mut inner)?;
            inner.error = None;
            inner.drop_stale_review();
            self.restart_engines(&mut inner);
            self.state_of(&inner)
        };
        self.publish(sse("state", &state));
        Ok(state)
    }

    /// Plays a move given in protocol notation on the shown position; moves
    /// after the shown ply are replaced.
    pub fn play(&self, text: &str) -> Result<State, ApiError> {
        self.change(|inner| {
            let mut game = inner.game();
            if let Some(outcome) = inner.outcome() {
                return Err(bad(422, format!("the game is over: {}", outcome.text)));
            }
            let side = game.position().side_to_move();
            if inner.ply == inner.moves.len() && inner.side_player(side) != Player::Human {
                return Err(bad(
                    409,
                    format!("it is the engine's turn ({side} to move)"),
                ));
            }
            let m = game.play_text(text).map_err(|e| bad(422, e.to_string()))?;
            inner.push_move(m, self.mover(inner, Player::Human));
            Ok(())
        })
    }

    /// Plays a line of moves (an analysis line) from the shown position,
    /// replacing the moves after it, and shows the position after its first
    /// move: the rest is stepped through as any game line.
    pub fn play_line(&self, moves: &[String]) -> Result<State, ApiError> {
        if moves.is_empty() {
            return Err(bad(422, "an empty line"));
        }
        self.change(|inner| {
            let mut game = inner.game();
            let start = inner.ply;
            let mut checked = Vec::with_capacity(moves.len());
            for (i, text) in moves.iter().enumerate() {
                if game.outcome().is_some() {
                    break;
                }
                let m = game
                    .play_text(text)
                    .map_err(|e| bad(422, format!("move {} of the line: {e}", i + 1)))?;
                checked.push(m);
            }
            if checked.is_empty() {
                return Err(bad(422, "the game is over here"));
            }
            let analyst = Mover {
                name: self.engines[inner.analysis_engine].name.clone(),
                level: None,
            };
            inner.moves.truncate(start);
            inner.movers.truncate(start);
            inner.ending = None;
            inner.moves.extend(&checked);
            inner.movers.extend(vec![analyst; checked.len()]);
            inner.ply = start + 1;
            Ok(())
        })
    }

    /// Sets up a position: `startpos` or a FEN, optionally followed by `moves ...`.
    pub fn set_position(&self, text: &str) -> Result<State, ApiError> {
        let spec = input::parse_position_line(text).map_err(|e| bad(400, e.to_string()))?;
        self.change(|inner| {
            let game = spec
                .game(inner.rules)
                .map_err(|e| bad(400, e.to_string()))?;
            let start = spec.fen.parse().map_err(|e| bad(400, format!("{e}")))?;
            let moves = game.moves_played();
            // Moves typed in with the position were played by no one here.
            let movers = vec![self.mover(inner, Player::Human); moves.len()];
            inner.new_line(start, moves, movers);
            Ok(())
        })
    }

    /// Loads game `index` (from 0) of a record file written by `doushou
    /// match`, under the rules its tags give; shows its first position, and
    /// no engine plays on.
    pub fn load_pgn(&self, text: &str, index: usize) -> Result<State, ApiError> {
        let games = input::parse_games(text, Rules::default());
        if games.is_empty() {
            return Err(bad(400, "no game in the text"));
        }
        let count = games.len();
        let spec = match games.into_iter().nth(index) {
            Some(Ok(spec)) => spec,
            Some(Err(e)) => return Err(bad(400, format!("line {}: {}", e.line, e.error))),
            None => {
                // Counted from 1, as people (and the page) number games.
                let games = if count == 1 { "game" } else { "games" };
                return Err(bad(
                    400,
                    format!("game {} asked, the text has {count} {games}", index + 1),
                ));
            }
        };
        let game = spec
            .start
            .game(spec.rules)
            .map_err(|e| bad(400, e.to_string()))?;
        let start: Position = spec
            .start
            .fen
            .parse()
            .map_err(|e| bad(400, format!("{e}")))?;
        let names = [("Red", "White"), ("Blue", "Black")].map(|(ours, theirs)| Mover {
            name: spec
                .tag(ours)
                .or_else(|| spec.tag(theirs))
                .unwrap_or("?")
                .to_string(),
            level: None,
        });
        self.change(|inner| {
            let moves = game.moves_played();
            let mut side = start.side_to_move();
            let movers = (0..moves.len())
                .map(|_| {
                    let mover = names[side.index()].clone();
                    side = side.opponent();
                    mover
                })
                .collect();
            inner.rules = spec.rules;
            inner.new_line(start, moves.clone(), movers);
            inner.ply = 0;
            inner.players = [Player::Human, Player::Human];
            if let Some(date) = spec.tag("Date") {
                inner.date = date.to_string();
            }
            inner.loaded = Some(Loaded {
                tags: spec.tags,
                moves,
                result: spec.result,
            });
            Ok(())
        })
    }

    /// Shows the position after `ply` moves of the game line (take back, forward).
    pub fn navigate(&self, ply: usize) -> Result<State, ApiError> {
        self.change(|inner| {
            if ply > inner.moves.len() {
                return Err(bad(
                    422,
                    format!("ply {ply} asked, the game has {}", inner.moves.len()),
                ));
            }
            inner.ply = ply;
            Ok(())
        })
    }

    /// A new game from the start position, with the same players and rules.
    pub fn new_game(&self) -> Result<State, ApiError> {
        self.change(|inner| {
            inner.new_line(Position::startpos(), Vec::new(), Vec::new());
            Ok(())
        })
    }

    /// Turns analysis of the shown position on or off.
    pub fn set_analysis(
        &self,
        on: bool,
        multipv: Option<u32>,
        engine: Option<&str>,
    ) -> Result<State, ApiError> {
        let engine = match engine {
            Some(name) => match self.player_named(name)? {
                Player::Engine(i) => Some(i),
                Player::Human => return Err(bad(422, "a person cannot analyse here")),
            },
            None => None,
        };
        self.change(|inner| {
            if let Some(k) = multipv {
                if !(1..=32).contains(&k) {
                    return Err(bad(422, format!("multipv {k}: expected 1 to 32")));
                }
                inner.multipv = k;
            }
            if let Some(i) = engine.filter(|&i| i != inner.analysis_engine) {
                self.end_analyser(inner);
                inner.analysis_engine = i;
            }
            if !on {
                self.end_analyser(inner);
            }
            inner.analysis_on = on;
            Ok(())
        })
    }

    /// Ends the game line: `side` resigns (by default the human's side, or
    /// the side to move when both or neither are human).
    pub fn resign(&self, side: Option<&str>) -> Result<State, ApiError> {
        let side = side.map(parse_side).transpose()?;
        self.change(|inner| {
            if inner.line_over() {
                return Err(bad(409, "the game is already over"));
            }
            let side = side.unwrap_or_else(|| {
                let to_move = inner.game_at(inner.moves.len()).position().side_to_move();
                match inner.players {
                    [Player::Human, Player::Engine(_)] => Side::Red,
                    [Player::Engine(_), Player::Human] => Side::Blue,
                    _ => to_move,
                }
            });
            inner.ending = Some(Ending::Resigned(side));
            inner.ply = inner.moves.len();
            Ok(())
        })
    }

    /// A draw offered to the opponent (an engine accepts when its last score
    /// says it is not better, or the game is level after 40 plies; a person
    /// at the same page accepts), or claimed on a third repetition that the
    /// rules do not end by themselves.
    pub fn draw(&self, action: &str) -> Result<State, ApiError> {
        self.change(|inner| {
            if inner.line_over() {
                return Err(bad(409, "the game is already over"));
            }
            inner.ply = inner.moves.len();
            match action {
                "claim" => {
                    if inner.game().occurrences() < 3 {
                        return Err(bad(
                            409,
                            "no draw to claim: the position has not occurred three times",
                        ));
                    }
                    inner.ending = Some(Ending::Claimed);
                }
                "offer" => {
                    let to_move = inner.game().position().side_to_move();
                    // The offer goes to the engine, if one side is one.
                    let engine_side = [to_move.opponent(), to_move]
                        .into_iter()
                        .find(|s| inner.side_player(*s) != Player::Human);
                    if let Some(side) = engine_side {
                        let own_view = inner.last_score[side.index()].as_ref().map(|s| {
                            let cp = s.cp.unwrap_or(if s.mate.unwrap_or(0) > 0 {
                                10_000
                            } else {
                                -10_000
                            });
                            if side == Side::Red { cp } else { -cp }
                        });
                        let accepts = match own_view {
                            Some(cp) => cp <= -150 || (cp.abs() <= 30 && inner.moves.len() >= 40),
                            None => false,
                        };
                        if !accepts {
                            let name = self.player_name(inner.side_player(side));
                            return Err(bad(409, format!("{name} declines the draw")));
                        }
                    }
                    inner.ending = Some(Ending::Agreed);
                }
                other => {
                    return Err(bad(
                        422,
                        format!("draw action '{other}': expected offer or claim"),
                    ));
                }
            }
            Ok(())
        })
    }

    /// Takes back the last move a person played and everything after it
    /// (against an engine, its reply too); with no person playing, the last
    /// move. An ending (resignation, flag, draw) is taken back first.
    pub fn takeback(&self) -> Result<State, ApiError> {
        self.change(|inner| {
            if inner.ending.take().is_some() {
                inner.ply = inner.moves.len();
                return Ok(());
            }
            if inner.moves.is_empty() {
                return Err(bad(409, "no move to take back"));
            }
            let first = inner.start.side_to_move();
            let mover = |ply: usize| {
                if ply.is_multiple_of(2) {
                    first
                } else {
                    first.opponent()
                }
            };
            let human_moves: Vec<usize> = (0..inner.moves.len())
                .filter(|&p| inner.side_player(mover(p)) == Player::Human)
                .collect();
            let to = match human_moves.last() {
                Some(&p) => p,
                None => inner.moves.len() - 1,
            };
            inner.moves.truncate(to);
            inner.movers.truncate(to);
            inner.ply = to;
            Ok(())
        })
    }

    /// Reviews the game line at `depth` in the background (or cancels the
    /// review): every position searched, every move judged.
    pub fn set_review(&self, on: bool, depth: Option<u32>) -> Result<State, ApiError> {
        let depth = depth.unwrap_or(review::DEFAULT_DEPTH);
        if !(1..=review::MAX_DEPTH).contains(&depth) {
            return Err(bad(
                422,
                format!("review depth {depth}: expected 1 to {}", review::MAX_DEPTH),
            ));
        }
        self.change(|inner| {
            if !on {
                inner.review = None;
                return Ok(());
            }
            if inner.moves.is_empty() {
                return Err(bad(409, "no move to review"));
            }
            // The review this game may run now ends first: its slot is free.
            inner.review = None;
            let slot = self.shared.reviews.take().ok_or_else(|| {
                bad(
                    503,
                    format!(
                        "{} reviews run already, the most this server runs at once; wait for one to end",
                        self.shared.reviews.max()
                    ),
                )
            })?;
            inner.reviews_started += 1;
            let id = inner.reviews_started;
            let me = self.me.clone();
            let job = ReviewJob::start(
                inner.rules,
                inner.start.fen(),
                &inner.moves,
                depth,
                slot,
                move |event| {
                    if let Some(game) = me.upgrade() {
                        game.on_review_event(id, event);
                    }
                },
            );
            inner.review = Some(Review {
                moves: inner.moves.clone(),
                view: ReviewView {
                    depth,
                    done: 0,
                    total: inner.moves.len() + 1,
                    running: true,
                    error: None,
                    plies: Vec::new(),
                },
                job: Some(job),
                id,
            });
            Ok(())
        })
    }

    fn on_review_event(&self, id: u64, event: ReviewEvent) {
        let state = {
            let mut inner = lock(&self.inner);
            let Some(review) = inner.review.as_mut().filter(|r| r.id == id) else {
                return;
            };
            match event {
                ReviewEvent::Progress(done, total) => {
                    review.view.done = done;
                    review.view.total = total;
                }
                ReviewEvent::Done(plies) => {
                    review.view.plies = plies;
                    review.view.running = false;
                    review.job = None;
                }
                ReviewEvent::Failed(why) => {
                    review.view.error = Some(why);
                    review.view.running = false;
                    review.job = None;
                }
            }
            inner.version += 1;
            self.state_of(&inner)
        };
        self.publish(sse("state", &state));
    }

    /// Changes rules, players and limits; rules are checked whole first, and
    /// the game must stay legal under them.
    pub fn set_options(&self, request: &OptionsRequest) -> Result<State, ApiError> {
        self.change(|inner| {
            let mut rules = inner.rules;
            let mut settings: Vec<(&String, &serde_json::Value)> = request.rules.iter().collect();
            // The preset replaces every switch: it goes first.
            settings.sort_by_key(|(name, _)| !name.eq_ignore_ascii_case("UCI_Variant"));
            for (name, value) in settings {
                let value = option_text(value);
                // `custom` is no preset: it names the switches as they are.
                if name.eq_ignore_ascii_case("UCI_Variant") && value.eq_ignore_ascii_case("custom")
                {
                    continue;
                }
                rules
                    .set(name, &value)
                    .map_err(|e| bad(422, e.to_string()))?;
            }
            let mut players = inner.players;
            if let Some(p) = &request.players {
                for (side, name) in [(Side::Red, &p.red), (Side::Blue, &p.blue)] {
                    if let Some(name) = name {
                        players[side.index()] = self.player_named(name)?;
                    }
                }
            }
            if let Some(limits) = &request.limits {
                check_limits(limits)?;
            }
            let mut levels = inner.levels;
            if let Some(l) = &request.levels {
                for (side, level) in [(Side::Red, l.red), (Side::Blue, l.blue)] {
                    if let Some(level) = level {
                        level_options(level, false)?;
                        levels[side.index()] = level;
                    }
                }
            }
            let mut clocks = inner.clocks.clone();
            if let Some(c) = &request.clocks {
                for (side, control) in [(Side::Red, c.red), (Side::Blue, c.blue)] {
                    if let Some(control) = control {
                        clocks
                            .set(side, control)
                            .map_err(|e| bad(422, e.to_string()))?;
                    }
                }
            }
            if rules != inner.rules {
                let moves: Vec<String> = inner.moves.iter().map(ToString::to_string).collect();
                Game::from_fen_and_moves(rules, &inner.start.fen(), &moves).map_err(|e| {
                    bad(409, format!("the game is not legal under these rules: {e}"))
                })?;
                inner.rules = rules;
                let options = rule_settings(&rules);
                for actor in inner.actors.values().chain(&inner.analyser) {
                    actor.send(Request::Configure(options.clone()));
                }
            }
            inner.players = players;
            inner.levels = levels;
            inner.clocks = clocks;
            if let Some(limits) = &request.limits {
                inner.limits = limits.clone();
            }
            Ok(())
        })
    }

    fn player_named(&self, name: &str) -> Result<Player, ApiError> {
        if name.eq_ignore_ascii_case("human") {
            return Ok(Player::Human);
        }
        self.engines
            .iter()
            .position(|e| e.name == name)
            .map(Player::Engine)
            .ok_or_else(|| {
                let names: Vec<&str> = self.engines.iter().map(|e| e.name.as_str()).collect();
                bad(
                    422,
                    format!("no engine '{name}' (human, {})", names.join(", ")),
                )
            })
    }

    /// The record's name of a player now, with its level.
    fn mover(&self, inner: &Inner, player: Player) -> Mover {
        let level = match player {
            Player::Human => None,
            Player::Engine(_) => [Side::Red, Side::Blue]
                .into_iter()
                .find(|s| inner.side_player(*s) == player)
                .and_then(|s| level_options(inner.levels[s.index()], false).ok())
                .and_then(|options| pgn::level_of(&options)),
        };
        Mover {
            name: self.player_name(player),
            level,
        }
    }

    fn player_name(&self, player: Player) -> String {
        match player {
            Player::Human => "human".to_string(),
            Player::Engine(i) => self.engines[i].name.clone(),
        }
    }

    /// The thread of an engine, started on first use.
    fn actor<'a>(&self, inner: &'a mut Inner, role: Role) -> &'a EngineHandle {
        let start = |index: usize| {
            let me = self.me.clone();
            let slots = self.shared.engines.clone();
            EngineHandle::start(self.engines[index].clone(), slots, move |event| {
                if let Some(game) = me.upgrade() {
                    game.on_engine_event(role, event);
                }
            })
        };
        match role {
            Role::Player(i) => inner.actors.entry(i).or_insert_with(|| start(i)),
            Role::Analysis => {
                let index = inner.analysis_engine;
                inner.analyser.get_or_insert_with(|| start(index))
            }
        }
    }

    /// After any change: every search is stopped (its answer will be stale),
    /// then the engine to move is asked for a move if the shown position is
    /// the end of the game line, and the analysis restarted if it is on.
    fn restart_engines(&self, inner: &mut Inner) {
        inner.generation += 1;
        inner.version += 1;
        inner.thinking = None;
        inner.lines.clear();
        for actor in inner.actors.values().chain(&inner.analyser) {
            actor.send(Request::Stop);
        }
        let clock_side = inner.clock_side();
        inner.clocks.run(clock_side);
        let game = inner.game();
        if inner.outcome().is_some() {
            return;
        }
        let side = game.position().side_to_move();
        let position = {
            let moves: Vec<String> = inner.moves[..inner.ply]
                .iter()
                .map(ToString::to_string)
                .collect();
            let mut line = format!("position fen {}", inner.start.fen());
            if !moves.is_empty() {
                line.push_str(" moves ");
                line.push_str(&moves.join(" "));
            }
            line
        };
        let rules = rule_settings(&inner.rules);
        let generation = inner.generation;
        if let (true, Player::Engine(index)) =
            (inner.ply == inner.moves.len(), inner.side_player(side))
        {
            let limits = inner.limits.clone();
            let mut go = String::from("go");
            let hang_after = if let Some(left) = inner.clocks.remaining(side) {
                // On its clock: the engine shares out its own time.
                go.push_str(&inner.clocks.go_words());
                Duration::from_millis(left.max(0) as u64) + HANG_GRACE
            } else {
                let movetime = match (limits.movetime, limits.depth, limits.nodes) {
                    (None, None, None) => Some(DEFAULT_MOVETIME),
                    (mt, _, _) => mt,
                };
                if let Some(ms) = movetime {
                    go.push_str(&format!(" movetime {ms}"));
                }
                if let Some(d) = limits.depth {
                    go.push_str(&format!(" depth {d}"));
                }
                if let Some(n) = limits.nodes {
                    go.push_str(&format!(" nodes {n}"));
                }
                movetime.map_or(HANG_UNTIMED, |ms| Duration::from_millis(ms) + HANG_GRACE)
            };
            let weakened = inner.weakened[index];
            let level = inner.levels[side.index()];
            // The engine's own options (`--tablebases` for this binary) first.
            let mut options = self.engines[index].options.clone();
            options.extend(rules.iter().cloned());
            match level_options(level, weakened) {
                Ok(level_options) => options.extend(level_options),
                Err(e) => log::warn!("gui: {}", e.message),
            }
            inner.weakened[index] = level != Level::default() || weakened;
            inner.thinking = Some(Thinking {
                side: side.to_string(),
                engine: self.engines[index].name.clone(),
                line: None,
            });
            self.actor(inner, Role::Player(index))
                .send(Request::Search {
                    generation,
                    options,
                    position: position.clone(),
                    go,
                    hang_after: Some(hang_after),
                });
        }
        if inner.analysis_on {
            inner.analysed_side = side;
            let mut options = self.engines[inner.analysis_engine].options.clone();
            options.extend(rules);
            options.push(("MultiPV".to_string(), inner.multipv.to_string()));
            self.actor(inner, Role::Analysis).send(Request::Search {
                generation,
                options,
                position,
                go: "go infinite".to_string(),
                hang_after: None,
            });
        }
    }

    /// What an engine thread reports.
    fn on_engine_event(&self, role: Role, event: Event) {
        let mut inner = lock(&self.inner);
        let label = match role {
            Role::Player(i) => self.engines[i].name.clone(),
            Role::Analysis => self.analyser_label(&inner),
        };
        match event {
            Event::Info(generation, info) if generation == inner.generation => {
                let side = match role {
                    Role::Analysis => inner.analysed_side,
                    Role::Player(_) => inner.game().position().side_to_move(),
                };
                let Some(mut line) = line_of(&info, side) else {
                    return;
                };
                if line.score.mate.is_some() {
                    complete_mate(inner.game(), &mut line.pv);
                }
                match role {
                    Role::Analysis => {
                        let k = line.multipv.max(1) as usize;
                        if k > inner.multipv as usize {
                            return;
                        }
                        if inner.lines.len() < k {
                            inner.lines.resize(k, AnalysisLine::default());
                        }
                        inner.lines[k - 1] = line;
                    }
                    Role::Player(_) => {
                        if inner.thinking.is_none() || line.multipv > 1 {
                            return;
                        }
                        inner.last_score[side.index()] = Some(line.score.clone());
                        if let Some(t) = inner.thinking.as_mut() {
                            t.line = Some(line);
                        }
                    }
                }
                let update = sse("analysis", &self.analysis_update(&inner));
                drop(inner);
                self.publish(update);
            }
            Event::BestMove(generation, m)
                if generation == inner.generation && matches!(role, Role::Player(_)) =>
            {
                let game = inner.game();
                inner.thinking = None;
                if !m.is_null() && game.is_legal(m) {
                    if let Role::Player(i) = role {
                        let mover = self.mover(&inner, Player::Engine(i));
                        inner.push_move(m, mover);
                    }
                    inner.error = None;
                    inner.drop_stale_review();
                    self.restart_engines(&mut inner);
                } else {
                    inner.version += 1;
                    inner.error = Some(format!(
                        "engine {label} answered {m}, not a legal move here; set that side to human or start a new game"
                    ));
                }
                let state = sse("state", &self.state_of(&inner));
                drop(inner);
                self.publish(state);
            }
            Event::Configured(options) => {
                inner.confirmed.insert(label, options.into_iter().collect());
                inner.version += 1;
                let state = sse("state", &self.state_of(&inner));
                drop(inner);
                self.publish(state);
            }
            Event::Failed(message) => {
                match role {
                    Role::Player(_) => inner.thinking = None,
                    Role::Analysis => {
                        inner.analysis_on = false;
                        inner.lines.clear();
                    }
                }
                inner.confirmed.remove(&label);
                inner.error = Some(message);
                inner.version += 1;
                let state = sse("state", &self.state_of(&inner));
                drop(inner);
                self.publish(state);
            }
            // Answers to searches that a change made stale.
            Event::Info(..) | Event::BestMove(..) => {}
        }
    }

    fn analysis_update(&self, inner: &Inner) -> AnalysisUpdate {
        AnalysisUpdate {
            generation: inner.generation,
            analysis: self.analysis_view(inner),
            thinking: inner.thinking.clone(),
        }
    }

    fn analysis_view(&self, inner: &Inner) -> AnalysisView {
        AnalysisView {
            on: inner.analysis_on,
            multipv: inner.multipv,
            engine: self.engines[inner.analysis_engine].name.clone(),
            lines: inner
                .lines
                .iter()
                .filter(|l| !l.pv.is_empty())
                .cloned()
                .collect(),
        }
    }

    /// The game line as a record: the players who made its moves (those
    /// selected now for a side that has not moved), how it ended, its rules
    /// and first position. A loaded record keeps its own tags, and its result
    /// and termination while its moves are the line's.
    fn record(&self, inner: &Inner) -> pgn::Record {
        let moves: Vec<String> = inner.moves.iter().map(ToString::to_string).collect();
        let first = inner.start.side_to_move();
        let players = [Side::Red, Side::Blue].map(|side| {
            let mut names: Vec<&Mover> = Vec::new();
            for (i, mover) in inner.movers.iter().enumerate() {
                let moved = if i.is_multiple_of(2) {
                    first
                } else {
                    first.opponent()
                };
                if moved == side && !names.iter().any(|m| m.name == mover.name) {
                    names.push(mover);
                }
            }
            names
        });
        let names = [Side::Red, Side::Blue].map(|side| {
            let movers = &players[side.index()];
            if movers.is_empty() {
                self.player_name(inner.side_player(side))
            } else {
                let names: Vec<&str> = movers.iter().map(|m| m.name.as_str()).collect();
                names.join(" / ")
            }
        });
        let levels = [Side::Red, Side::Blue].map(|side| {
            let movers = &players[side.index()];
            match movers.last() {
                Some(m) => m.level.clone(),
                None => self.mover(inner, inner.side_player(side)).level,
            }
        });
        let outcome = inner.game_at(inner.moves.len()).outcome();
        let (mut result, mut termination) = match (outcome, inner.ending) {
            (Some(o), _) => (o.score_text().to_string(), Some(o.to_string())),
            (None, Some(e)) => {
                let view = e.view();
                (view.result.to_string(), Some(view.text))
            }
            (None, None) => ("*".to_string(), None),
        };
        let mut extra = Vec::new();
        let mut tags = pgn::GameTags {
            event: "doushou gui".to_string(),
            site: "?".to_string(),
            date: inner.date.clone(),
            round: "-".to_string(),
            players: names,
            levels,
            result: String::new(),
            termination: None,
            rules: inner.rules,
            time_control: inner.clocks.tag(),
            start_fen: inner.start.fen(),
            extra: Vec::new(),
        };
        if let Some(loaded) = &inner.loaded {
            let tag = |name: &str| {
                loaded
                    .tags
                    .iter()
                    .find(|(n, _)| n.eq_ignore_ascii_case(name))
                    .map(|(_, v)| v.clone())
            };
            for (field, name) in [
                (&mut tags.event, "Event"),
                (&mut tags.site, "Site"),
                (&mut tags.round, "Round"),
            ] {
                if let Some(v) = tag(name) {
                    *field = v;
                }
            }
            tags.time_control = tag("TimeControl").or(tags.time_control);
            for (i, name) in ["RedLevel", "BlueLevel"].into_iter().enumerate() {
                if let Some(level) = tag(name) {
                    tags.levels[i].get_or_insert(level);
                }
            }
            if loaded.moves == inner.moves {
                if let Some(r) = &loaded.result {
                    result = r.clone();
                }
                termination = tag("Termination").or(termination);
            }
            extra = loaded.tags.clone();
        }
        tags.result = result;
        tags.termination = termination;
        tags.extra = extra;
        tags.record(moves)
    }

    fn state_of(&self, inner: &Inner) -> State {
        let game = inner.game();
        let pos = game.position();
        let outcome = inner.outcome();
        let side = pos.side_to_move();
        let can_move = outcome.is_none()
            && (inner.ply < inner.moves.len() || inner.side_player(side) == Player::Human);
        let mut legal: BTreeMap<String, Vec<String>> = BTreeMap::new();
        if can_move {
            for m in game.legal_moves().iter() {
                legal
                    .entry(m.from().to_string())
                    .or_default()
                    .push(m.to().to_string());
            }
        }
        let board = squares_top_down()
            .map(|sq| {
                let (kind, owner) = match ground(sq) {
                    Ground::Land => ("land", None),
                    Ground::Water => ("water", None),
                    Ground::Trap(s) => ("trap", Some(s.to_string())),
                    Ground::Den(s) => ("den", Some(s.to_string())),
                };
                SquareView {
                    square: sq.to_string(),
                    ground: kind,
                    owner,
                }
            })
            .collect();
        let pieces = squares_top_down()
            .filter_map(|sq| {
                let p = pos.piece_at(sq)?;
                // A trap that weakens its stander leaves it rank 0 there.
                let weakened = match ground(sq) {
                    Ground::Trap(owner) => inner.rules.universal_traps || owner != p.side,
                    _ => false,
                };
                Some(PieceView {
                    square: sq.to_string(),
                    piece: p.letter().to_string(),
                    side: p.side.to_string(),
                    animal: p.animal.name(),
                    rank: if weakened {
                        0
                    } else {
                        inner.rules.rank(p.animal)
                    },
                })
            })
            .collect();
        let rules = RULE_OPTIONS
            .iter()
            .map(|option| {
                let name = option.name;
                let (kind_name, default, choices, min, max) = match option.kind.clone() {
                    OptionKind::Check { default } => {
                        ("check", default.to_string(), vec![], None, None)
                    }
                    OptionKind::Spin { default, min, max } => {
                        ("spin", default.to_string(), vec![], Some(min), Some(max))
                    }
                    OptionKind::Combo { default, choices } => {
                        ("combo", default.to_string(), choices.to_vec(), None, None)
                    }
                    OptionKind::Button => ("button", String::new(), vec![], None, None),
                    OptionKind::String { default } => {
                        ("string", default.to_string(), vec![], None, None)
                    }
                };
                let (label, help) = rule_text(name);
                RuleView {
                    name,
                    label,
                    help,
                    value: inner.rules.get(name).unwrap_or_default(),
                    kind: kind_name,
                    default,
                    choices,
                    min,
                    max,
                }
            })
            .collect();
        let moves: Vec<String> = inner.moves.iter().map(ToString::to_string).collect();
        let record = self.record(inner);
        let mut replay = Game::new(inner.rules, inner.start);
        let move_list = inner
            .moves
            .iter()
            .map(|&m| {
                let view = move_view(replay.position(), m);
                replay.make(m);
                view
            })
            .collect();
        let tablebase = self.tablebase_view(inner, pos, outcome.is_some());
        let draw_claimable =
            inner.ply == inner.moves.len() && outcome.is_none() && game.occurrences() >= 3;
        State {
            id: self.id.clone(),
            version: inner.version,
            generation: inner.generation,
            fen: pos.fen(),
            start_fen: inner.start.fen(),
            moves,
            ply: inner.ply,
            side_to_move: side.to_string(),
            board,
            pieces,
            legal,
            last_move: inner.ply.checked_sub(1).map(|i| inner.moves[i].to_string()),
            outcome,
            variant: inner.rules.preset_name().unwrap_or("custom").to_string(),
            rules,
            players: Players {
                red: Some(self.player_name(inner.players[0])),
                blue: Some(self.player_name(inner.players[1])),
            },
            engines: self.engines.iter().map(|e| e.name.clone()).collect(),
            limits: inner.limits.clone(),
            thinking: inner.thinking.clone(),
            analysis: self.analysis_view(inner),
            engine_options: inner.confirmed.clone(),
            error: inner.error.clone(),
            pgn: record.to_string(),
            result: record.result,
            move_list,
            clocks: inner.clocks.view(),
            levels: LevelsView {
                red: inner.levels[0],
                blue: inner.levels[1],
            },
            review: inner.review.as_ref().map(|r| r.view.clone()),
            tablebase,
            draw_claimable,
        }
    }

    /// The tables' verdict on `pos` and its moves ranked, when the tables
    /// hold it under the game's rules (the repetition rule and the
    /// no-capture limit aside, which they leave out). A finished game gets
    /// its verdict and no moves.
    fn tablebase_view(&self, inner: &Inner, pos: &Position, over: bool) -> Option<TablebaseView> {
        let tables = self.tables.as_deref()?;
        if !tables.answers_for(&inner.rules) || !tables.holds_size_of(pos) {
            return None;
        }
        let verdict = tables.probe(pos)?;
        let moves = if over {
            Vec::new()
        } else {
            tables
                .rank_moves(pos)
                .unwrap_or_default()
                .into_iter()
                .map(|(m, v)| TablebaseMove {
                    text: m.to_string(),
                    display: move_view(pos, m).display,
                    verdict: verdict_view(v),
                })
                .collect()
        };
        Some(TablebaseView {
            verdict: verdict_view(verdict),
            moves,
            plies_before_limit: match tb::plies_before_limit(&inner.rules, pos) {
                u32::MAX => None,
                n => Some(n),
            },
        })
    }
}

/// A verdict for the page: its text and its parts.
fn verdict_view(v: Verdict) -> VerdictView {
    let (result, plies) = match v {
        Verdict::Win(n) => ("win", Some(n)),
        Verdict::Draw => ("draw", None),
        Verdict::Loss(n) => ("loss", Some(n)),
    };
    VerdictView {
        text: v.to_string(),
        result,
        plies,
    }
}

/// Move `m` of `pos` for people: its animal's letter and `×` for a capture.
fn move_view(pos: &Position, m: Move) -> MoveView {
    let letter = pos
        .piece_at(m.from())
        .map_or('?', |p| p.animal.letter().to_ascii_uppercase());
    let capture = pos.piece_at(m.to()).is_some();
    let cross = if capture { "×" } else { "" };
    MoveView {
        text: m.to_string(),
        letter: letter.to_string(),
        capture,
        display: format!("{letter} {}{cross}{}", m.from(), m.to()),
    }
}

/// The side a request names, `red` or `blue` in any case.
fn parse_side(text: &str) -> Result<Side, ApiError> {
    match text.to_ascii_lowercase().as_str() {
        "red" => Ok(Side::Red),
        "blue" => Ok(Side::Blue),
        _ => Err(bad(422, format!("side '{text}': expected red or blue"))),
    }
}

/// Each limit in its range: a depth of 1000 would never end.
fn check_limits(limits: &MoveLimits) -> Result<(), ApiError> {
    let out = |what: &str, value: u64, lo: u64, hi: u64| {
        Err(bad(422, format!("{what} {value}: expected {lo} to {hi}")))
    };
    if let Some(ms) = limits.movetime.filter(|v| !MOVETIME_RANGE.contains(v)) {
        return out(
            "movetime",
            ms,
            *MOVETIME_RANGE.start(),
            *MOVETIME_RANGE.end(),
        );
    }
    if let Some(d) = limits.depth.filter(|v| !DEPTH_RANGE.contains(v)) {
        let (lo, hi) = (*DEPTH_RANGE.start(), *DEPTH_RANGE.end());
        return out("depth", d.into(), lo.into(), hi.into());
    }
    if let Some(n) = limits.nodes.filter(|v| !NODES_RANGE.contains(v)) {
        return out("nodes", n, *NODES_RANGE.start(), *NODES_RANGE.end());
    }
    Ok(())
}

/// The `analysis` event: the analysis and the playing engine's thoughts.
#[derive(serde::Serialize)]
struct AnalysisUpdate {
    generation: u64,
    analysis: AnalysisView,
    thinking: Option<Thinking>,
}

/// One server-sent event: its name and its data as one line of JSON.
fn sse(event: &str, data: &impl serde::Serialize) -> String {
    let json = serde_json::to_string(data)
        .unwrap_or_else(|e| serde_json::json!({ "error": e.to_string() }).to_string());
    format!("event: {event}\ndata: {json}\n\n")
}
