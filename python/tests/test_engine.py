"""SimpleEngine over the doushou binary: play, analyse, options, failures."""

import os
import signal
import sys
import textwrap
import threading
import time

import pytest

import doushou
from doushou.engine import EngineError, EngineTerminatedError, Limit, SimpleEngine


@pytest.fixture
def engine(doushou_bin):
    with SimpleEngine.popen([doushou_bin], timeout=20) as e:
        yield e
    assert e.process.poll() is not None, "the context manager ends the process"


def test_handshake_and_options(engine):
    assert engine.id["name"].startswith("doushou")
    assert engine.options["Hash"].type == "spin" and engine.options["Hash"].min == 1
    assert "linear" in engine.options["Eval"].var
    engine.configure({"Hash": 8, "Threads": 1})
    with pytest.raises(EngineError, match="Hash"):
        engine.configure({"Hash": "lots"})


def test_the_engine_plays_a_game_against_itself_to_the_end(engine):
    board = doushou.Board()
    while not board.is_game_over():
        result = engine.play(board, Limit(depth=1, nodes=300))
        assert result.move in board.legal_moves
        board.push(result.move)
        assert board.ply() < 400
    assert board.outcome() is not None
    # On a finished game the engine answers no move.
    assert engine.play(board, Limit(depth=1)).move is None


def test_play_sends_the_rules_and_history(engine):
    board = doushou.Board(variant="xoudouqi", rules={"Repetition": "draw"})
    board.push_uci("g3g4")
    result = engine.play(board, Limit(time=0.05))
    assert result.move in board.legal_moves
    assert result.info["score"].turn == doushou.BLUE


def test_analyse_with_multipv_3(engine):
    board = doushou.Board()
    lines = engine.analyse(board, Limit(depth=4), multipv=3)
    assert len(lines) == 3
    assert [info["multipv"] for info in lines] == [1, 2, 3]
    firsts = [info["pv"][0] for info in lines]
    assert len(set(firsts)) == 3 and all(m in board.legal_moves for m in firsts)
    scores = [info["score"].relative.score(mate_score=100000) for info in lines]
    assert scores == sorted(scores, reverse=True)
    assert all(info["depth"] == 4 for info in lines)
    one = engine.analyse(board, Limit(depth=3))
    assert isinstance(one, dict) and one["pv"] and one["score"].red() == one["score"].relative
    assert -one["score"].relative == one["score"].blue()


def test_scores_of_a_won_game_are_mates(engine):
    board = doushou.Board("7/7/7/7/7/7/7/3l3/6E b 0 1")
    info = engine.analyse(board, Limit(depth=3))
    assert info["score"].relative == doushou.engine.Mate(1)
    assert info["score"].red() == doushou.engine.Mate(-1)
    assert info["pv"][0].uci() == "d2d1"


def test_a_killed_engine_raises_within_its_timeout(doushou_bin):
    engine = SimpleEngine.popen([doushou_bin], timeout=5)
    killer = threading.Timer(0.5, lambda: os.kill(engine.process.pid, signal.SIGKILL))
    killer.start()
    start = time.monotonic()
    with pytest.raises(EngineTerminatedError) as e:
        engine.play(doushou.Board(), Limit(time=30))
    assert time.monotonic() - start < 5
    assert isinstance(e.value, EngineError) and "exit code" in str(e.value)
    with pytest.raises(EngineError):
        engine.play(doushou.Board(), Limit(depth=1))
    engine.quit()
    killer.cancel()


def test_a_silent_engine_raises_when_its_time_is_up(tmp_path):
    # Answers the handshake, then never answers `go`.
    script = tmp_path / "silent.py"
    script.write_text(textwrap.dedent("""
        import sys
        for line in sys.stdin:
            word = line.split()[0] if line.split() else ""
            if word == "uci":
                print("id name silent", flush=True)
                print("uciok", flush=True)
            elif word == "isready":
                print("readyok", flush=True)
            elif word == "quit":
                break
    """))
    with SimpleEngine.popen([sys.executable, str(script)], timeout=1) as engine:
        start = time.monotonic()
        with pytest.raises(EngineError, match="no bestmove within 1.2 s"):
            engine.play(doushou.Board(), Limit(time=0.2))
        assert time.monotonic() - start < 1.2 + 2 * doushou.engine.STOP_GRACE + 1
    assert engine.process.poll() is not None


def test_a_missing_engine_and_a_bad_limit():
    with pytest.raises(EngineTerminatedError, match="cannot start"):
        SimpleEngine.popen(["/nonexistent/engine"])
    with pytest.raises(ValueError, match="Limit needs"):
        Limit().words()
    with pytest.raises(EngineTerminatedError):
        SimpleEngine.popen([sys.executable, "-c", "pass"], timeout=5)
