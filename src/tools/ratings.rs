//! A rating list: every player's rating fitted to all games at once by
//! maximum likelihood under the logistic (Bradley–Terry) model, as Ordo and
//! rating lists compute them. A game's expected score is
//! 1 / (1 + 10^(−(Rᵢ − Rⱼ)/400)); a draw counts as half a win and half a
//! loss. The ratings average 0, or are shifted so that one player (the
//! anchor) has the rating given. The 95 % intervals come from the
//! likelihood's curvature at its maximum and the spread of the results (a
//! sandwich estimate, so that draws narrow them as they narrow a match's).
//!
//! The games come from PGN files (the match runner's, the GUI's, or written
//! by hand: the players' tags and a result are enough) and from the match
//! runner's JSON records.
//!
//! A player who won every game (or lost every game) has no finite rating:
//! the likelihood grows without end as it moves away. So are any players
//! whose results against the rest are all wins or all losses, such as a
//! group that beat everyone outside it every time. The list rates the
//! largest group of players in which every player scored points against,
//! and gave points to, the others through some chain of games (the largest
//! strongly connected part of "scored against"), from their games against
//! each other, and lists the rest as not rated, with why.

use crate::util::fs::{TextFileError, read_text};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// Two-sided 95 % quantile of the standard normal distribution.
const Z_95: f64 = 1.959_963_984_540_054;

/// Elo points per natural-log unit of odds: a difference D gives odds
/// 10^(D/400) = e^(D·SCALE).
const SCALE: f64 = std::f64::consts::LN_10 / 400.0;

/// One game: its two players and the first's points (1, ½ or 0).
#[derive(Clone, Debug, PartialEq)]
pub struct Game {
    /// The first player (Red, who moves first, in doushou's records).
    pub first: String,
    /// The second player.
    pub second: String,
    /// The first player's points: 1, 0.5 or 0.
    pub points: f64,
}

/// Why games could not be read or rated.
#[derive(Debug, thiserror::Error)]
pub enum RatingsError {
    /// A file could not be opened, or holds no text.
    #[error(transparent)]
    File(#[from] TextFileError),
    /// A JSON file that is not a match record.
    #[error("{}: not a match record (written by `doushou match --json`): {error}", .path.display())]
    NotARecord {
        /// The file.
        path: PathBuf,
        /// Where the JSON reader gave up.
        #[source]
        error: serde_json::Error,
    },
    /// A game that cannot be counted: no players, no result, a bad tag.
    #[error("{}: line {line}: {what}", .path.display())]
    BadGame {
        /// The file.
        path: PathBuf,
        /// The game's line (its first tag), from 1; for a JSON record, the game's number.
        line: usize,
        /// What is wrong, in words.
        what: String,
    },
    /// No game in any file.
    #[error("no game to rate in {}", .0.join(", "))]
    NoGames(Vec<String>),
    /// The anchor is no player of the games.
    #[error("--anchor {name}: no player of that name in the games (the players: {players})")]
    UnknownAnchor {
        /// The name given.
        name: String,
        /// The players there are, joined.
        players: String,
    },
    /// The anchor is a player the list cannot rate.
    #[error("--anchor {name}: {name} {why}, so it has no rating to fix")]
    UnratedAnchor {
        /// The name given.
        name: String,
        /// Why it is not rated.
        why: Unrated,
    },
}

/// Why a player has no rating.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Unrated {
    /// It won every game it played.
    #[serde(rename = "won every game")]
    WonAll,
    /// It lost every game it played.
    #[serde(rename = "lost every game")]
    LostAll,
    /// Its results against the rated players are all wins or all losses (or
    /// it played none of them), so no finite rating fits.
    #[serde(rename = "not connected")]
    NotConnected,
}

impl std::fmt::Display for Unrated {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Unrated::WonAll => "won every game",
            Unrated::LostAll => "lost every game",
            Unrated::NotConnected => {
                "won or lost every game against the rated players (or played none of them)"
            }
        })
    }
}

/// One player of the list.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Rating {
    /// The name, as the records give it.
    pub name: String,
    /// The rating; none for a player who cannot be rated.
    pub elo: Option<f64>,
    /// Half the width of the 95 % interval (against the anchor if there is
    /// one, else against the average); none when not rated.
    pub error: Option<f64>,
    /// Games played, all of them.
    pub games: u32,
    /// The share of the points it scored in all its games, 0 to 1.
    pub score: f64,
    /// Why it has no rating, if it has none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unrated: Option<Unrated>,
}

/// The fitted list, best first; the players not rated after them, those who
/// won every game first and those who lost every game last.
#[derive(Clone, Debug, Serialize)]
pub struct RatingList {
    /// Every player.
    pub ratings: Vec<Rating>,
    /// The player fixed at a rating, and that rating, if any.
    #[serde(skip)]
    pub anchor: Option<(String, f64)>,
    /// Games counted.
    #[serde(skip)]
    pub games: usize,
}

/// What a match record holds of each game: only these fields are read.
#[derive(Deserialize)]
struct RecordGame {
    red: String,
    blue: String,
    result: String,
}

/// The part of a match record that is read.
#[derive(Deserialize)]
struct RecordFile {
    games: Vec<RecordGame>,
}

/// The first player's points of a result, `None` for `*` or anything else.
fn points_of(result: &str) -> Option<f64> {
    match result.trim() {
        "1-0" => Some(1.0),
        "0-1" => Some(0.0),
        "1/2-1/2" => Some(0.5),
        _ => None,
    }
}

/// The games of the file at `path`: a match runner's JSON record (it starts
/// with `{`) or PGN.
pub fn read_games(path: &Path) -> Result<Vec<Game>, RatingsError> {
    let text = read_text(path)?;
    let bad = |line, what: String| RatingsError::BadGame {
        path: path.to_path_buf(),
        line,
        what,
    };
    if text.trim_start().starts_with('{') {
        let record: RecordFile =
            serde_json::from_str(&text).map_err(|error| RatingsError::NotARecord {
                path: path.to_path_buf(),
                error,
            })?;
        return record
            .games
            .into_iter()
            .enumerate()
            .map(|(i, g)| {
                let points = points_of(&g.result).ok_or_else(|| {
                    bad(
                        i + 1,
                        format!("game {} has no result ('{}')", i + 1, g.result),
                    )
                })?;
                Ok(Game {
                    first: g.red,
                    second: g.blue,
                    points,
                })
            })
            .collect();
    }
    use super::pgn::read::{Entry, read_entries};
    let mut games = Vec::new();
    for entry in read_entries(&text) {
        let record = match entry {
            Ok(Entry::Record(record)) => record,
            Ok(Entry::Plain { line, .. }) => {
                return Err(bad(line, "text outside a game record (no tags)".into()));
            }
            Err(e) => return Err(bad(e.line, e.error.to_string())),
        };
        let tag = |names: [&str; 2]| {
            names.iter().find_map(|name| {
                record
                    .tags
                    .iter()
                    .find(|((n, _), _)| n == name)
                    .map(|((_, v), _)| v.trim().to_string())
            })
        };
        let line = record.line;
        let (Some(first), Some(second)) = (tag(["Red", "White"]), tag(["Blue", "Black"])) else {
            return Err(bad(
                line,
                "the game names no players (White and Black tags)".into(),
            ));
        };
        let result = record.result.clone().or_else(|| tag(["Result", "Result"]));
        let points = result.as_deref().and_then(points_of).ok_or_else(|| {
            let what = result.as_deref().unwrap_or("none");
            bad(
                line,
                format!("the game {first} - {second} has no result ({what})"),
            )
        })?;
        if first == second {
            return Err(bad(line, format!("{first} plays both sides")));
        }
        games.push(Game {
            first,
            second,
            points,
        });
    }
    Ok(games)
}

/// The games of one player against another, from the first's side.
#[derive(Clone, Copy, Debug, Default)]
struct Between {
    games: f64,
    points: f64,
    squares: f64,
}

/// The players' totals, and the games between each two, by player number
/// (in the order the games name them).
struct Tally {
    names: Vec<String>,
    games: Vec<u32>,
    points: Vec<f64>,
    /// For (i, j), i ≠ j: games between them, i's points in them and the
    /// sum of the squares of its points in each game.
    between: HashMap<(usize, usize), Between>,
}

impl Tally {
    fn of(games: &[Game]) -> Tally {
        let mut index: HashMap<&str, usize> = HashMap::new();
        let mut names = Vec::new();
        for g in games {
            for name in [&g.first, &g.second] {
                index.entry(name).or_insert_with(|| {
                    names.push(name.clone());
                    names.len() - 1
                });
            }
        }
        let mut tally = Tally {
            games: vec![0; names.len()],
            points: vec![0.0; names.len()],
            names,
            between: HashMap::new(),
        };
        for g in games {
            let (a, b) = (index[g.first.as_str()], index[g.second.as_str()]);
            for (me, other, points) in [(a, b, g.points), (b, a, 1.0 - g.points)] {
                tally.games[me] += 1;
                tally.points[me] += points;
                let entry = tally.between.entry((me, other)).or_default();
                entry.games += 1.0;
                entry.points += points;
                entry.squares += points * points;
            }
        }
        tally
    }

    /// The largest group in which each player scored against, and gave
    /// points to, every other through some chain of games (a strongly
    /// connected part of "scored points against"), the one with more games
    /// when two are as large: the players a finite rating fits.
    fn rated_group(&self) -> Vec<usize> {
        let n = self.names.len();
        let mut scored_against: Vec<Vec<usize>> = vec![Vec::new(); n];
        for (&(me, other), between) in &self.between {
            if between.points > 0.0 {
                scored_against[me].push(other);
            }
        }
        let reach = |from: usize, edges: &dyn Fn(usize) -> Vec<usize>| {
            let mut seen = vec![false; n];
            let mut stack = vec![from];
            seen[from] = true;
            while let Some(i) = stack.pop() {
                for j in edges(i) {
                    if !seen[j] {
                        seen[j] = true;
                        stack.push(j);
                    }
                }
            }
            seen
        };
        let forward = |i: usize| scored_against[i].clone();
        let backward = |i: usize| (0..n).filter(|&j| scored_against[j].contains(&i)).collect();
        let mut placed = vec![false; n];
        let mut best: Vec<usize> = Vec::new();
        let games_of = |group: &[usize]| group.iter().map(|&i| self.games[i]).sum::<u32>();
        for start in 0..n {
            if placed[start] {
                continue;
            }
            let (ahead, behind) = (reach(start, &forward), reach(start, &backward));
            let group: Vec<usize> = (0..n).filter(|&i| ahead[i] && behind[i]).collect();
            for &i in &group {
                placed[i] = true;
            }
            if (group.len(), games_of(&group)) > (best.len(), games_of(&best)) {
                best = group;
            }
        }
        best
    }
}

/// Fits the ratings of the players of `games`; `anchor` fixes one player's
/// rating (else they average 0).
pub fn rate(games: &[Game], anchor: Option<(&str, f64)>) -> Result<RatingList, RatingsError> {
    let tally = Tally::of(games);
    let mut group = tally.rated_group();
    // One player alone is no list: nothing to compare it with.
    if group.len() < 2 {
        group.clear();
    }
    let (ratings, covariance) = fit(&tally, &group);
    let slot = |player: usize| group.iter().position(|&g| g == player);
    let unrated = |player: usize| {
        let (games, points) = (f64::from(tally.games[player]), tally.points[player]);
        if points >= games {
            Unrated::WonAll
        } else if points <= 0.0 {
            Unrated::LostAll
        } else {
            Unrated::NotConnected
        }
    };
    let (shift, anchor_slot) = match anchor {
        Some((name, elo)) => {
            let Some(player) = tally.names.iter().position(|n| n == name) else {
                return Err(RatingsError::UnknownAnchor {
                    name: name.to_string(),
                    players: tally.names.join(", "),
                });
            };
            let Some(k) = slot(player) else {
                return Err(RatingsError::UnratedAnchor {
                    name: name.to_string(),
                    why: unrated(player),
                });
            };
            (elo - ratings[k], Some(k))
        }
        None => (0.0, None),
    };
    let mut list: Vec<Rating> = (0..tally.names.len())
        .map(|player| {
            let fitted = slot(player).map(|k| {
                let variance = match anchor_slot {
                    Some(a) => covariance[k][k] + covariance[a][a] - 2.0 * covariance[k][a],
                    None => covariance[k][k],
                };
                // Adding 0 makes a rating of −0 plain 0 in the table and JSON.
                (ratings[k] + shift + 0.0, Z_95 * variance.max(0.0).sqrt())
            });
            Rating {
                name: tally.names[player].clone(),
                elo: fitted.map(|f| f.0),
                error: fitted.map(|f| f.1),
                games: tally.games[player],
                score: tally.points[player] / f64::from(tally.games[player].max(1)),
                unrated: fitted.is_none().then(|| unrated(player)),
            }
        })
        .collect();
    // Best first; of the unrated, those who won everything on top, those who
    // lost everything at the bottom.
    let rank = |r: &Rating| match (r.elo, r.unrated) {
        (Some(elo), _) => (1, -elo),
        (None, Some(Unrated::WonAll)) => (0, -r.score),
        (None, Some(Unrated::LostAll)) => (3, -r.score),
        (None, _) => (2, -r.score),
    };
    list.sort_by(|a, b| {
        let (ra, rb) = (rank(a), rank(b));
        ra.0.cmp(&rb.0).then(ra.1.total_cmp(&rb.1))
    });
    Ok(RatingList {
        ratings: list,
        anchor: anchor.map(|(name, elo)| (name.to_string(), elo)),
        games: games.len(),
    })
}

/// The maximum-likelihood ratings (averaging 0) of the players of `group`
/// from their games against each other, by Newton's method, and their
/// covariance.
///
/// The covariance is the sandwich I⁺·J·I⁺ of the likelihood's curvature I
/// and the spread J of its gradient over the games as they came out. With the
/// curvature alone a draw, counted as half a win and half a loss, would
/// weigh as little as a coin toss, and the intervals of drawish games would
/// be far too wide; J sees that draws vary less, so that two players get the
/// interval of the match runner's trinomial model.
fn fit(tally: &Tally, group: &[usize]) -> (Vec<f64>, Vec<Vec<f64>>) {
    let m = group.len();
    let mut r = vec![0.0; m];
    let pairs: Vec<(usize, usize, Between)> = (0..m)
        .flat_map(|a| (0..m).map(move |b| (a, b)))
        .filter(|(a, b)| a < b)
        .filter_map(|(a, b)| Some((a, b, *tally.between.get(&(group[a], group[b]))?)))
        .collect();
    let expected = |d: f64| 1.0 / (1.0 + (-SCALE * d).exp());
    // A matrix of the likelihood's kind: each pair adds `w` to its players'
    // diagonal and takes it from their two cells.
    let laplacian = |weight: &dyn Fn(&Between, f64) -> f64, r: &[f64]| {
        let mut matrix = vec![vec![0.0; m]; m];
        for &(a, b, ref between) in &pairs {
            let w = SCALE * SCALE * weight(between, expected(r[a] - r[b]));
            matrix[a][a] += w;
            matrix[b][b] += w;
            matrix[a][b] -= w;
            matrix[b][a] -= w;
        }
        matrix
    };
    let curvature = |between: &Between, p: f64| between.games * p * (1.0 - p);
    // Σ (points − p)² over the games.
    let spread = |between: &Between, p: f64| {
        between.squares - 2.0 * p * between.points + between.games * p * p
    };
    let gradient = |r: &[f64]| {
        let mut gradient = vec![0.0; m];
        for &(a, b, ref between) in &pairs {
            let g = SCALE * (between.points - between.games * expected(r[a] - r[b]));
            gradient[a] += g;
            gradient[b] -= g;
        }
        gradient
    };
    let log_likelihood = |r: &[f64]| {
        pairs
            .iter()
            .map(|&(a, b, ref between)| {
                let p = expected(r[a] - r[b]);
                between.points * p.ln() + (between.games - between.points) * (1.0 - p).ln()
            })
            .sum::<f64>()
    };
    for _ in 0..100 {
        let step = product(&pseudo_inverse(&laplacian(&curvature, &r)), &gradient(&r));
        // The likelihood is concave, so Newton's step is good near the top;
        // far from it (a lopsided result) it is halved until it climbs.
        let before = log_likelihood(&r);
        let mut scale = 1.0;
        let mut next: Vec<f64> = r.iter().zip(&step).map(|(x, d)| x + d).collect();
        while log_likelihood(&next) < before && scale > 1e-6 {
            scale /= 2.0;
            next = r.iter().zip(&step).map(|(x, d)| x + scale * d).collect();
        }
        let moved = step.iter().map(|d| (scale * d).abs()).fold(0.0, f64::max);
        r = next;
        if moved < 1e-9 {
            break;
        }
    }
    let mean = r.iter().sum::<f64>() / m.max(1) as f64;
    for x in &mut r {
        *x -= mean;
    }
    let bread = pseudo_inverse(&laplacian(&curvature, &r));
    let meat = laplacian(&spread, &r);
    let covariance = multiply(&multiply(&bread, &meat), &bread);
    (r, covariance)
}

/// The product of two square matrices.
fn multiply(a: &[Vec<f64>], b: &[Vec<f64>]) -> Vec<Vec<f64>> {
    a.iter()
        .map(|row| {
            (0..b.len())
                .map(|j| row.iter().zip(b).map(|(x, b_row)| x * b_row[j]).sum())
                .collect()
        })
        .collect()
}

/// The product of a matrix and a vector.
fn product(matrix: &[Vec<f64>], vector: &[f64]) -> Vec<f64> {
    matrix
        .iter()
        .map(|row| row.iter().zip(vector).map(|(a, b)| a * b).sum())
        .collect()
}

/// The pseudo-inverse of an information matrix, whose rows sum to 0 and whose
/// only null direction is all players moved alike: (I + J/m)⁻¹ − J/m, J all
/// ones. Gauss–Jordan elimination with partial pivoting.
fn pseudo_inverse(information: &[Vec<f64>]) -> Vec<Vec<f64>> {
    let m = information.len();
    let one = 1.0 / m.max(1) as f64;
    let mut a: Vec<Vec<f64>> = information
        .iter()
        .map(|row| row.iter().map(|x| x + one).collect())
        .collect();
    let mut inverse: Vec<Vec<f64>> = (0..m)
        .map(|i| (0..m).map(|j| if i == j { 1.0 } else { 0.0 }).collect())
        .collect();
    for col in 0..m {
        let pivot = (col..m)
            .max_by(|&x, &y| a[x][col].abs().total_cmp(&a[y][col].abs()))
            .unwrap_or(col);
        a.swap(col, pivot);
        inverse.swap(col, pivot);
        let p = a[col][col];
        if p.abs() < 1e-300 {
            continue;
        }
        for j in 0..m {
            a[col][j] /= p;
            inverse[col][j] /= p;
        }
        for row in 0..m {
            if row != col {
                let f = a[row][col];
                if f != 0.0 {
                    for j in 0..m {
                        a[row][j] -= f * a[col][j];
                        inverse[row][j] -= f * inverse[col][j];
                    }
                }
            }
        }
    }
    for row in &mut inverse {
        for x in row.iter_mut() {
            *x -= one;
        }
    }
    inverse
}

impl RatingList {
    /// The list as a table: rank, player, rating, 95 % interval, games, score.
    pub fn table(&self) -> String {
        let mut s = String::new();
        let basis = match &self.anchor {
            Some((name, elo)) => format!("{name} fixed at {elo}"),
            None => "average 0".to_string(),
        };
        let _ = writeln!(
            s,
            "{} players, {} games; maximum likelihood, a draw half a win; {basis}; 95% intervals",
            self.ratings.len(),
            self.games
        );
        let width = self
            .ratings
            .iter()
            .map(|r| r.name.len())
            .max()
            .unwrap_or(0)
            .max(6);
        let _ = writeln!(
            s,
            "\n{:>4}  {:<width$}  {:>8}  {:>7}  {:>6}  {:>6}",
            "#", "Player", "Elo", "±95%", "Games", "Score"
        );
        let mut rank = 0;
        for r in &self.ratings {
            let anchored = self
                .anchor
                .as_ref()
                .is_some_and(|(name, _)| *name == r.name);
            let (number, elo, error) = match (r.elo, r.error, r.unrated) {
                (Some(elo), Some(error), _) => {
                    rank += 1;
                    let error = if anchored {
                        "anchor".to_string()
                    } else {
                        format!("{error:.1}")
                    };
                    (rank.to_string(), format!("{elo:.1}"), error)
                }
                (_, _, Some(Unrated::WonAll)) => ("-".into(), "won all".into(), "-".into()),
                (_, _, Some(Unrated::LostAll)) => ("-".into(), "lost all".into(), "-".into()),
                _ => ("-".into(), "unrated".into(), "-".into()),
            };
            let _ = writeln!(
                s,
                "{number:>4}  {:<width$}  {elo:>8}  {error:>7}  {:>6}  {:>5.1}%",
                r.name,
                r.games,
                100.0 * r.score
            );
        }
        let unrated: Vec<String> = self
            .ratings
            .iter()
            .filter_map(|r| r.unrated.map(|why| format!("{} {why}", r.name)))
            .collect();
        if !unrated.is_empty() {
            let _ = writeln!(s, "\nNot rated: {}.", unrated.join("; "));
        }
        s
    }

    /// The list as one JSON object, `{"ratings": [...]}`.
    pub fn json(&self) -> String {
        let mut text = serde_json::to_string_pretty(self).unwrap_or_default();
        text.push('\n');
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn games(list: &[(&str, &str, f64, usize)]) -> Vec<Game> {
        list.iter()
            .flat_map(|&(a, b, points, n)| {
                (0..n).map(move |_| Game {
                    first: a.into(),
                    second: b.into(),
                    points,
                })
            })
            .collect()
    }

    fn elo(list: &RatingList, name: &str) -> Option<f64> {
        list.ratings
            .iter()
            .find(|r| r.name == name)
            .and_then(|r| r.elo)
    }

    #[test]
    fn two_players_are_apart_by_their_score() {
        let list = rate(&games(&[("a", "b", 1.0, 3), ("b", "a", 1.0, 1)]), None).unwrap();
        let (a, b) = (elo(&list, "a").unwrap(), elo(&list, "b").unwrap());
        assert!((a - b - 400.0 * 3f64.log10()).abs() < 1e-6, "{a} {b}");
        assert!((a + b).abs() < 1e-9, "average 0");
        // The interval against the anchor is the delta method's on the
        // trinomial score: draws narrow it.
        let wdl = games(&[("a", "b", 1.0, 3), ("a", "b", 0.5, 5), ("b", "a", 1.0, 2)]);
        let list = rate(&wdl, Some(("b", 0.0))).unwrap();
        let a = list.ratings.iter().find(|r| r.name == "a").unwrap();
        let (n, mean) = (10.0, 0.55);
        let variance = (3.0 * 0.45f64.powi(2) + 5.0 * 0.05f64.powi(2) + 2.0 * 0.55f64.powi(2)) / n;
        let slope = 1.0 / (SCALE * mean * (1.0 - mean));
        let expected = Z_95 * slope * (variance / n).sqrt();
        assert!(
            (a.error.unwrap() - expected).abs() < 1e-6,
            "{a:?} vs {expected}"
        );
        let anchored = rate(&games(&[("a", "b", 0.5, 4)]), Some(("b", 2800.0))).unwrap();
        assert!((elo(&anchored, "a").unwrap() - 2800.0).abs() < 1e-9);
        assert_eq!(
            anchored
                .ratings
                .iter()
                .find(|r| r.name == "b")
                .unwrap()
                .error,
            Some(0.0)
        );
    }

    #[test]
    fn a_player_who_won_everything_is_said_so() {
        let list = rate(
            &games(&[
                ("a", "b", 1.0, 2),
                ("a", "c", 1.0, 2),
                ("b", "c", 1.0, 1),
                ("c", "b", 0.5, 2),
            ]),
            None,
        )
        .unwrap();
        assert_eq!(list.ratings[0].name, "a");
        assert_eq!(list.ratings[0].unrated, Some(Unrated::WonAll));
        assert_eq!(list.ratings[0].elo, None);
        assert!(elo(&list, "b").unwrap() > elo(&list, "c").unwrap());
        assert!(list.table().contains("won all"), "{}", list.table());
        let alone = rate(&games(&[("a", "b", 1.0, 2)]), None).unwrap();
        assert!(alone.ratings.iter().all(|r| r.elo.is_none()));
        assert!(matches!(
            rate(&games(&[("a", "b", 1.0, 2)]), Some(("a", 0.0))),
            Err(RatingsError::UnratedAnchor {
                why: Unrated::WonAll,
                ..
            })
        ));
    }
}
