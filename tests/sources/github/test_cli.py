"""The commands: `prdigest sync github` and `prdigest import`, run in-process against the fake GitHub."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from prdigest.cli.main import main
from prdigest.store import Store

TOKEN = "ghp_TESTTOKEN0123456789abcdefSECRET"


@pytest.fixture(autouse=True)
def _isolated_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for name in ("GITHUB_TOKEN", "GH_TOKEN", "PRDIGEST_GITHUB_API_URL", "PRDIGEST_DB"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "home" / ".config"))


def run(argv: list[str]) -> int:
    try:
        main(argv)
    except SystemExit as exc:
        return int(exc.code or 0)
    return 0


def _records(db: Path) -> list[dict[str, Any]]:
    with Store.open(f"sqlite:///{db}") as store:
        return sorted((pr.model_dump(mode="json") for pr in store.iter_prs()), key=lambda r: int(r["number"]))


def test_sync_save_raw_then_import_gives_the_same_records(
    fake: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("GITHUB_TOKEN", TOKEN)
    raw = tmp_path / "raw"
    first, second = tmp_path / "one.db", tmp_path / "two.db"
    code = run(["sync", "github", "acme/widgets", "--api-url", fake.url, "--save-raw", str(raw), "--db", str(first)])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "synced 3 PRs" in out
    assert "10 requests (3 contents, 3 files, 4 graphql)" in out
    names = sorted(p.name for p in raw.iterdir())
    assert names == ["acme__widgets__10.json", "acme__widgets__11.json", "acme__widgets__12.json"]

    assert run(["import", *(str(raw / n) for n in names), "--db", str(second)]) == 0
    assert "3 new" in capsys.readouterr().out
    assert _records(first) == _records(second)
    # The token appears nowhere: not in the output, the bundles, nor the database files.
    assert TOKEN not in out + err
    for path in [*raw.iterdir(), first, second]:
        assert TOKEN.encode() not in path.read_bytes()


def test_resync_reports_one_request(
    fake: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("GH_TOKEN", TOKEN)
    db = str(tmp_path / "p.db")
    assert run(["sync", "github", "acme/widgets", "--api-url", fake.url, "--db", db, "--no-contents"]) == 0
    assert fake.count("GET /repos/acme/widgets/contents/") == 0
    capsys.readouterr()
    fake.reset_log()
    assert run(["sync", "github", "acme/widgets", "--api-url", fake.url, "--db", db]) == 0
    assert "1 request (1 graphql)" in capsys.readouterr().out
    assert len(fake.log) == 1


def test_unauthenticated_mode_says_so_once(
    fake: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("PRDIGEST_GITHUB_API_URL", fake.url)
    assert run(["sync", "github", "acme/widgets", "--db", str(tmp_path / "p.db")]) == 0
    err = capsys.readouterr().err
    notices = [line for line in err.splitlines() if "unauthenticated" in line]
    assert len(notices) == 1
    assert "60 requests per hour" in notices[0]
    assert fake.count("POST /graphql") == 0
    assert fake.count("GET /repos/acme/widgets/pulls") >= 1


def test_config_file_token_is_used_and_never_printed(
    fake: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "prdigest.toml"
    config.write_text(f'[github]\ntoken = "{TOKEN}"\n', encoding="utf-8")
    db = str(tmp_path / "p.db")
    assert run(["sync", "github", "acme/widgets", "--api-url", fake.url, "--config", str(config), "--db", db]) == 0
    assert fake.log[0].authorization == f"Bearer {TOKEN}"
    assert "unauthenticated" not in capsys.readouterr().err


def test_bad_credentials_error_does_not_leak_the_token(
    fake: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    wrong = "ghp_WRONGTOKEN_also_secret_987654321"
    monkeypatch.setenv("GITHUB_TOKEN", wrong)
    code = run(["sync", "github", "acme/widgets", "--api-url", fake.url, "--db", str(tmp_path / "p.db")])
    out, err = capsys.readouterr()
    assert code == 3
    assert "401" in err
    assert wrong not in out + err


def test_max_wait_exceeded_exits_non_zero_and_keeps_records(
    fake: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import time

    monkeypatch.setenv("GITHUB_TOKEN", TOKEN)
    for _ in range(4):  # page 1 and its three follow-ups go through
        fake.add_fault("POST /graphql", None)
    fake.add_fault(
        "POST /graphql",
        403,
        headers={"x-ratelimit-remaining": "0", "x-ratelimit-reset": str(int(time.time()) + 3000)},
        body={"message": "API rate limit exceeded"},
    )
    db = tmp_path / "p.db"
    argv = ["sync", "github", "acme/widgets", "--api-url", fake.url, "--db", str(db), "--page-size", "2"]
    code = run([*argv, "--max-wait", "30"])
    out, err = capsys.readouterr()
    assert code == 3
    assert "--max-wait" in err
    assert "stopped early; kept 2 PRs" in err
    assert TOKEN not in out + err
    assert sorted(r["number"] for r in _records(db)) == [11, 12]
    assert run(argv) == 0
    assert sorted(r["number"] for r in _records(db)) == [10, 11, 12]


def test_import_rejects_malformed_bundles_and_changes_nothing(
    fake: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("GITHUB_TOKEN", TOKEN)
    raw, db = tmp_path / "raw", tmp_path / "p.db"
    assert run(["sync", "github", "acme/widgets", "--api-url", fake.url, "--save-raw", str(raw), "--db", str(db)]) == 0
    before = _records(db)
    good = raw / "acme__widgets__12.json"
    document = json.loads(good.read_text(encoding="utf-8"))

    changed = json.loads(json.dumps(document))
    changed["pull"]["title"] = "A new title that must not be stored"
    retitled = tmp_path / "retitled.json"
    retitled.write_text(json.dumps(changed), encoding="utf-8")
    wrong_type = json.loads(json.dumps(document))
    wrong_type["files"][1]["additions"] = "many"
    bad_type = tmp_path / "bad_type.json"
    bad_type.write_text(json.dumps(wrong_type), encoding="utf-8")
    missing = json.loads(json.dumps(document))
    del missing["pull"]["number"]
    bad_missing = tmp_path / "missing.json"
    bad_missing.write_text(json.dumps(missing), encoding="utf-8")
    bad_json = tmp_path / "broken.json"
    bad_json.write_text('{"format_version": 1, "pull": {', encoding="utf-8")
    capsys.readouterr()

    code = run(["import", str(retitled), str(bad_type), str(bad_missing), str(bad_json), "--db", str(db)])
    err = capsys.readouterr().err
    assert code == 3
    assert f"{bad_type}: $.files[1].additions: Input should be a valid integer (got string)" in err
    assert f"{bad_missing}: $.pull.number: required key is missing" in err
    assert f"{bad_json}: $: not valid JSON" in err
    assert "line 1" in err
    assert str(retitled) not in err
    assert _records(db) == before
