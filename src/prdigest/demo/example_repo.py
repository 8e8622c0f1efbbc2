"""The README's demo repository: a small project with a realistic pull-request history.

    python -m prdigest.demo.example_repo PATH     # then: prdigest sync git PATH

Twelve PRs on ``main`` (squash and merge commits): a fused kernel with tests, a requirements
pin ``cupy-cuda13x<14.1.0`` → ``!=14.1.0``, a feature added, reverted (``Revert "..."`` +
``This reverts commit X.``) and restored, a CI change, a removed ``assert_cupy_available()``
helper (no tests), a Dockerfile + setup.py duplicated rewrite, co-authors, ``#N`` references.
"""

from __future__ import annotations

import sys
from pathlib import Path

from prdigest.demo.builder import RepoBuilder

ORIGIN_URL = "https://github.com/example-org/example-project.git"
ALICE = ("Alice Chen", "alice@example.com")
BOB = ("Bob Martin", "bob@example.com")
CAROL = ("Carol Diaz", "carol@example.com")
MAINTAINER = ("Dana Maintainer", "dana@example.com")

KERNELS_V1 = '''"""GPU kernels with a CPU fallback."""

import numpy as np


def assert_cupy_available() -> None:
    """Fail early with a clear message when CuPy is missing."""
    try:
        import cupy  # noqa: F401
    except ImportError as exc:
        raise RuntimeError("CuPy is required for GPU kernels") from exc


def softmax(x: np.ndarray) -> np.ndarray:
    assert_cupy_available()
    shifted = x - x.max(axis=-1, keepdims=True)
    exp = np.exp(shifted)
    return exp / exp.sum(axis=-1, keepdims=True)


def gelu(x: np.ndarray) -> np.ndarray:
    assert_cupy_available()
    return 0.5 * x * (1.0 + np.tanh(0.7978845608 * (x + 0.044715 * x**3)))
'''

KERNELS_V2 = '''"""GPU kernels with a CPU fallback."""

import numpy as np


def softmax(x: np.ndarray) -> np.ndarray:
    shifted = x - x.max(axis=-1, keepdims=True)
    exp = np.exp(shifted)
    return exp / exp.sum(axis=-1, keepdims=True)


def gelu(x: np.ndarray) -> np.ndarray:
    return 0.5 * x * (1.0 + np.tanh(0.7978845608 * (x + 0.044715 * x**3)))
'''

SCHEDULER_V1 = '''"""Paged-attention request scheduler."""

from collections import deque


class PagedScheduler:
    def __init__(self, block_size: int) -> None:
        self.block_size = block_size
        self.waiting: deque[str] = deque()

    def add(self, request_id: str) -> None:
        self.waiting.append(request_id)

    def schedule(self) -> list[str]:
        batch = list(self.waiting)
        self.waiting.clear()
        return batch
'''

SCHEDULER_V2 = SCHEDULER_V1.replace(
    "    def __init__(self, block_size: int) -> None:\n        self.block_size = block_size\n",
    "    def __init__(self, block_size: int, max_batch: int = 64) -> None:\n"
    "        self.block_size = block_size\n        self.max_batch = max_batch\n",
).replace(
    "        batch = list(self.waiting)\n        self.waiting.clear()\n        return batch\n",
    "        batch = []\n        while self.waiting and len(batch) < self.max_batch:\n"
    "            batch.append(self.waiting.popleft())\n        return batch\n",
)

SETUP_V1 = """from setuptools import find_packages, setup

setup(
    name="example-project",
    version="0.1.0",
    packages=find_packages("src"),
    package_dir={"": "src"},
    install_requires=["numpy>=1.26"],
)
"""

DOCKERFILE_V1 = """FROM nvidia/cuda:12.4.1-devel-ubuntu22.04
RUN apt-get update && apt-get install -y python3-pip
COPY . /app
WORKDIR /app
RUN pip install -r requirements/cuda.txt && pip install .
"""

# The same architecture list pasted into two build files: the duplication a reviewer flags.
ARCH_LIST = "7.0 7.5 8.0 8.6 8.9 9.0 10.0 12.0"

CI_V1 = """name: ci
on: [push, pull_request]
jobs:
  test:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - run: pip install -e . pytest
      - run: pytest -q
"""


def build_example_repository(path: Path) -> Path:
    """Create the example repository at ``path`` (a new or empty folder); returns ``path``."""
    repo = RepoBuilder(path, author=MAINTAINER)
    repo.set_origin(ORIGIN_URL)
    repo.commit(
        {
            "README.md": "# example-project\n\nFast kernels and a scheduler for LLM serving.\n",
            "setup.py": SETUP_V1,
            "Dockerfile": DOCKERFILE_V1,
            "requirements/cuda.txt": "numpy>=1.26\ncupy-cuda13x<14.1.0\n",
            "src/example_project/__init__.py": '__version__ = "0.1.0"\n',
            "src/example_project/kernels.py": KERNELS_V1,
            "tests/test_kernels.py": "from example_project.kernels import gelu\n\n\ndef test_gelu_zero():\n"
            "    assert gelu(0.0) == 0.0\n",
            ".github/workflows/ci.yml": CI_V1,
        },
        "Initial commit\n",
    )
    repo.merge_pr(
        101,
        "alice/fused-rms-norm",
        "Add fused RMS norm kernel",
        {
            "src/example_project/fused_norm.py": '"""Fused RMS norm."""\n\nimport numpy as np\n\n\n'
            "def rms_norm(x: np.ndarray, weight: np.ndarray, eps: float = 1e-6) -> np.ndarray:\n"
            "    scale = 1.0 / np.sqrt((x * x).mean(axis=-1, keepdims=True) + eps)\n"
            "    return x * scale * weight\n",
            "tests/test_fused_norm.py": "import numpy as np\n\nfrom example_project.fused_norm import rms_norm\n\n\n"
            "def test_unit_weight_keeps_shape():\n    x = np.ones((2, 4))\n"
            "    assert rms_norm(x, np.ones(4)).shape == (2, 4)\n",
        },
        body="Motivation: the unfused norm costs two kernel launches per layer (see #97).\n\n"
        "Adds `rms_norm` and a shape test.",
        author=ALICE,
        merger=MAINTAINER,
    )
    feature = repo.squash_pr(
        103,
        "Add paged attention scheduler",
        {"src/example_project/scheduler.py": SCHEDULER_V1},
        body="Motivation: requests of different lengths waste KV-cache blocks. "
        "A paged scheduler hands out fixed-size blocks. Part of #98.",
        author=BOB,
    )
    repo.squash_pr(
        104,
        "Allow cupy-cuda13x 14.1.1 by excluding only the broken 14.1.0",
        {"requirements/cuda.txt": "numpy>=1.26\ncupy-cuda13x!=14.1.0\n"},
        body="The `<14.1.0` pin from #99 also blocked the fixed 14.1.1 release. Only 14.1.0 ships the broken wheel.",
        author=CAROL,
    )
    repo.squash_pr(
        105,
        'Revert "Add paged attention scheduler (#103)"',
        {"src/example_project/scheduler.py": None},
        body=f"This reverts commit {feature}.\n\nThe scheduler never caps a batch and ran out of memory "
        "under load (#106).",
        author=MAINTAINER,
    )
    repo.squash_pr(
        106,
        "CI: run the GPU test job nightly",
        {
            ".github/workflows/ci.yml": CI_V1.replace(
                "on: [push, pull_request]", "on:\n  push:\n  pull_request:\n  schedule:\n    - cron: '0 3 * * *'"
            )
        },
        body="Motivation: GPU regressions like the one behind #105 surfaced only after release.",
        author=ALICE,
    )
    repo.squash_pr(
        107,
        "Restore paged attention scheduler with a bounded batch",
        {
            "src/example_project/scheduler.py": SCHEDULER_V2,
            "tests/test_scheduler.py": "from example_project.scheduler import PagedScheduler\n\n\n"
            "def test_batch_is_bounded():\n    s = PagedScheduler(16, max_batch=2)\n"
            "    for n in range(5):\n        s.add(str(n))\n    assert len(s.schedule()) == 2\n",
        },
        body="Re-lands #103 (reverted in #105) with `max_batch` so a batch can no longer grow without bound.",
        author=BOB,
        co_authors=[ALICE],
    )
    repo.squash_pr(
        108,
        "Remove assert_cupy_available() from the CPU kernels",
        {"src/example_project/kernels.py": KERNELS_V2},
        body="The CPU fallback never needs CuPy; the check made `softmax` fail on machines without a GPU.",
        author=CAROL,
    )
    repo.merge_pr(
        109,
        "alice/cuda13-docker",
        "Build CUDA 13 wheels in Docker",
        {
            "Dockerfile": DOCKERFILE_V1.replace("12.4.1", "13.0.0") + f'ENV TORCH_CUDA_ARCH_LIST="{ARCH_LIST}"\n',
            "setup.py": SETUP_V1.replace(
                "from setuptools import find_packages, setup\n",
                f"import os\n\nfrom setuptools import find_packages, setup\n\nos.environ.setdefault("
                f'"TORCH_CUDA_ARCH_LIST", "{ARCH_LIST}")\n',
            ),
        },
        body="Motivation: CUDA 13 images are needed for the new cupy pin (#104).",
        author=ALICE,
        merger=MAINTAINER,
    )
    repo.squash_pr(
        110,
        "Document the scheduler options",
        {
            "README.md": "# example-project\n\nFast kernels and a scheduler for LLM serving.\n\n"
            "## Scheduler\n\n`PagedScheduler(block_size, max_batch=64)` (see #107).\n"
        },
        author=CAROL,
    )
    repo.squash_pr(
        111,
        "Speed up GELU with a cached tanh table",
        {
            "src/example_project/kernels.py": KERNELS_V2.replace(
                "def gelu(x: np.ndarray) -> np.ndarray:\n",
                "_SQRT_2_OVER_PI = 0.7978845608\n\n\ndef gelu(x: np.ndarray) -> np.ndarray:\n",
            ).replace("np.tanh(0.7978845608 *", "np.tanh(_SQRT_2_OVER_PI *"),
            "tests/test_kernels.py": "from example_project.kernels import gelu, softmax\n\n\ndef test_gelu_zero():\n"
            "    assert gelu(0.0) == 0.0\n\n\ndef test_softmax_sums_to_one():\n"
            "    import numpy as np\n\n    assert abs(softmax(np.ones(3)).sum() - 1.0) < 1e-9\n",
        },
        body="Motivation: GELU showed up at 4% of decode time in the profile from #100.",
        author=BOB,
        co_authors=[CAROL, ALICE],
    )
    repo.merge_pr(
        112,
        "carol/stream-shutdown",
        "Fix a race when a stream shuts down",
        {
            "src/example_project/stream.py": '"""Token streams."""\n\nimport threading\n\n\nclass Stream:\n'
            "    def __init__(self) -> None:\n        self._lock = threading.Lock()\n        self.closed = False\n\n"
            "    def close(self) -> None:\n        with self._lock:\n            self.closed = True\n",
        },
        body="Fixes #95: two threads could both observe `closed == False`.",
        author=CAROL,
        merger=MAINTAINER,
        extra_commits=[
            (
                {
                    "tests/test_stream.py": "from example_project.stream import Stream\n\n\ndef test_close():\n"
                    "    s = Stream()\n    s.close()\n    assert s.closed\n"
                },
                "Add a test for Stream.close",
            )
        ],
    )
    repo.squash_pr(
        113,
        "Release 0.2.0",
        {"src/example_project/__init__.py": '__version__ = "0.2.0"\n'},
        body="Includes #101, #104, #107, #108, #109, #111 and #112.",
        author=MAINTAINER,
    )
    return path


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m prdigest.demo.example_repo PATH", file=sys.stderr)
        return 2
    target = Path(args[0])
    if target.exists() and any(target.iterdir()):
        print(f"error: {target} exists and is not empty", file=sys.stderr)
        return 1
    build_example_repository(target)
    print(f"example repository written to {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
