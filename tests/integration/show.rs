//! `doushou show` driven through its pipes: the terminal board, and the SVG
//! picture checked to be well-formed XML (by a small checker written here) and
//! to show every piece of the position on its square.

use std::collections::BTreeMap;
use std::io::Write;
use std::process::{Command, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_doushou");
const START: &str = "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w 0 1";

/// Runs `doushou <args>` with `input` on stdin and `env` set; answers
/// (exit code, stdout, stderr).
fn run_env(args: &[&str], input: &str, env: &[(&str, &str)]) -> (i32, String, String) {
    let mut cmd = Command::new(BIN);
    cmd.args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .env_remove("RUST_LOG")
        .env_remove("NO_COLOR");
    for (k, v) in env {
        cmd.env(k, v);
    }
    let mut child = cmd.spawn().expect("the binary starts");
    // A command that reads no input may end before it is written.
    let _ = child.stdin.take().unwrap().write_all(input.as_bytes());
    let out = child.wait_with_output().expect("the binary runs");
    (
        out.status.code().expect("exited, not killed"),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

fn run(args: &[&str]) -> (i32, String, String) {
    run_env(args, "", &[])
}

// ---- a small XML well-formedness checker ---------------------------------

/// One element: its name and attributes.
#[derive(Debug)]
struct Element {
    name: String,
    attrs: BTreeMap<String, String>,
    /// The text directly inside it (entities left as written).
    text: String,
}

/// Checks that `xml` is one well-formed element tree (after an optional XML
/// declaration): tags balanced and properly nested, attributes `name="value"`
/// or `name='value'` with no `<` and only entity `&`s, no duplicate
/// attributes, no raw `<` or stray `&` in text. Answers every element in
/// document order; panics with the position of the first fault.
fn check_xml(xml: &str) -> Vec<Element> {
    let b = xml.as_bytes();
    let mut i = 0;
    let mut stack: Vec<usize> = Vec::new();
    let mut elements: Vec<Element> = Vec::new();
    let mut roots = 0;
    let fail = |i: usize, what: &str| -> ! {
        panic!(
            "not well-formed at byte {i}: {what}: {:?}",
            &xml[i..(i + 60).min(xml.len())]
        )
    };
    if xml.starts_with("<?xml") {
        i = xml
            .find("?>")
            .unwrap_or_else(|| fail(0, "unclosed declaration"))
            + 2;
    }
    let name_char = |c: u8| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'_' | b':' | b'.');
    let check_entities = |s: &str, at: usize| {
        let mut rest = s;
        while let Some(p) = rest.find('&') {
            let after = &rest[p + 1..];
            let end = after.find(';').unwrap_or_else(|| fail(at, "& without ;"));
            let ent = &after[..end];
            let ok = matches!(ent, "amp" | "lt" | "gt" | "quot" | "apos")
                || (ent.starts_with('#') && ent.len() > 1);
            if !ok {
                fail(at, "unknown entity");
            }
            rest = &after[end + 1..];
        }
    };
    while i < b.len() {
        if b[i] != b'<' {
            let start = i;
            while i < b.len() && b[i] != b'<' {
                i += 1;
            }
            let text = &xml[start..i];
            check_entities(text, start);
            match stack.last() {
                Some(&top) => elements[top].text.push_str(text),
                None if text.trim().is_empty() => {}
                None => fail(start, "text outside the root element"),
            }
            continue;
        }
        if xml[i..].starts_with("<!--") {
            i = xml[i..]
                .find("-->")
                .unwrap_or_else(|| fail(i, "unclosed comment"))
                + i
                + 3;
            continue;
        }
        let closing = b.get(i + 1) == Some(&b'/');
        i += if closing { 2 } else { 1 };
        let start = i;
        while i < b.len() && name_char(b[i]) {
            i += 1;
        }
        let name = xml[start..i].to_string();
        if name.is_empty() {
            fail(i, "tag without a name");
        }
        if closing {
            while i < b.len() && b[i].is_ascii_whitespace() {
                i += 1;
            }
            if b.get(i) != Some(&b'>') {
                fail(i, "closing tag not closed by >");
            }
            i += 1;
            let open = stack
                .pop()
                .unwrap_or_else(|| fail(i, "closing tag with nothing open"));
            if elements[open].name != name {
                fail(i, &format!("</{name}> closes <{}>", elements[open].name));
            }
            continue;
        }
        if stack.is_empty() {
            roots += 1;
            if roots > 1 {
                fail(i, "a second root element");
            }
        }
        let mut attrs = BTreeMap::new();
        loop {
            let ws = i;
            while i < b.len() && b[i].is_ascii_whitespace() {
                i += 1;
            }
            match b.get(i) {
                Some(b'>') => {
                    i += 1;
                    stack.push(elements.len());
                    break;
                }
                Some(b'/') if b.get(i + 1) == Some(&b'>') => {
                    i += 2;
                    break;
                }
                Some(c) if name_char(*c) => {
                    if ws == i {
                        fail(i, "attributes not separated by space");
                    }
                    let a = i;
                    while i < b.len() && name_char(b[i]) {
                        i += 1;
                    }
                    let key = xml[a..i].to_string();
                    if b.get(i) != Some(&b'=') {
                        fail(i, "attribute without =");
                    }
                    i += 1;
                    let quote = *b.get(i).unwrap_or(&0);
                    if quote != b'"' && quote != b'\'' {
                        fail(i, "unquoted attribute value");
                    }
                    i += 1;
                    let v = i;
                    while i < b.len() && b[i] != quote {
                        if b[i] == b'<' {
                            fail(i, "< in an attribute value");
                        }
                        i += 1;
                    }
                    if i >= b.len() {
                        fail(v, "unterminated attribute value");
                    }
                    let value = xml[v..i].to_string();
                    check_entities(&value, v);
                    i += 1;
                    if attrs.insert(key.clone(), value).is_some() {
                        fail(a, &format!("duplicate attribute {key}"));
                    }
                }
                _ => fail(i, "bad character in a tag"),
            }
        }
        elements.push(Element {
            name,
            attrs,
            text: String::new(),
        });
    }
    assert!(stack.is_empty(), "unclosed elements at the end");
    assert_eq!(roots, 1, "no root element");
    elements
}

#[test]
fn the_checker_catches_faults() {
    check_xml(r#"<?xml version="1.0"?><a x="1"><b y='2'/>t &amp; u</a>"#);
    for bad in [
        "<a><b></a></b>",
        "<a x=1/>",
        "<a x=\"1\" x=\"2\"/>",
        "<a>&</a>",
        "<a>",
        "<a/><b/>",
        "<a x=\"<\"/>",
        "<a x=\"1\"y=\"2\"/>",
    ] {
        let caught = std::panic::catch_unwind(|| check_xml(bad)).is_err();
        assert!(caught, "{bad} passed");
    }
}

/// The pieces of a FEN's board field, as (letter, square).
fn fen_pieces(fen: &str) -> Vec<(char, String)> {
    let board = fen.split_whitespace().next().unwrap();
    let mut out = Vec::new();
    for (r, row) in board.split('/').enumerate() {
        let rank = 9 - r;
        let mut file = 0u8;
        for c in row.chars() {
            if let Some(d) = c.to_digit(10) {
                file += d as u8;
            } else {
                out.push((c, format!("{}{rank}", (b'a' + file) as char)));
                file += 1;
            }
        }
    }
    out
}

/// Checks that the SVG is well-formed and shows exactly the FEN's pieces.
fn check_svg(svg: &str, fen: &str) -> Vec<Element> {
    let elements = check_xml(svg);
    assert_eq!(elements[0].name, "svg");
    assert_eq!(elements[0].attrs["xmlns"], "http://www.w3.org/2000/svg");
    let mut shown: Vec<(char, String)> = elements
        .iter()
        .filter_map(|e| {
            let p = e.attrs.get("data-piece")?;
            Some((p.chars().next()?, e.attrs["data-square"].clone()))
        })
        .collect();
    let mut expected = fen_pieces(fen);
    shown.sort();
    expected.sort();
    assert_eq!(shown, expected);
    // Every square is drawn, each once.
    let squares = elements
        .iter()
        .filter(|e| e.name == "rect" && e.attrs.contains_key("data-square"))
        .count();
    assert_eq!(squares, 63);
    elements
}

#[test]
fn svg_of_the_start_position_shows_every_piece() {
    let dir = std::env::temp_dir().join(format!("doushou-show-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("start.svg");
    let (code, out, err) = run(&["show", "--svg", path.to_str().unwrap()]);
    assert_eq!((code, out.as_str()), (0, ""), "{err}");
    let svg = std::fs::read_to_string(&path).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    let elements = check_svg(&svg, START);
    assert_eq!(fen_pieces(START).len(), 16);
    let kinds = |class: &str| {
        elements
            .iter()
            .filter(|e| e.attrs.get("class").is_some_and(|c| c == class))
            .count()
    };
    assert_eq!(kinds("water"), 12);
    assert_eq!(kinds("trap"), 6);
    assert_eq!(kinds("den"), 2);
    assert!(!elements.iter().any(|e| e.attrs.contains_key("data-move")));
    assert!(
        elements
            .iter()
            .any(|e| e.name == "title" && e.text.contains(START))
    );
}

#[test]
fn svg_with_an_arrow_and_pieces_in_water_and_traps() {
    // A rat in the water, a Red piece on a Blue trap, a lion about to jump.
    let fen = "2T1t2/3Cl2/7/7/1r5/L6/7/7/c6 w 0 1";
    let (code, svg, err) = run(&["show", fen, "--svg", "-", "--arrow", "a4d4"]);
    assert_eq!(code, 0, "{err}");
    let elements = check_svg(&svg, fen);
    let arrow: Vec<&Element> = elements
        .iter()
        .filter(|e| e.attrs.contains_key("data-move"))
        .collect();
    assert_eq!(arrow.len(), 1);
    assert_eq!(arrow[0].attrs["data-move"], "a4d4");
    // It starts at the edge of the lion's disc, clear of its letter.
    let number = |e: &Element, name: &str| e.attrs[name].parse::<f64>().unwrap();
    let lion = elements
        .iter()
        .position(|e| e.attrs.get("data-square").is_some_and(|s| s == "a4"))
        .expect("the lion's group");
    let disc = elements[lion..]
        .iter()
        .find(|e| e.name == "circle")
        .expect("its disc");
    let (cx, cy, r) = (number(disc, "cx"), number(disc, "cy"), number(disc, "r"));
    let (x1, y1) = (number(arrow[0], "x1"), number(arrow[0], "y1"));
    let from_centre = ((x1 - cx).powi(2) + (y1 - cy).powi(2)).sqrt();
    assert!(
        from_centre >= r - 0.5,
        "the arrow starts {from_centre} px from the centre, inside the disc of {r}"
    );
    // The fields may also come as separate words, with moves after them.
    let words: Vec<&str> = START.split_whitespace().collect();
    let mut args = vec!["show", "--svg", "-"];
    args.extend(&words);
    args.extend(["moves", "g3g4", "a7a6"]);
    let (code, svg, _) = run(&args);
    assert_eq!(code, 0);
    check_svg(&svg, "l5t/1d3c1/2p1w1e/r6/7/6R/E1W1P2/1C3D1/T5L w 2 2");
}

#[test]
fn text_board_has_coordinates_and_pieces_and_colour_only_when_asked() {
    let (code, out, _) = run(&["show"]);
    assert_eq!(code, 0);
    assert!(!out.contains('\x1b'), "no colour into a pipe");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0].split_whitespace().collect::<String>(), "abcdefg");
    assert!(
        lines[1].starts_with("9 ") && lines[1].ends_with(" 9"),
        "{}",
        lines[1]
    );
    assert!(lines[9].starts_with("1 "), "{}", lines[9]);
    // Rank 9: lion, trap, den, trap, tiger; rank 4 has the rivers.
    assert_eq!(
        lines[1].split_whitespace().collect::<String>(),
        "9l.[]()[].t9"
    );
    assert!(lines[6].contains("~~~"), "{}", lines[6]);
    assert_eq!(lines[7].split_whitespace().collect::<String>(), "3E.W.P.R3");
    assert!(out.contains("Red to move"));
    assert!(out.contains(&format!("fen {START}")));

    let (_, coloured, _) = run(&["show", "--color", "always"]);
    assert!(coloured.contains("\x1b["));
    // NO_COLOR wins over auto (and stdout is a pipe here anyway).
    let (_, plain, _) = run_env(&["show"], "", &[("NO_COLOR", "1")]);
    assert_eq!(plain, out);
}

#[test]
fn position_from_stdin_and_errors() {
    let (code, out, _) = run_env(&["show", "-"], "\n# c\nstartpos moves g3g4\n", &[]);
    assert_eq!(code, 0);
    assert!(out.contains("Blue to move"), "{out}");
    let (code, out, err) = run(&["show", "not/a/fen w"]);
    assert_eq!((code, out.as_str()), (1, ""));
    assert!(err.contains("error"), "{err}");
    let (code, _, _) = run_env(&["show", "-"], "", &[]);
    assert_eq!(code, 1);
    let (code, _, err) = run(&["show", "--svg", "-", "--arrow", "z9z9"]);
    assert_eq!(code, 2, "{err}");
    // An arrow for a move the position does not have is refused, not drawn.
    let (code, out, err) = run(&["show", "--svg", "-", "--arrow", "g3g9"]);
    assert_eq!((code, out.as_str()), (2, ""), "{err}");
    assert!(err.contains("not a legal move"), "{err}");
    let (code, _, _) = run(&["show", "--arrow", "g3g4"]);
    assert_eq!(code, 2, "--arrow needs --svg");
    let (code, _, _) = run(&["show", "--svg", "/no/such/dir/x.svg"]);
    assert_eq!(code, 2);
    let (code, _, _) = run(&["show", "startpos", "moves", "g3g9"]);
    assert_eq!(code, 1);
}
