#!/usr/bin/env python3
"""Summarise a directory of endgame tables (format version 2 headers).

    scripts/tb-summary.py DIR

Prints, per material class (pieces on each side: 1v1, 2v1, 3v1, 2v2, ...),
the number of tables, their size on disk, the longest win and its material,
and the share of positions won, drawn and lost for the side to move. Reads
only the headers (docs/tablebases.md, "Format").
"""
import os
import struct
import sys
from collections import defaultdict

MAGIC = b"DSQTB\r\n\x1a"


def header(path):
    with open(path, "rb") as f:
        data = f.read(4096)
    if data[:8] != MAGIC:
        raise ValueError("not a table")
    (version,) = struct.unpack_from("<I", data, 8)
    if version != 2:
        raise ValueError(f"version {version}")
    at = 12
    n = data[at]
    material = data[at + 1 : at + 1 + n].decode()
    at += 1 + n
    (rules_len,) = struct.unpack_from("<H", data, at)
    at += 2 + rules_len
    entries, longest = struct.unpack_from("<QH", data, at)
    at += 10
    won, drawn, lost = struct.unpack_from("<3Q", data, at)
    return material, entries, longest, won, drawn, lost


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    top = sys.argv[1]
    classes = defaultdict(lambda: {"tables": 0, "bytes": 0, "longest": (0, ""), "wdl": [0, 0, 0]})
    for name in sorted(os.listdir(top)):
        if not name.endswith(".dstb"):
            continue
        path = os.path.join(top, name)
        try:
            material, _, longest, won, drawn, lost = header(path)
        except (ValueError, struct.error) as e:
            print(f"skipped {name}: {e}", file=sys.stderr)
            continue
        red, blue = material.split("v")
        c = classes[f"{len(red)}v{len(blue)}"]
        c["tables"] += 1
        c["bytes"] += os.path.getsize(path)
        c["longest"] = max(c["longest"], (longest, material))
        for i, n in enumerate((won, drawn, lost)):
            c["wdl"][i] += n
    print("| class | tables | size on disk | longest win | won / drawn / lost (side to move) |")
    print("|---|---|---|---|---|")
    total = [0, 0]
    for key in sorted(classes, key=lambda k: (sum(map(int, k.split("v"))), k)):
        c = classes[key]
        n = sum(c["wdl"])
        shares = " / ".join(f"{100 * x / n:.1f} %" for x in c["wdl"])
        longest, material = c["longest"]
        print(f"| {key} | {c['tables']} | {c['bytes']:,} bytes | {longest} plies (`{material}`) | {shares} |")
        total[0] += c["tables"]
        total[1] += c["bytes"]
    print(f"| all | {total[0]} | {total[1]:,} bytes | | |")


if __name__ == "__main__":
    main()
