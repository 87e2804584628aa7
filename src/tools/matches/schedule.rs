//! The order of a match's games: each pair of engines plays every opening
//! twice, colours swapped; with more than two engines a round robin. A
//! [`Shard`] is one machine's part of that order.

use serde::{Deserialize, Serialize};
use std::fmt;

/// One game to play.
#[derive(Clone, Copy, Debug)]
pub struct Job {
    /// The game's number, from 1, in playing order.
    pub round: usize,
    /// Which pair of engines plays it (an index into the pairs).
    pub pair: usize,
    /// Red's engine (an index into the engines).
    pub red: usize,
    /// Blue's engine (an index into the engines).
    pub blue: usize,
    /// Which opening it starts from.
    pub opening: usize,
    /// Its game pair (its pair of engines on its opening, both colours), by
    /// number from 0 in playing order: the unit that shards divide and the
    /// pentanomial counts.
    pub unit: usize,
}

/// One part of a match, `index` of `count` (from 0), as `--shard I/N` names
/// it: the `index`-th of `count` consecutive blocks of game pairs, so that
/// both games of an opening are in the same part and the parts together are
/// the whole match.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    /// Which part, from 0.
    pub index: usize,
    /// How many parts.
    pub count: usize,
}

impl Shard {
    /// Whether the job is in this part of a match of `units` game pairs.
    pub fn holds(self, job: &Job, units: usize) -> bool {
        let first = units * self.index / self.count;
        let end = units * (self.index + 1) / self.count;
        (first..end).contains(&job.unit)
    }
}

impl fmt::Display for Shard {
    /// `I/N`, as `--shard` takes it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// Every game of the match in playing order: game k of every pair before
/// game k+1 of any, so that a stopped match is still balanced; games 2i and
/// 2i+1 of a pair share opening i with colours swapped. With a shard, only
/// its games, numbered as in the whole match.
pub fn schedule(
    engines: usize,
    games_per_pair: usize,
    openings: usize,
    shard: Option<Shard>,
) -> (Vec<(usize, usize)>, Vec<Job>) {
    let mut pairs = Vec::new();
    for a in 0..engines {
        for b in a + 1..engines {
            pairs.push((a, b));
        }
    }
    let mut jobs = Vec::with_capacity(pairs.len() * games_per_pair);
    for k in 0..games_per_pair {
        for (pair, &(a, b)) in pairs.iter().enumerate() {
            let (red, blue) = if k % 2 == 0 { (a, b) } else { (b, a) };
            jobs.push(Job {
                round: jobs.len() + 1,
                pair,
                red,
                blue,
                opening: (k / 2) % openings.max(1),
                unit: k / 2 * pairs.len() + pair,
            });
        }
    }
    if let Some(shard) = shard {
        let units = games_per_pair.div_ceil(2) * pairs.len();
        jobs.retain(|job| shard.holds(job, units));
    }
    (pairs, jobs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_schedule_swaps_colours_and_shares_openings() {
        let (pairs, jobs) = schedule(3, 4, 5, None);
        assert_eq!(pairs, [(0, 1), (0, 2), (1, 2)]);
        assert_eq!(jobs.len(), 12);
        let of_pair: Vec<&Job> = jobs.iter().filter(|j| j.pair == 1).collect();
        assert_eq!((of_pair[0].red, of_pair[0].blue), (0, 2));
        assert_eq!((of_pair[1].red, of_pair[1].blue), (2, 0));
        assert_eq!(of_pair[0].opening, of_pair[1].opening);
        assert_ne!(of_pair[1].opening, of_pair[2].opening);
        assert!(jobs.iter().enumerate().all(|(i, j)| j.round == i + 1));
        assert_eq!(of_pair[0].unit, of_pair[1].unit);
        assert_ne!(of_pair[1].unit, of_pair[2].unit);
    }

    #[test]
    fn shards_split_the_match_by_whole_game_pairs() {
        // 3 engines, 5 games a pair (the last opening once): 9 game pairs.
        let (_, whole) = schedule(3, 5, 2, None);
        for count in 1..=11 {
            let mut rounds: Vec<usize> = Vec::new();
            for index in 0..count {
                let (_, part) = schedule(3, 5, 2, Some(Shard { index, count }));
                for job in &part {
                    let same = &whole[job.round - 1];
                    assert_eq!(
                        (job.red, job.blue, job.opening),
                        (same.red, same.blue, same.opening)
                    );
                    // Both games of the pair are in this part.
                    let mates = whole.iter().filter(|j| j.unit == job.unit).count();
                    assert_eq!(part.iter().filter(|j| j.unit == job.unit).count(), mates);
                }
                rounds.extend(part.iter().map(|j| j.round));
            }
            rounds.sort_unstable();
            assert_eq!(
                rounds,
                (1..=whole.len()).collect::<Vec<_>>(),
                "{count} shards"
            );
        }
    }
}
