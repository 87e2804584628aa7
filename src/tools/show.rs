//! Positions drawn for people: the terminal board (in colour when asked) and
//! the SVG picture with an optional arrow, behind `doushou show`; the GUI
//! draws the same board from `ground` and `squares_top_down`.

use crate::rules::{
    ALL_TRAPS, DEN, FILES, Game, Move, Piece, RANKS, Rules, Side, Square, TRAPS, WATER,
};
use crate::tools::pgn::read::{self as input, InputError};
use crate::util::options::OptionError;
use crate::util::words::count;
use std::fmt::Write as _;
use std::io::{Read, Write};
use std::path::PathBuf;

/// What kind of ground a square is (the GUI draws the same board).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Ground {
    Land,
    Water,
    /// A trap of this side (it weakens the other side's pieces).
    Trap(Side),
    /// The den of this side.
    Den(Side),
}

/// The ground of a square.
pub(crate) fn ground(sq: Square) -> Ground {
    let bit = sq.bit();
    if WATER & bit != 0 {
        Ground::Water
    } else if ALL_TRAPS & bit != 0 {
        Ground::Trap(if TRAPS[0] & bit != 0 {
            Side::Red
        } else {
            Side::Blue
        })
    } else if (DEN[0] | DEN[1]) & bit != 0 {
        Ground::Den(if DEN[0] & bit != 0 {
            Side::Red
        } else {
            Side::Blue
        })
    } else {
        Ground::Land
    }
}

/// Every square, top rank first, left to right: the order both drawings use.
pub(crate) fn squares_top_down() -> impl Iterator<Item = Square> {
    (0..RANKS)
        .rev()
        .flat_map(|rank| (0..FILES).filter_map(move |file| Square::new(file, rank)))
}

fn side_name(side: Side) -> &'static str {
    match side {
        Side::Red => "Red",
        Side::Blue => "Blue",
    }
}

/// The board as text with coordinates. Each square is three characters: a
/// piece letter (uppercase Red, lowercase Blue) or `.`, inside `~ ~` on water,
/// `[ ]` on a trap, `( )` on a den, so that the board reads without colours;
/// `color` adds ANSI backgrounds for the ground and piece colours.
pub fn board_text(game: &Game, color: bool) -> String {
    let pos = game.position();
    let mut s = String::new();
    let files: String = (0..FILES)
        .map(|f| format!(" {}  ", (b'a' + f) as char))
        .collect();
    let _ = writeln!(s, "   {}", files.trim_end());
    for sq in squares_top_down() {
        if sq.file() == 0 {
            let _ = write!(s, "{} ", sq.rank() + 1);
        }
        let g = ground(sq);
        let (open, close, empty) = match g {
            Ground::Land => (' ', ' ', '.'),
            Ground::Water => ('~', '~', '~'),
            Ground::Trap(_) => ('[', ']', ' '),
            Ground::Den(_) => ('(', ')', ' '),
        };
        let background = match g {
            Ground::Land => "",
            Ground::Water => "\x1b[46m",
            Ground::Trap(_) => "\x1b[43m",
            Ground::Den(_) => "\x1b[45m",
        };
        s.push(' ');
        if color {
            s.push_str(background);
        }
        s.push(open);
        match pos.piece_at(sq) {
            Some(p) if color => {
                let fg = match p.side {
                    Side::Red => "\x1b[1;31m",
                    Side::Blue => "\x1b[1;34m",
                };
                // Bold and colour off, the ground's background kept.
                let _ = write!(s, "{fg}{}\x1b[22;39m", p.letter());
            }
            Some(p) => s.push(p.letter()),
            None => s.push(empty),
        }
        s.push(close);
        if color && !background.is_empty() {
            s.push_str("\x1b[0m");
        }
        if sq.file() == FILES - 1 {
            let _ = writeln!(s, "  {}", sq.rank() + 1);
        }
    }
    let _ = writeln!(s, "   {}", files.trim_end());
    let status = match game.outcome() {
        Some(o) => format!("game over: {} ({o})", o.score_text()),
        None => format!(
            "{} to move, move {}, {} since a capture",
            side_name(pos.side_to_move()),
            pos.move_number(),
            count(pos.plies_since_capture() as u64, "ply", "plies")
        ),
    };
    let _ = writeln!(s, "{status}");
    let _ = writeln!(
        s,
        "UPPERCASE Red, lowercase Blue; ~ ~ water, [ ] trap, ( ) den"
    );
    let _ = writeln!(s, "fen {}", pos.fen());
    s
}

/// Text for XML: the five characters with a meaning there escaped.
fn xml_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c => out.push(c),
        }
    }
    out
}

/// Size of a square in the picture, px.
const CELL: i32 = 64;
/// The radius of a piece's disc, px: the best-move arrow starts at its edge.
const PIECE_RADIUS: i32 = 26;
/// Room around the board for the coordinates, px.
const MARGIN: i32 = 36;
/// Room under the board for the status line and legend, px.
const FOOTER: i32 = 48;
const RED: &str = "#c62828";
const BLUE: &str = "#1565c0";

fn side_colour(side: Side) -> &'static str {
    match side {
        Side::Red => RED,
        Side::Blue => BLUE,
    }
}

/// The centre of a square in the picture.
fn centre(sq: Square) -> (i32, i32) {
    (
        MARGIN + sq.file() as i32 * CELL + CELL / 2,
        MARGIN + (RANKS as i32 - 1 - sq.rank() as i32) * CELL + CELL / 2,
    )
}

/// The position as a standalone SVG picture: the grid, water in blue, traps
/// and dens marked in their owner's colour, each piece a circle with its
/// letter and animal name, coordinates, whose move it is, and `arrow` if
/// given. Squares and pieces carry `data-square`/`data-piece` attributes so
/// that tools (and tests) can read the picture back.
pub fn board_svg(game: &Game, arrow: Option<Move>) -> String {
    let pos = game.position();
    let width = 2 * MARGIN + FILES as i32 * CELL;
    let height = 2 * MARGIN + RANKS as i32 * CELL + FOOTER;
    let fen = xml_escape(&pos.fen());
    let mut s = String::new();
    let _ = writeln!(s, r#"<?xml version="1.0" encoding="UTF-8"?>"#);
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="DejaVu Sans, Helvetica, Arial, sans-serif" data-fen="{fen}">"#
    );
    let _ = writeln!(s, "<title>Dou Shou Qi position: {fen}</title>");
    let _ = writeln!(
        s,
        r##"<defs><marker id="arrowhead" viewBox="0 0 10 10" refX="3" refY="5" markerWidth="3.5" markerHeight="3.5" orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="#2e7d32"/></marker></defs>"##
    );
    let _ = writeln!(
        s,
        r##"<rect x="0" y="0" width="{width}" height="{height}" fill="#faf6ec"/>"##
    );
    s.push_str("<g class=\"squares\">\n");
    for sq in squares_top_down() {
        let (cx, cy) = centre(sq);
        let (x, y) = (cx - CELL / 2, cy - CELL / 2);
        let (class, fill) = match ground(sq) {
            Ground::Land => ("land", "#e9dcb0"),
            Ground::Water => ("water", "#6fb1e4"),
            Ground::Trap(_) => ("trap", "#d9b27c"),
            Ground::Den(Side::Red) => ("den", "#f2c4c4"),
            Ground::Den(Side::Blue) => ("den", "#c4d3f2"),
        };
        let _ = writeln!(
            s,
            r##"<rect class="{class}" data-square="{sq}" x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="{fill}" stroke="#8c7a4b" stroke-width="1"/>"##
        );
        match ground(sq) {
            Ground::Water => {
                // Two ripples, so the river reads as water in grey print too.
                for dy in [-10, 10] {
                    let (x0, yy) = (x + 14, cy + dy);
                    let _ = writeln!(
                        s,
                        r##"<path d="M{x0},{yy} q9,-6 18,0 t18,0" fill="none" stroke="#e8f4fc" stroke-width="2"/>"##
                    );
                }
            }
            Ground::Trap(owner) | Ground::Den(owner) => {
                let (label, size) = if matches!(ground(sq), Ground::Trap(_)) {
                    ("trap", 13)
                } else {
                    ("den", 16)
                };
                let c = side_colour(owner);
                let _ = writeln!(
                    s,
                    r##"<rect x="{}" y="{}" width="{}" height="{}" fill="none" stroke="{c}" stroke-width="2" stroke-dasharray="5,3"/>"##,
                    x + 5,
                    y + 5,
                    CELL - 10,
                    CELL - 10
                );
                let _ = writeln!(
                    s,
                    r##"<text x="{cx}" y="{}" font-size="{size}" fill="{c}" text-anchor="middle">{label}</text>"##,
                    cy + size / 3
                );
            }
            Ground::Land => {}
        }
    }
    s.push_str("</g>\n<g class=\"coordinates\" font-size=\"16\" fill=\"#5a4a26\">\n");
    let bottom = MARGIN + RANKS as i32 * CELL;
    for file in 0..FILES {
        let x = MARGIN + file as i32 * CELL + CELL / 2;
        let letter = (b'a' + file) as char;
        let _ = writeln!(
            s,
            r#"<text x="{x}" y="{}" text-anchor="middle">{letter}</text><text x="{x}" y="{}" text-anchor="middle">{letter}</text>"#,
            MARGIN - 12,
            bottom + 24
        );
    }
    for rank in 0..RANKS {
        let y = MARGIN + (RANKS - 1 - rank) as i32 * CELL + CELL / 2 + 6;
        let _ = writeln!(
            s,
            r#"<text x="{}" y="{y}" text-anchor="middle">{n}</text><text x="{}" y="{y}" text-anchor="middle">{n}</text>"#,
            MARGIN / 2,
            MARGIN + FILES as i32 * CELL + MARGIN / 2,
            n = rank + 1
        );
    }
    s.push_str("</g>\n<g class=\"pieces\">\n");
    for sq in squares_top_down() {
        if let Some(piece) = pos.piece_at(sq) {
            piece_svg(&mut s, piece, sq);
        }
    }
    s.push_str("</g>\n");
    if let Some(m) = arrow {
        arrow_svg(&mut s, m);
    }
    let (status, colour) = match game.outcome() {
        Some(o) => (
            xml_escape(&format!("game over: {} ({o})", o.score_text())),
            "#2b2b2b",
        ),
        None => {
            let to_move = pos.side_to_move();
            (
                format!(
                    "{} to move · move {}",
                    side_name(to_move),
                    pos.move_number()
                ),
                side_colour(to_move),
            )
        }
    };
    let _ = writeln!(
        s,
        r##"<text class="status" x="{MARGIN}" y="{}" font-size="16" fill="{colour}">{status}</text>"##,
        bottom + MARGIN + 20,
    );
    s.push_str("</svg>\n");
    s
}

/// One piece: a circle in its side's colour with its letter and animal name.
fn piece_svg(s: &mut String, piece: Piece, sq: Square) {
    let (cx, cy) = centre(sq);
    let fill = side_colour(piece.side);
    let _ = writeln!(
        s,
        r##"<g class="piece" data-piece="{}" data-square="{sq}" data-side="{}" data-animal="{}">"##,
        piece.letter(),
        side_name(piece.side).to_ascii_lowercase(),
        piece.animal.name()
    );
    let _ = writeln!(
        s,
        r##"<circle cx="{cx}" cy="{cy}" r="{PIECE_RADIUS}" fill="{fill}" stroke="#2b2b2b" stroke-width="2"/>"##
    );
    let _ = writeln!(
        s,
        r##"<text x="{cx}" y="{}" font-size="24" font-weight="bold" fill="#ffffff" text-anchor="middle">{}</text>"##,
        cy + 5,
        piece.animal.letter()
    );
    let _ = writeln!(
        s,
        r##"<text x="{cx}" y="{}" font-size="9" fill="#ffffff" text-anchor="middle">{}</text>"##,
        cy + 17,
        piece.animal.name()
    );
    s.push_str("</g>\n");
}

/// An arrow from the edge of the moving piece (its letter stays readable)
/// to near the centre of its target (the head's tip lands on the centre).
fn arrow_svg(s: &mut String, m: Move) {
    let (x0, y0) = centre(m.from());
    let (x1, y1) = centre(m.to());
    let (dx, dy) = ((x1 - x0) as f64, (y1 - y0) as f64);
    let len = (dx * dx + dy * dy).sqrt().max(1.0);
    let (ux, uy) = (dx / len, dy / len);
    let start = f64::from(PIECE_RADIUS);
    let (sx, sy) = (x0 as f64 + ux * start, y0 as f64 + uy * start);
    // Stop short by the head's length so its tip, not its base, meets the centre.
    let head = 18.0;
    let (ex, ey) = (x1 as f64 - ux * head, y1 as f64 - uy * head);
    let _ = writeln!(
        s,
        r##"<line class="arrow" data-move="{m}" x1="{sx:.1}" y1="{sy:.1}" x2="{ex:.1}" y2="{ey:.1}" stroke="#2e7d32" stroke-width="9" stroke-opacity="0.8" stroke-linecap="round" marker-end="url(#arrowhead)"/>"##
    );
}
/// Why `show` drew nothing.
#[derive(Debug, thiserror::Error)]
pub enum ShowError {
    /// The position (or a move after it) is invalid: exit code 1.
    #[error(transparent)]
    Position(InputError),
    /// Standard input held no position: exit code 1.
    #[error("no position on standard input")]
    NoInput,
    /// `--arrow` is not a legal move of the position shown: exit code 2.
    #[error("--arrow {0}: not a legal move of the position (a move like g3g4)")]
    Arrow(String),
    /// `--variant`/`--set` named unknown rules: exit code 2.
    #[error("rules: {0}")]
    Rules(#[source] OptionError),
    /// Reading standard input failed: exit code 1.
    #[error("reading standard input: {0}")]
    Stdin(#[source] std::io::Error),
    /// The picture's file named by `--svg` cannot be created: exit code 2, like any
    /// file named on the command line that cannot be opened or created.
    #[error("writing {path}: {source}")]
    SvgFile {
        /// The file `--svg` named.
        path: String,
        /// Why it could not be created.
        #[source]
        source: std::io::Error,
    },
    /// The picture's file was created but writing it failed (a full disk):
    /// exit code 1, as any output that could not be written.
    #[error("writing {path}: {source}")]
    SvgWrite {
        /// The file `--svg` named.
        path: String,
        /// Why it could not be written.
        #[source]
        source: std::io::Error,
    },
    /// Writing standard output failed: exit code 1, quietly for a closed pipe.
    #[error("cannot write the output: {0}")]
    Output(#[source] std::io::Error),
}

/// What `doushou show` is asked to draw, and how.
#[derive(Clone, Debug)]
pub struct ShowRequest {
    /// The rules in force.
    pub rules: Rules,
    /// The position's words: `startpos` or a FEN, then `moves ...`; `-` for
    /// the first line of standard input; none for the start position.
    pub position: Vec<String>,
    /// Where the SVG picture goes (`-`: standard output), instead of the
    /// terminal board.
    pub svg: Option<PathBuf>,
    /// A move to draw as an arrow (text, checked against the position).
    pub arrow: Option<String>,
    /// Whether the terminal board has colours.
    pub color: bool,
}

/// Draws what `request` asks: the terminal board on standard output, or the
/// picture to its file.
pub fn show(request: &ShowRequest) -> Result<(), ShowError> {
    let rules = request.rules;
    let text = match request.position.as_slice() {
        [] => "startpos".to_string(),
        [dash] if dash == "-" => read_stdin_position()?,
        words => words.join(" "),
    };
    let game = input::parse_position_line(&text)
        .and_then(|spec| spec.game(rules))
        .map_err(ShowError::Position)?;
    // An arrow shows a move that can be played: one that cannot would
    // mislead whoever looks at the picture.
    let arrow = match &request.arrow {
        Some(a) => match a.parse::<Move>() {
            Ok(m) if game.outcome().is_none() && game.legal_moves().contains(&m) => Some(m),
            _ => return Err(ShowError::Arrow(a.clone())),
        },
        None => None,
    };
    match &request.svg {
        Some(path) => {
            let svg = board_svg(&game, arrow);
            if path.as_os_str() == "-" {
                let mut out = std::io::stdout().lock();
                out.write_all(svg.as_bytes())
                    .and_then(|()| out.flush())
                    .map_err(ShowError::Output)
            } else {
                let named = || path.display().to_string();
                let mut file =
                    std::fs::File::create(path).map_err(|source| ShowError::SvgFile {
                        path: named(),
                        source,
                    })?;
                file.write_all(svg.as_bytes())
                    .map_err(|source| ShowError::SvgWrite {
                        path: named(),
                        source,
                    })
            }
        }
        None => {
            let mut out = std::io::stdout().lock();
            out.write_all(board_text(&game, request.color).as_bytes())
                .and_then(|()| out.flush())
                .map_err(ShowError::Output)
        }
    }
}

/// The first line of standard input that holds something.
fn read_stdin_position() -> Result<String, ShowError> {
    let mut bytes = Vec::new();
    std::io::stdin()
        .lock()
        .read_to_end(&mut bytes)
        .map_err(ShowError::Stdin)?;
    String::from_utf8_lossy(&bytes)
        .lines()
        .find(|l| !input::is_skipped(l))
        .map(str::to_string)
        .ok_or(ShowError::NoInput)
}
