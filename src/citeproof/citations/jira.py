"""Format 5, ``jira`` — a JIRA ticket exported into the bundle.

Canonical: ``JIRA:SF-03896040``. Variants: ``ticket:XSUP-99999``, ``issue:CAC-12345`` (prefix case
does not matter), "JIRA SF-03896040", "ticket XSUP-99999", and a bare key such as ``XSUP-48213`` — but
only when its project is known (a ticket of that project is exported in the bundle, or the project is
listed in the ``jira_projects`` option), so ``UTF-8`` or ``HTTP-2`` are never tickets.

Tickets come from JIRA REST exports in the bundle: one issue per file (``key`` + ``fields``) or a
search result (``{"issues": [...]}``). With ``jira_url`` set (``--jira-url``), a ticket that is not
exported is fetched from the live JIRA (:mod:`citeproof.evidence.jira_live`); a failed lookup
is reported on the citation, never taken as a pass. Sub-checks: ``format`` (``^[A-Z][A-Z0-9]+-\\d+$``), ``exists``.
Whether the ticket relates to the claim is the support check ``tickets`` (:mod:`citeproof.support.checks.tickets`).

Passing: "SAMPLEPROJECT-1 tracks this (JIRA:SAMPLEPROJECT-1)" with jira-ruby's 10002.json in the bundle.
Failing: ``JIRA:XSUP-1`` when no export holds it; ``JIRA:utf-8x`` (malformed key).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from ..evidence.structured import issue_fields, jira_issues, jira_text
from ..model import CitationRef, Evidence
from .base import CheckContext, Checked, CitationFormat, Scope, Steps, found, invalid, missing

PATTERN = re.compile(r"\b(?:jira|ticket|issue):\s?(?P<key>[\w\-]+)", re.I)
# "JIRA SF-03896040", "ticket XSUP-99999", "issue #CAC-12345"
NAMED = re.compile(r"\b(?:jira|ticket|issue)\s#?(?P<key>[A-Z][A-Z0-9]+-\d+)\b")
BARE = re.compile(r"(?<![\w\-:/.])(?P<key>(?P<project>[A-Z][A-Z0-9]+)-\d+)(?![\w\-])")
VALID_KEY = re.compile(r"^[A-Z][A-Z0-9]+-\d+$")


def find(text: str, scope: Scope) -> Iterator[CitationRef]:
    for m in PATTERN.finditer(text):
        key = m.group("key")
        error = None if VALID_KEY.match(key) else f"'{key}' is not a JIRA key (expected PROJECT-123, upper case)"
        yield CitationRef("jira", m.group(0), m.start(), m.end(), {"key": key}, error)
    for m in NAMED.finditer(text):
        yield CitationRef("jira", m.group(0), m.start(), m.end(), {"key": m.group("key")})
    for m in BARE.finditer(text):
        if m.group("project") in scope.jira_projects:
            yield CitationRef("jira", m.group(0), m.start(), m.end(), {"key": m.group("key")})


def check(ref: CitationRef, ctx: CheckContext) -> Checked:
    steps = Steps()
    if ref.parse_error:
        steps.fail("format", ref.parse_error)
        return invalid(ref, ref.parse_error, steps)
    key = ref.fields["key"]
    steps.ok("format", key)
    issues = jira_issues(ctx.bundle)
    if key in issues:
        issue, source = issues[key]
        location = f"{source}#{key}"
    else:
        live = _live(key, ctx)
        if isinstance(live, str):
            steps.fail("exists", live)
            return missing(ref, live, steps, recovery=(f"Export {key} from JIRA (GET /rest/api/2/issue/{key}) into the bundle",))
        issue, location = live
    steps.ok("exists", location)
    text = jira_text(issue)
    summary = str(issue_fields(issue).get("summary") or "")
    excerpt = f"{key}: {summary}"
    evidence = Evidence(kind="jira", text=text, items=(text,), source=source if key in issues else "", location=location, key=key)
    return found(ref, f"ticket {key} found", steps, excerpt, location, (evidence,))


def _live(key: str, ctx: CheckContext) -> tuple[dict[str, Any], str] | str:
    """The issue from the live JIRA, or why there is none."""
    exported = f"ticket {key} is not in the bundle's JIRA exports ({len(jira_issues(ctx.bundle))} tickets"
    opts = ctx.options
    if not opts.jira_url:
        return exported + "; live JIRA lookup not configured)"
    from ..evidence.jira_live import JiraClient, JiraError

    url = opts.jira_url
    try:
        client: JiraClient = ctx.bundle.memo(("jira-live", url), lambda: JiraClient(
            url, api_version=opts.jira_api_version, timeout_s=opts.jira_timeout_s, retries=opts.jira_retries,
            run_timeout_s=opts.jira_run_timeout_s))
        issue = client.issue(key)
    except JiraError as exc:
        return f"{exported}) and the live lookup failed: {exc}"
    if issue is None:
        return f"{exported}) nor in the live JIRA ({client.browse_url(key)} not found)"
    return issue, client.browse_url(key)


FORMAT = CitationFormat(
    id="jira",
    summary="a JIRA ticket in the bundle's exports: JIRA:SF-03896040, ticket:XSUP-99999, issue:CAC-12345",
    find=find,
    check=check,
    examples=("JIRA:SF-03896040", "ticket:XSUP-99999", "issue:CAC-12345"),
)
