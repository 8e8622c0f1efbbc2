"""Scripts, CI files and calls told by what they do (issue 26): a new shell script by its
commands in order, a CI change by the steps that now run another command (nine steps switched
to a script as one edit), a matrix list by what it gained and lost, and a constructor by the
call it no longer makes. Unit cases, counter-examples that must say nothing, then real git
histories through sync, analysis and the zh and en reports."""

from __future__ import annotations

import json
from pathlib import Path

from tests.helpers.analyzed import analyzed_history, stored_facts
from tests.helpers.gitrepo import GitRepoBuilder

from prdigest.analyzers.symbols.ci_steps import ci_edits
from prdigest.analyzers.symbols.edits import code_edits
from prdigest.analyzers.symbols.shell_steps import script_steps, shell_edits
from prdigest.models.pullrequest import FileChange
from prdigest.models.states import FileStatus
from prdigest.narrate.extractive.code_edits import edit_clause
from prdigest.pipeline.report import report_for
from prdigest.words import CATALOG

INSTALL_SCRIPT = """#!/bin/bash
set -euo pipefail
echo "installing the transport wheels"
pip install xfer-cu12 xfer-cu13
CUDA_MAJOR=$(python -c "import torch; print(torch.version.cuda.split('.')[0])")
VERSION=$(pip show xfer-cu12 | grep Version | cut -d' ' -f2)
if [ "$CUDA_MAJOR" = "12" ]; then
  pip uninstall -y xfer-cu13
else
  pip uninstall -y xfer-cu12
fi
report() { echo "done: $1"; }
pip install --no-deps "xfer-cu${CUDA_MAJOR}==${VERSION}"
report "$VERSION"
"""


def _workflow(command: str, versions: str, jobs: int = 3) -> str:
    job = """  {name}:
    runs-on: ubuntu-latest
    strategy:
      matrix:
        python-version: [{versions}]
    steps:
      - uses: actions/checkout@v4
      - name: Install transport (wheels)
        run: {command}
      - name: Install transport (sdist)
        run: {command}
      - name: Install transport (editable)
        run: {command}
      - name: Test
        run: pytest -q
"""
    body = "".join(job.format(name=f"test-{i}", versions=versions, command=command) for i in range(jobs))
    return f"name: ci\non:\n  push:\n    branches: [main]\njobs:\n{body}"


def _workflow_change(path: str, before: str, after: str) -> FileChange:
    return FileChange(path=path, status=FileStatus.MODIFIED, patch="@@", content_before=before, content_after=after)


def test_a_script_is_its_commands_in_order_with_branches_and_without_bookkeeping() -> None:
    steps = script_steps(INSTALL_SCRIPT)
    assert [s.run or f"if {s.condition}" for s in steps] == [
        "pip install xfer-cu12 xfer-cu13",
        """CUDA_MAJOR=$(python -c "import torch; print(torch.version.cuda.split('.')[0])")""",
        "VERSION=$(pip show xfer-cu12 | grep Version | cut -d' ' -f2)",
        'if [ "$CUDA_MAJOR" = "12" ]',
        'pip install --no-deps "xfer-cu${CUDA_MAJOR}==${VERSION}"',
        'report "$VERSION"',
    ]
    branch = steps[3]
    assert branch.then == ("pip uninstall -y xfer-cu13",)
    assert branch.otherwise == ("pip uninstall -y xfer-cu12",)
    assert [s.line for s in steps] == [4, 5, 6, 7, 13, 14]


def test_a_changed_script_tells_the_commands_it_gained_and_lost_and_nothing_for_a_move() -> None:
    before = "#!/bin/sh\npip install a\npip install b\npytest\n"
    moved = FileChange(
        path="ci/run.sh",
        status=FileStatus.MODIFIED,
        patch="@@",
        content_before=before,
        content_after="#!/bin/sh\npip install b\npip install a\npytest\n",
    )
    assert shell_edits(moved) == []  # the same commands in another order: nothing gained or lost
    changed = moved.model_copy(update={"content_after": "#!/bin/sh\npip install a\nuv pip install b\npytest -x\n"})
    (edit,) = shell_edits(changed)
    assert json.loads(edit.params["added"]) == ["uv pip install b", "pytest -x"]
    assert json.loads(edit.params["removed"]) == ["pip install b", "pytest"]
    echoed = moved.model_copy(update={"content_after": before + "echo finished\n"})
    assert shell_edits(echoed) == []  # an echo is no step


def test_nine_ci_steps_switched_to_a_script_are_one_edit_and_a_reordered_workflow_is_none() -> None:
    before = _workflow("pip install xfer==0.5", "'3.10', '3.11'")
    after = _workflow("bash .github/scripts/install_xfer.sh", "'3.11', '3.12'")
    change = _workflow_change(".github/workflows/ci.yml", before, after)
    edits = ci_edits(change)
    # the same command switched in nine steps of three jobs: one edit, counted
    (first,) = [e for e in edits if e.kind == "ci-run-changed"]
    assert first.count == 9
    assert first.params["before"] == "pip install xfer==0.5"
    assert first.params["after"] == "bash .github/scripts/install_xfer.sh"
    assert json.loads(first.params["jobs"]) == ["test-0", "test-1", "test-2"]
    assert json.loads(first.params["steps"])[0] == "Install transport (wheels)"
    assert after.splitlines()[first.line - 1].strip() == "run: bash .github/scripts/install_xfer.sh"
    (matrix,) = [e for e in edits if e.kind == "constant-items-changed"]
    assert (matrix.params["added"], matrix.params["removed"], matrix.count) == ("3.12", "3.10", 3)
    # a list reordered, steps moved within a job: nothing changed; a side that does not parse: nothing told
    reordered = before.replace("'3.10', '3.11'", "'3.11', '3.10'")
    test_step = "      - name: Test\n        run: pytest -q\n"
    checkout = "      - uses: actions/checkout@v4\n"
    moved = reordered.replace(test_step, "").replace(checkout, checkout + test_step)
    assert moved != before
    assert ci_edits(change.model_copy(update={"content_after": moved})) == []
    assert ci_edits(change.model_copy(update={"content_after": "not: [valid"})) == []


def test_two_long_commands_that_differ_past_the_clip_show_the_words_that_differ() -> None:
    long = "if [[ $KIND = prod ]]; then pip install -e .[testing] torch==2.1 torchvision=={v} timm; fi"
    steps = f"    steps:\n      - name: Install\n        run: {long.format(v='0.15')}\n"
    before = f"on:\n  push: {{}}\njobs:\n  run-tests:\n{steps}"
    after = before.replace("0.15", "0.16")
    change = _workflow_change(".github/workflows/test.yml", before, after)
    (edit,) = ci_edits(change)
    assert (edit.params["before"], edit.params["after"]) == (
        "… torch==2.1 torchvision==0.15 timm; …",
        "… torch==2.1 torchvision==0.16 timm; …",
    )
    assert json.loads(edit.params["jobs"]) == ["run-tests"]  # "on:" (YAML's true) is no job
    # a word put in front is shown with its context, never as the bare word "now also runs `uv`"
    uv = before.replace("then pip install", "then uv pip install")
    (edit,) = ci_edits(change.model_copy(update={"content_after": uv}))
    assert (edit.params["before"], edit.params["after"]) == ("… then pip …", "… then uv pip …")
    # a whole line of a multi-line command removed: that line, and nothing on the other side
    lines = (
        "    steps:\n      - name: Install\n        run: |\n          source activate env\n{extra}          make test\n"
    )
    uninstall = "          pip uninstall comet_ml -y\n"
    two = "on: {}\njobs:\n  gpu:\n" + lines.format(extra=uninstall)
    one = "on: {}\njobs:\n  gpu:\n" + lines.format(extra="")
    (edit,) = ci_edits(change.model_copy(update={"content_before": two, "content_after": one}))
    assert (edit.params["before"], edit.params["after"]) == ("pip uninstall comet_ml -y", "")


def _texts(store: object, number: int) -> tuple[str, str]:
    en = report_for(store, "example-org/pkg", number, CATALOG.lang("en"), "full", None)  # type: ignore[arg-type]
    zh = report_for(store, "example-org/pkg", number, CATALOG.lang("zh"), "full", None)  # type: ignore[arg-type]
    return (
        " ".join(f"{s.title}: {s.detail}" for s in en.implementation),
        " ".join(f"{s.title}: {s.detail}" for s in zh.implementation),
    )


def test_reports_tell_a_new_scripts_steps_and_the_ci_steps_that_now_run_it(tmp_path: Path) -> None:
    repo = GitRepoBuilder(tmp_path / "repo")
    workflow = _workflow("pip install xfer==0.5", "'3.10', '3.11'")
    repo.commit({"README.md": "# pkg\n", ".github/workflows/ci.yml": workflow}, "Initial")
    script = {".github/scripts/install_xfer.sh": INSTALL_SCRIPT}
    repo.squash_pr(1, "Install the transport wheel matching the CUDA runtime", script)
    repo.squash_pr(
        2,
        "Use the install script in CI",
        {".github/workflows/ci.yml": _workflow("bash .github/scripts/install_xfer.sh", "'3.11', '3.12'")},
    )
    store = analyzed_history(repo, "example-org/pkg", tmp_path / "db.sqlite")
    (steps,) = [e for e in stored_facts(store, "example-org/pkg", 1).symbols.edits if e.kind == "script-steps"]
    assert steps.count == 6
    en, zh = _texts(store, 1)
    assert "runs, in order (lines 4–14): `pip install xfer-cu12 xfer-cu13` → " in en
    assert 'if `[ "$CUDA_MAJOR" = "12" ]`: `pip uninstall -y xfer-cu13`, otherwise `pip uninstall -y xfer-cu12`' in en
    assert "依次执行（第 4–14 行）：`pip install xfer-cu12 xfer-cu13` → " in zh
    assert "否则执行 `pip uninstall -y xfer-cu12`" in zh
    assert "echo" not in en  # bookkeeping is no step

    en, zh = _texts(store, 2)
    assert (
        "9 steps in `test-0`, `test-1`, `test-2` (`Install transport (wheels)`, `Install transport (sdist)`,"
        " `Install transport (editable)`) now run `bash .github/scripts/install_xfer.sh` instead of"
        " `pip install xfer==0.5`"
    ) in en
    assert "`strategy.matrix.python-version` gains `3.12` and loses `3.10` (in `test-0`, `test-1`, `test-2`)" in en
    assert "(+9/−9)" not in en
    assert "改为运行 `bash .github/scripts/install_xfer.sh`（原为 `pip install xfer==0.5`）" in zh


def test_a_ci_step_is_no_headline_of_a_pr_that_changes_source_code(tmp_path: Path) -> None:
    repo = GitRepoBuilder(tmp_path / "repo")
    workflow = _workflow("pip install xfer==0.5", "'3.11'")
    parser = "def parse(text):\n    return text.split()\n"
    repo.commit({"README.md": "# pkg\n", "pkg/parse.py": parser, ".github/workflows/ci.yml": workflow}, "Initial")
    changed = {
        "pkg/parse.py": parser.replace("text.split()", "text.split(',')"),
        ".github/workflows/ci.yml": workflow.replace("pip install xfer==0.5", "pip install xfer==0.6"),
    }
    repo.squash_pr(1, "Fix the parser", changed)
    store = analyzed_history(repo, "example-org/pkg", tmp_path / "db.sqlite")
    en = report_for(store, "example-org/pkg", 1, CATALOG.lang("en"), "full", None)
    assert "parse" in en.summary.one_line
    assert "now run" not in en.summary.one_line  # the gist names the parser; a CI step is not what it does to it
    details = " ".join(s.detail for s in en.implementation)
    assert "9 steps in `test-0`, `test-1`, `test-2`" in details  # told in its own step
    assert "now run `… install xfer==0.6` instead of `… install xfer==0.5`" in details


def test_a_constructor_that_no_longer_calls_a_check_says_so(tmp_path: Path) -> None:
    repo = GitRepoBuilder(tmp_path / "repo")
    before = (
        "import logging\n\nlog = logging.getLogger(__name__)\n\n\n"
        "def assert_kernel_available():\n    pass\n\n\n"
        "class KernelConfig:\n"
        "    def __init__(self, bits):\n"
        "        assert_kernel_available()\n"
        "        parts = []\n"
        "        parts.append(bits)\n"
        "        self.bits = bits\n"
    )
    after = before.replace("        assert_kernel_available()\n", "        log.debug('config %s', bits)\n").replace(
        "        parts.append(bits)\n", ""
    )
    repo.commit({"README.md": "# pkg\n", "pkg/kernel.py": before}, "Initial")
    repo.squash_pr(1, "Let the config load without the kernel", {"pkg/kernel.py": after})
    store = analyzed_history(repo, "example-org/pkg", tmp_path / "db.sqlite")
    edits = stored_facts(store, "example-org/pkg", 1).symbols.edits
    assert [(e.kind, e.symbol, e.params["callee"]) for e in edits if e.kind.startswith("call-")] == [
        # neither the log call added nor the method of a local variable dropped is told
        ("call-removed", "KernelConfig.__init__", "assert_kernel_available()")
    ]
    en, zh = _texts(store, 1)
    assert "`KernelConfig.__init__` no longer calls `assert_kernel_available()`" in en
    assert "`KernelConfig.__init__` 不再调用 `assert_kernel_available()`" in zh


def test_calls_gained_and_lost_are_one_edit_each_way_and_one_for_functions_alike() -> None:
    before = (
        "def start(app, *args):\n    connect()\n    warm_cache()\n    app.run()\n\n\n"
        "def stop(app):\n    connect()\n    warm_cache()\n    app.halt()\n"
    )
    after = (
        "def start(app, *args):\n    args.count(1)\n    app.run()\n    app.watch()\n\n\n"
        "def stop(app):\n    app.halt()\n"
    )
    change = FileChange(path="svc.py", status=FileStatus.MODIFIED, patch="@@ -1 +1 @@\n-a\n+b\n")
    edits = code_edits([change.model_copy(update={"content_before": before, "content_after": after})], set())
    calls = {
        e.kind: (json.loads(e.params["functions"]), json.loads(e.params["callees"]))
        for e in edits
        if e.kind.startswith("call-")
    }
    # a method of `*args` reads an argument; a method of the parameter `app` is behaviour
    assert calls == {
        "call-removed": (["start", "stop"], ["connect()", "warm_cache()"]),
        "call-added": (["start"], ["app.watch()"]),
    }
    (removed,) = [e for e in edits if e.kind == "call-removed"]
    en = edit_clause(removed, CATALOG.phrases(CATALOG.lang("en")))
    assert en == "`start`, `stop` no longer call `connect()`, `warm_cache()`"


SETUP_BEFORE = """import os


def get_requirements():
    cuda_major = os.environ.get("CUDA_MAJOR", "13")
    requirements = []
    for req in open("requirements/cuda.txt").read().splitlines():
        if "tensor-kit[cu13]" in req and cuda_major == "12":
            req = req.replace("tensor-kit[cu13]", "tensor-kit")
        requirements.append(req)
    return requirements
"""


def test_a_cuda_variant_rewrite_in_setup_py_is_told_and_a_requirement_switch_is_no_rewrite(tmp_path: Path) -> None:
    repo = GitRepoBuilder(tmp_path / "repo")
    requirements = "tensor-kit[cu13]>=4.3\nkern-kit[cu13]==0.1.2\n"
    repo.commit({"README.md": "# pkg\n", "setup.py": SETUP_BEFORE, "requirements/cuda.txt": requirements}, "Initial")
    rewrite = (
        '        if "kern-kit[cu13]" in req and cuda_major == "12":\n'
        '            req = req.replace("kern-kit[cu13]", "kern-kit[cu12]")\n'
    )
    setup_after = SETUP_BEFORE.replace(
        "        requirements.append(req)\n", rewrite + "        requirements.append(req)\n"
    )
    repo.squash_pr(1, "Install the CUDA 12 kernels on CUDA 12 builds", {"setup.py": setup_after})
    repo.squash_pr(
        2,
        "Switch to the CUDA 12 kernels",
        {"requirements/cuda.txt": requirements.replace("kern-kit[cu13]", "kern-kit[cu12]")},
    )
    store = analyzed_history(repo, "example-org/pkg", tmp_path / "db.sqlite")
    (edit,) = [e for e in stored_facts(store, "example-org/pkg", 1).symbols.edits if e.kind.startswith("requirement-")]
    assert (edit.kind, edit.params["before"], edit.params["after"]) == (
        "requirement-rewrite-added",
        "kern-kit[cu13]",
        "kern-kit[cu12]",
    )
    assert setup_after.splitlines()[edit.line - 1].strip().startswith('req = req.replace("kern-kit[cu13]"')
    en, zh = _texts(store, 1)
    assert "rewrites the requirement `kern-kit[cu13]` to `kern-kit[cu12]`" in en
    assert "(+2/−0)" not in en
    assert "把依赖 `kern-kit[cu13]` 改写为 `kern-kit[cu12]`" in zh
    # a requirement line switched to another variant is a declaration changed, not code rewriting one
    assert not [e for e in stored_facts(store, "example-org/pkg", 2).symbols.edits if e.kind.startswith("requirement-")]


GO_BEFORE = """package server

func (s *Server) Start(ctx Context) error {
\titems := []int{}
\titems = append(items, 1)
\ts.validate(ctx)
\tdefer s.mu.Unlock()
\tlog.Printf("starting")
\treturn nil
}
"""
GO_AFTER = GO_BEFORE.replace("\ts.validate(ctx)\n", "\tgo s.watch(ctx)\n").replace('\tlog.Printf("starting")\n', "")
JS_BEFORE = "function send(req) {\n  const queue = [];\n  queue.push(req);\n  validate(req);\n  return queue;\n}\n"
JS_AFTER = JS_BEFORE.replace("  validate(req);\n", "  await this.flush();\n").replace("  queue.push(req);\n", "")
RUST_BEFORE = (
    "impl Router {\n    pub fn route(&self) {\n        let mut v = Vec::new();\n"
    "        v.push(1);\n        self.check();\n    }\n}\n"
)
RUST_AFTER = RUST_BEFORE.replace("        self.check();\n", "")


def test_go_js_and_rust_definitions_tell_the_calls_they_gained_and_lost(tmp_path: Path) -> None:
    repo = GitRepoBuilder(tmp_path / "repo")
    repo.commit(
        {"README.md": "# pkg\n", "server.go": GO_BEFORE, "send.js": JS_BEFORE, "src/router.rs": RUST_BEFORE}, "Init"
    )
    repo.squash_pr(
        1, "Watch instead of validating", {"server.go": GO_AFTER, "send.js": JS_AFTER, "src/router.rs": RUST_AFTER}
    )
    store = analyzed_history(repo, "example-org/pkg", tmp_path / "db.sqlite")
    calls = {
        (e.path, e.kind, e.symbol): json.loads(e.params["callees"])
        for e in stored_facts(store, "example-org/pkg", 1).symbols.edits
        if e.kind.startswith("call-")
    }
    # the log line dropped, a local slice's append and a local array's push are not told
    assert calls == {
        ("server.go", "call-removed", "Server.Start"): ["s.validate()"],
        ("server.go", "call-added", "Server.Start"): ["s.watch()"],
        ("send.js", "call-removed", "send"): ["validate()"],
        ("send.js", "call-added", "send"): ["this.flush()"],
        ("src/router.rs", "call-removed", "Router::route"): ["self.check()"],
    }
    en, zh = _texts(store, 1)
    assert "`Server.Start` no longer calls `s.validate()`" in en
    assert "`Server.Start` 现在会调用 `s.watch()`" in zh


GZIP_BEFORE = """package middleware

func Gzip(w Writer) {
\tdefer func() {
\t\tif w.Size() == 0 {
\t\t\tw.Reset()
\t\t}
\t}()
\t(func() { w.Flush() })()
}
"""
GZIP_AFTER = GZIP_BEFORE.replace("w.Size() == 0", "!w.WroteBody()").replace("w.Flush()", "w.Close()")


def test_a_closure_run_in_place_is_no_call_but_the_calls_inside_it_are(tmp_path: Path) -> None:
    repo = GitRepoBuilder(tmp_path / "repo")
    repo.commit({"README.md": "# pkg\n", "gzip.go": GZIP_BEFORE}, "Init")
    repo.squash_pr(1, "Tell an empty body by what was written", {"gzip.go": GZIP_AFTER})
    store = analyzed_history(repo, "example-org/pkg", tmp_path / "db.sqlite")
    calls = {
        (e.kind, e.symbol): json.loads(e.params["callees"])
        for e in stored_facts(store, "example-org/pkg", 1).symbols.edits
        if e.kind.startswith("call-")
    }
    # the deferred closure's changed condition is no call swapped for another
    assert calls == {("call-removed", "Gzip"): ["w.Flush()"], ("call-added", "Gzip"): ["w.Close()"]}
