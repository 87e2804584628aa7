//! The Kubernetes manifests under `deploy/`: parsed, checked against the
//! binary's command line, and their commands run on this machine the way the
//! Jobs' pods would run them (the tables' for two pod indices, the match's for
//! every index, then its merge).

use crate::common;

use common::BIN;
use doushou::rules::Rules;
use doushou::tb::{self, Material};
use std::path::PathBuf;
use std::process::Command;

/// The value after `key:` on the first line of `text` holding it (trimmed,
/// quotes and a trailing comment removed).
fn field<'a>(text: &'a str, key: &str) -> &'a str {
    let line = (text.lines())
        .find_map(|l| l.trim().strip_prefix(key))
        .unwrap_or_else(|| panic!("no {key} in the manifest"));
    let value = line.split(" #").next().unwrap().trim();
    value.trim_matches('"')
}

/// The shell line of the container (`args:` then one `- ` item).
fn shell_line(text: &str) -> &str {
    let mut lines = text.lines().skip_while(|l| l.trim() != "args:");
    lines.next();
    let item = lines.next().expect("an item under args:");
    item.trim().strip_prefix("- ").expect("args: a list item")
}

#[test]
fn the_five_piece_job_makes_one_material_per_pod() {
    let text = std::fs::read_to_string(
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("deploy/tb5-job.yaml"),
    )
    .unwrap();
    assert_eq!(field(&text, "kind:"), "Job");
    assert_eq!(field(&text, "completionMode:"), "Indexed");
    let pods: usize = field(&text, "completions:").parse().unwrap();
    // The materials: five pieces each, all different, one per pod.
    let materials: Vec<Material> = field(&text, "value:")
        .split(',')
        .map(|s| s.parse().unwrap_or_else(|e| panic!("{s}: {e}")))
        .collect();
    assert_eq!(materials.len(), pods);
    assert!(materials.iter().all(|m| m.count() == 5), "{materials:?}");
    let canonical: std::collections::HashSet<_> = materials.iter().map(|m| m.canonical()).collect();
    assert_eq!(canonical.len(), pods);
    let line = shell_line(&text);
    assert!(line.starts_with("doushou tb generate "), "{line}");
    assert!(line.contains(&format!("--shard env/{pods} ")), "{line}");
    assert!(line.contains("\"$MATERIALS\""), "{line}");

    // The same command for pods 0 and 1, into a local folder, with as many
    // 3-piece materials as the Job has pods (5-piece tables take minutes).
    let dir = std::env::temp_dir().join(format!("doushou-deploy-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let small = [
        "LRvt", "CRve", "ETvr", "LWvd", "TPvc", "EDvw", "LCvp", "TRve", "PWvl", "DCvt",
    ];
    let small = &small[..pods.min(small.len())];
    assert_eq!(small.len(), pods, "the test has a small material per pod");
    let local = line
        .replacen("doushou", BIN, 1)
        .replace("/tables", dir.to_str().unwrap());
    for index in [0, 1] {
        let out = Command::new("/bin/sh")
            .args(["-c", &local])
            .env("MATERIALS", small.join(","))
            .env("JOB_COMPLETION_INDEX", index.to_string())
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "pod {index}: {err}");
        assert!(err.contains("tables made"), "pod {index}: {err}");
    }
    // Pod i made the i-th block of the materials; both are in the folder and
    // load; the other pods' materials are not there yet.
    let named: Vec<Material> = small.iter().map(|s| s.parse().unwrap()).collect();
    let targets = tb::targets(None, &named);
    let file = |m: &Material| dir.join(tb::file_name(*m));
    for index in 0..pods {
        let mine = tb::shard_of(targets.clone(), (index, pods));
        assert_eq!(mine.len(), 1, "pod {index}: {mine:?}");
        assert_eq!(file(&mine[0]).exists(), index < 2, "pod {index}: {mine:?}");
    }
    let set = tb::TableSet::load(&dir, Rules::JUNGLE).unwrap();
    assert!(set.len() > 2);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The shell script of the first container: the folded (`- >-`) item under
/// `args:`, its lines joined by spaces as YAML folds them.
fn folded_script(text: &str) -> String {
    let mut lines = text.lines().skip_while(|l| l.trim() != "args:");
    lines.next();
    let first = lines.next().expect("an item under args:");
    assert_eq!(first.trim(), "- >-", "args: one folded item");
    let indent = first.len() - first.trim_start().len();
    lines
        .take_while(|l| l.len() - l.trim_start().len() > indent && !l.trim().is_empty())
        .map(str::trim)
        .collect::<Vec<_>>()
        .join(" ")
}

/// `script` with the value after `flag ` replaced by `value`.
fn with_value(script: &str, flag: &str, value: &str) -> String {
    let at = script
        .find(&format!("{flag} "))
        .unwrap_or_else(|| panic!("no {flag}"))
        + flag.len()
        + 1;
    let end = script[at..].find(' ').map_or(script.len(), |e| at + e);
    format!("{}{value}{}", &script[..at], &script[end..])
}

/// Runs `script` in `/bin/sh` as a pod with index `index` would.
fn run_pod(script: &str, index: Option<usize>) -> std::process::Output {
    let mut command = Command::new("/bin/sh");
    command.args(["-c", script]);
    if let Some(index) = index {
        command.env("JOB_COMPLETION_INDEX", index.to_string());
    }
    command.output().unwrap()
}

#[test]
fn the_match_job_plays_one_shard_per_pod_and_the_merge_job_makes_them_one() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("deploy");
    let job = std::fs::read_to_string(root.join("match-job.yaml")).unwrap();
    assert_eq!(field(&job, "kind:"), "Job");
    assert_eq!(field(&job, "completionMode:"), "Indexed");
    let pods: usize = field(&job, "completions:").parse().unwrap();
    let script = folded_script(&job);
    assert!(script.contains(&format!("--shard env/{pods} ")), "{script}");

    // Every pod's command on this machine: the records in a local folder,
    // one game pair a shard, a small search.
    let dir = std::env::temp_dir().join(format!("doushou-deploy-match-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let records = dir.to_str().unwrap();
    // The program, as a word or as an engine's command, is the binary here.
    let local = |script: &str| {
        let words: Vec<String> = script
            .split(' ')
            .map(|word| match word {
                "doushou" => BIN.to_string(),
                "cmd=doushou" => format!("cmd={BIN}"),
                _ => word.replace("/records", records),
            })
            .collect();
        words.join(" ")
    };
    let games = 2 * pods;
    let shard_script = with_value(
        &with_value(&local(&script), "--games", &games.to_string()),
        "--nodes",
        "300",
    );
    for index in 0..pods {
        let out = run_pod(&shard_script, Some(index));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "pod {index}: {err}");
    }
    // A pod run again resumes its shard: nothing left to play.
    let again = run_pod(&shard_script, Some(1));
    assert!(again.status.success());
    let table = String::from_utf8_lossy(&again.stdout);
    assert!(table.contains("2 of 2 games played (shard 1/8)"), "{table}");

    let merge = std::fs::read_to_string(root.join("match-merge-job.yaml")).unwrap();
    assert_eq!(field(&merge, "kind:"), "Job");
    let out = run_pod(&local(&folded_script(&merge)), None);
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        said.contains(&format!(
            "{games} of {games} games played (merged from {pods} of {pods} shards)"
        )),
        "{said}"
    );
    // The rating list of the two engines follows the match's table.
    assert!(
        said.contains(&format!("2 players, {games} games")),
        "{said}"
    );
    let record: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("match.json")).unwrap()).unwrap();
    assert_eq!(record["played"], games);
    let pgn = std::fs::read_to_string(dir.join("match.pgn")).unwrap();
    assert_eq!(pgn.matches("[Round ").count(), games);
    let _ = std::fs::remove_dir_all(&dir);
}
