"""`tree_fingerprint` digests what an ``os.walk`` of the folder lists (the report cache's key
for the code that made a document), and changes when a file does."""

from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path

from prdigest.pipeline.quick import code_fingerprint, tree_fingerprint


def _walked(root: Path) -> str:
    """The digest written out with ``os.walk``, as the report cache first defined it."""
    digest = hashlib.sha256(sys.version.encode())
    for folder, subfolders, files in os.walk(root):
        subfolders[:] = sorted(d for d in subfolders if d != "__pycache__")
        for name in sorted(files):
            if name.endswith((".pyc", ".pyo")):
                continue
            path = os.path.join(folder, name)
            info = os.stat(path)
            digest.update(f"{os.path.relpath(path, root)}\0{info.st_size}\0{info.st_mtime_ns}\n".encode())
    return digest.hexdigest()[:32]


def _tree(root: Path) -> None:
    for name, text in {
        "b.py": "b",
        "a.py": "aa",
        "Z.toml": "z",
        "sub/x.md": "x",
        "sub/deeper/y.py": "y",
        "sub-2/w.py": "w",
        "sub/__pycache__/x.cpython-311.pyc": "bytes",
        "top.pyc": "bytes",
        "words/zh/labels.toml": "标签",
    }.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    (root / "linked").symlink_to(root / "sub", target_is_directory=True)
    (root / "link.py").symlink_to(root / "a.py")


def test_same_digest_as_os_walk(tmp_path: Path) -> None:
    _tree(tmp_path)
    assert tree_fingerprint(tmp_path) == _walked(tmp_path)


def test_the_package_digest_is_the_walked_one() -> None:
    import prdigest

    assert code_fingerprint() == _walked(Path(prdigest.__file__).resolve().parent)


def test_a_changed_file_changes_the_digest(tmp_path: Path) -> None:
    _tree(tmp_path)
    before = tree_fingerprint(tmp_path)
    (tmp_path / "sub" / "deeper" / "y.py").write_text("yy", encoding="utf-8")
    assert tree_fingerprint(tmp_path) != before


def test_bytecode_does_not_change_the_digest(tmp_path: Path) -> None:
    _tree(tmp_path)
    before = tree_fingerprint(tmp_path)
    (tmp_path / "sub" / "__pycache__" / "new.cpython-311.pyc").write_text("more", encoding="utf-8")
    (tmp_path / "another.pyc").write_text("more", encoding="utf-8")
    assert tree_fingerprint(tmp_path) == before
