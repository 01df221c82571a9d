"""Seahaven episodes as OpenEnv harness sessions (``openenv.core.harness``).

``SessionFactory(url).create(task, seed=None, episode_id=None)`` resets a new session on the task and returns a
:class:`Session` with ``initial_messages()``, ``list_tools()``, ``call_tool(name, arguments)``,
``verify(transcript, final_state=None)`` and ``close()``: what OpenEnv's ``ResourceSessionFactory`` and
``ResourceSession`` ask for. When ``openenv`` is importable the classes subclass those, and the tools and results
are its ``Tool``, ``ToolResult`` and ``VerifyResult``; otherwise they are plain classes with the same fields.

The reward is the world's grade, forwarded, never computed here: a ``submit`` tool result (with ``submit_tool=True``)
carries it in ``data["reward"]`` and ``metadata["reward"]``, and ``verify`` returns the same grade (submitting the
episode first if the agent did not), so OpenEnv's check that the two agree holds. Other tool results carry no reward,
and their ``data`` is the result as JSON text, what the model reads.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Dict, List, Mapping, Optional

from ._tasks import world_url
from .aio import _tool_outcome
from .errors import SeahavenError, ToolError
from .sync import SeahavenClient
from .trl import RESET_KEYS

try:
    from openenv.core.env_server.mcp_types import Tool
    from openenv.core.harness import ResourceSession as _SessionBase
    from openenv.core.harness import ResourceSessionFactory as _FactoryBase
    from openenv.core.harness import ToolResult, VerifyResult

    HAS_OPENENV = True
except ImportError:  # OpenEnv is not installed: the same shapes, as plain classes
    HAS_OPENENV = False

    class _SessionBase:  # type: ignore[no-redef]
        pass

    class _FactoryBase:  # type: ignore[no-redef]
        pass

    @dataclass
    class Tool:  # type: ignore[no-redef]
        """A tool as OpenEnv's harness lists it."""

        name: str
        description: str
        input_schema: Dict[str, Any]

    @dataclass
    class ToolResult:  # type: ignore[no-redef]
        """A tool call's outcome, as OpenEnv's harness records it."""

        data: Any = None
        done: bool = False
        metadata: Dict[str, Any] = field(default_factory=dict)
        error: Optional[str] = None

    @dataclass
    class VerifyResult:  # type: ignore[no-redef]
        """The end of a rollout: the reward the environment gave, forwarded."""

        env_reward: Optional[float] = None
        done: bool = False
        metrics: Dict[str, Any] = field(default_factory=dict)
        artifacts: Dict[str, Any] = field(default_factory=dict)


__all__ = ["HAS_OPENENV", "Session", "SessionFactory", "Tool", "ToolResult", "VerifyResult"]

# The names OpenEnv's harness keeps for its own controls.
RESERVED_TOOL_NAMES = frozenset({"reset", "step", "state", "close"})

_dumps = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode


def _reset_data(task: Any, seed: Optional[int], episode_id: Optional[str]) -> Dict[str, Any]:
    """Reset keys from a task given as an id, a dataset row (``task_dataset``'s) or a ``/tasks`` entry."""
    if isinstance(task, str):
        data: Dict[str, Any] = {"task": task}
    elif isinstance(task, Mapping):
        data = {k: task[k] for k in RESET_KEYS if task.get(k) is not None}
        if "task" not in data and isinstance(task.get("id"), str):
            data["task"] = task["id"]
    elif task is None:
        data = {}
    else:
        raise TypeError(f"task must be a task id, a dataset row or a /tasks entry, not {type(task).__name__}")
    if seed is not None:
        data["seed"] = seed
    if episode_id is not None:
        data["episode_id"] = episode_id
    return data


class Session(_SessionBase):  # type: ignore[misc]
    """One rollout on a private instance of the world; made by :meth:`SessionFactory.create`."""

    def __init__(self, client: SeahavenClient, reset: Dict[str, Any]) -> None:
        self._client = client
        self._closed = False
        self._reward: Optional[float] = None
        self._grade: Dict[str, Any] = {}
        try:
            self._start = client.reset(**reset)
        except BaseException:
            client.close()
            raise
        reserved = sorted(t.name for t in self._start.tools if t.name in RESERVED_TOOL_NAMES)
        if reserved:
            client.close()
            raise ValueError(f"the world's tool(s) {', '.join(reserved)} have names OpenEnv's harness keeps for its own controls ({', '.join(sorted(RESERVED_TOOL_NAMES))})")
        self._tools = {t.name: t for t in self._start.tools}

    @property
    def episode_id(self) -> Optional[str]:
        return self._start.episode_id

    def initial_messages(self) -> List[Dict[str, Any]]:
        """The task's prompt as the first user message (none for an episode without a task)."""
        task = self._start.task
        return [{"role": "user", "content": task.prompt}] if task is not None else []

    def list_tools(self) -> List[Any]:
        return [Tool(name=t.name, description=t.description, input_schema=dict(t.input_schema)) for t in self._start.tools]

    def call_tool(self, name: str, arguments: Dict[str, Any]) -> Any:
        """Call a tool; a failed call is a result with ``error`` (``"code: message"``), and the episode goes on."""
        if name not in self._tools:
            return ToolResult(error=f"unknown_tool: no tool {name!r}; the tools are: {', '.join(self._tools)}", metadata={"code": "unknown_tool"})
        try:
            step = self._client.step({"type": "call_tool", "tool_name": name, "arguments": dict(arguments or {})})
            result = _tool_outcome(name, step)
        except ToolError as e:
            return ToolResult(error=str(e), metadata={"code": e.code, "details": e.details})
        if step.done and step.reward is not None:
            self._reward = float(step.reward)
            self._grade = result if isinstance(result, dict) else {"reward": self._reward}
            data = dict(self._grade)
            data.setdefault("reward", self._reward)
            return ToolResult(data=data, done=True, metadata={"reward": self._reward})
        return ToolResult(data=result if isinstance(result, str) else _dumps(result), done=step.done)

    def verify(self, transcript: List[Dict[str, Any]], final_state: Any = None) -> Any:
        """The episode's grade as ``env_reward``: the submit tool's, else the episode is submitted now."""
        if self._reward is None and self._start.task is not None:
            step = self._client.step({"type": "submit"})
            grade = step.observation.get("grade")
            self._grade = grade if isinstance(grade, dict) else {}
            self._reward = float(step.reward if step.reward is not None else self._grade.get("reward", 0.0))
        metrics: Dict[str, Any] = {}
        if "passed" in self._grade:
            metrics["passed"] = bool(self._grade["passed"])
        for c in self._grade.get("criteria") or []:
            if isinstance(c, dict) and isinstance(c.get("score"), (int, float)):
                metrics[f"criteria/{c.get('id', c.get('name'))}"] = float(c["score"])
        return VerifyResult(env_reward=self._reward, done=self._reward is not None, metrics=metrics, artifacts={"episode_id": self.episode_id, "transcript_length": len(transcript)})

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        try:
            self._client.close()
        except SeahavenError:
            pass


class SessionFactory(_FactoryBase):  # type: ignore[misc]
    """Makes one :class:`Session` per rollout, each on its own WebSocket session of the server at ``url``.

    ``world`` picks one of several served worlds; ``submit_tool=True`` gives the agent a ``submit`` tool that ends
    the episode (servers that support the ``submit_tool`` reset option); ``reset`` adds reset keys to every episode.
    """

    def __init__(
        self,
        url: str,
        *,
        world: Optional[str] = None,
        submit_tool: bool = False,
        timeout: float = 30.0,
        token: Optional[str] = None,
        reset: Optional[Mapping[str, Any]] = None,
    ) -> None:
        self.base_url = world_url(url, world)
        self.timeout = float(timeout)
        self._token = token
        self._reset = dict(reset or {})
        if submit_tool:
            self._reset["submit_tool"] = True

    def create(self, task: Any, seed: Optional[int] = None, episode_id: Optional[str] = None) -> Session:
        """Reset a new session on ``task`` (an id, a dataset row or a ``/tasks`` entry). Raises what the reset raised."""
        data = {**self._reset, **_reset_data(task, seed, episode_id)}
        return Session(SeahavenClient(self.base_url, timeout=self.timeout, token=self._token), data)

