"""One PR's failure never stops a feed or a publish: its item says it could not be written.

What counts as one PR's failure: anything raised while loading, analyzing, narrating or
building that PR (a stored record that no longer validates, an analyzer or narrator bug).
What does not: the database failing (`StoreError`, a driver error): every other PR would
fail the same way, so the command stops with that one error; nor a Ctrl-C that a library
handed back as its own error (`prdigest.interrupts`): the command stops as interrupted.
"""

from __future__ import annotations

from dataclasses import dataclass

from pydantic import ValidationError

from prdigest.errors import PrdigestError, StoreError
from prdigest.interrupts import CTRL_C
from prdigest.store.failures import DATABASE_ERRORS

# Raised through, never turned into an item.
FATAL: tuple[type[BaseException], ...] = (StoreError, *DATABASE_ERRORS)
_MAX_REASON = 300


def raise_unless_item_failure(exc: Exception) -> None:
    """Raise again what is no one PR's failure (see the module's docstring): ``exc`` itself
    when the database failed, KeyboardInterrupt when Ctrl-C came (``exc`` may be it, wrapped)."""
    CTRL_C.raise_if_pressed()
    if isinstance(exc, FATAL):
        raise exc


@dataclass(frozen=True)
class ItemFailure:
    number: int
    reason: str


def failure_reason(exc: BaseException) -> str:
    """One line saying why: prdigest's own message, else the exception's kind and first line."""
    if isinstance(exc, ValidationError):
        errors = exc.errors()
        detail = str(errors[0].get("msg", "")) if errors else ""
        text = f"its stored data does not validate as {exc.title}" + (f" ({detail})" if detail else "")
    elif isinstance(exc, PrdigestError):
        text = str(exc)
    else:
        text = f"{type(exc).__name__}: {exc}"
    first = next((line.strip() for line in text.splitlines() if line.strip()), type(exc).__name__)
    return first if len(first) <= _MAX_REASON else first[: _MAX_REASON - 1] + "…"


def failure_summary(failures: list[ItemFailure], total: int, where: str) -> str:
    """The command's last line: how many PRs failed, the first reason, where the rest went."""
    first = failures[0]
    others = f" and {len(failures) - 1} more" if len(failures) > 1 else ""
    return (
        f"{len(failures)} of {total} pull requests could not be written (#{first.number}: {first.reason}"
        f"{others}); everything else was written to {where}"
    )
