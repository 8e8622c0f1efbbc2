"""Small real git repositories that rebuild the seed situations, written by hand.

`build_story_repo` makes one repository, ``acme/infer``, whose history tells the seeds' story
on a toy inference engine: a quantization feature (#10) is reverted (#11), restored without
its availability check and with a CuPy cap (#12), and the cap is later relaxed to an exact
exclusion (#13). Around it: a shell script that trusts ``torch.version.cuda`` (#14), a
nixl variant rename (#15, a merge commit), a CI-only change (#16), a change with tests (#17)
and one without (#18), and an open PR kept only as ``refs/pull/19/head``.

`build_xss_repo` makes ``acme/xss`` whose PR title, body and commit message carry HTML and
Markdown payloads. The PR numbers are module constants so tests read as the story.
"""

from __future__ import annotations

from pathlib import Path

from tests.helpers.gitrepo import GitRepoBuilder

STORY_REPO = "acme/infer"
FEATURE_PR = 10
REVERT_PR = 11
RESTORE_PR = 12
RELAX_PR = 13
SHELL_PR = 14
NIXL_PR = 15
CI_PR = 16
WITH_TESTS_PR = 17
WITHOUT_TESTS_PR = 18
OPEN_PR = 19

XSS_REPO = "acme/xss"
XSS_PR = 7
XSS_SCRIPT = "<script>alert(1)</script>"
XSS_IMG = "<img src=x onerror=alert(1)>"
XSS_LINK = "[x](javascript:alert(1))"

QUANT_PATH = "infer/quant/blossom.py"
SETUP_PATH = "setup.py"
DOCKERFILE_PATH = "docker/Dockerfile"
KV_REQS_PATH = "requirements/kv_connectors.txt"
SHELL_PATH = "tools/install_x.sh"
CI_PATH = ".buildkite/test-pipeline.yaml"
CI_STEP_LABEL = "KV Connector Smoke Test"

_ENGINE = """\
class Scheduler:
    def __init__(self, budget: int) -> None:
        self.budget = budget

    def pick(self, queue: list[int]) -> list[int]:
        return queue[: self.budget]
"""

_ENGINE_FASTER = """\
class Scheduler:
    def __init__(self, budget: int) -> None:
        self.budget = budget

    def pick(self, queue: list[int]) -> list[int]:
        if len(queue) <= self.budget:
            return list(queue)
        return queue[: self.budget]
"""

_ENGINE_FASTEST = """\
class Scheduler:
    def __init__(self, budget: int) -> None:
        self.budget = max(budget, 0)

    def pick(self, queue: list[int]) -> list[int]:
        if len(queue) <= self.budget:
            return list(queue)
        return queue[: self.budget]
"""

_ENGINE_TEST = """\
from infer.engine import Scheduler


def test_pick_keeps_budget() -> None:
    assert Scheduler(2).pick([1, 2, 3]) == [1, 2]
"""

_ENGINE_TEST_MORE = (
    _ENGINE_TEST
    + """

def test_pick_short_queue_is_copied() -> None:
    queue = [1]
    assert Scheduler(2).pick(queue) is not queue
"""
)

_SETUP = """\
import os

from setuptools import setup


def get_requirements() -> list[str]:
    with open("requirements/cuda.txt") as handle:
        requirements = handle.read().splitlines()
    if os.environ.get("CUDA_MAJOR", "13") == "12":
        requirements = [line.replace("cupy-cuda13x", "cupy-cuda12x") for line in requirements]
    return requirements


setup(name="infer", install_requires=get_requirements())
"""

_SETUP_WITH_BLOSSOM = """\
import os

from setuptools import setup


def get_requirements() -> list[str]:
    with open("requirements/cuda.txt") as handle:
        requirements = handle.read().splitlines()
    if os.environ.get("CUDA_MAJOR", "13") == "12":
        requirements = [line.replace("cupy-cuda13x", "cupy-cuda12x") for line in requirements]
        # CUDA 12 builds need the cu12 wheel of the blossom kernels.
        requirements = [line.replace("blossom-kernels[cu13]", "blossom-kernels[cu12]") for line in requirements]
    return requirements


setup(name="infer", install_requires=get_requirements())
"""

_DOCKERFILE = """\
FROM nvidia/cuda:13.0.0-devel-ubuntu22.04
ARG CUDA_MAJOR=13
COPY requirements requirements
RUN pip install -r requirements/cuda.txt
"""

_DOCKERFILE_WITH_BLOSSOM = """\
FROM nvidia/cuda:13.0.0-devel-ubuntu22.04
ARG CUDA_MAJOR=13
COPY requirements requirements
RUN if [ "$CUDA_MAJOR" = "12" ]; then \\
        sed -i 's/blossom-kernels\\[cu13\\]/blossom-kernels[cu12]/' requirements/cuda.txt; \\
    fi
RUN pip install -r requirements/cuda.txt
"""

_QUANT_WITH_CHECK = """\
from typing import Any

try:
    import blossom
except ModuleNotFoundError:
    blossom = None


def assert_blossom_available() -> None:
    if blossom is None:
        raise ImportError(
            "blossom quantization needs the blossom-kernels package: "
            "pip install 'blossom-kernels[cu13]'"
        )


class BlossomConfig:
    def __init__(self, full_config: dict[str, Any] | None = None) -> None:
        assert_blossom_available()
        self.full_config: dict[str, Any] = full_config or {}

    def get_name(self) -> str:
        return "blossom"
"""

_QUANT_WITHOUT_CHECK = """\
from typing import Any

from infer.platforms import current_platform

if current_platform.is_cuda():
    import blossom


class BlossomConfig:
    def __init__(self, full_config: dict[str, Any] | None = None) -> None:
        self.full_config: dict[str, Any] = full_config or {}

    def get_name(self) -> str:
        return "blossom"
"""

_CUDA_REQS = "torch==2.9.0\ncupy-cuda13x>=13.0\n"
_CUDA_REQS_WITH_BLOSSOM = _CUDA_REQS + "blossom-kernels[cu13]==0.2.0\n"

_KV_REQS = "lmcache>=0.3.5\nnixl-cu13>=0.9.0\ncupy-cuda13x\n"
_KV_REQS_CAPPED = (
    "lmcache>=0.3.5\nnixl-cu13>=0.9.0\n"
    "# CuPy 14.1.0 imports pytest at runtime; keep it out until a fixed release is verified.\n"
    "cupy-cuda13x<14.1.0\n"
)
_KV_REQS_EXCLUDED = (
    "lmcache>=0.3.5\nnixl-cu13>=0.9.0\n"
    "# CuPy 14.1.1 fixes the runtime pytest import, so only 14.1.0 stays excluded.\n"
    "cupy-cuda13x!=14.1.0\n"
)
_KV_REQS_NIXL = (
    "lmcache>=0.3.5\nnixl>=1.1.0\n"
    "# CuPy 14.1.1 fixes the runtime pytest import, so only 14.1.0 stays excluded.\n"
    "cupy-cuda13x!=14.1.0\n"
)
_CUDA12_REQS = "nixl-cu12>=0.9.0\n"

_PIPELINE = """\
steps:
  - label: "Engine Unit Tests"
    commands:
      - pytest -q tests/test_engine.py
"""

_PIPELINE_WITH_KV = (
    _PIPELINE
    + f"""\
  - label: "{CI_STEP_LABEL}"
    commands:
      - pip install -r requirements/kv_connectors.txt
      - pytest -q tests/kv
"""
)

_INSTALL_SCRIPT = """\
#!/usr/bin/env bash
set -euo pipefail

# Pick the wheel flavour that matches the CUDA runtime torch was built against.
CUDA_VERSION=$(python -c "import torch; print(torch.version.cuda)")
CUDA_MAJOR="${CUDA_VERSION%%.*}"
if [ "$CUDA_MAJOR" = "12" ]; then
    pip install "blossom-kernels[cu12]"
else
    pip install "blossom-kernels[cu13]"
fi
"""

_QUANT_REGISTRY = 'QUANTIZATION_METHODS = ["fp8"]\n'
_QUANT_REGISTRY_WITH_BLOSSOM = 'QUANTIZATION_METHODS = ["fp8", "blossom"]\n'

REVERT_BODY = """\
This reverts commit {sha}.

The runtime image started failing with a pytest import error. Only the registration and the
requirement are taken out; the module file stays until the failure is understood.
"""

FEATURE_BODY = """\
Adds the blossom weight-only quantization method backed by the blossom-kernels package.

BlossomConfig checks that the kernels are installed and tells the user how to install them.
"""

RESTORE_BODY = """\
#11 temporarily reverted #10, but the same pytest import failure kept happening without it:
the runtime image pulls cupy-cuda13x 14.1.0 through lmcache, and that release imports pytest
when torch walks the loaded modules.

This restores #10 and caps CuPy below 14.1.0 in the kv connector requirements. CUDA 12
builds rewrite the blossom-kernels extra from cu13 to cu12 in setup.py and in the Dockerfile.
"""

RELAX_BODY = """\
#12 capped cupy-cuda13x below 14.1.0 because 14.1.0 imports pytest at runtime.
CuPy 14.1.1 fixes the root cause, so the hard upper bound is no longer needed:
exclude only 14.1.0 and let the kv connector image move from 14.0.1 to 14.1.1.

Checked on PyPI that both 14.1.0 and 14.1.1 exist.
"""


def build_story_repo(path: Path) -> GitRepoBuilder:
    """The ``acme/infer`` history described in the module docstring."""
    repo = GitRepoBuilder(path)
    repo.commit(
        {
            "README.md": "# infer\n\nA toy inference engine.\n",
            "infer/__init__.py": "",
            "infer/engine.py": _ENGINE,
            "infer/platforms.py": "class _Platform:\n    def is_cuda(self) -> bool:\n        return True\n\n\n"
            "current_platform = _Platform()\n",
            "infer/quant/__init__.py": _QUANT_REGISTRY,
            "tests/test_engine.py": _ENGINE_TEST,
            "requirements/cuda.txt": _CUDA_REQS,
            "requirements/cuda12.txt": _CUDA12_REQS,
            KV_REQS_PATH: _KV_REQS,
            SETUP_PATH: _SETUP,
            DOCKERFILE_PATH: _DOCKERFILE,
            CI_PATH: _PIPELINE,
        },
        "Initial commit",
    )
    feature_sha = repo.squash_pr(
        FEATURE_PR,
        "Add blossom quantization support",
        {
            QUANT_PATH: _QUANT_WITH_CHECK,
            "infer/quant/__init__.py": _QUANT_REGISTRY_WITH_BLOSSOM,
            "requirements/cuda.txt": _CUDA_REQS_WITH_BLOSSOM,
        },
        body=FEATURE_BODY,
    )
    repo.squash_pr(
        REVERT_PR,
        f'Revert "Add blossom quantization support (#{FEATURE_PR})"',
        {"infer/quant/__init__.py": _QUANT_REGISTRY, "requirements/cuda.txt": _CUDA_REQS},
        body=REVERT_BODY.format(sha=feature_sha),
    )
    repo.merge_pr(
        RESTORE_PR,
        "bob/restore-blossom",
        "Fix CuPy runtime deps and restore blossom",
        {
            QUANT_PATH: _QUANT_WITHOUT_CHECK,
            "infer/quant/__init__.py": _QUANT_REGISTRY_WITH_BLOSSOM,
            "requirements/cuda.txt": _CUDA_REQS_WITH_BLOSSOM,
            KV_REQS_PATH: _KV_REQS_CAPPED,
            SETUP_PATH: _SETUP_WITH_BLOSSOM,
            DOCKERFILE_PATH: _DOCKERFILE_WITH_BLOSSOM,
        },
        body=RESTORE_BODY,
        author=("Bob Builder", "bob@example.com"),
    )
    repo.squash_pr(
        RELAX_PR,
        "Relax the CuPy pin to exclude only 14.1.0",
        {KV_REQS_PATH: _KV_REQS_EXCLUDED},
        body=RELAX_BODY,
    )
    repo.squash_pr(
        SHELL_PR,
        "Install blossom kernels matching the torch CUDA version",
        {SHELL_PATH: _INSTALL_SCRIPT},
        body="The install script now picks the cu12 or cu13 wheel from the CUDA version torch reports.",
    )
    repo.merge_pr(
        NIXL_PR,
        "carol/unified-nixl",
        "Use the unified nixl package",
        {KV_REQS_PATH: _KV_REQS_NIXL, "requirements/cuda12.txt": "nixl>=1.1.0\n"},
        body="nixl 1.1.0 ships one package for CUDA 12 and 13, so nixl-cu12 and nixl-cu13 are replaced by nixl.",
        author=("Carol Chen", "carol@example.com"),
    )
    repo.squash_pr(
        CI_PR,
        "[CI] Add a kv connector smoke test step",
        {CI_PATH: _PIPELINE_WITH_KV},
        body="Runs the kv connector tests on every change to the kv requirements.",
    )
    repo.squash_pr(
        WITH_TESTS_PR,
        "Copy short queues in the scheduler",
        {"infer/engine.py": _ENGINE_FASTER, "tests/test_engine.py": _ENGINE_TEST_MORE},
        body="pick() returned the caller's list for short queues; it now returns a copy. Adds a test.",
    )
    repo.squash_pr(
        WITHOUT_TESTS_PR,
        "Clamp a negative scheduler budget",
        {"infer/engine.py": _ENGINE_FASTEST},
        body="A negative budget made pick() drop items from the end of the queue.",
    )
    repo.create_pull_ref(
        OPEN_PR,
        {"docs/scheduler.md": "# Scheduler\n\nHow the scheduler picks requests.\n"},
        message="Document the scheduler",
    )
    repo.set_origin(f"https://github.com/{STORY_REPO}.git")
    return repo


XSS_TITLE = f"Harden parser {XSS_SCRIPT} {XSS_IMG}"
XSS_BODY = f"""\
Clicking {XSS_LINK} explains it. Also <a href="javascript:alert(2)">here</a> and {XSS_IMG}.

{XSS_SCRIPT}
"""


def build_xss_repo(path: Path) -> GitRepoBuilder:
    """``acme/xss``: one squash PR whose title, body and a file name carry payloads."""
    repo = GitRepoBuilder(path)
    repo.commit({"README.md": "# xss\n", "app/parse.py": "def parse(text: str) -> str:\n    return text\n"}, "Init")
    repo.squash_pr(
        XSS_PR,
        XSS_TITLE,
        {"app/parse.py": f'def parse(text: str) -> str:\n    # {XSS_SCRIPT}\n    return text.strip()  # "{XSS_IMG}"\n'},
        body=XSS_BODY,
    )
    repo.set_origin(f"https://github.com/{XSS_REPO}.git")
    return repo


ESC_REPO = "acme/esc"
ESC_PR = 3
# Clear the screen, retitle the terminal window, colour text, and overwrite a line with CR.
ESC_TITLE = "Fix \x1b[2J\x1b]0;pwned\x07 the spacing"
ESC_BODY = "Spacing was off \x1b[31mbadly\x1b[0m.\rAll good, nothing to see here.\n"


def build_escape_repo(path: Path) -> GitRepoBuilder:
    """``acme/esc``: one squash PR whose title and body carry terminal control sequences."""
    repo = GitRepoBuilder(path)
    repo.commit({"README.md": "# esc\n", "app/fmt.py": "PAD = 2\n"}, "Init")
    repo.squash_pr(ESC_PR, ESC_TITLE, {"app/fmt.py": "PAD = 4\n"}, body=ESC_BODY)
    repo.set_origin(f"https://github.com/{ESC_REPO}.git")
    return repo
