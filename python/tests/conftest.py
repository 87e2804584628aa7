"""Shared fixtures: the doushou binary (engine, perft reference, table and
match-record maker). `cargo test` passes it as DOUSHOU_BIN; run by hand,
pytest looks for a built one in the repository's target/."""

import os
import pathlib
import shutil
import subprocess

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]


def _find_binary():
    env = os.environ.get("DOUSHOU_BIN")
    if env:
        return env
    for profile in ("release", "debug"):
        path = REPO / "target" / profile / "doushou"
        if path.exists():
            return str(path)
    return shutil.which("doushou")


@pytest.fixture(scope="session")
def doushou_bin():
    """The path of a doushou binary; the test is skipped, saying so, without one."""
    path = _find_binary()
    if path is None:
        pytest.skip("no doushou binary: set DOUSHOU_BIN or run `cargo build --release`")
    return path


@pytest.fixture(scope="session")
def run_doushou(doushou_bin):
    """Runs the binary with arguments and answers its stdout."""

    def run(*args, **kwargs):
        done = subprocess.run(
            [doushou_bin, *args], capture_output=True, text=True, timeout=300, **kwargs
        )
        assert done.returncode == 0, done.stderr
        return done.stdout

    return run
