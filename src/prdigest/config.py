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

    [digest]                                # delivery of watch digests (`prdigest digest NAME --send`)
    site_url = "http://127.0.0.1:8000"      # or PRDIGEST_DIGEST_SITE_URL: where report links point (`prdigest serve`)
    smtp_host = "smtp.example.com"          # or PRDIGEST_SMTP_HOST; unset = no e-mail
    smtp_port = 587                         # or PRDIGEST_SMTP_PORT
    smtp_starttls = true                    # upgrade the connection with STARTTLS before logging in
    email_from = "prdigest@example.com"
    email_to = ["me@example.com"]           # or PRDIGEST_DIGEST_EMAIL_TO (comma-separated)
    webhook_url = "https://hooks.slack.com/services/..."  # or PRDIGEST_DIGEST_WEBHOOK_URL; unset = none
    retries = 3                             # tries after the first before a delivery is reported failed
    retry_delay = 2                         # s before the first retry, doubling each time
    timeout = 30                            # s per connection

The SMTP user and password come only from the environment (PRDIGEST_SMTP_USER,
PRDIGEST_SMTP_PASSWORD), never from the file.
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
    "": frozenset({"github", "llm", "queue", "digest"}),
    "digest": frozenset(
        {
            "site_url",
            "smtp_host",
            "smtp_port",
            "smtp_starttls",
            "email_from",
            "email_to",
            "webhook_url",
            "retries",
            "retry_delay",
            "timeout",
        }
    ),
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


DEFAULT_SITE_URL = "http://127.0.0.1:8000"
# Keys someone may try to put in [digest]: credentials are read from the environment only.
_DIGEST_SECRETS = {"smtp_user": "PRDIGEST_SMTP_USER", "smtp_password": "PRDIGEST_SMTP_PASSWORD"}


@dataclass(frozen=True)
class DigestConfig:
    """How watch digests are delivered. The password and the webhook URL (whose path is its
    token) are hidden from ``repr`` and never printed."""

    site_url: str = DEFAULT_SITE_URL
    smtp_host: str | None = None
    smtp_port: int = 587
    smtp_starttls: bool = True
    smtp_user: str | None = None
    smtp_password: str | None = field(default=None, repr=False)
    email_from: str | None = None
    email_to: tuple[str, ...] = ()
    webhook_url: str | None = field(default=None, repr=False)
    retries: int = 3
    retry_delay: float = 2.0
    timeout: float = 30.0

    @property
    def sends_email(self) -> bool:
        return bool(self.smtp_host and self.email_to)


@dataclass(frozen=True)
class Settings:
    github: GitHubConfig = field(default_factory=GitHubConfig)
    llm: LLMConfig | None = None  # None: the extractive narrator only
    config_path: Path | None = None
    queue: QueueConfig | None = None  # None: no broker, `follow run` works in-process
    digest: DigestConfig = field(default_factory=DigestConfig)


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
            if table == "digest" and key in _DIGEST_SECRETS:
                at = _line_of(text, table, str(key))
                where = f", line {at}" if at is not None else ""
                raise ConfigError(
                    f"{path}{where}: [digest] {key} is not read from the config file; "
                    f"set {_DIGEST_SECRETS[str(key)]} in the environment"
                )
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
    return Settings(
        github=github_config,
        llm=llm_config,
        config_path=path if data else None,
        queue=queue_config,
        digest=_digest_config(_table(data, "digest", path), path, env),
    )


def _digest_config(table: Mapping[str, Any], path: Path, env: Mapping[str, str]) -> DigestConfig:
    recipients = env.get("PRDIGEST_DIGEST_EMAIL_TO")
    email_to: list[str]
    if recipients is not None:
        email_to = [part.strip() for part in recipients.split(",") if part.strip()]
    else:
        raw = table.get("email_to", [])
        if isinstance(raw, str):
            raw = [part.strip() for part in raw.split(",") if part.strip()]
        if not isinstance(raw, list) or not all(isinstance(item, str) for item in raw):
            raise ConfigError(f"{path}: [digest] email_to must be a list of addresses")
        email_to = list(raw)
    starttls = table.get("smtp_starttls", True)
    if not isinstance(starttls, bool):
        raise ConfigError(f"{path}: [digest] smtp_starttls must be true or false")
    delay_raw: object = env.get("PRDIGEST_DIGEST_RETRY_DELAY", table.get("retry_delay", 2))
    try:
        retry_delay = float(str(delay_raw))
    except ValueError as exc:
        raise ConfigError(f"retry_delay must be a number of seconds, got {delay_raw!r}") from exc
    if not retry_delay >= 0:
        raise ConfigError(f"retry_delay must be at least 0, got {delay_raw!r}")
    return DigestConfig(
        site_url=(env.get("PRDIGEST_DIGEST_SITE_URL") or _str(table, "site_url", path) or DEFAULT_SITE_URL).rstrip("/"),
        smtp_host=env.get("PRDIGEST_SMTP_HOST") or _str(table, "smtp_host", path),
        smtp_port=_int(table, "smtp_port", path, 587, env.get("PRDIGEST_SMTP_PORT")),
        smtp_starttls=starttls,
        smtp_user=env.get("PRDIGEST_SMTP_USER") or None,
        smtp_password=env.get("PRDIGEST_SMTP_PASSWORD") or None,
        email_from=env.get("PRDIGEST_DIGEST_EMAIL_FROM") or _str(table, "email_from", path),
        email_to=tuple(email_to),
        webhook_url=env.get("PRDIGEST_DIGEST_WEBHOOK_URL") or _str(table, "webhook_url", path),
        retries=_int(table, "retries", path, 3, env.get("PRDIGEST_DIGEST_RETRIES"), minimum=0),
        retry_delay=retry_delay,
        timeout=float(_int(table, "timeout", path, 30, env.get("PRDIGEST_DIGEST_TIMEOUT"))),
    )


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
