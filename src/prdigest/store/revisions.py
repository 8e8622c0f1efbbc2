"""The schema revisions this code knows (standard library only: read by `prdigest.store.quick`)."""

from __future__ import annotations

# Every revision this code knows, oldest first. A test checks it matches migrations/versions.
KNOWN_REVISIONS: tuple[str, ...] = ("0001", "0002", "0003", "0004", "0005", "0006", "0007", "0008")
HEAD_REVISION = KNOWN_REVISIONS[-1]
