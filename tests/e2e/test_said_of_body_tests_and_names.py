"""What a report says of a PR's body, its tests and its code must hold for the PR it describes:
a body of bullets gives its reasons (never "no motivation"), test files changed alone changed
"with" no code, users may meet a non-source file they run or the build's configuration, and
the one-line summary names the code that holds the fix and at most four names in all."""

from __future__ import annotations

import re
from pathlib import Path

from tests.helpers.analyzed import analyzed_history
from tests.helpers.gitrepo import GitRepoBuilder

from prdigest.pipeline.report import report_for
from prdigest.store import Store
from prdigest.words import CATALOG

REPO = "example-org/honest"

BALANCER = """package proxy

type balancer struct{ mu Mutex }

func (b *balancer) Next() int {
\tb.mu.RLock()
\tdefer b.mu.RUnlock()
\treturn pick()
}

func (b *balancer) Add(t int) {
\tb.mu.RLock()
\tappendTarget(t)
\tb.mu.RUnlock()
}

func NewRandom() *balancer { return &balancer{} }

func NewRoundRobin() *balancer { return &balancer{} }
"""
BALANCER_FIXED = (
    BALANCER.replace("\tb.mu.RLock()\n\tdefer b.mu.RUnlock()\n", "\tb.mu.Lock()\n\tdefer b.mu.Unlock()\n")
    .replace(
        "\tb.mu.RLock()\n\tappendTarget(t)\n\tb.mu.RUnlock()\n", "\tb.mu.Lock()\n\tappendTarget(t)\n\tb.mu.Unlock()\n"
    )
    .replace("return &balancer{} }\n\nfunc NewRoundRobin", "return &balancer{mu: NewMutex()} }\n\nfunc NewRoundRobin")
    .replace(
        "func NewRoundRobin() *balancer { return &balancer{} }",
        "func NewRoundRobin() *balancer { return &balancer{mu: NewMutex()} }",
    )
)
TEST = "package proxy\n\nfunc TestNext(t *T) {\n\tif NewRandom().Next() != 0 {\n\t\tt.Fail()\n\t}\n}\n"


def _store(tmp_path: Path) -> Store:
    repo = GitRepoBuilder(tmp_path / "repo")
    go_mod = "module example.org/honest\n\ngo 1.21\n\nrequire golang.org/x/net v0.30.0\n"
    setup = 'from setuptools import setup\n\nsetup(name="honest", python_requires=">=3.6")\n'
    files = {
        "README.md": "# honest\n",
        "go.mod": go_mod,
        "proxy/balancer.go": BALANCER,
        "proxy/balancer_test.go": TEST,
        "setup.py": setup,
    }
    repo.commit(files, "Initial commit")
    repo.squash_pr(
        1, "Apply gofmt to the tests", {"proxy/balancer_test.go": TEST.replace("\t\tt.Fail()", "\t\tt.Fail( )")}
    )
    repo.squash_pr(
        2,
        "Upgrade dependencies",
        {"go.mod": go_mod.replace("v0.30.0", "v0.38.0")},
        body=(
            "Fixed these:\n"
            "* https://pkg.go.dev/vuln/GO-2025-3503 (affects: `golang.org/x/net/http/httpproxy`)\n"
            "* https://pkg.go.dev/vuln/GO-2025-3595 (affects: `golang.org/x/net/html`)\n"
        ),
    )
    repo.squash_pr(
        3,
        "Fix the race when a target is added while another request picks one",
        {"proxy/balancer.go": BALANCER_FIXED},
    )
    repo.squash_pr(
        4,
        "Highlight option names in man pages",
        {"syntaxes/man.sublime-syntax": "scope: text.man\n", "tests/syntax-tests/man.txt": "-o, --option\n"},
    )
    # one requirement and ten source files: more files than the key files a report shows
    renamed = {f"pkg/part{i}.py": f"from colours import paint\nNAME = 'part{i}'\n" for i in range(10)}
    repo.squash_pr(5, "Use the colours package", {"requirements.txt": "colours>=1.0\n", **renamed})
    # no requirement changes, yet what users may install does
    repo.squash_pr(6, "Drop Python 3.6 support", {"setup.py": setup.replace(">=3.6", ">=3.7")})
    return analyzed_history(repo, REPO, tmp_path / "db.sqlite")


def test_a_body_of_bullets_tests_alone_and_a_one_liner_of_two_names(tmp_path: Path) -> None:
    store = _store(tmp_path)
    en, zh = CATALOG.lang("en"), CATALOG.lang("zh")

    tests_only = report_for(store, REPO, 1, en, "full", None).risks.impact.team
    assert "Tests changed; no source code changed with them." in tests_only
    assert "with the code" not in tests_only
    assert "源码没有改动" in report_for(store, REPO, 1, zh, "full", None).risks.impact.team

    # a syntax definition is no source file, yet the tests changed with it
    beside = report_for(store, REPO, 4, en, "full", None).risks.impact.team
    assert "Tests changed with the code." in beside
    # ...and users may meet the syntax file: "no direct effect on users" would be false
    users = report_for(store, REPO, 4, en, "full", None).risks.impact.users
    assert users == "No source code changed, but users may still meet `syntaxes/man.sublime-syntax`.", users
    assert "用户仍可能接触到" in report_for(store, REPO, 4, zh, "full", None).risks.impact.users
    assert report_for(store, REPO, 1, en, "full", None).risks.impact.users == "No direct effect on users."
    build = report_for(store, REPO, 6, en, "full", None).risks.impact.users
    assert build == "No source code changed, but users may still meet `setup.py`.", build

    # "and N more files" counts every file changed, not only the key files shown
    more = report_for(store, REPO, 5, en, "full", None).summary.one_line
    assert more.endswith("also changes `pkg/part0.py` and 9 more files"), more
    assert "等 10 个文件" in report_for(store, REPO, 5, zh, "full", None).summary.one_line

    listed = report_for(store, REPO, 2, en, "full", None).motivation
    assert "no motivation" not in listed
    assert listed.startswith("The PR body lists: “https://pkg.go.dev/vuln/GO-2025-3503")
    assert "PR 正文列出：" in report_for(store, REPO, 2, zh, "full", None).motivation

    for lang in (en, zh):
        one_line = report_for(store, REPO, 3, lang, "full", None).summary.one_line
        names = set(re.findall(r"`[^`]+`", one_line))
        # the fix is where its lines are: the locking methods, not the constructors' one line;
        # then what changed in them, within four names in all (the second edit would be six)
        assert names == {"`balancer.Next`", "`balancer.Add`", "`b.mu.RLock()`", "`b.mu.RUnlock()`"}, one_line
