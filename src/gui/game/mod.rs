//! One game on the page (a browser tab), as a session: the rules, the moves
//! and which of them is shown, who plays each side, the engines that play and
//! analyse, and the pages listening for changes. Every rule question (legal
//! moves, FEN, game end) goes to the rules code; engines are only asked for
//! moves and analysis.
//!
//! This file holds the session (the game's state, its pages, how a change is
//! made); the files beside it add to [`GuiGame`] one concern each:
//! `play` (moves, navigation and endings), `records` (game records in
//! and out), `seats` (the engines that play and analyse), `options`
//! (rules, players, limits, levels, clocks), `review` (a review of the
//! game) and `state` (the state as the API shows it).

mod options;
mod play;
mod records;
mod review;
pub mod review_job;
mod seats;
mod state;

use super::api::{AnalysisLine, Level, MoveLimits, ScoreView, State, Thinking};
use super::clock::Clocks;
use super::engine::{Announced, EngineHandle};
use super::error::ApiError;
use super::limits::SharedSlots;
use crate::client::EngineSpec;
use crate::rules::{Game, Move, Position, Rules, Side};
use crate::tb::TableSet;
use crate::tools::pgn;
use review_job::Review;
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

/// The move time when no limit is set, ms.
const DEFAULT_MOVETIME: u64 = 1000;

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

    /// Whether the line is over (by the rules at its end, or an ending).
    fn line_over(&self) -> bool {
        self.ending.is_some() || self.game_at(self.moves.len()).outcome().is_some()
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
    shared: SharedSlots,
    /// The options the engines announce, learnt for every game.
    announced: Announced,
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
pub struct Subscription {
    game: Weak<GuiGame>,
}

impl Drop for Subscription {
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

impl GuiGame {
    /// A new game from the start position under `rules`: Red played at the
    /// page, Blue by the first engine; `tables` judge the positions shown.
    pub fn new(
        id: String,
        engines: Arc<Vec<EngineSpec>>,
        tables: Option<Arc<TableSet>>,
        rules: Rules,
        shared: SharedSlots,
        announced: Announced,
    ) -> Arc<GuiGame> {
        Arc::new_cyclic(|me| GuiGame {
            id,
            shared,
            announced,
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
    pub fn subscribe(&self, sink: Sink) -> Subscription {
        let state = self.state();
        sink(&sse("state", &state));
        lock(&self.subscribers).push(sink);
        lock(&self.inner).listeners += 1;
        Subscription {
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
}

/// One server-sent event: its name and its data as one line of JSON.
fn sse(event: &str, data: &impl serde::Serialize) -> String {
    let json = serde_json::to_string(data)
        .unwrap_or_else(|e| serde_json::json!({ "error": e.to_string() }).to_string());
    format!("event: {event}\ndata: {json}\n\n")
}
