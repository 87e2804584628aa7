//! Why a protocol line could not be read: one error for both directions, the
//! GUI's commands and the engine's replies, which fail in the same ways.

use std::fmt;

/// Why a line (a command or a reply) could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseError {
    /// The line is blank.
    Empty,
    /// No command word known by that name.
    UnknownCommand(String),
    /// The first word names no reply.
    UnknownReply(String),
    /// The line lacks a part.
    Missing {
        /// The command or reply word.
        head: &'static str,
        /// What it lacks.
        what: &'static str,
    },
    /// A part of the line has a bad value.
    BadValue {
        /// The command or reply word.
        head: &'static str,
        /// Which part.
        field: String,
        /// The value given.
        value: String,
    },
    /// A word that the command or reply does not take.
    Unexpected {
        /// The command or reply word.
        head: &'static str,
        /// The word.
        word: String,
    },
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseError::Empty => f.write_str("empty line"),
            ParseError::UnknownCommand(w) => write!(f, "unknown command '{}'", w.escape_default()),
            ParseError::UnknownReply(w) => write!(f, "unknown reply '{}'", w.escape_default()),
            ParseError::Missing { head, what } => write!(f, "{head}: missing {what}"),
            ParseError::BadValue { head, field, value } => {
                write!(
                    f,
                    "{head}: bad value '{}' for {field}",
                    value.escape_default()
                )
            }
            ParseError::Unexpected { head, word } => {
                write!(f, "{head}: unexpected '{}'", word.escape_default())
            }
        }
    }
}

impl std::error::Error for ParseError {}

impl ParseError {
    /// The command or reply word the error is about, when the line had one: a
    /// GUI waits for `bestmove` after a bad `go`, and a bad `position` leaves none.
    pub fn head(&self) -> Option<&'static str> {
        match self {
            ParseError::Empty | ParseError::UnknownCommand(_) | ParseError::UnknownReply(_) => None,
            ParseError::Missing { head, .. }
            | ParseError::BadValue { head, .. }
            | ParseError::Unexpected { head, .. } => Some(head),
        }
    }
}
