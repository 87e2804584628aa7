//! Moves, navigation and how a game line ends: the moves played at the
//! page or from an analysis line, a position set up, stepping through the
//! line, resignation, draws, takebacks and a fallen flag.
use super::{Ending, GuiGame, Mover, Player, lock, sse};
use crate::gui::api::State;
use crate::gui::error::ApiError;
use crate::rules::{Position, Side};
use crate::tools::pgn::read as input;

impl GuiGame {
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

    /// Plays a move given in protocol notation on the shown position; moves
    /// after the shown ply are replaced.
    pub fn play(&self, text: &str) -> Result<State, ApiError> {
        self.change(|inner| {
            let mut game = inner.game();
            if let Some(outcome) = inner.outcome() {
                return Err(ApiError::GameOver(outcome.text));
            }
            let side = game.position().side_to_move();
            if inner.ply == inner.moves.len() && inner.side_player(side) != Player::Human {
                return Err(ApiError::EngineTurn(side));
            }
            let m = game.play_text(text).map_err(ApiError::Move)?;
            inner.push_move(m, self.mover(inner, Player::Human));
            Ok(())
        })
    }

    /// Plays a line of moves (an analysis line) from the shown position,
    /// replacing the moves after it, and shows the position after its first
    /// move: the rest is stepped through as any game line.
    pub fn play_line(&self, moves: &[String]) -> Result<State, ApiError> {
        if moves.is_empty() {
            return Err(ApiError::EmptyLine);
        }
        self.change(|inner| {
            let mut game = inner.game();
            let start = inner.ply;
            let mut checked = Vec::with_capacity(moves.len());
            for (i, text) in moves.iter().enumerate() {
                if game.outcome().is_some() {
                    break;
                }
                let m = game.play_text(text).map_err(|error| ApiError::LineMove {
                    number: i + 1,
                    error,
                })?;
                checked.push(m);
            }
            if checked.is_empty() {
                return Err(ApiError::OverHere);
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
        let spec = input::parse_position_line(text).map_err(ApiError::Position)?;
        self.change(|inner| {
            let game = spec.game(inner.rules).map_err(ApiError::Position)?;
            let start = spec.fen.parse().map_err(ApiError::Fen)?;
            let moves = game.moves_played();
            // Moves typed in with the position were played by no one here.
            let movers = vec![self.mover(inner, Player::Human); moves.len()];
            inner.new_line(start, moves, movers);
            Ok(())
        })
    }

    /// Shows the position after `ply` moves of the game line (take back, forward).
    pub fn navigate(&self, ply: usize) -> Result<State, ApiError> {
        self.change(|inner| {
            if ply > inner.moves.len() {
                return Err(ApiError::Ply {
                    ply,
                    moves: inner.moves.len(),
                });
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

    /// Ends the game line: `side` resigns (by default the human's side, or
    /// the side to move when both or neither are human).
    pub fn resign(&self, side: Option<&str>) -> Result<State, ApiError> {
        let side = side.map(parse_side).transpose()?;
        self.change(|inner| {
            if inner.line_over() {
                return Err(ApiError::AlreadyOver);
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
                return Err(ApiError::AlreadyOver);
            }
            inner.ply = inner.moves.len();
            match action {
                "claim" => {
                    if inner.game().occurrences() < 3 {
                        return Err(ApiError::NoRepetition);
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
                            return Err(ApiError::DrawDeclined(name));
                        }
                    }
                    inner.ending = Some(Ending::Agreed);
                }
                other => {
                    return Err(ApiError::DrawAction(other.to_string()));
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
                return Err(ApiError::NothingToTakeBack);
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
}

/// The side a request names, `red` or `blue` in any case.
pub(super) fn parse_side(text: &str) -> Result<Side, ApiError> {
    match text.to_ascii_lowercase().as_str() {
        "red" => Ok(Side::Red),
        "blue" => Ok(Side::Blue),
        _ => Err(ApiError::SideName(text.to_string())),
    }
}
