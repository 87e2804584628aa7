//! Why a protocol line could not be read: one error for both directions, the
//! GUI's commands and the engine's replies, which fail in the same ways.

/// Why a line (a command or a reply) could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseError {
    /// The line is blank.
    #[error("empty line")]
    Empty,
    /// No command word known by that name.
    #[error("unknown command '{}'", .0.escape_default())]
    UnknownCommand(String),
    /// The first word names no reply.
    #[error("unknown reply '{}'", .0.escape_default())]
    UnknownReply(String),
    /// The line lacks a part.
    #[error("{head}: missing {what}")]
    Missing {
        /// The command or reply word.
        head: &'static str,
        /// What it lacks, in words (`a depth`, `the FEN`).
        what: &'static str,
    },
    /// A part of the line has a bad value.
    #[error("{head}: bad value '{}' for {field}", .value.escape_default())]
    BadValue {
        /// The command or reply word.
        head: &'static str,
        /// Which part: the keyword or field the value belongs to.
        field: String,
        /// The value given, as written.
        value: String,
    },
    /// A word that the command or reply does not take.
    #[error("{head}: unexpected '{}'", .word.escape_default())]
    Unexpected {
        /// The command or reply word.
        head: &'static str,
        /// The word, as written.
        word: String,
    },
}

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
