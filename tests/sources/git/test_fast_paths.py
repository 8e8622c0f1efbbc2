"""The sync's fast paths give exactly what the slower, general code gives."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st
from tests.helpers.gitrepo import GitRepoBuilder

from prdigest.sources.git.blob_pipeline import BlobPipeline
from prdigest.sources.git.cat_file import CatFile, blob_text
from prdigest.sources.git.contents import PipelinedContents, wants_contents
from prdigest.sources.git.diff_files import parse_patch, plain_header_facts, unidiff_header_facts
from prdigest.sources.git.runner import run_git_text

_PATH_CHARS = st.sampled_from(["a", "b", "x", "/", " ", ".", "-", "+", "é", '"', "\t", "\\", "b/", "a/"])
paths = st.lists(_PATH_CHARS, min_size=1, max_size=12).map("".join)
extended = st.sampled_from(
    [
        "index 0123abc..4567def 100644",
        "index 0000000..4567def",
        "new file mode 100644",
        "deleted file mode 100755",
        "old mode 100644",
        "new mode 100755",
        "similarity index 91%",
        "dissimilarity index 60%",
        "rename from x/y.py",
        "rename to x/z.py",
        "copy from x/y.py",
        "Binary files a/x and b/x differ",
        "@@ -1 +1 @@",
        "new file mode 1x",
        "",
    ]
)


@st.composite
def headers(draw: st.DrawFn) -> str:
    source, target = draw(paths), draw(paths)
    minus = draw(st.sampled_from([f"a/{source}", "/dev/null", f"a/{target}"]))
    plus = draw(st.sampled_from([f"b/{target}", "/dev/null", f"b/{source}"]))
    lines = [f"diff --git a/{source} b/{target}", *draw(st.lists(extended, max_size=4))]
    if draw(st.booleans()):
        lines += [f"--- {minus}", f"+++ {plus}"]
    return "\n".join(lines) + "\n"


@given(headers())
def test_plain_header_reading_agrees_with_unidiff(header: str) -> None:
    plain = plain_header_facts(header)
    assert plain is None or plain == unidiff_header_facts(header)


@given(st.text(max_size=300))
def test_plain_header_reading_never_crashes(header: str) -> None:
    plain = plain_header_facts("diff --git " + header)
    assert plain is None or plain == unidiff_header_facts("diff --git " + header)


def test_plain_header_reading_covers_git_common_shapes() -> None:
    shapes = {
        "diff --git a/s p.py b/s p.py\nindex 1..2 100644\n--- a/s p.py\n+++ b/s p.py\n": ("s p.py", None, "modified"),
        "diff --git a/n.py b/n.py\nnew file mode 100644\nindex 0..2\n--- /dev/null\n+++ b/n.py\n": (
            "n.py",
            None,
            "added",
        ),
        "diff --git a/d.py b/d.py\ndeleted file mode 100644\nindex 2..0\n--- a/d.py\n+++ /dev/null\n": (
            "d.py",
            None,
            "removed",
        ),
        "diff --git a/o.py b/n.py\nsimilarity index 90%\nrename from o.py\nrename to n.py\nindex 1..2 100644\n"
        "--- a/o.py\n+++ b/n.py\n": ("n.py", "o.py", "renamed"),
    }
    for header, (path, previous, status) in shapes.items():
        plain = plain_header_facts(header)
        assert plain is not None, header
        assert (plain[0], plain[1], plain[2].value) == (path, previous, status)
        assert plain == unidiff_header_facts(header)
    assert plain_header_facts('diff --git "a/t\\303\\251" "b/t\\303\\251"\n--- "a/t\\303\\251"\n+++ "b/x"\n') is None


@given(st.lists(st.sampled_from(["a", ".", "/", "py", "c", "P", "Y", "tsx", "."]), max_size=12).map("".join))
def test_wants_contents_matches_the_path_suffix_rule(path: str) -> None:
    from pathlib import PurePosixPath

    from prdigest.sources.git.contents import SOURCE_EXTENSIONS

    if path and not path.endswith("/") and "//" not in path and not path.endswith("/."):
        assert wants_contents(path) == (PurePosixPath(path).suffix.lower() in SOURCE_EXTENSIONS)


def test_pipelined_contents_equal_direct_reads(tmp_path: Path) -> None:
    """Texts reused from a newer commit, dropped from a tiny budget, or read: all the same."""
    repo = GitRepoBuilder(tmp_path / "repo")
    for number in range(1, 9):
        repo.squash_pr(
            number, f"Change {number}", {"m.py": f"v = {number}\n" * number, f"f{number % 3}.py": f"{number}\n"}
        )
    log = run_git_text(repo.path, ["log", "--first-parent", "--format=%H"]).split()
    patches = [parse_patch(_patch(repo.path, sha)) for sha in log]
    for budget in (0, 10, 1 << 20):
        with BlobPipeline(repo.path) as pipeline, CatFile(repo.path) as fallback:
            contents = PipelinedContents(pipeline, fallback, budget=budget)
            fresh = [parse_patch(_patch(repo.path, sha)) for sha in log]
            tickets = [contents.ask(patch.files) for patch in fresh]
            for ticket in tickets:
                contents.fill(ticket)
        with CatFile(repo.path) as reader:
            for patch, piped in zip(patches, fresh, strict=True):
                for direct, other in zip(patch.files, piped.files, strict=True):
                    before = reader.read_text(direct.old_blob) if direct.old_blob else None
                    after = reader.read_text(direct.new_blob) if direct.new_blob else None
                    assert (other.change.content_before, other.change.content_after) == (before, after)
                    assert after is not None


def _patch(repo: Path, sha: str) -> bytes:
    from prdigest.sources.git.runner import run_git

    return run_git(repo, ["show", "--format=", "-p", "--full-index", "--src-prefix=a/", "--dst-prefix=b/", sha])


def test_blob_pipeline_answers_every_kind_of_object_as_direct_reads_do(tmp_path: Path) -> None:
    """Texts, binaries, non-UTF-8, objects over the size bound (skipped in pieces), larger than
    one read, missing ids, commits and trees, many in flight: the same answers as `CatFile`."""
    repo = GitRepoBuilder(tmp_path / "repo")
    files: dict[str, str | bytes] = {
        "a.py": "x = 1\n",
        "bin.dat": b"\x00\x01\x02",
        "latin.txt": "café".encode("latin-1"),
        "big.txt": "y" * (3 << 20),  # over one read of the pipe
        "huge.txt": "z" * (5 << 20),  # over the bound below: passed over
    }
    files.update({f"many/{n}.py": f"n = {n}\n" for n in range(150)})
    repo.commit(files, "Initial commit")
    listing = [line.split(None, 3) for line in run_git_text(repo.path, ["ls-tree", "-r", "HEAD"]).splitlines()]
    ids, paths = [entry[2] for entry in listing], [entry[3] for entry in listing]
    tree = run_git_text(repo.path, ["rev-parse", "HEAD^{tree}"])
    wanted = [*ids, "0" * 40, repo.head(), tree, *ids[:3]]
    bound = 4 << 20
    with BlobPipeline(repo.path, max_bytes=bound) as pipeline:
        answers: list[str | bytes | None] = []
        for start in range(0, len(wanted), 7):  # asked for in groups, taken after each group
            pipeline.request(wanted[start : start + 7])
            answers += pipeline.take(min(7, len(wanted) - start))
    with CatFile(repo.path) as reader:
        expected: list[str | bytes | None] = []
        for spec in wanted:
            found = reader.read(spec)
            if found is not None and found[0] == "commit":
                expected.append(found[1])
            else:
                expected.append(blob_text(found, bound))
    assert answers == expected
    by_path = dict(zip(paths, answers, strict=False))
    assert by_path["big.txt"] == "y" * (3 << 20)
    assert by_path["huge.txt"] is None
    assert by_path["bin.dat"] is None
    assert by_path["latin.txt"] == "caf\ufffd"
    assert isinstance(answers[len(ids) + 1], bytes)  # the commit, raw
    assert answers.count(None) == 5  # binary (twice), over the bound, missing, a tree
