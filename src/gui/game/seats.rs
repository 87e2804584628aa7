//! The engines of a game, each on a seat: the players' engines and the
//! analyser, started on first use, told every change (searches stopped and
//! restarted), and what they answer turned into the page's lines.
use super::{DEFAULT_MOVETIME, GuiGame, Inner, Player, Role, lock, sse};
use crate::client::{EngineLimits, position_command};
use crate::engine::score::{Score, ScoreBound};
use crate::engine::{option, skill};
use crate::gui::api::{AnalysisLine, AnalysisView, Level, ScoreView, State, Thinking};
use crate::gui::engine::{EngineEvent, EngineHandle, Request};
use crate::gui::error::ApiError;
use crate::protocol::reply::{InfoLine, OptionLine};
use crate::rules::{Game, Outcome, Rules, Side};
use std::time::Duration;

/// How long an engine playing a move may overrun its move time before it
/// counts as hung; searches to a depth or node count get [`HANG_UNTIMED`].
pub(super) const HANG_GRACE: Duration = Duration::from_secs(10);
pub(super) const HANG_UNTIMED: Duration = Duration::from_secs(120);

/// The protocol's `Name=Value` settings of every rule switch (the preset is
/// implied by the switches, so it is not sent).
pub(super) fn rule_settings(rules: &Rules) -> Vec<(String, String)> {
    rules
        .settings()
        .into_iter()
        .map(|(name, value)| (name.to_string(), value))
        .collect()
}

/// A score for the side to move, from Red's point of view.
pub(super) fn red_view(score: Score, side_to_move: Side) -> ScoreView {
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

pub(super) fn line_of(info: &InfoLine, side_to_move: Side) -> Option<AnalysisLine> {
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

/// Checks a level against the range the engine `engine` playing it
/// announces for its option (`Skill Level` or `UCI_Elo`, from its `option`
/// line: an engine refuses a value out of it and plays at full strength).
/// With its options `announced` not known (the engine would not start) the
/// level is not checked: the engine says why when it is to move.
pub(super) fn check_level(
    level: Level,
    engine: &str,
    announced: Option<&[OptionLine]>,
) -> Result<(), ApiError> {
    let (option, value) = match (level.skill, level.elo) {
        (Some(_), Some(_)) => return Err(ApiError::SkillAndElo),
        (Some(s), None) => (option::SKILL_LEVEL, s),
        (None, Some(e)) => (option::ELO, e),
        (None, None) => return Ok(()),
    };
    let Some(announced) = announced else {
        return Ok(());
    };
    let Some(line) = announced
        .iter()
        .find(|o| o.name.eq_ignore_ascii_case(option))
    else {
        return Err(ApiError::NoLevelOption {
            option,
            engine: engine.to_string(),
        });
    };
    let (min, max) = (line.min.unwrap_or(i64::MIN), line.max.unwrap_or(i64::MAX));
    if !(min..=max).contains(&i64::from(value)) {
        return Err(ApiError::Level {
            option,
            value,
            engine: engine.to_string(),
            min,
            max,
        });
    }
    Ok(())
}

/// The options that set a level on an engine (a level given both ways is
/// refused; its range is [`check_level`]'s).
pub(super) fn level_options(
    level: Level,
    weakened: bool,
) -> Result<Vec<(String, String)>, ApiError> {
    let pair = |n: &str, v: String| (n.to_string(), v);
    match (level.skill, level.elo) {
        (Some(_), Some(_)) => Err(ApiError::SkillAndElo),
        (Some(s), None) => Ok(vec![
            pair(option::LIMIT_STRENGTH, "false".into()),
            pair(option::SKILL_LEVEL, s.to_string()),
        ]),
        (None, Some(e)) => Ok(vec![
            pair(option::LIMIT_STRENGTH, "true".into()),
            pair(option::ELO, e.to_string()),
        ]),
        // Full strength: said only to an engine that was weakened before,
        // so that engines without these options are never sent them.
        (None, None) if weakened => Ok(vec![
            pair(option::LIMIT_STRENGTH, "false".into()),
            pair(option::SKILL_LEVEL, skill::FULL_STRENGTH.to_string()),
        ]),
        (None, None) => Ok(Vec::new()),
    }
}

/// A mating line as the engine gives it may stop short of the move that
/// wins (the den entry ends the game, so the search reports no move after
/// it): the winning moves the rules find at its end are added, so that the
/// line shows the whole mate.
pub(super) fn complete_mate(mut game: Game, pv: &mut Vec<String>) {
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

impl GuiGame {
    /// Ends the analysing engine's process (its thread ends with its
    /// handle), so that an analysis not running holds no engine.
    pub(super) fn end_analyser(&self, inner: &mut Inner) {
        if inner.analyser.take().is_some() {
            let label = self.analyser_label(inner);
            inner.confirmed.remove(&label);
        }
    }

    /// The analysing engine as `engine_options` names it.
    pub(super) fn analyser_label(&self, inner: &Inner) -> String {
        format!("{} (analysis)", self.engines[inner.analysis_engine].name)
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
                Player::Human => return Err(ApiError::HumanAnalyst),
            },
            None => None,
        };
        self.change(|inner| {
            if let Some(k) = multipv {
                if !(1..=32).contains(&k) {
                    return Err(ApiError::MultiPv(k));
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

    pub(super) fn player_named(&self, name: &str) -> Result<Player, ApiError> {
        if name.eq_ignore_ascii_case("human") {
            return Ok(Player::Human);
        }
        self.engines
            .iter()
            .position(|e| e.name == name)
            .map(Player::Engine)
            .ok_or_else(|| ApiError::NoEngine {
                name: name.to_string(),
                known: self.engines.iter().map(|e| e.name.clone()).collect(),
            })
    }

    pub(super) fn player_name(&self, player: Player) -> String {
        match player {
            Player::Human => "human".to_string(),
            Player::Engine(i) => self.engines[i].name.clone(),
        }
    }

    /// The thread of an engine, started on first use.
    pub(super) fn actor<'a>(&self, inner: &'a mut Inner, role: Role) -> &'a EngineHandle {
        let start = |index: usize| {
            let me = self.me.clone();
            let slots = self.shared.engines.clone();
            let announced = self.announced.clone();
            EngineHandle::start(
                self.engines[index].clone(),
                slots,
                announced,
                move |event| {
                    if let Some(game) = me.upgrade() {
                        game.on_engine_event(role, event);
                    }
                },
            )
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
    pub(super) fn restart_engines(&self, inner: &mut Inner) {
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
        let moves: Vec<String> = inner.moves[..inner.ply]
            .iter()
            .map(ToString::to_string)
            .collect();
        let position = position_command(&inner.start.fen(), &moves);
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
                let fixed = EngineLimits {
                    movetime,
                    depth: limits.depth,
                    nodes: limits.nodes,
                    tc: None,
                };
                go.push_str(&fixed.fixed_go_words());
                movetime.map_or(HANG_UNTIMED, |ms| Duration::from_millis(ms) + HANG_GRACE)
            };
            let weakened = inner.weakened[index];
            let level = inner.levels[side.index()];
            // The engine's own options (`--tablebases` for this binary) first.
            let mut options = self.engines[index].options.clone();
            options.extend(rules.iter().cloned());
            match level_options(level, weakened) {
                Ok(level_options) => options.extend(level_options),
                Err(e) => log::warn!("{e}"),
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
            options.push((option::MULTIPV.to_string(), inner.multipv.to_string()));
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
    pub(super) fn on_engine_event(&self, role: Role, event: EngineEvent) {
        let mut inner = lock(&self.inner);
        let label = match role {
            Role::Player(i) => self.engines[i].name.clone(),
            Role::Analysis => self.analyser_label(&inner),
        };
        match event {
            EngineEvent::Info(generation, info) if generation == inner.generation => {
                let side = match role {
                    Role::Analysis => inner.analysed_side,
                    Role::Player(_) => inner.game().position().side_to_move(),
                };
                let Some(mut line) = line_of(&info, side) else {
                    return;
                };
                // Where the tables know the position, their verdict is the
                // score, a mate in moves as protocol.md counts them.
                if let Some(score) = self.table_score(&inner, &line.pv) {
                    line.score = score;
                    line.bound = None;
                }
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
            EngineEvent::BestMove(generation, m)
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
            EngineEvent::Configured(options) => {
                inner.confirmed.insert(label, options.into_iter().collect());
                inner.version += 1;
                let state = sse("state", &self.state_of(&inner));
                drop(inner);
                self.publish(state);
            }
            EngineEvent::Failed(failure) => {
                match role {
                    Role::Player(_) => inner.thinking = None,
                    Role::Analysis => {
                        inner.analysis_on = false;
                        inner.lines.clear();
                    }
                }
                inner.confirmed.remove(&label);
                inner.error = Some(failure.to_string());
                inner.version += 1;
                let state = sse("state", &self.state_of(&inner));
                drop(inner);
                self.publish(state);
            }
            // Answers to searches that a change made stale.
            EngineEvent::Info(..) | EngineEvent::BestMove(..) => {}
        }
    }

    pub(super) fn analysis_update(&self, inner: &Inner) -> AnalysisUpdate {
        AnalysisUpdate {
            generation: inner.generation,
            analysis: self.analysis_view(inner),
            thinking: inner.thinking.clone(),
        }
    }

    pub(super) fn analysis_view(&self, inner: &Inner) -> AnalysisView {
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
}

/// The `analysis` event: the analysis and the playing engine's thoughts.
#[derive(serde::Serialize)]
pub(super) struct AnalysisUpdate {
    generation: u64,
    analysis: AnalysisView,
    thinking: Option<Thinking>,
}
