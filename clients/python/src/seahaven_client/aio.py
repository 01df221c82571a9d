"""``AsyncSeahavenClient``: one Seahaven session over a WebSocket, for asyncio.

Requests are answered in the order they were sent, each within ``timeout`` seconds. Several coroutines may share
one client (their requests queue on the one session); for parallel episodes, open one client per episode.
"""

from __future__ import annotations

import asyncio
import json
from collections import deque
from typing import Any, Deque, Dict, List, Mapping, Optional, Type

from types import TracebackType

from ._transport import get_json, http_url_of, open_websocket, ws_url_of
from .errors import ClosedError, ProtocolError, RequestTimeout, SeahavenError, ToolError
from .results import Grade, Json, ResetResult, State, StepResult, SubmitResult, TaskInfo, ToolInfo

__all__ = ["AsyncSeahavenClient", "DEFAULT_URL"]

DEFAULT_URL = "http://127.0.0.1:8000"

_dumps = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode
_loads = json.loads


class _Pending:
    __slots__ = ("future", "timer")

    def __init__(self, future: "asyncio.Future[Json]", timer: asyncio.TimerHandle) -> None:
        self.future = future
        self.timer = timer


def _tool_outcome(tool: str, step: StepResult) -> Any:
    """A call's result, or the :class:`ToolError` of its failure."""
    obs = step.observation
    result = obs.get("result")
    error = obs.get("error")
    if error is None and isinstance(result, dict):
        return result.get("data")
    error = error if isinstance(error, dict) else {}
    world = step.metadata.get("seahaven_error")
    error_type = str(error.get("error_type", "execution_error"))
    if isinstance(world, dict):
        details = world.get("details")
        raise ToolError(tool, str(world.get("code", error_type)), str(world.get("message", "")), details if isinstance(details, dict) else None, error_type)
    raise ToolError(tool, error_type, str(error.get("message", "the call failed")), None, error_type)


def _reset_data(
    fixture: Optional[str],
    seed: Optional[int],
    task: Optional[str],
    curriculum: Optional[str],
    run_id: Optional[str],
    clock: Optional[str],
    now: Optional[str],
    episode_id: Optional[str],
    reward_mode: Optional[str],
    extra: Mapping[str, Any],
) -> Json:
    data: Json = {}
    for key, value in (
        ("fixture", fixture),
        ("seed", seed),
        ("task", task),
        ("curriculum", curriculum),
        ("run_id", run_id),
        ("clock", clock),
        ("now", now),
        ("episode_id", episode_id),
        ("reward_mode", reward_mode),
    ):
        if value is not None:
            data[key] = value
    data.update(extra)
    return data


class AsyncSeahavenClient:
    """One session on a Seahaven (or any OpenEnv) server, for asyncio.

    ``base_url`` is the server's base URL (``http://127.0.0.1:8000``, or ``.../<world>`` for another served world).
    The socket opens on ``async with`` (or ``await client.connect()``, or the first request) and closes on leaving it
    (or ``await client.close()``)::

        async with AsyncSeahavenClient("http://127.0.0.1:8000") as env:
            await env.reset(task="add_lead", seed=1)
            contact = await env.call("search_contacts", query="ada")
            print((await env.submit()).reward)
    """

    base_url: str
    ws_url: str
    timeout: float
    last_reset: Optional[ResetResult]
    """The reply to the session's latest reset (for a fork, the reset that joined the branch)."""

    def __init__(
        self,
        base_url: str = DEFAULT_URL,
        *,
        timeout: float = 30.0,
        token: Optional[str] = None,
        headers: Optional[Mapping[str, str]] = None,
    ) -> None:
        self.base_url = base_url
        self.ws_url = ws_url_of(base_url)
        self.timeout = float(timeout)
        self.last_reset = None
        self._token = token
        self._headers: Dict[str, str] = dict(headers or {})
        if token is not None:
            self._headers["Authorization"] = f"Bearer {token}"
        self._ws: Any = None
        self._reader: Optional["asyncio.Task[None]"] = None
        self._pending: Deque[_Pending] = deque()
        self._failure: Optional[SeahavenError] = None
        self._closed = False
        self._open_lock: Optional[asyncio.Lock] = None
        self._send_lock: Optional[asyncio.Lock] = None

    def __repr__(self) -> str:
        status = "closed" if self._closed else "open" if self._ws is not None else "not connected"
        return f"<AsyncSeahavenClient {self.ws_url} {status}>"

    # -- connection ------------------------------------------------------------------------------------------------

    async def connect(self) -> "AsyncSeahavenClient":
        """Open the socket now (the first request otherwise does). Raises :class:`ConnectError`."""
        if self._closed:
            raise ClosedError("the client is closed; create a new one")
        if self._ws is not None:
            return self
        if self._open_lock is None:
            self._open_lock = asyncio.Lock()
        async with self._open_lock:
            if self._ws is None:
                ws = await open_websocket(self.base_url, self.ws_url, self._headers, self.timeout)
                self._send_lock = asyncio.Lock()
                self._ws = ws
                self._reader = asyncio.get_running_loop().create_task(self._read(ws))
        return self

    async def __aenter__(self) -> "AsyncSeahavenClient":
        return await self.connect()

    async def __aexit__(self, exc_type: Optional[Type[BaseException]], exc: Optional[BaseException], tb: Optional[TracebackType]) -> None:
        await self.close()

    async def close(self) -> None:
        """End the session: the server destroys its instance. Safe to call twice."""
        if self._closed:
            return
        self._closed = True
        ws = self._ws
        if ws is None:
            return
        self._failure = self._failure or ClosedError("the client is closed; create a new one")
        try:
            await ws.send('{"type":"close"}')
        except Exception:
            pass  # already closed by the server or the network
        try:
            await asyncio.wait_for(ws.close(), self.timeout)
        except Exception:
            pass
        if self._reader is not None:
            try:
                await asyncio.wait_for(self._reader, self.timeout)
            except Exception:
                pass

    @property
    def closed(self) -> bool:
        """Whether the session has ended (closed by this client, the server or the network)."""
        return self._closed or (self._ws is not None and self._reader is not None and self._reader.done())

    async def _read(self, ws: Any) -> None:
        try:
            async for message in ws:
                self._on_frame(message)
        except Exception:
            pass  # an abnormal close: reported below like any other
        finally:
            code = getattr(ws, "close_code", None)
            reason = getattr(ws, "close_reason", None) or ""
            if self._failure is None:
                detail = f"{code}{' ' + reason if reason else ''}" if code is not None else "no close frame"
                self._failure = ClosedError(f"the connection closed ({detail})", code, reason)
            failure = self._failure
            while self._pending:
                p = self._pending.popleft()
                p.timer.cancel()
                if not p.future.done():
                    p.future.set_exception(failure)

    def _on_frame(self, message: Any) -> None:
        try:
            msg = _loads(message)
            if not isinstance(msg, dict):
                raise ValueError("not an object")
        except ValueError:
            text = message if isinstance(message, str) else repr(message)
            msg = {"type": "error", "data": {"code": "INVALID_JSON", "message": f"the server sent a frame that is not a JSON object: {text[:80]}"}}
        if not self._pending:
            # An error nobody asked for (CAPACITY_REACHED right after connecting): every later request fails with it.
            if msg.get("type") == "error":
                self._failure = self._protocol_error(msg.get("data"))
            return
        p = self._pending.popleft()
        p.timer.cancel()
        if p.future.done():
            return  # timed out or cancelled: its late reply is dropped, keeping the rest in step
        if msg.get("type") == "error":
            p.future.set_exception(self._protocol_error(msg.get("data")))
        else:
            data = msg.get("data")
            p.future.set_result(data if isinstance(data, dict) else {})

    @staticmethod
    def _protocol_error(data: Any) -> ProtocolError:
        data = data if isinstance(data, dict) else {}
        return ProtocolError(str(data.get("code", "UNKNOWN")), str(data.get("message", "the server refused the request")), data)

    @staticmethod
    def _expire(future: "asyncio.Future[Json]", what: str, timeout: float) -> None:
        if not future.done():
            future.set_exception(RequestTimeout(f"no reply to {what} within {timeout:g} s; raise timeout= or check the server"))

    async def _request(self, frame: Json, what: str) -> Json:
        if self._ws is None:
            await self.connect()
        if self._failure is not None:
            raise self._failure
        text = _dumps(frame)
        loop = asyncio.get_running_loop()
        future: "asyncio.Future[Json]" = loop.create_future()
        pending = _Pending(future, loop.call_later(self.timeout, self._expire, future, what, self.timeout))
        assert self._send_lock is not None
        async with self._send_lock:
            if self._failure is not None:
                pending.timer.cancel()
                raise self._failure
            self._pending.append(pending)
            try:
                await self._ws.send(text)
            except Exception:
                pass  # the socket closed: the reader fails every pending request with the reason
        return await future

    # -- the protocol ----------------------------------------------------------------------------------------------

    async def reset(
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
        """Start an episode on a fresh private instance. Keys left ``None`` take the server's defaults.

        ``task`` plays a graded task (from its fixture); ``curriculum`` and ``run_id`` let the world's curriculum pick
        one; ``clock`` is ``"fixed"`` or ``"tick"``; ``reward_mode`` is ``"final"`` or ``"shaped"``. ``extra`` keys are
        sent as they are. Refused data raises :class:`ProtocolError` (``VALIDATION_ERROR``, see ``errors``).
        """
        data = _reset_data(fixture, seed, task, curriculum, run_id, clock, now, episode_id, reward_mode, extra)
        reply = await self._request({"type": "reset", "data": data}, "reset")
        self.last_reset = ResetResult.from_step(StepResult.from_json(reply))
        return self.last_reset

    async def tasks(self) -> List[TaskInfo]:
        """The tasks the server lists (``GET /tasks`` over HTTP, beside the session): id, world, fixture, prompt,
        difficulty, tags and curriculum stages, never what grades them. Needs no socket; raises :class:`ConnectError`."""
        url = http_url_of(self.base_url, "/tasks")
        body = await asyncio.get_running_loop().run_in_executor(None, get_json, self.base_url, url, self._headers, self.timeout)
        return [TaskInfo.from_json(t) for t in (body.get("tasks") if isinstance(body, dict) else None) or [] if isinstance(t, dict)]

    async def step(self, action: Mapping[str, Any]) -> StepResult:
        """Send any step action (``{"type": "call_tool", ...}``, ``{"type": "submit"}``, ...) and return the reply as sent."""
        return StepResult.from_json(await self._request({"type": "step", "data": dict(action)}, f"step {action.get('type')!r}"))

    async def tools(self) -> List[ToolInfo]:
        """The world's tools (works before any reset)."""
        step = await self.step({"type": "list_tools"})
        return [ToolInfo.from_json(t) for t in step.observation.get("tools", []) if isinstance(t, dict)]

    async def call(self, tool: str, arguments: Optional[Mapping[str, Any]] = None, /, **args: Any) -> Any:
        """Call ``tool`` with ``arguments`` (a dict, keyword arguments, or both) and return its result.

        A failed call raises :class:`ToolError` with the world's ``code``, ``message`` and ``details``; the step
        still counts and the episode goes on.
        """
        merged = {**arguments, **args} if arguments else args
        step = await self.step({"type": "call_tool", "tool_name": tool, "arguments": merged})
        return _tool_outcome(tool, step)

    async def advance_clock(self, ms: int) -> Any:
        """Let ``ms`` milliseconds of world time pass; the world's clock hook runs as one recorded call."""
        step = await self.step({"type": "advance_clock", "ms": ms})
        return _tool_outcome("advance_clock", step)

    async def state(self) -> State:
        """The session's state document: every row the episode changed, with ``episode_id`` and ``step_count``."""
        return State.from_json(await self._request({"type": "state"}, "state"))

    async def submit(self, *, trace: bool = False) -> SubmitResult:
        """End the episode's task and grade it (``done`` is true). Without a task: :class:`ProtocolError`.

        ``trace=True`` also answers the episode's trace (``SubmitResult.trace``: its call log, change log and net
        changes) in the same reply; only after a reset with the server's ``grader_token``, else :class:`ProtocolError`
        (``VALIDATION_ERROR``) and the episode goes on.
        """
        step = await self.step({"type": "submit", "trace": True} if trace else {"type": "submit"})
        grade = Grade.from_json(step.observation.get("grade") or {}, step.metadata)
        traced = step.observation.get("trace")
        return SubmitResult(
            reward=step.reward if step.reward is not None else grade.reward,
            done=step.done,
            grade=grade,
            metadata=step.metadata,
            trace=traced if isinstance(traced, dict) else None,
        )

    async def grade(self) -> Grade:
        """Grade the episode's task as it stands, without ending it (the episode goes on)."""
        step = await self.step({"type": "grade"})
        return Grade.from_json(step.observation.get("grade") or {}, step.metadata)

    async def fork(self) -> "AsyncSeahavenClient":
        """Branch the episode: a new client on a new session that starts from this one's current state.

        The two go on independently. The new client has this one's URL, timeout and token; close it when done.
        """
        step = await self.step({"type": "fork"})
        fork = step.observation.get("fork")
        token = fork.get("token") if isinstance(fork, dict) else None
        if not isinstance(token, str):
            raise ProtocolError("INVALID_REPLY", f"the fork reply carries no token: {step.observation!r}", {})
        branch = AsyncSeahavenClient(self.base_url, timeout=self.timeout, headers=self._headers)
        try:
            await branch.reset(fork_token=token)
        except BaseException:
            await branch.close()
            raise
        return branch
