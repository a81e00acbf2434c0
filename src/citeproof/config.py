"""Options of a validation run.

Every option can be passed to :func:`citeproof.validate` as a keyword, set on the command line,
or put in a configuration file (YAML or TOML, ``--config FILE``; in TOML under
``[tool.citeproof]`` or at the top level).

Without ``--config`` the command line looks for one the way ruff and pytest do: in the current
directory, then each parent up to the file system root, the first directory holding
``citeproof.yaml``, ``citeproof.yml``, ``citeproof.toml`` or a ``pyproject.toml`` with a
``[tool.citeproof]`` table (in that order of preference; a ``pyproject.toml`` without the table is
passed over) wins (:func:`discover_config`). ``citeproof check --help`` says which file that is. The
hook looks from the project directory of its payload. Options on the command line override the file;
relative paths in the file (``context``, ``causal_rules``) are taken from the file's directory::

    threshold: 0.9            # minimum verification rate for PASSED
    har_index_base: 1         # entry-1 is log.entries[0]; 0 makes entry-0 the first
    max_unverified: 3         # disclosed unverified observations allowed before BLOCKED
    assume_tz: UTC            # zone of log timestamps that carry none (UTC or +HH:MM)
    default_time_window_s: 1  # timestamp tolerance when a citation gives none
    jira_projects: [XSUP]     # project keys accepted as bare JIRA keys
    temporal_tolerance_s: 10  # how far apart two claims may put the same event
    causal_rules: rules.json  # extra cause-and-effect rules (same shape as data/causal.json)
    use_cache: true           # keep file indexes in the user cache directory (--no-cache: false)
    archive_max_bytes: 17179869184  # archive bundles and .gz files: at most this many unpacked bytes,
    archive_max_members: 100000     # this many members,
    archive_max_ratio: 250          # and this expansion (unpacked / packed)
    allow_hardlinks: false    # read bundle files that have more than one hard link (they may be files from outside)
    now: 2026-11-30T00:00:00Z # "current time" for the not-in-the-future check
    jira_url: https://jira.example.com  # opt-in live JIRA lookups (token from JIRA_API_TOKEN /
                              # JIRA_PERSONAL_TOKEN, + JIRA_EMAIL for Cloud basic auth)
    jira_api_version: 2       # REST v2, or 3 (Cloud; Atlassian Document Format is flattened)
    jira_timeout_s: 10        # per live JIRA request: connect, headers and body together
    jira_run_timeout_s: 100   # all live JIRA requests of a run together (the Claude Code hook allows 120 s)
    jira_retries: 2           # extra tries after a timeout, a connection error, 429 or 5xx
    hook_max_attempts: 3      # times `citeproof hook` blocks one stop chain before letting it go
    hook_fail_open: false     # true: an internal error of the hook allows the stop (default: blocks)
    anchor_slack: 2           # content words of a claim the cited evidence may leave unanchored (or 2/5 of a long claim's)
                              # (0: every word must be anchored; see citeproof/support/anchor.py)
    anchor_strict_verbs: false  # true: an unanchored verb form ("crashed") always makes the claim unsupported
    max_chars: 65000          # --format markdown: cut the report to this many characters (0: no limit)
    context: inv_context.json # record each result in this context file's verification block (check, hook);
                              # a context file is only ever written when it is named here, by --context
                              # or by $CITEPROOF_CONTEXT

Options are validated when loaded; an unknown key or a bad value is a :class:`ConfigError`.
"""

from __future__ import annotations

import datetime as dt
import os
import re
import tomllib
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from .errors import ConfigError

_TZ_RE = re.compile(r"^(?:UTC|Z|[+-]\d{2}:?\d{2})$")


class Options(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    threshold: float = Field(0.9, ge=0.0, le=1.0)
    har_index_base: int = Field(1, ge=0, le=1)
    max_unverified: int = Field(3, ge=0)
    assume_tz: str = "UTC"
    default_time_window_s: float = Field(1.0, ge=0.0)
    temporal_tolerance_s: float = Field(10.0, ge=0.0)
    jira_projects: tuple[str, ...] = ()
    causal_rules: str | None = None
    use_cache: bool = True
    archive_max_bytes: int = Field(16 * 1024**3, ge=1)
    archive_max_members: int = Field(100_000, ge=1)
    archive_max_ratio: float = Field(250.0, gt=1.0)
    allow_hardlinks: bool = False
    now: dt.datetime | None = None
    jira_url: str | None = None
    jira_api_version: int = Field(2, ge=2, le=3)
    jira_timeout_s: float = Field(10.0, gt=0.0, le=300.0)
    jira_run_timeout_s: float = Field(100.0, gt=0.0, le=3600.0)
    jira_retries: int = Field(2, ge=0, le=10)
    hook_max_attempts: int = Field(3, ge=0)
    hook_fail_open: bool = False
    anchor_slack: int = Field(2, ge=0, le=20)
    anchor_strict_verbs: bool = False
    max_chars: int = Field(65_000, ge=0)
    context: str | None = None

    @field_validator("assume_tz")
    @classmethod
    def _tz(cls, value: str) -> str:
        if not _TZ_RE.match(value):
            raise ValueError("must be UTC or an offset like +02:00")
        try:
            parse_offset(value)
        except ValueError:
            raise ValueError("must be an offset between -23:59 and +23:59, like +02:00") from None
        return value

    @field_validator("jira_url")
    @classmethod
    def _jira_url(cls, value: str | None) -> str | None:
        if value is not None and not re.match(r"^https?://[^/\s]+", value):
            raise ValueError("must be an http:// or https:// URL, e.g. https://jira.example.com")
        if value is not None and "@" in value.split("/")[2]:
            raise ValueError("must not hold credentials: set JIRA_EMAIL + JIRA_API_TOKEN or JIRA_PERSONAL_TOKEN instead")
        return value.rstrip("/") if value else value

    @property
    def tzinfo(self) -> dt.timezone:
        return parse_offset(self.assume_tz)

    def current_time(self) -> dt.datetime:
        now = self.now or dt.datetime.now(dt.UTC)
        return now if now.tzinfo else now.replace(tzinfo=dt.UTC)


def parse_offset(text: str) -> dt.timezone:
    """``UTC``/``Z``/``+02:00``/``-0500`` -> a fixed-offset timezone."""
    if text in ("UTC", "Z", ""):
        return dt.UTC
    sign = -1 if text[0] == "-" else 1
    digits = text[1:].replace(":", "")
    minutes = int(digits[:2]) * 60 + int(digits[2:4] or 0)
    return dt.timezone(sign * dt.timedelta(minutes=minutes))


def make_options(config_file: str | Path | None = None, **overrides: Any) -> Options:
    """Options from an optional config file, with keyword overrides (``None`` values ignored)."""
    data: dict[str, Any] = {}
    if config_file is not None:
        data.update(_read_config_file(Path(config_file)))
    data.update({k: v for k, v in overrides.items() if v is not None})
    try:
        return Options(**data)
    except ValidationError as exc:
        err = exc.errors()[0]
        where = ".".join(str(p) for p in err["loc"]) or "options"
        if err["type"] == "extra_forbidden":  # the name comes from the file: quote it only when it looks like an option
            if not _OPTION_NAME.fullmatch(where):
                raise ConfigError("a key is not an option (see the list in citeproof/config.py)", config_file) from None
            import difflib

            close = difflib.get_close_matches(where, list(Options.model_fields), n=1)
            hint = f" (did you mean {close[0]}?)" if close else " (see the list in citeproof/config.py)"
            raise ConfigError(f"'{where}' is not an option{hint}", config_file) from None
        raise ConfigError(f"{where}: {err['msg']}", config_file) from None


_OPTION_NAME = re.compile(r"[a-z][a-z0-9_]{0,39}")
MAX_CONFIG_BYTES = 1024 * 1024
CONFIG_NAMES = ("citeproof.yaml", "citeproof.yml", "citeproof.toml", "pyproject.toml")
_PATH_OPTIONS = ("context", "causal_rules")


def discover_config(start: str | Path | None = None) -> Path | None:
    """The config file for a run started in ``start`` (default: the current directory): the first of
    :data:`CONFIG_NAMES` in it or a parent directory; a ``pyproject.toml`` counts only with a
    ``[tool.citeproof]`` table. None when there is none."""
    here = Path(os.path.abspath(start if start is not None else os.getcwd()))
    for folder in (here, *here.parents):
        for name in CONFIG_NAMES:
            candidate = folder / name
            if candidate.is_file() and (name != "pyproject.toml" or _has_our_table(candidate)):
                return candidate
    return None


def _has_our_table(pyproject: Path) -> bool:
    """Whether a pyproject.toml has ``[tool.citeproof]`` (one that does not parse is reported when it does)."""
    try:
        text = pyproject.read_text(encoding="utf-8", errors="replace")[:MAX_CONFIG_BYTES]
    except OSError:
        return False
    if "citeproof" not in text:
        return False
    try:
        return isinstance(tomllib.loads(text).get("tool", {}).get("citeproof"), dict)
    except tomllib.TOMLDecodeError:
        return bool(re.search(r"^\s*\[\s*tool\.citeproof\s*\]", text, re.M))  # ours, but broken: say so when it is read


def _read_config_file(path: Path) -> dict[str, Any]:
    """The options of a config file. Errors name the file and a position, never its content: ``--config`` may
    point anywhere, and the message must not leak a line of ``/etc/shadow``."""
    from .evidence.access import open_regular, read_all

    try:
        fd = open_regular(path)
        try:
            raw = read_all(fd, MAX_CONFIG_BYTES + 1)
        finally:
            os.close(fd)
    except OSError as exc:
        raise ConfigError(f"cannot read config file ({exc.strerror or type(exc).__name__})", path) from None
    if len(raw) > MAX_CONFIG_BYTES:
        raise ConfigError(f"config file is larger than {MAX_CONFIG_BYTES} bytes", path)
    text = raw.decode("utf-8", errors="replace")
    import yaml

    try:
        if path.suffix == ".toml":
            loaded: Any = tomllib.loads(text)
            loaded = loaded.get("tool", {}).get("citeproof", loaded)
        else:
            loaded = yaml.safe_load(text) or {}
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"not valid TOML: {_position(exc)}", path) from None
    except yaml.YAMLError as exc:
        raise ConfigError(f"not valid YAML: {_position(exc)}", path) from None
    except RecursionError:
        raise ConfigError("config is nested too deeply", path) from None
    except (ValueError, TypeError, OverflowError):  # a YAML/TOML value the parser cannot build ("!!float abc", 2001-13-45)
        raise ConfigError("config holds a value that cannot be read (a malformed date, number or tag)", path) from None
    if not isinstance(loaded, dict):
        raise ConfigError("config must be a mapping of option names to values", path)
    data = {str(k).replace("-", "_"): v for k, v in loaded.items()}
    for key in _PATH_OPTIONS:  # relative to the file, so a file found in a parent directory means the same thing
        value = data.get(key)
        if isinstance(value, str) and value and not os.path.isabs(os.path.expanduser(value)):
            data[key] = os.path.join(os.path.dirname(os.path.abspath(path)), value)
    return data


def _position(exc: Exception) -> str:
    """Where a config file fails to parse (line and column), without quoting it."""
    mark = getattr(exc, "problem_mark", None)
    if mark is not None:
        return f"line {mark.line + 1}, column {mark.column + 1}"
    at = re.search(r"at line (\d+), column (\d+)", str(exc))  # TOMLDecodeError: "... (at line 2, column 12)"
    return f"line {at.group(1)}, column {at.group(2)}" if at else "cannot be parsed"


def _first_line(exc: Exception) -> str:
    return str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__


def yaml_problem(exc: Exception) -> str:
    """A YAML parser error as one line with its position."""
    mark = getattr(exc, "problem_mark", None)
    problem = getattr(exc, "problem", None) or _first_line(exc)
    if mark is not None:
        return f"{problem} at line {mark.line + 1}, column {mark.column + 1}"
    return str(problem)
