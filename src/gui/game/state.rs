//! The state of a game as the API shows it (docs/gui.md, "The state"):
//! the board, the moves for people, the outcome, the rules explained, the
//! tables' verdict.
use super::seats::red_view;
use super::{Ending, GuiGame, Inner, Player};
use crate::engine::score::Score;
use crate::gui::api::{
    LevelsView, MoveView, OutcomeView, PieceView, Players, RuleView, ScoreView, SquareView, State,
    TablebaseMove, TablebaseView, VerdictView,
};
use crate::gui::rule_text::rule_text;
use crate::rules::{
    DrawReason, Game, Move, Outcome, Position, RULE_OPTIONS, Rules, Side, WinReason,
};
use crate::tb::{self, Verdict};
use crate::tools::show::{Ground, ground, squares_top_down};
use crate::util::options::OptionKind;
use std::collections::BTreeMap;

impl Ending {
    pub(super) fn view(self) -> OutcomeView {
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

impl Inner {
    /// How the game stands at the shown position: over by the rules, or by
    /// an ending of the line (shown at its last position).
    pub(super) fn outcome(&self) -> Option<OutcomeView> {
        if let Some(o) = self.game().outcome() {
            return Some(outcome_view(o));
        }
        self.ending
            .filter(|_| self.ply == self.moves.len())
            .map(Ending::view)
    }

    /// The side whose clock should run: the side to move at the end of a
    /// line still being played.
    pub(super) fn clock_side(&self) -> Option<Side> {
        (self.ply == self.moves.len() && self.outcome().is_none())
            .then(|| self.game().position().side_to_move())
    }
}

/// A game end by the rules as the page shows it.
pub(super) fn outcome_view(o: Outcome) -> OutcomeView {
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

/// The reason of a game end as one word for scripts.
pub(super) fn reason_word(outcome: Outcome) -> &'static str {
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
    /// The whole state of the game, as every answer and `state` event
    /// carries it.
    pub(super) fn state_of(&self, inner: &Inner) -> State {
        let game = inner.game();
        let pos = game.position();
        let outcome = inner.outcome();
        let side = pos.side_to_move();
        let can_move = outcome.is_none()
            && (inner.ply < inner.moves.len() || inner.side_player(side) == Player::Human);
        let record = self.record(inner);
        let tablebase = self.tablebase_view(inner, pos, outcome.is_some());
        let draw_claimable =
            inner.ply == inner.moves.len() && outcome.is_none() && game.occurrences() >= 3;
        State {
            id: self.id.clone(),
            version: inner.version,
            generation: inner.generation,
            fen: pos.fen(),
            start_fen: inner.start.fen(),
            moves: inner.moves.iter().map(ToString::to_string).collect(),
            ply: inner.ply,
            side_to_move: side.to_string(),
            board: board_view(),
            pieces: pieces_view(inner.rules, pos),
            legal: if can_move {
                legal_view(&game)
            } else {
                BTreeMap::new()
            },
            last_move: inner.ply.checked_sub(1).map(|i| inner.moves[i].to_string()),
            outcome,
            variant: inner.rules.preset_name().unwrap_or("custom").to_string(),
            rules: rules_view(&inner.rules),
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
            move_list: move_list(inner),
            clocks: inner.clocks.view(),
            levels: LevelsView {
                red: inner.levels[0],
                blue: inner.levels[1],
            },
            elo_choices: crate::engine::skill::elo_choices(),
            review: inner.review.as_ref().map(|r| r.view.clone()),
            tablebase,
            draw_claimable,
            can_take_back: inner.ending.is_some() || !inner.moves.is_empty(),
        }
    }

    /// The tables' verdict on a line of the position shown, after its first
    /// move, as a score from Red's view: a win or loss in plies as a mate in
    /// moves (as the protocol's `score mate`), a draw as the draw it is.
    /// `None` when the tables do not hold the position.
    pub(super) fn table_score(&self, inner: &Inner, pv: &[String]) -> Option<ScoreView> {
        let tables = self.tables.as_deref()?;
        let game = inner.game();
        let pos = game.position();
        if !tables.answers_for(&inner.rules) || !tables.holds_size_of(pos) {
            return None;
        }
        let first: Move = pv.first()?.parse().ok()?;
        let (_, verdict) = tables
            .rank_moves(pos)?
            .into_iter()
            .find(|(m, _)| *m == first)?;
        let moves = |plies: u32| i32::try_from(plies.div_ceil(2)).unwrap_or(i32::MAX);
        let mate = match verdict {
            Verdict::Win(plies) => moves(plies),
            Verdict::Loss(plies) => -moves(plies),
            Verdict::Draw => {
                return Some(ScoreView {
                    cp: Some(0),
                    mate: None,
                    text: "draw".to_string(),
                });
            }
        };
        Some(red_view(Score::Mate(mate), pos.side_to_move()))
    }

    /// The tables' verdict on `pos` and its moves ranked, when the tables
    /// hold it under the game's rules (the repetition rule and the
    /// no-capture limit aside, which they leave out). A finished game gets
    /// its verdict and no moves.
    pub(super) fn tablebase_view(
        &self,
        inner: &Inner,
        pos: &Position,
        over: bool,
    ) -> Option<TablebaseView> {
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
pub(super) fn verdict_view(v: Verdict) -> VerdictView {
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

/// Move `m` of `pos` for people: its piece's letter (Blue's lowercase, as
/// FEN writes them) and `×` for a capture.
pub(super) fn move_view(pos: &Position, m: Move) -> MoveView {
    let letter = pos.piece_at(m.from()).map_or('?', |p| p.letter());
    let capture = pos.piece_at(m.to()).is_some();
    let cross = if capture { "×" } else { "" };
    MoveView {
        text: m.to_string(),
        letter: letter.to_string(),
        capture,
        display: format!("{letter} {}{cross}{}", m.from(), m.to()),
    }
}

/// The legal moves of `game`'s position by origin square.
fn legal_view(game: &Game) -> BTreeMap<String, Vec<String>> {
    let mut legal: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for m in game.legal_moves().iter() {
        legal
            .entry(m.from().to_string())
            .or_default()
            .push(m.to().to_string());
    }
    legal
}

/// The 63 squares, top rank first.
fn board_view() -> Vec<SquareView> {
    squares_top_down()
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
        .collect()
}

/// The pieces of `pos`, each with its rank where it stands under `rules`.
fn pieces_view(rules: Rules, pos: &Position) -> Vec<PieceView> {
    squares_top_down()
        .filter_map(|sq| {
            let p = pos.piece_at(sq)?;
            // A trap that weakens its stander leaves it rank 0 there.
            let weakened = match ground(sq) {
                Ground::Trap(owner) => rules.universal_traps || owner != p.side,
                _ => false,
            };
            Some(PieceView {
                square: sq.to_string(),
                piece: p.letter().to_string(),
                side: p.side.to_string(),
                animal: p.animal.name(),
                rank: if weakened { 0 } else { rules.rank(p.animal) },
            })
        })
        .collect()
}

/// Every rule option with its value under `rules`, explained for people.
fn rules_view(rules: &Rules) -> Vec<RuleView> {
    RULE_OPTIONS
        .iter()
        .map(|option| {
            let name = option.name;
            let (kind, default, choices, min, max) = match option.kind.clone() {
                OptionKind::Check { default } => ("check", default.to_string(), vec![], None, None),
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
                value: rules.get(name).unwrap_or_default(),
                kind,
                default,
                choices,
                min,
                max,
            }
        })
        .collect()
}

/// Each move of the game line for people.
fn move_list(inner: &Inner) -> Vec<MoveView> {
    let mut replay = Game::new(inner.rules, inner.start);
    inner
        .moves
        .iter()
        .map(|&m| {
            let view = move_view(replay.position(), m);
            replay.make(m);
            view
        })
        .collect()
}
