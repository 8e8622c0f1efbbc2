"""Where the GitHub token and API come from: environment, config file, or options.

The token is kept in a `Credentials` object whose ``repr`` hides it, so it cannot leak
through logging or tracebacks of objects that hold it.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from prdigest.config import load_settings
from prdigest.errors import ConfigError

DEFAULT_API_URL = "https://api.github.com"
API_URL_ENV_VAR = "PRDIGEST_GITHUB_API_URL"
TOKEN_ENV_VARS = ("GITHUB_TOKEN", "GH_TOKEN")


@dataclass(frozen=True)
class Credentials:
    token: str | None = field(default=None, repr=False)
    origin: str = "none"  # where the token came from, safe to print

    @property
    def authenticated(self) -> bool:
        return bool(self.token)


def resolve_credentials(config_path: Path | None, environ: Mapping[str, str] | None = None) -> Credentials:
    """Token from GITHUB_TOKEN, GH_TOKEN, then ``[github] token`` of the config file."""
    env = os.environ if environ is None else environ
    for name in TOKEN_ENV_VARS:
        value = env.get(name, "").strip()
        if value:
            return Credentials(value, name)
    settings = load_settings(env, config_path)
    token = (settings.github.token or "").strip()
    if not token:
        return Credentials()
    return Credentials(token, str(settings.config_path or "config file"))


def resolve_api_url(option: str | None, environ: Mapping[str, str] | None = None) -> str:
    env = os.environ if environ is None else environ
    value = (option or env.get(API_URL_ENV_VAR) or DEFAULT_API_URL).strip().rstrip("/")
    if not value.startswith(("http://", "https://")):
        raise ConfigError(f"the GitHub API URL must start with http:// or https://, got {value!r}")
    return value


def graphql_url(api_url: str) -> str:
    """``{base}/graphql`` for github.com and plain servers; ``{host}/api/graphql`` for Enterprise."""
    base = api_url.rstrip("/")
    if base.endswith("/api/v3"):
        return base[: -len("/v3")] + "/graphql"
    return base + "/graphql"
