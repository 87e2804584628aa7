"""Drive any engine that speaks the doushou protocol (protocol.md: UCI adapted
to Dou Shou Qi), doushou itself or another, as python-chess drives UCI engines.

>>> with doushou.engine.SimpleEngine.popen("doushou") as engine:   # doctest: +SKIP
...     result = engine.play(board, doushou.engine.Limit(time=0.1))
...     lines = engine.analyse(board, doushou.engine.Limit(depth=8), multipv=3)

Plain Python over a subprocess: a thread reads the engine's output, and every
wait has a deadline, so a dead engine raises :class:`EngineTerminatedError`
at once and a silent one :class:`EngineError` when its time is up; neither
hangs the script. The context manager always ends the process.
"""

from __future__ import annotations

import collections
import queue
import shlex
import subprocess
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Deque, Dict, List, Mapping, Optional, Sequence, Union

from ._doushou import Board, Move

__all__ = [
    "EngineError", "EngineTerminatedError", "Limit", "Cp", "Mate", "PovScore",
    "PlayResult", "Option", "SimpleEngine",
]

#: Seconds given to a stopped search to answer before the engine is ended.
STOP_GRACE = 2.0


class EngineError(RuntimeError):
    """The engine did not answer in time, or answered with an error."""


class EngineTerminatedError(EngineError):
    """The engine process ended (crashed, was killed, or quit)."""


@dataclass
class Limit:
    """When a search ends: after ``time`` seconds, at ``depth`` plies, after
    about ``nodes`` nodes, or once a win in ``mate`` moves is found; the first
    reached counts. At least one must be given."""

    time: Optional[float] = None
    depth: Optional[int] = None
    nodes: Optional[int] = None
    mate: Optional[int] = None

    def words(self) -> List[str]:
        """The limit as the words of a ``go`` command."""
        words: List[str] = []
        if self.time is not None:
            words += ["movetime", str(max(0, round(self.time * 1000)))]
        if self.depth is not None:
            words += ["depth", str(int(self.depth))]
        if self.nodes is not None:
            words += ["nodes", str(int(self.nodes))]
        if self.mate is not None:
            words += ["mate", str(int(self.mate))]
        if not words:
            raise ValueError("a Limit needs time, depth, nodes or mate")
        return words


class Cp:
    """A score in centipawns (100: about a small animal ahead)."""

    def __init__(self, cp: int) -> None:
        self.cp = cp

    def score(self, *, mate_score: Optional[int] = None) -> int:
        """The centipawns."""
        return self.cp

    def mate(self) -> Optional[int]:
        """``None``: no mate is known."""
        return None

    def is_mate(self) -> bool:
        """``False``: a centipawn score."""
        return False

    def __neg__(self) -> "Cp":
        return Cp(-self.cp)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Cp) and other.cp == self.cp

    def __hash__(self) -> int:
        return hash(("cp", self.cp))

    def __repr__(self) -> str:
        return f"Cp({self.cp:+d})"

    def __str__(self) -> str:
        return f"{self.cp:+d}"


class Mate:
    """A forced end: ``moves`` > 0 wins in that many own moves, < 0 loses
    in that many; ``Mate(0)``: the side has already lost."""

    def __init__(self, moves: int) -> None:
        self.moves = moves

    def score(self, *, mate_score: Optional[int] = None) -> Optional[int]:
        """``mate_score`` less the distance (negated for a loss), or ``None``."""
        if mate_score is None:
            return None
        return mate_score - self.moves if self.moves > 0 else -mate_score - self.moves

    def mate(self) -> int:
        """Own moves to the win (negative: to the loss)."""
        return self.moves

    def is_mate(self) -> bool:
        """``True``: a forced end."""
        return True

    def __neg__(self) -> "Mate":
        return Mate(-self.moves)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Mate) and other.moves == self.moves

    def __hash__(self) -> int:
        return hash(("mate", self.moves))

    def __repr__(self) -> str:
        return f"Mate({self.moves:+d})" if self.moves else "Mate(-0)"

    def __str__(self) -> str:
        return f"#{self.moves:+d}" if self.moves else "#-0"


Score = Union[Cp, Mate]


class PovScore:
    """A score with the side it is meant for: ``relative`` is for ``turn``
    (the side to move when it was given); :meth:`red` and :meth:`blue` turn it."""

    def __init__(self, relative: Score, turn: bool) -> None:
        self.relative = relative
        self.turn = turn

    def pov(self, color: bool) -> Score:
        """The score from ``color``'s side (``True``: Red)."""
        return self.relative if color == self.turn else -self.relative

    def red(self) -> Score:
        """The score from Red's side."""
        return self.pov(True)

    def blue(self) -> Score:
        """The score from Blue's side."""
        return self.pov(False)

    def is_mate(self) -> bool:
        """Whether it is a forced end."""
        return self.relative.is_mate()

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PovScore) and self.red() == other.red()

    def __repr__(self) -> str:
        return f"PovScore({self.relative!r}, {'RED' if self.turn else 'BLUE'})"


#: One ``info`` line read: ``depth``, ``seldepth``, ``multipv``, ``score``
#: (a :class:`PovScore`), ``lowerbound``/``upperbound``, ``wdl``, ``nodes``,
#: ``nps``, ``time`` (seconds), ``hashfull``, ``tbhits``, ``pv`` (moves),
#: ``string``; only what the line had.
InfoDict = Dict[str, Any]


@dataclass
class PlayResult:
    """The move the engine chose (``None`` when the game was over), the reply
    it expects, and the last ``info`` of its first line."""

    move: Optional[Move]
    ponder: Optional[Move] = None
    info: InfoDict = field(default_factory=dict)


@dataclass
class Option:
    """An option the engine announced: its ``type`` (check, spin, combo,
    string, button), default, range and choices."""

    name: str
    type: str
    default: Optional[str] = None
    min: Optional[int] = None
    max: Optional[int] = None
    var: List[str] = field(default_factory=list)


_INT_FIELDS = {"depth", "seldepth", "multipv", "nodes", "nps", "hashfull", "tbhits", "currmovenumber"}


def parse_info(line: str, turn: bool) -> InfoDict:
    """The fields of one ``info`` line; scores are for ``turn``, the side to move."""
    words = line.split()[1:]
    info: InfoDict = {}
    i = 0
    while i < len(words):
        key = words[i]
        i += 1
        if key == "string":
            info["string"] = " ".join(words[i:])
            break
        if key == "pv":
            info["pv"] = [Move.from_uci(m) for m in words[i:]]
            break
        try:
            if key in _INT_FIELDS:
                info[key] = int(words[i])
                i += 1
            elif key == "time":
                info["time"] = int(words[i]) / 1000.0
                i += 1
            elif key == "score":
                kind, value = words[i], int(words[i + 1])
                i += 2
                relative: Score = Cp(value) if kind == "cp" else Mate(value)
                info["score"] = PovScore(relative, turn)
            elif key in ("lowerbound", "upperbound"):
                info[key] = True
            elif key == "wdl":
                info["wdl"] = tuple(int(w) for w in words[i:i + 3])
                i += 3
            elif key == "currmove":
                info["currmove"] = Move.from_uci(words[i])
                i += 1
        except (IndexError, ValueError):
            # A field cut short or not a number: keep what was read.
            break
    return info


class SimpleEngine:
    """An engine process spoken to line by line. Make one with :meth:`popen`;
    end it with :meth:`quit` or a ``with`` block."""

    def __init__(self, process: "subprocess.Popen[str]", *, timeout: float = 10.0) -> None:
        self.process = process
        #: Seconds to wait for answers that need no search, and the margin
        #: on top of a timed search.
        self.timeout = timeout
        #: ``name`` and ``author``, as the engine gave them.
        self.id: Dict[str, str] = {}
        #: The options the engine announced, by name.
        self.options: Dict[str, Option] = {}
        self._lines: "queue.Queue[Optional[str]]" = queue.Queue()
        self._stderr: Deque[str] = collections.deque(maxlen=20)
        self._rules_sent: Optional[Dict[str, Any]] = None
        self._multipv = 1
        self._closed = False
        threading.Thread(target=self._pump, daemon=True).start()
        if process.stderr is not None:
            threading.Thread(target=self._pump_stderr, daemon=True).start()

    @classmethod
    def popen(
        cls,
        command: Union[str, Sequence[str]],
        *,
        timeout: float = 10.0,
        **popen_args: Any,
    ) -> "SimpleEngine":
        """Starts ``command`` (a list of words, or a string split as a shell
        would) and waits up to ``timeout`` seconds for the handshake."""
        args = shlex.split(command) if isinstance(command, str) else list(command)
        try:
            process = subprocess.Popen(
                args,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=popen_args.pop("stderr", subprocess.PIPE),
                text=True,
                encoding="utf-8",
                errors="replace",
                bufsize=1,
                **popen_args,
            )
        except OSError as e:
            raise EngineTerminatedError(f"cannot start {args!r}: {e}") from e
        engine = cls(process, timeout=timeout)
        try:
            engine._handshake()
        except BaseException:
            engine.close()
            raise
        return engine

    # The engine's output, read on threads so that no wait can block forever.

    def _pump(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self._lines.put(line.rstrip("\r\n"))
        self._lines.put(None)

    def _pump_stderr(self) -> None:
        assert self.process.stderr is not None
        for line in self.process.stderr:
            self._stderr.append(line.rstrip("\r\n"))

    def _terminated(self) -> EngineTerminatedError:
        try:
            code: Optional[int] = self.process.wait(timeout=STOP_GRACE)
        except subprocess.TimeoutExpired:
            # Its output closed but the process lives on: end it.
            self.process.kill()
            code = self.process.wait()
        tail = "; ".join(list(self._stderr)[-3:])
        return EngineTerminatedError(
            f"the engine ended (exit code {code})" + (f": {tail}" if tail else "")
        )

    def _send(self, line: str) -> None:
        if self._closed:
            raise EngineTerminatedError("the engine was closed")
        assert self.process.stdin is not None
        try:
            self.process.stdin.write(line + "\n")
            self.process.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            raise self._terminated() from None

    def _recv(self, deadline: float, waiting_for: str) -> str:
        """The next line, or an error once ``deadline`` (monotonic) passes."""
        remaining = deadline - time.monotonic()
        try:
            line = self._lines.get(timeout=max(0.0, remaining))
        except queue.Empty:
            raise EngineError(f"no {waiting_for} from the engine in time") from None
        if line is None:
            self._lines.put(None)  # every later read sees the end too
            raise self._terminated()
        return line

    def _handshake(self) -> None:
        self._send("uci")
        deadline = time.monotonic() + self.timeout
        while True:
            line = self._recv(deadline, "uciok")
            words = line.split()
            if words[:1] == ["uciok"]:
                break
            if words[:2] in (["id", "name"], ["id", "author"]):
                self.id[words[1]] = " ".join(words[2:])
            elif words[:2] == ["option", "name"]:
                option = _parse_option(words)
                if option is not None:
                    self.options[option.name] = option
        self._ping()

    def _ping(self) -> List[str]:
        """Sends ``isready`` and answers the errors the engine reported before
        its ``readyok`` (``info string error: ...``, the prefix cut)."""
        self._send("isready")
        deadline = time.monotonic() + self.timeout
        errors: List[str] = []
        while True:
            line = self._recv(deadline, "readyok")
            if line.strip() == "readyok":
                return errors
            if line.startswith("info string error:"):
                errors.append(line[len("info string error:"):].strip())

    def configure(self, options: Mapping[str, Any]) -> None:
        """Sets options (``{"Hash": 32, "Skill Level": 5}``; ``None`` presses
        a button). An option the engine refuses raises :class:`EngineError`
        with its words."""
        for name, value in options.items():
            if value is None:
                self._send(f"setoption name {name}")
            else:
                self._send(f"setoption name {name} value {_option_value(value)}")
            if name.lower() == "multipv" and value is not None:
                self._multipv = int(value)
        errors = self._ping()
        if errors:
            raise EngineError("; ".join(errors))

    def _set_position(self, board: Board) -> None:
        rules = board.rules
        if rules != self._rules_sent:
            known = {name.lower() for name in self.options}
            for name, value in rules.items():
                # An engine that announced no such switch plays one rule set.
                if name.lower() in known:
                    self._send(f"setoption name {name} value {_option_value(value)}")
            self._rules_sent = rules
        moves = " ".join(m.uci() for m in board.move_stack)
        self._send(f"position fen {board.root().fen()}" + (f" moves {moves}" if moves else ""))

    def _search(
        self, board: Board, limit: Limit, multipv: int, timeout: Optional[float]
    ) -> "tuple[Dict[int, InfoDict], Optional[Move], Optional[Move], List[str]]":
        go = "go " + " ".join(limit.words())
        self._set_position(board)
        if multipv != self._multipv:
            self._send(f"setoption name MultiPV value {multipv}")
            self._multipv = multipv
        errors = self._ping()
        if errors:
            raise EngineError("; ".join(errors))
        if timeout is None:
            timeout = (limit.time or 0.0) + self.timeout if limit.time is not None else max(60.0, self.timeout)
        deadline = time.monotonic() + timeout
        turn = board.turn
        self._send(go)
        lines: Dict[int, InfoDict] = {}
        errors = []
        while True:
            try:
                line = self._recv(deadline, "bestmove")
            except EngineTerminatedError:
                raise
            except EngineError:
                self._stop_or_end()
                raise EngineError(f"no bestmove within {timeout:g} s") from None
            words = line.split()
            if words[:1] == ["bestmove"]:
                best = Move.from_uci(words[1]) if len(words) > 1 else Move.null()
                ponder = Move.from_uci(words[3]) if words[2:3] == ["ponder"] and len(words) > 3 else None
                return lines, (best or None), ponder, errors
            if words[:1] == ["info"]:
                if line.startswith("info string error:"):
                    errors.append(line[len("info string error:"):].strip())
                    continue
                info = parse_info(line, turn)
                if "score" in info or "pv" in info:
                    lines[info.get("multipv", 1)] = info

    def _stop_or_end(self) -> None:
        """After a missed deadline: ``stop``, and end the engine if even that
        brings no ``bestmove`` soon, since it can no longer be trusted."""
        try:
            self._send("stop")
            deadline = time.monotonic() + STOP_GRACE
            while not self._recv(deadline, "bestmove").startswith("bestmove"):
                pass
        except EngineError:
            self.close()

    def play(self, board: Board, limit: Limit, *, timeout: Optional[float] = None) -> PlayResult:
        """The engine's move on ``board`` (its rules and history are sent
        too). ``move`` is ``None`` when the game is over. Raises
        :class:`EngineError` if no move comes within ``timeout`` seconds
        (default: the limit's time plus the engine's ``timeout``, or 60 s for
        an untimed search)."""
        lines, best, ponder, errors = self._search(board, limit, 1, timeout)
        if best is None and errors:
            raise EngineError("; ".join(errors))
        return PlayResult(best, ponder, lines.get(1, {}))

    def analyse(
        self,
        board: Board,
        limit: Limit,
        *,
        multipv: Optional[int] = None,
        timeout: Optional[float] = None,
    ) -> Union[InfoDict, List[InfoDict]]:
        """The engine's view of ``board``: the last ``info`` of its best line,
        or with ``multipv`` a list of up to that many lines, best first, each
        with ``score`` (a :class:`PovScore`) and ``pv``."""
        lines, best, _, errors = self._search(board, limit, multipv or 1, timeout)
        if best is None and errors:
            raise EngineError("; ".join(errors))
        ranked = [lines[k] for k in sorted(lines)]
        if multipv is None:
            return ranked[0] if ranked else {}
        return ranked[:multipv]

    def quit(self) -> None:
        """Asks the engine to quit and ends it if it has not within a second."""
        if self._closed:
            return
        try:
            self._send("quit")
        except EngineError:
            pass
        try:
            self.process.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            pass
        self.close()

    def close(self) -> None:
        """Ends the process at once (kills it if it still runs)."""
        self._closed = True
        if self.process.poll() is None:
            self.process.kill()
        try:
            self.process.wait(timeout=STOP_GRACE)
        except subprocess.TimeoutExpired:
            pass
        for stream in (self.process.stdin, self.process.stdout, self.process.stderr):
            try:
                if stream is not None:
                    stream.close()
            except OSError:
                pass

    def __enter__(self) -> "SimpleEngine":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.quit()

    def __repr__(self) -> str:
        return f"<SimpleEngine {self.id.get('name', '?')} pid={self.process.pid}>"


def _option_value(value: Any) -> str:
    """A Python value as the protocol writes it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _parse_option(words: List[str]) -> Optional[Option]:
    """An ``option name <name> type <type> ...`` line; ``None`` if malformed."""
    if "type" not in words:
        return None
    t = words.index("type")
    rest = words[t + 1:]
    option = Option(" ".join(words[2:t]), rest[0] if rest else "")
    i = 1
    while i < len(rest):
        key, j = rest[i], i + 1
        while j < len(rest) and rest[j] not in ("default", "min", "max", "var"):
            j += 1
        value = " ".join(rest[i + 1:j])
        if key == "default":
            option.default = value
        elif key in ("min", "max") and value.lstrip("-").isdigit():
            setattr(option, key, int(value))
        elif key == "var":
            option.var.append(value)
        i = j
    return option
