"""A rate-limit gate shared by every client using one token (several worker processes).

`GitHubClient` calls the gate before each request and reports what GitHub said about the
budget, so a gate kept in a shared place (the workers keep theirs in Redis) makes every
process wait when one of them sees the budget run out or gets a 403/429. The client works
without one: a single process only needs its own waits.
"""

from __future__ import annotations

from typing import Protocol


class RateGate(Protocol):
    def paused_for(self) -> float:
        """Seconds this token's requests must still wait (0: go). The client waits them
        itself, so the wait counts against its ``max_wait`` and shows in its progress."""
        ...

    def observe(self, remaining: int | None, reset_at: float | None) -> None:
        """What a response said: requests left in the window and when it resets (epoch s)."""
        ...

    def pause(self, seconds: float, reason: str) -> None:
        """A 403/429 asked to wait: pause every user of this token for ``seconds``."""
        ...
