"""The reading verdict weighs substance: every reason is a concrete fact of this PR.

Each PR is a record with real patches, analyzed by every default analyzer, as `analyze` does.
"""

from __future__ import annotations

from prdigest.analyzers.context import AnalysisContext
from prdigest.analyzers.defaults import default_registry
from prdigest.analyzers.registry import run_all
from prdigest.analyzers.verdict import REASON_TEMPLATES
from prdigest.models.facts import Facts, VerdictLevel
from prdigest.models.pullrequest import FileChange, FileStatus, PullRequest


def _patch(lines: list[str], *, start: int = 1, context: list[str] | None = None) -> str:
    body = [f" {c}" for c in (context or [])] + lines
    old = sum(1 for line in body if not line.startswith("+"))
    new = sum(1 for line in body if not line.startswith("-"))
    return f"@@ -{start},{old} +{start},{new} @@\n" + "\n".join(body) + "\n"


def _added_file(path: str, text: str) -> FileChange:
    lines = text.splitlines()
    patch = f"@@ -0,0 +1,{len(lines)} @@\n" + "\n".join(f"+{line}" for line in lines) + "\n"
    return FileChange(path=path, status=FileStatus.ADDED, additions=len(lines), patch=patch, content_after=text)


def _changed(path: str, lines: list[str], *, context: list[str] | None = None) -> FileChange:
    return FileChange(
        path=path,
        additions=sum(1 for line in lines if line.startswith("+")),
        deletions=sum(1 for line in lines if line.startswith("-")),
        patch=_patch(lines, context=context),
    )


def _facts(title: str, files: list[FileChange], *, body: str = "", author: str = "dev", number: int = 7) -> Facts:
    pr = PullRequest(repository="acme/lib", number=number, title=title, body=body, author=author, files=files)
    return run_all(pr, default_registry(), AnalysisContext())


def _codes(facts: Facts) -> set[str]:
    return {r.code for r in facts.verdict.reasons}


def _module(name: str, functions: int) -> str:
    parts = [f'"""The {name} subsystem."""', "", "import threading", ""]
    for i in range(functions):
        parts += [
            f"def {name}_step_{i}(value, *, limit=10):",
            "    total = 0",
            "    for item in range(limit):",
            "        total += item * value",
            "        if total > 1000:",
            "            break",
            "    return total",
            "",
        ]
    return "\n".join(parts)


def test_a_new_subsystem_is_read_in_depth_for_its_modules_and_api() -> None:
    files = [_added_file(f"src/lib/pool/part_{i}.py", _module(f"pool{i}", 12)) for i in range(3)]
    facts = _facts("Add a connection pool", files)
    assert facts.verdict.level is VerdictLevel.READ_IN_DEPTH
    assert {"core-change", "new-module", "public-api"} <= _codes(facts)
    new_module = next(r for r in facts.verdict.reasons if r.code == "new-module")
    assert "src/lib/pool/part_0.py" in new_module.items[0].params["paths"]


def test_a_memory_safety_fix_is_read_in_depth_however_small() -> None:
    lines = ["-    free(buf);", "-    use(buf);", "+    use(buf);", "+    free(buf);"]
    facts = _facts("Fix use-after-free in the parser buffer", [_changed("src/parse.c", lines)])
    assert facts.verdict.level is VerdictLevel.READ_IN_DEPTH
    fix = next(r for r in facts.verdict.reasons if r.code == "fix")
    assert fix.items[0].template == "fix.high"
    assert fix.items[0].params["fix_kind"] == "memory-safety"


def test_a_lock_added_by_a_fix_is_a_concurrency_fix_whatever_the_title() -> None:
    lines = [
        "+_lock = threading.Lock()",
        "+",
        "+def read(stream):",
        "+    with _lock:",
        "+        return stream.read()",
    ]
    facts = _facts("Fix stream.read", [_changed("src/lib/stream.py", lines)])
    fix = next(r for r in facts.verdict.reasons if r.code == "fix")
    assert fix.items[0].params["fix_kind"] == "concurrency"


def test_a_title_that_only_names_a_bug_class_is_not_told_as_a_fix() -> None:
    # Seen on a JavaScript history: "Remove unnecessary XSS check introduced by #2451" read
    # "It fixes a security vulnerability". Still worth reading, but no fix is claimed.
    lines = ["-    if (isXss(url)) {", "-      throw new Error('XSS');", "-    }", "+    validate(url);"]
    facts = _facts("Remove unnecessary XSS check", [_changed("lib/helpers/url.js", lines)])
    fix = next(r for r in facts.verdict.reasons if r.code == "fix")
    assert [item.template for item in fix.items] == ["fix.named"]
    assert fix.items[0].params["fix_kind"] == "security"
    claimed = _facts("Fix XSS in the url check", [_changed("lib/helpers/url.js", lines)])
    assert next(i.template for r in claimed.verdict.reasons if r.code == "fix" for i in r.items) == "fix.high"


def test_a_test_typed_title_s_bug_class_is_the_tests() -> None:
    # "test(gin): resolve race conditions in integration tests" read "It fixes a concurrency bug".
    lines = ["+func waitForServer(t *testing.T) {", "+\tfor !ready() {", "+\t\ttime.Sleep(ms)", "+\t}", "+}"]
    files = [_changed("server/wait.go", lines)]
    assert "fix" not in _codes(_facts("test(server): resolve race conditions in integration tests", files))
    assert "fix" in _codes(_facts("server: resolve race conditions in integration tests", files))


def test_words_in_the_body_earn_nothing_without_the_substance() -> None:
    body = "We traced the root cause with bisect and a profiler; this optimizes the hot path (3x faster)."
    facts = _facts("Tweak a default", [_changed("src/lib/conf.py", ["-LIMIT = 10", "+LIMIT = 12"])], body=body)
    assert facts.verdict.level is not VerdictLevel.READ_IN_DEPTH
    text = " ".join(str(item.params) for r in facts.verdict.reasons for item in r.items)
    for word in ("bisect", "profil", "optimiz", "trace"):
        assert word not in text


def test_a_docs_typo_is_skipped_with_what_it_is() -> None:
    facts = _facts("Fix typo in README", [_changed("README.md", ["-teh", "+the"])])
    assert facts.verdict.level is VerdictLevel.SKIP
    assert {"docs-only", "typo"} <= _codes(facts)


def test_comment_only_source_changes_are_skipped() -> None:
    lines = ["-    # compute teh total", "+    # compute the total"]
    facts = _facts("Comment wording", [_changed("src/lib/conf.py", lines, context=["def f():", "    return 1"])])
    assert facts.verdict.level is VerdictLevel.SKIP
    assert "comment-only" in _codes(facts)


def test_moved_definitions_are_a_restructuring_not_new_behaviour() -> None:
    body = _module("urls", 14)
    old = body.splitlines()
    removed = FileChange(
        path="src/lib/models.py",
        status=FileStatus.MODIFIED,
        deletions=len(old),
        patch=f"@@ -1,{len(old)} +0,0 @@\n" + "\n".join(f"-{line}" for line in old) + "\n",
        content_before=body,
        content_after="",
    )
    facts = _facts("Move URL helpers into their own module", [removed, _added_file("src/lib/urls.py", body)])
    assert "move-only" in _codes(facts)
    assert facts.verdict.level is not VerdictLevel.READ_IN_DEPTH
    assert "new-module" not in _codes(facts)


def test_a_value_repeated_in_ci_files_is_no_design_trap() -> None:
    url = "https://mirror.example.org/simple"
    files = [
        _changed("Jenkinsfile", [f"-    sh 'pip install -i {url}/old pkg'", f"+    sh 'pip install -i {url} pkg'"]),
        _changed(
            "ci/Jenkinsfile.nightly", [f"-    sh 'pip install -i {url}/old pkg'", f"+    sh 'pip install -i {url} pkg'"]
        ),
    ]
    facts = _facts("Use the new mirror", files)
    assert "design-trap" not in _codes(facts)
    assert facts.verdict.level is VerdictLevel.SKIP


def test_a_skip_always_says_what_the_pr_is() -> None:
    facts = _facts("Bump version", [_changed("src/lib/__init__.py", ['-__version__ = "1.0"', '+__version__ = "1.1"'])])
    assert facts.verdict.level is VerdictLevel.SKIP
    assert facts.verdict.reasons
    assert all(item.template in REASON_TEMPLATES for r in facts.verdict.reasons for item in r.items)


def test_incomplete_data_is_never_read_in_depth() -> None:
    files = [_added_file(f"src/lib/big_{i}.py", _module(f"big{i}", 12)) for i in range(3)]
    pr = PullRequest(
        repository="acme/lib", number=1, title="Initial import", files=files, incomplete=["shallow-clone-boundary"]
    )
    facts = run_all(pr, default_registry(), AnalysisContext())
    assert facts.verdict.level is not VerdictLevel.READ_IN_DEPTH
    assert "incomplete-data" in _codes(facts)


def test_the_verdict_is_deterministic() -> None:
    files = [_changed("src/lib/conf.py", ["-    return a", "+    return a or b"], context=["def f(a, b):"])]
    first = _facts("Fix default", files)
    second = _facts("Fix default", files)
    assert first.verdict == second.verdict
