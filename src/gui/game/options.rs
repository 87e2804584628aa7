//! A game's settings changed at once: rules (checked whole, the game kept
//! legal), players, limits per move, levels and clocks.
use super::seats::{check_level, level_options, rule_settings};
use super::{GuiGame, Player, lock};
use crate::gui::api::{Level, MoveLimits, OptionsRequest, State};
use crate::gui::engine::Request;
use crate::gui::error::ApiError;
use crate::rules::{Game, Side, switch};

/// The limits accepted per move: milliseconds, depth, nodes.
pub(super) const MOVETIME_RANGE: std::ops::RangeInclusive<u64> = 1..=3_600_000;
pub(super) const DEPTH_RANGE: std::ops::RangeInclusive<u32> = 1..=64;
pub(super) const NODES_RANGE: std::ops::RangeInclusive<u64> = 1..=10_000_000_000;

/// A JSON value given for an option, as the protocol's text.
pub(super) fn option_text(value: &serde_json::Value) -> String {
    match value {
        serde_json::Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

impl GuiGame {
    /// Changes rules, players and limits; rules are checked whole first, and
    /// the game must stay legal under them. A seat whose player or level
    /// changes has its level checked against the engine that plays it.
    pub fn set_options(&self, request: &OptionsRequest) -> Result<State, ApiError> {
        // An engine's first start, to learn its options, takes a moment:
        // before the game is locked.
        let (players, levels) = {
            let inner = lock(&self.inner);
            (inner.players, inner.levels)
        };
        if let Ok((players, levels)) = self.seats_after(request, players, levels) {
            for side in changed_seats(request) {
                if let Player::Engine(i) = players[side.index()]
                    && levels[side.index()] != Level::default()
                {
                    self.announced.learn(&self.engines[i], &self.shared.engines);
                }
            }
        }
        self.change(|inner| {
            let mut rules = inner.rules;
            let mut settings: Vec<(&String, &serde_json::Value)> = request.rules.iter().collect();
            // The preset replaces every switch: it goes first.
            settings.sort_by_key(|(name, _)| !name.eq_ignore_ascii_case(switch::VARIANT));
            for (name, value) in settings {
                let value = option_text(value);
                // `custom` is no preset: it names the switches as they are.
                if name.eq_ignore_ascii_case(switch::VARIANT)
                    && value.eq_ignore_ascii_case("custom")
                {
                    continue;
                }
                rules.set(name, &value).map_err(ApiError::Rules)?;
            }
            let (players, levels) = self.seats_after(request, inner.players, inner.levels)?;
            if let Some(limits) = &request.limits {
                check_limits(limits)?;
            }
            for side in changed_seats(request) {
                self.check_seat(players[side.index()], levels[side.index()])?;
            }
            let mut clocks = inner.clocks.clone();
            if let Some(c) = &request.clocks {
                for (side, control) in [(Side::Red, c.red), (Side::Blue, c.blue)] {
                    if let Some(control) = control {
                        clocks.set(side, control).map_err(ApiError::Clock)?;
                    }
                }
            }
            if rules != inner.rules {
                let moves: Vec<String> = inner.moves.iter().map(ToString::to_string).collect();
                Game::from_fen_and_moves(rules, &inner.start.fen(), &moves)
                    .map_err(ApiError::NotLegalUnder)?;
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
}

impl GuiGame {
    /// The players and levels `request` leaves, from `players` and `levels`.
    fn seats_after(
        &self,
        request: &OptionsRequest,
        mut players: [Player; 2],
        mut levels: [Level; 2],
    ) -> Result<([Player; 2], [Level; 2]), ApiError> {
        for side in [Side::Red, Side::Blue] {
            let i = side.index();
            if let Some(name) = request.players.as_ref().and_then(|p| p.of(side).as_ref()) {
                players[i] = self.player_named(name)?;
            }
            if let Some(level) = request.levels.as_ref().and_then(|l| *l.of(side)) {
                levels[i] = level;
            }
        }
        Ok((players, levels))
    }

    /// Checks the level of a seat against the engine that plays it; a
    /// person's seat keeps its level for an engine that may take it later.
    fn check_seat(&self, player: Player, level: Level) -> Result<(), ApiError> {
        match player {
            Player::Human => level_options(level, false).map(drop),
            Player::Engine(i) => {
                let name = &self.engines[i].name;
                let announced = self.announced.of(name);
                check_level(level, name, announced.as_deref().map(Vec::as_slice))
            }
        }
    }
}

/// The sides whose player or level `request` sets.
fn changed_seats(request: &OptionsRequest) -> Vec<Side> {
    [Side::Red, Side::Blue]
        .into_iter()
        .filter(|&side| {
            request
                .players
                .as_ref()
                .is_some_and(|p| p.of(side).is_some())
                || request
                    .levels
                    .as_ref()
                    .is_some_and(|l| l.of(side).is_some())
        })
        .collect()
}

/// Each limit in its range: a depth of 1000 would never end.
pub(super) fn check_limits(limits: &MoveLimits) -> Result<(), ApiError> {
    let out = |what: &'static str, value: u64, least: u64, most: u64| {
        Err(ApiError::Limit {
            what,
            value,
            least,
            most,
        })
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
