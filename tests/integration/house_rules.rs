//! The house rules a reader can check without running anything: every source
//! file reads in one sitting, errors are typed, and the user's pages (README,
//! protocol.md, docs/ outside docs/records/) name no issue and no commit id,
//! which belong to the records; README stays short and docs/README.md
//! indexes every page.

use std::path::{Path, PathBuf};

/// The longest a source file may be, in lines.
const MAX_LINES: usize = 900;

/// Every file under `dir` whose name ends with `suffix`, by path.
fn files(dir: &Path, suffix: &str) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.unwrap().path();
        if path.is_dir() {
            out.extend(files(&path, suffix));
        } else if path.to_string_lossy().ends_with(suffix) {
            out.push(path);
        }
    }
    out.sort();
    out
}

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn every_source_file_is_under_900_lines_and_no_error_is_a_bare_string() {
    let mut faults = Vec::new();
    for dir in ["src", "tests", "dev", "python/src"] {
        for path in files(&root().join(dir), ".rs") {
            let text = std::fs::read_to_string(&path).unwrap();
            let lines = text.lines().count();
            if lines >= MAX_LINES {
                faults.push(format!("{}: {lines} lines", path.display()));
            }
            if dir != "src" {
                continue;
            }
            for (i, line) in text.lines().enumerate() {
                let code = line.split("//").next().unwrap_or("");
                if code.contains("Result<") && code.replace(' ', "").contains(",String>") {
                    faults.push(format!("{}:{}: {}", path.display(), i + 1, line.trim()));
                }
            }
        }
    }
    assert!(faults.is_empty(), "{}", faults.join("\n"));
}

/// The words of `line` that name an issue ("issue 24", "issues 24 and", "#52"
/// but not a mate such as "+#8") or a commit id (7 to 40 hexadecimal digits
/// with a letter and a digit among them, so neither 1238964 nor "defaced").
fn issue_or_commit(line: &str) -> Vec<String> {
    let mut found = Vec::new();
    let words: Vec<&str> = line
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '#'))
        .filter(|w| !w.is_empty())
        .collect();
    for (i, word) in words.iter().enumerate() {
        let lower = word.to_ascii_lowercase();
        let next_is_number = words.get(i + 1).is_some_and(|w| {
            w.trim_start_matches('#')
                .chars()
                .all(|c| c.is_ascii_digit())
        });
        if (lower == "issue" || lower == "issues") && next_is_number {
            found.push(format!("{word} {}", words[i + 1]));
        }
        let hex = word.len() >= 7
            && word.len() <= 40
            && word
                .chars()
                .all(|c| c.is_ascii_digit() || ('a'..='f').contains(&c))
            && word.chars().any(|c| c.is_ascii_digit())
            && word.chars().any(|c| c.is_ascii_alphabetic());
        if hex {
            found.push(word.to_string());
        }
    }
    for (at, _) in line.match_indices('#') {
        let before = line[..at].chars().last();
        let digits = line[at + 1..]
            .chars()
            .take_while(char::is_ascii_digit)
            .count();
        if digits > 0 && before.is_none_or(char::is_whitespace) {
            found.push(line[at..at + 1 + digits].to_string());
        }
    }
    found
}

#[test]
fn the_users_pages_name_no_issue_and_no_commit_id() {
    let mut pages = vec![root().join("README.md"), root().join("protocol.md")];
    pages.extend(
        std::fs::read_dir(root().join("docs"))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "md")),
    );
    let mut faults = Vec::new();
    for page in pages {
        let text = std::fs::read_to_string(&page).unwrap();
        for (i, line) in text.lines().enumerate() {
            for word in issue_or_commit(line) {
                faults.push(format!("{}:{}: {word}", page.display(), i + 1));
            }
        }
    }
    assert!(
        faults.is_empty(),
        "move these to docs/records/:\n{}",
        faults.join("\n")
    );
}

#[test]
fn readme_is_short_and_the_docs_index_links_every_page() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    assert!(readme.lines().count() <= 250, "README.md is over 250 lines");
    let index = std::fs::read_to_string(root().join("docs/README.md")).unwrap();
    let unlinked: Vec<String> = std::fs::read_dir(root().join("docs"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".md") && name != "README.md")
        .filter(|name| !index.contains(&format!("({name}")))
        .collect();
    assert!(
        unlinked.is_empty(),
        "docs/README.md does not link {unlinked:?}"
    );
}

#[test]
fn the_checker_finds_issues_and_commit_ids_and_nothing_else() {
    assert_eq!(issue_or_commit("as issue 24 asks"), ["issue 24"]);
    assert_eq!(issue_or_commit("see #52."), ["#52"]);
    assert_eq!(issue_or_commit("the engine of 455f069"), ["455f069"]);
    for clean in [
        "Bench: 1238964",
        "mate +#8",
        "a defaced table",
        "issue the command",
    ] {
        assert!(issue_or_commit(clean).is_empty(), "{clean}");
    }
}
