//! Game records in and out: a record loaded (its tags, players and rules)
//! and the game line written as one, naming who made its moves.
use super::seats::level_options;
use super::{GuiGame, Inner, Loaded, Mover, Player};
use crate::gui::api::State;
use crate::gui::error::ApiError;
use crate::rules::{Position, Rules, Side};
use crate::tools::pgn::{self, read as input};

impl GuiGame {
    /// Loads game `index` (from 0) of a record file written by `doushou
    /// match`, under the rules its tags give; shows its first position, and
    /// no engine plays on.
    pub fn load_pgn(&self, text: &str, index: usize) -> Result<State, ApiError> {
        let games = input::parse_games(text, Rules::default());
        if games.is_empty() {
            return Err(ApiError::NoGameInText);
        }
        let count = games.len();
        let spec = match games.into_iter().nth(index) {
            Some(Ok(spec)) => spec,
            Some(Err(e)) => {
                return Err(ApiError::Record {
                    line: e.line,
                    error: e.error,
                });
            }
            None => {
                // Counted from 1, as people (and the page) number games.
                return Err(ApiError::GameIndex {
                    asked: index + 1,
                    games: count,
                });
            }
        };
        let game = spec.start.game(spec.rules).map_err(ApiError::Position)?;
        let start: Position = spec.start.fen.parse().map_err(ApiError::Fen)?;
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

    /// The record's name of a player now, with its level.
    pub(super) fn mover(&self, inner: &Inner, player: Player) -> Mover {
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

    /// The game line as a record: the players who made its moves (those
    /// selected now for a side that has not moved), how it ended, its rules
    /// and first position. A loaded record keeps its own tags, and its result
    /// and termination while its moves are the line's.
    pub(super) fn record(&self, inner: &Inner) -> pgn::Record {
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
}
