"""Python definitions read piece by piece vs the whole file's tree-sitter reading, on a clone.

    .venv/bin/python benchmarks/py_definitions_compare.py CLONE [--samples 60] [--show 5]

Every distinct .py/.pyi blob at ``--samples`` commits spread over the first-parent history is
read both ways (`py_definitions.PieceDefinitions` and `extract.extract_definitions`); prints how
many agree, differ, or were left to the whole file, and the first differences. Exits 1 when
any differ. Not a test: it needs a real history.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

from prdigest.analyzers.symbols.extract import MAX_PARSE_CHARS, extract_definitions
from prdigest.analyzers.symbols.py_definitions import PieceDefinitions


def python_blobs(clone: Path, samples: int) -> dict[str, str]:
    """Blob id -> one path it is at, over ``samples`` first-parent commits."""
    commits = subprocess.run(
        ["git", "-C", str(clone), "rev-list", "--first-parent", "HEAD"], capture_output=True, text=True, check=True
    ).stdout.split()
    step = max(1, len(commits) // max(samples, 1))
    blobs: dict[str, str] = {}
    for commit in commits[::step][:samples]:
        listing = subprocess.run(
            ["git", "-C", str(clone), "ls-tree", "-r", commit], capture_output=True, text=True, check=True
        ).stdout
        for line in listing.splitlines():
            meta, path = line.split("\t", 1)
            if path.endswith((".py", ".pyi")):
                blobs.setdefault(meta.split()[2], path)
    return blobs


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("clone", type=Path)
    parser.add_argument("--samples", type=int, default=60)
    parser.add_argument("--show", type=int, default=5)
    args = parser.parse_args()
    blobs = python_blobs(args.clone, args.samples)
    cache = PieceDefinitions(max_pieces=100_000)
    same = differ = whole = 0
    reader = subprocess.Popen(
        ["git", "-C", str(args.clone), "cat-file", "--batch"], stdin=subprocess.PIPE, stdout=subprocess.PIPE
    )
    assert reader.stdin is not None
    assert reader.stdout is not None
    for blob, path in blobs.items():
        reader.stdin.write(blob.encode() + b"\n")
        reader.stdin.flush()
        size = int(reader.stdout.readline().split()[2])
        text = reader.stdout.read(size).decode("utf-8", "surrogateescape")
        reader.stdout.read(1)
        if not text or len(text) > MAX_PARSE_CHARS:
            continue
        by_pieces = cache.definitions(text, "python")
        if by_pieces is None:
            whole += 1
            continue
        expected = extract_definitions(text, "python")
        if by_pieces == expected:
            same += 1
            continue
        differ += 1
        if differ <= args.show:
            first = next((pair for pair in zip(expected, by_pieces, strict=False) if pair[0] != pair[1]), None)
            print(f"differ: {path} ({blob}): whole {len(expected)}, pieces {len(by_pieces)}; first: {first}")
    reader.stdin.close()
    reader.wait()
    print(f"{len(blobs)} blobs: {same} equal, {differ} differ, {whole} left to the whole file")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
