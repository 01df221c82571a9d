"""Reading a server's task list (``GET /tasks``) and picking a split's tasks from it, for dataset builders."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from typing import Any, Dict, List, Mapping, Optional, Sequence

from .errors import ConnectError, ProtocolError

__all__ = ["world_url", "fetch_tasks", "tasks_of_split"]


def world_url(url: str, world: Optional[str]) -> str:
    """The base URL of ``world`` on the server at ``url`` (``url`` itself when ``world`` is not given)."""
    url = url.rstrip("/")
    return f"{url}/{world}" if world else url


def fetch_tasks(url: str, *, token: Optional[str] = None, timeout: float = 30.0) -> Dict[str, Any]:
    """``GET <url>/tasks``: ``{"tasks": [{"id", "prompt", "tags", "stages", …}], "splits": [{"name", "num_tasks"}]}``."""
    request = urllib.request.Request(f"{url.rstrip('/')}/tasks", headers={"accept": "application/json"})
    if token is not None:
        request.add_header("Authorization", f"Bearer {token}")
    # A Seahaven server is nearly always local: the environment's proxy settings are for the internet.
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    try:
        with opener.open(request, timeout=timeout) as response:
            body = json.loads(response.read().decode("utf-8"))
    except urllib.error.HTTPError as e:
        if e.code == 404:
            raise ProtocolError(
                "NOT_FOUND",
                f"{url}/tasks answered 404: this server does not list its tasks; name them with tasks=[...], or serve the world with a newer `seahaven serve`",
            ) from None
        raise ProtocolError(f"HTTP_{e.code}", f"{url}/tasks answered HTTP {e.code}") from None
    except (urllib.error.URLError, OSError) as e:
        reason = getattr(e, "reason", e)
        raise ConnectError(url, f"cannot read {url}/tasks: {reason}; is a Seahaven server running there? Start one with `npx seahaven serve`") from None
    if not isinstance(body, dict) or not isinstance(body.get("tasks"), list):
        raise ProtocolError("INVALID_REPLY", f"{url}/tasks did not answer with {{\"tasks\": [...]}}")
    return body


def tasks_of_split(listing: Mapping[str, Any], split: str) -> List[Dict[str, Any]]:
    """The tasks of a split: ``all``, ``tag:<tag>``, or a curriculum's name (its tasks in stage order)."""
    tasks = [t for t in listing.get("tasks", []) if isinstance(t, dict)]
    if split == "all":
        return tasks
    if split.startswith("tag:"):
        tag = split[len("tag:"):]
        chosen = [t for t in tasks if tag in (t.get("tags") or [])]
    else:
        chosen = [t for t in tasks if any(isinstance(s, dict) and s.get("curriculum") == split for s in t.get("stages") or [])]
    if not chosen:
        names = ", ".join(str(s.get("name")) for s in listing.get("splits", []) if isinstance(s, dict)) or "all"
        raise ValueError(f"no tasks in split {split!r}; the server's splits are: {names}")
    return chosen


def check_task_ids(listing: Mapping[str, Any], wanted: Sequence[str]) -> None:
    known = [str(t.get("id")) for t in listing.get("tasks", []) if isinstance(t, dict)]
    unknown = [t for t in wanted if t not in known]
    if unknown:
        raise ValueError(f"unknown task(s) {', '.join(map(repr, unknown))}; the world's tasks are: {', '.join(known)}")
