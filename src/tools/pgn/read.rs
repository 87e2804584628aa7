//! What `doushou analyse` and the GUI read: position lines (`startpos` or a FEN, then
//! `moves ...`), and games, either one per line or as the PGN-like records that
//! `doushou match` writes. Everything is checked against the rules here, so
//! that the searches only ever get valid positions and every fault is reported
//! with the line it is on.

use crate::rules::{Game, GameError, Move, MoveError, Rules, START_FEN, switch};
use crate::util::options::OptionError;

/// A position as a line gives it: the first position and the moves played from it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionSpec {
    /// The first position, as FEN text (`startpos` already replaced).
    pub fen: String,
    /// The moves played from it, in protocol notation.
    pub moves: Vec<String>,
}

impl PositionSpec {
    /// The game these words describe under `rules`, if the position and every
    /// move are valid.
    pub fn game(&self, rules: Rules) -> Result<Game, InputError> {
        Game::from_fen_and_moves(rules, &self.fen, &self.moves).map_err(InputError::Game)
    }
}

/// Why a line or a game record could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum InputError {
    /// The position or one of the moves after it is wrong.
    #[error(transparent)]
    Game(#[from] GameError),
    /// Nothing names the position (a line holding only `moves ...`).
    #[error("no position: expected 'startpos' or a FEN before 'moves'")]
    MissingPosition,
    /// `startpos` followed by a word other than `moves`.
    #[error("unexpected '{0}' after 'startpos' (expected 'moves')")]
    AfterStartpos(String),
    /// A line starting with `[` that is not a `[Name "Value"]` tag.
    #[error("not a tag of the form [Name \"Value\"]: {0}")]
    BadTag(String),
    /// The `Variant` or `Rules` tag names rules this engine does not know.
    #[error("tag {tag}: {error}")]
    BadRules {
        /// The tag's name (`Variant` or `Rules`).
        tag: &'static str,
        /// What was wrong with its value.
        #[source]
        error: OptionError,
    },
    /// The `Variant` tag names no preset, and no `Rules` tag spells the
    /// switches out.
    #[error("tag Variant: unknown variant '{0}' and no Rules tag to say its switches")]
    UnknownVariant(String),
    /// The `FEN` tag holds no valid position.
    #[error("tag FEN: {0}")]
    BadFenTag(#[source] GameError),
    /// A move of a game's move list is malformed or illegal.
    #[error("ply {ply}: {error}")]
    Move {
        /// Which ply of the game (1-based).
        ply: usize,
        /// What was wrong with it.
        #[source]
        error: MoveError,
    },
    /// A `{` comment that the record never closes.
    #[error("a '{{' comment is never closed")]
    UnclosedComment,
}

/// An input error with the (1-based) line it was found on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineError {
    /// The line number, from 1.
    pub line: usize,
    /// What was wrong with the line.
    pub error: InputError,
}

/// Whether a line holds nothing to read: blank, or a `#` comment.
pub fn is_skipped(line: &str) -> bool {
    let t = line.trim();
    t.is_empty() || t.starts_with('#')
}

/// Reads one position line: `[position] startpos|[fen] <fen> [moves m1 m2 ...]`.
/// The protocol's own `position` words are accepted so that a line can be
/// pasted from a protocol log.
pub fn parse_position_line(text: &str) -> Result<PositionSpec, InputError> {
    let mut words: Vec<&str> = text.split_whitespace().collect();
    if words.first() == Some(&"position") {
        words.remove(0);
    }
    let (setup, moves) = match words.iter().position(|w| *w == "moves") {
        Some(i) => (&words[..i], &words[i + 1..]),
        None => (&words[..], &[][..]),
    };
    let fen = match setup {
        [] => return Err(InputError::MissingPosition),
        ["startpos"] => START_FEN.to_string(),
        ["startpos", w, ..] => return Err(InputError::AfterStartpos(w.to_string())),
        ["fen"] => return Err(InputError::MissingPosition),
        ["fen", fields @ ..] => fields.join(" "),
        fields => fields.join(" "),
    };
    Ok(PositionSpec {
        fen,
        moves: moves.iter().map(|m| m.to_string()).collect(),
    })
}

/// One game to annotate, checked: every move is legal under its rules.
#[derive(Clone, Debug)]
pub struct GameSpec {
    /// The line the game starts on (its first tag, or its only line).
    pub line: usize,
    /// The record's tags in file order (none for a plain line).
    pub tags: Vec<(String, String)>,
    /// The rules it was played under: the command line's, then the record's
    /// `Variant` and `Rules` tags.
    pub rules: Rules,
    /// The first position and the moves of the game, as text.
    pub start: PositionSpec,
    /// The result the record claims (its `Result` tag or closing token), if any.
    pub result: Option<String>,
}

impl GameSpec {
    /// The value of a tag, by name (case-insensitive, as names are compared in PGN tools).
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// The result tokens that close a record's movetext.
const RESULTS: [&str; 4] = ["1-0", "0-1", "1/2-1/2", "*"];

/// Reads every game of `text`: records (tag lines, then movetext that may wrap
/// over lines and ends with a result token or a blank line) and plain lines
/// (`startpos moves ...`, `<fen> moves ...`, or a bare move list from the start
/// position). `rules` are the command line's; a record's tags override them.
/// A faulty game becomes an error and reading goes on with the next one.
pub fn parse_games(text: &str, rules: Rules) -> Vec<Result<GameSpec, LineError>> {
    read_entries(text)
        .into_iter()
        .map(|entry| entry_game(entry?, rules))
        .collect()
}

/// The game of one entry of [`read_entries`] under `rules` (a record's tags
/// override them), every move checked.
pub fn entry_game(entry: Entry<'_>, rules: Rules) -> Result<GameSpec, LineError> {
    match entry {
        Entry::Record(record) => record_game(record, rules),
        Entry::Plain { line, text } => parse_plain_game(text, line, rules),
    }
}

/// A record as the text writes it, before any rules give its tags and moves
/// a meaning.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RawRecord {
    /// The line of its first tag.
    pub line: usize,
    /// Its last line, from 1.
    pub last_line: usize,
    /// Its tags in file order, as ((name, value), line); escapes undone.
    pub tags: Vec<((String, String), usize)>,
    /// Its movetext's moves, move numbers and comments left out, with their lines.
    pub moves: Vec<(String, usize)>,
    /// Its `{...}` comments, each with how many moves come before it, its
    /// text trimmed and its line breaks made spaces (`;` comments are dropped).
    pub comments: Vec<(usize, String)>,
    /// The result token that closed its movetext, if one did.
    pub result: Option<String>,
    /// The first word after the result token on its line (which ends the
    /// record all the same), with that line: a strict reader refuses it.
    pub after_result: Option<(String, usize)>,
}

/// One game of a text, as [`read_entries`] finds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Entry<'a> {
    /// A record: tag lines, then movetext.
    Record(RawRecord),
    /// A line outside any record that is neither blank nor a `#` comment.
    Plain {
        /// Its line number, from 1.
        line: usize,
        /// The line, as written.
        text: &'a str,
    },
}

/// Cuts `text` into records and plain lines, without any rules: the reading
/// that [`parse_games`] and the match runner's strict PGN reader share. A
/// record with a malformed tag or a comment left open is an error, and
/// reading goes on after it.
pub fn read_entries(text: &str) -> Vec<Result<Entry<'_>, LineError>> {
    let lines: Vec<&str> = text.lines().collect();
    let mut entries = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        if is_skipped(lines[i]) {
            i += 1;
            continue;
        }
        if lines[i].trim_start().starts_with('[') {
            let (record, next) = read_record(&lines, i);
            entries.push(record.map(Entry::Record));
            i = next;
        } else {
            entries.push(Ok(Entry::Plain {
                line: i + 1,
                text: lines[i],
            }));
            i += 1;
        }
    }
    entries
}

/// One game on one line: a position line, or a bare move list (move numbers
/// and a result token allowed) from the start position.
fn parse_plain_game(text: &str, line: usize, rules: Rules) -> Result<GameSpec, LineError> {
    let at = |error| LineError { line, error };
    let first = text.split_whitespace().next().unwrap_or("");
    let is_movetext = !text.split_whitespace().any(|w| w == "moves")
        && (first.parse::<Move>().is_ok() || strip_move_number(first).is_some());
    let (start, moves, result) = if is_movetext {
        let start = PositionSpec {
            fen: START_FEN.to_string(),
            moves: Vec::new(),
        };
        let mut moves = Vec::new();
        let mut result = None;
        for word in text.split_whitespace() {
            match movetext_word(word) {
                Word::Result(r) => {
                    result = Some(r.to_string());
                    break;
                }
                Word::Move(m) => moves.push((m.to_string(), line)),
                Word::Number => {}
            }
        }
        (start, moves, result)
    } else {
        let mut spec = parse_position_line(text).map_err(at)?;
        let moves = std::mem::take(&mut spec.moves)
            .into_iter()
            .map(|m| (m, line))
            .collect();
        (spec, moves, None)
    };
    check_moves(&start, &moves, rules, line)?;
    Ok(GameSpec {
        line,
        tags: Vec::new(),
        rules,
        start: PositionSpec {
            fen: start.fen,
            moves: moves.into_iter().map(|(m, _)| m).collect(),
        },
        result,
    })
}

/// What one word of movetext is.
enum Word<'a> {
    /// `1-0`, `0-1`, `1/2-1/2` or `*`.
    Result(&'a str),
    /// `12.` or `12...` alone.
    Number,
    /// Anything else: a move, checked later (`12.g3g4` gives `g3g4`).
    Move(&'a str),
}

fn movetext_word(word: &str) -> Word<'_> {
    if RESULTS.contains(&word) {
        return Word::Result(word);
    }
    match strip_move_number(word) {
        Some("") => Word::Number,
        Some(rest) => Word::Move(rest),
        None => Word::Move(word),
    }
}

/// `12.g3g4` → `g3g4`, `12...` → ``; `None` when the word has no move number.
fn strip_move_number(word: &str) -> Option<&str> {
    let digits = word.len() - word.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    if digits == 0 || !word[digits..].starts_with('.') {
        return None;
    }
    Some(word[digits..].trim_start_matches('.'))
}

/// Plays every move from `start`, naming the line of the first bad one;
/// `line` is the line that gave the start position.
fn check_moves(
    start: &PositionSpec,
    moves: &[(String, usize)],
    rules: Rules,
    line: usize,
) -> Result<(), LineError> {
    let mut game = start
        .game(rules)
        .map_err(|error| LineError { line, error })?;
    for (ply, (text, line)) in moves.iter().enumerate() {
        game.play_text(text).map_err(|error| LineError {
            line: *line,
            error: InputError::Move {
                ply: ply + 1,
                error,
            },
        })?;
    }
    Ok(())
}

/// Reads the record whose first tag is on line `first` (0-based); answers it
/// and the index of the first line after it.
fn read_record(lines: &[&str], first: usize) -> (Result<RawRecord, LineError>, usize) {
    let mut i = first;
    let mut tags = Vec::new();
    let mut error = None;
    while i < lines.len() && lines[i].trim_start().starts_with('[') {
        match parse_tag(lines[i].trim()) {
            Some(tag) => tags.push((tag, i + 1)),
            None => {
                error.get_or_insert(LineError {
                    line: i + 1,
                    error: InputError::BadTag(lines[i].trim().to_string()),
                });
            }
        }
        i += 1;
    }
    // Blank lines (and comments) between the tags and the movetext.
    while i < lines.len() && is_skipped(lines[i]) {
        i += 1;
    }
    let mut words = Vec::new();
    let mut result = None;
    let mut after_result = None;
    let mut in_comment = false;
    let mut comments: Vec<(usize, String)> = Vec::new();
    'movetext: while i < lines.len() && !lines[i].trim_start().starts_with('[') {
        let text = lines[i];
        if text.trim().is_empty() && !in_comment {
            break;
        }
        let mut rest = text;
        loop {
            if in_comment {
                let end = rest.find('}');
                let comment = &mut comments.last_mut().expect("opened with '{'").1;
                let part = rest[..end.unwrap_or(rest.len())].trim();
                if !part.is_empty() {
                    if !comment.is_empty() {
                        comment.push(' ');
                    }
                    comment.push_str(part);
                }
                match end {
                    Some(end) => {
                        in_comment = false;
                        rest = &rest[end + 1..];
                    }
                    None => break,
                }
            }
            // Up to the next comment: `{` opens one, `;` comments out the line.
            let cut = rest.find(['{', ';']).unwrap_or(rest.len());
            let mut line_words = rest[..cut].split_whitespace();
            while let Some(word) = line_words.next() {
                match movetext_word(word) {
                    Word::Result(r) => {
                        result = Some(r.to_string());
                        after_result = line_words.next().map(|w| (w.to_string(), i + 1));
                        i += 1;
                        break 'movetext;
                    }
                    Word::Number => {}
                    Word::Move(m) => words.push((m.to_string(), i + 1)),
                }
            }
            if rest[cut..].starts_with('{') {
                in_comment = true;
                comments.push((words.len(), String::new()));
                rest = &rest[cut + 1..];
            } else {
                break;
            }
        }
        i += 1;
    }
    if in_comment {
        error.get_or_insert(LineError {
            line: i,
            error: InputError::UnclosedComment,
        });
    }
    let record = match error {
        Some(e) => Err(e),
        None => Ok(RawRecord {
            line: first + 1,
            last_line: i,
            tags,
            moves: words,
            comments,
            result,
            after_result,
        }),
    };
    (record, i)
}

/// The game of a record, its tags applied and its moves checked.
fn record_game(record: RawRecord, mut rules: Rules) -> Result<GameSpec, LineError> {
    let RawRecord {
        line,
        tags,
        moves,
        result,
        ..
    } = record;
    let find = |name: &str| {
        tags.iter()
            .find(|((n, _), _)| n.eq_ignore_ascii_case(name))
            .map(|((_, v), l)| (v.as_str(), *l))
    };
    let rules_tag = find("Rules");
    if let Some((variant, at)) = find("Variant") {
        // `custom` (or any name that is no preset) says nothing by itself; it
        // is fine as long as a Rules tag spells the switches out.
        if Rules::preset(&variant.to_ascii_lowercase()).is_some() {
            rules
                .set(switch::VARIANT, variant)
                .map_err(|e| bad_rules("Variant", e, at))?;
        } else if rules_tag.is_none() {
            return Err(LineError {
                line: at,
                error: InputError::UnknownVariant(variant.to_string()),
            });
        }
    }
    if let Some((settings, at)) = rules_tag {
        rules
            .apply_settings(settings.split_whitespace())
            .map_err(|e| bad_rules("Rules", e, at))?;
    }
    let start = match find("FEN") {
        Some((fen, at)) => {
            let start = PositionSpec {
                fen: fen.to_string(),
                moves: Vec::new(),
            };
            if let Err(InputError::Game(e)) = start.game(rules) {
                return Err(LineError {
                    line: at,
                    error: InputError::BadFenTag(e),
                });
            }
            start
        }
        None => PositionSpec {
            fen: START_FEN.to_string(),
            moves: Vec::new(),
        },
    };
    check_moves(&start, &moves, rules, line)?;
    let result = find("Result").map(|(v, _)| v.to_string()).or(result);
    let tags = tags.into_iter().map(|(t, _)| t).collect();
    Ok(GameSpec {
        line,
        tags,
        rules,
        start: PositionSpec {
            fen: start.fen,
            moves: moves.into_iter().map(|(m, _)| m).collect(),
        },
        result,
    })
}

fn bad_rules(tag: &'static str, error: OptionError, line: usize) -> LineError {
    LineError {
        line,
        error: InputError::BadRules { tag, error },
    }
}

/// `[Name "Value"]` → (Name, Value), with PGN's `\"` and `\\` escapes undone.
fn parse_tag(text: &str) -> Option<(String, String)> {
    let inner = text.strip_prefix('[')?.strip_suffix(']')?.trim();
    let (name, rest) = inner.split_once(char::is_whitespace)?;
    let quoted = rest.trim().strip_prefix('"')?.strip_suffix('"')?;
    let mut value = String::with_capacity(quoted.len());
    let mut chars = quoted.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => value.push(chars.next()?),
            // An unescaped quote inside means the value ended early.
            '"' => return None,
            c => value.push(c),
        }
    }
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return None;
    }
    Some((name.to_string(), value))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn position_lines() {
        let p = parse_position_line("startpos moves g3g4 a7a6").unwrap();
        assert_eq!(p.fen, START_FEN);
        assert_eq!(p.moves, ["g3g4", "a7a6"]);
        let p = parse_position_line(&format!("position fen {START_FEN} moves g3g4")).unwrap();
        assert_eq!(p.fen, START_FEN);
        assert_eq!(p.moves, ["g3g4"]);
        assert_eq!(
            parse_position_line("moves g3g4"),
            Err(InputError::MissingPosition)
        );
        assert!(matches!(
            parse_position_line("startpos g3g4"),
            Err(InputError::AfterStartpos(_))
        ));
    }

    #[test]
    fn tags() {
        assert_eq!(
            parse_tag(r#"[Red "a \"b\" \\c"]"#),
            Some(("Red".into(), r#"a "b" \c"#.into()))
        );
        assert_eq!(parse_tag("[Red a]"), None);
        assert_eq!(parse_tag(r#"[Red "a"b"]"#), None);
        assert_eq!(parse_tag(r#"[ "a"]"#), None);
    }

    #[test]
    fn move_numbers() {
        assert_eq!(strip_move_number("12."), Some(""));
        assert_eq!(strip_move_number("3...a7a6"), Some("a7a6"));
        assert_eq!(strip_move_number("g3g4"), None);
        assert_eq!(strip_move_number("12"), None);
    }

    #[test]
    fn records_and_plain_lines() {
        let text = "[Event \"x\"]\n[Result \"*\"]\n\n1. g3g4 a7a6\n2. g4g5 {a\ncomment} *\n\n\
                    g3g4 a7a6\nstartpos moves g3g4 g3g4\n1. g3g4 a7a6 *\n";
        let games = parse_games(text, Rules::default());
        assert_eq!(games.len(), 4);
        let g = games[0].as_ref().unwrap();
        assert_eq!(g.start.moves, ["g3g4", "a7a6", "g4g5"]);
        assert_eq!(g.line, 1);
        assert_eq!(g.result.as_deref(), Some("*"));
        assert_eq!(games[1].as_ref().unwrap().start.moves, ["g3g4", "a7a6"]);
        let e = games[2].as_ref().unwrap_err();
        assert_eq!(e.line, 9);
        assert!(matches!(e.error, InputError::Move { ply: 2, .. }));
        assert_eq!(games[3].as_ref().unwrap().start.moves.len(), 2);
    }

    #[test]
    fn record_rules_and_fen_tags_apply() {
        let text = "[Variant \"custom\"]\n[Rules \"DogOverWolf=true Repetition=draw\"]\n\
                    [FEN \"l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L b 0 1\"]\n\na7a6 *\n";
        let games = parse_games(text, Rules::default());
        let g = games[0].as_ref().unwrap();
        assert!(g.rules.dog_over_wolf);
        assert!(g.start.fen.contains(" b "));
        let bad = parse_games("[Rules \"Nope=1\"]\n\n*\n", Rules::default());
        assert_eq!(bad[0].as_ref().unwrap_err().line, 1);
        let bad = parse_games("[Variant \"weird\"]\n\n*\n", Rules::default());
        assert!(bad[0].is_err());
        let bad = parse_games("[Event \"x\"\n\ng3g4\n", Rules::default());
        assert!(matches!(
            bad[0].as_ref().unwrap_err().error,
            InputError::BadTag(_)
        ));
    }
}
