"""Format 7, ``env`` — environment metadata from env.log and inv_context.json.

Canonical: ``env:version=8.9.0-2464525``, ``env:product=XSOAR``, ``env:hostname`` (no value: the key
must exist, and a value the claim states in its words must match).

The key is looked up in every environment file of the bundle (``env.log``: ``key: value`` or
``key=value`` lines, or JSON) and in ``inv_context.json`` ``environment``: exactly, then
case-insensitively, then as the last component of a longer key (``version`` finds
``demisto.version``) when that is unique. Values compare case-insensitively; a version matches as a
prefix on component boundaries (``8.9`` matches ``8.9.0-2464525``).

Sub-checks: ``format``, ``key_exists``, ``value_matches``, ``confirmed`` (a warning when
``inv_context.environment.confirmed`` is not true).

Passing: ``env:product=XSOAR`` when env.log says ``product: XSOAR``.
Failing: ``env:version=8.8.0`` when env.log says ``version: 8.9.0-2464525``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from ..evidence.structured import environment
from ..model import CitationRef, Evidence
from .base import CheckContext, Checked, CitationFormat, Scope, Steps, found, missing

PATTERN = re.compile(r"\benv:(?P<key>[A-Za-z_][\w.\-]*[\w])(?:\s?=\s?(?P<value>[^\s,;)\]`'\"]+))?")


def find(text: str, scope: Scope) -> Iterator[CitationRef]:
    for m in PATTERN.finditer(text):
        value = m.group("value").rstrip(".") if m.group("value") else None
        raw = m.group(0).rstrip(".") if value else text[m.start() : m.end("key")]
        yield CitationRef("env", raw, m.start(), m.start() + len(raw), {"key": m.group("key"), "value": value})


def _find_key(env: dict[str, tuple[str, str]], key: str) -> tuple[str | None, str]:
    if key in env:
        return key, ""
    low = key.lower()
    same = [k for k in env if k.lower() == low]
    if len(same) == 1:
        return same[0], ""
    tail = [k for k in env if re.split(r"[._\-]", k.lower())[-1] == low or k.lower().endswith("." + low)]
    values = {env[k][0].lower() for k in tail}
    if tail and len(values) == 1:
        return sorted(tail)[0], ""
    if tail:
        return None, f"'{key}' is ambiguous: " + ", ".join(f"{k}={env[k][0]}" for k in sorted(tail)[:4])
    return None, ""


def check(ref: CitationRef, ctx: CheckContext) -> Checked:
    steps = Steps()
    key, stated = ref.fields["key"], ref.fields["value"]
    steps.ok("format", key)
    env, confirmed = environment(ctx.bundle)
    if not env:
        detail = "the bundle has no environment metadata (env.log or inv_context.json environment)"
        steps.fail("key_exists", detail)
        return missing(ref, detail, steps, recovery=("Request env.log (product, version, hostname) from the customer",))
    found_key, problem = _find_key(env, key)
    if found_key is None:
        detail = problem or f"key '{key}' not in the environment metadata (keys: {', '.join(sorted(env)[:10])})"
        steps.fail("key_exists", detail)
        return missing(ref, detail, steps)
    value, source = env[found_key]
    location = f"{source}#{found_key}"
    steps.ok("key_exists", location)
    warnings: tuple[str, ...] = ()
    if confirmed is not True:
        why = "not confirmed" if confirmed is False else "has no confirmation"
        steps.skip("confirmed", f"the investigation environment {why} (inv_context.json environment.confirmed)")
        warnings = (f"{ref.raw}: environment {why} in inv_context.json",)
    else:
        steps.ok("confirmed")
    evidence = Evidence(kind="env", text=f"{found_key} = {value}", items=(value,), source=source, location=location,
                        key=found_key, stated=stated)
    everything = Evidence(kind="context", text="\n".join(f"{k}: {v}" for k, (v, _) in sorted(env.items())), source=source)
    return found(ref, f"{found_key} = {value}", steps, f"{location} = {value}", location, (evidence, everything), warnings=warnings)


FORMAT = CitationFormat(
    id="env",
    summary="environment metadata: env:version=8.9.0-2464525, env:product=XSOAR, env:hostname",
    find=find,
    check=check,
    examples=("env:version=8.9.0-2464525", "env:product=XSOAR", "env:hostname"),
)
