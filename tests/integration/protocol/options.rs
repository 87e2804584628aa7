//! uci and the options.

use super::*;

/// The `option` lines of the engine's answer to `uci`.
fn uci_options(e: &mut EngineProcess) -> Vec<common::OptionLine> {
    e.send("uci");
    let lines = e.read_until(|l| l == "uciok");
    if !lines[0].starts_with("id name doushou") || !lines[1].starts_with("id author ") {
        e.fail("uci must begin with 'id name doushou ...' and 'id author ...'");
    }
    let options: Vec<_> = lines[2..lines.len() - 1]
        .iter()
        .map(|l| parse_option(l).unwrap_or_else(|m| e.fail(&format!("{m}: {l}"))))
        .collect();
    let names: BTreeSet<String> = options.iter().map(|o| o.name.to_lowercase()).collect();
    if names.len() != options.len() {
        e.fail("an option is listed twice");
    }
    options
}

#[test]
fn uci_lists_options_and_each_takes_its_values() {
    let mut e = EngineProcess::spawn();
    let options = uci_options(&mut e);
    let names: Vec<&str> = options.iter().map(|o| o.name.as_str()).collect();
    for must in ["Threads", "Hash", "MultiPV", "UCI_ShowWDL", "UCI_Variant"] {
        assert!(names.contains(&must), "uci does not list {must}: {names:?}");
    }
    for o in &options {
        let set = |v: &str| format!("setoption name {} value {v}", o.name);
        match o.kind.as_str() {
            "button" => e.quiet(&format!("setoption name {}", o.name)),
            "check" => {
                let d = o.default.clone().unwrap();
                let other = if d == "true" { "false" } else { "true" };
                e.quiet(&set(other));
                e.quiet(&set(&d));
                expect_error(&mut e, &set("maybe"));
            }
            "spin" => {
                let (min, max) = (o.min.unwrap(), o.max.unwrap());
                e.quiet(&set(o.default.as_ref().unwrap()));
                expect_error(&mut e, &set(&(min - 1).to_string()));
                expect_error(&mut e, &set(&(max + 1).to_string()));
                expect_error(&mut e, &set("twelve"));
            }
            "combo" => {
                for v in &o.vars {
                    e.quiet(&set(v));
                }
                e.quiet(&set(o.default.as_ref().unwrap()));
                expect_error(&mut e, &set("no-such-choice"));
            }
            _ => {}
        }
    }
    // debug on echoes each command read as an info string; off stops it.
    e.send("debug on");
    let lines = e.sync();
    if lines.is_empty() || !lines.iter().all(|l| l.starts_with("info string ")) {
        e.fail(&format!(
            "debug on: expected info string lines, got {lines:?}"
        ));
    }
    e.send("debug off");
    e.sync();
    e.quiet("ucinewgame");
    // Names are matched without regard to case.
    e.quiet("setoption name threads value 1");
    e.quiet("setoption name MULTIPV value 1");
    // Still the default rules after all that: the start position's 24 moves.
    assert_eq!(engine_moves(&mut e), legal_set(&game("startpos", &[])));
    e.finish();
}

#[test]
fn every_uci_option_is_documented_in_protocol_md() {
    let mut e = EngineProcess::spawn();
    let options = uci_options(&mut e);
    e.finish();
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/protocol.md");
    let doc = std::fs::read_to_string(path).unwrap_or_else(|err| panic!("{path}: {err}"));
    let missing: Vec<&str> = options
        .iter()
        .map(|o| o.name.as_str())
        .filter(|n| !doc.contains(&format!("`{n}`")))
        .collect();
    assert!(
        missing.is_empty(),
        "options printed by uci but not documented as `Name` in protocol.md: {missing:?}"
    );
}

/// protocol.md's option tables name exactly the options `uci` lists, in a
/// default build: none more (an option since removed), none fewer, and no
/// hidden `Search_*` switch or search parameter, which only a build with
/// the `tune` feature lists.
#[test]
fn protocol_md_lists_exactly_the_options_uci_lists() {
    let mut e = EngineProcess::spawn();
    let listed: BTreeSet<String> = uci_options(&mut e).into_iter().map(|o| o.name).collect();
    e.finish();
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/protocol.md");
    let doc = std::fs::read_to_string(path).unwrap_or_else(|err| panic!("{path}: {err}"));
    let section = doc
        .split("\n## ")
        .find(|s| s.starts_with("Options"))
        .expect("protocol.md has an Options section");
    let documented: BTreeSet<String> = section
        .lines()
        .filter_map(|l| l.strip_prefix("| `"))
        .filter_map(|l| l.split_once('`'))
        .map(|(name, _)| name.to_string())
        .collect();
    assert_eq!(documented, listed);
    assert!(
        !listed
            .iter()
            .any(|n| n.starts_with("Search_") || n == "LMR_BASE_X100"),
        "{listed:?}"
    );
}
