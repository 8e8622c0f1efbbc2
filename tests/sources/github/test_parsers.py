"""Property and unit tests of the parsers the GitHub source writes or wraps."""

from __future__ import annotations

import base64
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from prdigest.errors import BundleError, ConfigError
from prdigest.sources.github.bundle import json_path, parse_bundle
from prdigest.sources.github.client import GitHubClient, _next_link
from prdigest.sources.github.config import graphql_url, resolve_api_url, resolve_credentials
from prdigest.sources.github.normalize import co_authors, decode_content, is_bot, normalize_bundle

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=12), children, max_size=4),
    max_leaves=20,
)
MINIMAL = {
    "format_version": 1,
    "pull": {
        "number": 5,
        "title": "t",
        "state": "open",
        "created_at": "2024-01-01T00:00:00Z",
        "updated_at": "2024-01-02T00:00:00Z",
        "base": {"ref": "main", "sha": "a" * 40, "repo": {"full_name": "o/r"}},
        "head": {"ref": "x", "sha": "b" * 40},
    },
    "files": [],
    "commits": [],
    "reviews": [],
    "review_comments": [],
    "issue_comments": [],
}


@settings(max_examples=150, deadline=None)
@given(st.binary(max_size=300))
def test_parse_bundle_never_crashes_on_bytes(data: bytes) -> None:
    message = ""
    try:
        parse_bundle(data, "x.json")
    except BundleError as exc:
        message = str(exc)
    assert message == "" or message.startswith("x.json: $")


@settings(max_examples=150, deadline=None)
@given(st.dictionaries(st.sampled_from(sorted(MINIMAL)), json_values, max_size=6))
def test_parse_bundle_reports_a_path_for_any_json(overrides: dict[str, Any]) -> None:
    document = {**MINIMAL, **overrides}
    try:
        bundle = parse_bundle(json.dumps(document), "b.json")
    except BundleError as exc:
        lines = str(exc).splitlines()
        assert lines[0].startswith("b.json: $")
        assert all(line.startswith("b.json: ") for line in lines)
    else:
        assert bundle.pull.number >= 1


def test_minimal_bundle_normalizes() -> None:
    pr = normalize_bundle(parse_bundle(json.dumps(MINIMAL), "m.json"))
    assert (pr.repository, pr.number, pr.state.value, pr.source) == ("o/r", 5, "open", "bundle")
    assert pr.files == []
    assert not pr.files_truncated


def test_wrong_format_version_is_explained() -> None:
    with pytest.raises(BundleError, match=r"\$\.format_version: this prdigest reads format_version 1"):
        parse_bundle(json.dumps({**MINIMAL, "format_version": 2}), "v.json")


@given(st.lists(st.one_of(st.integers(min_value=0, max_value=99), st.text(max_size=8)), max_size=6))
def test_json_path_shape(location: list[int | str]) -> None:
    path = json_path(location)
    assert path.startswith("$")
    assert path.count("[") >= sum(isinstance(p, int) for p in location)


def test_json_path_examples() -> None:
    assert json_path(("files", 3, "additions")) == "$.files[3].additions"
    assert json_path(("review_threads", 0, "comments", "nodes", 1, "__typename")) == (
        "$.review_threads[0].comments.nodes[1].__typename"
    )
    assert json_path(("a b",)) == '$["a b"]'


@given(st.text(max_size=300))
def test_co_authors_never_crash(message: str) -> None:
    names = co_authors(message)
    assert len(names) == len(set(names))
    assert all(n and "\n" not in n for n in names)


def test_co_authors_examples() -> None:
    message = "Fix\n\nCo-authored-by: Ann Lee <ann@x.org>\nco-authored-by: Bo <bo@x.org>\nCo-authored-by: Ann Lee <a@y>"
    assert co_authors(message) == ["Ann Lee", "Bo"]


@given(st.text(max_size=200))
def test_next_link_never_crashes(header: str) -> None:
    found = _next_link(header)
    assert found is None or found in header


def test_next_link_examples() -> None:
    header = '<https://api.github.com/x?page=2>; rel="next", <https://api.github.com/x?page=9>; rel="last"'
    assert _next_link(header) == "https://api.github.com/x?page=2"
    assert _next_link('<https://api.github.com/x?page=1>; rel="prev"') is None


@given(st.one_of(st.none(), st.text(max_size=60)), st.sampled_from([None, "base64", "none"]))
def test_decode_content_never_crashes(content: str | None, encoding: str | None) -> None:
    decoded = decode_content(encoding, content)
    assert decoded is None or isinstance(decoded, str)


def test_decode_content_examples() -> None:
    assert decode_content("base64", base64.encodebytes("héllo\n".encode()).decode()) == "héllo\n"
    assert decode_content("base64", base64.b64encode(b"\xff\xfe\x00").decode()) is None
    assert decode_content("none", "") is None


def test_bot_rules() -> None:
    assert is_bot("renovate[bot]", "User")
    assert is_bot("copilot", "Bot")
    assert not is_bot("alice", "User")


def test_credentials_and_urls(tmp_path: Path) -> None:
    assert resolve_credentials(None, {"GITHUB_TOKEN": "t1", "GH_TOKEN": "t2"}).origin == "GITHUB_TOKEN"
    assert resolve_credentials(None, {"GH_TOKEN": "t2", "HOME": str(tmp_path)}).token == "t2"
    assert not resolve_credentials(None, {"HOME": str(tmp_path)}).authenticated
    config = tmp_path / ".config" / "prdigest" / "config.toml"
    config.parent.mkdir(parents=True)
    config.write_text('[github]\ntoken = "from-file"\n', encoding="utf-8")
    found = resolve_credentials(None, {"HOME": str(tmp_path)})
    assert found.token == "from-file"
    assert "from-file" not in repr(found)
    with pytest.raises(ConfigError, match="not found"):
        resolve_credentials(tmp_path / "missing.toml", {})
    broken = tmp_path / "broken.toml"
    broken.write_text('[github]\ntoken = "secret-value', encoding="utf-8")
    with pytest.raises(ConfigError) as info:
        resolve_credentials(broken, {})
    assert "secret-value" not in str(info.value)
    assert graphql_url("https://api.github.com") == "https://api.github.com/graphql"
    assert graphql_url("https://ghe.example.com/api/v3") == "https://ghe.example.com/api/graphql"
    assert resolve_api_url(None, {"PRDIGEST_GITHUB_API_URL": "https://ghe.example.com/api/v3/"}) == (
        "https://ghe.example.com/api/v3"
    )
    with pytest.raises(ConfigError):
        resolve_api_url("ftp://nope", {})


def test_conditional_get_and_immutable_contents(fake: Any, make_client: Callable[..., GitHubClient]) -> None:
    client = make_client()
    first = client.rest_get("repos/acme/widgets/pulls/12/files", {"per_page": 100, "page": 1})
    second = client.rest_get("repos/acme/widgets/pulls/12/files", {"per_page": 100, "page": 1})
    assert first is not None
    assert second is not None
    assert first.data == second.data
    assert [r.status for r in fake.log] == [200, 304]
    ref = {"ref": "1" * 40}
    assert client.rest_get("repos/acme/widgets/contents/src/widgets/core.py", ref) is not None
    assert client.rest_get("repos/acme/widgets/contents/src/widgets/core.py", ref) is not None
    assert len(fake.log) == 3
    assert client.stats.served_from_cache == 1
    assert client.rest_get("repos/acme/widgets/contents/nope.py", ref) is None
