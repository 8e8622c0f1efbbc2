"""The models build their validators on first use (``defer_build``): every one of them must
still build, and a first use from several threads at once must validate as one thread does."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys

import pytest
from pydantic import BaseModel

MODULES = (
    "prdigest.models.pullrequest",
    "prdigest.models.facts",
    "prdigest.models.narrative",
    "prdigest.models.ledger",
    "prdigest.models.report",
    "prdigest.models.feed",
    "prdigest.analyzers.lineage",
)


def _models() -> list[type[BaseModel]]:
    found: list[type[BaseModel]] = []
    for name in MODULES:
        module = importlib.import_module(name)
        found += [
            value
            for value in vars(module).values()
            if isinstance(value, type) and issubclass(value, BaseModel) and value.__module__ == name
        ]
    return found


def test_the_models_are_deferred_in_a_fresh_process() -> None:
    code = (
        "import importlib, json\n"
        "from pydantic import BaseModel\n"
        f"for name in {MODULES!r}:\n"
        "    module = importlib.import_module(name)\n"
        "    built = [n for n, v in vars(module).items() if isinstance(v, type) and issubclass(v, BaseModel)\n"
        "             and v.__module__ == name and v.__pydantic_complete__]\n"
        "    print(name, built)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.splitlines() == [f"{name} []" for name in MODULES]


@pytest.mark.parametrize("model", _models(), ids=lambda model: f"{model.__module__}.{model.__qualname__}")
def test_every_model_builds(model: type[BaseModel]) -> None:
    model.model_rebuild()
    assert model.__pydantic_complete__
    assert model.model_json_schema()


def test_a_first_use_from_many_threads_validates_as_one_thread_does() -> None:
    from prdigest.models.facts import Facts, FileFact
    from prdigest.models.narrative import Narrative

    facts = Facts(repository="o/n", number=7, files={"files": [FileFact(path="a.py", category="source")]})
    narrative = Narrative(
        lang="en",
        length="full",
        one_line="o",
        recommendation="r",
        motivation="m",
        feed_title="t",
        feed_paragraph="p",
        implementation=[{"title": "step", "detail": "how"}],
    )
    inputs = json.dumps({"facts": facts.model_dump_json(), "narrative": narrative.model_dump_json()})
    code = (
        "import json, sys, threading\n"
        "from prdigest.models.facts import Facts\n"
        "from prdigest.models.narrative import Narrative\n"
        "inputs = json.loads(sys.stdin.read())\n"
        "start = threading.Barrier(16)\n"
        "out = []\n"
        "def use():\n"
        "    start.wait()\n"
        "    try:\n"
        "        out.append(Facts.model_validate_json(inputs['facts']).model_dump_json()\n"
        "                   + Narrative.model_validate_json(inputs['narrative']).model_dump_json())\n"
        "    except Exception as exc:\n"
        "        out.append(repr(exc))\n"
        "threads = [threading.Thread(target=use) for _ in range(16)]\n"
        "for t in threads: t.start()\n"
        "for t in threads: t.join()\n"
        "print(json.dumps(out))\n"
    )
    expected = facts.model_dump_json() + narrative.model_dump_json()
    for _ in range(3):
        done = subprocess.run([sys.executable, "-c", code], input=inputs, capture_output=True, text=True, check=True)
        assert json.loads(done.stdout) == [expected] * 16
