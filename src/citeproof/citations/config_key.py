"""Format 6, ``config`` — a key path in a configuration file or env/about metadata.

Canonical: ``config:integration.timeout_ms``. Variants: ``config:integration.yaml#integration.timeout_ms``
(a named file), ``config:servers[0].host``, ``config:a."dotted.key"``, ``env_log:demisto.version``
(env.log and other environment files), ``about_info:build_number`` (about/build info), and an explicit
stated value, ``config:integration.timeout_ms=30000``.

Without a file name every config file in the bundle is searched; the first path segment may also name
the file (``config:integration.timeout_ms`` finds ``timeout_ms`` in ``integration.yaml``). Several files
holding the key with different values is ambiguous.

Sub-checks: ``format``, ``file_exists``, ``parses`` (with the parser's message and position),
``key_exists``. Whether the value the claim states is the key's value is the support check
``values`` (:mod:`citeproof.support.checks.values`): numbers compared numerically with units
normalised, strings case-insensitively.

Passing: "Polling rate is 150 requests/minute (config:integration.polling_rate)" when it is 150.
Failing: "Timeout is 10 seconds (config:integration.timeout_ms)" when timeout_ms is 30000.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import PurePosixPath
from typing import Any

from ..evidence import EvidenceFile, FileKind
from ..evidence.structured import load, lookup, split_key_path
from ..model import CitationRef, Evidence
from .base import CheckContext, Checked, CitationFormat, Scope, Steps, found, invalid, missing

PATTERN = re.compile(
    r"\b(?P<prefix>config|env_log|about_info):(?P<path>(?:\[[^\]\s]*\]|[^\s=,;()\[\]`'])+)(?:=(?P<value>[^\s,;)\]`']+))?",
    re.I,
)
_KINDS = {
    "config": (FileKind.CONFIG,),
    "env_log": (FileKind.ENV,),
    "about_info": (FileKind.ENV, FileKind.CONFIG),
}


def find(text: str, scope: Scope) -> Iterator[CitationRef]:
    for m in PATTERN.finditer(text):
        path = m.group("path").rstrip(".")
        raw = m.group(0) if m.group("value") else m.group(0)[: m.start("path") - m.start() + len(path)]
        value = m.group("value").rstrip(".") if m.group("value") else None
        yield CitationRef(
            "config", raw, m.start(), m.start() + len(raw),
            {"prefix": m.group("prefix").lower(), "path": path, "value": value},
            None if split_key_path(path.split("#")[-1]) else "empty key path",
        )


def _candidates(ctx: CheckContext, prefix: str, path: str) -> tuple[list[tuple[EvidenceFile, str]], str]:
    """(file, key path) pairs to try, or a problem naming a cited file that is missing."""
    bundle = ctx.bundle
    if "#" in path:
        name, key = path.split("#", 1)
        lookup_ = bundle.resolve(name)
        if lookup_.file is None:
            return [], lookup_.problem
        return [(lookup_.file, key)], ""
    files = sorted(bundle.of_kind(*_KINDS[prefix]), key=lambda f: f.rel)
    if prefix == "about_info":
        about = [f for f in files if re.match(r"(about|build|server_?info|version)", PurePosixPath(f.rel).name, re.I)]
        files = about or files
    pairs = [(f, path) for f in files]
    head, _, rest = path.partition(".")
    if rest:
        for f in files:
            if PurePosixPath(f.rel).stem.lower() == head.lower():
                pairs.append((f, rest))
    return pairs, ""


def check(ref: CitationRef, ctx: CheckContext) -> Checked:
    steps = Steps()
    if ref.parse_error:
        steps.fail("format", ref.parse_error)
        return invalid(ref, f"invalid config reference: {ref.parse_error}", steps)
    prefix, path, stated = ref.fields["prefix"], ref.fields["path"], ref.fields["value"]
    steps.ok("format", path)
    pairs, problem = _candidates(ctx, prefix, path)
    if problem:
        steps.fail("file_exists", problem)
        return missing(ref, problem, steps)
    if not pairs:
        kinds = "/".join(k.value for k in _KINDS[prefix])
        detail = f"the bundle holds no {kinds} file to look up '{path}' in"
        steps.fail("file_exists", detail)
        return missing(ref, detail, steps)
    steps.ok("file_exists", ", ".join(dict.fromkeys(f.rel for f, _ in pairs)))
    hits: list[tuple[EvidenceFile, str, Any]] = []
    errors: list[str] = []
    misses: list[str] = []
    for file, key in pairs:
        loaded = load(ctx.bundle, file)
        if loaded.error:
            errors.append(loaded.error)
            continue
        ok, value, why = lookup(loaded.data, key)
        if ok:
            hits.append((file, key, value))
        else:
            misses.append(f"{file.rel}: {why}")
    if not hits:
        if errors and len(errors) == len(pairs):
            steps.fail("parses", errors[0])
            return missing(ref, errors[0], steps)
        detail = f"key '{path}' not found" + (f" ({misses[0]})" if len(misses) == 1 else f" in {len(misses)} files")
        steps.fail("key_exists", detail)
        return missing(ref, detail, steps, recovery=(f"Search the configs: grep -rn '{path.split('.')[-1]}' {ctx.bundle.shown()}",))
    steps.ok("parses")
    distinct = {repr(v) for _, _, v in hits}
    if len(distinct) > 1:
        detail = "ambiguous: " + "; ".join(f"{f.rel} has {v!r}" for f, _, v in hits[:4]) + " — name the file (config:FILE#key)"
        steps.fail("key_exists", detail)
        return missing(ref, detail, steps)
    file, key, value = hits[0]
    location = f"{file.rel}#{key}"
    steps.ok("key_exists", location)
    shown = _show(value)
    evidence = Evidence(kind="config", text=f"{key} = {shown}", items=(shown,), source=file.rel, location=location,
                        key=key, stated=stated)
    return found(ref, f"{location} = {shown}", steps, f"{location} = {shown}", location, (evidence,))


def _show(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict | list):
        import orjson

        return orjson.dumps(value, option=orjson.OPT_SORT_KEYS).decode()[:500]
    return str(value)


FORMAT = CitationFormat(
    id="config",
    summary="a config key path: config:integration.timeout_ms, env_log:demisto.version, about_info:build_number",
    find=find,
    check=check,
    examples=("config:integration.timeout_ms", "config:integration.yaml#vendor_api.rate_limit_per_minute", "env_log:version"),
)
