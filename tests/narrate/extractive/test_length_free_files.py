"""A PR's narratives of both lengths share each file's code-edit sentence and what each key
file's role says of its changes; made so, in either order, they are those made one by one.
On a real git history: a changed default, a release's version constant, a test, a link that
becomes a file (the path listed twice: deleted and added)."""

from __future__ import annotations

import pytest
from tests.helpers.analyzed import analyzed_history, stored_facts
from tests.helpers.gitrepo import GitRepoBuilder

from prdigest.models.narrative import Length
from prdigest.narrate.extractive import LengthFree, narrate_extractive
from prdigest.store import Store
from prdigest.words import CATALOG, Lang

REPO = "example-org/web"
PR, LINK_TO_FILE = 1, 2
CLIENTS = "src/web/clients.py"
GUIDE = "docs/guide.md"


def _clients(timeout: str, version: str) -> str:
    verbs = "".join(f"def {verb}(url, timeout={timeout}):\n    return url, timeout\n\n\n" for verb in ("get", "post"))
    return f'__version__ = "{version}"\n\n\n{verbs}'


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Store:
    root = tmp_path_factory.mktemp("web")
    repo = GitRepoBuilder(root / "repo")
    test = "from web.clients import get\n\n\ndef test_get():\n    assert get('u')\n"
    repo.commit({"README.md": "# web\n", CLIENTS: _clients("5", "1.0"), "tests/test_clients.py": test}, "Initial")
    repo.squash_pr(
        PR,
        "Wait longer",
        {CLIENTS: _clients("10", "1.1"), "tests/test_clients.py": test + "\n\ndef test_post():\n    assert True\n"},
        body="Clients waited too little on slow servers, so `get` and `post` now wait ten seconds.",
    )
    (repo.path / "docs").mkdir()
    (repo.path / GUIDE).symlink_to("../README.md")
    repo.commit({}, "Link the guide")
    (repo.path / GUIDE).unlink()
    repo.squash_pr(LINK_TO_FILE, "Write the guide", {GUIDE: "# Guide\n\n" + "How to call the clients.\n" * 40})
    return analyzed_history(repo, REPO, root / "web.db")


@pytest.mark.parametrize("number", [PR, LINK_TO_FILE])
@pytest.mark.parametrize("lengths", [("full", "brief"), ("brief", "full")])
def test_narratives_with_shared_file_parts_are_those_made_alone(
    store: Store, number: int, lengths: tuple[Length, ...]
) -> None:
    pr = store.get_pr(REPO, number)
    facts = stored_facts(store, REPO, number)
    shared = LengthFree()
    for lang in (Lang("en"), Lang("zh")):
        for length in lengths:
            alone = narrate_extractive(pr, facts, [], lang, length)
            together = narrate_extractive(pr, facts, [], lang, length, shared=shared)
            assert together.model_dump_json() == alone.model_dump_json()
    assert set(shared.file_changes) == {"en", "zh"}


def test_a_path_listed_twice_keeps_what_each_listing_says(store: Store) -> None:
    facts = stored_facts(store, REPO, LINK_TO_FILE)
    assert [f.status for f in facts.files.files if f.path == GUIDE] == ["removed", "added"]
    ph = CATALOG.phrases(Lang("en"))
    shared = LengthFree()
    for length in ("full", "brief"):
        narrative = narrate_extractive(store.get_pr(REPO, LINK_TO_FILE), facts, [], Lang("en"), length, shared=shared)
        removed, added = [r.role for r in narrative.file_roles if r.path == GUIDE]
        assert ph.say("files", "removed") in removed
        assert ph.say("files", "added") in added


def test_the_role_of_a_file_with_edits_says_them(store: Store) -> None:
    pr = store.get_pr(REPO, PR)
    facts = stored_facts(store, REPO, PR)
    shared = LengthFree()
    full = narrate_extractive(pr, facts, [], Lang("en"), "full", shared=shared)
    brief = narrate_extractive(pr, facts, [], Lang("en"), "brief", shared=shared)
    assert CLIENTS in shared.edits["en"]
    (changes, has_edits) = next(said for key, said in shared.file_changes["en"].items() if key[0] == CLIENTS)
    assert has_edits
    role = next(r.role for r in full.file_roles if r.path == CLIENTS)
    assert changes[-1] in role
    # the brief's steps say the default's change, so its key files say only the rest
    told = " ".join(step.title + step.detail for step in brief.implementation)
    assert "`timeout` now defaults to `10`" in told
    assert (
        next(r.role for r in brief.file_roles if r.path == CLIENTS)
        == "the constant `__version__` changes from `1.0` to `1.1`"
    )
