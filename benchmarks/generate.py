"""Deterministic benchmark bundle: a large server log, a large HAR (minified and pretty) and findings.

    python benchmarks/generate.py [--out benchmarks/data] [--scale 1.0]

At scale 1.0: a ~2 GB log (short lines, a few 64 KB lines, one silent gap of ten minutes), a ~300 MB
HAR with ~100k entries (some 429/500s) written minified and pretty-printed, and findings.md with 200
mixed citations (file:line, HAR entry, timestamp; about a fifth deliberately wrong). The expected
status of every claim is written to expected.json. Same scale, same bytes.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import random
from pathlib import Path

START = dt.datetime(2026, 1, 15, 0, 0, 0, tzinfo=dt.UTC)
LEVELS = ("INFO", "INFO", "INFO", "DEBUG", "WARN", "ERROR")
COMPONENTS = ("poller", "scheduler", "http", "db", "auth", "cache")
MESSAGES = (
    "polling feed https://api.vendor.example/v2/indicators page={n}",
    "request {n} completed in {ms} ms",
    "cache miss for key session:{n}",
    "HTTP 429 Too Many Requests from https://api.vendor.example/v2/indicators (Retry-After: 30)",
    "connection pool size 20, active {ms}",
    "job {n} scheduled",
)
GAP = (dt.datetime(2026, 1, 15, 13, 0, tzinfo=dt.UTC), dt.datetime(2026, 1, 15, 13, 10, tzinfo=dt.UTC))


def write_log(path: Path, target_bytes: int, rng: random.Random) -> list[tuple[int, str, dt.datetime]]:
    """Write the log; return (line number, text, instant) for a sample of lines."""
    sample: list[tuple[int, str, dt.datetime]] = []
    seconds = 86_000
    written = 0
    line_no = 0
    per_second = max(1, target_bytes // 110 // seconds)
    long_lines = {int(target_bytes // 110 * f) for f in (0.1, 0.35, 0.6, 0.85)}
    with open(path, "w", encoding="utf-8", newline="\n") as fh:
        t = START
        while written < target_bytes:
            if GAP[0] <= t < GAP[1]:
                t += dt.timedelta(seconds=1)
                continue
            stamp = t.strftime("%Y-%m-%d %H:%M:%S")
            chunk = []
            for k in range(per_second):
                line_no += 1
                n = rng.randrange(1_000_000)
                msg = MESSAGES[n % len(MESSAGES)].format(n=n, ms=n % 997)
                if line_no in long_lines:
                    msg = "payload dump " + "x" * 65_536
                text = f"{stamp}.{(k * 997 // per_second) % 1000:03d} {LEVELS[n % 6]:5} [{COMPONENTS[n % 6]}] {msg}"
                chunk.append(text)
                if n % 4003 == 0 and len(msg) < 200:
                    sample.append((line_no, text, t))
            blob = "\n".join(chunk) + "\n"
            fh.write(blob)
            written += len(blob)
            t += dt.timedelta(seconds=1)
    sample.append((line_no, "", t))  # the last line number, for "past the end" citations
    return sample


def har_entries(count: int, rng: random.Random) -> list[dict[str, object]]:
    out: list[dict[str, object]] = []
    for i in range(count):
        t = START + dt.timedelta(milliseconds=i * 700)
        if t >= GAP[0]:
            t += GAP[1] - GAP[0]  # the capture is silent during the log's gap too
        status = 429 if i % 53 == 0 else 500 if i % 211 == 0 else 200
        body = json.dumps({"items": [{"id": i * 10 + k, "indicator": f"198.51.100.{k}", "note": "x" * 120} for k in range(8)]})
        out.append({
            "startedDateTime": t.isoformat(timespec="milliseconds").replace("+00:00", "Z"),
            "time": 100 + i % 400,
            "request": {"method": "GET", "url": f"https://api.vendor.example/v2/indicators?page={i}", "httpVersion": "HTTP/1.1",
                        "headers": [{"name": "Accept", "value": "application/json"}, {"name": "User-Agent", "value": "bench/1.0"}],
                        "queryString": [{"name": "page", "value": str(i)}], "cookies": [], "headersSize": -1, "bodySize": 0},
            "response": {"status": status, "statusText": {200: "OK", 429: "Too Many Requests", 500: "Internal Server Error"}[status],
                         "httpVersion": "HTTP/1.1", "headers": [{"name": "Content-Type", "value": "application/json"}],
                         "cookies": [], "content": {"size": len(body), "mimeType": "application/json", "text": body},
                         "redirectURL": "", "headersSize": -1, "bodySize": len(body)},
            "cache": {}, "timings": {"send": 1, "wait": 90, "receive": 9},
        })
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", default=str(Path(__file__).parent / "data"))
    parser.add_argument("--scale", type=float, default=1.0)
    args = parser.parse_args()
    rng = random.Random(20260115)
    out = Path(args.out)
    for variant in ("minified", "pretty"):
        (out / variant / "bundle").mkdir(parents=True, exist_ok=True)
    log_path = out / "minified" / "bundle" / "server.log"
    sample = write_log(log_path, int(2_000_000_000 * args.scale), rng)
    entries = har_entries(int(100_000 * args.scale), rng)
    doc = {"log": {"version": "1.2", "creator": {"name": "bench", "version": "1"}, "entries": entries}}
    (out / "minified" / "bundle" / "capture.har").write_text(json.dumps(doc, separators=(",", ":")), encoding="utf-8")
    (out / "pretty" / "bundle" / "capture.har").write_text(json.dumps(doc, indent=2), encoding="utf-8")
    pretty_log = out / "pretty" / "bundle" / "server.log"
    if pretty_log.exists() or pretty_log.is_symlink():
        pretty_log.unlink()
    pretty_log.hardlink_to(log_path)
    last_line = sample.pop()[0]
    claims: list[str] = []
    expected: dict[int, str] = {}

    def add(text: str, status: str) -> None:
        claims.append(text)
        expected[len(claims)] = status

    lines = [s for s in sample if len(s[1]) < 300]
    rng.shuffle(lines)
    for k in range(80):  # file:line
        n, text, _ = lines[k]
        word = text.split("] ", 1)[1][:24].strip()
        if k % 5 == 3:
            add(f"The server logged 'connection refused by peer' (server.log:{n}).", "unsupported")
        elif k % 5 == 4:
            add(f"The server logged '{word}' (server.log:{last_line + 10 + k}).", "missing_evidence")
        else:
            add(f"The server logged '{word}' (server.log:{n}).", "verified")
    for k in range(60):  # HAR entries
        i = rng.randrange(len(entries))
        status = entries[i]["response"]["status"]  # type: ignore[index]
        if k % 5 == 3:
            wrong = 503
            add(f"The vendor answered HTTP {wrong} (capture.har:entry-{i + 1}).", "contradicted")
        elif k % 5 == 4:
            add(f"The vendor answered HTTP {status} (capture.har:entry-{len(entries) + 5 + k}).", "missing_evidence")
        else:
            add(f"The vendor answered HTTP {status} (capture.har:entry-{i + 1}).", "verified")
    for k in range(60):  # timestamps
        n, text, t = lines[100 + k]
        if k % 5 == 4:
            gap = GAP[0] + dt.timedelta(seconds=120 + k)
            add(f"Activity was recorded at timestamp:{gap.strftime('%Y-%m-%dT%H:%M:%SZ')}.", "missing_evidence")
        else:
            add(f"Activity was recorded at timestamp:{t.strftime('%Y-%m-%dT%H:%M:%SZ')}.", "verified")
    findings = "# Benchmark findings\n\n" + "".join(f"- {c}\n" for c in claims)
    for variant in ("minified", "pretty"):
        (out / variant / "findings.md").write_text(findings, encoding="utf-8")
        (out / variant / "expected.json").write_text(json.dumps({f"c{k}": v for k, v in expected.items()}, indent=1), encoding="utf-8")
    print(f"wrote {out}: log {log_path.stat().st_size / 1e9:.2f} GB ({last_line} lines), "
          f"HAR {len(entries)} entries ({(out / 'minified/bundle/capture.har').stat().st_size / 1e6:.0f} MB minified, "
          f"{(out / 'pretty/bundle/capture.har').stat().st_size / 1e6:.0f} MB pretty), {len(claims)} claims")


if __name__ == "__main__":
    main()
