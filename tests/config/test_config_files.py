"""Hostile config files: each is one line naming the file and the problem, exit 2."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from prdigest.config import KNOWN_KEYS, load_settings
from prdigest.errors import ConfigError


def _write(tmp_path: Path, content: bytes) -> Path:
    path = tmp_path / "config.toml"
    path.write_bytes(content)
    return path


def test_a_file_that_is_not_utf8_is_named(tmp_path: Path) -> None:
    path = _write(tmp_path, b'[llm]\nmodel = "caf\xe9"\n')
    said = r"line 2: the config file is not UTF-8 text \(bad byte at offset 18\)"
    with pytest.raises(ConfigError, match=said) as info:
        load_settings({"PRDIGEST_CONFIG": str(path)})
    assert str(path) in str(info.value)


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ('[llm]\nbasse_url = "http://x/v1"\n', "line 2: unknown key [llm] basse_url; did you mean base_url?"),
        ('[github]\ntoken = "t"\n\n[llm]\n"model" = "m"\ntokn = "t"\n', "line 6: unknown key [llm] tokn; known keys"),
        ('[github]\ntokn = "t"\n', "line 2: unknown key [github] tokn; did you mean token?"),
        ('[llm]\nmodel = "m"\n[lmm]\nmodel = "m"\n', "line 3: unknown key lmm; did you mean llm?"),
        ("[llm]\nzzz = 1\n", "line 2: unknown key [llm] zzz; known keys: api_key, base_url, concurrency,"),
    ],
)
def test_unknown_keys_name_the_closest_known_one(tmp_path: Path, content: str, expected: str) -> None:
    path = _write(tmp_path, content.encode())
    with pytest.raises(ConfigError) as info:
        load_settings({"PRDIGEST_CONFIG": str(path)})
    assert str(info.value).startswith(f"{path}, {expected}")


def test_every_documented_key_is_accepted(tmp_path: Path) -> None:
    path = _write(
        tmp_path,
        b'[github]\ntoken = "t"\napi_url = "https://ghe.example/api/v3"\n'
        b'[llm]\nbase_url = "http://x/v1"\nmodel = "m"\napi_key = "k"\ntoken_budget = 9\ntimeout = 5\n'
        b'concurrency = 2\nmax_output_tokens = 100\n[llm.section_models]\nrisks = "big"\n',
    )
    settings_ = load_settings({"PRDIGEST_CONFIG": str(path)})
    assert settings_.llm is not None
    assert settings_.llm.max_output_tokens == 100


def test_prdigest_config_naming_a_missing_file_is_an_error(tmp_path: Path) -> None:
    missing = tmp_path / "nope.toml"
    with pytest.raises(ConfigError, match=r"config file not found: .*nope.toml \(from \$PRDIGEST_CONFIG\)"):
        load_settings({"PRDIGEST_CONFIG": str(missing)})
    # The default location may be absent: then the defaults apply.
    assert load_settings({"HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path / "x")}).llm is None


def _run(config: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PRDIGEST_", "GITHUB_", "GH_", "OPENAI_"))}
    return subprocess.run(
        [sys.executable, "-m", "prdigest", *args],
        capture_output=True,
        text=True,
        env={**env, "PRDIGEST_CONFIG": str(config)},
        check=False,
        timeout=120,
    )


@pytest.mark.parametrize(
    ("content", "word"),
    [(b"\xff\xfe[llm]", "UTF-8"), (b'[llm]\nbasse_url = "x"\n', "base_url"), (b"[llm\n", "TOML"), (None, "not found")],
)
def test_the_cli_says_one_line_and_exits_2(tmp_path: Path, content: bytes | None, word: str) -> None:
    config = tmp_path / "config.toml"
    if content is not None:
        config.write_bytes(content)
    completed = _run(config, "feed", "o/r", "--db", str(tmp_path / "x.db"))
    assert completed.returncode == 2, completed.stderr
    lines = completed.stderr.strip().splitlines()
    assert len(lines) == 1, completed.stderr
    assert lines[0].startswith("error: ")
    assert word in lines[0]
    assert str(config) in lines[0]


def _outcome(path: Path) -> str:
    """The error message ("" when the settings load): it must be one line."""
    try:
        load_settings({"PRDIGEST_CONFIG": str(path)})
    except ConfigError as exc:
        return str(exc)
    return ""


KEYS = st.sampled_from(sorted(KNOWN_KEYS["llm"] | KNOWN_KEYS["github"] | {"llm", "github", "x", "base"}))
VALUES = st.none() | st.booleans() | st.integers() | st.text(max_size=8) | st.floats(allow_nan=False)


@settings(max_examples=150, deadline=None)
@given(content=st.binary(max_size=200) | st.text(max_size=200).map(str.encode))
def test_any_bytes_give_settings_or_a_config_error(tmp_path_factory: pytest.TempPathFactory, content: bytes) -> None:
    path = tmp_path_factory.mktemp("c") / "config.toml"
    path.write_bytes(content)
    assert "\n" not in _outcome(path)


@settings(max_examples=150, deadline=None)
@given(tables=st.dictionaries(st.sampled_from(["llm", "github", "lm"]), st.dictionaries(KEYS, VALUES, max_size=4)))
def test_any_tables_give_settings_or_a_config_error(
    tmp_path_factory: pytest.TempPathFactory, tables: dict[str, dict[str, object]]
) -> None:
    lines = []
    for table, values in tables.items():
        lines.append(f"[{table}]")
        for key, value in values.items():
            if value is None:
                continue
            shown = str(value).lower() if isinstance(value, bool) else repr(value).replace("'", '"')
            lines.append(f"{key} = {shown}")
    path = tmp_path_factory.mktemp("c") / "config.toml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert "\n" not in _outcome(path)


def test_group_calls_may_be_zero_but_not_negative(tmp_path: Path) -> None:
    path = tmp_path / "c.toml"
    path.write_text('[llm]\nbase_url = "http://127.0.0.1:9/v1"\nmodel = "m"\ngroup_calls = 2\n', encoding="utf-8")
    settings_ = load_settings({"PRDIGEST_CONFIG": str(path)})
    assert settings_.llm is not None
    assert settings_.llm.group_calls == 2
    off = load_settings({"PRDIGEST_CONFIG": str(path), "PRDIGEST_LLM_GROUP_CALLS": "0"}).llm
    assert off is not None
    assert off.group_calls == 0
    with pytest.raises(ConfigError, match="group_calls must be at least 0"):
        load_settings({"PRDIGEST_CONFIG": str(path), "PRDIGEST_LLM_GROUP_CALLS": "-1"})
