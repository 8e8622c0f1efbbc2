"""Rules that fired on most PRs of a real CUDA-kernel repository, kept to what matters.

Each case runs the whole default registry on a hand-written PR, as `prdigest analyze` does.
"""

from __future__ import annotations

from prdigest.analyzers.context import AnalysisContext
from prdigest.analyzers.defaults import default_registry
from prdigest.analyzers.registry import run_all
from prdigest.models.pullrequest import FileChange, FileStatus, PullRequest


def added(path: str, *lines: str) -> FileChange:
    body = "".join(f"+{line}\n" for line in lines)
    return FileChange(
        path=path,
        status=FileStatus.ADDED,
        additions=len(lines),
        patch=f"@@ -0,0 +1,{len(lines)} @@\n{body}",
    )


def removed_lines(path: str, *lines: str) -> FileChange:
    body = "".join(f"-{line}\n" for line in lines)
    return FileChange(path=path, deletions=len(lines), patch=f"@@ -10,{len(lines)} +9,0 @@\n{body}")


def tags(*changes: FileChange) -> dict[str, str]:
    pr = PullRequest(repository="org/kernels", number=7, title="Change", files=list(changes))
    facts = run_all(pr, default_registry(), AnalysisContext())
    return {tag.tag: tag.evidence for tag in facts.risks.tags}


def test_platform_probe_in_install_script_counts_but_tests_and_guards_do_not() -> None:
    script = added("tools/install_x.sh", 'CUDA=$(python -c "import torch; print(torch.version.cuda)")')
    assert "platform-detection-assumption" in tags(script)
    in_test = added("tests/test_ops.py", "import torch", "CUDA = torch.version.cuda")
    in_bench = added("benchmarks/bench_gemm.py", "import torch", "CUDA = torch.version.cuda")
    guard = added("pkg/ops.py", "import torch", "ON_GPU = torch.cuda.is_available()")
    assert "platform-detection-assumption" not in tags(in_test, in_bench, guard)


def test_removed_raise_counts_only_with_an_actionable_install_hint() -> None:
    hint = removed_lines(
        "pkg/ext.py",
        "    raise ImportError(",
        '        "humming is not installed; pip install humming-kernels"',
        "    )",
    )
    assert "error-message-regression" in tags(hint)
    # a package whose name starts with "example" is not example code
    check = FileChange(
        path="src/example_project/kernels.py",
        deletions=3,
        content_before=(
            "def assert_cupy_available():\n    import cupy\n\n\n"
            "def softmax(x):\n    assert_cupy_available()\n    return x\n"
        ),
        content_after="def softmax(x):\n    return x\n",
        patch=(
            "@@ -1,7 +1,2 @@\n-def assert_cupy_available():\n-    import cupy\n-\n-\n"
            " def softmax(x):\n-    assert_cupy_available()\n     return x\n"
        ),
    )
    assert "error-message-regression" in tags(check)
    plain = removed_lines("pkg/ext.py", '    raise ValueError("use_variable_seqlens requires page_size")')
    assert "error-message-regression" not in tags(plain)


def test_exec_in_tests_is_not_security_sensitive() -> None:
    in_test = added("tests/test_trace.py", "def test_it():", '    exec(source, {"x": 1})')
    assert "security-sensitive" not in tags(in_test)
    in_source = added("pkg/loader.py", "def load(source):", "    return eval(source)")
    assert "security-sensitive" in tags(in_source)


def test_duplicated_literal_means_a_setting_in_two_kinds_of_file() -> None:
    arch = "7.0 7.5 8.0 8.6 8.9 9.0"
    setting = tags(
        added("setup.py", f'ARCHS = "{arch}"'),
        added("docker/Dockerfile", f'ENV TORCH_CUDA_ARCH_LIST="{arch}"'),
    )
    assert "duplicated-logic-across-files" in setting
    assert arch in setting["duplicated-logic-across-files"]
    names = tags(
        added("pkg/routing.py", 'OP = "cta_idx_xy_to_batch_idx"'),
        added("pkg/trace/moe.py", 'NAME = "cta_idx_xy_to_batch_idx"'),
    )
    assert "duplicated-logic-across-files" not in names
    parallel_kernels = tags(
        added("csrc/k0.cu", 'asm("shfl.sync.idx.b32 %0, %1, 0, 0x1F;");'),
        added("csrc/k1.cu", 'asm("shfl.sync.idx.b32 %0, %1, 0, 0x1F;");'),
    )
    assert "duplicated-logic-across-files" not in parallel_kernels
