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

# The squares by name, as python-chess has them: doushou.A1 .. doushou.G9,
# rank by rank from Red's side (index = rank * 7 + file).
(
    A1, B1, C1, D1, E1, F1, G1,
    A2, B2, C2, D2, E2, F2, G2,
    A3, B3, C3, D3, E3, F3, G3,
    A4, B4, C4, D4, E4, F4, G4,
    A5, B5, C5, D5, E5, F5, G5,
    A6, B6, C6, D6, E6, F6, G6,
    A7, B7, C7, D7, E7, F7, G7,
    A8, B8, C8, D8, E8, F8, G8,
    A9, B9, C9, D9, E9, F9, G9,
) = range(63)


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
