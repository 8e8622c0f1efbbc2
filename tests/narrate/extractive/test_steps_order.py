"""Implementation steps on hand-written PRs analysed by the real analyzers: source first (with
its symbols), the same dependency change in several files collapsed into one step, CI before
verification before docs, and a step budget per length."""

from __future__ import annotations

from prdigest.analyzers.context import AnalysisContext
from prdigest.analyzers.defaults import default_registry  # type: ignore[import-not-found,unused-ignore]
from prdigest.analyzers.registry import run_all
from prdigest.models.facts import Facts
from prdigest.models.narrative import Narrative
from prdigest.models.pullrequest import Commit, FileChange, FileStatus, PullRequest
from prdigest.narrate.extractive import narrate_extractive

REPO = "acme/widgets"


def _python_change(path: str, before: str, after: str) -> FileChange:
    before_lines = before.splitlines()
    after_lines = after.splitlines()
    patch = "\n".join(
        [f"@@ -1,{len(before_lines)} +1,{len(after_lines)} @@"]
        + [f"-{line}" for line in before_lines]
        + [f"+{line}" for line in after_lines]
    )
    return FileChange(
        path=path,
        additions=len(after_lines),
        deletions=len(before_lines),
        patch=patch,
        content_before=before,
        content_after=after,
    )


def _dockerfile_change(path: str) -> FileChange:
    before = "FROM ubuntu:22.04\nRUN pip install pre-commit ninja\n"
    after = "FROM ubuntu:22.04\nRUN pip install ninja\n"
    patch = "@@ -1,2 +1,2 @@\n FROM ubuntu:22.04\n-RUN pip install pre-commit ninja\n+RUN pip install ninja\n"
    return FileChange(path=path, additions=1, deletions=1, patch=patch, content_before=before, content_after=after)


def _added(path: str, text: str) -> FileChange:
    lines = text.splitlines()
    patch = "\n".join([f"@@ -0,0 +1,{len(lines)} @@"] + [f"+{line}" for line in lines])
    return FileChange(path=path, status=FileStatus.ADDED, additions=len(lines), patch=patch, content_after=text)


BUILD_BEFORE = '"""Build helpers."""\n\n\ndef get_git_version():\n    return "abc"\n'
BUILD_AFTER = (
    '"""Build helpers."""\n\nimport json\n\n\n'
    "def get_build_dependency_requirements(cuda_major=None):\n"
    '    """Exact build dependencies from the shared CI policy."""\n'
    "    config = json.load(open('ci/cuda.json'))\n"
    "    return [f\"{name}=={spec['version']}\" for name, spec in config.items()]\n\n\n"
    "def _helper_one():\n    return 1\n\n\ndef _helper_two():\n    return 2\n\n\n"
    'def get_git_version():\n    return "abc"\n'
)


def _ci_pr(body: str = "", commits: list[Commit] | None = None) -> PullRequest:
    files = [
        _python_change("src/widgets/build_utils.py", BUILD_BEFORE, BUILD_AFTER),
        *[_dockerfile_change(f"docker/Dockerfile.cu12{n}.dev") for n in range(5)],
        _python_change(
            ".github/workflows/ci.yml",
            "name: ci\njobs:\n  test:\n    runs-on: ubuntu-latest\n",
            "name: ci\njobs:\n  test:\n    runs-on: ubuntu-latest\n  validate-images:\n    runs-on: ubuntu-latest\n",
        ),
        _python_change("tests/test_build_utils.py", "def test_old():\n    assert True\n",
                       "def test_old():\n    assert True\n\n\ndef test_requirements():\n    assert True\n"),
        _python_change("docs/installation.rst", "Install\n=======\n", "Install\n=======\n\nUse the CI image.\n"),
    ]  # fmt: skip
    return PullRequest(
        repository=REPO,
        number=7,
        title="ci: consolidate CUDA coverage",
        body=body,
        files=files,
        commits=commits or [Commit(sha="a" * 40, author="dev", message="ci: consolidate CUDA coverage (#7)")],
    )


def _analyse(pr: PullRequest) -> Facts:
    facts: Facts = run_all(pr, default_registry(), AnalysisContext())
    return facts


def _narrate(pr: PullRequest, lang: str = "zh", length: str = "full") -> Narrative:
    return narrate_extractive(pr, _analyse(pr), [], lang, length)  # type: ignore[arg-type]


def test_source_step_comes_first_and_names_its_symbols() -> None:
    n = _narrate(_ci_pr())
    first = n.implementation[0]
    assert "src/widgets/build_utils.py" in first.detail
    assert "`get_build_dependency_requirements`" in first.detail
    # private helpers give way to the public symbol
    assert first.detail.index("get_build_dependency_requirements") < first.detail.find("_helper_one") or (
        "_helper_one" not in first.detail
    )


def test_same_dependency_change_in_five_files_is_one_step() -> None:
    n = _narrate(_ci_pr())
    mentions = [s for s in n.implementation if "pre-commit" in s.detail]
    assert len(mentions) == 1, [s.detail for s in n.implementation]
    assert "5 个 Dockerfile" in mentions[0].detail
    en = _narrate(_ci_pr(), lang="en")
    step = next(s for s in en.implementation if "pre-commit" in s.detail)
    assert "5 Dockerfiles" in step.detail


def test_order_source_dependencies_ci_verification_docs() -> None:
    n = _narrate(_ci_pr())
    titles = [s.title for s in n.implementation]
    position = {
        "source": next(i for i, s in enumerate(n.implementation) if "build_utils.py" in s.detail),
        "dependency": next(i for i, s in enumerate(n.implementation) if "pre-commit" in s.detail),
        "verify": titles.index("验证"),
        "docs": titles.index("更新文档"),
    }
    assert position["source"] < position["dependency"] < position["verify"] < position["docs"], titles
    assert "`test_requirements`" in n.implementation[position["verify"]].detail


def test_dockerfiles_told_by_their_dependency_step_are_not_listed_again() -> None:
    n = _narrate(_ci_pr())
    assert sum("Dockerfile.cu121.dev" in s.detail for s in n.implementation) <= 1


def test_step_budget_per_length() -> None:
    pr = _ci_pr()
    assert len(_narrate(pr, length="brief").implementation) <= 4
    assert len(_narrate(pr, length="full").implementation) <= 8
    brief = _narrate(pr, length="brief")
    assert brief.implementation[-1].title in ("验证", "更新文档")
    assert "build_utils.py" in brief.implementation[0].detail


def test_step_quotes_the_body_sentence_about_it() -> None:
    body = (
        "## Description\n\nThe wheel build needs exact pins from one place.\n\n"
        "`get_build_dependency_requirements` reads the CI policy so wheel builds install the same versions.\n"
    )
    n = _narrate(_ci_pr(body=body))
    source = next(s for s in n.implementation if "build_utils.py" in s.detail)
    assert "reads the CI policy" in source.detail


def test_empty_body_says_so_and_quotes_commit_bullets_not_the_title() -> None:
    plain = _narrate(_ci_pr())
    assert plain.motivation.startswith("PR 正文为空")
    assert "consolidate CUDA coverage" not in plain.motivation
    squash = Commit(
        sha="b" * 40,
        author="dev",
        message=(
            "ci: consolidate CUDA coverage (#7)\n\n* drop the per-CUDA dev images\n"
            "  that nobody used\n* **Chores**\n* validate candidate images before publishing\n"
        ),
    )
    n = _narrate(_ci_pr(commits=[squash]))
    assert "「drop the per-CUDA dev images that nobody used」" in n.motivation
    assert "validate candidate images" not in n.motivation  # one quote at most
    assert "Chores" not in n.motivation
    en = _narrate(_ci_pr(commits=[squash]), lang="en")
    assert en.motivation.startswith("The PR body is empty.")


def test_zh_spacing_between_latin_names_and_chinese() -> None:
    n = _narrate(_ci_pr())
    assert n.implementation[0].title == "修改 widgets"
    assert "使用 widgets 的用户" in n.impact.users


def _deleted(path: str, text: str) -> FileChange:
    lines = text.splitlines()
    patch = "\n".join([f"@@ -1,{len(lines)} +0,0 @@"] + [f"-{line}" for line in lines])
    return FileChange(path=path, status=FileStatus.REMOVED, deletions=len(lines), patch=patch, content_before=text)


SETUP_PY = (
    'from setuptools import setup\n\nsetup(\n    name="widgets",\n'
    '    install_requires=["click>=8.0", "attrs>=22"],\n)\n'
)
PYPROJECT = '[project]\nname = "widgets"\ndependencies = ["click>=8.0", "attrs>=22", "rich>=13"]\n'


def test_declarations_moved_out_of_a_deleted_file_are_a_move_not_new_dependencies() -> None:
    pr = PullRequest(
        repository=REPO,
        number=12,
        title="Switch the build to pyproject.toml",
        files=[_deleted("setup.py", SETUP_PY), _added("pyproject.toml", PYPROJECT)],
    )
    steps = " ".join(s.title + " " + s.detail for s in _narrate(pr, lang="en").implementation)
    assert "`click`, `attrs` removed from `setup.py` and installed in `pyproject.toml` instead" in steps, steps
    assert "Add click" not in steps
    # what is new stays new
    assert "`rich` added in `pyproject.toml`" in steps or "Add rich" in steps, steps


def test_a_code_module_named_like_a_section_is_named_as_code() -> None:
    # a package directory called `dependencies` (fastapi has one): "Change dependencies" would
    # read as a change of the project's requirements
    before = "def solve(call):\n    return call()\n"
    after = "def solve(call, cache=None):\n    return call()\n"
    pr = PullRequest(
        repository=REPO,
        number=13,
        title="Cache solved dependencies",
        files=[
            _python_change("widgets/dependencies/utils.py", before, after),
            _python_change(
                "widgets/routing/core.py",
                "def route(path):\n    return path\n",
                "def route(path):\n    return path.strip()\n",
            ),
        ],
    )
    en = [s.title for s in _narrate(pr, lang="en").implementation]
    assert "Change the `dependencies` module" in en, en
    assert "Change dependencies" not in en
    assert "Change routing" in en, en  # other module names stay as they are
    zh = [s.title for s in _narrate(pr, lang="zh").implementation]
    assert "修改 `dependencies` 模块" in zh, zh
