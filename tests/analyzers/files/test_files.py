"""File classification, modules, key files and per-repository rules."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from prdigest.analyzers.file_rules import default_rules, load_rules_file, rules_for
from prdigest.analyzers.files import module_from_path
from prdigest.errors import ConfigError
from prdigest.models.facts import Facts, FileFact
from prdigest.models.pullrequest import FileChange, FileStatus

Analyze = Callable[..., Facts]

HUMMING_PATCH = """@@ -10,12 +10,9 @@ from vllm.platforms import current_platform
-try:
-    from humming.layer import HummingMethod
-except ModuleNotFoundError:
-    HummingMethod = None
+if current_platform.is_cuda():
+    from humming.layer import HummingMethod
"""


def _vllm_like_pr() -> list[FileChange]:
    return [
        FileChange(
            path="vllm/model_executor/layers/quantization/humming.py", patch=HUMMING_PATCH, additions=12, deletions=25
        ),
        FileChange(
            path="setup.py",
            additions=2,
            deletions=0,
            patch='@@ -1,1 +1,2 @@\n x = 1\n+req = req.replace("a[cu13]", "a[cu12]")\n',
        ),
        FileChange(path="docker/Dockerfile", additions=2, deletions=1, patch="@@ -1,1 +1,1 @@\n-RUN a\n+RUN b\n"),
        FileChange(
            path="requirements/cuda.txt",
            additions=1,
            patch="@@ -1,1 +1,2 @@\n torch==2.9.0\n+humming-kernels[cu13]==0.1.2\n",
        ),
        FileChange(
            path="requirements/kv_connectors.txt",
            additions=1,
            patch="@@ -1,1 +1,2 @@\n lmcache\n+cupy-cuda13x<14.1.0\n",
        ),
        FileChange(path="csrc/quantization/gptq/q_gemm.cu", additions=3, deletions=3),
        FileChange(path=".buildkite/test_areas/quantization.yaml", additions=1),
        FileChange(path="tests/quantization/test_humming.py", additions=40),
        FileChange(path="docs/features/quantization/humming.md", additions=5),
        FileChange(path="uv.lock", additions=900, deletions=800),
        FileChange(path="vllm/v1/engine/core.py", additions=1),
    ]


def _by_path(facts: Facts) -> dict[str, FileFact]:
    return {f.path: f for f in facts.files.files}


def test_vllm_like_classification(analyze: Analyze) -> None:
    files = _by_path(analyze(*_vllm_like_pr()))
    expected = {
        "vllm/model_executor/layers/quantization/humming.py": ("source", "core-logic", "quantization", "python"),
        "setup.py": ("config", "configuration", "build config", "python"),
        "docker/Dockerfile": ("infra", "infrastructure", "Docker", "dockerfile"),
        "requirements/cuda.txt": ("config", "configuration", "dependency config", "pip-requirements"),
        "csrc/quantization/gptq/q_gemm.cu": ("source", "core-logic", "kernels", "cuda"),
        ".buildkite/test_areas/quantization.yaml": ("config", "configuration", "CI config", "yaml"),
        "tests/quantization/test_humming.py": ("test", "test", "tests", "python"),
        "docs/features/quantization/humming.md": ("docs", "docs", "docs", "markdown"),
        "vllm/v1/engine/core.py": ("source", "core-logic", "v1/engine", "python"),
    }
    for path, (category, kind, module, language) in expected.items():
        fact = files[path]
        assert (fact.category, fact.type, fact.module, fact.language) == (category, kind, module, language), path
    assert files["uv.lock"].generated
    assert not files["setup.py"].generated


def test_key_files_are_capped_and_skip_generated(analyze: Analyze) -> None:
    facts = analyze(*_vllm_like_pr())
    keys = [f.path for f in facts.files.key_files()]
    assert len(keys) == 6
    assert "uv.lock" not in keys
    # dependency files whose requirements changed and the largest core logic come first
    for path in (
        "requirements/cuda.txt",
        "requirements/kv_connectors.txt",
        "vllm/model_executor/layers/quantization/humming.py",
    ):
        assert path in keys
    assert "docs/features/quantization/humming.md" not in keys
    humming = _by_path(facts)["vllm/model_executor/layers/quantization/humming.py"]
    assert humming.key_reason is not None
    assert "37 changed lines" in humming.key_reason
    assert facts.files.total_additions == sum(c.additions for c in _vllm_like_pr())
    assert "quantization" in facts.files.modules


def test_config_only_pr_keys_the_requirements_file(analyze: Analyze) -> None:
    facts = analyze(
        FileChange(
            path="requirements/kv_connectors.txt",
            additions=1,
            deletions=1,
            patch="@@ -1,1 +1,1 @@\n-cupy-cuda13x<14.1.0\n+cupy-cuda13x!=14.1.0\n",
        )
    )
    [key] = facts.files.key_files()
    assert key.path == "requirements/kv_connectors.txt"
    assert key.key_reason == "declared requirements change here"


def test_only_generated_files_still_have_one_key_file(analyze: Analyze) -> None:
    facts = analyze(FileChange(path="uv.lock", additions=3), FileChange(path="poetry.lock", additions=30))
    assert [f.path for f in facts.files.key_files()] == ["poetry.lock"]


def test_generated_marker_in_contents(analyze: Analyze) -> None:
    facts = analyze(
        FileChange(
            path="vllm/gen/schema.py",
            status=FileStatus.ADDED,
            content_after="# @generated by protoc\nX = 1\n",
            additions=2,
        )
    )
    assert facts.files.files[0].generated


def test_line_counts_from_patch_when_missing(analyze: Analyze) -> None:
    facts = analyze(FileChange(path="a.py", patch="@@ -1,2 +1,2 @@\n-a\n+b\n+c\n x\n"))
    assert (facts.files.files[0].additions, facts.files.files[0].deletions) == (2, 1)


def test_module_fallback() -> None:
    assert module_from_path("vllm/v1/core/kv_cache_utils.py", "vllm-project/vllm") == "v1/core"
    assert module_from_path("src/prdigest/store/db.py", "o/prdigest") == "store"
    assert module_from_path("main.py", "o/r") == "root"


def test_repository_rules_override_defaults(analyze: Analyze, tmp_path: Path) -> None:
    path = tmp_path / "rules.toml"
    path.write_text(
        'ci_paths = ["pipelines/**"]\n'
        '[[rule]]\npattern = "vllm/v1/engine/**"\nmodule = "engine core"\n'
        '[[rule]]\npattern = "requirements/kv_*.txt"\nmodule = "connector deps"\ntype = "dependency-wiring"\n'
        '[module_names_zh]\n"engine core" = "引擎核心"\n',
        encoding="utf-8",
    )
    rules = load_rules_file(path)
    facts = analyze(
        FileChange(path="vllm/v1/engine/core.py", additions=1),
        FileChange(path="requirements/kv_connectors.txt", additions=1),
        FileChange(path="requirements/cuda.txt", additions=1),
        FileChange(path="pipelines/build.yaml", additions=1),
        rules=rules,
    )
    files = _by_path(facts)
    # the repository rule sets module only; category/type still come from the defaults
    assert (files["vllm/v1/engine/core.py"].module, files["vllm/v1/engine/core.py"].category) == (
        "engine core",
        "source",
    )
    kv = files["requirements/kv_connectors.txt"]
    assert (kv.module, kv.type, kv.category) == ("connector deps", "dependency-wiring", "config")
    assert files["requirements/cuda.txt"].module == "dependency config"
    assert facts.tests_ci.ci_files == ["pipelines/build.yaml"]
    # an older rules file's Chinese module names are still accepted
    assert rules_for(rules).module_names_zh == {"engine core": "引擎核心"}


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("[[rule]\n", "not valid TOML"),
        ('[[rule]]\nmodule = "x"\n', "needs a non-empty string 'pattern'"),
        ('[[rule]]\npattern = "a/**"\ncategory = "code"\n', "category 'code'"),
        ('[[rule]]\npattern = "a/**"\ntype = 3\n', "type 3"),
        ('[[rule]]\npattern = "a/**"\ncolour = "red"\n', "unknown keys ['colour']"),
        ('ci_paths = "x"\n', "'ci_paths' must be a list"),
        ("[module_names_zh]\nx = 1\n", "module_names_zh"),
        ("other = 1\n", "unknown keys ['other']"),
    ],
)
def test_bad_rules_file(tmp_path: Path, text: str, problem: str) -> None:
    path = tmp_path / "rules.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        load_rules_file(path)
    assert str(path) in str(caught.value)
    assert problem in str(caught.value)


def test_rules_file_not_utf8_or_missing(tmp_path: Path) -> None:
    path = tmp_path / "rules.toml"
    path.write_bytes(b"\xff\xfe[[rule]]")
    with pytest.raises(ConfigError, match="not UTF-8"):
        load_rules_file(path)
    with pytest.raises(ConfigError, match="cannot read"):
        load_rules_file(tmp_path / "absent.toml")


def test_glob_semantics() -> None:
    rules = rules_for(
        {
            "rule": [
                {"pattern": "a/*.py", "module": "one level"},
                {"pattern": "b/**", "module": "deep"},
                {"pattern": "{x,y}.cfg", "module": "braces"},
            ]
        }
    )
    assert rules.classify("a/m.py").module == "one level"
    assert rules.classify("a/b/m.py").module != "one level"
    assert rules.classify("b/c/d/e.txt").module == "deep"
    assert rules.classify("deep/y.cfg").module == "braces"  # no "/": matches the file name anywhere


def test_examples_setup_py_and_every_ci_definition_are_classified_as_what_they_are(analyze: Analyze) -> None:
    ci = [
        "Jenkinsfile",
        "ci/Jenkinsfile.gpu",
        ".jenkins/pipeline.groovy",
        ".gitlab-ci.yml",
        "azure-pipelines.yml",
        ".circleci/config.yml",
        ".buildkite/pipeline.yml",
        "appveyor.yml",
    ]
    examples = ["examples/serve/app.py", "example/run.py", "samples/basic.py", "demo/main.py", "pkg/examples/x.py"]
    changes = [FileChange(path=p, additions=1) for p in [*ci, *examples, "setup.py"]]
    facts = analyze(*changes, repository="acme/widgets")
    files = _by_path(facts)
    for path in ci:
        assert (files[path].category, files[path].module) == ("config", "CI config"), path
    assert facts.tests_ci.ci_files == ci
    for path in examples:
        assert (files[path].category, files[path].type, files[path].module) == ("example", "example", "examples"), path
    assert (files["setup.py"].category, files["setup.py"].type) == ("config", "configuration")
    assert not facts.tests_ci.source_changed  # nothing here is the project's own logic


@pytest.mark.parametrize(
    ("lines", "minified"),
    [
        (["x = 1"] * 4 + ["y = '" + "a" * 2001 + "'"], True),  # the fifth line is read
        (["x = 1"] * 5 + ["y = '" + "a" * 2001 + "'"], False),  # the sixth is not
        (["z = '" + "b" * 20_000 + "'"], True),  # one line far longer than the lines read
        (["x = 1"] * 4 + ["y = '" + "a" * 1994 + "'"], False),  # 2000 characters: not yet
        (["x = '" + "a" * 1994 + "'"] * 4 + ["y = '" + "a" * 1995 + "'"], True),  # long lines before it
        (["x = '" + "a" * 1994 + "'\r"] * 5 + ["y = '" + "a" * 2001 + "'"], False),  # CRLF line ends
    ],
)
def test_a_minified_line_among_the_first_five(analyze: Analyze, lines: list[str], minified: bool) -> None:
    content = "\n".join(lines) + "\n"
    facts = analyze(FileChange(path="pkg/data.py", status=FileStatus.ADDED, content_after=content, additions=3))
    assert facts.files.files[0].generated is minified


def test_build_output_and_javascript_tool_settings_are_no_core_logic(analyze: Analyze) -> None:
    # Seen on a JavaScript history: the bundles in dist/ and their source maps counted as core
    # logic (a release "changed 711 lines of core logic", 288 of them a bundle), webpack and
    # karma settings too.
    output = ["dist/axios.js", "dist/esm/axios.min.js", "dist/node/axios.cjs.map", "lib/index.js.map"]
    build = ["webpack.config.js", "rollup.config.mjs", "karma.conf.js", "tsconfig.json", "gulpfile.js"]
    repo = [".eslintrc.js", ".prettierrc", "eslint.config.mjs"]
    changes = [FileChange(path=p, additions=3) for p in [*output, *build, *repo, "lib/core/Axios.js"]]
    files = _by_path(analyze(*changes, repository="acme/widgets"))
    for path in output:
        assert (files[path].module, files[path].generated) == ("build output", True), path
    for path in build:
        assert (files[path].category, files[path].module) == ("config", "build config"), path
    for path in repo:
        assert (files[path].category, files[path].module) == ("config", "repo config"), path
    assert (files["lib/core/Axios.js"].category, files["lib/core/Axios.js"].type) == ("source", "core-logic")


def test_a_rust_tests_module_file_is_test_code() -> None:
    rules = default_rules()
    for path in ("src/tests.rs", "axum/src/routing/tests.rs", "src/test.rs"):
        assert rules.classify(path).category == "test", path
    for path in ("src/testing.rs", "src/contest.rs", "src/lib.rs"):
        assert rules.classify(path).category == "source", path


def test_markdown_under_github_is_docs_and_its_workflows_and_settings_stay_configuration() -> None:
    rules = default_rules()
    for path in (".github/PULL_REQUEST_TEMPLATE.md", ".github/ISSUE_TEMPLATE/bug_report.md", ".github/SECURITY.md"):
        assert rules.classify(path).category == "docs", path
    for path in (".github/workflows/ci.yml", ".github/dependabot.yml", ".github/ISSUE_TEMPLATE/config.yml"):
        assert rules.classify(path).category == "config", path


@pytest.mark.parametrize(
    "path", ["dev-requirements.txt", "requirements-dev.txt", "docs/requirements.txt", "test_requirements.in"]
)
def test_a_requirements_list_by_any_prefix_is_dependency_config(path: str) -> None:
    found = default_rules().classify(path)
    assert (found.category, found.type, found.module, found.language) == (
        "config",
        "configuration",
        "dependency config",
        "pip-requirements",
    )


def test_a_module_named_after_requirements_stays_source() -> None:
    assert default_rules().classify("src/requirements_parser.py").category == "source"
