//! Counts in words for messages: "1 ply", "2 plies", never "1 plies"; and
//! ranges: "1 to 256", "at least 1", never "1..=256".

/// `n` with the noun that agrees with it: `count(1, "ply", "plies")` is
/// `1 ply`, `count(0, "ply", "plies")` is `0 plies`.
pub fn count(n: impl Into<u64>, one: &str, many: &str) -> String {
    let n = n.into();
    format!("{n} {}", if n == 1 { one } else { many })
}

/// The whole numbers from `least` to `most` in words: `1 to 256`, or `at
/// least 1` when `most` is `u64::MAX` (no most).
pub fn range(least: u64, most: u64) -> String {
    if most == u64::MAX {
        format!("at least {least}")
    } else {
        format!("{least} to {most}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_is_singular_and_every_other_count_plural() {
        assert_eq!(count(1u32, "rank", "ranks"), "1 rank");
        assert_eq!(count(0u32, "ply", "plies"), "0 plies");
        assert_eq!(count(2u64, "ply", "plies"), "2 plies");
    }

    #[test]
    fn a_range_without_a_most_says_at_least() {
        assert_eq!(range(1, 256), "1 to 256");
        assert_eq!(range(1, u64::MAX), "at least 1");
    }
}
