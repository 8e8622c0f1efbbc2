"""Micro-benchmark of the symbols analyzer (prints timings; not a test).

Takes real source files (by default the installed pydantic package, or a directory given
as the first argument), makes a few one-line edits per file, and times symbol extraction and excerpt
selection per file. Run: .venv/bin/python benchmarks/symbols_micro.py [DIR] [LIMIT] [EDITS_PER_FILE]
"""

from __future__ import annotations

import difflib
import sys
import time
from pathlib import Path

from prdigest.analyzers.symbols import analyze_symbols
from prdigest.analyzers.symbols.languages import grammar_key_for_path
from prdigest.models.pullrequest import FileChange, PullRequest


def edited(text: str, edits: int) -> str:
    """``edits`` one-line edits spread evenly over the file, like a typical PR."""
    lines = text.splitlines(keepends=True)
    for i in range(0, len(lines), max(len(lines) // max(edits, 1), 1)):
        lines[i] = lines[i].rstrip("\n") + "  # edited\n"
    return "".join(lines)


def main() -> None:
    if len(sys.argv) > 1:
        root = Path(sys.argv[1])
    else:
        import pydantic

        root = Path(pydantic.__file__).parent
    limit = int(sys.argv[2]) if len(sys.argv) > 2 else 200
    edits = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    paths = [p for p in sorted(root.rglob("*")) if p.is_file() and grammar_key_for_path(p.name)][:limit]
    files: list[FileChange] = []
    total_bytes = 0
    for path in paths:
        before = path.read_text(encoding="utf-8", errors="replace")
        after = edited(before, edits)
        diff = difflib.unified_diff(before.splitlines(keepends=True), after.splitlines(keepends=True))
        patch = "".join(list(diff)[2:])
        total_bytes += len(before)
        files.append(
            FileChange(
                path=str(path.relative_to(root)),
                patch=patch,
                content_before=before,
                content_after=after,
            )
        )
    pr = PullRequest(repository="bench/bench", number=1, title="bench", files=files)
    key_paths = [f.path for f in files[:5]]

    started = time.perf_counter()
    with_contents = analyze_symbols(pr, key_paths, set())
    contents_seconds = time.perf_counter() - started

    patch_only = pr.model_copy(
        update={"files": [f.model_copy(update={"content_before": None, "content_after": None}) for f in files]}
    )
    started = time.perf_counter()
    from_patches = analyze_symbols(patch_only, key_paths, set())
    patch_seconds = time.perf_counter() - started

    print(f"{len(files)} files, {total_bytes / 1e6:.1f} MB of source")
    print(
        f"tree-sitter: {contents_seconds * 1000:.0f} ms total, "
        f"{contents_seconds / max(len(files), 1) * 1000:.2f} ms/file, {len(with_contents.symbols)} symbols"
    )
    print(
        f"hunk headers: {patch_seconds * 1000:.0f} ms total, "
        f"{patch_seconds / max(len(files), 1) * 1000:.2f} ms/file, {len(from_patches.symbols)} symbols"
    )


if __name__ == "__main__":
    main()
