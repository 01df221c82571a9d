"""Seahaven's Python client: play worlds served by ``seahaven serve`` (OpenEnv over WebSocket), blocking or asyncio.

One client is one WebSocket session with its own private instance of the world::

    from seahaven_client import SeahavenClient

    with SeahavenClient(base_url="http://127.0.0.1:8000") as env:
        env.reset(task="add_lead", seed=1)
        env.call("create_contact", name="Ada Lovelace", email="ada@example.com")
        print(env.state().changes, env.submit().reward)

``AsyncSeahavenClient`` has the same methods as coroutines. See docs/python-client.md.
"""

from ._transport import WEBSOCKETS_VERSION, ws_url_of
from .aio import DEFAULT_URL, AsyncSeahavenClient
from .errors import ClosedError, ConnectError, ProtocolError, RequestTimeout, SeahavenError, ToolError
from .results import Change, Criterion, Grade, Json, ResetResult, State, StepResult, SubmitResult, Task, TaskInfo, ToolInfo
from .sync import SeahavenClient

__version__ = "0.1.0"

__all__ = [
    "AsyncSeahavenClient",
    "SeahavenClient",
    "DEFAULT_URL",
    "WEBSOCKETS_VERSION",
    "ws_url_of",
    "SeahavenError",
    "ConnectError",
    "ProtocolError",
    "RequestTimeout",
    "ClosedError",
    "ToolError",
    "Change",
    "Criterion",
    "Grade",
    "Json",
    "ResetResult",
    "State",
    "StepResult",
    "SubmitResult",
    "Task",
    "TaskInfo",
    "ToolInfo",
]
