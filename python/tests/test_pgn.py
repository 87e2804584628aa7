"""Records: games that `doushou match` wrote read back and write out equal."""

import io

import pytest

import doushou
import doushou.pgn


@pytest.fixture(scope="session")
def match_pgn(run_doushou, doushou_bin, tmp_path_factory):
    """The record file of a short `doushou match` (2 games at depth 1)."""
    out = tmp_path_factory.mktemp("match") / "games.pgn"
    run_doushou(
        "match",
        "--engine", "name=one", f"cmd={doushou_bin}",
        "--engine", "name=two", f"cmd={doushou_bin}",
        "--depth", "1", "--games", "2", "--concurrency", "1",
        "--pgn", str(out),
    )
    return out


def test_a_match_record_reads_and_writes_back_equal(match_pgn):
    text = match_pgn.read_text()
    games = doushou.pgn.read_games(str(match_pgn))
    assert len(games) == 2
    for game in games:
        assert game.headers["Event"] == "doushou match"
        assert {game.headers["Red"], game.headers["Blue"]} == {"one", "two"}
        assert game.result in ("1-0", "0-1", "1/2-1/2")
        assert game.termination
        end = game.end()
        # The game was played to its end: the record's result is the board's.
        assert end.outcome() is not None and end.outcome().result() == game.result
        assert str(end.outcome()) == game.termination
        assert len(end.move_stack) == len(game.moves) > 0
    written = "".join(doushou.pgn.write_game(g) for g in games)
    assert written == text
    assert doushou.pgn.parse_games(written) == games
    with open(match_pgn) as handle:
        assert doushou.pgn.read_games(handle) == games


def test_a_game_from_a_board_writes_the_matchs_tags_and_reads_back():
    board = doushou.Board(variant="xoudouqi")
    for uci in ["g3g4", "a7a6", "g4g5"]:
        board.push_uci(uci)
    game = doushou.pgn.Game.from_board(board, event="analysis", red="me", blue="you")
    names = list(game.headers)
    assert names[:9] == ["Event", "Site", "Date", "Round", "White", "Black", "Result", "Red", "Blue"]
    assert game.headers["Variant"] == "xoudouqi" and game.headers["FEN"] == board.root().fen()
    assert game.result == "*" and game.termination is None
    game.comments = [(1, "a quiet start"), (3, "end of the line")]
    text = str(game)
    assert "1. g3g4 {a quiet start} 1... a7a6 2. g4g5 {end of the line} *" in text
    back = doushou.pgn.parse_games(text)
    assert back == [game]
    assert back[0].end() == board
    assert back[0].board().variant == "xoudouqi"
    sink = io.StringIO()
    assert doushou.pgn.write_game(game, sink) == sink.getvalue() == text


def test_a_finished_game_records_its_result_and_termination():
    board = doushou.Board("7/7/7/7/7/7/7/3l3/6E b 0 1")
    board.push_uci("d2d1")
    game = doushou.pgn.Game.from_board(board)
    assert game.result == "0-1"
    assert game.termination == "blue wins: a piece entered the red den"


def test_one_line_games_and_faulty_records():
    games = doushou.pgn.parse_games("startpos moves g3g4 a7a6\n")
    assert [m.uci() for m in games[0].moves] == ["g3g4", "a7a6"] and games[0].line == 1
    with pytest.raises(doushou.pgn.PgnError) as e:
        doushou.pgn.parse_games('[Event "x"]\n\n1. g3g4 g3g4 *\n')
    assert isinstance(e.value, ValueError)
    assert str(e.value).startswith("line 3: ply 2: illegal move g3g4")
    with pytest.raises(doushou.pgn.PgnError, match="line 1: tag Rules"):
        doushou.pgn.parse_games('[Rules "Nope=1"]\n\n*\n')
    assert doushou.pgn.parse_games("") == []
