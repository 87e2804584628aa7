"""Endgame tables made by the binary, opened and probed from Python."""

import pytest

import doushou
import doushou.tablebase


@pytest.fixture(scope="session")
def tables(run_doushou, tmp_path_factory):
    out = tmp_path_factory.mktemp("tb")
    run_doushou("tb", "generate", "--material", "Lvr", "--out", str(out))
    return out


def test_open_and_probe_as_the_binary_does(tables, run_doushou):
    tb = doushou.tablebase.open_tablebase(str(tables))
    assert len(tb) >= 1 and tb.max_pieces == 2
    assert "Lvr" in tb.materials()
    fens = [
        "7/7/7/7/3r3/7/7/2L4/7 w 0 1",
        "7/7/7/7/3r3/7/7/2L4/7 b 0 1",
        "r6/7/7/7/7/7/7/7/6L w 0 1",
        "3E3/7/7/7/7/7/7/7/l6 b 0 1",
    ]
    expected = run_doushou("tb", "probe", "--path", str(tables), *fens).splitlines()
    got = [tb.probe(doushou.Board(f)) for f in fens]
    assert [str(v) if v else "none" for v in got] == [line.split(": ")[-1] if ": " in line else line for line in expected]
    verdict = got[0]
    assert verdict.kind in ("win", "loss", "draw") and str(verdict).startswith(verdict.kind)
    assert got[3].kind == "loss" and got[3].plies == 0
    assert tb.probe_many([doushou.Board(f) for f in fens]) == got
    # A material no table holds.
    assert tb.probe(doushou.Board()) is None


def test_boards_under_other_rules_and_missing_tables_raise(tables, tmp_path):
    tb = doushou.tablebase.open_tablebase(tables)
    with pytest.raises(doushou.tablebase.TablebaseError, match="other rules"):
        tb.probe(doushou.Board("7/7/7/7/3r3/7/7/2L4/7 w 0 1", variant="xoudouqi"))
    # Repetition and the no-capture limit are no part of a table's rules.
    assert tb.probe(doushou.Board("7/7/7/7/3r3/7/7/2L4/7 w 0 1", rules={"Repetition": "draw"})) is not None
    with pytest.raises(doushou.tablebase.TablebaseError, match="no table files"):
        doushou.tablebase.open_tablebase(tmp_path)
    with pytest.raises(doushou.tablebase.TablebaseError):
        doushou.tablebase.open_tablebase(tmp_path / "missing")
