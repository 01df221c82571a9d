"""The typed results of ``seahaven_client``: frozen dataclasses built from the server's JSON replies.

Each keeps the reply it was built from in ``raw``, so a field this client does not model is still at hand.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, List, Literal, Optional

__all__ = [
    "Change",
    "Criterion",
    "Grade",
    "ResetResult",
    "State",
    "StepResult",
    "SubmitResult",
    "Task",
    "TaskInfo",
    "ToolInfo",
    "Json",
]

Json = Dict[str, Any]
"""A JSON object as ``json.loads`` gives it."""


def _obj(value: Any) -> Json:
    return value if isinstance(value, dict) else {}


@dataclass(frozen=True)
class ToolInfo:
    """A tool as the server lists it: its name, description and JSON Schema of its arguments."""

    name: str
    description: str
    input_schema: Json

    @classmethod
    def from_json(cls, data: Json) -> "ToolInfo":
        return cls(name=str(data.get("name", "")), description=str(data.get("description", "")), input_schema=_obj(data.get("input_schema")))


@dataclass(frozen=True)
class Task:
    """The task an episode plays: its id and the prompt to give the agent."""

    id: str
    prompt: str


@dataclass(frozen=True)
class TaskInfo:
    """A task as the server lists it (``GET /tasks``): what it asks and where it starts, never how it is graded.

    ``difficulty`` is the declared one (1 = easiest) or ``None``; ``stages`` holds ``{"curriculum", "stage"}`` for
    each curriculum that lists the task.
    """

    id: str
    world: str
    fixture: str
    prompt: str
    difficulty: Optional[float]
    tags: List[str]
    stages: List[Dict[str, str]]
    raw: Json = field(repr=False)

    @classmethod
    def from_json(cls, data: Json) -> "TaskInfo":
        difficulty = data.get("difficulty")
        return cls(
            id=str(data.get("id", "")),
            world=str(data.get("world", "")),
            fixture=str(data.get("fixture", "")),
            prompt=str(data.get("prompt", "")),
            difficulty=None if difficulty is None else float(difficulty),
            tags=[str(t) for t in data.get("tags") or []],
            stages=[{"curriculum": str(s.get("curriculum", "")), "stage": str(s.get("stage", ""))} for s in data.get("stages") or [] if isinstance(s, dict)],
            raw=data,
        )


@dataclass(frozen=True)
class StepResult:
    """A step reply, as sent: ``observation``, ``reward`` (``None`` when the step has none), ``done``, ``metadata``."""

    observation: Json
    reward: Optional[float]
    done: bool
    metadata: Json

    @classmethod
    def from_json(cls, data: Json) -> "StepResult":
        reward = data.get("reward")
        return cls(
            observation=_obj(data.get("observation")),
            reward=None if reward is None else float(reward),
            done=bool(data.get("done", False)),
            metadata=_obj(data.get("metadata")),
        )


@dataclass(frozen=True)
class ResetResult:
    """The start of an episode: where it starts, its task (if any), the tools, and the reply's metadata."""

    fixture: Optional[str]
    seed: int
    now: str
    task: Optional[Task]
    tools: List[ToolInfo]
    episode_id: Optional[str]
    metadata: Json
    raw: StepResult = field(repr=False)

    @classmethod
    def from_step(cls, step: StepResult) -> "ResetResult":
        obs = step.observation
        task = obs.get("task")
        episode_id = step.metadata.get("episode_id")
        return cls(
            fixture=obs.get("fixture"),
            seed=int(obs.get("seed", 0)),
            now=str(obs.get("now", "")),
            task=Task(id=str(task.get("id")), prompt=str(task.get("prompt"))) if isinstance(task, dict) else None,
            tools=[ToolInfo.from_json(t) for t in obs.get("tools", []) if isinstance(t, dict)],
            episode_id=None if episode_id is None else str(episode_id),
            metadata=step.metadata,
            raw=step,
        )


@dataclass(frozen=True)
class Criterion:
    """One line of a grade: ``score`` in [0, 1], its ``weight`` in the reward, and why."""

    name: str
    score: float
    weight: float
    reason: str

    @classmethod
    def from_json(cls, data: Json) -> "Criterion":
        return cls(name=str(data.get("name", "")), score=float(data.get("score", 0)), weight=float(data.get("weight", 0)), reason=str(data.get("reason", "")))


@dataclass(frozen=True)
class Grade:
    """A task's grade: ``reward`` in [0, 1], ``passed``, and the ``criteria`` it was computed from."""

    reward: float
    passed: bool
    criteria: List[Criterion]
    metadata: Json = field(default_factory=dict)

    @classmethod
    def from_json(cls, data: Json, metadata: Optional[Json] = None) -> "Grade":
        return cls(
            reward=float(data.get("reward", 0)),
            passed=bool(data.get("passed", False)),
            criteria=[Criterion.from_json(c) for c in data.get("criteria", []) if isinstance(c, dict)],
            metadata=metadata or {},
        )


@dataclass(frozen=True)
class SubmitResult:
    """The end of a graded episode.

    ``reward`` is the step's reward, the one a trainer sums: the grade's reward, or with ``reward_mode="shaped"`` the
    part of it not yet reported. ``grade`` is the whole grade; ``passed`` and ``criteria`` are its. ``metadata``
    carries, for a curriculum episode, ``curriculum: {ticket, outcome, stage, transition, mastered}``. ``trace``, after
    ``submit(trace=True)`` with the grader token, is the episode's trace as the server sends it: ``world``,
    ``fixture_sha256``, ``calls``, ``change_log`` and ``changes``.
    """

    reward: float
    done: bool
    grade: Grade
    metadata: Json
    trace: Optional[Json] = None

    @property
    def passed(self) -> bool:
        return self.grade.passed

    @property
    def criteria(self) -> List[Criterion]:
        return self.grade.criteria


@dataclass(frozen=True)
class Change:
    """A row's net change in the episode: the table, ``insert``/``update``/``delete``, its key, before and after."""

    table: str
    op: Literal["insert", "update", "delete"]
    key: Json
    before: Optional[Json] = None
    after: Optional[Json] = None

    @classmethod
    def from_json(cls, data: Json) -> "Change":
        op = data.get("op")
        return cls(
            table=str(data.get("table", "")),
            op=op if op in ("insert", "update", "delete") else "update",  # type: ignore[arg-type]
            key=_obj(data.get("key")),
            before=data.get("before"),
            after=data.get("after"),
        )


@dataclass(frozen=True)
class State:
    """The session's state document: every row the episode changed (``changes``), and where it stands."""

    episode_id: str
    step_count: int
    call_count: int
    seed: int
    world: Json
    fixture: Optional[Json]
    clock: Json
    task: Optional[str]
    changes: List[Change]
    raw: Json = field(repr=False)

    @classmethod
    def from_json(cls, data: Json) -> "State":
        fixture = data.get("fixture")
        task = data.get("task")
        return cls(
            episode_id=str(data.get("episode_id", "")),
            step_count=int(data.get("step_count", 0)),
            call_count=int(data.get("call_count", 0)),
            seed=int(data.get("seed", 0)),
            world=_obj(data.get("world")),
            fixture=fixture if isinstance(fixture, dict) else None,
            clock=_obj(data.get("clock")),
            task=None if task is None else str(task),
            changes=[Change.from_json(c) for c in data.get("changes", []) if isinstance(c, dict)],
            raw=data,
        )
