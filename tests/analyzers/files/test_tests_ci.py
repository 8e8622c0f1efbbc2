"""Tests/CI flags and CI job names from changed YAML."""

from __future__ import annotations

from collections.abc import Callable

from prdigest.analyzers.tests_ci import ci_jobs
from prdigest.models.facts import Facts
from prdigest.models.pullrequest import FileChange, FileStatus

Analyze = Callable[..., Facts]

DISAGG_PATCH = """@@ -20,9 +20,9 @@ steps:
   - tests/v1/kv_connector/nixl_integration/
   commands:
-  - uv pip install --system -r /vllm-workspace/requirements/kv_connectors.txt
+  - bash /vllm-workspace/.buildkite/scripts/install-kv-connectors.sh
   - bash v1/kv_connector/nixl_integration/run_accuracy_test.sh
 - label: NixlConnector PD + Spec Decode acceptance (2 GPUs)
   timeout_in_minutes: 30
   commands:
-  - uv pip install --system -r /vllm-workspace/requirements/kv_connectors.txt
+  - bash /vllm-workspace/.buildkite/scripts/install-kv-connectors.sh
   - pytest -v -s v1/kv_connector/test_spec_decode.py
"""
DISAGG_AFTER = "\n".join(
    ["group: Disaggregated", "depends_on: []", "steps:"]
    + [f"# filler {i}" for i in range(14)]
    + [
        "- label: NixlConnector PD accuracy (4 GPUs)",
        "  timeout_in_minutes: 40",
        "  source_file_dependencies:",
        "  - tests/v1/kv_connector/nixl_integration/",
        "  commands:",
        "  - bash /vllm-workspace/.buildkite/scripts/install-kv-connectors.sh",
        "  - bash v1/kv_connector/nixl_integration/run_accuracy_test.sh",
        "- label: NixlConnector PD + Spec Decode acceptance (2 GPUs)",
        "  timeout_in_minutes: 30",
        "  commands:",
        "  - bash /vllm-workspace/.buildkite/scripts/install-kv-connectors.sh",
        "  - pytest -v -s v1/kv_connector/test_spec_decode.py",
    ]
)
WORKFLOW_PATCH = """@@ -8,7 +8,7 @@ on:
 jobs:
   lint:
     runs-on: ubuntu-latest
     steps:
-      - uses: actions/setup-python@v5
+      - uses: actions/setup-python@v6
   docs:
     runs-on: ubuntu-latest
"""


def test_source_without_tests(analyze: Analyze) -> None:
    facts = analyze(
        FileChange(path="vllm/v1/core/sched/scheduler.py", additions=10), FileChange(path="docs/usage.md", additions=1)
    )
    flags = facts.tests_ci
    assert flags.source_changed
    assert not flags.tests_changed
    assert flags.missing_tests
    assert not flags.ci_changed
    assert not flags.ci_only


def test_deleting_source_owes_no_regression_test(analyze: Analyze) -> None:
    removed = "@@ -1,2 +0,0 @@\n-def migrate():\n-    return 1\n"
    gone = FileChange(path="src/tool/migrate.py", status=FileStatus.REMOVED, deletions=2, patch=removed)
    facts = analyze(gone)
    assert facts.tests_ci.source_changed
    assert not facts.tests_ci.missing_tests
    kept = FileChange(path="src/tool/run.py", additions=3)
    assert analyze(gone, kept).tests_ci.missing_tests  # code that stays still owes one


ACTIONS_PATCH = """@@ -5,12 +5,12 @@ jobs:
   lint:
     steps:
-      - uses: actions/checkout@v4
+      - uses: actions/checkout@v5
-      - uses: actions/setup-python@ece7cb06caefa5fff74198d8649806c4678c61a1 # v6.3.0
+      - uses: actions/setup-python@5fda3b95a4ea91299a34e894583c3862153e4b97 # v7.0.0
       - run: tox
   docs:
     steps:
-      - uses: actions/setup-python@ece7cb06caefa5fff74198d8649806c4678c61a1 # v6.3.0
+      - uses: actions/setup-python@5fda3b95a4ea91299a34e894583c3862153e4b97 # v7.0.0
-      - uses: actions/cache@v4
       - run: make docs
+      - uses: actions/cache@v4
"""


def test_ci_action_versions_are_read_with_their_release_comment(analyze: Analyze) -> None:
    workflow = FileChange(path=".github/workflows/ci.yml", additions=6, deletions=6, patch=ACTIONS_PATCH)
    moved = [(a.action, a.before, a.after, a.count) for a in analyze(workflow).tests_ci.ci_actions]
    # the cache step only moved: its version did not change
    assert moved == [("actions/setup-python", "v6.3.0", "v7.0.0", 2), ("actions/checkout", "v4", "v5", 1)]


def test_source_with_tests(analyze: Analyze) -> None:
    facts = analyze(
        FileChange(path="vllm/v1/core/sched/scheduler.py", additions=10),
        FileChange(path="tests/v1/core/test_scheduler.py", additions=30),
    )
    flags = facts.tests_ci
    assert flags.source_changed
    assert flags.tests_changed
    assert not flags.missing_tests
    assert flags.test_files == ["tests/v1/core/test_scheduler.py"]


def test_ci_only_pr_with_buildkite_labels(analyze: Analyze) -> None:
    facts = analyze(
        FileChange(path=".buildkite/scripts/install-kv-connectors.sh", status=FileStatus.ADDED, additions=40),
        FileChange(path=".buildkite/test_areas/disaggregated.yaml", patch=DISAGG_PATCH, additions=2, deletions=2),
    )
    flags = facts.tests_ci
    assert flags.ci_only
    assert flags.ci_changed
    assert not flags.source_changed
    assert not flags.missing_tests
    assert flags.ci_files == [".buildkite/scripts/install-kv-connectors.sh", ".buildkite/test_areas/disaggregated.yaml"]
    # the first step's label is above the hunk: only the second step is named
    assert flags.ci_jobs == ["NixlConnector PD + Spec Decode acceptance (2 GPUs)"]
    keys = facts.files.key_files()
    assert {f.path for f in keys} == set(flags.ci_files)
    assert all(f.key_reason and "CI-only" in f.key_reason for f in keys)


def test_buildkite_jobs_from_contents_with_line_numbers() -> None:
    patch = DISAGG_PATCH.replace("@@ -20,9 +20,9 @@ steps:", "@@ -21,9 +21,9 @@ steps:")
    before = DISAGG_AFTER.replace(
        "bash /vllm-workspace/.buildkite/scripts/install-kv-connectors.sh", "uv pip install --system -r x.txt"
    )
    change = FileChange(
        path=".buildkite/test_areas/disaggregated.yaml", patch=patch, content_after=DISAGG_AFTER, content_before=before
    )
    # contents show the first step's label, which the hunk alone does not
    assert ci_jobs(change) == [
        "NixlConnector PD accuracy (4 GPUs)",
        "NixlConnector PD + Spec Decode acceptance (2 GPUs)",
    ]


def test_github_workflow_job_keys(analyze: Analyze) -> None:
    facts = analyze(
        FileChange(path=".github/workflows/lint.yml", patch=WORKFLOW_PATCH, additions=1, deletions=1),
        FileChange(path="vllm/x.py", additions=1),
    )
    assert facts.tests_ci.ci_jobs == ["lint"]
    assert not facts.tests_ci.ci_only
    assert facts.tests_ci.missing_tests


def test_top_level_key_when_no_job(analyze: Analyze) -> None:
    patch = (
        '@@ -10,3 +10,4 @@ run_all_patterns:\n   - "setup.py"\n+  - "requirements/kv_connectors.txt"\n exclude: []\n'
    )
    facts = analyze(
        FileChange(path=".buildkite/ci_config.yaml", patch=patch, additions=1),
        FileChange(path="requirements/kv_connectors.txt", additions=1),
    )
    assert facts.tests_ci.ci_jobs == ["run_all_patterns"]
    assert not facts.tests_ci.ci_only


# A workflow added whole: only the keys under ``jobs:`` are jobs, not ``name``/``on``/``permissions``.
NEW_WORKFLOW = """name: PR Test Run Cleanup

on:
  pull_request_target:
    types: [labeled]

permissions:
  actions: write

concurrency:
  group: cleanup

jobs:
  discard:
    name: Discard Label-Only Run
    if: github.event.label.name != 'run-ci'
    runs-on: ubuntu-latest
    timeout-minutes: 20
    steps:
      - name: Discard
        env:
          GH_TOKEN: x
        run: echo hi
  report:
    needs: discard
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
"""

# Hunks whose header says ``jobs:`` while the job's own key is far above: nested keys
# (``permissions``, ``env``, ``outputs`` entries, ``with`` arguments) are not jobs.
NESTED_HUNKS = """@@ -2,7 +2,6 @@ name: Nightly Release
\x20
 env:
   NIGHTLY_RELEASE_REPOSITORY: flashinfer-ai/whl
-  LEGACY_NIGHTLY_RELEASE_REPOSITORY: flashinfer-ai/flashinfer
\x20
 on:
   schedule:
@@ -21,6 +20,8 @@ jobs:
       dev_suffix: ${{ steps.set-suffix.outputs.dev_suffix }}
       release_tag: ${{ steps.set-suffix.outputs.release_tag }}
+      jit_cache_cuda_matrix: ${{ steps.cuda-versions.outputs.jit_cache }}
+      runtime_cuda_matrix: ${{ steps.cuda-versions.outputs.runtime }}
     steps:
       - name: Checkout code
         uses: actions/checkout@v4
@@ -248,9 +249,9 @@ jobs:
     runs-on: ubuntu-latest
     permissions:
       actions: read
-      contents: write
+      contents: read
     steps:
       - name: Create release
         with:
-          body: old
+          body: new
"""


def _patch_of(text: str) -> str:
    lines = text.splitlines()
    return f"@@ -0,0 +1,{len(lines)} @@\n" + "".join(f"+{line}\n" for line in lines)


def test_new_workflow_names_only_its_jobs() -> None:
    change = FileChange(
        path=".github/workflows/cleanup.yml", status=FileStatus.ADDED, patch=_patch_of(NEW_WORKFLOW), additions=30
    )
    assert ci_jobs(change) == ["discard", "report"]
    with_contents = change.model_copy(update={"content_after": NEW_WORKFLOW})
    assert ci_jobs(with_contents) == ["discard", "report"]


def test_workflow_trigger_change_is_no_job() -> None:
    patch = "@@ -1,5 +1,6 @@\n name: Lint\n \n on:\n   push:\n+    branches: [main]\n   pull_request:\n"
    assert ci_jobs(FileChange(path=".github/workflows/lint.yml", patch=patch)) == []


def test_hunk_inside_an_unseen_job_names_nothing() -> None:
    assert ci_jobs(FileChange(path=".github/workflows/nightly-release.yml", patch=NESTED_HUNKS)) == []


def test_hunk_with_a_visible_job_key_among_nested_ones() -> None:
    patch = NESTED_HUNKS + (
        "@@ -300,4 +301,6 @@ jobs:\n"
        "           echo done\n"
        " \n"
        "+  publish:\n"
        "+    runs-on: ubuntu-latest\n"
        "   cleanup:\n"
        "     runs-on: ubuntu-latest\n"
    )
    assert ci_jobs(FileChange(path=".github/workflows/nightly-release.yml", patch=patch)) == ["publish"]


def test_job_indentation_seen_below_jobs_line() -> None:
    # four-space indentation: jobs sit at 4, read from the visible "jobs:" line
    patch = (
        "@@ -10,6 +10,7 @@ on:\n"
        " jobs:\n"
        "     build:\n"
        "         runs-on: x\n"
        "+        timeout-minutes: 5\n"
        "@@ -40,3 +41,4 @@ jobs:\n"
        "         steps:\n"
        "+            - run: make\n"
    )
    assert ci_jobs(FileChange(path=".github/workflows/b.yml", patch=patch)) == ["build"]


def test_buildkite_step_named_by_key_and_top_level_keywords_skipped() -> None:
    content = "env:\n  A: 1\nsteps:\n  - key: docs-build\n    command: make docs\n"
    before = "env:\n  A: 0\nsteps:\n  - key: docs-build\n    command: make html\n"
    patch = (
        "@@ -1,5 +1,5 @@\n env:\n-  A: 0\n+  A: 1\n steps:\n"
        "   - key: docs-build\n-    command: make html\n+    command: make docs\n"
    )
    change = FileChange(path=".buildkite/pipeline.yml", patch=patch, content_before=before, content_after=content)
    assert ci_jobs(change) == ["docs-build"]
