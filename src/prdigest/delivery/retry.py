"""Bounded retries with doubling delays for one delivery."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


class Attempts(Exception):
    """Every try failed: the last error, and how many tries were made."""

    def __init__(self, last: Exception, tries: int) -> None:
        super().__init__(str(last))
        self.last = last
        self.tries = tries


def with_retries(
    action: Callable[[], T],
    *,
    retries: int,
    delay: float,
    retryable: Callable[[Exception], bool] = lambda exc: True,
    sleep: Callable[[float], None] = time.sleep,
) -> T:
    """``action()``, tried again up to ``retries`` times after a failure ``retryable`` accepts,
    waiting ``delay`` seconds, then twice that, and so on. Raises `Attempts` when it gives up."""
    tries = 0
    wait = delay
    while True:
        tries += 1
        try:
            return action()
        except Exception as exc:
            if tries > retries or not retryable(exc):
                raise Attempts(exc, tries) from exc
        sleep(wait)
        wait *= 2
