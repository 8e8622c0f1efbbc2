"""The CLI as a user runs it: a real process, real SQLite files."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from prdigest.models import PullRequest
from prdigest.store import Store
from prdigest.store.testing import engine_of


def run(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "prdigest", *args],
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {})},
        check=False,
        timeout=120,
    )


def test_version_and_help() -> None:
    version = run("--version")
    assert version.returncode == 0
    assert "prdigest, version" in version.stdout
    helptext = run("--help")
    assert helptext.returncode == 0
    for command in ("list", "show", "analyze", "facts"):
        assert command in helptext.stdout


PROBE = """
import sys
from prdigest.cli.main import main
try:
    main(["--version"])
except SystemExit:
    pass
heavy = [m for m in ("sqlalchemy", "pydantic", "openai", "fastapi", "rich", "tree_sitter", "httpx") if m in sys.modules]
print("HEAVY:" + ",".join(heavy))
"""


def test_version_does_not_import_heavy_packages() -> None:
    probe = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, check=True)
    assert probe.stdout.splitlines() == ["prdigest, version 0.1.0", "HEAVY:"]


def test_list_and_show(tmp_path: Path) -> None:
    db = tmp_path / "p.db"
    with Store.open(f"sqlite:///{db}") as store:
        store.upsert_prs([PullRequest(repository="org/proj", number=n, title=f"PR {n}\nsecond line") for n in (1, 2)])
    listed = run("list", "--db", str(db))
    assert listed.returncode == 0, listed.stderr
    assert "org/proj#2" in listed.stdout
    assert "PR 2 second line" in listed.stdout
    as_json = run("list", "--json", "--repo", "org/proj", "--db", str(db))
    assert as_json.stdout.count("\n") == 2
    assert '"number": 2' in as_json.stdout
    shown = run("show", "org/proj#1", "--db", str(db))
    assert shown.returncode == 0
    assert "org/proj#1" in shown.stdout
    record = run("show", "org/proj#1", "--json", "--db", str(db))
    assert PullRequest.model_validate_json(record.stdout).number == 1


def test_errors_are_one_line_with_nonzero_exit(tmp_path: Path) -> None:
    db = tmp_path / "p.db"
    Store.open(f"sqlite:///{db}").close()
    unknown = run("show", "org/proj#99", "--db", str(db))
    assert unknown.returncode == 5
    assert unknown.stderr.strip() == "error: no pull request org/proj#99 in the database"
    bad_ref = run("show", "not-a-ref", "--db", str(db))
    assert bad_ref.returncode == 2
    assert bad_ref.stderr.count("\n") == 1
    bad_date = run("list", "--since", "yesterday", "--db", str(db))
    assert bad_date.returncode == 2
    assert "--since" in bad_date.stderr


def test_newer_schema_is_refused_by_every_command(tmp_path: Path) -> None:
    db = tmp_path / "p.db"
    with Store.open(f"sqlite:///{db}") as store, engine_of(store).begin() as connection:
        from sqlalchemy import text

        connection.execute(text("UPDATE alembic_version SET version_num = 'ffff'"))
    result = run("list", "--db", str(db))
    assert result.returncode == 4
    assert "newer than this prdigest knows" in result.stderr
    assert result.stderr.count("\n") == 1


def test_database_path_from_environment(tmp_path: Path) -> None:
    db = tmp_path / "env.db"
    missing = run("list", env={"PRDIGEST_DB": str(db)})
    assert missing.returncode == 4  # read commands never create a database
    assert missing.stderr.strip().startswith(f"error: no database at {db}")
    assert not db.exists()
    Store.open(f"sqlite:///{db}").close()
    assert run("list", env={"PRDIGEST_DB": str(db)}).returncode == 0


PLUGIN = """
import os
from pathlib import Path

Path(os.environ["PLUGIN_MARKER"]).write_text("loaded")


def new_schema_validator(*args, **kwargs):
    return None, None, None
"""


def test_pydantic_plugins_are_not_looked_for_unless_asked(tmp_path: Path) -> None:
    """Looking for plugins reads every installed distribution's entry points at the first
    model built; prdigest has none, so a command skips that, and an explicit setting wins."""
    site = tmp_path / "site"
    (site / "probe_plugin").mkdir(parents=True)
    (site / "probe_plugin" / "__init__.py").write_text(PLUGIN)
    info = site / "probe_plugin-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: probe-plugin\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[pydantic]\nprobe = probe_plugin\n")
    db = tmp_path / "p.db"
    with Store.open(f"sqlite:///{db}") as store:
        store.upsert_prs([PullRequest(repository="org/proj", number=1, title="one")])
    marker = tmp_path / "marker"
    base = {k: v for k, v in os.environ.items() if k != "PYDANTIC_DISABLE_PLUGINS"}
    base.update(PYTHONPATH=os.pathsep.join([str(site), os.environ.get("PYTHONPATH", "")]), PLUGIN_MARKER=str(marker))

    def show(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "prdigest", "show", "org/proj#1", "--json", "--db", str(db)],
            capture_output=True,
            text=True,
            env=env,
            check=False,
            timeout=120,
        )

    skipped = show(base)
    assert skipped.returncode == 0, skipped.stderr
    assert not marker.exists()
    asked = show({**base, "PYDANTIC_DISABLE_PLUGINS": ""})
    assert asked.returncode == 0, asked.stderr
    assert marker.read_text() == "loaded"
