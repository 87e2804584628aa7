//! The layout the README promises, read from the source: no import goes up a
//! layer, and no two files import each other (inside a folder or across).
//! An import is any `crate::` or `super::` path, and a module's path to one of
//! its own submodules, outside comments and test modules.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The layers, lowest first; a module may import from its own layer or lower.
const LAYERS: [&[&str]; 8] = [
    &["util"],
    &["rules"],
    &["tb"],
    &["engine"],
    &["protocol"],
    &["client"],
    &["tools", "tuning", "gui"],
    &["cli"],
];

/// Pairs of files that still import each other, each owned by a change in
/// progress that removes it; an entry that no longer holds must go.
const KNOWN_MUTUAL: [(&str, &str); 0] = [];

type Module = Vec<String>;

/// Every module of `src/` backed by a file (`main.rs` aside), with its text.
fn modules() -> BTreeMap<Module, String> {
    fn walk(dir: &Path, prefix: &[String], out: &mut BTreeMap<Module, String>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            if path.is_dir() {
                let mut inner = prefix.to_vec();
                inner.push(name);
                walk(&path, &inner, out);
            } else if let Some(stem) = name.strip_suffix(".rs") {
                let mut module = prefix.to_vec();
                match stem {
                    "main" if prefix.is_empty() => continue,
                    "mod" | "lib" => {}
                    _ => module.push(stem.to_string()),
                }
                out.insert(module, std::fs::read_to_string(&path).unwrap());
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
        &[],
        &mut out,
    );
    out
}

/// The text that counts: up to the test module, comments dropped.
fn code(text: &str) -> String {
    let end = text.find("#[cfg(test)]\nmod tests").unwrap_or(text.len());
    text[..end]
        .lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n")
}

fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// The longest prefix of `path` that is a module with a file.
fn file_of(path: &[String], files: &BTreeMap<Module, String>) -> Option<Module> {
    (0..=path.len())
        .rev()
        .map(|n| path[..n].to_vec())
        .find(|m| files.contains_key(m))
}

/// The path after `at` (`a::b::{c, d::e}`): each full path it names.
fn paths_at(text: &str, at: usize) -> Vec<Vec<String>> {
    let rest = &text[at..];
    let mut segments = Vec::new();
    let mut i = 0;
    loop {
        if rest[i..].starts_with('{') {
            return group_at(&rest[i..], &segments);
        }
        let len = rest[i..]
            .find(|c: char| !is_ident(c))
            .unwrap_or(rest.len() - i);
        if len > 0 {
            segments.push(rest[i..i + len].to_string());
        }
        i += len;
        if !rest[i..].starts_with("::") {
            return vec![segments];
        }
        i += 2;
    }
}

/// The paths a `{c, d::e}` group after `segments` names (by their first
/// segment, which is enough to find the file).
fn group_at(group: &str, segments: &[String]) -> Vec<Vec<String>> {
    let mut depth = 0;
    let mut item = String::new();
    let mut items = Vec::new();
    for c in group.chars() {
        match c {
            '{' => depth += 1,
            '}' if depth == 1 => break,
            '}' => depth -= 1,
            ',' if depth == 1 => items.push(std::mem::take(&mut item)),
            _ if depth == 1 => item.push(c),
            _ => {}
        }
    }
    items.push(item);
    items
        .iter()
        .map(|item| {
            let first: String = item.trim().chars().take_while(|&c| is_ident(c)).collect();
            let mut path = segments.to_vec();
            if !first.is_empty() && first != "self" {
                path.push(first);
            }
            path
        })
        .collect()
}

/// The files each module imports.
fn imports(files: &BTreeMap<Module, String>) -> BTreeMap<Module, BTreeSet<Module>> {
    let mut out = BTreeMap::new();
    for (module, text) in files {
        let text = code(text);
        let mut targets = BTreeSet::new();
        let starts: Vec<usize> = text
            .char_indices()
            .filter(|&(i, _)| i == 0 || !is_ident(text[..i].chars().next_back().unwrap()))
            .filter(|&(i, _)| !text[..i].ends_with(':'))
            .map(|(i, _)| i)
            .collect();
        for i in starts {
            let rest = &text[i..];
            let base: Module = if rest.starts_with("crate::") {
                Vec::new()
            } else if rest.starts_with("super::") {
                // `use super::` indented is inside an inline module (tests,
                // `mod feature { .. }`): it names this very file.
                let line = &text[text[..i].rfind('\n').map_or(0, |n| n + 1)..i];
                if line.starts_with(char::is_whitespace) && line.trim() == "use" {
                    continue;
                }
                module[..module.len().saturating_sub(1)].to_vec()
            } else {
                // A path to one of this module's own submodules.
                let name: String = rest.chars().take_while(|&c| is_ident(c)).collect();
                let mut child = module.clone();
                child.push(name.clone());
                if name.is_empty() || !rest[name.len()..].starts_with("::") {
                    continue;
                }
                if !files.contains_key(&child) {
                    continue;
                }
                module.clone()
            };
            let skip = if base.is_empty() && rest.starts_with("crate::") {
                "crate::".len()
            } else if rest.starts_with("super::") {
                "super::".len()
            } else {
                0
            };
            for path in paths_at(&text, i + skip) {
                let mut full = base.clone();
                full.extend(path);
                if let Some(target) = file_of(&full, files)
                    && target != *module
                {
                    targets.insert(target);
                }
            }
        }
        out.insert(module.clone(), targets);
    }
    out
}

fn name(m: &Module) -> String {
    if m.is_empty() {
        "lib".into()
    } else {
        m.join("/")
    }
}

fn layer(m: &Module) -> Option<usize> {
    let top = m.first()?;
    LAYERS.iter().position(|l| l.contains(&top.as_str()))
}

#[test]
fn no_import_goes_up_a_layer_and_no_two_files_import_each_other() {
    let files = modules();
    let graph = imports(&files);
    let mut faults = Vec::new();
    let mut known_seen = BTreeSet::new();
    for (a, targets) in &graph {
        for b in targets {
            if let (Some(la), Some(lb)) = (layer(a), layer(b))
                && la < lb
            {
                faults.push(format!(
                    "{} imports {} from a layer above",
                    name(a),
                    name(b)
                ));
            }
            if a < b && graph[b].contains(a) {
                let pair = (name(a), name(b));
                if KNOWN_MUTUAL.contains(&(pair.0.as_str(), pair.1.as_str())) {
                    known_seen.insert(pair);
                } else {
                    faults.push(format!("{} and {} import each other", pair.0, pair.1));
                }
            }
        }
    }
    for (a, b) in KNOWN_MUTUAL {
        if !known_seen.contains(&(a.to_string(), b.to_string())) {
            faults.push(format!(
                "{a} and {b} no longer import each other: drop them from KNOWN_MUTUAL"
            ));
        }
    }
    for module in files.keys() {
        if !module.is_empty() && layer(module).is_none() {
            faults.push(format!("{} is in no layer", name(module)));
        }
    }
    assert!(faults.is_empty(), "{}", faults.join("\n"));
}

#[test]
fn the_checker_sees_imports_of_every_form() {
    let mut files = BTreeMap::new();
    let m = |s: &str| -> Module {
        s.split('/')
            .filter(|x| !x.is_empty())
            .map(String::from)
            .collect()
    };
    files.insert(m("a"), "pub mod b;\nuse b::X;\n".to_string());
    files.insert(m("a/b"), "use super::{Y, c::Z};\n".to_string());
    files.insert(
        m("a/c"),
        "fn f() { crate::d::g() }\n#[cfg(test)]\nmod tests {\n    use crate::a::b;\n}\n"
            .to_string(),
    );
    files.insert(
        m("d"),
        "mod inline {\n    use super::*;\n}\n// crate::a::c\n".to_string(),
    );
    let graph = imports(&files);
    let set = |xs: &[&str]| xs.iter().map(|x| m(x)).collect::<BTreeSet<_>>();
    assert_eq!(graph[&m("a")], set(&["a/b"]));
    assert_eq!(graph[&m("a/b")], set(&["a", "a/c"]));
    assert_eq!(graph[&m("a/c")], set(&["d"]));
    assert_eq!(graph[&m("d")], set(&[]));
}
