"""Live JIRA lookups over REST, opt-in: ``--jira-url URL`` (or ``jira_url`` in the config file).

Offline exports in the bundle are always consulted first; a ticket that is not exported is fetched
from ``GET {jira_url}/rest/api/{2|3}/issue/{KEY}`` (``jira_api_version``, default 2). REST v3 returns
``description`` and comment bodies as Atlassian Document Format trees; they are flattened to plain
text (``text`` nodes, mentions, emoji, dates, block breaks), so v2 and v3 issues read the same.

Credentials come only from the environment and are never printed, logged or put in an error:

=========================================  =====================================================
``JIRA_EMAIL`` + ``JIRA_API_TOKEN``        Jira Cloud: basic auth ``email:api_token``
``JIRA_PERSONAL_TOKEN`` (or ``JIRA_API_TOKEN``)  Server / Data Center: ``Authorization: Bearer``
neither                                    anonymous (public instances)
=========================================  =====================================================

The ``Authorization`` header is never forwarded on a redirect. Each request has a timeout
(``jira_timeout_s``, default 10 s); timeouts, connection errors, 429 and 5xx answers are retried
``jira_retries`` times (default 2) with a short exponential backoff (``Retry-After`` honoured up to
5 s). A 404 means "no such ticket"; 401/403 and exhausted retries are a :class:`JiraError` whose
message names the status and the issue URL, not the token. Results are cached per run (one
:class:`JiraClient` per validation run), so a ticket cited ten times is fetched once.

    >>> client = JiraClient("https://jira.example.com", env={"JIRA_PERSONAL_TOKEN": "..."})
    >>> client.issue("XSUP-48213")          # -> dict (v2 shape), None when JIRA answers 404
"""

from __future__ import annotations

import base64
import contextlib
import http.client
import json
import os
import re
import socket
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Mapping
from typing import Any

from ..errors import CiteproofError
from .structured import MAX_DEPTH, too_deep

USER_AGENT = "citeproof-jira/1"
MAX_BODY_BYTES = 16 * 1024 * 1024
_KEY = re.compile(r"^[A-Z][A-Z0-9]+-\d+$")
_BLOCKS = {"paragraph", "heading", "blockquote", "codeBlock", "listItem", "tableRow", "panel", "rule", "mediaSingle"}


class JiraError(CiteproofError):
    """A live JIRA lookup failed (authentication, server error, timeout)."""

    code = "EG010"


def adf_text(node: Any) -> str:
    """Plain text of an Atlassian Document Format tree (a str is returned as it is)."""
    if isinstance(node, str):
        return node
    out: list[str] = []
    _adf(node, out)
    return re.sub(r"[ \t]*\n[ \t\n]*", "\n", "".join(out)).strip()


def _adf(node: Any, out: list[str]) -> None:
    if isinstance(node, list):
        for child in node:
            _adf(child, out)
        return
    if not isinstance(node, dict):
        return
    kind = node.get("type")
    raw = node.get("attrs")
    attrs: dict[str, Any] = raw if isinstance(raw, dict) else {}
    if kind == "text" and isinstance(node.get("text"), str):
        out.append(node["text"])
    elif kind in ("mention", "emoji", "status") and attrs:
        out.append(str(attrs.get("text") or attrs.get("shortName") or ""))
    elif kind == "hardBreak":
        out.append("\n")
    elif kind == "inlineCard" and attrs.get("url"):
        out.append(str(attrs["url"]))
    _adf(node.get("content"), out)
    if kind in _BLOCKS:
        out.append("\n")


def to_v2(issue: dict[str, Any]) -> dict[str, Any]:
    """The issue with its ADF description and comment bodies flattened to strings."""
    fields = dict(issue.get("fields") or {})
    if isinstance(fields.get("description"), dict):
        fields["description"] = adf_text(fields["description"])
    comment = fields.get("comment")
    if isinstance(comment, dict) and isinstance(comment.get("comments"), list):
        comments = [{**c, "body": adf_text(c.get("body"))} if isinstance(c, dict) else c for c in comment["comments"]]
        fields["comment"] = {**comment, "comments": comments}
    return {**issue, "fields": fields}


def redact(url: str) -> str:
    """``url`` without any ``user:password@`` part, for messages."""
    parts = urllib.parse.urlsplit(url)
    host = parts.hostname or ""
    netloc = f"{host}:{parts.port}" if parts.port else host
    return urllib.parse.urlunsplit((parts.scheme, netloc, parts.path, parts.query, ""))


class _NoAuthRedirects(urllib.request.HTTPRedirectHandler):
    """Follow redirects but never to another scheme than http(s)."""

    def redirect_request(self, req: urllib.request.Request, fp: Any, code: int, msg: str, headers: Any,
                         newurl: str) -> urllib.request.Request | None:
        if urllib.parse.urlsplit(newurl).scheme not in ("http", "https"):
            return None
        return super().redirect_request(req, fp, code, msg, headers, newurl)


class _Sockets:
    """The sockets of the requests in flight, so a deadline can shut them whatever they are waiting for."""

    def __init__(self) -> None:
        self.open: list[socket.socket] = []
        self.lock = threading.Lock()

    def shut(self) -> None:
        with self.lock:
            for sock in self.open:
                with contextlib.suppress(OSError):
                    sock.shutdown(socket.SHUT_RDWR)


def _handlers(sockets: _Sockets) -> list[urllib.request.BaseHandler]:
    """HTTP and HTTPS handlers whose connections register their socket in ``sockets``."""

    class _Http(http.client.HTTPConnection):
        def connect(self) -> None:
            super().connect()
            with sockets.lock:
                sockets.open.append(self.sock)

    class _Https(http.client.HTTPSConnection):
        def connect(self) -> None:
            super().connect()
            with sockets.lock:
                sockets.open.append(self.sock)

    class _HttpHandler(urllib.request.HTTPHandler):
        def http_open(self, req: urllib.request.Request) -> Any:
            return self.do_open(_Http, req)

    class _HttpsHandler(urllib.request.HTTPSHandler):
        def https_open(self, req: urllib.request.Request) -> Any:
            return self.do_open(_Https, req, context=self._context)  # type: ignore[attr-defined]

    return [_HttpHandler(), _HttpsHandler()]


class JiraClient:
    """Fetches issues from one JIRA base URL; caches every answer (including "not found").

    Each request has one deadline, ``timeout_s``, for everything (connect, headers, body): a server that drips a
    byte every few seconds is cut off when it passes. The client has one more for all its requests together,
    ``run_timeout_s`` (default 100 s, inside the Claude Code hook's 120 s); past it, no more tickets are fetched."""

    def __init__(self, base_url: str, *, api_version: int = 2, timeout_s: float = 10.0, retries: int = 2,
                 backoff_s: float = 0.5, env: Mapping[str, str] | None = None, run_timeout_s: float = 100.0) -> None:
        parts = urllib.parse.urlsplit(base_url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise JiraError(f"JIRA URL must be http:// or https://, not '{redact(base_url)}'")
        if parts.username or parts.password:
            raise JiraError("the JIRA URL must not hold credentials: set JIRA_EMAIL + JIRA_API_TOKEN or JIRA_PERSONAL_TOKEN")
        self.base_url = base_url.rstrip("/")
        self.api_version = api_version
        self.timeout_s = timeout_s
        self.retries = retries
        self.backoff_s = backoff_s
        self.__auth = _auth_header(os.environ if env is None else env)
        self._cache: dict[str, dict[str, Any] | None] = {}
        self._sockets = _Sockets()
        self._opener = urllib.request.build_opener(_NoAuthRedirects(), *_handlers(self._sockets))
        self.run_timeout_s = run_timeout_s
        self._run_ends = time.monotonic() + run_timeout_s

    def __repr__(self) -> str:
        auth = "with credentials" if self.__auth else "anonymous"
        return f"JiraClient({redact(self.base_url)!r}, v{self.api_version}, {auth})"

    @property
    def authenticated(self) -> bool:
        return self.__auth is not None

    def browse_url(self, key: str) -> str:
        return f"{redact(self.base_url)}/browse/{key}"

    def issue(self, key: str) -> dict[str, Any] | None:
        """The issue as a v2-shaped dict, or None when JIRA has no such issue (404)."""
        key = key.upper()
        if not _KEY.match(key):
            raise JiraError(f"'{key}' is not a JIRA key")
        if key not in self._cache:
            self._cache[key] = self._fetch(key)
        return self._cache[key]

    def _fetch(self, key: str) -> dict[str, Any] | None:
        url = f"{self.base_url}/rest/api/{self.api_version}/issue/{urllib.parse.quote(key)}"
        shown = redact(url)
        for attempt in range(self.retries + 1):
            tries = f" after {attempt + 1} tries" if attempt else ""
            if time.monotonic() >= self._run_ends:
                raise JiraError(f"JIRA lookups took longer than {self.run_timeout_s:g} s in all; {shown} not fetched")
            try:
                return _parse(self._get(url), shown)
            except urllib.error.HTTPError as exc:
                exc.close()
                if exc.code == 404:
                    return None
                if exc.code in (401, 403):
                    raise JiraError(f"JIRA refused {shown}: HTTP {exc.code} (check JIRA_EMAIL + JIRA_API_TOKEN, "
                                    "or JIRA_PERSONAL_TOKEN)") from None
                if (exc.code != 429 and exc.code < 500) or attempt == self.retries:
                    raise JiraError(f"JIRA answered HTTP {exc.code} for {shown}{tries}") from None
                self._sleep(attempt, exc.headers.get("Retry-After") if exc.headers else None)
            except (TimeoutError, urllib.error.URLError, ConnectionError, http.client.HTTPException) as exc:
                if attempt == self.retries:
                    raise JiraError(f"cannot reach JIRA at {shown}{tries}: {_why(exc)}") from None
                self._sleep(attempt, None)
        raise AssertionError("unreachable")  # pragma: no cover

    def _get(self, url: str) -> bytes:
        request = urllib.request.Request(url, headers={"Accept": "application/json", "User-Agent": USER_AGENT})
        if self.__auth:
            request.add_unredirected_header("Authorization", self.__auth)  # never sent on to a redirect target
        budget = max(0.001, min(self.timeout_s, self._run_ends - time.monotonic()))
        ends = time.monotonic() + budget
        fired = threading.Event()

        def deadline() -> None:  # shut the socket whatever it waits for: connect, headers or a dripping body
            fired.set()
            self._sockets.shut()

        timer = threading.Timer(budget, deadline)
        timer.daemon = True
        timer.start()
        try:
            with self._opener.open(request, timeout=budget) as response:
                chunks: list[bytes] = []
                size = 0
                while size <= MAX_BODY_BYTES:
                    chunk = response.read1(65536) if hasattr(response, "read1") else response.read(65536)
                    if not chunk:
                        break
                    chunks.append(chunk)
                    size += len(chunk)
                    if time.monotonic() > ends:
                        raise TimeoutError(f"no complete answer within {budget:.3g} s")
            if fired.is_set():  # the shut socket read as the end of the answer: a cut-off body, not an answer
                raise TimeoutError(f"no complete answer within {budget:.3g} s")
        except (OSError, http.client.HTTPException) as exc:
            if (fired.is_set() or time.monotonic() >= ends) and not isinstance(exc, urllib.error.HTTPError):
                raise TimeoutError(f"no complete answer within {budget:.3g} s") from None
            raise
        finally:
            timer.cancel()
            with self._sockets.lock:
                self._sockets.open.clear()
        return b"".join(chunks)

    def _sleep(self, attempt: int, retry_after: str | None) -> None:
        delay = self.backoff_s * (2**attempt)
        if retry_after and retry_after.strip().isdigit():
            delay = max(delay, min(float(retry_after), 5.0))
        time.sleep(delay)


def _parse(body: bytes, shown: str) -> dict[str, Any]:
    if len(body) > MAX_BODY_BYTES:
        raise JiraError(f"JIRA answer for {shown} is larger than {MAX_BODY_BYTES} bytes")
    try:
        data = json.loads(body.decode("utf-8-sig", errors="replace"))
    except json.JSONDecodeError as exc:
        raise JiraError(f"JIRA answer for {shown} is not JSON ({exc.msg} at line {exc.lineno})") from None
    except RecursionError:
        raise JiraError(f"JIRA answer for {shown} is nested too deeply") from None
    if too_deep(data):
        raise JiraError(f"JIRA answer for {shown} is nested too deeply (more than {MAX_DEPTH} levels)")
    if not isinstance(data, dict) or not isinstance(data.get("key"), str):
        raise JiraError(f"JIRA answer for {shown} is not an issue (no 'key')")
    if not isinstance(data.get("fields", {}), dict | None):
        raise JiraError(f"JIRA answer for {shown} is not an issue ('fields' is not an object)")
    return to_v2(data)


def _why(exc: BaseException) -> str:
    reason = getattr(exc, "reason", exc)
    if isinstance(reason, TimeoutError):
        return "timed out"
    return str(reason) or type(reason).__name__


def _auth_header(env: Mapping[str, str]) -> str | None:
    email, api_token, personal = env.get("JIRA_EMAIL"), env.get("JIRA_API_TOKEN"), env.get("JIRA_PERSONAL_TOKEN")
    if email and api_token:
        return "Basic " + base64.b64encode(f"{email}:{api_token}".encode()).decode("ascii")
    token = personal or api_token
    return f"Bearer {token}" if token else None


__all__ = ["JiraClient", "JiraError", "adf_text", "redact", "to_v2"]
