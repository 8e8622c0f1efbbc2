"""No risk template that can contradict its line (issue 26): each evidence template is fed a
hand-written PR whose lines warrant it, and a near miss (a line that looks alike but shows
something else) that must not produce it. Every PR runs the whole default registry, as
`prdigest analyze` does, so the earlier analyzers' facts are the real ones."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from tests.helpers.patches import analyzed, file_change

from prdigest.analyzers.risks import EVIDENCE_TEMPLATES
from prdigest.models.pullrequest import FileChange, PullRequest, ReviewComment, ReviewThread


def pr(*files: FileChange, title: str = "Change the loader", body: str = "", threads: int = 0) -> PullRequest:
    """A PR of `files`; `threads` > 0 adds a correctness point on the first file (1: nobody
    answered it, 2: answered and resolved)."""
    review = []
    if threads:
        comments = [ReviewComment(author="reviewer", body="This will crash when the value is None, it is a bug.")]
        if threads == 2:
            comments.append(ReviewComment(author="dev", body="Good catch, fixed in the next commit."))
        review = [ReviewThread(path=files[0].path, line=1, comments=comments, resolved=threads == 2)]
    return PullRequest(
        repository="octo/demo", number=7, title=title, body=body, files=list(files), review_threads=review
    )


def emitted(pull: PullRequest) -> dict[str, list[dict[str, object]]]:
    """template -> the params of each item the risks analyzer gave it."""
    found: dict[str, list[dict[str, object]]] = {}
    for tag in analyzed(pull).risks.tags:
        for item in tag.items:
            found.setdefault(item.template, []).append(dict(item.params))
    return found


def source(path: str = "pkg/core.py", before: str = "X = 1\n", after: str = "X = 2\n") -> FileChange:
    return file_change(path, before, after)


def requirement(before: str, after: str, path: str = "requirements.txt") -> FileChange:
    return file_change(path, f"wheel\n{before}\n", f"wheel\n{after}\n")


def script(path: str, *added: str, before: str = "def run():\n    return 0\n") -> FileChange:
    """`before` with `added` lines put at the top of its function's body."""
    head, _, rest = before.partition("\n")
    return file_change(path, before, head + "\n" + "".join(f"    {line}\n" for line in added) + rest)


def with_a_test(*files: FileChange) -> tuple[FileChange, ...]:
    """`files` and a test changed with them (so no missing test is claimed beside)."""
    test = file_change("tests/test_core.py", "def test_x():\n    assert 1\n", "def test_x():\n    assert 2\n")
    return (*files, test)


WORKFLOW = "name: ci\non: push\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n      - run: pytest\n"
ARCHS = '"7.0 7.5 8.0 8.6 8.9 9.0"'
CHECK = "def assert_cupy_available():\n    import cupy\n\n\ndef softmax(x):\n    return x\n"
REWRITE_PY = "REQ = REQ.replace('humming-kernels[cu13]', 'humming-kernels[cu12]')\n"
REWRITE_SH = "RUN sed -i 's/humming-kernels\\[cu13\\]/humming-kernels[cu12]/' requirements.txt\n"
LOAD = "def load():\n    import cupy\n    return cupy\n"


def raising(*raise_lines: str) -> str:
    body = "".join(f"        {line}\n" for line in raise_lines)
    return f"def load():\n    try:\n        import cupy\n    except ImportError:\n{body}    return cupy\n"


def moved_check() -> tuple[FileChange, ...]:
    """`assert_cupy_available` leaves pkg/ext.py for pkg/checks.py, unchanged."""
    return (
        file_change("pkg/ext.py", CHECK, "def softmax(x):\n    return x\n"),
        file_change("pkg/checks.py", "X = 1\n", "X = 1\n\n\n" + CHECK.split("\n\n\n")[0] + "\n"),
    )


def dockerfile(*lines: str, added: str = "") -> FileChange:
    """An image whose base moves up, with `lines` kept and the line `added`."""
    body = "".join(f"{line}\n" for line in lines)
    return file_change("docker/Dockerfile", f"FROM python:3.11\n{body}", f"FROM python:3.12\n{body}{added}")


@dataclass(frozen=True)
class Case:
    template: str
    warranted: PullRequest  # its lines show what the template says
    params: dict[str, object]  # ... with these params (a subset of the item's)
    near_miss: PullRequest  # looks alike and shows something else
    why: str = ""


CASES = [
    Case(
        "dependency-constraint-change.change",
        pr(requirement("numpy>=1.20", "numpy>=1.20; python_version > '3.9'")),
        {"package": "numpy", "kinds": ["markers-changed"]},
        pr(requirement("numpy>=1.20; python_version>'3.9'", 'numpy >= 1.20 ; python_version > "3.9"')),
        "the same marker respelled constrains nothing new",
    ),
    Case(
        "version-lock.change",
        pr(requirement("numpy>=1.20", "numpy>=1.20,<3")),
        {"package": "numpy", "before": ">=1.20", "after": "<3,>=1.20"},
        pr(requirement("numpy>=1.20,<3", "numpy>=1.20,<4")),
        "a cap moved up unblocks releases, it locks none",
    ),
    Case(
        "version-lock.added",
        pr(requirement("", "foo<2")),
        {"package": "foo", "before": "", "after": "<2"},
        pr(requirement("foo<2", ""), requirement("", "foo<2", path="requirements-cuda.txt")),
        "a capped requirement moved unchanged to another list brings no new cap",
    ),
    Case(
        "future-version-regression-risk.admits",
        pr(requirement("numpy<1.26", "numpy>=1.20")),
        {"package": "numpy", "versions": ["1.26"]},
        pr(requirement("numpy<1.26", "numpy<2.0")),
        "a cap raised still has an upper end: not every later release",
    ),
    Case(
        "future-version-regression-risk.admits-up-to",
        pr(requirement("numpy<1.26", "numpy<2.0")),
        {"package": "numpy", "versions": ["1.26"], "after": "<2.0"},
        pr(requirement("numpy<1.26", "numpy>=1.20")),
        "a cap dropped has no upper bound to stay within",
    ),
    Case(
        "future-version-regression-risk.change",
        pr(requirement("numpy==1.26", "numpy>=1.26")),
        {"package": "numpy", "before": "==1.26", "after": ">=1.26"},
        pr(requirement("numpy==1.26", "numpy==1.27")),
        "a pin moved to another pin still blocks every other release",
    ),
    Case(
        "dependency-downgrade.change",
        pr(requirement("numpy>=1.26,<2", "numpy>=1.20,<1.26")),
        {"package": "numpy", "before": "<2,>=1.26", "after": "<1.26,>=1.20"},
        pr(requirement("numpy>=1.26,<2", "numpy<2,>=1.26")),
        "the same specifiers in another order admit the same versions",
    ),
    Case(
        "dependency-upgrade.change",
        pr(requirement("numpy>=1.20", "numpy>=1.26")),
        {"package": "numpy", "before": ">=1.20", "after": ">=1.26"},
        pr(requirement("numpy>=1.20", "numpy>=1.20.0")),
        "1.20 and 1.20.0 are one version",
    ),
    Case(
        "missing-regression-test.source",
        pr(source("pkg/core.py", "def f(x):\n    return x + 1\n", "def f(x):\n    return x + 2\n")),
        {},
        pr(*with_a_test(source("pkg/core.py", "def f(x):\n    return x + 1\n", "def f(x):\n    return x + 2\n"))),
        "a test changed with the source",
    ),
    Case(
        "ci-only-change.files",
        pr(file_change(".github/workflows/ci.yml", WORKFLOW, WORKFLOW.replace("pytest", "pytest -q"))),
        {"paths": [".github/workflows/ci.yml"]},
        pr(
            file_change(".github/workflows/ci.yml", WORKFLOW, WORKFLOW.replace("pytest", "pytest -q")),
            source(),
        ),
        "a workflow and a source file changed: not only CI",
    ),
    Case(
        "ci-change.files",
        pr(*with_a_test(file_change(".github/workflows/ci.yml", WORKFLOW, WORKFLOW.replace("pytest", "pytest -q")))),
        {"paths": [".github/workflows/ci.yml"]},
        pr(*with_a_test(source("pkg/workflows/ci.py"))),
        "a source module named after CI is no CI file",
    ),
    Case(
        "runtime-image-impact.image-file",
        pr(dockerfile("RUN pip install numpy")),
        {"path": "docker/Dockerfile"},
        pr(file_change("docs/writing-a-dockerfile.md", "# Images\n", "# Images\n\nUse FROM python:3.12.\n")),
        "a page about Dockerfiles builds no image",
    ),
    Case(
        "runtime-image-impact.installed",
        pr(
            dockerfile("COPY requirements.txt /app/", "RUN pip install -r /app/requirements.txt"),
            requirement("numpy>=1.20", "numpy>=1.26"),
        ),
        {"path": "requirements.txt"},
        pr(
            dockerfile("# requirements.txt is installed by the base image", "RUN pip install -r docs/requirements.txt"),
            requirement("numpy>=1.20", "numpy>=1.26"),
        ),
        "a comment naming the file, and another folder's file of the same name",
    ),
    Case(
        "error-message-regression.removed-check",
        pr(file_change("pkg/ext.py", CHECK, "def softmax(x):\n    return x\n")),
        {"path": "pkg/ext.py", "symbol": "assert_cupy_available"},
        pr(*moved_check()),
        "the check moved to another file: it still runs",
    ),
    Case(
        "error-message-regression.removed-raise",
        pr(
            file_change(
                "pkg/ext.py", raising("raise ImportError(", "    'cupy is not installed; pip install cupy'", ")"), LOAD
            )
        ),
        {"where": "pkg/ext.py:5", "code": "raise ImportError("},
        pr(
            file_change(
                "pkg/ext.py",
                raising("raise SystemExit('torch.version.cuda is not set')", "HINT = 'pip install cupy'"),
                LOAD,
            ),
            file_change("pkg/gpu.py", raising("raise RuntimeError('CUDA is not available')"), LOAD),
        ),
        "an error about the platform, with an install hint in the next statement; a device missing",
    ),
    Case(
        "public-api-change.removed",
        pr(
            file_change(
                "pkg/api.py", "def a():\n    return 1\n\n\ndef b():\n    return 2\n", "def a():\n    return 1\n"
            )
        ),
        {"path": "pkg/api.py", "symbol": "b", "symbol_kind": "function"},
        pr(
            file_change(
                "pkg/api.py", "def a():\n    return 1\n\n\ndef b():\n    return 2\n", "def a():\n    return 1\n"
            ),
            file_change("pkg/other.py", "X = 1\n", "X = 1\n\n\ndef b():\n    return 2\n"),
        ),
        "a function moved to another module is not gone",
    ),
    Case(
        "public-api-change.moved",
        pr(
            file_change(
                "pkg/api.py", "def a():\n    return 1\n\n\ndef b():\n    return 2\n", "def a():\n    return 1\n"
            ),
            file_change("pkg/other.py", "X = 1\n", "X = 1\n\n\ndef b():\n    return 2\n"),
        ),
        {"path": "pkg/api.py", "symbol": "b", "to": "pkg/other.py"},
        pr(
            file_change(
                "pkg/api.py",
                "def a():\n    return 1\n\n\ndef b():\n    return 2\n",
                "def b():\n    return 2\n\n\ndef a():\n    return 1\n",
            )
        ),
        "a function moved within its file keeps its import path",
    ),
    Case(
        "platform-detection-assumption.probe",
        pr(script("setup.py", "CU = f\"cu{torch.version.cuda.replace('.', '')}\"")),
        {"where": "setup.py:2"},
        pr(
            script("pkg/ops.py", "raise SystemExit('torch.version.cuda is not set')"),
            script("pkg/env.py", "x = 1  # needs CUDA_HOME on the build machine"),
        ),
        "a message and a comment that name a probe probe nothing",
    ),
    Case(
        "security-sensitive.line",
        pr(script("pkg/load.py", "data = pickle.loads(blob)")),
        {"where": "pkg/load.py:2", "code": "data = pickle.loads(blob)"},
        pr(
            script("pkg/load.py", "# never log the password here"),
            script("pkg/store.py", "self.cache = {}  # keyed by the secret's hash"),
            script("tests/test_login.py", "password = 'hunter22'"),
        ),
        "comments that mention a secret, and a test's fake one",
    ),
    Case(
        "security-sensitive.path",
        pr(*with_a_test(source("pkg/auth/tokens.py"))),
        {"path": "pkg/auth/tokens.py"},
        pr(*with_a_test(source("pkg/author/tokens.py"))),
        "a folder whose name starts with auth is not auth",
    ),
    Case(
        "duplicated-logic-across-files.rewrite",
        pr(source("setup.py", "X = 1\n", "X = 1\n" + REWRITE_PY), dockerfile(added=REWRITE_SH)),
        {"packages": ["humming-kernels"]},
        pr(source("setup.py", "X = 1\n", "X = 1\n" + REWRITE_PY), dockerfile("RUN pip install -r requirements.txt")),
        "the rewrite written once",
    ),
    Case(
        "duplicated-logic-across-files.pin",
        pr(requirement("", "foo==1.2"), requirement("", "foo==1.2", path="requirements-dev.txt")),
        {"packages": ["foo"], "paths": ["requirements.txt", "requirements-dev.txt"]},
        pr(source("setup.py", "X = 1\n", "X = 1\n" + REWRITE_PY), dockerfile(added=REWRITE_SH)),
        "a rewrite written twice is a rewrite, not a pin",
    ),
    Case(
        "duplicated-logic-across-files.literal",
        pr(
            source("setup.py", "X = 1\n", f"X = 1\nARCHS = {ARCHS}\n"),
            dockerfile(added=f"ENV TORCH_CUDA_ARCH_LIST={ARCHS}\n"),
        ),
        {"paths": ["setup.py", "docker/Dockerfile"], "literal": ARCHS.strip('"')},
        pr(
            source("tests/test_a.py", "X = 1\n", f"X = 1\nARCHS = {ARCHS}\n"),
            source("tests/test_b.py", "X = 1\n", f"X = 1\nARCHS = {ARCHS}\n"),
        ),
        "the same value in two test files is test data",
    ),
    Case(
        "variant-conflict.packages",
        pr(requirement("nixl-cu12", "nixl-cu12\nnixl-cu13")),
        {"packages": ["nixl"]},
        pr(requirement("nixl-cu12", "nixl-cu12; sys_platform == 'linux'\nnixl-cu13; sys_platform == 'win32'")),
        "markers that exclude each other install one variant",
    ),
    Case(
        "large-change.size",
        pr(*[source(f"pkg/m{i}.py") for i in range(31)]),
        {"files": "31"},
        pr(*[source(f"pkg/m{i}.py") for i in range(30)]),
        "30 files is the limit, not past it",
    ),
    Case(
        "generated-or-lock-only.paths",
        pr(file_change("uv.lock", "version = 1\n", "version = 2\n")),
        {"paths": ["uv.lock"]},
        pr(file_change("uv.lock", "version = 1\n", "version = 2\n"), source()),
        "a lock file and a source file: not lock-only",
    ),
    Case(
        "revert.pr",
        pr(source(), title='Revert "Add cache" (#12)', body="Reverts octo/demo#12"),
        {"ref": "#12"},
        pr(source(), title="Keep the cache", body="If we revert #12 the cache goes away, so this keeps it."),
        "a revert someone considers is not made",
    ),
    Case(
        "revert.commit",
        pr(source(), title="Undo the cache", body="This reverts commit 0123456789abcdef0123456789abcdef01234567."),
        {"sha": "0123456789ab"},
        pr(source(), title="Undo the cache", body="Commit 0123456789abcdef0123456789abcdef01234567 added the cache."),
        "a commit named is not a commit reverted",
    ),
    Case(
        "revert.title",
        pr(source(), title="Revert the cache change"),
        {"title": "Revert the cache change"},
        pr(source(), title="Reverting is now one click in the settings page"),
        "a title about a revert feature is no revert",
    ),
    Case(
        "unresolved-review-concern.thread",
        pr(source(), threads=1),
        {"who": ["reviewer"], "outcome": "no-reply"},
        pr(source(), threads=2),
        "a point answered and resolved",
    ),
]


def _holds(item: dict[str, object], wanted: dict[str, object]) -> bool:
    return all(item.get(key) == value for key, value in wanted.items())


@pytest.mark.parametrize("case", CASES, ids=[c.template for c in CASES])
def test_a_line_that_warrants_the_template_gets_it(case: Case) -> None:
    items = emitted(case.warranted).get(case.template, [])
    assert any(_holds(item, case.params) for item in items), (case.template, items)


@pytest.mark.parametrize("case", CASES, ids=[c.template for c in CASES])
def test_a_near_miss_does_not(case: Case) -> None:
    found = emitted(case.near_miss)
    assert case.template not in found, (case.why, found[case.template])


def test_every_template_has_a_case() -> None:
    templates = [c.template for c in CASES]
    assert len(templates) == len(set(templates))
    # a new template gets its pair here before it ships
    assert set(templates) == EVIDENCE_TEMPLATES, sorted(EVIDENCE_TEMPLATES ^ set(templates))
