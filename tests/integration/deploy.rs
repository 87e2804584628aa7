//! The Kubernetes manifests under `deploy/`: parsed, checked against the
//! binary's command line, and their command run for two pod indices on this
//! machine, the way the Job's pods would run it.

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
