"""Dou Shou Qi (Jungle chess) for Python, shaped like python-chess.

The rules under every switch, the notation, SVG pictures, game records,
endgame tables and a driver for any engine that speaks the doushou protocol.
The board, moves and records are the doushou Rust crate's own code, so they
agree with ``doushou perft``, ``doushou match`` and the GUI.

>>> import doushou
>>> board = doushou.Board()
>>> board.push_uci("g3g4")
Move.from_uci('g3g4')
>>> board.turn == doushou.BLUE
True

Submodules: :mod:`doushou.pgn` (records), :mod:`doushou.engine` (engines),
:mod:`doushou.tablebase` (endgame tables).
"""

from ._doushou import (
    BLUE,
    FILES,
    RANKS,
    RED,
    STARTING_FEN,
    VARIANTS,
    Board,
    IllegalMoveError,
    InvalidFenError,
    InvalidMoveError,
    InvalidRuleError,
    Move,
    Outcome,
    Piece,
    Termination,
    parse_square,
    square_name,
)

#: The animals by their default rank, as ``Piece.animal`` gives them.
RAT, CAT, DOG, WOLF, PANTHER, TIGER, LION, ELEPHANT = range(1, 9)

#: The animals' names, indexed by ``Piece.animal`` (index 0 unused).
ANIMAL_NAMES = [None, "rat", "cat", "dog", "wolf", "panther", "tiger", "lion", "elephant"]

#: The names of the files, left to right, and of the ranks, Red's side first.
FILE_NAMES = ["a", "b", "c", "d", "e", "f", "g"]
RANK_NAMES = ["1", "2", "3", "4", "5", "6", "7", "8", "9"]

#: Every square's name, by index: ``SQUARE_NAMES[0] == "a1"``, ``[62] == "g9"``.
SQUARE_NAMES = [f + r for r in RANK_NAMES for f in FILE_NAMES]

#: Every square, by index (0 = a1 .. 62 = g9).
SQUARES = list(range(len(SQUARE_NAMES)))

# The squares by name, as python-chess has them: doushou.A1 .. doushou.G9.
for _index, _name in enumerate(SQUARE_NAMES):
    globals()[_name.upper()] = _index
del _index, _name


def square(file_index: int, rank_index: int) -> int:
    """The square on file ``file_index`` (0 = a) and rank ``rank_index`` (0 = rank 1)."""
    if not (0 <= file_index < FILES and 0 <= rank_index < RANKS):
        raise ValueError(f"file {file_index}, rank {rank_index} is off the board")
    return rank_index * FILES + file_index


def square_file(sq: int) -> int:
    """The file of a square, 0 (a) to 6 (g)."""
    return sq % FILES


def square_rank(sq: int) -> int:
    """The rank of a square, 0 (rank 1, Red's back rank) to 8."""
    return sq // FILES


__all__ = [
    "BLUE", "FILES", "RANKS", "RED", "STARTING_FEN", "VARIANTS", "Board",
    "IllegalMoveError", "InvalidFenError", "InvalidMoveError", "InvalidRuleError",
    "Move", "Outcome", "Piece", "Termination", "parse_square", "square_name",
    "RAT", "CAT", "DOG", "WOLF", "PANTHER", "TIGER", "LION", "ELEPHANT",
    "ANIMAL_NAMES", "FILE_NAMES", "RANK_NAMES", "SQUARE_NAMES", "SQUARES",
    "square", "square_file", "square_rank",
] + [name.upper() for name in SQUARE_NAMES]
