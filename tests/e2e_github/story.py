"""The story of this area's fixtures, rebuilt from seed 002 on ``acme/widgets``: #301 adds the
lumen quantization method, #302 reverts it, #303 restores it without its availability check and
caps CuPy (with the review discussion), #304 is a quiet PR with no review comments and #305
carries hostile review text. The bundles are hand-written JSON in docs/bundle-format.md's
shape; ``fixtures/fake`` is the same story as the fake GitHub's GraphQL and REST answers."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

FIXTURES = Path(__file__).parent / "fixtures"
BUNDLES = FIXTURES / "bundles"
FAKE = FIXTURES / "fake"
REPO = "acme/widgets"  # the fake GitHub serves only this repository
FEATURE, REVERT, RESTORE, QUIET, UNTRUSTED = 301, 302, 303, 304, 305
STORY = (FEATURE, REVERT, RESTORE, QUIET)
TOKEN = "ghp_E2EGITHUBTOKEN0123456789SECRET"


def ref(number: int) -> str:
    return f"{REPO}#{number}"


def bundle_path(number: int) -> Path:
    (found,) = BUNDLES.glob(f"{number}_*.json")
    return found


def load_bundle(number: int) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(bundle_path(number).read_text(encoding="utf-8"))
    return data
