//! A game's settings changed at once: rules (checked whole, the game kept
//! legal), players, limits per move, levels and clocks.
use super::GuiGame;
use super::seats::{level_options, rule_settings};
use crate::gui::api::{MoveLimits, OptionsRequest, State};
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
    /// the game must stay legal under them.
    pub fn set_options(&self, request: &OptionsRequest) -> Result<State, ApiError> {
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
