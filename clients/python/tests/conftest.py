"""Test fixtures: a real `seahaven serve` (the crm world) for the whole session, started from this repository.

Set SEAHAVEN_TEST_URL to run against a server that is already running instead.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import uuid
from pathlib import Path
from typing import Any, Dict, Iterator, List, Optional

import pytest

HERE = Path(__file__).resolve().parent
PACKAGE = HERE.parent
REPO = PACKAGE.parent.parent
# The package's sources, unless it is installed (pip install ./clients/python).
sys.path.insert(0, str(PACKAGE / "src"))

from seahaven_client import ProtocolError, SeahavenClient  # noqa: E402

STARTUP_TIMEOUT_S = 60.0
URL_LINE = re.compile(r"^seahaven serve: .* at (http://\S+)$")


class Server:
    """A `seahaven serve` child process, started at once; `url` waits for the base URL its banner prints."""

    def __init__(self, *flags: str) -> None:
        self.tmp = tempfile.TemporaryDirectory(prefix="seahaven-pytest-")
        args = [
            os.environ.get("SEAHAVEN_NODE", "node"),
            # Under `npm test`, the command's compiled copy (packages/seahaven/core/test/compiled-copy.ts).
            os.environ.get("SEAHAVEN_BIN") or str(REPO / "packages" / "seahaven" / "bin" / "seahaven.mjs"),
            "serve",
            "crm",
            "--port",
            "0",
            "--no-console",
            "--curricula-db",
            str(Path(self.tmp.name) / "curricula.sqlite"),
            *flags,
        ]
        self.proc = subprocess.Popen(args, cwd=self.tmp.name, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self.output: List[str] = []
        self._url: Optional[str] = None
        self._ready = threading.Event()
        # Reads the banner, then keeps draining the output so the server never blocks on a full pipe.
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.output.append(line)
            m = URL_LINE.match(line.strip())
            if m and self._url is None:
                self._url = m.group(1)
                self._ready.set()
        self._ready.set()

    @property
    def url(self) -> str:
        self._ready.wait(STARTUP_TIMEOUT_S)
        if self._url is None:
            self.stop()
            raise RuntimeError(f"`seahaven serve` printed no URL within {STARTUP_TIMEOUT_S:g} s:\n{''.join(self.output)}")
        return self._url

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.tmp.cleanup()


class PipInstall:
    """`pip install` of a copy of the package into a folder of its own (a copy, so the build leaves nothing here)."""

    def __init__(self) -> None:
        self.tmp = tempfile.TemporaryDirectory(prefix="seahaven-pip-")
        root = Path(self.tmp.name)
        self.target = root / "site"
        source = root / "source"
        shutil.copytree(PACKAGE, source, ignore=shutil.ignore_patterns("tests", "*.ts", "__pycache__", "build", "*.egg-info", ".pytest_cache"))
        args = ["-m", "pip", "install", "--quiet", "--no-index", "--no-build-isolation", "--no-deps", "--disable-pip-version-check"]
        self.proc = subprocess.Popen([sys.executable, *args, "--target", str(self.target), str(source)], cwd=root, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)

    def wait(self) -> str:
        """pip's output; raises if it failed."""
        output, _ = self.proc.communicate(timeout=120)
        if self.proc.returncode != 0:
            raise AssertionError(f"pip install failed:\n{output}")
        return output

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        self.tmp.cleanup()


_started: Dict[str, Any] = {}


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "install: installs the package with pip (the end-to-end suite, `-m install`)")


# What each fixture needs started, by fixture name: the servers and the pip install take seconds, so only those the
# selected tests use are started, all at once so none waits for another's start-up.
_STARTERS: Dict[str, Any] = {
    "server_url": lambda: None if os.environ.get("SEAHAVEN_TEST_URL") else Server(),
    "guarded_server": lambda: Server("--token", "s3cret", "--max-sessions", "1", "--grader-token", "gr4der"),
    "workers_url": lambda: Server("--workers", "2"),
    "idle_timeout_server": lambda: Server("--session-timeout", "0.5"),
    "pip_install": lambda: PipInstall() if importlib.util.find_spec("pip") is not None else None,
}


def pytest_collection_finish(session: pytest.Session) -> None:
    """Start what the selected tests' fixtures need, once the tests are known."""
    used = {name for item in session.items for name in getattr(item, "fixturenames", ())}
    for name, start in _STARTERS.items():
        if name in used:
            started = start()
            if started is not None:
                _started[name] = started


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    for server in _started.values():
        server.stop()


@pytest.fixture(scope="session")
def server_url() -> str:
    """The base URL of a crm server shared by the session's tests."""
    external = os.environ.get("SEAHAVEN_TEST_URL")
    return external.rstrip("/") if external else _started["server_url"].url


@pytest.fixture(scope="session")
def pip_install() -> PipInstall:
    """The package, installed by pip (started with the session, in the background)."""
    if "pip_install" not in _started:
        if os.environ.get("CI"):
            pytest.fail("pip is missing: apt-get install -y python3-pip")
        pytest.skip("pip is missing (apt-get install -y python3-pip)")
    install: PipInstall = _started["pip_install"]
    install.wait()
    return install


@pytest.fixture(scope="session")
def guarded_server() -> Server:
    """A second server with a token and room for one session, for the refusals."""
    _started["guarded_server"].url
    return _started["guarded_server"]


@pytest.fixture(scope="session")
def workers_url() -> str:
    """The base URL of a third server, with two worker processes behind its port."""
    return _started["workers_url"].url


@pytest.fixture(scope="session")
def idle_timeout_server() -> Server:
    """A fourth server that ends a session idle for a second, for the client's recovery."""
    _started["idle_timeout_server"].url
    return _started["idle_timeout_server"]


@pytest.fixture
def env(server_url: str) -> Iterator[SeahavenClient]:
    with SeahavenClient(base_url=server_url, timeout=15) as client:
        yield client


def unsupported_action(server_url: str, action: str) -> Optional[str]:
    """Why the server cannot be tested with a `grade` or `fork` step (it predates them), or None."""
    with SeahavenClient(base_url=server_url, timeout=15) as client:
        client.reset(task="add_lead")
        try:
            client.step({"type": action})
        except ProtocolError as e:
            if "unknown action type" in e.message:
                return f"the server does not implement the {action!r} step action yet ({e.message})"
    return None


@pytest.fixture(scope="session")
def needs_grade(server_url: str) -> None:
    reason = unsupported_action(server_url, "grade")
    if reason:
        pytest.skip(reason)


@pytest.fixture(scope="session")
def needs_fork(server_url: str) -> None:
    reason = unsupported_action(server_url, "fork")
    if reason:
        pytest.skip(reason)


def unique(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:8]}"


# add_lead's gold call: solves the task.
ADD_LEAD: Dict[str, Any] = {
    "name": "Ada Lovelace",
    "email": "ada.lovelace@acmerobotics.example",
    "company_id": "cmp_acme",
    "title": "Head of Research",
    "stage": "lead",
}

