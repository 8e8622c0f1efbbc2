"""``plural(1, "bundle")`` → ``1 bundle``: counts in the CLI's English messages."""

from __future__ import annotations


def plural(count: int, noun: str, many: str | None = None) -> str:
    """`count` and `noun`, in the plural (``noun + "s"`` unless `many` says) unless it is 1."""
    return f"{count} {noun if count == 1 else (many or noun + 's')}"
