"""The one-liner says "Adds" of files only when they were added (a title's "add" that the edited
file does not bear out becomes "Changes"), and a file's category is said in the reader's
language ("示例和配置文件", not "example 和 config 类文件"). On a real git history."""

from __future__ import annotations

import pytest
from tests.helpers.analyzed import analyzed_history
from tests.helpers.gitrepo import GitRepoBuilder
from tests.helpers.one_line import facts_clause

from prdigest.models.report import Length
from prdigest.pipeline.report import report_for
from prdigest.render.formats import report_format
from prdigest.store import Store
from prdigest.words import CATALOG

REPO = "example-org/sockets"
INIT = "src/sockets/__init__.py"
EXPORT, EXAMPLE_ONLY = 1, 2
MANAGER = "\n".join(
    [
        "class Manager:",
        "    def __init__(self):",
        "        self.active = []",
        "",
        "    def connect(self, socket):",
        "        self.active.append(socket)",
        "",
    ]
)


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Store:
    root = tmp_path_factory.mktemp("sockets")
    repo = GitRepoBuilder(root / "repo")
    repo.commit(
        {
            "README.md": "# sockets\n",
            INIT: "from .core import Socket as Socket\n",
            "src/sockets/core.py": "class Socket:\n    pass\n\n\nclass Closed(Exception):\n    pass\n",
            "setup.cfg": "[metadata]\nname = sockets\n",
        },
        "Initial",
    )
    exported = "from .core import Closed as Closed\nfrom .core import Socket as Socket\n"
    repo.squash_pr(
        EXPORT,
        "Export Closed and add an example handling disconnections",
        {INIT: exported, "examples/chat.py": MANAGER},
    )
    repo.squash_pr(
        EXAMPLE_ONLY,
        "Show a broadcast in the chat example",
        {
            "examples/chat.py": MANAGER + "\n    def broadcast(self, text):\n        return text\n",
            "setup.cfg": "[metadata]\nname = sockets\nversion = 1\n",
        },
    )
    return analyzed_history(repo, REPO, root / "sockets.db")


def test_an_edited_file_is_not_said_to_be_added(store: Store) -> None:
    en = facts_clause(report_for(store, REPO, EXPORT, CATALOG.lang("en"), "full", None).summary.one_line)
    assert en.startswith("Changes "), en
    assert INIT in en
    zh = report_for(store, REPO, EXPORT, CATALOG.lang("zh"), "full", None).summary.one_line
    assert not zh.startswith("新增"), zh


@pytest.mark.parametrize("length", ["full", "brief"])
def test_categories_are_said_in_chinese(store: Store, length: Length) -> None:
    said = report_for(store, REPO, EXAMPLE_ONLY, CATALOG.lang("zh"), length, None).summary.recommendation
    assert "示例和配置" in said, said  # Chinese words joined as words, not as code (「示例 和 配置」)
    assert not any(word in said for word in ("example", "config", "source")), said


def test_key_file_facets_are_said_in_chinese(store: Store) -> None:
    report = report_for(store, REPO, EXPORT, CATALOG.lang("zh"), "full", None)
    text = report_format("md").render(report)
    assert "类别 源码；类型 核心逻辑" in text, text
    assert "类别 source" not in text
