"""Train on a Seahaven world with TRL's ``GRPOTrainer(environment_factory=...)``.

::

    from trl import GRPOConfig, GRPOTrainer
    from seahaven_client.trl import environment_class, reward_func, task_dataset

    url = "http://127.0.0.1:8000"
    trainer = GRPOTrainer(
        model="Qwen/Qwen3-0.6B",
        args=GRPOConfig(num_generations=4, max_completion_length=512),
        train_dataset=task_dataset(url, split="crm-basics", repeats=8),
        environment_factory=environment_class(url),
        reward_funcs=reward_func,
    )
    trainer.train()

``environment_class`` gives a class with one method per tool of the world (TRL offers them to the model), a
``reset(**row)`` that starts the row's episode on a private instance and returns its task prompt, and a
``get_reward()`` that grades it. See docs/trl.md.
"""

from __future__ import annotations

import json
import logging
from collections import defaultdict
from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence, Type, Union
from urllib.parse import urlsplit

from ._signature import OMITTED, ToolSignature, build_signature
from ._tasks import check_task_ids, fetch_tasks, tasks_of_split, world_url
from .aio import _tool_outcome
from .errors import ClosedError, ConnectError, SeahavenError, ToolError
from .results import ToolInfo
from .sync import SeahavenClient

__all__ = ["OMITTED", "RESET_KEYS", "SeahavenEnvironment", "environment_class", "reward_func", "task_dataset"]

log = logging.getLogger("seahaven_client.trl")

RESET_KEYS = ("task", "seed", "fixture", "curriculum", "run_id", "group", "group_size", "split", "index")
"""The dataset columns ``reset`` sends to the server; other columns (``prompt``, …) are the trainer's."""

_dumps = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode


class SeahavenEnvironment:
    """One rollout's environment: a session on the server, reset for each episode. ``environment_class`` subclasses it.

    TRL calls every public method of the class a tool, except ``reset`` and ``get_reward``; so the class has no other
    public method or attribute, and a world's tool can have any other name.
    """

    _base_url: str = ""
    _timeout: float = 30.0
    _token: Optional[str] = None
    _reset_options: Dict[str, Any] = {}
    _signatures: Dict[str, ToolSignature] = {}

    def __init__(self) -> None:
        self._session: Optional[SeahavenClient] = None
        self._episode: Any = None
        self._grade: Optional[Dict[str, Any]] = None
        self._lost: Optional[str] = None
        self._reward: Optional[float] = None
        self._counted = False

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self._base_url}>"

    def _client(self) -> SeahavenClient:
        if self._session is None or self._session.closed:
            self._session = SeahavenClient(self._base_url, timeout=self._timeout, token=self._token)
        return self._session

    def reset(self, **row: Any) -> Optional[str]:
        """Start the episode a dataset row names, on a fresh private instance; return its task prompt.

        The row's ``task``, ``seed``, ``fixture``, ``curriculum``, ``run_id``, ``group``, ``group_size``, ``split``
        and ``index`` are sent (``None`` ones are not); other columns are ignored. A session the server ended (idle
        timeout, restart) is replaced by a new one here.
        """
        data = {k: row[k] for k in RESET_KEYS if row.get(k) is not None}
        data.update(self._reset_options)
        self._episode = self._grade = self._reward = self._lost = None
        self._counted = False
        try:
            self._episode = self._client().reset(**data)
        except (ClosedError, ConnectError):
            # The server ended the session (idle timeout) or restarted since the last episode: start a new one.
            if self._session is not None:
                self._session.close()
            self._session = None
            self._episode = self._client().reset(**data)
        task = self._episode.task
        return task.prompt if task is not None else None

    def _call(self, sig: ToolSignature, args: Any, kwargs: Any) -> str:
        arguments = sig.arguments(args, kwargs)
        if self._episode is None or self._session is None:
            raise RuntimeError(f"{sig.tool}() was called before reset(): reset the environment with a dataset row first")
        try:
            step = self._session.step({"type": "call_tool", "tool_name": sig.tool, "arguments": arguments})
        except ClosedError as e:
            self._lost = str(e)
            raise
        result = _tool_outcome(sig.tool, step)  # raises ToolError with the world's code and message
        if step.done and step.reward is not None:
            # The episode's submit tool: the step carries the grade.
            self._reward = float(step.reward)
            self._grade = result if isinstance(result, dict) else {"reward": self._reward}
        return result if isinstance(result, str) else _dumps(result)

    def _graded(self) -> Optional[float]:
        """The episode's reward: submitted now unless it was already; ``None`` when it cannot be graded."""
        if self._reward is not None:
            return self._reward
        if self._episode is None or self._lost is not None:
            if self._lost is not None:
                log.warning("%s: the episode was lost (%s); its reward is None, so the trainer leaves it out", type(self).__name__, self._lost)
            return None
        if self._episode.task is None:
            log.warning("%s: the episode has no task to grade; give the dataset rows a task (or a curriculum)", type(self).__name__)
            return None
        try:
            assert self._session is not None
            step = self._session.step({"type": "submit"})
        except ClosedError as e:
            self._lost = str(e)
            log.warning("%s: the episode was lost (%s); its reward is None, so the trainer leaves it out", type(self).__name__, e)
            return None
        grade = step.observation.get("grade")
        self._grade = grade if isinstance(grade, dict) else {}
        self._reward = float(step.reward if step.reward is not None else self._grade.get("reward", 0.0))
        return self._reward

    def get_reward(self) -> Optional[float]:
        """The episode's graded reward (submitting it if the agent did not). Graded once; later calls return the same.

        Returns ``None`` for an episode the server lost, and once :func:`reward_func` has handed this episode's
        reward to the trainer (TRL also calls ``get_reward`` as a reward of its own, so each episode counts once).
        """
        if self._counted:
            return None
        return self._graded()


def _tool_method(sig: ToolSignature) -> Callable[..., str]:
    def method(self: SeahavenEnvironment, *args: Any, **kwargs: Any) -> str:
        return self._call(sig, (self, *args), kwargs)

    method.__name__ = method.__qualname__ = sig.tool
    method.__doc__ = sig.doc
    method.__signature__ = sig.signature  # type: ignore[attr-defined]
    method.__annotations__ = dict(sig.annotations)
    return method


def _class_name(base_url: str) -> str:
    """``CrmEnvironment`` for ``http://host:8000/crm``, ``SeahavenEnvironment`` for a server's root URL."""
    path = urlsplit(base_url).path.rstrip("/")
    words = "".join(c if c.isalnum() else " " for c in path.rsplit("/", 1)[-1]).split()
    return "".join(w[:1].upper() + w[1:] for w in words or ["Seahaven"]) + "Environment"


def _tools_with_submit(probe: SeahavenClient, base_url: str) -> List[ToolInfo]:
    """The world's tools with the ``submit`` tool, as an episode of the world's first task lists them.

    The server offers ``submit`` only in an episode with a task (it grades the task), so the probe resets one.
    """
    listed = probe.tasks()
    if not listed:
        raise ValueError(f"submit_tool=True needs a world with tasks, and the world at {base_url} lists none (GET /tasks)")
    return probe.reset(task=listed[0].id, submit_tool=True).tools


def environment_class(
    url: str,
    *,
    world: Optional[str] = None,
    tools: Optional[Sequence[str]] = None,
    submit_tool: bool = False,
    timeout: float = 30.0,
    token: Optional[str] = None,
) -> Type[SeahavenEnvironment]:
    """A class for ``GRPOTrainer(environment_factory=...)``: one method per tool of the world at ``url``.

    ``world`` picks one of several served worlds (``url/<world>``); ``tools`` keeps only the tools named. Each method
    has the tool's arguments as keyword-only parameters with type annotations and a docstring describing them; an
    argument not passed is not sent. It returns the result as JSON text, and a failed call raises
    :class:`ToolError` (``"code: message"``), which TRL shows to the model. With ``submit_tool=True`` the episode
    offers the agent a ``submit`` tool that ends it (servers that support the ``submit_tool`` reset option).
    """
    base_url = world_url(url, world)
    options: Dict[str, Any] = {"submit_tool": True} if submit_tool else {}
    with SeahavenClient(base_url, timeout=timeout, token=token) as probe:
        listed: List[ToolInfo] = _tools_with_submit(probe, base_url) if submit_tool else probe.tools()
    by_name = {t.name: t for t in listed}
    if tools is not None:
        missing = [t for t in tools if t not in by_name]
        if missing:
            raise ValueError(f"the world at {base_url} has no tool {', '.join(map(repr, missing))}; its tools are: {', '.join(by_name)}")
        chosen = [by_name[t] for t in tools]
    else:
        chosen = listed
    reserved = {n for n in dir(SeahavenEnvironment) if not n.startswith("_")}
    namespace: Dict[str, Any] = {}
    signatures: Dict[str, ToolSignature] = {}
    for tool in chosen:
        if tool.name in reserved:
            raise ValueError(
                f"the world's tool {tool.name!r} has the name of the environment's own {tool.name!r}, which TRL would not offer "
                f"the model as a tool; leave it out with tools=[...] or rename it in the world"
            )
        if tool.name.startswith("_"):
            raise ValueError(f"the world's tool {tool.name!r} starts with an underscore, which TRL never offers the model; leave it out with tools=[...]")
        sig = build_signature(tool.name, tool.description, tool.input_schema)
        signatures[tool.name] = sig
        namespace[tool.name] = _tool_method(sig)
    namespace.update(
        _base_url=base_url, _timeout=float(timeout), _token=token, _reset_options=options, _signatures=signatures,
        __doc__=f"The tools of the Seahaven world at {base_url}, one method each, for TRL's environment_factory.",
        __module__=__name__,
    )
    return type(_class_name(base_url), (SeahavenEnvironment,), namespace)


def task_dataset(
    url: str,
    tasks: Optional[Sequence[str]] = None,
    split: Optional[str] = None,
    repeats: int = 1,
    *,
    world: Optional[str] = None,
    token: Optional[str] = None,
) -> Union["Any", List[Dict[str, Any]]]:
    """Dataset rows for GRPOTrainer: ``{"prompt": [{"role": "user", "content": ""}], "task", "seed"}``.

    One row per task and repeat (seeds ``0`` to ``repeats - 1``): the ``tasks`` named, else the tasks of ``split``
    (``all``, ``tag:<tag>`` or a curriculum's name), else every task of the world. The user message is empty:
    TRL appends what ``reset`` returns (the task's prompt) to it. A ``datasets.Dataset`` when ``datasets`` is
    installed, else a list of dicts.
    """
    if repeats < 1:
        raise ValueError(f"repeats must be 1 or more, not {repeats!r}")
    base_url = world_url(url, world)
    if tasks is not None:
        ids = list(tasks)
        try:
            listing: Optional[Dict[str, Any]] = fetch_tasks(base_url, token=token)
        except SeahavenError as e:
            if e.code != "NOT_FOUND":
                raise
            listing = None  # a server that lists no tasks still plays the ones named
        if listing is not None:
            check_task_ids(listing, ids)
    else:
        listing = fetch_tasks(base_url, token=token)
        chosen = tasks_of_split(listing, split) if split is not None else listing["tasks"]
        ids = [str(t.get("id")) for t in chosen if isinstance(t, dict)]
    rows = [{"prompt": [{"role": "user", "content": ""}], "task": task, "seed": seed} for task in ids for seed in range(repeats)]
    try:
        from datasets import Dataset
    except ImportError:
        return rows
    return Dataset.from_list(rows)


def _metric_key(criterion: Dict[str, Any]) -> Optional[str]:
    key = criterion.get("id", criterion.get("name"))
    return str(key) if key not in (None, "") else None


def reward_func(environments: Iterable[Any] = (), log_metric: Optional[Callable[[str, float], None]] = None, **kwargs: Any) -> List[Optional[float]]:
    """A GRPOTrainer reward function: each environment's graded reward, unchanged; ``None`` for a lost episode.

    It logs ``seahaven/pass_rate`` and ``seahaven/criteria/<id>`` (each criterion's mean score) through TRL's
    ``log_metric``. The environments' own ``get_reward`` then returns ``None``, so TRL counts each reward once.
    """
    rewards: List[Optional[float]] = []
    passed: List[float] = []
    scores: Dict[str, List[float]] = defaultdict(list)
    for env in environments:
        if not isinstance(env, SeahavenEnvironment):
            rewards.append(None)
            continue
        reward = env._graded()
        env._counted = True
        rewards.append(reward)
        if reward is None:
            continue
        grade = env._grade or {}
        passed.append(1.0 if grade.get("passed", reward >= 1.0) else 0.0)
        for c in grade.get("criteria") or []:
            key = _metric_key(c) if isinstance(c, dict) else None
            if key is not None and isinstance(c.get("score"), (int, float)):
                scores[key].append(float(c["score"]))
    if log_metric is not None and passed:
        log_metric("seahaven/pass_rate", sum(passed) / len(passed))
        for key, values in scores.items():
            log_metric(f"seahaven/criteria/{key}", sum(values) / len(values))
    return rewards
