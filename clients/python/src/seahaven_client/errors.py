"""The exceptions of ``seahaven_client``.

Every exception the client raises is a :class:`SeahavenError` with a ``code``:

- :class:`ConnectError` (``CONNECT``): the server could not be reached, or refused the WebSocket upgrade.
- :class:`ProtocolError`: the server answered a request with an error frame; ``code`` is the server's
  (``VALIDATION_ERROR``, ``CAPACITY_REACHED``, ``UNKNOWN_TYPE``, ``EXECUTION_ERROR``, ...).
- :class:`RequestTimeout` (``TIMEOUT``): no reply within the client's ``timeout``.
- :class:`ClosedError` (``CLOSED``): the connection is closed (by ``close()``, the server, or the network).
- :class:`ToolError`: a tool call failed; ``code``, ``message`` and ``details`` are what the world tells the agent
  (``invalid_arguments``, ``not_found``, ``unknown_tool``, ...).
"""

from __future__ import annotations

from typing import Any, Dict, List, Mapping, Optional

__all__ = [
    "SeahavenError",
    "ConnectError",
    "ProtocolError",
    "RequestTimeout",
    "ClosedError",
    "ToolError",
]


class SeahavenError(Exception):
    """Base class of every error the client raises."""

    code: str
    message: str

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def __str__(self) -> str:
        return f"{self.code}: {self.message}"


class ConnectError(SeahavenError, ConnectionError):
    """The server could not be reached at ``url``, or it refused the WebSocket upgrade (``status``)."""

    url: str
    status: Optional[int]

    def __init__(self, url: str, message: str, status: Optional[int] = None) -> None:
        super().__init__("CONNECT", message)
        self.url = url
        self.status = status


class ProtocolError(SeahavenError):
    """The server refused a request with an error frame ``{"type": "error", "data": {"code", "message", ...}}``.

    ``data`` is the whole frame data; for ``VALIDATION_ERROR`` its pydantic-style ``errors`` list
    (``[{"type", "loc", "msg", "input"}]``) is also in :attr:`errors`.
    """

    data: Dict[str, Any]

    def __init__(self, code: str, message: str, data: Optional[Mapping[str, Any]] = None) -> None:
        super().__init__(code, message)
        self.data = dict(data or {})

    @property
    def errors(self) -> List[Dict[str, Any]]:
        errors = self.data.get("errors")
        return list(errors) if isinstance(errors, list) else []


class RequestTimeout(SeahavenError, TimeoutError):
    """No reply arrived within the client's ``timeout`` (seconds)."""

    def __init__(self, message: str) -> None:
        super().__init__("TIMEOUT", message)


class ClosedError(SeahavenError, ConnectionError):
    """The connection is closed: by ``close()``, by the server (idle timeout, shutdown), or by the network."""

    close_code: Optional[int]
    close_reason: str

    def __init__(self, message: str, close_code: Optional[int] = None, close_reason: str = "") -> None:
        super().__init__("CLOSED", message)
        self.close_code = close_code
        self.close_reason = close_reason


class ToolError(SeahavenError):
    """A tool call failed. The world's agent-facing failure is in ``code``, ``message`` and ``details``.

    ``tool`` is the tool called and ``error_type`` OpenEnv's classification (``tool_not_found``, ``invalid_args``,
    ``execution_error``). The step still counted: the episode goes on.
    """

    tool: str
    details: Optional[Dict[str, Any]]
    error_type: str

    def __init__(
        self,
        tool: str,
        code: str,
        message: str,
        details: Optional[Dict[str, Any]] = None,
        error_type: str = "execution_error",
    ) -> None:
        super().__init__(code, message)
        self.tool = tool
        self.details = details
        self.error_type = error_type
