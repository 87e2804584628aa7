//! The layout the README promises, read from the source: no import goes up a
//! layer, and no files import each other in a cycle, of two files or more
//! (inside a folder or across).
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

/// The byte ranges of the inline modules (`mod name { .. }`) of `text`,
/// their braces matched outside string and character literals.
fn inline_modules(text: &str) -> Vec<std::ops::Range<usize>> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(at) = text[from..].find("mod ").map(|n| from + n) {
        from = at + 4;
        if at > 0 && is_ident(bytes[at - 1] as char) {
            continue;
        }
        let after = text[from..].trim_start_matches(is_ident).trim_start();
        if !after.starts_with('{') {
            continue;
        }
        let open = text.len() - after.len();
        let (mut depth, mut in_string, mut escaped) = (0usize, false, false);
        for (k, c) in text[open..].char_indices() {
            match c {
                _ if escaped => escaped = false,
                '\\' if in_string => escaped = true,
                '"' => in_string = !in_string,
                '{' | '}' if in_string => {}
                '{' | '}' if text[..open + k].ends_with('\'') => {}
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        out.push(open..open + k);
                        break;
                    }
                }
                _ => {}
            }
        }
    }
    out
}

/// The files each module imports.
fn imports(files: &BTreeMap<Module, String>) -> BTreeMap<Module, BTreeSet<Module>> {
    let mut out = BTreeMap::new();
    for (module, text) in files {
        let text = code(text);
        let inline = inline_modules(&text);
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
                // Inside an inline module (`mod x86 { .. }`), `super::`
                // names this very file.
                if inline.iter().any(|r| r.contains(&i)) {
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

/// The import cycles of `graph`: each set of two modules or more that all
/// reach each other (a strongly connected component, by Tarjan's
/// algorithm), as one cycle through its smallest module.
fn cycles(graph: &BTreeMap<Module, BTreeSet<Module>>) -> Vec<Vec<Module>> {
    struct Tarjan<'a> {
        graph: &'a BTreeMap<Module, BTreeSet<Module>>,
        index: BTreeMap<&'a Module, usize>,
        low: BTreeMap<&'a Module, usize>,
        stack: Vec<&'a Module>,
        on_stack: BTreeSet<&'a Module>,
        components: Vec<BTreeSet<Module>>,
    }
    impl<'a> Tarjan<'a> {
        fn visit(&mut self, v: &'a Module) {
            let i = self.index.len();
            self.index.insert(v, i);
            self.low.insert(v, i);
            self.stack.push(v);
            self.on_stack.insert(v);
            for w in self.graph.get(v).into_iter().flatten() {
                if !self.index.contains_key(w) {
                    self.visit(w);
                    let low = self.low[v].min(self.low[w]);
                    self.low.insert(v, low);
                } else if self.on_stack.contains(w) {
                    let low = self.low[v].min(self.index[w]);
                    self.low.insert(v, low);
                }
            }
            if self.low[v] == self.index[v] {
                let mut component = BTreeSet::new();
                loop {
                    let w = self.stack.pop().expect("v is on the stack");
                    self.on_stack.remove(w);
                    component.insert(w.clone());
                    if w == v {
                        break;
                    }
                }
                if component.len() > 1 {
                    self.components.push(component);
                }
            }
        }
    }
    let mut tarjan = Tarjan {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        components: Vec::new(),
    };
    for v in graph.keys() {
        if !tarjan.index.contains_key(v) {
            tarjan.visit(v);
        }
    }
    tarjan
        .components
        .iter()
        .map(|component| cycle_through(graph, component))
        .collect()
}

/// A shortest cycle through the smallest module of `component`, staying in
/// it (breadth first, so the message names few files).
fn cycle_through(
    graph: &BTreeMap<Module, BTreeSet<Module>>,
    component: &BTreeSet<Module>,
) -> Vec<Module> {
    let start = component.first().expect("a component has a module");
    let mut came_from: BTreeMap<&Module, &Module> = BTreeMap::new();
    let mut queue = std::collections::VecDeque::from([start]);
    while let Some(v) = queue.pop_front() {
        for w in graph[v].iter().filter(|w| component.contains(*w)) {
            if w == start {
                let mut path = vec![v.clone()];
                while let Some(&prev) = came_from.get(path.last().unwrap()) {
                    path.push(prev.clone());
                }
                path.reverse();
                return path;
            }
            if !came_from.contains_key(w) {
                came_from.insert(w, v);
                queue.push_back(w);
            }
        }
    }
    unreachable!("every module of a component reaches every other")
}

#[test]
fn no_import_goes_up_a_layer_and_no_files_import_each_other_in_a_cycle() {
    let files = modules();
    let graph = imports(&files);
    let mut faults = Vec::new();
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
        }
    }
    for cycle in cycles(&graph) {
        let names: Vec<String> = cycle.iter().chain(cycle.first()).map(name).collect();
        faults.push(format!("an import cycle: {}", names.join(" -> ")));
    }
    for module in files.keys() {
        if !module.is_empty() && layer(module).is_none() {
            faults.push(format!("{} is in no layer", name(module)));
        }
    }
    assert!(faults.is_empty(), "{}", faults.join("\n"));
}

#[test]
fn the_cycle_finder_finds_cycles_of_any_length_and_only_those() {
    let m = |s: &str| -> Module { vec![s.to_string()] };
    let graph_of = |edges: &[(&str, &str)]| {
        let mut graph: BTreeMap<Module, BTreeSet<Module>> = BTreeMap::new();
        for &(a, b) in edges {
            graph.entry(m(a)).or_default().insert(m(b));
            graph.entry(m(b)).or_default();
        }
        graph
    };
    // A chain and a diamond: no cycle.
    let dag = graph_of(&[("a", "b"), ("b", "c"), ("a", "c"), ("c", "d"), ("b", "d")]);
    assert!(cycles(&dag).is_empty());
    // Two files.
    let two = graph_of(&[("a", "b"), ("b", "a"), ("b", "c")]);
    assert_eq!(cycles(&two), [vec![m("a"), m("b")]]);
    // Three files, and a separate cycle of four with a shortcut.
    let longer = graph_of(&[
        ("a", "b"),
        ("b", "c"),
        ("c", "a"),
        ("p", "q"),
        ("q", "r"),
        ("r", "s"),
        ("s", "p"),
        ("q", "s"),
        ("s", "x"),
    ]);
    let mut found = cycles(&longer);
    found.sort();
    assert_eq!(
        found,
        [vec![m("a"), m("b"), m("c")], vec![m("p"), m("q"), m("s")]]
    );
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
    // `super::` in an inline module's code names this file; after it, the
    // parent again (a brace in a string does not end the module early).
    files.insert(
        m("a/e"),
        "mod x86 {\n    fn f() { let _ = \"}\"; super::g(); }\n}\nuse super::b::W;\n".to_string(),
    );
    let graph = imports(&files);
    let set = |xs: &[&str]| xs.iter().map(|x| m(x)).collect::<BTreeSet<_>>();
    assert_eq!(graph[&m("a")], set(&["a/b"]));
    assert_eq!(graph[&m("a/b")], set(&["a", "a/c"]));
    assert_eq!(graph[&m("a/c")], set(&["d"]));
    assert_eq!(graph[&m("d")], set(&[]));
    assert_eq!(graph[&m("a/e")], set(&["a/b"]));
}
