//! Reading lines from a peer that may send anything: a line may be endless,
//! may not be UTF-8, may end in `\r\n`. The protocol loop reads its input with
//! this, and so does the match runner's client reading an engine's output.

use std::io::{BufRead, ErrorKind, Result};

/// How much of a line [`read_line_capped`] kept.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CappedLine {
    /// The buffer holds the whole line.
    Whole,
    /// The line was longer than the cap: the buffer holds its first bytes, up
    /// to the cap; the rest was read and dropped.
    Cut,
}

/// Reads one line into `buf` (cleared first), without its `\n` and a trailing
/// `\r`, keeping at most `max` bytes of it, so that a peer cannot make us hold
/// an endless line. Answers `None` at end of input (a last line without `\n`
/// is still a line). Interrupted reads are retried; other errors are returned,
/// with what was read of the line before them left in `buf`.
pub fn read_line_capped(
    input: &mut impl BufRead,
    buf: &mut Vec<u8>,
    max: usize,
) -> Result<Option<CappedLine>> {
    buf.clear();
    let mut cut = false;
    let mut read_any = false;
    loop {
        let chunk = match input.fill_buf() {
            Ok(chunk) => chunk,
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if chunk.is_empty() {
            if !read_any {
                return Ok(None);
            }
            break;
        }
        read_any = true;
        let (used, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (chunk.len(), false),
        };
        let data = &chunk[..if done { used - 1 } else { used }];
        let room = max.saturating_sub(buf.len());
        cut |= data.len() > room;
        buf.extend_from_slice(&data[..data.len().min(room)]);
        input.consume(used);
        if done {
            break;
        }
    }
    if !cut && buf.last() == Some(&b'\r') {
        buf.pop();
    }
    Ok(Some(if cut {
        CappedLine::Cut
    } else {
        CappedLine::Whole
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every line of `input` read with cap `max`, as (text, how much was kept).
    fn lines(input: &[u8], max: usize) -> Vec<(String, CappedLine)> {
        // A one-byte buffer makes every line span many reads.
        let mut reader = std::io::BufReader::with_capacity(1, input);
        let mut buf = Vec::new();
        let mut out = Vec::new();
        while let Some(kept) = read_line_capped(&mut reader, &mut buf, max).unwrap() {
            out.push((String::from_utf8_lossy(&buf).into_owned(), kept));
        }
        out
    }

    #[test]
    fn lines_end_at_newlines_and_lose_a_trailing_return() {
        use CappedLine::Whole;
        assert_eq!(
            lines(b"uci\r\n\nisready\nlast", 100),
            [
                ("uci".into(), Whole),
                (String::new(), Whole),
                ("isready".into(), Whole),
                ("last".into(), Whole)
            ]
        );
        assert!(lines(b"", 100).is_empty());
    }

    #[test]
    fn a_long_line_is_cut_and_the_next_one_read_whole() {
        assert_eq!(
            lines(b"abcdefgh\r\nok\n", 4),
            [
                ("abcd".into(), CappedLine::Cut),
                ("ok".into(), CappedLine::Whole)
            ]
        );
        assert_eq!(lines(b"abcd\n", 4), [("abcd".into(), CappedLine::Whole)]);
    }
}
