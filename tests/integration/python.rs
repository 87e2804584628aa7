//! The Python package of `python/`: installed into a virtual environment the
//! way the README says (`pip install ./python`, maturin from PyPI), then its
//! pytest suite run against this build's binary, so that `cargo test` covers
//! it. The environment and the extension's build directory are kept under
//! `target/tmp/`, so a second run only rebuilds what changed; the extension
//! is built less optimised than a user's install (the suite checks what it
//! does, not how fast). Without a `python3`, or with `DOUSHOU_SKIP_PYTHON`
//! set, the test says so and passes.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The interpreter that makes the environment: `$PYTHON`, else `python3`.
fn python() -> Option<String> {
    let python = std::env::var("PYTHON").unwrap_or_else(|_| "python3".to_string());
    let works = Command::new(&python)
        .args(["-c", "import venv"])
        .output()
        .is_ok_and(|o| o.status.success());
    works.then_some(python)
}

/// Runs `command`, failing the test with its output if it fails.
fn run(command: &mut Command, what: &str) -> Output {
    let output = command
        .output()
        .unwrap_or_else(|e| panic!("{what}: cannot run {command:?}: {e}"));
    assert!(
        output.status.success(),
        "{what} failed ({}):\n--- stdout\n{}\n--- stderr\n{}",
        output.status,
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    output
}

/// The environment under `dir`, made (with maturin and pytest) if missing.
fn environment(python: &str, dir: &Path) -> PathBuf {
    let venv_python = dir.join("bin").join("python");
    // Written last: an environment left half made by a stopped run is made again.
    let ready = dir.join("doushou-tools-installed");
    if !ready.exists() {
        let _ = std::fs::remove_dir_all(dir);
        run(
            Command::new(python).arg("-m").arg("venv").arg(dir),
            "making the virtual environment",
        );
        run(
            Command::new(&venv_python).args([
                "-m",
                "pip",
                "install",
                "--quiet",
                "maturin>=1.5,<2",
                "pytest>=7",
            ]),
            "installing maturin and pytest from PyPI",
        );
        std::fs::write(&ready, "").expect("the environment's mark is written");
    }
    venv_python
}

#[test]
fn the_python_package_installs_and_its_suite_passes() {
    if std::env::var_os("DOUSHOU_SKIP_PYTHON").is_some() {
        eprintln!("SKIPPED: DOUSHOU_SKIP_PYTHON is set: the Python package is not tested");
        return;
    }
    let Some(python) = python() else {
        eprintln!(
            "SKIPPED: no python3 with venv on PATH (or $PYTHON): the Python package is not tested"
        );
        return;
    };
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let work = Path::new(env!("CARGO_TARGET_TMPDIR"));
    let venv_python = environment(&python, &work.join("python-venv"));
    // The README's install line, with the environment's own maturin (no
    // download per run; pip runs it by name, so its folder goes first on
    // PATH) and the extension's build kept between runs.
    let bin = venv_python
        .parent()
        .expect("the environment has a bin folder");
    let path = std::env::var_os("PATH").unwrap_or_default();
    let path = std::env::join_paths(
        std::iter::once(bin.to_path_buf()).chain(std::env::split_paths(&path)),
    )
    .expect("PATH joins");
    // Installed again only when a source it is built from has changed.
    let stamp = work.join("python-venv").join("doushou-sources");
    let sources = sources_fingerprint(root);
    if std::fs::read_to_string(&stamp).ok().as_deref() != Some(sources.as_str()) {
        run(
            Command::new(&venv_python)
                .args(["-m", "pip", "install", "--quiet", "--no-build-isolation"])
                .arg(root.join("python"))
                .env("PATH", &path)
                .env("CARGO_TARGET_DIR", work.join("python-build"))
                // The suite needs the extension's behaviour, not its speed:
                // a less optimised build in parallel units takes a fraction
                // of the release profile's time.
                .env("CARGO_PROFILE_RELEASE_OPT_LEVEL", "1")
                .env("CARGO_PROFILE_RELEASE_CODEGEN_UNITS", "16"),
            "pip install ./python",
        );
        std::fs::write(&stamp, &sources).expect("the sources' stamp is written");
    }
    let printed = run(
        Command::new(&venv_python).args(["-c", "import doushou; print(doushou.Board())"]),
        "printing the start position",
    );
    let shown = run(
        Command::new(env!("CARGO_BIN_EXE_doushou")).arg("show"),
        "doushou show",
    );
    assert_eq!(
        String::from_utf8_lossy(&printed.stdout),
        format!("{}\n", String::from_utf8_lossy(&shown.stdout))
    );
    let suite = run(
        Command::new(&venv_python)
            .args(["-m", "pytest", "-q", "-p", "no:cacheprovider"])
            .arg(root.join("python").join("tests"))
            .env("DOUSHOU_BIN", env!("CARGO_BIN_EXE_doushou"))
            .current_dir(work),
        "the pytest suite",
    );
    let summary = String::from_utf8_lossy(&suite.stdout);
    let last = summary.lines().last().unwrap_or("");
    assert!(
        last.contains("passed") && !last.contains("skipped") && !last.contains("failed"),
        "every test of the suite is to run and pass: {last}"
    );
    eprintln!("pytest: {last}");
}

/// A fingerprint of what the package is built from: every file of `src/`,
/// `python/` (its tests aside), `nets/` and the manifests, by path, length
/// and modification time.
fn sources_fingerprint(root: &Path) -> String {
    fn walk(dir: &Path, out: &mut Vec<String>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                if !path.ends_with("tests") && !path.ends_with("__pycache__") {
                    walk(&path, out);
                }
            } else if let Ok(meta) = entry.metadata() {
                let modified = meta
                    .modified()
                    .ok()
                    .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok());
                out.push(format!("{} {} {:?}", path.display(), meta.len(), modified));
            }
        }
    }
    let mut files = Vec::new();
    for dir in ["src", "python", "nets"] {
        walk(&root.join(dir), &mut files);
    }
    for file in ["Cargo.toml", "Cargo.lock"] {
        files.push(format!(
            "{:?}",
            std::fs::metadata(root.join(file)).map(|m| m.modified().ok())
        ));
    }
    files.sort();
    files.join("\n")
}
