#!/usr/bin/env python3
"""Check every move of a match against the endgame tables.

Reads the JSON lines of `doushou analyse --game --json --tablebases DIR`
run over a match's PGN (a shallow `--depth 1` is enough: only the tables'
marks are used) and counts, per engine, what each move did to the tables'
verdict: wins kept (and how many by the fastest win), wins thrown away,
draws kept, draws lost. A draw lost is a move from a position the tables
call drawn into one they call won for the opponent. A win or loss longer
than the no-capture limit leaves is read as a draw (the limit comes
first, unless a capture on the way starts its count afresh).

    doushou analyse --game --json --depth 1 --tablebases tb4 games.pgn > marks.jsonl
    dev/tb-move-check.py marks.jsonl [--list] [--engine PROGRAM --tables DIR [--prove NODES
        [--proof-memory MIB] [--jobs N]]] [--mover NAME] [--games N,N...]

`--list` also prints each draw lost and win thrown away (game, ply, FEN,
move; for a draw lost, its opening and how its colour fared there), so a
person can look at it: under `Repetition=forbid` a lost draw
may have been forced by the game's history, which the tables do not see.
`--engine PROGRAM --tables DIR` tells the two apart: for each draw lost it
replays the game to that move, asks the engine for the legal moves there
(the history included) and probes the position after each; a draw lost
where every legal move loses was forced by the history, one where some
legal move kept the draw was the mover's mistake.

A forced loss can also be older than any move: under `forbid` a table draw
may be lost from the start of its stretch (the last capture, or the
game's start) on: the attacker squeezes the defender out of fresh
positions. Each draw lost is therefore also checked against its opening's
other games: where the loser's colour lost every game from that starting
position, with each engine playing it, the opening itself is counted as
lost for that colour ("lost by either engine") -- a sign, not a proof.
`--prove NODES` (with `--engine` and `--tables`) proves it: `tb probe
--history NODES` settles the loser's positions of the stretch, with the
game's history, back from the move that lost the draw to the latest one
proven held, past those it cannot settle. A draw lost at the stretch's
start was never the loser's to keep; one lost after a position proven
held was lost by the loser's move from there, or by a later one before
the first position proven lost (a real mistake: the opponent's moves
cannot lose a held draw for it); the rest are unknown within NODES
positions.
`--mover NAME` proves and lists the draws lost by that engine only (the
proofs take minutes a draw; the table of counts still shows every engine),
`--games N,N...` those of these games only; `--proof-memory MIB` is the
proof's memory (`tb probe --proof-memory`; a proof larger than it goes on,
searching again what it gave up); `--jobs N` proves N draws lost at once
(a process and its memory each; the output is the same). Each answer of
the proof is also printed on standard error as it comes ("tb-move-check:
game N, the draw lost at ply P, ply Q: ANSWER"), so a long walk shows how
far it has got.
"""
import json
import subprocess
import sys
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor

from tb_probe import HistoryProbe, engine_lines, history_word, rule_commands


def verdict_after(moves, i, final):
    """The tables' verdict after move i, for the side that then moves."""
    return moves[i + 1]["tablebase"] if i + 1 < len(moves) else final


def no_capture_limit(game):
    """The plies without a capture that draw `game` (0: no limit)."""
    rules = dict(kv.split("=") for kv in game["rules"].split())
    return int(rules.get("NoCaptureLimit", 0))


def read(verdict, clock, limit):
    """`verdict` as the game can meet it: a win or loss longer than the
    plies the no-capture limit leaves after `clock` is read as a draw (the
    engine searches it too). It may still be won by a capture on the way;
    a loss that comes so is not counted against the loser's moves."""
    if verdict is None or verdict["verdict"] == "draw" or limit == 0:
        return verdict
    if verdict["plies"] > limit - clock:
        return {"verdict": "draw", "plies": None}
    return verdict


def check(lines):
    counts = defaultdict(lambda: defaultdict(int))
    faults = []
    for line in lines:
        game = json.loads(line)
        if "moves" not in game:
            continue  # an error line
        tags = game["tags"]
        moves = game["moves"]
        limit = no_capture_limit(game)
        for i, ply in enumerate(moves):
            clock = int(ply["fen"].split()[2])
            before = read(ply["tablebase"], clock, limit)
            # The clock after the move: a capture starts it again, and then
            # the verdict after it is the new material's.
            # The clock after the move (after the last one, as if it took
            # nothing: the game is over, at a verdict of no plies, or at
            # the limit).
            after_clock = int(moves[i + 1]["fen"].split()[2]) if i + 1 < len(moves) \
                else clock + 1
            after = read(verdict_after(moves, i, game["final_tablebase"]), after_clock, limit)
            if before is None or after is None:
                continue
            mover = tags.get("Red" if ply["side"] == "red" else "Blue", ply["side"])
            c = counts[mover]
            if before["verdict"] == "win":
                if after["verdict"] == "loss":
                    c["wins kept"] += 1
                    if after["plies"] == before["plies"] - 1:
                        c["by the fastest win"] += 1
                else:
                    c["wins thrown away"] += 1
                    faults.append(("win thrown away", mover, game["game"], ply))
            elif before["verdict"] == "draw":
                if after["verdict"] == "win":
                    c["draws lost"] += 1
                    faults.append(("draw lost", mover, game["game"], ply))
                else:
                    c["draws kept"] += 1
    return counts, faults


def result_for(game, colour):
    """1, 0.5 or 0: what `colour` ("red"/"blue") scored in `game`."""
    result = game["tags"]["Result"]
    if result == "1/2-1/2":
        return 0.5
    red_won = result == "1-0"
    return 1 if red_won == (colour == "red") else 0


def lost_by_either_engine(games, game, colour):
    """Whether `colour` lost every game from `game`'s starting position, and
    each engine of the match played that colour there at least once."""
    same = [g for g in games.values() if g["tags"].get("FEN") == game["tags"].get("FEN")]
    tag = "Red" if colour == "red" else "Blue"
    players = {g["tags"][tag] for g in same}
    engines = {g["tags"]["Red"] for g in same} | {g["tags"]["Blue"] for g in same}
    return players == engines and all(result_for(g, colour) == 0 for g in same)


def position_before(game, i):
    """Move `i` of `game`'s position with the moves before it, as `tb probe
    --history` reads it."""
    played = [m["move"] for m in game["moves"][:i]]
    return game["fen"] + (" moves " + " ".join(played) if played else "")


def when_lost(program, tables, game, index, nodes, memory):
    """Where the draw that move `index` of `game` lost was lost, proven with
    the game's history over the loser's positions of its stretch of table
    draws, walked back from the move:
    - ("mistake", i, j): position i is proven held and position j (the
      first proven lost after it, or the one the move `index` led to) lost:
      one of the loser's moves from i to before j lost the draw (that of i
      itself when no position between is left unsettled); a held draw
      is lost by its keeper's move alone, never by the opponent's;
    - ("start", i, None): every position back to the stretch's start i is
      proven lost, so the draw was never the loser's to keep;
    - ("unknown", None, None): neither.
    The walk goes back past positions it cannot settle. Walking forward
    instead would stop at the first position lost and miss a draw the
    opponent gave back and the loser lost again later."""
    moves = game["moves"]
    loser = moves[index]["side"]
    limit = no_capture_limit(game)
    start = index
    # Back to the last capture (a clock of 0) or the game's start, through
    # table draws (as the game can meet them): the positions the history
    # holds.
    while start > 0 and int(moves[start]["fen"].split()[2]) > 0:
        clock = int(moves[start - 1]["fen"].split()[2])
        if (read(moves[start - 1]["tablebase"], clock, limit) or {}).get("verdict") != "draw":
            break
        start -= 1
    prover = HistoryProbe(program, tables, game["rules"].split(), nodes, memory)
    try:
        lost_from = index + 1
        settled = True
        for i in range(index, start - 1, -1):
            if moves[i]["side"] != loser:
                continue
            answer = prover.answer(position_before(game, i))
            # A walk at a large budget takes minutes a draw: each answer
            # shows how far it has got.
            print(f"tb-move-check: game {game['game']}, the draw lost at ply "
                  f"{moves[index]['ply']}, ply {moves[i]['ply']}: {answer}",
                  file=sys.stderr, flush=True)
            verdict = history_word(answer)
            # A draw its keeper can win from is held all the more.
            if verdict in ("held", "won"):
                return "mistake", i, lost_from
            if verdict == "lost":
                lost_from = i
            else:
                settled = False
        return ("start", lost_from, None) if settled else ("unknown", None, None)
    finally:
        prover.close()


def had_drawing_move(program, tables, game, index):
    """Whether the mover of move `index` of `game` had a legal move (with the
    game's history) after which the tables do not call the position won for
    the opponent (in what the no-capture limit leaves); answers (kept,
    legal) where kept lists those moves."""
    start = f"position fen {game['fen']}"
    played = [m["move"] for m in game["moves"][:index]]
    rules = rule_commands(game["rules"].split())
    head = rules + [start + (" moves " + " ".join(played) if played else "")]
    legal = next(l.split()[1:] for l in engine_lines(program, head + ["moves"]) if l.startswith("moves"))
    fens = []
    for mv in legal:
        lines = engine_lines(program, rules + [start + " moves " + " ".join(played + [mv]), "d"])
        fens.append(next(l.split(": ", 1)[1] for l in lines if l.startswith("Fen: ")))
    probe = subprocess.run([program, "tb", "probe", "--path", tables] + fens,
                           capture_output=True, text=True).stdout.splitlines()
    limit = no_capture_limit(game)

    def lost(fen, answer):
        words = answer.split()
        if words[0] != "win":
            return False
        verdict = {"verdict": "win", "plies": int(words[1])}
        return read(verdict, int(fen.split()[2]), limit)["verdict"] == "win"
    kept = [mv for mv, fen, answer in zip(legal, fens, probe) if not lost(fen, answer)]
    return kept, legal


def main():
    argv = sys.argv[1:]
    if "-h" in argv or "--help" in argv:
        print(__doc__)
        return

    def option(flag, read=str):
        """The value after `flag` (removed from argv), read; None if absent."""
        if flag not in argv:
            return None
        i = argv.index(flag)
        try:
            value = read(argv[i + 1])
        except (IndexError, ValueError):
            sys.exit(f"{flag} wants a value\n{__doc__}")
        del argv[i:i + 2]
        return value

    program = option("--engine")
    tables = option("--tables")
    prove = option("--prove", int)
    memory = option("--proof-memory", int)
    jobs = option("--jobs", int)
    jobs = 1 if jobs is None else jobs
    games_only = option("--games", lambda v: {int(n) for n in v.split(",")})
    mover_only = option("--mover")
    args = [a for a in argv if a != "--list"]
    if (len(args) != 1 or (program is None) != (tables is None) or (prove and not program)
            or jobs < 1):
        sys.exit(__doc__)
    with open(args[0]) as f:
        lines = f.readlines()
    counts, faults = check(lines)
    if mover_only is not None:
        if mover_only not in counts:
            sys.exit(f"no engine named {mover_only} moved in {args[0]}: {', '.join(sorted(counts))}")
        faults = [f for f in faults if f[1] == mover_only]
    if games_only is not None:
        faults = [f for f in faults if f[2] in games_only]
    columns = ["wins kept", "by the fastest win", "wins thrown away", "draws kept", "draws lost"]
    print("| mover | " + " | ".join(columns) + " |")
    print("|---" * (len(columns) + 1) + "|")
    for mover in sorted(counts):
        print(f"| {mover} | " + " | ".join(str(counts[mover][c]) for c in columns) + " |")
    games = {g["game"]: g for g in map(json.loads, lines) if "moves" in g}
    # Per draw lost (its index in `faults`): whether its opening was lost
    # by its colour with either engine.
    either = {i: lost_by_either_engine(games, games[number], ply["side"])
              for i, (kind, mover, number, ply) in enumerate(faults) if kind == "draw lost"}
    openings = defaultdict(lambda: [0, 0])
    for i, lost in either.items():
        openings[faults[i][1]][0 if lost else 1] += 1
    for mover in sorted(openings):
        lost, other = openings[mover]
        print(f"{mover}: draws lost in an opening its colour lost with either engine {lost}, "
              f"in another {other}")
    if prove:
        proved = defaultdict(lambda: defaultdict(int))
        lost = [(mover, games[number], ply) for kind, mover, number, ply in faults
                if kind == "draw lost"]

        def walk(draw):
            mover, game, ply = draw
            return when_lost(program, tables, game, game["moves"].index(ply), prove, memory)
        # Each proof runs in a process of its own; `map` answers in order.
        with ThreadPoolExecutor(max_workers=jobs) as pool:
            walked = list(zip(lost, pool.map(walk, lost)))
        for (mover, game, ply), (when, i, j) in walked:
            number = game["game"]
            proved[mover][when] += 1
            if "--list" in sys.argv and when != "start":
                at = ""
                if when == "mistake":
                    at = f" at ply {game['moves'][i]['ply']}"
                    if j > i + 2 and j < len(game["moves"]):
                        at += f" (or a later move of its, lost by ply {game['moves'][j]['ply']})"
                print(f"draw lost, {when}{at}: {mover}, game {number}, ply {ply['ply']}")
        for mover in sorted(proved):
            p = proved[mover]
            print(f"{mover}: draws lost already lost at the start of their stretch {p['start']}, "
                  f"by a move from a position proven held {p['mistake']}, "
                  f"unknown within {prove} positions {p['unknown']}")
    if "--list" in sys.argv:
        for i, (kind, mover, number, ply) in enumerate(faults):
            where = ""
            if i in either:
                where = (f" (from {games[number]['fen']}, which {ply['side']} "
                         f"{'lost with either engine' if either[i] else 'held in another game'})")
            print(f"{kind}: {mover}, game {number}, ply {ply['ply']}: {ply['fen']} {ply['move']}"
                  + where)
    if program:
        forced = defaultdict(int)
        mistakes = defaultdict(int)
        for kind, mover, number, ply in faults:
            if kind != "draw lost":
                continue
            game = games[number]
            index = game["moves"].index(ply)
            kept, legal = had_drawing_move(program, tables, game, index)
            if kept:
                mistakes[mover] += 1
                print(f"draw lost with a drawing move ({' '.join(kept)} of {len(legal)}): "
                      f"{mover}, game {number}, ply {ply['ply']}: {ply['fen']} {ply['move']}")
            else:
                forced[mover] += 1
        for mover in sorted(counts) if mover_only is None else [mover_only]:
            print(f"{mover}: draws lost {counts[mover]['draws lost']}, forced by the history "
                  f"{forced[mover]}, with a drawing move left {mistakes[mover]}")


if __name__ == "__main__":
    main()
