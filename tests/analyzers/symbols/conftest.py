"""The hand-written PR builders as a fixture."""

from __future__ import annotations

import pytest
from tests.helpers.patches import file_change, git_patch, pull_request, unified_patch


class Builders:
    """The builders of tests.helpers.patches, handed to tests as one fixture (importlib mode: no conftest imports)."""

    unified_patch = staticmethod(unified_patch)
    git_patch = staticmethod(git_patch)
    file_change = staticmethod(file_change)
    pull_request = staticmethod(pull_request)


@pytest.fixture
def build() -> type[Builders]:
    return Builders
