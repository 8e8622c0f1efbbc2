"""Hostile bundles through ``prdigest import``: each import either succeeds with counts that add
up, or fails with exit 3 and one line per problem (naming the file and JSON path); either
way nothing already stored is lost or changed.

The strategy draws valid bundles in the documented format (docs/bundle-format.md) and then
breaks them: numbers past every column (2**31, 2**63, 2**70, thousands of digits), negative
counts, JSON nested 10 to 100,000 deep, repeated comment ids, one PR twice in one import,
wrong types, missing keys, control characters, lone surrogates, bytes that are not UTF-8.
"""

from __future__ import annotations

import contextlib
import io
import json
import re
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from prdigest.cli.main import main
from prdigest.store import Store

BASE_REPO = "base/kept"
HUGE = "@HUGE@"  # placeholders replaced in the JSON text: json.dumps cannot write these
DEEP = "@DEEP@"
SURROGATE = "@SURROGATE@"
NOT_UTF8 = "@NOT_UTF8@"

stamps = st.sampled_from(["2024-01-01T00:00:00Z", "2024-03-02T10:00:00+08:00", "2024-05-01T00:00:00Z"])
texts = st.text(max_size=20)
logins = st.sampled_from(["alice", "bob", "dependabot[bot]", "ghost"])
counts = st.integers(0, 500)
ids = st.integers(1, 40)


def _user(login: str) -> dict[str, Any]:
    return {"login": login, "type": "Bot" if login.endswith("[bot]") else "User"}


files = st.builds(
    lambda name, status, add, delete, patch: {
        "filename": name,
        "status": status,
        "additions": add,
        "deletions": delete,
        **({"patch": patch} if patch is not None else {}),
    },
    st.sampled_from(["src/a.py", "b.cu", "README.md", "requirements.txt"]),
    st.sampled_from(["added", "removed", "modified", "renamed"]),
    counts,
    counts,
    st.none() | st.just("@@ -1 +1 @@\n-a\n+b"),
)
commits = st.builds(
    lambda sha, message, login: {
        "sha": sha * 40,
        "commit": {"message": message, "author": {"name": login, "date": "2024-01-01T00:00:00Z"}},
        "author": _user(login),
    },
    st.sampled_from("abc"),
    texts,
    logins,
)
reviews = st.builds(
    lambda i, login, state: {"id": i, "user": _user(login), "state": state, "body": "ok"},
    ids,
    logins,
    st.sampled_from(["APPROVED", "COMMENTED", "CHANGES_REQUESTED"]),
)
review_comments = st.builds(
    lambda i, reply, login, body: {
        "id": i,
        "user": _user(login),
        "body": body,
        "path": "src/a.py",
        "line": 3,
        **({"in_reply_to_id": reply} if reply else {}),
    },
    ids,
    st.none() | ids,
    logins,
    texts,
)
issue_comments = st.builds(lambda i, login, body: {"id": i, "user": _user(login), "body": body}, ids, logins, texts)
threads = st.builds(
    lambda resolved, nodes: {
        "isResolved": resolved,
        "isOutdated": False,
        "path": "src/a.py",
        "comments": {"nodes": [{"databaseId": n, "body": "t", "author": {"login": "bob"}} for n in nodes]},
    },
    st.booleans(),
    st.lists(ids, max_size=3),
)


@st.composite
def valid_bundles(draw: st.DrawFn) -> dict[str, Any]:
    bundle: dict[str, Any] = {
        "format_version": 1,
        "repository": "hostile/repo",
        "pull": {
            "number": draw(st.integers(1, 4)),
            "title": draw(texts),
            "body": draw(st.none() | texts),
            "state": draw(st.sampled_from(["open", "closed"])),
            "user": _user(draw(logins)),
            "created_at": "2024-01-01T00:00:00Z",
            "updated_at": draw(stamps),
            "merged_at": draw(st.none() | stamps),
            "base": {"ref": "main", "sha": "a" * 40},
            "head": {"ref": "x", "sha": "b" * 40},
            "labels": [{"name": name} for name in draw(st.lists(texts, max_size=2))],
        },
        "files": draw(st.lists(files, max_size=3)),
        "commits": draw(st.lists(commits, max_size=3)),
        "reviews": draw(st.lists(reviews, max_size=3)),
        "review_comments": draw(st.lists(review_comments, max_size=4)),
        "issue_comments": draw(st.lists(issue_comments, max_size=4)),
    }
    if draw(st.booleans()):
        bundle["review_threads"] = draw(st.lists(threads, max_size=3))
    return bundle


def _int_paths(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    if isinstance(value, bool):
        return
    if isinstance(value, int):
        yield path
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _int_paths(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _int_paths(item, (*path, index))


def _all_paths(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    if path:
        yield path
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _all_paths(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _all_paths(item, (*path, index))


def _set(document: Any, path: tuple[Any, ...], value: Any) -> None:
    for part in path[:-1]:
        document = document[part]
    document[path[-1]] = value


def _delete(document: Any, path: tuple[Any, ...]) -> None:
    for part in path[:-1]:
        document = document[part]
    del document[path[-1]]


def _in_pull(document: dict[str, Any]) -> dict[str, Any]:
    """The pull object, or the bundle itself once an earlier break replaced the pull."""
    pull = document.get("pull")
    return pull if isinstance(pull, dict) else document


@st.composite
def hostile_bundles(draw: st.DrawFn) -> str:
    """The JSON text of one bundle, broken in 0 to 3 ways."""
    document = draw(valid_bundles())
    depth = 0
    for _ in range(draw(st.integers(0, 3))):
        kind = draw(
            st.sampled_from(["number", "deep", "duplicate", "wrong-type", "missing", "text", "repository", "extra"])
        )
        if kind == "number":
            path = draw(st.sampled_from(list(_int_paths(document))))
            value = draw(st.sampled_from([2**31 - 1, 2**31, 2**63, 2**70, -1, 0, HUGE]))
            _set(document, path, value)
        elif kind == "deep":
            depth = draw(st.sampled_from([10, 150, 300, 1200, 100_000]))
            _in_pull(document)["x_nested"] = DEEP
        elif kind == "duplicate":
            key = draw(st.sampled_from(["reviews", "review_comments", "issue_comments", "commits", "files"]))
            items = document.get(key)  # an earlier break may have removed it or changed its type
            if isinstance(items, list) and items and isinstance(items[0], dict):
                items.append(dict(items[0]))
        elif kind == "wrong-type":
            path = draw(st.sampled_from(list(_all_paths(document))))
            _set(document, path, draw(st.sampled_from(["12", [], {}, None, 1.5, True])))
        elif kind == "missing":
            path = draw(st.sampled_from(list(_all_paths(document))))
            _delete(document, path)
        elif kind == "text":
            value = draw(st.sampled_from(["\x00", "\x1b[2J", "\r", "\u202e", SURROGATE, NOT_UTF8, "x" * 10_000]))
            _in_pull(document)["title"] = value
        elif kind == "repository":
            document["repository"] = draw(st.sampled_from(["a/b/c", "", "x", "/r", None, "hostile/other"]))
        else:
            document[draw(st.sampled_from(["unknown", "pull"]))] = draw(st.sampled_from([1, "x", [1]]))
    text = json.dumps(document)
    text = text.replace(f'"{HUGE}"', "9" * 5000).replace(f'"{DEEP}"', "[" * depth + "]" * depth)
    return text.replace(SURROGATE, "\\ud800")


def _stored(db: Path) -> dict[tuple[str, int], str]:
    with Store.open(f"sqlite:///{db}") as store:
        return {(pr.repository, pr.number): pr.model_dump_json() for pr in store.iter_prs()}


def _import(paths: list[Path], db: Path) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = 0
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            main(["import", *map(str, paths), "--db", str(db)])
        except SystemExit as exc:
            code = int(exc.code or 0)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A database holding PRs of another repository, which no hostile import may touch."""
    folder = tmp_path_factory.mktemp("hostile")
    path = folder / "kept.db"
    base = json.loads(json.dumps(MINIMAL_OTHER))
    bundles = []
    for number in (1, 2, 3):
        base["pull"]["number"] = number
        bundle = folder / f"base{number}.json"
        bundle.write_text(json.dumps(base), encoding="utf-8")
        bundles.append(bundle)
    assert _import(bundles, path)[0] == 0
    return path


MINIMAL_OTHER: dict[str, Any] = {
    "format_version": 1,
    "repository": BASE_REPO,
    "pull": {
        "number": 1,
        "title": "kept",
        "state": "closed",
        "created_at": "2024-01-01T00:00:00Z",
        "updated_at": "2024-01-02T00:00:00Z",
        "merged_at": "2024-01-02T00:00:00Z",
        "base": {"ref": "main", "sha": "a" * 40},
        "head": {"ref": "x", "sha": "b" * 40},
    },
    "files": [],
    "commits": [],
    "reviews": [],
    "review_comments": [],
    "issue_comments": [],
}
SUMMARY = re.compile(
    r"^imported (\d+) bundles?: (\d+) new, (\d+) updated, (\d+) unchanged(?:, (\d+) duplicates? skipped)?$"
)


@settings(max_examples=120, deadline=None)
@given(texts_=st.lists(hostile_bundles(), min_size=1, max_size=3))
def test_hostile_imports_succeed_or_fail_in_one_line_each_and_lose_nothing(db: Path, texts_: list[str]) -> None:
    before = _stored(db)
    with tempfile.TemporaryDirectory() as folder:
        paths = []
        for index, text in enumerate(texts_):
            path = Path(folder) / f"b{index}.json"
            data = text.encode("utf-8", errors="surrogatepass")
            path.write_bytes(data.replace(NOT_UTF8.encode(), b"\xff\xfe"))
            paths.append(path)
        code, out, err = _import(paths, db)
    after = _stored(db)
    event(f"exit {code}")
    assert code in (0, 3), err
    assert "Traceback" not in err
    lines = err.splitlines()
    if code == 3:
        assert out == ""
        assert lines, "an error must say what is wrong"
        assert all(line.startswith("error: ") for line in lines), err
        named = [line for line in lines if line.startswith(f"error: {folder}")]
        # each problem names its JSON path; past the first few, one line counts the rest
        problem = rf"error: {re.escape(folder)}/b\d\.json: (?:\$|\(\d+ more problems? not shown\)$)"
        assert all(re.match(problem, line) for line in named), err
        assert len(named) == len(lines) - (len(lines) > 1), err  # several problems end with a count
        assert after == before, "a failed import changed the database"
        return
    assert all(line.startswith("warning: ") for line in lines), err
    match = SUMMARY.match(out.strip())
    assert match is not None, out
    total, new, updated, unchanged, skipped = (int(group or 0) for group in match.groups())
    assert total == len(texts_)
    assert new + updated + unchanged + skipped == total
    assert len(after) == len(before) + new
    for key, record in before.items():
        if key[0] == BASE_REPO:
            assert after[key] == record, f"{key} changed"
        else:
            assert key in after, f"{key} was lost"


def test_one_pr_twice_keeps_the_newer_and_says_so(db: Path, tmp_path: Path) -> None:
    older = json.loads(json.dumps(MINIMAL_OTHER))
    older["repository"] = "twice/repo"
    newer = json.loads(json.dumps(older))
    newer["pull"]["updated_at"] = "2024-06-01T00:00:00Z"
    newer["pull"]["title"] = "newer"
    first, second = tmp_path / "newer.json", tmp_path / "older.json"
    first.write_text(json.dumps(newer), encoding="utf-8")
    second.write_text(json.dumps(older), encoding="utf-8")
    code, out, err = _import([first, second], db)
    assert code == 0
    assert out.strip() == "imported 2 bundles: 1 new, 0 updated, 0 unchanged, 1 duplicate skipped"
    assert err.strip() == (f"warning: {second} and {first} are both twice/repo#1; kept {first} (updated later)")
    assert _stored(db)[("twice/repo", 1)].count('"title":"newer"') == 1


def test_numbers_past_the_columns_and_deep_json_are_one_line(db: Path, tmp_path: Path) -> None:
    big = json.loads(json.dumps(MINIMAL_OTHER))
    big["pull"]["number"] = 2**70
    path = tmp_path / "big.json"
    path.write_text(json.dumps(big), encoding="utf-8")
    code, _out, err = _import([path], db)
    assert code == 3
    expected = "$.pull.number: Input should be less than or equal to 2147483647 (got integer) (nothing imported)"
    assert err == f"error: {path}: {expected}\n"
    deep = tmp_path / "deep.json"
    deep.write_text('{"format_version": 1, "x": ' + "[" * 100_000 + "]" * 100_000 + "}", encoding="utf-8")
    code, _out, err = _import([deep], db)
    assert code == 3
    assert err.count("\n") == 1
    assert err.startswith(f"error: {deep}: $: JSON nested too deeply")
