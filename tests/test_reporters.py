"""The Markdown, SARIF and HTML reporters: golden outputs, the SARIF schema, escaping of untrusted text."""

from __future__ import annotations

import base64
import hashlib
import json
import os
import re
from collections.abc import Callable
from html.parser import HTMLParser
from io import StringIO
from pathlib import Path
from typing import Any

import jsonschema
import pytest

import citeproof
from citeproof.cli import main
from citeproof.contradictions import REGISTRY as CONTRADICTION_RULES
from citeproof.model import ClaimStatus, Report
from citeproof.reporters import REPORTERS
from citeproof.reporters.common import EvidenceSpot, evidence_spot, split_command
from citeproof.reporters.html import HtmlReporter, _read_findings, anchors_for
from citeproof.reporters.html_timeline import collect
from citeproof.reporters.markdown import MarkdownReporter, md
from citeproof.reporters.sarif import SarifReporter

from .conftest import EXAMPLE, ROOT

GOLDEN = Path(__file__).parent / "golden"
UPDATE = os.environ.get("CITEPROOF_UPDATE_GOLDEN") == "1"
FINDINGS = "examples/rate-limit/findings.md"
BUNDLE = "examples/rate-limit/bundle"
SARIF_SCHEMA = Path(__file__).resolve().parents[2] / "shared" / "schemas" / "sarif-schema-2.1.0.json"

PAYLOAD = "<script>window.__pwned=1</script>"
HOSTILE_LOG = (
    "2026-01-15 10:00:00 INFO service started\n"
    f"2026-01-15 10:00:05 ERROR rejected payload {PAYLOAD} from client\n"
    '2026-01-15 10:00:09 WARN retry <img src=x onerror="window.__pwned=2">\n'
)
HOSTILE_FINDINGS = f"""# Incident <b>notes</b>

- The service rejected the payload '{PAYLOAD}' at 10:00:05 UTC (`app.log:2`).
- The service started at 10:00:00 (`app.log:1`).
- Note: Unverified assumption - the client was @octocat's bot.
- Assumption: the retry | pipe happened.
- Hypothesis: a <img src=x onerror=alert(1)> was involved.
- Unverified observation: there were more.
- The payload was rejected by the firewall (`app.log:9`).
"""


@pytest.fixture(scope="module")
def report() -> Report:
    return citeproof.validate(EXAMPLE / "findings.md", EXAMPLE / "bundle")


@pytest.fixture
def hostile(make_bundle: Callable[..., Path], tmp_path: Path) -> tuple[Report, str]:
    bundle = make_bundle({"app.log": HOSTILE_LOG})
    findings = tmp_path / "findings.md"
    findings.write_text(HOSTILE_FINDINGS, encoding="utf-8")
    return citeproof.validate(findings, bundle), HOSTILE_FINDINGS


def bare(report: Report) -> Report:
    """The report without the findings path and bundle root (for a report that carries them: see reporters.common)."""
    return Report.model_validate({k: v for k, v in report.model_dump().items() if k not in ("source", "evidence_root")})


def render(reporter: Any, report: Report) -> str:
    out = StringIO()
    reporter.write(report, out)
    return out.getvalue()


# --- every reporter --------------------------------------------------------------------------------


def test_registry_holds_every_format_of_the_spec() -> None:
    assert set(REPORTERS) == {"text", "json", "markdown", "sarif", "html"}
    for name, cls in REPORTERS.items():
        assert cls.name == name and cls.description


@pytest.mark.parametrize("fmt", sorted(REPORTERS))
def test_output_file_holds_what_stdout_shows(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
                                            tmp_path: Path, fmt: str) -> None:
    monkeypatch.chdir(ROOT)
    assert main(["check", FINDINGS, "--evidence", BUNDLE, "-f", fmt]) == 1
    shown = capsys.readouterr().out
    target = tmp_path / f"report.{fmt}"
    assert main(["check", FINDINGS, "--evidence", BUNDLE, "-f", fmt, "-o", str(target)]) == 1
    assert capsys.readouterr() == ("", "")
    assert target.read_text(encoding="utf-8") == shown


# --- golden outputs (regenerate with CITEPROOF_UPDATE_GOLDEN=1) ------------------------------------


@pytest.mark.parametrize("fmt", ["markdown", "sarif"])
def test_example_report_is_golden(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, fmt: str) -> None:
    monkeypatch.chdir(ROOT)
    code = main(["check", FINDINGS, "--evidence", BUNDLE, "--format", fmt])
    out, err = capsys.readouterr()
    assert (code, err) == (1, "")
    out = out.replace(ROOT.as_uri() + "/", "file:///SRCROOT/")  # the %SRCROOT% of the checkout, wherever it is
    path = GOLDEN / f"example.{fmt}"
    if UPDATE:
        path.write_text(out, encoding="utf-8")
    assert path.exists(), f"golden file {path.name} missing: rerun with CITEPROOF_UPDATE_GOLDEN=1"
    assert out == path.read_text(encoding="utf-8")


# --- Markdown -----------------------------------------------------------------------------------------


def test_markdown_summarises_and_folds_verified_claims(report: Report) -> None:
    text = render(MarkdownReporter(), report)
    assert text.startswith("### ⛔ citeproof: BLOCKED\n")
    assert "| **66.7%** (threshold 90%) | 10 / 15 | 5 | 3 | 1 | 0 |" in text
    failing = re.search(r"#### Failing claims \(5\)\n\n(.*?)\n\n", text, re.S)
    assert failing is not None
    rows = failing.group(1).splitlines()[2:]
    assert [r.split("**")[1] for r in rows] == ["c5", "c7", "c8", "c12", "c15"]
    assert "cite `demisto.log:349`" in rows[1]
    assert all(r.count(" | ") == 4 for r in rows)
    assert "#### Contradictions (3)" in text and "#### Recovery options" in text
    folded = text.split("<details><summary>Verified claims (10)</summary>\n\n", 1)[1].split("</details>")[0]
    assert len([r for r in folded.splitlines() if r.startswith("| **c")]) == 10


def test_markdown_escapes_untrusted_text(hostile: tuple[Report, str]) -> None:
    text = render(MarkdownReporter(), hostile[0])
    assert not re.search(r"(?<!\\)</?(?:script|img|b)\b", text)
    assert "\\<script>window.\\__pwned=1\\</script>" in text
    assert "@\u200boctocat" in text  # no mention notifications
    assert "the retry \\| pipe" in text
    assert "#### Unverified observations (4, not counted)" in text


@pytest.mark.parametrize(
    ("raw", "table", "shown"),
    [
        ("a | b", True, "a \\| b"),
        ("use `a|b` here", True, "use `a\\|b` here"),
        ("use `a|b` here", False, "use `a|b` here"),
        ("# not a heading", False, "\\# not a heading"),
        ("**bold** [link](x) ~~s~~", False, "\\*\\*bold\\*\\* \\[link\\](x) \\~\\~s\\~\\~"),
        ("snake_case stays, _emphasis_ does not", False, "snake_case stays, \\_emphasis\\_ does not"),
        ("&lt; and & and mail@example.com", False, "&amp;lt; and & and mail@example.com"),
        ("two\nlines", False, "two lines"),
    ],
)
def test_markdown_text_escaping(raw: str, table: bool, shown: str) -> None:
    assert md(raw, table=table) == shown


def test_markdown_of_a_passing_report(make_bundle: Callable[..., Path], tmp_path: Path) -> None:
    bundle = make_bundle({"app.log": HOSTILE_LOG})
    findings = tmp_path / "ok.md"
    findings.write_text("- The service started at 10:00:00 (`app.log:1`).\n", encoding="utf-8")
    text = render(MarkdownReporter(), citeproof.validate(findings, bundle))
    assert text.startswith("### ✅ citeproof: PASSED")
    assert "Failing claims" not in text and "<details><summary>Verified claims (1)</summary>" in text


# --- SARIF --------------------------------------------------------------------------------------------


def sarif_schema() -> dict[str, Any]:
    if not SARIF_SCHEMA.is_file():
        pytest.skip(f"SARIF 2.1.0 schema not found at {SARIF_SCHEMA} (it lives in ../shared/schemas next to the repository)")
    return json.loads(SARIF_SCHEMA.read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def validate_sarif(doc: dict[str, Any]) -> None:
    schema = sarif_schema()
    cls = jsonschema.validators.validator_for(schema)
    cls(schema, format_checker=cls.FORMAT_CHECKER).validate(doc)


def test_sarif_validates_against_the_schema(report: Report, hostile: tuple[Report, str]) -> None:
    validate_sarif(SarifReporter().document(report))
    validate_sarif(SarifReporter(source="examples/rate-limit/findings.md", evidence_root=BUNDLE).document(report))
    validate_sarif(SarifReporter(source="/abs/path with space/findings.md").document(hostile[0]))


def test_sarif_schema_catches_a_broken_log(report: Report) -> None:
    doc = SarifReporter().document(report)
    doc["runs"][0]["results"][0]["level"] = "fatal"
    with pytest.raises(jsonschema.ValidationError):
        validate_sarif(doc)


def test_sarif_has_one_described_rule_per_failure_kind(report: Report) -> None:
    driver = SarifReporter().document(report)["runs"][0]["tool"]["driver"]
    assert (driver["name"], driver["semanticVersion"]) == ("citeproof", citeproof.__version__)
    assert driver["informationUri"].startswith("https://")
    ids = [rule["id"] for rule in driver["rules"]]
    failures = {s.value for s in ClaimStatus} - {"verified", "unverified_observation"}
    assert set(ids) == failures | {f"contradiction/{r}" for r in CONTRADICTION_RULES} | {"unverified_observation_cap"}
    assert len(ids) == len(set(ids))
    for rule in driver["rules"]:
        assert rule["name"] and rule["shortDescription"]["text"] and rule["fullDescription"]["text"], rule["id"]
        assert rule["help"]["text"] and rule["help"]["markdown"], rule["id"]
        assert rule["defaultConfiguration"]["level"] in {"error", "warning", "note"}, rule["id"]


def test_sarif_results_point_at_the_claims_and_the_evidence(report: Report) -> None:
    reporter = SarifReporter(source="examples/rate-limit/findings.md", evidence_root=BUNDLE, srcroot=str(ROOT), cwd=str(ROOT))
    run = reporter.document(report)["runs"][0]
    rules = run["tool"]["driver"]["rules"]
    results = run["results"]
    assert [r["ruleId"] for r in results] == [
        "contradicted", "missing_evidence", "unsupported", "uncited", "contradicted",
        "contradiction/factual", "contradiction/evidence", "contradiction/evidence",
    ]
    for r in results:
        assert rules[r["ruleIndex"]]["id"] == r["ruleId"]
    by_claim = {r["properties"]["claims"][0]: r for r in results[:5]}
    c7 = by_claim["c7"]
    loc = c7["locations"][0]["physicalLocation"]
    assert loc["artifactLocation"] == {"uri": "examples/rate-limit/findings.md", "uriBaseId": "%SRCROOT%"}
    assert (loc["region"]["startLine"], loc["region"]["startColumn"]) == (16, 3)
    related = [(x["physicalLocation"]["artifactLocation"]["uri"], x["physicalLocation"].get("region")) for x in c7["relatedLocations"]]
    assert related == [("examples/rate-limit/bundle/demisto.log", None), ("examples/rate-limit/bundle/demisto.log", {"startLine": 349})]
    assert {x["physicalLocation"]["artifactLocation"]["uriBaseId"] for x in c7["relatedLocations"]} == {"%SRCROOT%"}
    assert run["originalUriBaseIds"]["%SRCROOT%"]["uri"] == ROOT.as_uri() + "/"
    c8 = by_claim["c8"]["relatedLocations"][0]["physicalLocation"]
    assert c8["region"] == {"startLine": 315}
    c5 = by_claim["c5"]["relatedLocations"][0]["physicalLocation"]
    assert c5 == {"artifactLocation": {"uri": "examples/rate-limit/bundle/capture.har", "uriBaseId": "%SRCROOT%"}}
    factual = results[5]
    assert factual["locations"][0]["physicalLocation"]["region"]["startLine"] == 7
    assert factual["relatedLocations"][0]["physicalLocation"]["region"]["startLine"] == 26


def test_sarif_without_paths_uses_bundle_relative_uris(report: Report) -> None:
    run = SarifReporter().document(bare(report))["runs"][0]
    assert run["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"] == {"uri": "findings.md"}
    assert run["results"][0]["relatedLocations"][0]["physicalLocation"]["artifactLocation"] == {
        "uri": "capture.har", "uriBaseId": "EVIDENCE"}
    assert "EVIDENCE" in run["originalUriBaseIds"]


def test_sarif_unverified_observation_cap(hostile: tuple[Report, str]) -> None:
    results = SarifReporter().document(hostile[0])["runs"][0]["results"]
    cap = [r for r in results if r["ruleId"] == "unverified_observation_cap"]
    assert len(cap) == 1 and cap[0]["properties"]["claims"] == ["c3", "c4", "c5", "c6"]
    assert cap[0]["locations"][0]["physicalLocation"]["region"]["startLine"] == 5
    relaxed = SarifReporter(max_unverified=4).document(hostile[0])["runs"][0]["results"]
    assert [r["ruleId"] for r in relaxed] == ["missing_evidence"]


def test_sarif_is_deterministic_and_absolute_paths_are_file_uris(report: Report) -> None:
    first = render(SarifReporter(), report)
    assert first == render(SarifReporter(), report)
    doc = SarifReporter(source="/work/my findings.md").document(report)
    assert doc["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "file:///work/my%20findings.md"


@pytest.mark.parametrize(
    ("location", "spot"),
    [
        ("demisto.log:298-301", EvidenceSpot("demisto.log", 298, 301)),
        ("demisto.log:349", EvidenceSpot("demisto.log", 349, 349)),
        ("logs/a.log:3,7-9", EvidenceSpot("logs/a.log", 3, 3)),
        ("env.log#version", EvidenceSpot("env.log")),
        ("config/integration.yaml#integration.polling_rate", EvidenceSpot("config/integration.yaml")),
        ("capture.har entries 11, 14, 19", EvidenceSpot("capture.har")),
        ("capture.har entry 20", EvidenceSpot("capture.har")),
        ("bundle.txt", EvidenceSpot("bundle.txt")),
        (None, None),
        ("", None),
        ("the whole bundle", None),
    ],
)
def test_evidence_spot(location: str | None, spot: EvidenceSpot | None) -> None:
    assert evidence_spot(location) == spot


def test_split_command() -> None:
    assert split_command("c7: Check the line count: wc -l b/demisto.log") == ("c7: Check the line count: ", "wc -l b/demisto.log", "")
    assert split_command("Check it: jq '.x' a.har (returns 200)") == ("Check it: ", "jq '.x' a.har", "(returns 200)")
    assert split_command("Or request the missing evidence from the customer") is None


# --- HTML ---------------------------------------------------------------------------------------------


class _Page(HTMLParser):
    """Collects what matters for self-containment and escaping."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.ids: set[str] = set()
        self.scripts: list[str] = []
        self.styles: list[str] = []
        self._in: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        self.tags.append((tag, found))
        if found.get("id"):
            self.ids.add(str(found["id"]))
        self._in = tag if tag in ("script", "style") else None

    def handle_data(self, data: str) -> None:
        if self._in == "script":
            self.scripts.append(data)
        elif self._in == "style":
            self.styles.append(data)

    def handle_endtag(self, tag: str) -> None:
        self._in = None


def parse(page: str) -> _Page:
    parser = _Page()
    parser.feed(page)
    return parser


def _hash(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"


def test_html_is_self_contained_and_allows_only_its_own_script(report: Report) -> None:
    page = HtmlReporter().page(report)
    doc = parse(page)
    assert len(doc.scripts) == 1 and len(doc.styles) == 1
    for tag, attrs in doc.tags:
        assert tag not in ("link", "iframe", "object", "embed", "img", "base"), tag
        assert "src" not in attrs, (tag, attrs)
        href = attrs.get("href")
        assert href is None or href.startswith("#"), (tag, href)
    csp = next(a["content"] for t, a in doc.tags if t == "meta" and a.get("http-equiv") == "Content-Security-Policy")
    assert csp is not None and "default-src 'none'" in csp
    assert f"script-src {_hash(doc.scripts[0])}" in csp and f"style-src {_hash(doc.styles[0])}" in csp


def test_html_shows_the_verdict_every_claim_and_its_evidence(report: Report) -> None:
    page = HtmlReporter().page(report)
    doc = parse(page)
    verdict = next(a for t, a in doc.tags if a.get("id") == "verdict")
    assert "blocked" in str(verdict["class"]) and ">BLOCKED</span>" in page
    cards = {a["id"]: a["data-status"] for t, a in doc.tags if t == "details" and "claim" in str(a.get("class"))}
    assert cards == {f"claim-{c.id}": c.status.value for c in report.claims}
    assert "Contradicted</span>" in page and "Missing evidence</span>" in page
    assert "entry 20 (index 19): GET https://api.acme-ti.example/v2/indicators?limit=10&amp;cursor=" in page
    assert "Suggested citation: <code>demisto.log:349</code>" in page
    links = [a["href"] for t, a in doc.tags if t == "a" and a.get("href")]
    assert all(str(h)[1:] in doc.ids for h in links), [h for h in links if str(h)[1:] not in doc.ids]
    assert 'id="contra-1"' in page and '<a href="#claim-c15">c15</a>' in page


def test_html_findings_view_marks_each_claim_in_place(report: Report) -> None:
    text = (EXAMPLE / "findings.md").read_text(encoding="utf-8")
    page = HtmlReporter(findings_text=text).page(report)
    marks = re.findall(r'<a class="mark st-(\w+)" href="#claim-(c\d+)"', page)
    assert {cid: status for status, cid in marks} == {c.id: c.status.value for c in report.claims}
    assert '<div class="ln h1" id="L1">' in page and "Phase 3 analysis complete." in page
    assert "split" in page  # the findings beside the cards
    listed = HtmlReporter().page(bare(report))
    assert 'class="mark ' not in listed and 'id="claim-c15"' in listed


def test_html_findings_view_survives_a_changed_file(report: Report) -> None:
    text = "# Other document\n\n- Something else entirely.\n" + "\n" * 30
    page = HtmlReporter(findings_text=text).page(report)
    assert 'class="mark ' not in page  # no claim text where the report says: labels only
    assert page.count('class="mark-label"') == len([c for c in report.claims if c.line <= text.count("\n")])


def test_html_escapes_evidence_and_claims(hostile: tuple[Report, str]) -> None:
    result, text = hostile
    for page in (HtmlReporter().page(result), HtmlReporter(findings_text=text).page(result)):
        doc = parse(page)
        assert len(doc.scripts) == 1 and "__pwned" not in doc.scripts[0]
        assert not any(t == "img" or any(k.startswith("on") for k in a) for t, a in doc.tags)
        assert "&lt;script&gt;window.__pwned=1&lt;/script&gt;" in page
        assert "<b>" not in page


def test_html_anchor_ids_are_safe_and_unique() -> None:
    claims = citeproof.validate('[{"id": "a b", "claim": "x"}, {"id": "<x>", "claim": "y"}, {"id": "c1", "claim": "z"}]',
                                   EXAMPLE / "bundle").claims
    assert anchors_for(claims) == {"a b": "claim-1", "<x>": "claim-2", "c1": "claim-c1"}


def test_timeline_collects_stated_and_evidence_instants(report: Report) -> None:
    instants = collect(report)
    rows = list(dict.fromkeys(i.claim for i in instants))
    assert rows == ["c3", "c4", "c5", "c6", "c8", "c9", "c10", "c11"]
    c6 = [(i.kind, i.when.isoformat(), i.source) for i in instants if i.claim == "c6"]
    assert c6 == [("stated", "2026-01-15T10:30:45+00:00", "the claim"),
                  ("evidence", "2026-01-15T10:30:45.312000+00:00", "demisto.log:349")]
    c4 = [i.source for i in instants if i.claim == "c4"]
    assert c4 == [f"capture.har entry {n}" for n in (11, 14, 19, 23, 27, 29)]
    page = HtmlReporter().page(report)
    assert page.count('<circle class="event"') == len([i for i in instants if i.kind == "evidence"]) + 1  # + legend
    assert "<title>c6 · stated in the claim · 2026-01-15 10:30:45Z" in page


def test_timeline_without_times(make_bundle: Callable[..., Path], tmp_path: Path) -> None:
    bundle = make_bundle({"env.log": "version: 1.2.3\n"})
    result = citeproof.validate("- The server runs version 1.2.3 (`env:version=1.2.3`).\n", bundle)
    assert collect(result) == []
    assert "No claim states or cites a time." in HtmlReporter().page(result)


def test_html_reads_the_findings_file_only_while_it_still_matches(report: Report, tmp_path: Path) -> None:
    original = EXAMPLE / "findings.md"
    assert _read_findings(str(original), report.claims) == original.read_text(encoding="utf-8")
    changed = tmp_path / "findings.md"
    changed.write_text(original.read_text(encoding="utf-8").replace("XSOAR version", "XSOAR release"), encoding="utf-8")
    assert _read_findings(str(changed), report.claims) is None
    assert _read_findings(str(tmp_path / "gone.md"), report.claims) is None
    assert _read_findings(None, report.claims) is None


def test_html_is_deterministic(report: Report) -> None:
    assert render(HtmlReporter(), report) == render(HtmlReporter(), report)


def test_structured_claims_without_lines(make_bundle: Callable[..., Path]) -> None:
    bundle = make_bundle({"app.log": HOSTILE_LOG})
    result = citeproof.validate('[{"id": "k1", "claim": "The service crashed."}]', bundle)
    doc = SarifReporter().document(result)
    validate_sarif(doc)
    assert doc["runs"][0]["results"][0]["locations"] == [{"physicalLocation": {"artifactLocation": {"uri": "findings.md"}}}]
    assert "| **k1** The service crashed. | uncited | – |" in render(MarkdownReporter(), result)
    page = HtmlReporter(findings_text="The service crashed.\n").page(result)
    assert 'id="claim-k1"' in page and "no line" in page and 'class="mark ' not in page
