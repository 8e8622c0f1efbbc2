"""A 40-file feature PR for the LLM's golden-answer tests: ``acme/plugins`` gains a plugin
registry (#2): the registry itself, 30 built-in plugins of real code, 8 test files and a
page of docs, so that even compressed its diff does not fit a small prompt budget and the
narrator summarizes file groups before the synthesis."""

from __future__ import annotations

from pathlib import Path

from tests.helpers.gitrepo import GitRepoBuilder

FEATURE_REPO = "acme/plugins"
FEATURE40_PR = 2
REGISTRY_PATH = "plugins/registry.py"
PLUGINS = 30
TESTS = 8

_REGISTRY = '''\
"""Plugins register themselves by name; the engine looks them up when a job names one."""

from collections.abc import Callable

Handler = Callable[[dict], dict]
_PLUGINS: dict[str, Handler] = {}


def register(name: str) -> Callable[[Handler], Handler]:
    def wrap(handler: Handler) -> Handler:
        if name in _PLUGINS:
            raise ValueError(f"plugin {name!r} is registered twice")
        _PLUGINS[name] = handler
        return handler

    return wrap


def lookup(name: str) -> Handler:
    try:
        return _PLUGINS[name]
    except KeyError:
        raise LookupError(f"no plugin named {name!r}; known: {sorted(_PLUGINS)}") from None
'''


def _plugin(i: int) -> str:
    lines = [
        f'"""Built-in plugin {i}: normalizes field_{i} of a job."""',
        "",
        "from plugins.registry import register",
        "",
        "",
        f'@register("builtin-{i}")',
        f"def handle_{i}(job: dict) -> dict:",
        f"    value = job.get('field_{i}')",
        "    if value is None:",
        "        return job",
    ]
    for step in range(14):
        lines.append(f"    value = str(value).strip().replace('step{step}-{i}', 'norm{step}-{i}')")
    lines += [f"    job['field_{i}'] = value", "    return job", ""]
    return "\n".join(lines)


def _test(i: int) -> str:
    return "\n".join(
        [
            f"from plugins.builtin.p_{i:02} import handle_{i}",
            "",
            "",
            f"def test_handle_{i}_strips() -> None:",
            f"    assert handle_{i}({{'field_{i}': ' x '}})['field_{i}'] == 'x'",
            "",
        ]
    )


def build_feature_repo(path: Path) -> GitRepoBuilder:
    repo = GitRepoBuilder(path)
    repo.commit({"README.md": "# plugins\n", "plugins/__init__.py": ""}, "Initial commit")
    repo.squash_pr(1, "Add the engine skeleton", {"plugins/engine.py": "def run(job: dict) -> dict:\n    return job\n"})
    files: dict[str, str | bytes | None] = {REGISTRY_PATH: _REGISTRY, "plugins/builtin/__init__.py": ""}
    files.update({f"plugins/builtin/p_{i:02}.py": _plugin(i) for i in range(PLUGINS - 1)})
    files.update({f"tests/plugins/test_p_{i:02}.py": _test(i) for i in range(TESTS)})
    files["docs/plugins.md"] = "# Plugins\n\nRegister a handler with `@register(name)`; jobs name it.\n"
    repo.squash_pr(
        FEATURE40_PR,
        "Add a plugin registry with 29 built-in plugins",
        files,
        body="Jobs can now name a plugin; plugins register by name. Follow-up to #1.\n\n"
        "Registering a name twice is an error, so two plugins cannot silently shadow each other.",
    )
    repo.set_origin(f"https://github.com/{FEATURE_REPO}.git")
    return repo
