"""Opening a WebSocket with whichever ``websockets`` is installed.

websockets 13 and later have ``websockets.asyncio.client.connect`` (headers as ``additional_headers``, a refused
upgrade raises ``InvalidStatus``); earlier releases (10.4 is Debian 12's) have ``websockets.client.connect``
(``extra_headers``, ``InvalidStatusCode``). Both are used the same way once open: ``send``, ``async for``,
``close``, ``close_code`` and ``close_reason``.
"""

from __future__ import annotations

import asyncio
import inspect
import json
import urllib.error
import urllib.request
from typing import Any, Dict, Optional, Tuple
from urllib.parse import urlsplit, urlunsplit

import websockets
from websockets.exceptions import InvalidHandshake

try:  # websockets >= 13
    from websockets.asyncio.client import connect as _connect

    _HEADERS_KWARG = "additional_headers"
except ImportError:  # websockets 10 to 12
    from websockets.client import connect as _connect  # type: ignore[no-redef]

    _HEADERS_KWARG = "extra_headers"

from .errors import ConnectError

# websockets 15 and later connect through the proxy that the environment names (HTTPS_PROXY, ...) unless told not to;
# a Seahaven server is nearly always local, and a trainer's proxy settings are for the internet.
try:
    _NO_PROXY: Dict[str, Any] = {"proxy": None} if "proxy" in inspect.signature(_connect).parameters else {}
except (TypeError, ValueError):
    _NO_PROXY = {}

__all__ = ["open_websocket", "ws_url_of", "http_url_of", "get_json", "WEBSOCKETS_VERSION"]

WEBSOCKETS_VERSION: str = getattr(websockets, "__version__", "unknown")

_START_HINT = "is a Seahaven server running there? Start one with `npx seahaven serve` (in the Seahaven repository: `npm start`)"


def ws_url_of(base_url: str) -> str:
    """The WebSocket URL of a base URL: ``http://host:8000`` becomes ``ws://host:8000/ws``; path prefixes are kept."""
    parts = urlsplit(base_url)
    scheme = {"http": "ws", "https": "wss", "ws": "ws", "wss": "wss"}.get(parts.scheme.lower())
    if scheme is None or not parts.netloc:
        raise ConnectError(base_url, f"cannot connect to {base_url!r}: use an http(s):// or ws(s):// URL, like http://127.0.0.1:8000")
    path = parts.path
    if not path.endswith("/ws"):
        path = path.rstrip("/") + "/ws"
    return urlunsplit((scheme, parts.netloc, path, parts.query, ""))


def http_url_of(base_url: str, path: str) -> str:
    """The HTTP URL of ``path`` on the server a base or WebSocket URL names: ``ws://h:8000/crm/ws`` gives ``http://h:8000/crm/<path>``."""
    parts = urlsplit(base_url)
    scheme = {"http": "http", "https": "https", "ws": "http", "wss": "https"}.get(parts.scheme.lower())
    if scheme is None or not parts.netloc:
        raise ConnectError(base_url, f"cannot reach {base_url!r}: use an http(s):// or ws(s):// URL, like http://127.0.0.1:8000")
    prefix = parts.path.rstrip("/")
    if prefix.endswith("/ws"):
        prefix = prefix[: -len("/ws")]
    return urlunsplit((scheme, parts.netloc, prefix + path, "", ""))


# As for the socket: a Seahaven server is nearly always local, so the environment's proxy settings are not used.
_opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def get_json(base_url: str, url: str, headers: Dict[str, str], timeout: float) -> Any:
    """``GET url`` and its JSON body (blocking), or :class:`ConnectError` saying what went wrong and what to do."""
    request = urllib.request.Request(url, headers={"Accept": "application/json", **headers})
    try:
        with _opener.open(request, timeout=timeout) as response:
            return json.loads(response.read().decode("utf-8"))
    except urllib.error.HTTPError as e:
        hint = "; pass token=... (the server was started with --token)" if e.code == 401 else ""
        raise ConnectError(base_url, f"{url} answered HTTP {e.code}{hint}", status=e.code) from e
    except (urllib.error.URLError, OSError) as e:
        reason = getattr(e, "reason", None) or e
        raise ConnectError(base_url, f"cannot reach {url}: {reason}; {_START_HINT}") from e
    except ValueError as e:
        raise ConnectError(base_url, f"{url} did not answer JSON: {e}") from e


def _refusal(exc: BaseException) -> Optional[Tuple[int, Dict[str, str]]]:
    """The HTTP status (and headers) of a refused upgrade, from either generation of websockets' exceptions."""
    response = getattr(exc, "response", None)  # InvalidStatus (websockets >= 13)
    if response is not None and hasattr(response, "status_code"):
        return int(response.status_code), {k.lower(): v for k, v in dict(response.headers).items()}
    status = getattr(exc, "status_code", None)  # InvalidStatusCode (websockets < 13)
    if isinstance(status, int):
        headers = getattr(exc, "headers", None) or {}
        return status, {k.lower(): v for k, v in dict(headers).items()}
    return None


async def open_websocket(base_url: str, ws_url: str, headers: Dict[str, str], timeout: float) -> Any:
    """Open the session's socket, or raise :class:`ConnectError` with what went wrong and what to do."""
    kwargs: Dict[str, Any] = {
        "open_timeout": timeout,
        "max_size": None,  # a big fixture's state document is larger than websockets' 1 MiB default
        "compression": None,  # as the server: no permessage-deflate
        "ping_interval": None,  # the server ends idle sessions itself (--session-timeout)
        **_NO_PROXY,
    }
    if headers:
        kwargs[_HEADERS_KWARG] = headers
    try:
        return await _connect(ws_url, **kwargs)
    except (asyncio.TimeoutError, TimeoutError) as e:
        raise ConnectError(base_url, f"cannot connect to {base_url} ({ws_url}): no answer within {timeout:g} s; {_START_HINT}") from e
    except OSError as e:
        reason = "connection refused" if isinstance(e, ConnectionRefusedError) else (e.strerror or str(e) or type(e).__name__)
        raise ConnectError(base_url, f"cannot connect to {base_url} ({ws_url}): {reason}; {_START_HINT}") from e
    except InvalidHandshake as e:
        refusal = _refusal(e)
        if refusal is None:
            raise ConnectError(base_url, f"cannot connect to {ws_url}: the WebSocket handshake failed ({e})") from e
        status, response_headers = refusal
        hint = ""
        if status == 401:
            hint = "; pass token=... (the server was started with --token)"
        elif status == 403 and "x-seahaven-refused" in response_headers:
            hint = f": {response_headers['x-seahaven-refused']}"
        elif status == 404:
            hint = "; is the path a world the server serves (http://host:port or http://host:port/<world>)?"
        raise ConnectError(base_url, f"{ws_url} answered HTTP {status} instead of upgrading{hint}", status=status) from e
