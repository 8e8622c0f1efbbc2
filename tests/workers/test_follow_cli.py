"""`prdigest follow` without a broker: everything in this process, on the embedded SQLite."""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from tests.workers.conftest import REPOSITORY, make_history, prdigest_env, stored_data

from prdigest.cli.follow import format_every, parse_every
from prdigest.cli.main import main
from prdigest.config import load_settings
from prdigest.errors import ConfigError


@pytest.fixture(scope="module")
def history(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_history(tmp_path_factory.mktemp("history") / "repo", 12)


Invoke = Callable[..., tuple[int, str, str]]


@pytest.fixture
def invoke(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Invoke:
    """Run the CLI's entry point (errors become messages and exit codes) in this process."""

    def run(args: list[str], db: str, **extra: str) -> tuple[int, str, str]:
        with monkeypatch.context() as patch:
            for name in list(os.environ):
                if name.startswith(("PRDIGEST_", "GITHUB_", "GH_")):
                    patch.delenv(name)
            for name, value in prdigest_env(db, None, **extra).items():
                patch.setenv(name, value)
            capsys.readouterr()
            try:
                main(args)
                code = 0
            except SystemExit as exc:
                code = int(exc.code or 0)
            out, err = capsys.readouterr()
        return code, out, err

    return run


def test_every_parses_durations() -> None:
    assert parse_every("15m") == 900
    assert parse_every("1h") == 3600
    assert parse_every("2d") == 172800
    assert parse_every("600") == 600
    assert format_every(900) == "15m"
    assert format_every(90) == "90s"
    for bad in ("soon", "10s", "5x", ""):
        with pytest.raises(ConfigError):
            parse_every(bad)


def test_queue_settings_come_from_the_file_and_the_environment(invoke: Invoke, tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text('[queue]\nbroker_url = "redis://127.0.0.1:1/0"\nmax_retries = 2\n', encoding="utf-8")
    settings = load_settings({}, config)
    assert settings.queue is not None
    assert settings.queue.broker_url == "redis://127.0.0.1:1/0"
    assert settings.queue.max_retries == 2
    assert "redis://" not in repr(settings)  # a broker URL may hold a password
    assert load_settings({"PRDIGEST_CONFIG": os.devnull}).queue is None
    env = {"PRDIGEST_BROKER_URL": "redis://h:2/1", "PRDIGEST_QUEUE_VISIBILITY_TIMEOUT": "60"}
    from_env = load_settings(env, config).queue
    assert from_env is not None
    assert (from_env.broker_url, from_env.visibility_timeout) == ("redis://h:2/1", 60)
    config.write_text('[queue]\nbroker = "redis://x"\n', encoding="utf-8")
    with pytest.raises(ConfigError, match="did you mean broker_url"):
        load_settings({}, config)


def test_add_list_run_remove_in_process(invoke: Invoke, tmp_path: Path, history: Path) -> None:
    db = f"sqlite:///{tmp_path / 'db.sqlite'}"
    site = tmp_path / "site"
    code, _out, err = invoke(["follow", "list"], db)
    assert code == 4  # a read command never creates the database
    assert "no database" in err
    code, out, _ = invoke(
        ["follow", "add", REPOSITORY, "--git", str(history), "--every", "1h", "--lang", "en", "--publish", str(site)],
        db,
    )
    assert code == 0, out
    assert f"following {REPOSITORY} from the clone at {history}, every 1h" in out
    code, out, _ = invoke(["follow", "list"], db)
    assert f"{REPOSITORY}\tevery 1h\tgit {history}\tnever run" in out

    code, out, err = invoke(["follow", "run"], db)
    assert code == 0, out + err
    assert f"{REPOSITORY}: ok; 12 PRs new or updated, 12 analyzed, 24 narratives written" in out
    assert (site / "index.html").exists()
    assert (site / "feed.en.md").exists()
    data = stored_data(db)
    assert len(data["facts"]) == 12
    assert len(data["narratives"]) == 24  # 12 PRs x (full, brief) in English

    code, out, _ = invoke(["follow", "run"], db)  # nothing new: nothing to do
    assert f"{REPOSITORY}: ok; 0 PRs new or updated, 0 analyzed, 0 narratives written, 0 report files" in out
    assert stored_data(db) == data
    code, out, _ = invoke(["follow", "list"], db)
    assert "last " in out
    assert " ok" in out

    code, out, _ = invoke(["follow", "remove", REPOSITORY], db)
    assert code == 0
    assert f"no longer following {REPOSITORY}" in out
    code, _out, err = invoke(["follow", "remove", REPOSITORY], db)
    assert code == 5
    assert "is not followed" in err


def test_a_failing_repository_is_reported_and_the_others_go_on(invoke: Invoke, tmp_path: Path, history: Path) -> None:
    db = f"sqlite:///{tmp_path / 'db.sqlite'}"
    doomed = tmp_path / "doomed"
    shutil.copytree(history, doomed)
    assert invoke(["follow", "add", "org/doomed", "--git", str(doomed)], db)[0] == 0
    assert invoke(["follow", "add", REPOSITORY, "--git", str(history), "--lang", "en"], db)[0] == 0
    shutil.rmtree(doomed)
    code, out, err = invoke(["follow", "run"], db)
    assert code == 1
    assert "org/doomed: failed" in out
    assert "error:" in err
    assert f"{REPOSITORY}: ok; 12 PRs new or updated" in out
    code, out, _ = invoke(["follow", "list"], db)
    assert "org/doomed" in out
    assert "failed" in out
    assert "  error: " in out


def test_follow_rejects_bad_input(invoke: Invoke, tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'db.sqlite'}"
    code, _, err = invoke(["follow", "add", "not-a-repo"], db)
    assert code == 2
    assert "expected OWNER/NAME" in err
    code, _, err = invoke(["follow", "add", "a/b", "--git", str(tmp_path), "--github"], db)
    assert code == 2
    code, _, err = invoke(["follow", "add", "a/b", "--git", str(tmp_path)], db)
    assert code == 3  # not a git repository
    code, _, err = invoke(["follow", "run", "--repo", "x/y"], db)
    assert code in (0, 2)


def test_worker_needs_a_broker(invoke: Invoke, tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'db.sqlite'}"
    code, _, err = invoke(["worker"], db)
    assert code == 2
    assert "PRDIGEST_BROKER_URL" in err
    code, _, err = invoke(["queue", "status"], db)
    assert code == 2


def test_an_unreachable_broker_is_one_clear_error(invoke: Invoke, tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'db.sqlite'}"
    code, _, err = invoke(["queue", "status"], db, PRDIGEST_BROKER_URL="redis://127.0.0.1:1/0")
    assert code == 8
    assert "cannot reach the broker" in err
    code, _, err = invoke(["queue", "status"], db, PRDIGEST_BROKER_URL="amqp://127.0.0.1/")
    assert code == 8
    assert "must be Redis" in err


def test_in_process_runs_here_even_with_a_broker(invoke: Invoke, tmp_path: Path, history: Path) -> None:
    db = f"sqlite:///{tmp_path / 'db.sqlite'}"
    assert invoke(["follow", "add", REPOSITORY, "--git", str(history), "--lang", "en"], db)[0] == 0
    code, out, err = invoke(["follow", "run", "--in-process"], db, PRDIGEST_BROKER_URL="redis://127.0.0.1:1/0")
    assert code == 0, err
    assert f"{REPOSITORY}: ok; 12 PRs new or updated, 12 analyzed" in out
