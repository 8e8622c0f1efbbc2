from __future__ import annotations

from pathlib import Path

import pytest

from prdigest.config import load_settings
from prdigest.errors import ConfigError


def test_defaults_have_no_llm_and_public_github(tmp_path: Path) -> None:
    settings = load_settings({"HOME": str(tmp_path)})
    assert settings.llm is None
    assert settings.github.api_url == "https://api.github.com"
    assert settings.github.token is None


def test_file_then_environment_wins_and_secrets_stay_hidden(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text(
        '[github]\ntoken = "file-token"\n'
        '[llm]\nbase_url = "http://127.0.0.1:9/v1"\nmodel = "small"\napi_key = "file-key"\ntoken_budget = 8000\n'
        '[llm.section_models]\ndiscussion = "big"\n',
        encoding="utf-8",
    )
    settings = load_settings({"PRDIGEST_CONFIG": str(config), "PRDIGEST_LLM_MODEL": "env-model"})
    assert settings.github.token == "file-token"
    assert settings.llm is not None
    assert settings.llm.model == "env-model"
    assert settings.llm.token_budget == 8000
    assert dict(settings.llm.section_models) == {"discussion": "big"}
    shown = repr(settings)
    assert "file-token" not in shown
    assert "file-key" not in shown
    assert load_settings({"PRDIGEST_CONFIG": str(config), "GITHUB_TOKEN": "env"}).github.token == "env"


def test_llm_without_model_and_bad_values_are_config_errors(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="no model"):
        load_settings({"HOME": str(tmp_path), "PRDIGEST_LLM_BASE_URL": "http://127.0.0.1:9/v1"})
    env = {"HOME": str(tmp_path), "PRDIGEST_LLM_BASE_URL": "http://x/v1", "PRDIGEST_LLM_MODEL": "m"}
    with pytest.raises(ConfigError, match="token_budget"):
        load_settings({**env, "PRDIGEST_LLM_TOKEN_BUDGET": "lots"})
    broken = tmp_path / "broken.toml"
    broken.write_text('[llm]\napi_key = "sk-secret', encoding="utf-8")
    with pytest.raises(ConfigError) as info:
        load_settings({}, broken)
    assert "sk-secret" not in str(info.value)
    with pytest.raises(ConfigError, match="not found"):
        load_settings({}, tmp_path / "missing.toml")
