"""A parameter's default changed: a fact of the code edits, shown as the key code (the
signature, not the docstring paragraph that tells of it), and, for a public function whose
callers now get another value, a reason to read the PR. On a real git history."""

from __future__ import annotations

import pytest
from tests.helpers.analyzed import analyzed_history, reason_codes, stored_facts
from tests.helpers.gitrepo import GitRepoBuilder

from prdigest.models.facts import Facts, VerdictLevel
from prdigest.pipeline.report import report_for
from prdigest.store import Store
from prdigest.words import CATALOG

REPO = "example-org/web"
PATH = "src/web/responses.py"
STATUS, SENTINEL, PRIVATE, TIMEOUTS = 1, 2, 3, 4
CLIENTS = "src/web/clients.py"


def _clients(timeout: str) -> str:
    return "".join(f"def {verb}(url, timeout={timeout}):\n    return url, timeout\n\n\n" for verb in ("get", "post"))


_ARGUMENTS = [f"    :param arg{i}: what argument {i} is for." for i in range(10)]
_NOTES = [f"    Line {i} of what the redirect does and which clients follow it." for i in range(12)]


def _responses(code: str = "302", empty: str = "[]", retries: str = "3", notes: list[str] | None = None) -> str:
    return "\n".join(
        [
            f"def redirect(location, code={code}, *, headers={empty}):",
            '    """Make a redirect response.',
            "",
            *_ARGUMENTS,
            "",
            *(notes or []),
            '    """',
            "    return (code, location, list(headers or []))",
            "",
            "",
            f"def _send(response, retries={retries}):",
            "    return response, retries",
            "",
        ]
    )


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Store:
    root = tmp_path_factory.mktemp("web")
    repo = GitRepoBuilder(root / "repo")
    repo.commit({"README.md": "# web\n", PATH: _responses(), CLIENTS: _clients("5")}, "Initial")
    repo.squash_pr(STATUS, "Redirect with 303", {PATH: _responses(code="303", notes=_NOTES)})
    repo.squash_pr(SENTINEL, "No shared list default", {PATH: _responses(code="303", empty="None", notes=_NOTES)})
    repo.squash_pr(PRIVATE, "Retry more", {PATH: _responses(code="303", empty="None", retries="5", notes=_NOTES)})
    repo.squash_pr(TIMEOUTS, "Wait longer", {CLIENTS: _clients("10")})
    return analyzed_history(repo, REPO, root / "web.db")


def _defaults(facts: Facts) -> list[dict[str, str]]:
    return [e.params for e in facts.symbols.edits if e.kind == "default-changed"]


def test_a_changed_default_is_a_code_edit(store: Store) -> None:
    facts = stored_facts(store, REPO, STATUS)
    assert _defaults(facts) == [{"function": "redirect", "parameter": "code", "before": "302", "after": "303"}]
    keyword_only = _defaults(stored_facts(store, REPO, SENTINEL))
    assert keyword_only == [{"function": "redirect", "parameter": "headers", "before": "[]", "after": "None"}]


def test_the_key_code_is_the_signature_not_the_longer_docstring_hunk(store: Store) -> None:
    excerpt = stored_facts(store, REPO, STATUS).symbols.excerpts[0]
    assert "-def redirect(location, code=302" in excerpt.text
    assert "+def redirect(location, code=303" in excerpt.text


def test_callers_getting_another_value_make_the_pr_worth_a_look(store: Store) -> None:
    facts = stored_facts(store, REPO, STATUS)
    reason = next(r for r in facts.verdict.reasons if r.code == "api-default")
    assert reason.items[0].params["after"] == "303"
    assert facts.verdict.level is VerdictLevel.QUICK_READ
    en = report_for(store, REPO, STATUS, CATALOG.lang("en"), "full", None)
    assert "Callers of `redirect` that leave out `code` now get `303` instead of `302`" in en.summary.recommendation
    zh = report_for(store, REPO, STATUS, CATALOG.lang("zh"), "full", None)
    assert "默认值由 `302` 改为 `303`" in zh.summary.one_line


@pytest.mark.parametrize("number", [SENTINEL, PRIVATE])
def test_a_sentinel_default_or_a_private_function_is_no_reason(store: Store, number: int) -> None:
    facts = stored_facts(store, REPO, number)
    assert _defaults(facts)
    assert "api-default" not in reason_codes(facts)


def test_one_default_changed_alike_in_several_functions_is_one_edit(store: Store) -> None:
    facts = stored_facts(store, REPO, TIMEOUTS)
    (edit,) = [e for e in facts.symbols.edits if e.kind == "default-changed"]
    assert (edit.count, edit.params["parameter"], edit.params["before"], edit.params["after"]) == (
        2,
        "timeout",
        "5",
        "10",
    )
    en = report_for(store, REPO, TIMEOUTS, CATALOG.lang("en"), "full", None)
    assert "`timeout` now defaults to `10` instead of `5` in 2 functions (`get`, …)" in en.summary.one_line
    reason = next(r for r in facts.verdict.reasons if r.code == "api-default")
    assert reason.items[0].params["more"] == "1"
