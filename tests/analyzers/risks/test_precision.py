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


def test_compile_time_guards_in_c_family_sources_are_not_platform_assumptions() -> None:
    guards = tags(
        added("csrc/attention.cu", "#if CUDA_VERSION >= 13040", "  use_new_path();", "#endif"),
        added("csrc/ops.h", "#ifdef CUDA_VERSION", "#include <cuda.h>", "#endif"),
        added("csrc/gemm.cpp", "  #  elif defined(CUDA_VERSION) && CUDA_VERSION < 12000"),
        added("csrc/kernel.cuh", "// needs CUDA_VERSION 12.4 or newer"),
    )
    assert "platform-detection-assumption" not in guards
    # the same macro read at run time in C code is still a decision
    runtime = tags(added("csrc/probe.cpp", "if (CUDA_VERSION < 12000) { return fallback(); }"))
    assert "platform-detection-assumption" in runtime
    # a "#" line in a shell script or Dockerfile is a comment, not a preprocessor guard,
    # but the probes on the other lines still count
    docker = tags(added("docker/Dockerfile", "# check the toolkit", "RUN nvcc --version | grep 12.8"))
    assert "platform-detection-assumption" in docker


def test_lines_that_only_print_or_log_a_probe_are_not_platform_assumptions() -> None:
    printed = tags(
        added(
            "pkg/env_report.py",
            "import logging",
            "import torch",
            'print(f"CUDA: {torch.version.cuda}")',
            'logger.info("built for CUDA %s", torch.version.cuda)',
            '    logging.debug(f"ROCm {torch.version.hip}")',
            '    self.logger.warning("CUDA_HOME=%s", os.environ.get("CUDA_HOME"))',
        ),
        added("tools/env.sh", 'echo "CUDA_HOME is $CUDA_HOME"', "  printf '%s\\n' \"$CUDA_VERSION\""),
    )
    assert "platform-detection-assumption" not in printed
    decides = tags(
        added(
            "pkg/platform.py",
            "if current_platform.is_cuda():",
            "    from pkg.cuda_ops import gemm",
        )
    )
    assert "platform-detection-assumption" in decides
    assert "current_platform.is_cuda()" in decides["platform-detection-assumption"]
    wheel_tag = tags(added("setup.py", "CU = f\"cu{torch.version.cuda.replace('.', '')}\""))
    assert "platform-detection-assumption" in wheel_tag
    # a print that feeds a shell variable decides what the script installs (seed 004)
    captured = tags(added("tools/install_x.sh", 'CUDA=$(python -c "import torch; print(torch.version.cuda)")'))
    assert "platform-detection-assumption" in captured
    # an echo piped into a test is a decision, not a message
    piped = tags(added("tools/check.sh", 'echo "$CUDA_VERSION" | grep -q "^12" && pip install x-cu12'))
    assert "platform-detection-assumption" in piped
