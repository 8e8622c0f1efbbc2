"""Module names from the package path, and which source changes owe a regression test."""

from __future__ import annotations

import pytest

from prdigest.analyzers.behaviour import file_changes_behaviour, is_revert, is_typo_fix
from prdigest.analyzers.files import module_from_path
from prdigest.models.pullrequest import FileChange, PullRequest


@pytest.mark.parametrize(
    ("path", "module"),
    [
        ("src/pkg/core.py", "pkg"),  # never "root" for a package under src/
        ("src/pkg/sub/x.py", "pkg/sub"),
        ("pkg/store/x.go", "store"),
        ("lib/x.py", "lib"),
        ("setup.py", "root"),
        ("tools/x.py", "tools"),
    ],
)
def test_module_from_the_package_path(path: str, module: str) -> None:
    assert module_from_path(path, "acme/tools") == module


def _py(before: str, after: str) -> FileChange:
    patch = (
        "@@ -1 +1 @@\n"
        + "".join(f"-{b}\n" for b in before.splitlines())
        + "".join(f"+{a}\n" for a in after.splitlines())
    )
    return FileChange(path="pkg/x.py", patch=patch, content_before=before, content_after=after)


def test_docstrings_comments_and_versions_change_no_behaviour() -> None:
    assert not file_changes_behaviour(
        _py('def f():\n    """Old."""\n    return 1\n', 'def f():\n    """New."""\n    return 1\n')
    )
    assert not file_changes_behaviour(_py("x = 1  # old\n", "x = 1  # new\n"))
    assert not file_changes_behaviour(_py('__version__ = "1.0"\n', '__version__ = "1.1"\n'))
    assert file_changes_behaviour(_py("def f():\n    return 1\n", "def f():\n    return 2\n"))


def test_other_languages_are_read_line_by_line() -> None:
    comment = FileChange(path="a.c", patch="@@ -1 +1 @@\n-// old\n+// new\n")
    include = FileChange(path="a.c", patch="@@ -1 +1 @@\n-#include <a.h>\n+#include <b.h>\n")
    assert not file_changes_behaviour(comment)
    assert file_changes_behaviour(include)  # a preprocessor line is code, not a comment
    assert file_changes_behaviour(FileChange(path="a.c", additions=3))  # nothing shows what changed


def test_reverts_and_typo_fixes_are_told_by_their_title_and_body() -> None:
    assert is_revert(PullRequest(repository="a/b", number=1, title='Revert "Add x"'))
    assert is_revert(PullRequest(repository="a/b", number=1, title="Undo", body="This reverts commit abcdef1234."))
    assert is_typo_fix(PullRequest(repository="a/b", number=1, title="docs: fix typos"))
    assert not is_revert(PullRequest(repository="a/b", number=1, title="Add revert support"))
