"""Game records in the PGN-like format that ``doushou match`` and the GUI write.

Reading and writing are the Rust crate's own code: a record written here reads
back in ``doushou analyse``, the GUI and ``doushou match --resume``, and a
record they wrote reads here move for move.

>>> games = doushou.pgn.read_games("games.pgn")          # doctest: +SKIP
>>> games[0].headers["Termination"]                      # doctest: +SKIP
'red wins: a piece entered the blue den'
>>> print(doushou.pgn.Game.from_board(board))            # doctest: +SKIP
"""

from __future__ import annotations

import os
from typing import IO, Dict, List, Optional, Tuple, Union

from . import _doushou
from ._doushou import Board, Move, PgnError

__all__ = ["Game", "PgnError", "read_games", "parse_games", "write_game"]


class Game:
    """One game: its tags (``headers``, in file order), its first position and
    rules (:meth:`board`), its moves, its result and its comments.

    ``comments`` holds ``(n, text)`` pairs: the comment stands after the
    ``n``-th move (0: before the first).
    """

    def __init__(
        self,
        headers: Optional[Dict[str, str]] = None,
        moves: Optional[List[Move]] = None,
        result: str = "*",
        *,
        fen: str = _doushou.STARTING_FEN,
        rules: str = "",
        comments: Optional[List[Tuple[int, str]]] = None,
        line: int = 0,
    ) -> None:
        self.headers: Dict[str, str] = dict(headers or {})
        self.moves: List[Move] = list(moves or [])
        self.result: str = result
        self.comments: List[Tuple[int, str]] = list(comments or [])
        #: The first position's FEN.
        self.fen: str = fen
        #: The rules as ``Name=Value`` words (what the ``Rules`` tag says).
        self.rules: str = rules or _rules_text(Board())
        #: The line of the file the game starts on (0 for a game made here).
        self.line: int = line

    @classmethod
    def from_board(
        cls,
        board: Board,
        *,
        event: str = "?",
        site: str = "?",
        round: str = "-",
        red: str = "?",
        blue: str = "?",
    ) -> "Game":
        """The record of the game played on ``board`` (from its first
        position), with the tags ``doushou match`` writes: players, date,
        result and termination (if the game is over), variant, rules, FEN."""
        tags = _doushou.game_tags(board, event=event, site=site, round=round, red=red, blue=blue)
        headers = dict(tags)
        return cls(
            headers,
            board.move_stack,
            headers.get("Result", "*"),
            fen=board.root().fen(),
            rules=_rules_text(board),
        )

    @property
    def termination(self) -> Optional[str]:
        """How the game ended, in words (the ``Termination`` tag), if recorded."""
        return self.headers.get("Termination")

    def board(self) -> Board:
        """A board at the game's first position, under its rules."""
        return Board(self.fen, rules=self.rules)

    def end(self) -> Board:
        """A board after every move of the game (the moves as its history)."""
        board = self.board()
        for move in self.moves:
            board.push(move)
        return board

    def __str__(self) -> str:
        return write_game(self)

    def __repr__(self) -> str:
        red, blue = self.headers.get("Red", "?"), self.headers.get("Blue", "?")
        return f"<Game {red} vs {blue}, {len(self.moves)} moves, {self.result}>"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Game):
            return NotImplemented
        return (
            list(self.headers.items()) == list(other.headers.items())
            and self.moves == other.moves
            and self.result == other.result
            and self.comments == other.comments
            and self.fen == other.fen
            and self.rules == other.rules
        )

    __hash__ = None  # type: ignore[assignment]  # mutable, like python-chess's


def _rules_text(board: Board) -> str:
    """The board's rules as ``Name=Value`` words."""
    parts = []
    for name, value in board.rules.items():
        parts.append(f"{name}={str(value).lower() if isinstance(value, bool) else value}")
    return " ".join(parts)


def parse_games(text: str) -> List[Game]:
    """Every game of ``text``: records (tags, then numbered moves) and
    one-line games (``startpos moves ...``), each checked move by move under
    the rules of its ``Variant``/``Rules`` tags. The first faulty game raises
    :class:`PgnError` (a ``ValueError``) naming its line."""
    games = []
    for line, tags, rules, fen, moves, result, comments in _doushou.read_games(text):
        games.append(
            Game(
                dict(tags),
                [Move.from_uci(m) for m in moves],
                result or "*",
                fen=fen,
                rules=rules,
                comments=comments,
                line=line,
            )
        )
    return games


def read_games(source: Union[str, os.PathLike, IO[str]]) -> List[Game]:
    """Every game of a record file, given by path or as an open text file."""
    if hasattr(source, "read"):
        text = source.read()  # type: ignore[union-attr]
    else:
        with open(source, encoding="utf-8") as f:  # type: ignore[arg-type]
            text = f.read()
    return parse_games(text)


def write_game(game: Game, handle: Optional[IO[str]] = None) -> str:
    """The record of ``game`` as ``doushou match`` writes it (tags, moves
    numbered and wrapped near 80 columns, comments in braces, the result,
    a blank line); written to ``handle`` too if one is given."""
    text = _doushou.write_game(
        list(game.headers.items()),
        [m.uci() for m in game.moves],
        list(game.comments),
        game.result,
    )
    if handle is not None:
        handle.write(text)
    return text
