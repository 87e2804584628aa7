"""The board, moves, pieces and squares: every call of the Board API."""

import copy
import random
import subprocess
import sys

import pytest

import doushou

START = "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w 0 1"


def test_the_default_board_is_the_start_position_and_prints_as_doushou_show(run_doushou):
    board = doushou.Board()
    assert board.fen() == START == doushou.STARTING_FEN
    assert str(board) == run_doushou("show", START)
    assert repr(board) == f"Board('{START}')"
    printed = subprocess.run(
        [sys.executable, "-c", "import doushou; print(doushou.Board())"],
        capture_output=True, text=True, check=True,
    ).stdout
    assert printed == str(board) + "\n"


def test_squares_by_name():
    assert doushou.A1 == 0 and doushou.G1 == 6 and doushou.A2 == 7 and doushou.G9 == 62
    assert len(doushou.SQUARES) == 63 and doushou.SQUARE_NAMES[doushou.D9] == "d9"
    assert doushou.parse_square("g3") == doushou.G3
    assert doushou.square_name(doushou.C7) == "c7"
    assert doushou.square(2, 6) == doushou.C7
    assert (doushou.square_file(doushou.C7), doushou.square_rank(doushou.C7)) == (2, 6)
    with pytest.raises(ValueError, match="z9"):
        doushou.parse_square("z9")
    with pytest.raises(ValueError, match="off the board"):
        doushou.square_name(63)


def test_moves_from_uci_and_squares():
    m = doushou.Move.from_uci("g3g4")
    assert (m.from_square, m.to_square) == (doushou.G3, doushou.G4)
    assert m.uci() == str(m) == "g3g4"
    assert m == doushou.Move(doushou.G3, doushou.G4) and hash(m) == hash(doushou.Move(doushou.G3, doushou.G4))
    assert repr(m) == "Move.from_uci('g3g4')"
    assert not doushou.Move.null() and doushou.Move.null().uci() == "0000"
    assert {m, doushou.Move.from_uci("g3g4")} == {m}
    for bad in ["g3", "g3g3", "z1a1", "g3g44", ""]:
        with pytest.raises(doushou.InvalidMoveError) as e:
            doushou.Move.from_uci(bad)
        assert isinstance(e.value, ValueError)
        assert f"'{bad}' is not a move" in str(e.value)


def test_legal_moves_push_pop_and_the_turn():
    board = doushou.Board()
    moves = board.legal_moves
    assert len(moves) == 24
    assert doushou.Move.from_uci("g3g4") in moves
    assert board.turn == doushou.RED and board.turn is True
    before = board.copy()
    board.push(doushou.Move.from_uci("g3g4"))
    assert board.turn == doushou.BLUE
    assert board.push_uci("a7a6") == doushou.Move.from_uci("a7a6")
    assert [m.uci() for m in board.move_stack] == ["g3g4", "a7a6"]
    assert board.peek().uci() == "a7a6" and board.ply() == 2
    assert board.fullmove_number == 2 and board.plies_since_capture == 2
    assert board.root() == before
    assert board.pop().uci() == "a7a6"
    assert board.pop().uci() == "g3g4"
    assert board == before
    with pytest.raises(IndexError):
        board.pop()


def test_illegal_moves_raise_with_the_reason_and_change_nothing():
    board = doushou.Board()
    fen = board.fen()
    cases = [
        ("a7a6", "the piece on a7 is not red's"),
        ("d4d5", "no piece on d4"),
        ("g3g5", "the rules do not allow it"),
    ]
    for uci, why in cases:
        assert not board.is_legal(doushou.Move.from_uci(uci))
        with pytest.raises(doushou.IllegalMoveError) as e:
            board.push_uci(uci)
        assert isinstance(e.value, ValueError)
        assert str(e.value) == f"illegal move {uci}: {why}"
        with pytest.raises(doushou.IllegalMoveError):
            board.push(doushou.Move.from_uci(uci))
    with pytest.raises(doushou.InvalidMoveError, match="'xx' is not a move"):
        board.push_uci("xx")
    assert not board.is_legal(doushou.Move.null())
    with pytest.raises(doushou.IllegalMoveError, match="null move"):
        board.push(doushou.Move.null())
    with pytest.raises(TypeError):
        board.push("g3g4")
    assert board.fen() == fen and board.move_stack == []


@pytest.mark.parametrize(
    "fen, message",
    [
        ("", "empty position"),
        ("7/7/7 w", "board field has 3 ranks, expected 9 separated by '/'"),
        ("l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L x", "side to move 'x': expected w, r or b"),
        ("l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5X w", "rank 1: unknown character 'X'"),
        ("l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w 0 0", "move number '0' is not a number in range"),
    ],
)
def test_bad_fens_raise_value_errors_with_the_rules_message(fen, message):
    with pytest.raises(doushou.InvalidFenError) as e:
        doushou.Board(fen)
    assert isinstance(e.value, ValueError)
    assert message in str(e.value)


def test_bad_rule_names_and_values_raise_value_errors():
    with pytest.raises(doushou.InvalidRuleError, match="unknown variant 'chess'"):
        doushou.Board(variant="chess")
    with pytest.raises(doushou.InvalidRuleError) as e:
        doushou.Board(rules={"NoSuchRule": True})
    assert isinstance(e.value, ValueError) and "NoSuchRule" in str(e.value)
    with pytest.raises(doushou.InvalidRuleError, match="TigerJump"):
        doushou.Board(rules={"TigerJump": "horizontal"})
    with pytest.raises(doushou.InvalidRuleError, match="NoCaptureLimit"):
        doushou.Board(rules="NoCaptureLimit=-3")
    with pytest.raises(TypeError):
        doushou.Board(rules=[1, 2])


def test_variants_and_rules():
    board = doushou.Board(variant="xoudouqi")
    assert board.variant == "xoudouqi"
    assert board.rules["DogOverWolf"] is True and board.rules["NoCaptureLimit"] == 100
    custom = doushou.Board(rules={"Repetition": "draw", "NoCaptureLimit": 40})
    assert custom.variant == "custom"
    assert custom.rules["Repetition"] == "draw" and custom.rules["NoCaptureLimit"] == 40
    assert doushou.Board(rules="Repetition=draw NoCaptureLimit=40") == custom
    assert custom != doushou.Board()
    assert repr(board) == f"Board('{START}', variant='xoudouqi')"


def test_pieces():
    board = doushou.Board()
    lion = board.piece_at(doushou.A9)
    assert lion == doushou.Piece(doushou.LION, doushou.BLUE) == doushou.Piece.from_symbol("l")
    assert lion.animal == doushou.LION and lion.color == doushou.BLUE
    assert lion.symbol() == str(lion) == "l" and lion.animal_name() == "lion"
    assert board.piece_at(doushou.D5) is None
    assert board.piece_moved(doushou.Move.from_uci("g3g4")) == doushou.Piece.from_symbol("R")
    assert hash(lion) == hash(doushou.Piece.from_symbol("l"))
    with pytest.raises(ValueError):
        board.piece_at(99)
    with pytest.raises(ValueError):
        doushou.Piece.from_symbol("x")


def test_outcomes_of_each_kind():
    den = doushou.Board("3E3/7/7/7/7/7/7/7/l6 b 0 1")
    o = den.outcome()
    assert den.is_game_over()
    assert (o.termination, o.winner, o.result()) == (doushou.Termination.DEN, doushou.RED, "1-0")
    assert str(o) == "red wins: a piece entered the blue den"
    no_pieces = doushou.Board("7/7/7/7/7/7/7/7/1E5 b 0 1").outcome()
    assert (no_pieces.termination, no_pieces.winner) == (doushou.Termination.NO_PIECES, doushou.RED)
    limit = doushou.Board("l6/7/7/7/7/7/7/7/6L w 100 60").outcome()
    assert (limit.termination, limit.winner, limit.result()) == (doushou.Termination.NO_CAPTURE_LIMIT, None, "1/2-1/2")
    assert doushou.Board().outcome() is None and not doushou.Board().is_game_over()
    # Repetition=draw: the third occurrence of the start position draws.
    board = doushou.Board(rules={"Repetition": "draw"})
    for _ in range(2):
        for uci in ["g3g4", "a7a6", "g4g3", "a6a7"]:
            board.push_uci(uci)
    assert board.outcome().termination == doushou.Termination.REPETITION
    # Repetition=forbid (the default) takes the repeating move away instead.
    board = doushou.Board()
    for uci in ["g3g4", "a7a6", "g4g3", "a6a7", "g3g4", "a7a6", "g4g3"]:
        board.push_uci(uci)
    assert board.outcome() is None
    assert doushou.Move.from_uci("a6a7") not in board.legal_moves
    with pytest.raises(doushou.IllegalMoveError, match="third time"):
        board.push_uci("a6a7")


def test_no_moves_loses():
    # A lone blue rat in the corner, boxed in by animals it cannot take.
    board = doushou.Board("7/7/7/7/7/7/7/W6/rD5 b 0 1")
    assert board.legal_moves == []
    o = board.outcome()
    assert (o.termination, o.winner) == (doushou.Termination.NO_MOVES, doushou.RED)


def test_copy_equality_and_hashing():
    a = doushou.Board()
    b = a.copy()
    assert a == b and hash(a) == hash(b) and a is not b
    b.push_uci("g3g4")
    assert a != b and a.fen() == START
    assert copy.copy(b) == b and copy.deepcopy(b) == b
    assert len({a, a.copy(), b}) == 2
    assert a != "not a board"


def test_zobrist_hash_is_the_engines_key(doushou_bin):
    board = doushou.Board()
    board.push_uci("g3g4")
    out = subprocess.run(
        [doushou_bin], input="position startpos moves g3g4\nd\nquit\n",
        capture_output=True, text=True, timeout=30,
    ).stdout
    key = next(l.split()[1] for l in out.splitlines() if l.startswith("Key:"))
    assert board.zobrist_hash() == int(key, 16)
    assert board.zobrist_hash() != doushou.Board().zobrist_hash()


def test_svg_pictures():
    board = doushou.Board()
    svg = board._repr_svg_()
    assert svg.startswith("<svg") and svg.rstrip().endswith("</svg>")
    assert f'data-fen="{START}"' in svg
    assert svg.count("data-piece=") == 16
    full = board.svg(arrow=doushou.Move.from_uci("g3g4"))
    assert full.startswith("<?xml") and "arrowhead" in full and full.count("<line") >= 1


def test_perft_equals_the_binarys_to_depth_5(run_doushou):
    board = doushou.Board()
    for depth in range(1, 6):
        expected = int(run_doushou("perft", str(depth)).split()[-1])
        assert board.perft(depth) == expected
    assert board.perft(4, threads=2) == board.perft(4)
    after = doushou.Board()
    after.push_uci("g3g4")
    expected = int(run_doushou("perft", "4", "--moves", "g3g4").split()[-1])
    assert after.perft(4) == expected


def test_perft_releases_the_interpreter_lock():
    import threading

    ticks = []
    stop = threading.Event()

    def tick():
        while not stop.is_set():
            ticks.append(1)
            stop.wait(0.001)

    t = threading.Thread(target=tick)
    t.start()
    doushou.Board().perft(5)
    stop.set()
    t.join()
    # With the lock held for the whole count the thread could not have run.
    assert len(ticks) > 5


def _random_boards(rules, games=6, plies=60, seed=1):
    rng = random.Random(seed)
    for _ in range(games):
        board = doushou.Board(rules=rules)
        for _ in range(plies):
            moves = board.legal_moves
            if not moves or board.is_game_over():
                break
            board.push(rng.choice(moves))
            yield board


def _every_switch_setting():
    base = doushou.Board().rules
    yield {}
    for name, value in base.items():
        if isinstance(value, bool):
            yield {name: not value}
        elif isinstance(value, int):
            yield {name: 6}
        else:
            choices = {
                "TigerJump": ["both", "vertical", "none"],
                "LionJump": ["both", "vertical", "horizontal", "none"],
                "JumpBlockedBy": ["any", "enemy"],
                "Repetition": ["forbid", "draw", "none"],
            }[name]
            for choice in choices:
                if choice != value:
                    yield {name: choice}


@pytest.mark.parametrize("rules", list(_every_switch_setting()), ids=str)
def test_fen_round_trips_under_every_rule_switch(rules):
    for board in _random_boards(rules):
        again = doushou.Board(board.fen(), rules=rules)
        assert again.fen() == board.fen()
        assert again.zobrist_hash() == board.zobrist_hash()
        assert again.rules == board.rules
        if board.rules["Repetition"] != "forbid":
            # Only repetition depends on the history the FEN leaves out.
            assert again.legal_moves == board.legal_moves
    for variant in doushou.VARIANTS:
        b = doushou.Board(variant=variant, rules=rules)
        assert doushou.Board(b.fen(), variant=variant, rules=rules) == b
