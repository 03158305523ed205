#!/usr/bin/env python3
"""The longest Rust functions in the files given: lines from a `fn` line to the closing brace at
its own indent, inclusive (rustfmt-formatted code; a one-line `fn …;` declaration is skipped).

Usage: python3 tests/scripts/fn-lengths.py src/service/*.rs [--top 6]
Why: issue #45's rule "no function over 60 lines" for the shells, checked by one command.
"""
import re
import sys


def lengths(path):
    lines = open(path, encoding="utf-8").read().split("\n")
    for i, line in enumerate(lines):
        m = re.match(r"^(\s*)(pub(\([^)]*\))? )?(async )?fn (\w+)", line)
        if not m or line.rstrip().endswith(";"):
            continue
        for j in range(i, len(lines)):
            if lines[j] == m.group(1) + "}":
                yield j - i + 1, path, m.group(5), i + 1
                break


def main(argv):
    top = 6
    if "--top" in argv:
        at = argv.index("--top")
        top = int(argv[at + 1])
        del argv[at : at + 2]
    rows = sorted((row for path in argv for row in lengths(path)), reverse=True)
    for count, path, name, line in rows[:top]:
        print(f"{count:4} {path}:{line} {name}")


if __name__ == "__main__":
    main(sys.argv[1:])
