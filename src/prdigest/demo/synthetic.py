"""A large synthetic PR history written with ``git fast-import`` (seconds for thousands of PRs).

For the benchmark and for tests that need volume (resume after a kill): squash commits
``Title (#N)`` and, every fifth PR, a merge commit over a one-commit topic branch, each
editing a few lines in one to four of a pool of Python and Markdown files.
"""

from __future__ import annotations

import random
import subprocess
from pathlib import Path

from prdigest.demo.builder import DEFAULT_START, RepoBuilder

_WORDS = ("cache", "kernel", "router", "batch", "token", "shard", "stream", "layout", "quant", "sched")


def _initial_file(rng: random.Random, index: int, lines: int) -> list[str]:
    body = [f'"""Module {index}: synthetic code for benchmarks."""', ""]
    for n in range(lines):
        word = rng.choice(_WORDS)
        body.append(
            f"def {word}_{index}_{n}(value: int) -> int:" if n % 4 == 0 else f"    return value + {n}  # {word}"
        )
    return body


def _data(payload: bytes) -> bytes:
    return b"data %d\n" % len(payload) + payload + b"\n"


def write_synthetic_history(path: Path, prs: int, *, seed: int = 7, files: int = 300, lines: int = 120) -> Path:
    """Create a new repository at ``path`` with ``prs`` merged PRs on ``main``."""
    builder = RepoBuilder(path)
    builder.set_origin("https://github.com/example-org/synthetic.git")
    rng = random.Random(seed)
    contents = {f"pkg/module_{i:03d}.py": _initial_file(rng, i, lines) for i in range(files)}
    contents["README.md"] = ["# synthetic", "", *(f"- item {n}" for n in range(20))]
    stream = bytearray()
    stamp = int(DEFAULT_START.timestamp())
    mark = 0

    def commit(ref: str, message: str, changed: list[str], parents: list[int], who: str) -> int:
        nonlocal mark, stamp
        mark += 1
        stamp += 600
        stream.extend(f"commit {ref}\nmark :{mark}\n".encode())
        stream.extend(f"author {who} <{who.lower().replace(' ', '.')}@example.com> {stamp} +0000\n".encode())
        stream.extend(f"committer {who} <{who.lower().replace(' ', '.')}@example.com> {stamp} +0000\n".encode())
        stream.extend(_data(message.encode()))
        if parents:
            stream.extend(f"from :{parents[0]}\n".encode())
        for parent in parents[1:]:
            stream.extend(f"merge :{parent}\n".encode())
        for name in changed:
            stream.extend(f"M 100644 inline {name}\n".encode())
            stream.extend(_data(("\n".join(contents[name]) + "\n").encode()))
        return mark

    main = commit("refs/heads/main", "Initial import\n", sorted(contents), [], "Grace Hopper")
    names = sorted(contents)
    for number in range(1, prs + 1):
        changed = rng.sample(names, rng.randint(1, 4))
        for name in changed:
            body = contents[name]
            for _ in range(rng.randint(1, 6)):
                at = rng.randrange(2, len(body))
                body[at] = f"    return value * {rng.randint(2, 99)}  # {rng.choice(_WORDS)} tuned in #{number}"
            if rng.random() < 0.5:  # most real PRs also add a block of new code
                at = rng.randrange(2, len(body))
                size = rng.randint(5, 60)
                block = [
                    f"def {rng.choice(_WORDS)}_{number}_{n}(value: int) -> int:"
                    if n % 5 == 0
                    else f"    value += {rng.randint(1, 999)}  # {rng.choice(_WORDS)} step {n}"
                    for n in range(size)
                ]
                body[at:at] = block
        who = rng.choice(("Ada Lovelace", "Alan Turing", "Barbara Liskov", "Ken Thompson"))
        title = f"Improve {rng.choice(_WORDS)} {rng.choice(_WORDS)} handling"
        text = (
            f"Motivation: {title.lower()} for #{max(1, number - 3)}.\n\n"
            "Co-authored-by: Grace Hopper <grace@example.com>\n"
        )
        if number % 5 == 0:
            topic = commit("refs/heads/topic", f"{title}\n", changed, [main], who)
            main = commit(
                "refs/heads/main",
                f"Merge pull request #{number} from {who.split()[0].lower()}/topic-{number}\n\n{title}\n\n{text}",
                changed,
                [main, topic],
                "Grace Hopper",
            )
        else:
            main = commit("refs/heads/main", f"{title} (#{number})\n\n{text}", changed, [main], who)
    subprocess.run(
        ["git", "fast-import", "--quiet", "--force"], cwd=path, input=bytes(stream), check=True, capture_output=True
    )
    subprocess.run(["git", "update-ref", "-d", "refs/heads/topic"], cwd=path, check=False, capture_output=True)
    return path
