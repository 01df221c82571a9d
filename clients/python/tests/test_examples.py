"""The runnable material: examples/loop.py, every Python block of docs/python-client.md, and `pip install`."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Dict, List, Tuple

import pytest
from conftest import PACKAGE, REPO, PipInstall

DOC = REPO / "docs" / "python-client.md"
DOC_URL = "http://127.0.0.1:8000"


def python_env(extra_path: str) -> Dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([extra_path, *filter(None, [env.get("PYTHONPATH")])])
    return env


def run_python(args: List[str], env: Dict[str, str], cwd: Path, timeout: float = 60) -> subprocess.CompletedProcess:  # type: ignore[type-arg]
    return subprocess.run([sys.executable, *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)


def test_the_loop_example_runs(server_url: str) -> None:
    done = run_python([str(PACKAGE / "examples" / "loop.py"), server_url], python_env(str(PACKAGE / "src")), PACKAGE)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "100 episodes, mean reward 0.00"


def doc_blocks() -> List[Tuple[int, str]]:
    text = DOC.read_text(encoding="utf-8")
    return [(text[: m.start()].count("\n") + 1, m.group(1)) for m in re.finditer(r"^```python\n(.*?)^```\s*$", text, re.M | re.S)]


def test_the_guide_has_python_blocks() -> None:
    assert len(doc_blocks()) >= 6


def run_block(code: str, server_url: str, line: int) -> None:
    """Run a block of the guide in this process, as a script of its own, against the test server."""
    exec(compile(code.replace(DOC_URL, server_url), f"docs/python-client.md:{line}", "exec"), {"__name__": "__main__"})


@pytest.mark.parametrize("line,code", doc_blocks(), ids=lambda v: f"line {v}" if isinstance(v, int) else "")
def test_every_python_block_of_the_guide_runs(server_url: str, line: int, code: str) -> None:
    run_block(code, server_url, line)


def test_stated_outputs_of_the_guide(server_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    """The outputs the guide states in comments for grade() and the errors."""
    blocks = doc_blocks()
    errors = next(b for b in blocks if "except ToolError" in b[1])
    grade = next(b for b in blocks if "env.grade().reward" in b[1])
    expected = {errors: ["invalid_arguments ['name', 'email']", "VALIDATION_ERROR ['data']", "CONNECT: cannot connect to http://127.0.0.1:9"], grade: ["0.0", "1.0 True", "1.0"]}
    for (line, code), want in expected.items():
        capsys.readouterr()
        run_block(code, server_url, line)
        lines = capsys.readouterr().out.splitlines()
        assert len(lines) == len(want), lines
        for got, prefix in zip(lines, want):
            assert got.startswith(prefix), f"{got!r} does not start with {prefix!r}"


@pytest.mark.install
def test_pip_installs_the_package(pip_install: PipInstall) -> None:
    target = pip_install.target
    package = target / "seahaven_client"
    assert (package / "py.typed").exists() and (package / "aio.py").exists()
    metadata = next(target.glob("seahaven_client-*.dist-info")) / "METADATA"
    requires = [re.sub(r"[\s()]", "", line) for line in metadata.read_text().splitlines() if line.startswith("Requires-Dist:")]
    assert requires == ["Requires-Dist:websockets>=10.4"]  # the one runtime dependency
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PYTHONPATH"] = str(target)
    probe = run_python(["-c", "import seahaven_client as s; print(s.__file__); print(s.SeahavenClient, s.AsyncSeahavenClient)"], env, Path(tempfile.gettempdir()))
    assert probe.returncode == 0, probe.stderr
    assert probe.stdout.splitlines()[0].startswith(str(target))
