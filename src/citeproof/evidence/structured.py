"""Structured evidence: configs, env metadata, the pattern database, JIRA exports, inv_context.json.

Each file is parsed at most once per run (JSON with orjson, YAML with ``yaml.safe_load``, TOML with
``tomllib``, INI/properties with ``configparser``). A file that does not parse is not an error of the
run: the citation that needs it reports the parser's message, with its position.

Key paths (``integration.timeout_ms``, ``servers[0].host``, ``a."dotted.key".b``, ``a['x.y']``) are
resolved segment by segment; a mapping that holds a literal dotted key (``demisto.version: 8.9``) is
matched too, longest key first.
"""

from __future__ import annotations

import configparser
import re
import tomllib
from dataclasses import dataclass
from typing import Any

import orjson

from ..config import yaml_problem
from .access import UnreadableEvidence
from .bundle import Bundle, EvidenceFile, FileKind

MAX_STRUCTURED_BYTES = 64 * 1024 * 1024
MAX_DEPTH = 100  # deeper JSON/YAML/TOML is refused: real configs, tickets and contexts nest a dozen levels


def too_deep(data: Any, limit: int = MAX_DEPTH) -> bool:
    """Whether ``data`` nests lists and mappings more than ``limit`` levels (checked without recursion)."""
    stack: list[tuple[Any, int]] = [(data, 0)]
    while stack:
        value, depth = stack.pop()
        if depth > limit:
            return True
        if isinstance(value, dict):
            stack.extend((v, depth + 1) for v in value.values())
        elif isinstance(value, list | tuple):
            stack.extend((v, depth + 1) for v in value)
    return False


@dataclass(frozen=True)
class Loaded:
    data: Any = None
    error: str | None = None


def load(bundle: Bundle, file: EvidenceFile) -> Loaded:
    return bundle.memo(("structured", file.rel), lambda: _load(file, bundle))  # type: ignore[no-any-return]


def _load(file: EvidenceFile, bundle: Bundle) -> Loaded:
    try:
        loaded = _parse(file, bundle)
    except RecursionError:
        return Loaded(error=f"{file.rel} is nested too deeply to read (more than {MAX_DEPTH} levels)")
    if loaded.error is None and too_deep(loaded.data):
        return Loaded(error=f"{file.rel} is nested too deeply to read (more than {MAX_DEPTH} levels)")
    return loaded


def _parse(file: EvidenceFile, bundle: Bundle) -> Loaded:
    import yaml

    if file.size > MAX_STRUCTURED_BYTES:
        return Loaded(error=f"{file.rel} is too large to load as structured data ({file.size} bytes)")
    try:
        raw = bundle.read_bytes(file, MAX_STRUCTURED_BYTES + 1)
    except UnreadableEvidence as exc:
        return Loaded(error=f"{exc.rel} {exc.reason}")
    if len(raw) > MAX_STRUCTURED_BYTES:
        return Loaded(error=f"{file.rel} is too large to load as structured data (it grew past {MAX_STRUCTURED_BYTES} bytes)")
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    text = raw.decode("utf-8", errors="replace")
    suffix = file.path.suffix.lower()
    try:
        if file.kind is FileKind.ENV and not text.lstrip().startswith("{"):
            return Loaded(parse_env(text))
        if suffix in (".yaml", ".yml"):
            return Loaded(yaml.safe_load(text))
        if suffix == ".toml":
            return Loaded(tomllib.loads(text))
        if suffix in (".cfg", ".conf") and _looks_like_yaml(text):
            return Loaded(yaml.safe_load(text))  # mongod.conf, netplan, many daemons: YAML under a .conf name
        if suffix in (".ini", ".cfg", ".conf", ".properties") and not text.lstrip().startswith("{"):
            return Loaded(_parse_ini(text))
        if suffix != ".json" and not text.lstrip().startswith(("{", "[")):
            return Loaded(_parse_ini(text))
        try:
            return Loaded(orjson.loads(raw))
        except orjson.JSONDecodeError:
            if suffix == ".json" or not text.lstrip().startswith("["):
                raise
            return Loaded(_parse_ini(text))
    except orjson.JSONDecodeError as exc:
        return Loaded(error=f"{file.rel} is not valid JSON: {exc}")
    except yaml.YAMLError as exc:
        return Loaded(error=f"{file.rel} is not valid YAML: {yaml_problem(exc)}")
    except tomllib.TOMLDecodeError as exc:
        return Loaded(error=f"{file.rel} is not valid TOML: {exc}")
    except configparser.Error as exc:
        return Loaded(error=f"{file.rel} is not a valid INI file: {' '.join(str(exc).split())}")


_YAML_KEY = re.compile(r"^\s*[A-Za-z_][\w.\-]*:(?:\s|$)", re.M)
_ASSIGNMENT = re.compile(r"^\s*[A-Za-z_][\w.\-]*\s*=", re.M)
_SECTION = re.compile(r"^\s*\[[^\]]+\]\s*$", re.M)


def _looks_like_yaml(text: str) -> bool:
    """``key:`` lines, some of them nested, and no ``key = value`` assignments or ``[section]`` headers."""
    return (len(_YAML_KEY.findall(text)) >= 2 and bool(re.search(r"^\s+[A-Za-z_][\w.\-]*:", text, re.M))
            and not _ASSIGNMENT.search(text) and not _SECTION.search(text))


_FLAT_LINE = re.compile(r"^\s*([A-Za-z_][\w.\-]*)\s*=\s*('[^']*'|\"[^\"]*\"|[^#;]*?)\s*(?:[#;].*)?$")


def _parse_flat(text: str) -> dict[str, Any]:
    """A flat ``key = value`` file without sections (postgresql.conf, sysctl.conf): assignments only, comments and
    directives such as ``include 'other.conf'`` skipped, quotes removed."""
    out: dict[str, Any] = {}
    for line in text.splitlines():
        m = _FLAT_LINE.match(line)
        if m:
            out[m.group(1)] = m.group(2).strip("'\"")
    return out


def _parse_ini(text: str) -> dict[str, Any]:
    parser = configparser.ConfigParser(interpolation=None, strict=False)
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    if not re.search(r"^\s*\[", text, re.M):
        try:
            parser.read_string("[__root__]\n" + text)
        except configparser.Error:
            return _parse_flat(text)
        return dict(parser.items("__root__"))
    parser.read_string(text)
    out: dict[str, Any] = {}
    for section in parser.sections():
        values = dict(parser.items(section))
        if section == "__root__":
            out.update(values)
        else:
            out[section] = values
    return out


_ENV_LINE = re.compile(r"^\s*([A-Za-z_][\w.\- ]*?)\s*[:=]\s*(.*?)\s*$")


def parse_env(text: str) -> dict[str, str]:
    """``key: value`` / ``key=value`` lines (``#`` comments ignored) -> a flat mapping."""
    out: dict[str, str] = {}
    for line in text.splitlines():
        if not line.strip() or line.lstrip().startswith(("#", ";", "//")):
            continue
        m = _ENV_LINE.match(line)
        if m:
            out.setdefault(m.group(1).strip(), m.group(2).strip().strip("'\""))
    return out


# -- key paths ---------------------------------------------------------------------------------
_SEGMENT = re.compile(r"""\[\s*(\d+)\s*\]|\[\s*(['"])(.*?)\2\s*\]|"([^"]*)"|'([^']*)'|([^.\[\]"']+)""")


def split_key_path(path: str) -> list[str | int]:
    """``a.b[0]."c.d"`` -> ``['a', 'b', 0, 'c.d']``."""
    parts: list[str | int] = []
    for m in _SEGMENT.finditer(path):
        if m.group(1) is not None:
            parts.append(int(m.group(1)))
        else:
            parts.append(m.group(3) if m.group(3) is not None else m.group(4) or m.group(5) or m.group(6))
    return parts


_MISSING = object()


def lookup(data: Any, path: str) -> tuple[bool, Any, str]:
    """Resolve a key path; returns (found, value, how far it got when not found)."""
    parts = split_key_path(path)
    if not parts:
        return False, None, "empty key path"
    value = _walk(data, parts)
    if value is _MISSING:
        return False, None, _deepest(data, parts)
    return True, value, ""


def _walk(node: Any, parts: list[str | int]) -> Any:
    if not parts:
        return node
    head = parts[0]
    if isinstance(head, str) and head.isdigit() and isinstance(node, list):
        head = int(head)  # "containerDefinitions.0.memory" indexes the list as "containerDefinitions[0].memory" does
    if isinstance(head, int):
        if isinstance(node, list) and -len(node) <= head < len(node):
            return _walk(node[head], parts[1:])
        return _MISSING
    if not isinstance(node, dict):
        return _MISSING
    # longest literal dotted key first: {"demisto.version": ...}
    for n in range(len(parts), 0, -1):
        chunk = parts[:n]
        if not all(isinstance(p, str) for p in chunk):
            continue
        key = ".".join(str(p) for p in chunk)
        for candidate in (key, *_case_variants(node, key)):
            if candidate in node:
                found = _walk(node[candidate], parts[n:])
                if found is not _MISSING:
                    return found
    return _MISSING


def _case_variants(node: dict[Any, Any], key: str) -> list[Any]:
    low = key.lower()
    return [k for k in node if isinstance(k, str) and k.lower() == low and k != key]


def _deepest(data: Any, parts: list[str | int]) -> str:
    node = data
    done: list[str] = []
    for part in parts:
        nxt = _walk(node, [part])
        if nxt is _MISSING:
            label = ".".join(done) or "the top level"
            if isinstance(node, dict):
                keys = ", ".join(sorted(str(k) for k in node)[:8])
                return f"'{part}' not found under {label} (keys there: {keys})"
            return f"'{part}' not found under {label} (it is a {type(node).__name__})"
        node = nxt
        done.append(str(part))
    return "not found"


def flatten_text(value: Any, limit: int = 200_000) -> str:
    """All string leaves of a JSON-like value, joined (ADF ``text`` nodes included)."""
    out: list[str] = []
    size = 0
    stack = [value]
    while stack and size < limit:
        node = stack.pop()
        if isinstance(node, str):
            out.append(node)
            size += len(node)
        elif isinstance(node, dict):
            stack.extend(reversed(list(node.values())))
        elif isinstance(node, list):
            stack.extend(reversed(node))
        elif node is not None and not isinstance(node, bool):
            out.append(str(node))
    return " ".join(out)


# -- typed views over the bundle ----------------------------------------------------------------
def environment(bundle: Bundle) -> tuple[dict[str, tuple[str, str]], bool | None]:
    """Environment keys -> (value, source file) from env files and inv_context.json.

    Returns the mapping and the context's ``environment.confirmed`` flag (None when absent).
    """

    def build() -> tuple[dict[str, tuple[str, str]], bool | None]:
        env: dict[str, tuple[str, str]] = {}
        confirmed: bool | None = None
        for f in sorted(bundle.of_kind(FileKind.ENV), key=lambda f: f.rel):
            loaded = load(bundle, f)
            if isinstance(loaded.data, dict):
                for k, v in _flat(loaded.data).items():
                    env.setdefault(k, (v, f.rel))
        for f in sorted(bundle.of_kind(FileKind.CONTEXT), key=lambda f: f.rel):
            loaded = load(bundle, f)
            if isinstance(loaded.data, dict) and isinstance(loaded.data.get("environment"), dict):
                block = loaded.data["environment"]
                if "confirmed" in block:
                    confirmed = block.get("confirmed") is True
                for k, v in _flat(block).items():
                    if k != "confirmed":
                        env.setdefault(k, (v, f.rel))
        return env, confirmed

    return bundle.memo(("env", ""), build)  # type: ignore[no-any-return]


def _flat(data: dict[str, Any], prefix: str = "") -> dict[str, str]:
    out: dict[str, str] = {}
    for k, v in data.items():
        key = f"{prefix}{k}"
        if isinstance(v, dict):
            out.update(_flat(v, key + "."))
        elif isinstance(v, list):
            out[key] = ", ".join(str(x) for x in v)
        elif v is not None:
            out[key] = str(v).lower() if isinstance(v, bool) else str(v)
    return out


def patterns(bundle: Bundle) -> dict[str, tuple[dict[str, Any], str]]:
    """Pattern id -> (pattern record, source file) from every pattern database in the bundle."""

    def build() -> dict[str, tuple[dict[str, Any], str]]:
        out: dict[str, tuple[dict[str, Any], str]] = {}
        for f in sorted(bundle.of_kind(FileKind.PATTERNS), key=lambda f: f.rel):
            loaded = load(bundle, f)
            if isinstance(loaded.data, dict):
                for p in loaded.data.get("patterns") or []:
                    if isinstance(p, dict) and "id" in p:
                        out.setdefault(str(p["id"]).strip(), (p, f.rel))
        return out

    return bundle.memo(("patterns", ""), build)  # type: ignore[no-any-return]


def jira_issues(bundle: Bundle) -> dict[str, tuple[dict[str, Any], str]]:
    """JIRA key -> (issue JSON, source file) from every JIRA export in the bundle."""

    def build() -> dict[str, tuple[dict[str, Any], str]]:
        out: dict[str, tuple[dict[str, Any], str]] = {}
        for f in sorted(bundle.of_kind(FileKind.JIRA), key=lambda f: f.rel):
            data = load(bundle, f).data
            items = data.get("issues") if isinstance(data, dict) and "issues" in data else [data]
            for issue in items or []:
                if isinstance(issue, dict) and isinstance(issue.get("key"), str):
                    out.setdefault(issue["key"].upper(), (issue, f.rel))
        return out

    return bundle.memo(("jira", ""), build)  # type: ignore[no-any-return]


def issue_fields(issue: dict[str, Any]) -> dict[str, Any]:
    """A JIRA issue's ``fields`` object; empty when an export gives none or something else (``"fields": true``)."""
    fields = issue.get("fields")
    return fields if isinstance(fields, dict) else {}


def jira_text(issue: dict[str, Any]) -> str:
    """Summary, description and comment bodies of a JIRA issue (ADF flattened)."""
    fields = issue_fields(issue)
    parts = [str(issue.get("key", "")), flatten_text(fields.get("summary")), flatten_text(fields.get("description"))]
    comment = fields.get("comment")
    comments = comment.get("comments") if isinstance(comment, dict) else None
    for c in comments or []:
        if isinstance(c, dict):
            parts.append(flatten_text(c.get("body")))
    for name in ("status", "issuetype", "priority", "resolution", "assignee", "reporter"):
        value = fields.get(name)
        if isinstance(value, dict):
            value = value.get("name") or value.get("displayName")
        if value:
            parts.append(f"{name} {value}")
    for name in ("created", "updated", "resolutiondate", "duedate"):
        if fields.get(name):
            parts.append(f"{name} {fields[name]}")
    parts.extend(_field_phrases(fields))
    return " ".join(p for p in parts if p)


def _names(value: Any) -> list[str]:
    items = value if isinstance(value, list) else [value]
    out = []
    for item in items:
        if isinstance(item, dict):
            item = item.get("name") or item.get("displayName") or item.get("value") or item.get("key")
        if item not in (None, ""):
            out.append(str(item))
    return out


def _field_phrases(fields: dict[str, Any]) -> list[str]:
    """The ticket's other fields as a person reads them, each a phrase of its own: "project Team Argon (AR)",
    "assigned to Mister Morris", "fix versions: none", "components: Jamflam, Jammy", "watchers: 2", "comments: 0".
    A list field that is present and empty says "none", so "no fix version was set" is read against it."""
    out: list[str] = []
    project = fields.get("project")
    if isinstance(project, dict) and (project.get("name") or project.get("key")):
        out.append(f"project {project.get('name') or ''} ({project.get('key') or ''}).")
    for name, phrase in (("assignee", "assigned to"), ("reporter", "reported by"), ("creator", "created by")):
        value = fields.get(name)
        if isinstance(value, dict):
            who = [str(v) for v in (value.get("displayName"), value.get("name")) if v]
            if who:
                out.append(f"{phrase} {' '.join(dict.fromkeys(who))}.")
    if fields.get("resolutiondate"):
        out.append(f"resolved {fields['resolutiondate']}.")
    for name, phrase in (("components", "components"), ("fixVersions", "fix versions"), ("versions", "affects versions"),
                         ("labels", "labels")):
        if name in fields and isinstance(fields[name], list):
            out.append(f"{phrase}: {', '.join(_names(fields[name])) or 'none'}.")
    watches = fields.get("watches")
    if isinstance(watches, dict) and isinstance(watches.get("watchCount"), int):
        out.append(f"watchers: {watches['watchCount']}.")
    votes = fields.get("votes")
    if isinstance(votes, dict) and isinstance(votes.get("votes"), int):
        out.append(f"votes: {votes['votes']}.")
    comment = fields.get("comment")
    if isinstance(comment, dict) and isinstance(comment.get("comments"), list):
        out.append(f"comments: {len(comment['comments']) or 'none'}.")
    if "timespent" in fields or "worklog" in fields:
        spent = fields.get("timespent")
        out.append(f"logged work: {spent if isinstance(spent, int) and spent > 0 else 'none'}.")
    return out
