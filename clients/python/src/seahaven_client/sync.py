"""``SeahavenClient``: the blocking client, for scripts, notebooks and threads.

Each method runs :class:`AsyncSeahavenClient`'s on one event loop that this module keeps on a background (daemon)
thread, shared by every blocking client of the process. So a blocking client works the same inside a program that
runs an event loop of its own (a notebook), and one client may be used from several threads (its requests queue).
"""

from __future__ import annotations

import asyncio
import threading
from typing import Any, Awaitable, List, Mapping, Optional, Type, TypeVar

from types import TracebackType

from .aio import DEFAULT_URL, AsyncSeahavenClient
from .results import Grade, ResetResult, State, StepResult, SubmitResult, TaskInfo, ToolInfo

__all__ = ["SeahavenClient"]

T = TypeVar("T")

_loop_lock = threading.Lock()
_loop: Optional[asyncio.AbstractEventLoop] = None


def _background_loop() -> asyncio.AbstractEventLoop:
    global _loop
    with _loop_lock:
        if _loop is None or _loop.is_closed():
            loop = asyncio.new_event_loop()
            ready = threading.Event()

            def run() -> None:
                asyncio.set_event_loop(loop)
                loop.call_soon(ready.set)
                loop.run_forever()

            threading.Thread(target=run, name="seahaven-client", daemon=True).start()
            ready.wait()
            _loop = loop
        return _loop


class SeahavenClient:
    """One session on a Seahaven (or any OpenEnv) server, blocking.

    ``base_url`` is the server's base URL (``http://127.0.0.1:8000``, or ``.../<world>`` for another served world).
    The socket opens on ``with`` (or ``connect()``, or the first request) and closes on leaving it (or ``close()``)::

        with SeahavenClient(base_url="http://127.0.0.1:8000") as env:
            env.reset(task="add_lead", seed=1)
            env.call("search_contacts", query="ada")
            print(env.submit().reward)
    """

    def __init__(
        self,
        base_url: str = DEFAULT_URL,
        *,
        timeout: float = 30.0,
        token: Optional[str] = None,
        headers: Optional[Mapping[str, str]] = None,
    ) -> None:
        self._loop = _background_loop()
        self._client = AsyncSeahavenClient(base_url, timeout=timeout, token=token, headers=headers)

    @classmethod
    def _wrap(cls, client: AsyncSeahavenClient) -> "SeahavenClient":
        self = cls.__new__(cls)
        self._loop = _background_loop()
        self._client = client
        return self

    def _run(self, coro: Awaitable[T]) -> T:
        if _running_on(self._loop):
            raise RuntimeError("SeahavenClient cannot be called from its own event loop; use AsyncSeahavenClient there")
        return asyncio.run_coroutine_threadsafe(coro, self._loop).result()  # type: ignore[arg-type]

    def __repr__(self) -> str:
        return repr(self._client).replace("AsyncSeahavenClient", "SeahavenClient", 1)

    @property
    def base_url(self) -> str:
        return self._client.base_url

    @property
    def ws_url(self) -> str:
        return self._client.ws_url

    @property
    def timeout(self) -> float:
        return self._client.timeout

    @property
    def last_reset(self) -> Optional[ResetResult]:
        """The reply to the session's latest reset (for a fork, the reset that joined the branch)."""
        return self._client.last_reset

    @property
    def closed(self) -> bool:
        """Whether the session has ended (closed by this client, the server or the network)."""
        return self._client.closed

    def connect(self) -> "SeahavenClient":
        """Open the socket now (the first request otherwise does). Raises :class:`ConnectError`."""
        self._run(self._client.connect())
        return self

    def __enter__(self) -> "SeahavenClient":
        return self.connect()

    def __exit__(self, exc_type: Optional[Type[BaseException]], exc: Optional[BaseException], tb: Optional[TracebackType]) -> None:
        self.close()

    def close(self) -> None:
        """End the session: the server destroys its instance. Safe to call twice."""
        self._run(self._client.close())

    def reset(
        self,
        *,
        fixture: Optional[str] = None,
        seed: Optional[int] = None,
        task: Optional[str] = None,
        curriculum: Optional[str] = None,
        run_id: Optional[str] = None,
        clock: Optional[str] = None,
        now: Optional[str] = None,
        episode_id: Optional[str] = None,
        reward_mode: Optional[str] = None,
        **extra: Any,
    ) -> ResetResult:
        """Start an episode on a fresh private instance; see :meth:`AsyncSeahavenClient.reset`."""
        return self._run(
            self._client.reset(
                fixture=fixture, seed=seed, task=task, curriculum=curriculum, run_id=run_id, clock=clock, now=now,
                episode_id=episode_id, reward_mode=reward_mode, **extra,
            )
        )

    def tasks(self) -> List[TaskInfo]:
        """The tasks the server lists (``GET /tasks``); see :meth:`AsyncSeahavenClient.tasks`."""
        return self._run(self._client.tasks())

    def step(self, action: Mapping[str, Any]) -> StepResult:
        """Send any step action and return the reply as sent."""
        return self._run(self._client.step(action))

    def tools(self) -> List[ToolInfo]:
        """The world's tools (works before any reset)."""
        return self._run(self._client.tools())

    def call(self, tool: str, arguments: Optional[Mapping[str, Any]] = None, /, **args: Any) -> Any:
        """Call ``tool`` and return its result; a failed call raises :class:`ToolError`."""
        return self._run(self._client.call(tool, arguments, **args))

    def advance_clock(self, ms: int) -> Any:
        """Let ``ms`` milliseconds of world time pass; the world's clock hook runs as one recorded call."""
        return self._run(self._client.advance_clock(ms))

    def state(self) -> State:
        """The session's state document: every row the episode changed, with ``episode_id`` and ``step_count``."""
        return self._run(self._client.state())

    def submit(self, *, trace: bool = False) -> SubmitResult:
        """End the episode's task and grade it. Without a task: :class:`ProtocolError`. ``trace=True``: see the async client."""
        return self._run(self._client.submit(trace=trace))

    def grade(self) -> Grade:
        """Grade the episode's task as it stands, without ending it."""
        return self._run(self._client.grade())

    def fork(self) -> "SeahavenClient":
        """Branch the episode: a new client on a new session that starts from this one's current state."""
        return SeahavenClient._wrap(self._run(self._client.fork()))


def _running_on(loop: asyncio.AbstractEventLoop) -> bool:
    try:
        return asyncio.get_running_loop() is loop
    except RuntimeError:
        return False
