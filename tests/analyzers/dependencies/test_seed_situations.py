"""The dependency situations of the seed reports, rebuilt as PR records."""

from __future__ import annotations

from collections.abc import Callable

from prdigest.models.facts import DependencyChange, Facts
from prdigest.models.pullrequest import FileChange, FileStatus, PullRequest

MakePR = Callable[..., PullRequest]
Analyze = Callable[..., Facts]


def _only(facts: Facts, package: str) -> DependencyChange:
    found = [c for c in facts.dependencies.changes if c.package == package]
    assert len(found) == 1, facts.dependencies.changes
    return found[0]


KV_BEFORE = """# KV connectors
lmcache >= 0.3.9
# Use <14.1.0 until a fixed newer release is verified
cupy-cuda13x < 14.1.0
mooncake-transfer-engine >= 0.3.6
"""
KV_AFTER = """# KV connectors
lmcache >= 0.3.9
# 14.1.1 fixes the root cause, so only 14.1.0 is excluded
cupy-cuda13x != 14.1.0
mooncake-transfer-engine >= 0.3.6
"""
KV_PATCH = """@@ -1,5 +1,5 @@
 # KV connectors
 lmcache >= 0.3.9
-# Use <14.1.0 until a fixed newer release is verified
-cupy-cuda13x < 14.1.0
+# 14.1.1 fixes the root cause, so only 14.1.0 is excluded
+cupy-cuda13x != 14.1.0
 mooncake-transfer-engine >= 0.3.6
"""
CUPY_BODY = (
    "#43530 capped cupy-cuda13x below 14.1.0 because CuPy 14.1.0 imports pytest from "
    "cupy.testing._random. CuPy 14.1.1 (released 2026-06-01) fixes the root cause, so the hard "
    "upper bound is no longer needed. Images currently resolve 14.0.1."
)


def test_cap_becomes_exact_exclusion(make_pr: MakePR, analyze: Analyze) -> None:
    pr = make_pr(
        FileChange(
            path="requirements/kv_connectors.txt", patch=KV_PATCH, content_before=KV_BEFORE, content_after=KV_AFTER
        ),
        title="[Deps] Relax cupy-cuda13x pin to exclude only 14.1.0",
        body=CUPY_BODY,
    )
    change = _only(analyze(pr), "cupy-cuda13x")
    assert change.kinds == ["cap-to-exclusion"]
    assert change.before == "cupy-cuda13x<14.1.0"
    assert change.after == "cupy-cuda13x!=14.1.0"
    assert {"14.0.1", "14.1.0", "14.1.1"} <= set(change.versions_considered)
    assert change.newly_admitted == ["14.1.1"]
    assert "14.1.0" not in change.newly_admitted
    assert change.newly_excluded == []
    assert change.variant_family == "cupy"
    assert change.source_kind == "requirements"
    # unchanged neighbours are not reported
    assert [c.package for c in analyze(pr).dependencies.changes] == ["cupy-cuda13x"]


def test_cap_to_exclusion_from_patch_only(make_pr: MakePR, analyze: Analyze) -> None:
    pr = make_pr(FileChange(path="requirements/kv_connectors.txt", patch=KV_PATCH), body=CUPY_BODY)
    change = _only(analyze(pr), "cupy-cuda13x")
    assert change.kinds == ["cap-to-exclusion"]
    assert change.newly_admitted == ["14.1.1"]


def test_known_versions_extend_what_is_considered(make_pr: MakePR, analyze: Analyze) -> None:
    pr = make_pr(FileChange(path="requirements/kv_connectors.txt", patch=KV_PATCH), body="")
    change = _only(analyze(pr, known={"CuPy_Cuda13x": ["13.6.0", "14.1.0", "14.1.1", "14.2.0"]}), "cupy-cuda13x")
    assert change.newly_admitted == ["14.1.1", "14.2.0"]
    assert "13.6.0" in change.versions_considered


NIXL_PATCH = """@@ -1,6 +1,4 @@
 lmcache >= 0.3.9
-nixl[cu13] >= 0.7.1, <= 0.10.1  # required for nixl connector
-nixl-cu12 >= 0.7.1, <= 0.10.1
-nixl-cu13 >= 0.7.1, <= 0.10.1
+nixl >= 1.1.0 # required for NIXL connector; picks the CUDA backend at runtime
 mooncake-transfer-engine >= 0.3.6
 cupy-cuda13x != 14.1.0
"""
CI_CONFIG_PATCH = """@@ -10,4 +10,5 @@ run_all_patterns:
   - "setup.py"
   - "CMakeLists.txt"
   - "requirements/cuda.txt"
+  - "requirements/kv_connectors.txt"
 run_all_exclude_patterns:
"""


def test_variant_pins_replaced_by_meta_package(make_pr: MakePR, analyze: Analyze) -> None:
    pr = make_pr(
        FileChange(path="requirements/kv_connectors.txt", patch=NIXL_PATCH),
        FileChange(path=".buildkite/ci_config.yaml", patch=CI_CONFIG_PATCH),
        title="[KV Connector] Update NIXL to 1.1.0",
        body="NIXL 1.1.0 (ai-dynamo/nixl#1574) makes nixl a meta-package; nixl-cu12==1.0.1 broke CUDA 13 CI.",
    )
    facts = analyze(pr)
    by_package = {c.package: c for c in facts.dependencies.changes}
    assert set(by_package) == {"nixl", "nixl-cu12", "nixl-cu13"}
    for name in ("nixl-cu12", "nixl-cu13"):
        change = by_package[name]
        # removals are removals: the family lives on in nixl, which replaces them
        assert change.kinds == ["removed", "replaced-by"]
        assert change.after is None
        assert change.replaced_by == "nixl"
        assert change.variant_family == "nixl"
        assert change.newly_admitted == []
    base = by_package["nixl"]
    assert {"variant-renamed", "extras-changed", "floor-raised", "cap-relaxed"} <= set(base.kinds)
    assert base.before == "nixl[cu13]<=0.10.1,>=0.7.1"
    assert "1.0.1" in base.versions_considered
    assert "1.0.1" not in base.newly_admitted  # below the new floor
    assert not [f for f in facts.dependencies.findings if f.kind == "variant-conflict"]


CUDA_TXT_PATCH = """@@ -12,3 +12,4 @@ flashinfer-python==0.6.1
 nvidia-cutlass-dsl[cu13]>=4.3.4
 quack-kernels==0.6.5
+humming-kernels[cu13]==0.1.2
 # triton is pulled in by torch
"""
SETUP_PATCH = """@@ -560,6 +560,8 @@ def get_requirements() -> list[str]:
             if "nvidia-cutlass-dsl[cu13]" in req and cuda_major == "12":
                 # [cu13] extra is the default; strip it on CUDA 12 builds.
                 req = req.replace("nvidia-cutlass-dsl[cu13]", "nvidia-cutlass-dsl")
+            if "humming-kernels[cu13]" in req and cuda_major == "12":
+                req = req.replace("humming-kernels[cu13]", "humming-kernels[cu12]")
             modified_requirements.append(req)
         requirements = modified_requirements
"""
DOCKERFILE_PATCH = """@@ -120,7 +120,8 @@ COPY pyproject.toml pyproject.toml
 RUN --mount=type=cache,target=/root/.cache/uv \\
     if [ "$(echo $CUDA_VERSION | cut -d. -f1)" = "12" ]; then \\
-        sed -i 's/^nvidia-cutlass-dsl\\[cu13\\]>=/nvidia-cutlass-dsl>=/' requirements/cuda.txt; \\
+        sed -i 's/^nvidia-cutlass-dsl\\[cu13\\]/nvidia-cutlass-dsl/' requirements/cuda.txt; \\
+        sed -i 's/^humming-kernels\\[cu13\\]/humming-kernels[cu12]/' requirements/cuda.txt; \\
     fi \\
     && uv pip install --python /opt/venv/bin/python3 -r requirements/cuda.txt
"""
KV_CAP_PATCH = """@@ -1,2 +1,3 @@
 lmcache >= 0.3.9
+cupy-cuda13x < 14.1.0 # 14.1.0 imports pytest at runtime
 mooncake-transfer-engine >= 0.3.6
"""


def test_cuda12_rewrite_duplicated_in_setup_and_dockerfile(make_pr: MakePR, analyze: Analyze) -> None:
    pr = make_pr(
        FileChange(path="requirements/cuda.txt", patch=CUDA_TXT_PATCH),
        FileChange(path="setup.py", patch=SETUP_PATCH),
        FileChange(path="docker/Dockerfile", patch=DOCKERFILE_PATCH),
        FileChange(path="requirements/kv_connectors.txt", patch=KV_CAP_PATCH),
        title="Fix CuPy runtime deps and restore humming",
        body="cupy-cuda13x==14.1.0 imports pytest; leofang says CuPy 14.1.1 fixes it.",
    )
    facts = analyze(pr)
    duplicated = [f for f in facts.dependencies.findings if f.kind == "duplicated-rewrite"]
    humming = [f for f in duplicated if f.packages == ["humming-kernels"]]
    assert len(humming) == 1
    assert set(humming[0].paths) == {"setup.py", "docker/Dockerfile"}
    assert "humming-kernels[cu13] -> humming-kernels[cu12]" in humming[0].detail
    # the cutlass rewrite is added in both files too (setup.py only has it as context)
    assert not [f for f in duplicated if f.packages == ["nvidia-cutlass-dsl"]]
    # rewrite lines are not declarations: setup.py declares nothing, and no variant conflict
    assert not [c for c in facts.dependencies.changes if c.path == "setup.py"]
    assert not [f for f in facts.dependencies.findings if f.kind == "variant-conflict"]
    humming_change = _only(facts, "humming-kernels")
    assert humming_change.kinds == ["added"]
    assert humming_change.variant_family == "humming-kernels"
    cupy = _only(facts, "cupy-cuda13x")
    assert cupy.kinds == ["added"]
    assert cupy.after == "cupy-cuda13x<14.1.0"


def test_extras_variant_switch_is_a_rename(make_pr: MakePR, analyze: Analyze) -> None:
    patch = "@@ -1,2 +1,2 @@\n torch==2.9.0\n-humming-kernels[cu13]==0.1.2\n+humming-kernels[cu12]==0.1.2\n"
    change = _only(analyze(make_pr(FileChange(path="requirements/cuda.txt", patch=patch))), "humming-kernels")
    assert change.kinds == ["variant-renamed", "extras-changed"]


PYPROJECT_BEFORE = """[build-system]
requires = ["setuptools>=77", "torch == 2.9.0"]

[project]
name = "demo"
dependencies = ["numpy", "requests>=2.26.0"]

[project.optional-dependencies]
tensorizer = ["tensorizer==2.10.1"]
audio = ["librosa", "soundfile"]
"""
PYPROJECT_AFTER = """[build-system]
requires = ["setuptools>=77", "torch == 2.9.1"]

[project]
name = "demo"
dependencies = ["numpy", "requests>=2.26.0"]

[project.optional-dependencies]
tensorizer = ["tensorizer>=2.10.1,<3"]
audio = ["librosa", "soundfile", "mistral_common[audio]>=1.8.5"]
"""
PYPROJECT_PATCH = """@@ -1,11 +1,9 @@
 [build-system]
-requires = ["setuptools>=77", "torch == 2.9.0"]
+requires = ["setuptools>=77", "torch == 2.9.1"]
 [project]
 name = "demo"
 dependencies = ["numpy", "requests>=2.26.0"]
 [project.optional-dependencies]
-tensorizer = ["tensorizer==2.10.1"]
-audio = ["librosa", "soundfile"]
+tensorizer = ["tensorizer>=2.10.1,<3"]
+audio = ["librosa", "soundfile", "mistral_common[audio]>=1.8.5"]
"""


def test_pyproject_optional_dependencies_from_contents(make_pr: MakePR, analyze: Analyze) -> None:
    pr = make_pr(
        FileChange(
            path="pyproject.toml", patch=PYPROJECT_PATCH, content_before=PYPROJECT_BEFORE, content_after=PYPROJECT_AFTER
        ),
        body="torch 2.9.1 fixes a regression; tensorizer 2.11.0 works",
    )
    facts = analyze(pr)
    by_package = {c.package: c for c in facts.dependencies.changes}
    assert set(by_package) == {"torch", "tensorizer", "mistral-common"}
    assert by_package["torch"].kinds == ["pin-changed"]
    assert by_package["tensorizer"].kinds == ["unpinned"]
    assert "2.11.0" in by_package["tensorizer"].newly_admitted
    assert by_package["mistral-common"].kinds == ["added"]
    assert all(c.source_kind == "pyproject" for c in facts.dependencies.changes)


def test_pyproject_from_patch_lines_without_contents(make_pr: MakePR, analyze: Analyze) -> None:
    facts = analyze(make_pr(FileChange(path="pyproject.toml", patch=PYPROJECT_PATCH)))
    by_package = {c.package: c for c in facts.dependencies.changes}
    # bare names ("librosa") carry no requirement shape on a patch line; specified ones do
    assert by_package["torch"].kinds == ["pin-changed"]
    assert by_package["tensorizer"].kinds == ["unpinned"]
    assert by_package["mistral-common"].kinds == ["added"]


DOCKER_PATCH = """@@ -40,7 +40,7 @@ ARG CUDA_VERSION
 RUN --mount=type=cache,target=/root/.cache/uv \\
-    uv pip install --system 'foo==1.1' "bar>=2" -r requirements/common.txt
+    uv pip install --system 'foo==1.2' "bar>=2" -r requirements/common.txt
 RUN pip install --no-cache-dir baz
"""


def test_dockerfile_uv_pip_install_pin_change(make_pr: MakePR, analyze: Analyze) -> None:
    pr = make_pr(FileChange(path="docker/Dockerfile.cpu", patch=DOCKER_PATCH), body="foo 1.2 fixes the crash")
    facts = analyze(pr)
    change = _only(facts, "foo")
    assert change.kinds == ["pin-changed"]
    assert (change.before, change.after) == ("foo==1.1", "foo==1.2")
    assert change.source_kind == "dockerfile"
    assert change.newly_admitted == ["1.2"]
    assert change.newly_excluded == ["1.1"]
    assert [c.package for c in facts.dependencies.changes] == ["foo"]


def test_same_pin_in_two_files_is_reported(make_pr: MakePR, analyze: Analyze) -> None:
    req_patch = "@@ -1,1 +1,1 @@\n-foo==1.1\n+foo==1.2\n"
    pr = make_pr(
        FileChange(path="requirements/common.txt", patch=req_patch),
        FileChange(path="docker/Dockerfile.cpu", patch=DOCKER_PATCH),
    )
    findings = [f for f in analyze(pr).dependencies.findings if f.kind == "duplicated-pin"]
    assert len(findings) == 1
    assert findings[0].packages == ["foo"]
    assert set(findings[0].paths) == {"requirements/common.txt", "docker/Dockerfile.cpu"}


def test_two_variants_installed_together_is_a_conflict(make_pr: MakePR, analyze: Analyze) -> None:
    patch = "@@ -1,2 +1,3 @@\n lmcache\n nixl-cu12==1.0.1\n+nixl-cu13==1.0.1\n"
    facts = analyze(make_pr(FileChange(path="requirements/kv_connectors.txt", patch=patch)))
    conflicts = [f for f in facts.dependencies.findings if f.kind == "variant-conflict"]
    assert len(conflicts) == 1
    assert conflicts[0].packages == ["nixl"]
    assert "cu12" in conflicts[0].detail
    assert "cu13" in conflicts[0].detail


def test_variants_behind_markers_are_not_a_conflict(make_pr: MakePR, analyze: Analyze) -> None:
    patch = (
        "@@ -1,1 +1,2 @@\n cupy-cuda12x; platform_machine == 'x86_64'\n+cupy-cuda13x; platform_machine == 'aarch64'\n"
    )
    facts = analyze(make_pr(FileChange(path="requirements/cuda.txt", patch=patch)))
    assert not [f for f in facts.dependencies.findings if f.kind == "variant-conflict"]


def test_conflict_on_one_install_line(make_pr: MakePR, analyze: Analyze) -> None:
    patch = "@@ -1,1 +1,1 @@\n-pip install cupy-cuda12x\n+pip install cupy-cuda12x cupy-cuda13x==14.0.1\n"
    facts = analyze(make_pr(FileChange(path="tools/install_deps.sh", patch=patch)))
    conflicts = [f for f in facts.dependencies.findings if f.kind == "variant-conflict"]
    assert [f.packages for f in conflicts] == [["cupy"]]


def test_conflict_through_included_file_in_the_pr(make_pr: MakePR, analyze: Analyze) -> None:
    common = FileChange(
        path="requirements/common.txt",
        status=FileStatus.ADDED,
        content_after="nixl-cu12==1.0.1\n",
        patch="@@ -0,0 +1,1 @@\n+nixl-cu12==1.0.1\n",
    )
    cuda = FileChange(path="requirements/cuda.txt", patch="@@ -1,1 +1,2 @@\n+-r common.txt\n nixl-cu13==1.0.1\n")
    facts = analyze(make_pr(common, cuda))
    conflicts = [f for f in facts.dependencies.findings if f.kind == "variant-conflict"]
    assert [f.paths for f in conflicts] == [["requirements/cuda.txt"]]


def test_malformed_line_is_reported_not_fatal(make_pr: MakePR, analyze: Analyze) -> None:
    patch = "@@ -1,1 +1,3 @@\n numpy\n+torch ==== 2.0 ((\n+requests>=2\n"
    facts = analyze(make_pr(FileChange(path="requirements/common.txt", patch=patch)))
    bad = [f for f in facts.dependencies.findings if f.kind == "unparsable"]
    assert len(bad) == 1
    assert "torch ==== 2.0 ((" in bad[0].detail
    assert [c.package for c in facts.dependencies.changes] == ["requests"]


def test_removed_requirements_file(make_pr: MakePR, analyze: Analyze) -> None:
    pr = make_pr(
        FileChange(
            path="requirements/tpu.txt",
            status=FileStatus.REMOVED,
            patch="@@ -1,2 +0,0 @@\n-jax[tpu]==0.4.30\n--r common.txt\n",
        )
    )
    change = _only(analyze(pr), "jax")
    assert change.kinds == ["removed"]
    assert change.after is None
