//! The order of a match's games: each pair of engines plays every opening
//! twice, colours swapped; with more than two engines a round robin.

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
}

/// Every game of the match in playing order: game k of every pair before
/// game k+1 of any, so that a stopped match is still balanced; games 2i and
/// 2i+1 of a pair share opening i with colours swapped.
pub fn schedule(
    engines: usize,
    games_per_pair: usize,
    openings: usize,
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
            });
        }
    }
    (pairs, jobs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_schedule_swaps_colours_and_shares_openings() {
        let (pairs, jobs) = schedule(3, 4, 5);
        assert_eq!(pairs, [(0, 1), (0, 2), (1, 2)]);
        assert_eq!(jobs.len(), 12);
        let of_pair: Vec<&Job> = jobs.iter().filter(|j| j.pair == 1).collect();
        assert_eq!((of_pair[0].red, of_pair[0].blue), (0, 2));
        assert_eq!((of_pair[1].red, of_pair[1].blue), (2, 0));
        assert_eq!(of_pair[0].opening, of_pair[1].opening);
        assert_ne!(of_pair[1].opening, of_pair[2].opening);
        assert!(jobs.iter().enumerate().all(|(i, j)| j.round == i + 1));
    }
}
