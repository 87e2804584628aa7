//! The positions the net is fitted to, as the net sees them ([`Positions`]),
//! and their reading from data files ([`load`]) into training and held-out
//! validation sets.

use super::error::TrainError;
use crate::engine::nnue::features::{INPUTS, RULE_INPUTS, RuleInput, active_features};
use crate::rules::{Position, Rules, Side};
use crate::tuning::data::{self, RunSummary};
use std::path::PathBuf;

/// Positions as the net sees them: each one's active inputs (the side to
/// move's view, then the other side's: as many of each) and its labels from
/// the side to move's view.
#[derive(Clone, Debug)]
pub struct Positions {
    inputs: Vec<u16>,
    /// Where each position's inputs start; one more than positions.
    offsets: Vec<u32>,
    /// The game's result for the side to move: 1, 0.5 or 0.
    results: Vec<f32>,
    /// The search score for the side to move, centipawns.
    scores: Vec<f32>,
}

impl Default for Positions {
    fn default() -> Positions {
        Positions {
            inputs: Vec::new(),
            offsets: vec![0],
            results: Vec::new(),
            scores: Vec::new(),
        }
    }
}

impl data::Entries for Positions {
    fn count(&self) -> usize {
        self.len()
    }

    fn push_from(&mut self, other: &Positions, i: usize) {
        let (a, b) = (other.offsets[i] as usize, other.offsets[i + 1] as usize);
        self.inputs.extend_from_slice(&other.inputs[a..b]);
        self.offsets.push(self.inputs.len() as u32);
        self.results.push(other.results[i]);
        self.scores.push(other.scores[i]);
    }
}

impl Positions {
    /// Adds `pos`, played under `rules`, with its labels from Red's view. Each
    /// perspective's inputs are its board inputs and then the rule inputs on
    /// under `rules` (input `INPUTS + code`, the same for both perspectives).
    pub fn push(&mut self, pos: &Position, rules: &Rules, red_result: f64, red_score: i32) {
        let stm = pos.side_to_move();
        for side in [stm, stm.opponent()] {
            self.inputs
                .extend(active_features(pos, side).map(|i| i as u16));
            self.inputs
                .extend(RuleInput::active(rules).map(|r| (INPUTS as u32 + r.code()) as u16));
        }
        self.offsets.push(self.inputs.len() as u32);
        let red = stm == Side::Red;
        self.results
            .push(if red { red_result } else { 1.0 - red_result } as f32);
        self.scores
            .push(if red { red_score } else { -red_score } as f32);
    }

    /// How many positions have been pushed.
    pub fn len(&self) -> usize {
        self.results.len()
    }

    /// Whether no position has been pushed.
    pub fn is_empty(&self) -> bool {
        self.results.is_empty()
    }

    /// Position `i`: the side to move's inputs, the other side's inputs, the
    /// result and the score, all from the side to move's view.
    #[inline]
    pub(super) fn get(&self, i: usize) -> (&[u16], &[u16], f32, f32) {
        let (a, b) = (self.offsets[i] as usize, self.offsets[i + 1] as usize);
        let (stm, other) = self.inputs[a..b].split_at((b - a) / 2);
        (stm, other, self.results[i], self.scores[i])
    }
}

/// The training data: positions split into training and held-out validation.
#[derive(Clone, Debug)]
pub struct TrainingData {
    /// Positions the net is fitted to.
    pub train: Positions,
    /// Positions held out to measure the fit.
    pub validation: Positions,
    /// What the files' `# done` lines say.
    pub runs: RunSummary,
    /// The rule inputs on for some training position, by code: the net's
    /// rule inputs (one never on would learn nothing).
    pub rule_inputs: Vec<RuleInput>,
}

/// Fewer validation positions than this make the validation loss a rough guide.
pub const ENOUGH_VALIDATION: usize = 1000;

/// Reads data files (the format of [`crate::tuning`]; every line needs its
/// score), holding out `validation` of the positions in blocks of consecutive
/// lines ([`data::BLOCK`] of them, so that most held-out games are whole).
pub fn load(paths: &[PathBuf], validation: f64) -> Result<TrainingData, TrainError> {
    let (train, held, runs, _split) = data::read_split(
        paths,
        validation,
        |positions: &mut Positions, labelled, rules| {
            let score = labelled.score.ok_or(data::DataLineError::NoScore)?;
            positions.push(&labelled.position, rules, labelled.result, score);
            Ok(())
        },
    )?;
    if train.is_empty() {
        return Err(TrainError::NoTrainingPositions { read: held.len() });
    }
    let mut seen = [false; RULE_INPUTS];
    for &input in &train.inputs {
        if let Some(code) = (input as usize).checked_sub(INPUTS) {
            seen[code] = true;
        }
    }
    let rule_inputs = RuleInput::ALL
        .into_iter()
        .filter(|r| seen[r.code() as usize])
        .collect();
    Ok(TrainingData {
        train,
        validation: held,
        runs,
        rule_inputs,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::START_FEN;

    #[test]
    fn labels_turn_to_the_side_to_move() {
        let mut positions = Positions::default();
        let red = Position::startpos();
        let blue: Position = START_FEN.replace(" w ", " b ").parse().unwrap();
        positions.push(&red, &Rules::default(), 1.0, 120);
        positions.push(&blue, &Rules::default(), 1.0, 120);
        let (stm, other, result, score) = positions.get(0);
        assert_eq!(
            (stm.len(), other.len(), result, score),
            (16, 16, 1.0, 120.0)
        );
        let (_, _, result, score) = positions.get(1);
        assert_eq!((result, score), (0.0, -120.0));
        let mut expected: Vec<u16> = active_features(&red, Side::Red).map(|i| i as u16).collect();
        assert_eq!(positions.get(0).0, expected.as_slice());
        expected = active_features(&blue, Side::Red)
            .map(|i| i as u16)
            .collect();
        assert_eq!(positions.get(1).1, expected.as_slice());
    }

    #[test]
    fn the_rule_inputs_follow_both_perspectives_board_inputs() {
        let mut positions = Positions::default();
        let mut rules = Rules::XOUDOUQI;
        rules.repetition = crate::rules::Repetition::Draw;
        positions.push(&Position::startpos(), &rules, 0.5, 0);
        let (stm, other, _, _) = positions.get(0);
        let codes: Vec<u16> = [
            RuleInput::RepetitionDraw,
            RuleInput::DogOverWolf,
            RuleInput::RatBankCapture,
            RuleInput::TrappedAttackerPowerless,
        ]
        .iter()
        .map(|r| (INPUTS as u32 + r.code()) as u16)
        .collect();
        for view in [stm, other] {
            assert_eq!(view.len(), 16 + 4);
            assert_eq!(&view[16..], codes.as_slice());
        }
    }
}
