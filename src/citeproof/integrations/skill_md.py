"""The text of the ``validate`` Agent Skill that ``citeproof init`` writes (``.claude/skills/validate/SKILL.md``).

The frontmatter follows the Agent Skills format: ``name`` (lower-case letters, digits and hyphens,
equal to the folder name), ``description`` (what the skill does and when to use it, at most 1,024
characters) and ``allowed-tools``. The table of citation formats is built from the live registry, so
a new format shows up here by itself.

``allowed-tools`` allows every command the skill and citeproof's recovery options tell the agent to
run, and only read-only ones: ``citeproof``, ``grep``, ``jq`` and ``wc`` (the recovery options use
``grep -rn``, ``jq '.log.entries[N]...'`` and ``wc -l``), plus the Read, Grep and Glob tools. Lines are
looked at with Read (``sed`` is not allowed: ``sed -i`` would edit the evidence).
"""

from __future__ import annotations

from ..citations import REGISTRY

NAME = "validate"
DESCRIPTION = (
    "Cite evidence for every factual statement in incident findings and check them with citeproof before "
    "reporting a conclusion. Use when writing or revising investigation findings, a root-cause analysis or "
    "an incident summary from an evidence bundle (logs, HAR captures, configs, env.log, pattern database, "
    "JIRA exports), and whenever citeproof has blocked the findings."
)
#: Every command the skill or a recovery option tells the agent to run, each read-only.
ALLOWED_COMMANDS = ("citeproof", "grep", "jq", "wc")
ALLOWED_TOOLS = " ".join([*(f"Bash({c}:*)" for c in ALLOWED_COMMANDS), "Read", "Grep", "Glob"])

_BODY = """
# Validate findings against the evidence

Every statement of fact in your findings must point at the evidence that shows it. citeproof
checks each citation against the bundle (does the file, line, entry, key or ticket exist, and does
it say what you claim) and answers PASSED or BLOCKED. A stop hook may run it on your final message;
run it yourself first.

## When

- Before you present findings, a root cause or a summary of an investigation.
- After citeproof blocked your findings: fix what it lists, then check again.
- Not for plans, questions or status lines ("Next I will look at the proxy logs"): they are not claims.

## How to write a finding

One fact per sentence or bullet, with its citation in the same sentence (or in a parenthesis right
after it). Quote the exact text you saw in single quotes when it matters; citeproof looks for it
on the cited lines. Say only what the cited evidence shows: if you cite entry 20, it must be the
entry that returned the status you name. "All" or "each" must hold for every cited item.

## The citation formats

{formats}

Line numbers start at 1; HAR entries start at 1 (`entry-1` is `log.entries[0]`).
Check before citing: read the line with the Read tool (offset 4521 of demisto.log),
`grep -n 'Rate limit exceeded' demisto.log`, `jq '.log.entries[144].response.status' capture.har`,
`wc -l demisto.log`. Never edit the evidence.

## Check

```
citeproof check findings.md --evidence path/to/bundle          # exit 0 PASSED, 1 BLOCKED
citeproof check findings.md --evidence path/to/bundle -f json  # per-claim reasons
```

PASSED needs at least 90% of the claims verified and no contradictions.

## When blocked

For each listed claim: correct the citation (the report often suggests the right line or entry),
cite evidence for an uncited claim, narrow the wording to what the evidence shows, or delete it.
A claim you believe but cannot show may be kept as `Note: Unverified assumption - <claim>`; only a
few such notes are allowed, so use them sparingly. Never change the evidence to fit a claim.
"""


def formats_table() -> str:
    rows = ["| format | examples | what it points at |", "|---|---|---|"]
    for fmt in REGISTRY.values():
        examples = ", ".join(f"`{e}`" for e in fmt.examples)
        rows.append(f"| {fmt.id} | {examples} | {fmt.summary.split(':', 1)[0]} |")
    return "\n".join(rows)


def skill_md() -> str:
    head = f"---\nname: {NAME}\ndescription: {DESCRIPTION}\nallowed-tools: {ALLOWED_TOOLS}\n---\n"
    return head + _BODY.replace("{formats}", formats_table())


__all__ = ["ALLOWED_COMMANDS", "ALLOWED_TOOLS", "DESCRIPTION", "NAME", "formats_table", "skill_md"]
