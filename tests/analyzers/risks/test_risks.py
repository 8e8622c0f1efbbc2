"""Risk tags for the seed situations, each with the evidence that triggered it."""

from __future__ import annotations

from dataclasses import dataclass, field

from prdigest.analyzers.risks import ANALYZER, derive_risk_tags
from prdigest.models.facts import (
    DependenciesFacts,
    DependencyChange,
    DependencyFinding,
    DiscussionFacts,
    FileFact,
    FilesFacts,
    Reference,
    ReferencesFacts,
    RisksFacts,
    SymbolChange,
    SymbolsFacts,
)
from prdigest.models.facts import (
    TestsCIFacts as CIFacts,
)
from prdigest.models.pullrequest import FileChange, PullRequest


@dataclass
class Case:
    """One PR with the facts the earlier analyzers would have produced."""

    pr: PullRequest
    files: FilesFacts
    tests: CIFacts = field(default_factory=CIFacts)
    deps: DependenciesFacts = field(default_factory=DependenciesFacts)
    symbols: SymbolsFacts = field(default_factory=SymbolsFacts)
    refs: ReferencesFacts = field(default_factory=ReferencesFacts)
    discussion: DiscussionFacts = field(default_factory=DiscussionFacts)


def make_case(
    changes: list[tuple[FileChange, str]], title: str = "Change", body: str = "", author: str = "dev", **facts: object
) -> Case:
    """`changes`: each file with its category; totals are summed from the file records."""
    pr = PullRequest(
        repository="vllm-project/vllm",
        number=1000,
        title=title,
        body=body,
        author=author,
        files=[change for change, _ in changes],
        additions=sum(c.additions for c, _ in changes),
        deletions=sum(c.deletions for c, _ in changes),
    )
    file_facts = FilesFacts(
        files=[
            FileFact(
                path=c.path,
                category=category,  # type: ignore[arg-type]
                type={"source": "core-logic", "test": "test", "docs": "docs", "config": "configuration"}.get(
                    category, "infrastructure"
                ),  # type: ignore[arg-type]
                additions=c.additions,
                deletions=c.deletions,
            )
            for c, category in changes
        ],
        total_files=len(changes),
        total_additions=pr.additions,
        total_deletions=pr.deletions,
    )
    return Case(pr=pr, files=file_facts, **facts)  # type: ignore[arg-type]


def _risks(case: Case) -> RisksFacts:
    return derive_risk_tags(case.pr, case.files, case.tests, case.deps, case.symbols, case.refs, case.discussion)


def _tags(case: Case) -> dict[str, str]:
    return {t.tag: t.evidence for t in _risks(case).tags}


KV = "requirements/kv_connectors.txt"


def test_cap_to_exclusion_on_kv_connectors() -> None:
    case = make_case(
        [
            (
                FileChange(
                    path=KV, additions=2, deletions=2, patch="@@ -1 +1 @@\n-cupy-cuda13x<14.1.0\n+cupy-cuda13x!=14.1.0"
                ),
                "config",
            )
        ],
        deps=DependenciesFacts(
            changes=[
                DependencyChange(
                    path=KV,
                    package="cupy-cuda13x",
                    before="cupy-cuda13x<14.1.0",
                    after="cupy-cuda13x!=14.1.0",
                    kinds=["cap-to-exclusion"],
                    newly_admitted=["14.1.1"],
                )
            ]
        ),
        tests=CIFacts(),
    )
    tags = _tags(case)
    # One change, one tag: the most specific (what it admits), not a constraint-change tag
    # beside it; a constraint change owes no regression test.
    assert set(tags) == {"future-version-regression-risk"}
    assert "cupy-cuda13x" in tags["future-version-regression-risk"]
    assert "14.1.1" in tags["future-version-regression-risk"]
    # no image or script in the PR installs the file: image impact is not claimed
    assert "runtime-image-impact" not in tags
    risks = _risks(case)
    labels = {t.tag: t.label_zh for t in risks.tags}
    assert labels["future-version-regression-risk"] == "未来版本回归风险"


def test_cap_added_is_a_version_lock_and_tests_silence_missing_test() -> None:
    case = make_case(
        [(FileChange(path=KV, additions=1), "config"), (FileChange(path="tests/test_kv.py", additions=5), "test")],
        deps=DependenciesFacts(
            changes=[
                DependencyChange(path=KV, package="cupy-cuda13x", after="cupy-cuda13x<14.1.0", kinds=["cap-added"])
            ]
        ),
        tests=CIFacts(tests_changed=True, test_files=["tests/test_kv.py"]),
    )
    tags = _tags(case)
    assert "version-lock" in tags
    assert "missing-regression-test" not in tags
    assert "future-version-regression-risk" not in tags


def test_a_pin_moved_from_another_file_is_no_new_lock() -> None:
    def tags_for(changes: list[DependencyChange]) -> dict[str, str]:
        files = [(FileChange(path="pyproject.toml", additions=3), "config")]
        return _tags(make_case(files, deps=DependenciesFacts(changes=changes), tests=CIFacts()))

    added = DependencyChange(path="pyproject.toml", package="black", after="black==25.1.0", kinds=["added"])
    assert "version-lock" in tags_for([added])
    left = DependencyChange(path="requirements-docs.txt", package="black", before="black==25.1.0", kinds=["removed"])
    # the analyzer's mark decides: moved unchanged is no new lock ...
    moved = added.model_copy(update={"moved_from": ["requirements-docs.txt"]})
    assert "version-lock" not in tags_for([moved, left])
    # ... a pin that changes on the way still is ...
    changed = added.model_copy(update={"moved_from": ["requirements-docs.txt"], "moved_changed": True})
    assert "version-lock" in tags_for([changed, left.model_copy(update={"before": "black==24.1.0"})])
    # ... and the same pin removed elsewhere without the mark (a development list's package made
    # a requirement of the package: new to its users) is a lock too
    assert "version-lock" in tags_for([added, left])


HUMMING_PATCH = """@@ -10,10 +10,3 @@
-try:
-    import humming
-except ModuleNotFoundError:
-    humming = None
-def assert_humming_available():
-    if humming is None:
-        raise ImportError(
-            "humming is not installed. Please pip install humming-kernels."
-        )
+if current_platform.is_cuda():
+    from humming.layer import HummingMethod
 class HummingConfig(QuantizationConfig):
"""


def test_removed_check_helper_and_raise_hint_is_error_regression() -> None:
    path = "vllm/model_executor/layers/quantization/humming.py"
    case = make_case(
        [(FileChange(path=path, additions=2, deletions=9, patch=HUMMING_PATCH), "source")],
        symbols=SymbolsFacts(
            symbols=[
                SymbolChange(path=path, name="assert_humming_available", change="removed", language="python"),
                SymbolChange(path=path, name="HummingConfig.__init__", kind="method", change="modified"),
            ]
        ),
        tests=CIFacts(source_changed=True, missing_tests=True),
    )
    risks = _risks(case)
    by_tag = {t.tag: t for t in risks.tags}
    regression = by_tag["error-message-regression"]
    assert regression.severity == "high"
    assert "assert_humming_available" in regression.evidence
    assert "raise ImportError(" in regression.evidence
    assert "public-api-change" in by_tag
    assert "platform-detection-assumption" in by_tag  # current_platform.is_cuda() added
    assert "missing-regression-test" in by_tag
    assert risks.tags[0].severity == "high"  # most severe first


def test_duplicated_rewrite_and_variant_conflict_findings() -> None:
    case = make_case(
        [
            (FileChange(path="setup.py", additions=3), "source"),
            (FileChange(path="docker/Dockerfile", additions=2), "infra"),
        ],
        deps=DependenciesFacts(
            findings=[
                DependencyFinding(
                    kind="duplicated-rewrite",
                    detail="humming-kernels[cu13] → [cu12] rewrite appears in both",
                    paths=["setup.py", "docker/Dockerfile"],
                ),
                DependencyFinding(kind="variant-conflict", detail="cupy-cuda12x and cupy-cuda13x", packages=["cupy"]),
            ]
        ),
    )
    tags = _tags(case)
    assert "setup.py, docker/Dockerfile" in tags["duplicated-logic-across-files"]
    assert "cupy-cuda12x" in tags["variant-conflict"]
    assert "docker/Dockerfile changed" in tags["runtime-image-impact"]


def test_shell_script_using_torch_version_cuda() -> None:
    patch = (
        "@@ -1,2 +1,3 @@\n #!/bin/bash\n"
        "+CUDA_MAJOR=$(python -c \"import torch; print(torch.version.cuda.split('.')[0])\")\n"
        " pip install -r requirements/kv_connectors.txt\n"
    )
    case = make_case([(FileChange(path="tools/install-kv-connectors.sh", additions=1, patch=patch), "infra")])
    tags = _tags(case)
    assert tags["platform-detection-assumption"].startswith("tools/install-kv-connectors.sh:2:")
    assert "security-sensitive" not in tags


def test_revert_security_size_lock_and_ci_rules() -> None:
    revert = make_case(
        [(FileChange(path="a.py", additions=1), "source")],
        title='Revert "Add x (#5)"',
        refs=ReferencesFacts(
            references=[Reference(repository="vllm-project/vllm", number=5, relation="reverts", where="title")],
            reverted_commits=["abc1234"],
        ),
    )
    assert "vllm-project/vllm#5" in _tags(revert)["revert"]

    shell = make_case(
        [(FileChange(path="run.py", additions=1, patch="@@ -0,0 +1 @@\n+subprocess.run(cmd, shell=True)"), "source")]
    )
    assert "run.py:1" in _tags(shell)["security-sensitive"]

    big = make_case([(FileChange(path=f"m{i}.py", additions=100), "source") for i in range(40)])
    assert _tags(big)["large-change"] == "40 files, 4000 lines changed"

    lock = make_case([(FileChange(path="uv.lock", additions=10), "config")])
    assert "generated-or-lock-only" in _tags(lock)

    ci = make_case(
        [(FileChange(path=".github/workflows/ci.yml", additions=1), "infra")],
        tests=CIFacts(ci_changed=True, ci_only=True, ci_files=[".github/workflows/ci.yml"]),
    )
    assert set(_tags(ci)) == {"ci-only-change"}


def test_floor_raised_is_an_upgrade_only_when_it_moves_up() -> None:
    def case(before: str, after: str) -> Case:
        return make_case(
            [(FileChange(path="requirements/test.txt", additions=1), "config")],
            deps=DependenciesFacts(
                changes=[
                    DependencyChange(
                        path="requirements/test.txt", package="x", before=before, after=after, kinds=["floor-raised"]
                    )
                ]
            ),
            tests=CIFacts(tests_changed=True),
        )

    assert "dependency-upgrade" in _tags(case("x>=1.2", "x>=1.10"))
    assert "dependency-upgrade" not in _tags(case("x>=1.10", "x>=1.2"))
    assert "runtime-image-impact" not in _tags(case("x>=1.2", "x>=1.10"))  # a test list


def test_docs_pr_has_no_risk_and_analyzer_requires_everything() -> None:
    docs = make_case([(FileChange(path="docs/index.md", additions=1, deletions=1), "docs")], title="Fix typo")
    assert _risks(docs).tags == []
    assert set(ANALYZER.requires) == {"files", "tests_ci", "dependencies", "symbols", "references", "discussion"}


def test_only_a_removed_name_reachable_from_outside_is_public_api() -> None:
    # Seen on real histories: closures (`Client.send.send_next`) and members reached only
    # through a private name (`Client._get_response.get_response`) were told as public API.
    path = "pkg/client.py"
    removed = {
        "Client": "class",
        "Client.close": "method",
        "Client.send.send_next": "function",
        "build.step": "function",
        "Client._get_response.get_response": "function",
        "_Pool.release": "method",
        "Client._prepare": "method",
    }
    case = make_case(
        [(FileChange(path=path, additions=1, deletions=40), "source")],
        symbols=SymbolsFacts(
            symbols=[
                SymbolChange(path=path, name=name, kind=kind, change="removed", language="python")
                for name, kind in removed.items()
            ]  # type: ignore[arg-type]
        ),
    )
    tag = next(t for t in _risks(case).tags if t.tag == "public-api-change")
    told = {item.params["symbol"] for item in tag.items}
    assert "Client" in told
    assert told <= {"Client", "Client.close"}
    assert len(told) + tag.more == 2  # the others are counted, not told, when there are many
