//! The results of a match: per engine, per pair, every game's ending; the
//! progress line after each game and the final table.

use super::config::MatchConfig;
use super::game::{GameRecord, TerminationKind};
use super::schedule::Job;
use super::stats::{Pentanomial, Sprt, SprtState, Wdl};
use crate::util::words::count;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::fmt::Write as _;

/// What happened to one engine over the match.
#[derive(Clone, Debug, Default)]
pub struct EngineTally {
    /// Its name, as `--engine name=` gave it (unique in the match).
    pub name: String,
    /// Its results over all its games.
    pub wdl: Wdl,
    /// Games lost on time.
    pub time_forfeits: u32,
    /// Games lost by a crash.
    pub crashes: u32,
    /// Games lost by an illegal or unreadable move.
    pub illegal_moves: u32,
    /// Games lost by not answering (no clock running).
    pub no_answers: u32,
    /// Games lost because it did not start.
    pub start_failures: u32,
}

/// One game as the summary lists it, and as a record keeps it for `--resume`:
/// everything the tallies are counted from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameSummary {
    /// The game's number in the schedule, from 1: the same on a resumed run.
    pub round: usize,
    /// Red's engine, by name.
    pub red: String,
    /// Blue's engine, by name.
    pub blue: String,
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub result: String,
    /// The kind of ending ([`super::game::Termination::kind`]).
    pub reason: TerminationKind,
    /// How it ended, in words.
    pub termination: String,
    /// The engine at fault, for a game lost on a fault.
    pub faulty: Option<String>,
    /// Plies played, the opening's included.
    pub plies: usize,
    /// Plies of the opening.
    pub opening_plies: usize,
    /// Wall time of the game, ms.
    pub duration_ms: u64,
}

impl GameSummary {
    /// The summary of a finished game.
    pub fn of(record: &GameRecord, job: Job, names: &[&str]) -> GameSummary {
        let t = &record.termination;
        let (red, blue) = (names[job.red], names[job.blue]);
        GameSummary {
            round: record.round,
            red: red.to_string(),
            blue: blue.to_string(),
            result: t.score_text().to_string(),
            reason: t.kind(),
            termination: t.to_string(),
            faulty: t.faulty().map(|side| match side {
                crate::rules::Side::Red => red.to_string(),
                crate::rules::Side::Blue => blue.to_string(),
            }),
            plies: record.moves.len(),
            opening_plies: record.opening_plies,
            duration_ms: record.duration.as_millis() as u64,
        }
    }
}

/// The results of a match.
#[derive(Clone, Debug)]
pub struct MatchSummary {
    /// Games scheduled; fewer are played if the SPRT stops the match.
    pub planned: usize,
    /// Each pair of engines, in schedule order.
    pub pairs: Vec<PairTally>,
    /// Per engine, in the order of the `--engine` groups.
    pub engines: Vec<EngineTally>,
    /// The SPRT, if one runs: over the first pair's game pairs.
    pub sprt: Option<SprtRun>,
    /// Every game played, in the order they ended.
    pub games: Vec<GameSummary>,
    /// The rules, as `Name=Value` words.
    pub rules: String,
    /// The preset name or `custom`.
    pub variant: String,
    /// The limits, in words.
    pub limits: String,
    /// Which part of a match this is, in words (`shard 0/2`, or the shards
    /// merged); none for a whole match played at once.
    pub part: Option<String>,
    /// Wall time of the match, seconds.
    pub seconds: f64,
    /// Whether the user stopped the match before it was over.
    pub interrupted: bool,
}

/// One pair of engines over the match, counted from its first engine's side.
#[derive(Clone, Debug, Default)]
pub struct PairTally {
    /// The first engine, by name.
    pub first: String,
    /// The second engine, by name.
    pub second: String,
    /// Its games.
    pub wdl: Wdl,
    /// Its finished game pairs (both games of an opening), by the first
    /// engine's points in each.
    pub pentanomial: Pentanomial,
    /// The first engine's points in game pairs of which one game is over, by
    /// game pair.
    open: HashMap<usize, f64>,
}

impl PairTally {
    /// Counts a game of game pair `unit` that the first engine won
    /// (`Some(true)`), lost or drew (`None`); answers whether that completed
    /// the game pair.
    fn count(&mut self, unit: usize, first_won: Option<bool>) -> bool {
        let points = match first_won {
            Some(true) => {
                self.wdl.wins += 1;
                1.0
            }
            Some(false) => {
                self.wdl.losses += 1;
                0.0
            }
            None => {
                self.wdl.draws += 1;
                0.5
            }
        };
        let Some(other) = self.open.remove(&unit) else {
            self.open.insert(unit, points);
            return false;
        };
        self.pentanomial.add(other + points);
        true
    }
}

/// A running SPRT over the game pairs (an opening with colours swapped) of a
/// match of two engines: it looks again each time a game pair is over.
#[derive(Clone, Copy, Debug)]
pub struct SprtRun {
    /// The hypotheses and error rates.
    pub test: Sprt,
    /// The log-likelihood ratio after the finished pairs.
    pub llr: f64,
    /// What the test says after the finished pairs.
    pub state: SprtState,
}

impl SprtRun {
    /// A test before any game.
    pub fn new(test: Sprt) -> SprtRun {
        SprtRun {
            test,
            llr: 0.0,
            state: SprtState::Continue,
        }
    }

    /// Looks at the finished game pairs again.
    fn look(&mut self, pairs: &Pentanomial) {
        self.llr = self.test.llr_pairs(pairs);
        self.state = self.test.verdict(self.llr, pairs.has_variance());
    }
}

/// An Elo value for tables: sign, one decimal, infinities spelled out.
fn elo_text(elo: f64) -> String {
    if elo.is_infinite() {
        if elo > 0.0 {
            "+inf".into()
        } else {
            "-inf".into()
        }
    } else {
        format!("{elo:+.1}")
    }
}

impl MatchSummary {
    /// A summary of no game yet of `planned` between `names`, in `pairs` (of
    /// indices into `names`); no SPRT, rules or limits.
    pub fn new(names: &[&str], pairs: &[(usize, usize)], planned: usize) -> MatchSummary {
        MatchSummary {
            planned,
            pairs: pairs
                .iter()
                .map(|&(a, b)| PairTally {
                    first: names[a].to_string(),
                    second: names[b].to_string(),
                    ..PairTally::default()
                })
                .collect(),
            engines: names
                .iter()
                .map(|n| EngineTally {
                    name: n.to_string(),
                    ..EngineTally::default()
                })
                .collect(),
            sprt: None,
            games: Vec::new(),
            rules: String::new(),
            variant: String::new(),
            limits: String::new(),
            part: None,
            seconds: 0.0,
            interrupted: false,
        }
    }

    /// The summary before any game of the match `config` describes, whose
    /// pairs of engines and planned games are `pairs` and `planned`.
    pub fn start(config: &MatchConfig, pairs: &[(usize, usize)], planned: usize) -> MatchSummary {
        let names: Vec<&str> = config.engines.iter().map(|e| e.name.as_str()).collect();
        let rules = config.referee.rules;
        let engines = &config.engines;
        MatchSummary {
            sprt: config.sprt.map(SprtRun::new),
            rules: rules.to_string(),
            variant: rules.preset_name().unwrap_or("custom").to_string(),
            limits: if engines.windows(2).all(|w| w[0].limits == w[1].limits) {
                engines[0].limits.to_string()
            } else {
                engines
                    .iter()
                    .map(|e| format!("{}: {}", e.name, e.limits))
                    .collect::<Vec<_>>()
                    .join("; ")
            },
            part: config.shard.map(|shard| format!("shard {shard}")),
            ..MatchSummary::new(&names, pairs, planned)
        }
    }

    /// Counts a finished game, from its summary alone (as a resumed match
    /// counts the games of its record), and lists it; the SPRT looks again.
    pub fn count(&mut self, game: GameSummary, job: Job) {
        use crate::rules::Side;
        let winner = match game.result.as_str() {
            "1-0" => Some(Side::Red),
            "0-1" => Some(Side::Blue),
            _ => None,
        };
        let seat_engine = [job.red, job.blue];
        for side in [Side::Red, Side::Blue] {
            let t = &mut self.engines[seat_engine[side.index()]];
            match winner {
                Some(w) if w == side => t.wdl.wins += 1,
                Some(_) => t.wdl.losses += 1,
                None => t.wdl.draws += 1,
            }
        }
        let faulty: Vec<usize> = match &game.faulty {
            Some(name) if *name == game.red => vec![job.red],
            Some(_) => vec![job.blue],
            // Neither engine started: both are at fault, neither lost.
            None if game.reason == TerminationKind::StartFailure => vec![job.red, job.blue],
            None => vec![],
        };
        for engine in faulty {
            let t = &mut self.engines[engine];
            match game.reason {
                TerminationKind::TimeForfeit => t.time_forfeits += 1,
                TerminationKind::IllegalMove => t.illegal_moves += 1,
                TerminationKind::Crash => t.crashes += 1,
                TerminationKind::NoAnswer => t.no_answers += 1,
                TerminationKind::StartFailure => t.start_failures += 1,
                // Endings by the rules or the ply limit blame no engine (a
                // record naming one is not counted as a fault).
                TerminationKind::Den
                | TerminationKind::AllCaptured
                | TerminationKind::NoLegalMove
                | TerminationKind::Repetition
                | TerminationKind::NoCaptureLimit
                | TerminationKind::MaxPlies => {}
            }
        }
        // The pair's results from its first engine's side.
        let first_is_red = game.red == self.pairs[job.pair].first;
        let first_side = if first_is_red { Side::Red } else { Side::Blue };
        let pair = &mut self.pairs[job.pair];
        if pair.count(job.unit, winner.map(|w| w == first_side))
            && let Some(run) = self.sprt.as_mut().filter(|_| job.pair == 0)
        {
            run.look(&pair.pentanomial);
        }
        self.games.push(game);
    }

    /// The progress line after a game: the game, then its pair's standing.
    pub fn progress_line(&self, record: &GameRecord, job: Job) -> String {
        let PairTally {
            first: a,
            second: b,
            wdl,
            ..
        } = &self.pairs[job.pair];
        let g = self.games.last().expect("a game was just added");
        let mut line = format!(
            "[{}/{}] game {}: {} - {} {} ({}, {}) | {a} vs {b}: +{} ={} -{}",
            self.games.len(),
            self.planned,
            record.round,
            g.red,
            g.blue,
            record.termination.score_text(),
            record.termination.kind(),
            count(g.plies as u64, "ply", "plies"),
            wdl.wins,
            wdl.draws,
            wdl.losses
        );
        if let (Some(score), Some((elo, err))) = (wdl.score(), wdl.elo()) {
            let _ = write!(
                line,
                " {:.1}% Elo {} ± {}",
                100.0 * score,
                elo_text(elo),
                if err.is_finite() {
                    format!("{err:.1}")
                } else {
                    "inf".into()
                }
            );
        }
        if let Some(run) = &self.sprt {
            let (lo, hi) = run.test.bounds();
            let _ = write!(line, " LLR {:.2} [{lo:.2}, {hi:.2}]", run.llr);
        }
        line
    }

    /// The final table: per pair W/D/L, score, Elo ± 95%, LOS; the SPRT; per
    /// engine its faults.
    pub fn table(&self) -> String {
        let mut s = String::new();
        let part = self
            .part
            .as_ref()
            .map_or(String::new(), |p| format!(" ({p})"));
        let _ = writeln!(
            s,
            "{} of {} games played{part} in {:.0} s; limits {}; rules {} ({})",
            self.games.len(),
            self.planned,
            self.seconds,
            self.limits,
            self.variant,
            self.rules
        );
        let _ = writeln!(
            s,
            "\n{:<30} {:>6} {:>5} {:>5} {:>5} {:>7} {:>8} {:>7} {:>7}",
            "Pair", "Games", "W", "D", "L", "Score", "Elo", "±95%", "LOS"
        );
        for PairTally {
            first, second, wdl, ..
        } in &self.pairs
        {
            let pair = format!("{first} vs {second}");
            let score = wdl
                .score()
                .map_or("-".into(), |x| format!("{:.1}%", 100.0 * x));
            let (elo, err) = wdl.elo().map_or(("-".into(), "-".into()), |(e, r)| {
                (
                    elo_text(e),
                    if r.is_finite() {
                        format!("{r:.1}")
                    } else {
                        "inf".into()
                    },
                )
            });
            let los = wdl
                .los()
                .map_or("-".into(), |x| format!("{:.1}%", 100.0 * x));
            let _ = writeln!(
                s,
                "{pair:<30} {:>6} {:>5} {:>5} {:>5} {score:>7} {elo:>8} {err:>7} {los:>7}",
                wdl.games(),
                wdl.wins,
                wdl.draws,
                wdl.losses
            );
        }
        if let Some(run) = &self.sprt {
            let (lo, hi) = run.test.bounds();
            let _ = writeln!(
                s,
                "\nSPRT ({}): LLR {:.2} [{lo:.2}, {hi:.2}] over {} game pairs {:?} (0 to 2 points): {}",
                run.test,
                run.llr,
                self.pairs[0].pentanomial.pairs(),
                self.pairs[0].pentanomial.counts,
                run.state
            );
        }
        let _ = writeln!(
            s,
            "\n{:<20} {:>6} {:>7} {:>13} {:>8} {:>8} {:>10} {:>15}",
            "Engine",
            "Games",
            "Points",
            "TimeForfeits",
            "Crashes",
            "Illegal",
            "NoAnswer",
            "StartFailures"
        );
        for e in &self.engines {
            let _ = writeln!(
                s,
                "{:<20} {:>6} {:>7.1} {:>13} {:>8} {:>8} {:>10} {:>15}",
                e.name,
                e.wdl.games(),
                e.wdl.points(),
                e.time_forfeits,
                e.crashes,
                e.illegal_moves,
                e.no_answers,
                e.start_failures
            );
        }
        let mut kinds: Vec<(&str, usize)> = Vec::new();
        for g in &self.games {
            let k = g.reason.name();
            match kinds.iter_mut().find(|(n, _)| *n == k) {
                Some(entry) => entry.1 += 1,
                None => kinds.push((k, 1)),
            }
        }
        let kinds: Vec<String> = kinds.iter().map(|(k, n)| format!("{k} {n}")).collect();
        let _ = writeln!(s, "\nEndings: {}", kinds.join(", "));
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::matches::game::Termination;
    use crate::tools::matches::schedule::schedule;

    #[test]
    fn a_game_counts_the_same_from_its_summary_read_back() {
        let (_, jobs) = schedule(2, 2, 1, None);
        let names = ["a", "b"];
        let record = GameRecord {
            round: 2,
            start_fen: crate::rules::START_FEN.into(),
            moves: vec![],
            opening_plies: 0,
            termination: Termination::Crash {
                side: crate::rules::Side::Red,
                detail: "exited \"badly\"".into(),
            },
            duration: std::time::Duration::from_millis(7),
        };
        let game = GameSummary::of(&record, jobs[1], &names);
        assert_eq!(game.faulty.as_deref(), Some("b"), "b is Red in game 2");
        let text = serde_json::to_string(&game).unwrap();
        let back: GameSummary = serde_json::from_str(&text).unwrap();
        assert_eq!(back, game);
        let mut summary = MatchSummary::new(&names, &[(0, 1)], 2);
        summary.count(back, jobs[1]);
        assert_eq!(summary.engines[1].crashes, 1);
        assert_eq!(summary.engines[1].wdl.losses, 1);
        assert_eq!(summary.engines[0].wdl.wins, 1);
        assert_eq!(summary.pairs[0].wdl.wins, 1, "a, the pair's first, won");
    }

    /// A won game of the first engine (`a`), in the given round.
    fn game_won_by_a(round: usize, draw: bool) -> (GameSummary, Job) {
        let (_, jobs) = schedule(2, 400, 1, None);
        let job = jobs[round - 1];
        let a_is_red = job.red == 0;
        let result = match (draw, a_is_red) {
            (true, _) => "1/2-1/2",
            (false, true) => "1-0",
            (false, false) => "0-1",
        };
        let names = ["a", "b"];
        let game = GameSummary {
            round,
            red: names[job.red].into(),
            blue: names[job.blue].into(),
            result: result.into(),
            reason: if draw {
                TerminationKind::Repetition
            } else {
                TerminationKind::Den
            },
            termination: "test".into(),
            faulty: None,
            plies: 40,
            opening_plies: 0,
            duration_ms: 1,
        };
        (game, job)
    }

    #[test]
    fn the_sprt_counts_pairs_and_stops_only_once_results_differ() {
        let sprt = Sprt::parse(&["elo0=0", "elo1=20"]).unwrap();
        let mut summary = MatchSummary::new(&["a", "b"], &[(0, 1)], 800);
        summary.sprt = Some(SprtRun::new(sprt));
        let run = |s: &MatchSummary| s.sprt.unwrap();
        let pairs = |s: &MatchSummary| s.pairs[0].pentanomial;
        // 100 pairs won outright: strong evidence, but no variance yet.
        for round in 1..=200 {
            let (game, job) = game_won_by_a(round, false);
            summary.count(game, job);
        }
        assert_eq!(pairs(&summary).counts, [0, 0, 0, 0, 100]);
        assert!(run(&summary).llr > 2.95, "{}", run(&summary).llr);
        assert_eq!(run(&summary).state, SprtState::Continue);
        // One game of a pair changes nothing until its pair is over.
        let (game, job) = game_won_by_a(201, true);
        summary.count(game, job);
        assert_eq!(pairs(&summary).pairs(), 100);
        assert_eq!(run(&summary).state, SprtState::Continue);
        let (game, job) = game_won_by_a(202, false);
        summary.count(game, job);
        assert_eq!(pairs(&summary).counts, [0, 0, 0, 1, 100]);
        assert_eq!(run(&summary).state, SprtState::H1);
        assert!(
            summary.table().contains("H1 accepted"),
            "{}",
            summary.table()
        );
    }

    #[test]
    fn endings_read_back_by_name_and_an_unknown_one_is_refused() {
        for ending in TerminationKind::ALL {
            let text = serde_json::to_string(&ending).unwrap();
            assert_eq!(text, format!("\"{}\"", ending.name()));
            assert_eq!(
                serde_json::from_str::<TerminationKind>(&text).unwrap(),
                ending
            );
        }
        // A kind of ending this runner does not know is no start failure.
        assert!(serde_json::from_str::<TerminationKind>("\"resigned\"").is_err());
    }
}
