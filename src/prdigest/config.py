"""Configuration: read once at the edge (CLI / web) and passed in explicitly.

Sources, later ones winning: built-in defaults, the config file
(``$PRDIGEST_CONFIG`` or ``~/.config/prdigest/config.toml``), environment variables.
A missing default file is fine (defaults apply); a file named by ``$PRDIGEST_CONFIG`` must
exist. Unknown keys are errors naming the closest known key, so a typo (``basse_url``) does
not silently switch the LLM off. Secrets (GitHub token, LLM API key) come only from the
environment or the config file and are never printed: `LLMConfig` and `GitHubConfig` hide them from ``repr``.

Config file shape::

    [github]
    token = "..."            # or GITHUB_TOKEN / GH_TOKEN
    api_url = "https://api.github.com"

    [llm]
    base_url = "http://127.0.0.1:8000/v1"   # or PRDIGEST_LLM_BASE_URL; unset = extractive only
    model = "qwen2.5-7b-instruct"           # or PRDIGEST_LLM_MODEL
    api_key = "..."                         # or PRDIGEST_LLM_API_KEY / OPENAI_API_KEY
    token_budget = 16000                    # prompt budget per PR, in tokens (honoured exactly)
    timeout = 120                           # seconds per call
    concurrency = 4                         # PRs narrated at once
    retry_after = 600                       # seconds before a failed narration is tried again (doubling)
    group_calls = 4                         # at most this many file-group summaries per large PR; 0: none
    [llm.section_models]                    # optional: a model per section
    discussion = "bigger-model"

    [queue]
    broker_url = "redis://127.0.0.1:6379/0" # or PRDIGEST_BROKER_URL; unset = everything in-process
    visibility_timeout = 3600               # s before the task of a lost worker is delivered again
    max_retries = 5                         # tries after the first before failed work is parked
    retry_delay = 10                        # s before the first retry, doubling each time
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from prdigest.errors import ConfigError

CONFIG_ENV_VAR = "PRDIGEST_CONFIG"
# The keys each table may hold; anything else is a typo to report, not to ignore.
KNOWN_KEYS: dict[str, frozenset[str]] = {
    "": frozenset({"github", "llm", "queue"}),
    "queue": frozenset({"broker_url", "visibility_timeout", "max_retries", "retry_delay"}),
    "github": frozenset({"token", "api_url"}),
    "llm": frozenset(
        {
            "base_url",
            "model",
            "api_key",
            "token_budget",
            "timeout",
            "concurrency",
            "max_output_tokens",
            "section_models",
            "retry_after",
            "group_calls",
        }
    ),
}


@dataclass(frozen=True)
class GitHubConfig:
    token: str | None = field(default=None, repr=False)
    api_url: str = "https://api.github.com"


@dataclass(frozen=True)
class LLMConfig:
    base_url: str
    model: str
    api_key: str | None = field(default=None, repr=False)
    token_budget: int = 16000
    timeout: float = 120.0
    concurrency: int = 4
    max_output_tokens: int = 2000
    section_models: Mapping[str, str] = field(default_factory=dict)
    # Seconds before a narration that fell back is tried again; doubles with each failure.
    retry_after: float = 600.0
    # A PR whose diff still does not fit the budget after compression: at most this many
    # calls summarize groups of the files left out before the main call (0: never).
    group_calls: int = 4


@dataclass(frozen=True)
class QueueConfig:
    broker_url: str = field(repr=False)  # may hold a password
    visibility_timeout: int = 3600
    max_retries: int = 5
    retry_delay: int = 10


@dataclass(frozen=True)
class Settings:
    github: GitHubConfig = field(default_factory=GitHubConfig)
    llm: LLMConfig | None = None  # None: the extractive narrator only
    config_path: Path | None = None
    queue: QueueConfig | None = None  # None: no broker, `follow run` works in-process


def default_config_path(environ: Mapping[str, str]) -> Path:
    explicit = environ.get(CONFIG_ENV_VAR)
    if explicit:
        return Path(explicit).expanduser()
    base = environ.get("XDG_CONFIG_HOME") or str(Path(environ.get("HOME") or Path.home()) / ".config")
    return Path(base).expanduser() / "prdigest" / "config.toml"


def read_config_file(path: Path) -> dict[str, Any]:
    """The parsed file ({} when it does not exist); ConfigError names the file and the problem."""
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return {}
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read the config file: {exc.strerror or type(exc).__name__}") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise ConfigError(
            f"{path}, line {line}: the config file is not UTF-8 text (bad byte at offset {exc.start})"
        ) from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: not valid TOML: {exc}") from None
    check_known_keys(data, path, text)
    return data


def check_known_keys(data: Mapping[str, Any], path: Path, text: str = "") -> None:
    """Raise ConfigError for the first unknown key, naming its line and the closest known one."""
    for table, known in KNOWN_KEYS.items():
        values = data if not table else data.get(table)
        if not isinstance(values, Mapping):
            continue  # a non-table is reported by _table with its own message
        for key in values:
            if key not in known:
                raise ConfigError(_unknown_key_message(path, table, str(key), known, _line_of(text, table, str(key))))


def _line_of(text: str, table: str, key: str) -> int | None:
    """The line where `key` is set in `table` (a key or a table header of that name)."""
    current = ""
    for number, raw_line in enumerate(text.splitlines(), start=1):
        line = raw_line.strip()
        if line.startswith("["):
            header = line.strip("[] \t").split("#", 1)[0].strip()
            if not table and header.split(".", 1)[0].strip().strip("\"'") == key:
                return number
            current = header
            continue
        name = line.split("=", 1)[0].strip().strip("\"'") if "=" in line else None
        if name == key and current == table:
            return number
    return None


def _unknown_key_message(path: Path, table: str, key: str, known: frozenset[str], line: int | None) -> str:
    import difflib  # only for this message: every command reads the config at start

    where = f"[{table}] " if table else ""
    close = difflib.get_close_matches(key, sorted(known), n=1, cutoff=0.6)
    hint = f"did you mean {close[0]}?" if close else f"known keys: {', '.join(sorted(known))}"
    at = f", line {line}" if line is not None else ""
    return f"{path}{at}: unknown key {where}{key}; {hint}"


def load_settings(environ: Mapping[str, str] | None = None, config_path: Path | None = None) -> Settings:
    env = os.environ if environ is None else environ
    path = config_path or default_config_path(env)
    # A file the user named (argument or $PRDIGEST_CONFIG) must exist; the default may not.
    named = config_path is not None or bool(env.get(CONFIG_ENV_VAR))
    if named and not path.exists():
        via = "" if config_path is not None else f" (from ${CONFIG_ENV_VAR})"
        raise ConfigError(f"config file not found: {path}{via}")
    data = read_config_file(path)
    github = _table(data, "github", path)
    llm = _table(data, "llm", path)
    github_config = GitHubConfig(
        token=env.get("GITHUB_TOKEN") or env.get("GH_TOKEN") or _str(github, "token", path),
        api_url=(env.get("PRDIGEST_GITHUB_API_URL") or _str(github, "api_url", path) or "https://api.github.com"),
    )
    base_url = env.get("PRDIGEST_LLM_BASE_URL") or _str(llm, "base_url", path)
    llm_config: LLMConfig | None = None
    if base_url:
        model = env.get("PRDIGEST_LLM_MODEL") or _str(llm, "model", path)
        if not model:
            raise ConfigError("an LLM base_url is configured but no model: set PRDIGEST_LLM_MODEL or [llm] model")
        llm_config = LLMConfig(
            base_url=base_url,
            model=model,
            api_key=env.get("PRDIGEST_LLM_API_KEY") or env.get("OPENAI_API_KEY") or _str(llm, "api_key", path),
            token_budget=_int(llm, "token_budget", path, 16000, env.get("PRDIGEST_LLM_TOKEN_BUDGET")),
            timeout=float(_int(llm, "timeout", path, 120, env.get("PRDIGEST_LLM_TIMEOUT"))),
            concurrency=_int(llm, "concurrency", path, 4, env.get("PRDIGEST_LLM_CONCURRENCY")),
            max_output_tokens=_int(llm, "max_output_tokens", path, 2000, None),
            section_models={str(k): str(v) for k, v in _table(llm, "section_models", path).items()},
            retry_after=float(_int(llm, "retry_after", path, 600, env.get("PRDIGEST_LLM_RETRY_AFTER"))),
            group_calls=_int(llm, "group_calls", path, 4, env.get("PRDIGEST_LLM_GROUP_CALLS"), minimum=0),
        )
    queue = _table(data, "queue", path)
    broker_url = env.get("PRDIGEST_BROKER_URL") or _str(queue, "broker_url", path)
    queue_config: QueueConfig | None = None
    if broker_url:
        queue_config = QueueConfig(
            broker_url=broker_url,
            visibility_timeout=_int(
                queue, "visibility_timeout", path, 3600, env.get("PRDIGEST_QUEUE_VISIBILITY_TIMEOUT")
            ),
            max_retries=_int(queue, "max_retries", path, 5, env.get("PRDIGEST_QUEUE_MAX_RETRIES")),
            retry_delay=_int(queue, "retry_delay", path, 10, env.get("PRDIGEST_QUEUE_RETRY_DELAY")),
        )
    return Settings(github=github_config, llm=llm_config, config_path=path if data else None, queue=queue_config)


def _table(data: Mapping[str, Any], key: str, path: Path) -> dict[str, Any]:
    value = data.get(key, {})
    if not isinstance(value, dict):
        raise ConfigError(f"{path}: [{key}] must be a table")
    return value


def _str(table: Mapping[str, Any], key: str, path: Path) -> str | None:
    value = table.get(key)
    if value is None:
        return None
    if not isinstance(value, str):
        raise ConfigError(f"{path}: {key} must be a string")
    return value


def _int(
    table: Mapping[str, Any], key: str, path: Path, default: int, env_value: str | None, *, minimum: int = 1
) -> int:
    raw: object = env_value if env_value is not None else table.get(key, default)
    try:
        value = int(str(raw))
    except ValueError as exc:
        raise ConfigError(f"{key} must be a whole number, got {raw!r}") from exc
    if value < minimum:
        raise ConfigError(f"{key} must be {'positive' if minimum == 1 else f'at least {minimum}'}, got {value}")
    return value
