//! Counts in words for messages: "1 ply", "2 plies", never "1 plies".

/// `n` with the noun that agrees with it: `count(1, "ply", "plies")` is
/// `1 ply`, `count(0, "ply", "plies")` is `0 plies`.
pub fn count(n: impl Into<u64>, one: &str, many: &str) -> String {
    let n = n.into();
    format!("{n} {}", if n == 1 { one } else { many })
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
}
