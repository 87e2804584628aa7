"""The speed figures of docs/python.md: random playouts through the Python
API, and perft(6) through Python against `doushou perft 6`.

    python python/examples/speed.py [path/to/doushou]

Times are CPU times (this process's, the binary's as a child's), so that
other work on a shared machine weighs less on them; each figure is the best
of five runs, the two perfts taken in turn.
"""

import random
import resource
import subprocess
import sys
import time

import doushou


def playouts(seconds=3.0, seed=1):
    """Random games from the start to their end (the side to move has no
    move, or the game is over by rule), each taken back move by move:
    per move one `legal_moves`, one `push` and one `pop`. Answers moves/s."""
    rng = random.Random(seed)
    board = doushou.Board()
    choice = rng.choice
    moves_played = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        plies = 0
        while True:
            moves = board.legal_moves
            if not moves or board.is_game_over():
                break
            board.push(choice(moves))
            plies += 1
        for _ in range(plies):
            board.pop()
        moves_played += plies
    return moves_played / (time.process_time() - start)


def perft_python(depth=6):
    """perft(depth) from the start through Python: (leaves, seconds)."""
    start = time.process_time()
    leaves = doushou.Board().perft(depth)
    return leaves, time.process_time() - start


def perft_binary(binary, depth=6):
    """`doushou perft depth`, timed from outside: (leaves, seconds)."""
    def cpu():
        usage = resource.getrusage(resource.RUSAGE_CHILDREN)
        return usage.ru_utime + usage.ru_stime

    start = cpu()
    out = subprocess.run([binary, "perft", str(depth)], capture_output=True, text=True, check=True)
    return int(out.stdout.split()[-1]), cpu() - start


if __name__ == "__main__":
    rate = max(playouts(2.0, seed) for seed in range(5))
    print(f"random playouts: {rate:,.0f} moves/s (legal_moves + is_game_over + push + pop per move)")
    runs = []
    for _ in range(5):
        runs.append(perft_python())
        if len(sys.argv) > 1:
            runs.append(("binary",) + perft_binary(sys.argv[1]))
    python = min(r for r in runs if len(r) == 2)
    print(f"perft(6) via Python: {python[0]} leaves in {python[1]:.3f} s CPU")
    if len(sys.argv) > 1:
        binary = min((r[1:] for r in runs if len(r) == 3), key=lambda r: r[1])
        assert binary[0] == python[0], (binary, python)
        print(f"doushou perft 6:     {binary[0]} leaves in {binary[1]:.3f} s CPU "
              f"(Python / binary: {python[1] / binary[1]:.3f})")
