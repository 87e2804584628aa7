"""What the tables scripts share: the engine's answer to protocol lines,
and `doushou tb probe --history` kept running for one set of rules."""
import subprocess


def rule_commands(rules):
    """The `setoption` lines of `rules` ("Name=value" words)."""
    return [f"setoption name {k} value {v}" for k, v in (w.split("=") for w in rules)]


def engine_lines(program, commands):
    """The engine's answer to `commands` (one protocol line each, then quit)."""
    text = "\n".join(commands + ["quit"]) + "\n"
    out = subprocess.run([program], input=text, capture_output=True, text=True, check=True)
    return out.stdout.splitlines()


def history_word(answer):
    """The proof's word in a `tb probe --history` answer ("draw history held
    (...)", "loss 20 history lost (...)"): won, held, lost or unknown; None
    where the tables settled the position without it ("win 7")."""
    words = answer.split()
    return words[words.index("history") + 1] if "history" in words else None


class HistoryProbe:
    """`tb probe --history NODES` kept running under `rules` ("Name=value"
    words), with `memory` MiB for the proof (None: the default)."""

    def __init__(self, program, tables, rules, nodes, memory=None):
        sets = [w for kv in rules for w in ("--set", kv)]
        memory = ["--proof-memory", str(memory)] if memory else []
        self.process = subprocess.Popen(
            [program, "tb", "probe", "--path", tables, "--history", str(nodes)] + memory + sets
            + ["-"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def answer(self, position):
        """The probe's line for `position` ("FEN [moves ...]")."""
        self.process.stdin.write(position + "\n")
        self.process.stdin.flush()
        return self.process.stdout.readline().strip()

    def close(self):
        self.process.stdin.close()
        self.process.wait()
