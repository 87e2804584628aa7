"""Endgame tables made by ``doushou tb generate``: open a directory, probe boards.

>>> tables = doushou.tablebase.open_tablebase("tb/")      # doctest: +SKIP
>>> str(tables.probe(doushou.Board("7/7/7/7/3r3/7/7/2L4/7 w 0 1")))  # doctest: +SKIP
'draw'

A verdict is for the side to move: ``win N`` (it wins, the game ending in N
plies with best play), ``loss N`` or ``draw``; ``probe`` answers ``None``
when no table holds the material. The tables ignore repetition and the
no-capture limit, and answer only for boards under the rules they were made
under (``TablebaseError`` otherwise).
"""

from ._doushou import TablebaseError, Tablebase, Verdict, open_tablebase

__all__ = ["TablebaseError", "Tablebase", "Verdict", "open_tablebase"]
