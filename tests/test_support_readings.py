"""How evidence is read for support: units as logs write them, declared zones, flat configs, bare HAR entry
references, directions of change, and words the evidence negates. Each case has a right and a wrong claim."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest

import citeproof

NOW = dt.datetime(2026, 11, 30, tzinfo=dt.UTC)


def _statuses(findings: str, bundle: Path) -> list[str]:
    return [c.status.value for c in citeproof.validate(findings, bundle, now=NOW, use_cache=False).claims]


def _bundle(tmp_path: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return tmp_path


@pytest.mark.parametrize(("line", "right", "wrong", "refuted"), [
    ("[2026-05-21T13:41:04.881+0000][gc] GC(4805) Pause Young (Normal) (G1 Evacuation Pause) 2488M->1902M(4096M) 12.1ms",
     "the heap fell to 1,902 MB",
     "the heap fell to 1,302 MB", "unsupported"),  # three amounts of memory: which one the claim means is not known
    ("2026-05-19 04:38:04.233 +00:00 [INF] Invoice sweep completed: 412 invoices processed in 00:00:04.2210000",
     "the sweep took about 4.2 s", "the sweep took about 42 s", "contradicted"),
    ("2026-05-19 04:38:04 INFO starting with -Xmx4g", "the JVM had a 4 GiB heap", "the JVM had an 8 GiB heap", "contradicted"),
    ("2026-05-19 04:38:04 INFO memory used:3442183168 allowed:3435973836", "the limit was 3,435,973,836 allowed bytes",
     "the limit was 3,435,973,837 allowed bytes", "unsupported"),  # bare numbers: no amount of bytes written to refute it
    ("Oct 13 02:15:57 batch-11 systemd[1]: ingest-worker.service: Watchdog timeout (limit 1min 30s)!",
     "the watchdog limit was 90 seconds", "the watchdog limit was 60 seconds", "contradicted"),
    ("Mar 14 02:47:02 ntp01 chronyd[812]: System clock wrong by -0.904117 seconds, adjustment started",
     "the clock was about 0.9 s wrong", "the clock was about 9 s wrong", "contradicted"),
    ("2026-05-19 04:38:04 INFO request served", "the request took 2 seconds", "the request took 3 seconds", None),
])
def test_sizes_and_durations_as_logs_write_them(tmp_path: Path, line: str, right: str, wrong: str, refuted: str | None) -> None:
    """A wrong amount is contradicted when the cited line writes one other amount of that dimension, unsupported
    when it writes several; a line writing none shows neither the right nor the wrong one (both unsupported)."""
    bundle = _bundle(tmp_path, {"app.log": line + "\n"})
    expected = ["verified", refuted] if refuted else ["unsupported", "unsupported"]
    assert _statuses(f"- {right} (app.log:1).\n- {wrong} (app.log:1).\n", bundle) == expected


def test_a_declared_zone_reads_the_claims_times(tmp_path: Path) -> None:
    bundle = _bundle(tmp_path, {"app.log": "2026-09-22T01:44:17Z ERROR worker killed by the OOM killer\n"})
    claims = "- 03:44:17 — the worker was killed by the OOM killer (app.log:1).\n"
    assert _statuses(claims, bundle) == ["unsupported"]  # no zone declared: 03:44:17 is not 01:44:17 UTC
    assert _statuses("All times below are CEST (UTC+2).\n\n" + claims, bundle) == ["verified"]
    assert _statuses("All times below are EDT.\n\n" + claims, bundle) == ["unsupported"]


def test_a_flat_key_value_config_without_sections(tmp_path: Path) -> None:
    conf = "# written by patroni\ninclude 'postgresql.base.conf'\narchive_timeout = 300   # seconds\nwal_level = 'replica'\n"
    bundle = _bundle(tmp_path, {"postgresql.conf": conf})
    claims = ("- archive_timeout is 5 minutes (config:postgresql.conf#archive_timeout).\n"
              "- archive_timeout is 10 minutes (config:postgresql.conf#archive_timeout).\n")
    assert _statuses(claims, bundle) == ["verified", "unsupported"]  # the key names no unit: 300 is not shown to be 10 min


def _har(statuses: list[int]) -> str:
    entries = [{"startedDateTime": f"2026-03-14T02:14:0{i}.000Z", "time": 12.5, "request": {"method": "GET",
                "url": f"https://shop.example.com/api/{i}", "headers": []}, "response": {"status": s, "statusText": "",
                "headers": [], "content": {"size": 0, "text": ""}}} for i, s in enumerate(statuses)]
    return json.dumps({"log": {"version": "1.2", "entries": entries}})


def test_bare_entry_references_in_a_one_capture_bundle(tmp_path: Path) -> None:
    bundle = _bundle(tmp_path, {"checkout.har": _har([200, 200, 204, 502])})
    report = citeproof.validate("- Entries 1-2 both returned 200.\n- Entry 4 returned 200.\n", bundle, now=NOW, use_cache=False)
    assert [c.status.value for c in report.claims] == ["verified", "contradicted"]
    assert report.claims[1].citations[0].citation_format == "har:entry"
    two = _bundle(tmp_path / "two", {"a.har": _har([200]), "b.har": _har([200])})
    assert _statuses("- Entry 1 returned 200.\n", two) == ["uncited"]  # with two captures a bare entry names none


def test_a_change_recorded_the_other_way_round(tmp_path: Path) -> None:
    line = 'ts=2026-04-21T03:12:00Z level=info component=remote msg="Remote storage resharding" from=4 to=9\n'
    bundle = _bundle(tmp_path, {"prometheus.log": line})
    claims = ("- Prometheus resharded its remote storage from 4 to 9 shards (prometheus.log:1).\n"
              "- Prometheus resharded its remote storage from 9 to 4 shards (prometheus.log:1).\n")
    assert _statuses(claims, bundle) == ["verified", "contradicted"]


def test_a_word_the_evidence_negates_does_not_anchor(tmp_path: Path) -> None:
    line = "2026-04-21T03:12:00Z ERROR task s3-sink-1 threw an unrecoverable exception and will not recover until restarted\n"
    bundle = _bundle(tmp_path, {"connect.log": line})
    claims = ("- Task s3-sink-1 threw an unrecoverable exception and needs a restart (connect.log:1).\n"
              "- Task s3-sink-1 threw an exception but would recover by itself (connect.log:1).\n")
    assert _statuses(claims, bundle) == ["verified", "unsupported"]


def test_an_absence_the_evidence_states_agrees_with_the_claim(tmp_path: Path) -> None:
    bundle = _bundle(tmp_path, {"run.log": "2026-09-18T02:17:01Z ERROR run finished with status=failed (0 invoices written)\n"})
    assert _statuses("- No invoices were written (run.log:1).\n", bundle) == ["verified"]
    written = _bundle(tmp_path / "w", {"run.log": "2026-09-18T02:17:01Z INFO run finished, 12 invoices written\n"})
    assert _statuses("- No invoices were written (run.log:1).\n", written) == ["contradicted"]


def test_a_yaml_config_under_a_conf_name(tmp_path: Path) -> None:
    conf = "# mongod.conf\nnet:\n  port: 27017\n  maxIncomingConnections: 800\nsecurity:\n  authorization: enabled\n"
    bundle = _bundle(tmp_path, {"config/mongod.conf": conf})
    claims = ("- mongod accepts at most 800 incoming connections (config:config/mongod.conf#net.maxIncomingConnections).\n"
              "- mongod accepts at most 900 incoming connections (config:config/mongod.conf#net.maxIncomingConnections).\n")
    assert _statuses(claims, bundle) == ["verified", "contradicted"]


def test_a_footnote_marker_after_the_stop_ends_the_sentence(tmp_path: Path) -> None:
    bundle = _bundle(tmp_path, {"app.log": "2026-10-21T01:00:00Z INFO execution nightly started\n"
                                           "2026-10-21T01:30:02Z ERROR execution nightly failed in PayoutsDeadLettered\n"})
    findings = ("The execution started at 01:00:00.[^1] It failed at 01:30:02 in PayoutsDeadLettered.[^2] "
                "It crashed the database.[^1]\n\n[^1]: app.log:1\n[^2]: app.log:2\n")
    report = citeproof.validate(findings, bundle, now=NOW, use_cache=False)
    assert [c.status.value for c in report.claims] == ["verified", "verified", "unsupported"]


def test_a_count_over_a_range_is_not_excused_by_the_same_number_elsewhere(tmp_path: Path) -> None:
    """"4 requests" over six access-log lines: the 4 in a byte count is not the evidence stating the count."""
    lines = [f'203.0.113.{n} - - [17/May/2015:10:05:0{n} +0000] "GET /a{n} HTTP/1.1" 200 {4 if n == 1 else 1200 + n} "-" "curl/8"'
             for n in range(1, 7)]
    bundle = _bundle(tmp_path, {"access.log": "\n".join(lines) + "\n"})
    assert _statuses("- The log holds 6 requests (access.log:1-6).\n- The log holds 4 requests (access.log:1-6).\n",
                     bundle) == ["verified", "contradicted"]


def test_the_size_of_a_change_the_evidence_writes(tmp_path: Path) -> None:
    line = "[2026-02-17T09:42:10.575+0000][gc] GC(45) Pause Full (G1 Compaction Pause) 1536M->1120M(1536M) 2977.910ms"
    bundle = _bundle(tmp_path, {"gc.log": line + "\n"})
    findings = ("- The Full GC freed about 416 MB (gc.log:1).\n"
                "- The Full GC freed about 600 MB (gc.log:1).\n"
                "- The Full GC took 416 MB (gc.log:1).\n")  # no word of a change: 416 MB is no amount the line writes
    assert _statuses(findings, bundle) == ["verified", "unsupported", "unsupported"]


def test_an_exit_status_above_128_names_the_signal(tmp_path: Path) -> None:
    bundle = _bundle(tmp_path, {"pod.txt": "    Last State:     Terminated\n      Reason:       Error\n      Exit Code:    137\n"})
    findings = "- The container was ended by SIGKILL (pod.txt:1-3).\n- The container was ended by SIGTERM (pod.txt:1-3).\n"
    assert _statuses(findings, bundle) == ["verified", "unsupported"]


def test_the_same_evidence_cited_twice_counts_once(tmp_path: Path) -> None:
    lines = "".join(f'203.0.113.7 - - [02/Mar/2026:14:02:1{i} +0000] "GET /a HTTP/1.1" 429 0 "-" "curl/8.5"\n' for i in range(3))
    bundle = _bundle(tmp_path, {"access.log": lines})
    assert _statuses("- Three requests got 429 (access.log:1-3) (access.log:1-3).\n", bundle) == ["verified"]


def test_a_count_of_entities_counts_distinct_ones(tmp_path: Path) -> None:
    lines = "".join(f"2026-10-20 09:14:0{i} UTC [{pid}] app@orders LOG:  process {pid} still waiting for ShareLock\n"
                    f"2026-10-20 09:14:0{i} UTC [{pid}] app@orders STATEMENT:  SELECT 1\n" for i, pid in enumerate((51877, 51880, 51893)))
    bundle = _bundle(tmp_path, {"postgresql.log": lines})
    findings = "- Three app backends were waiting for a ShareLock (postgresql.log:1-6).\n" \
               "- Four app backends were waiting for a ShareLock (postgresql.log:1-6).\n"
    assert _statuses(findings, bundle) == ["verified", "contradicted"]


def test_a_value_written_as_a_word(tmp_path: Path) -> None:
    bundle = _bundle(tmp_path, {"env.log": "hostname: web-01\ncpu_cores: 8\n"})
    findings = "- The host has eight CPU cores (env:cpu_cores).\n- The host has sixteen CPU cores (env:cpu_cores).\n"
    assert _statuses(findings, bundle) == ["verified", "contradicted"]


def test_a_negated_outcome_against_the_status_class(tmp_path: Path) -> None:
    lines = ('203.0.113.7 - - [02/Mar/2026:14:02:11 +0000] "GET /logout HTTP/1.1" 302 0 "-" "curl/8.5"\n'
             '203.0.113.7 - - [02/Mar/2026:14:02:12 +0000] "GET /home HTTP/1.1" 200 512 "-" "curl/8.5"\n')
    bundle = _bundle(tmp_path, {"access.log": lines})
    findings = ("- The logout request was not redirected (access.log:1).\n"
                "- The home page request did not succeed (access.log:2).\n"
                "- The home page request did not fail (access.log:2).\n")
    assert _statuses(findings, bundle) == ["contradicted", "contradicted", "verified"]


def test_a_list_of_durations_is_not_one_duration(tmp_path: Path) -> None:
    bundle = _bundle(tmp_path, {"app.log": "2026-03-02 14:02:11 INFO retry backoff schedule: 1s 2s 4s 8s\n"})
    assert _statuses("- The last retry waited 8 seconds (app.log:1).\n", bundle) == ["verified"]


def test_respective_identifiers_are_one_per_item(tmp_path: Path) -> None:
    lines = "2026-03-02 14:02:11 pod api-0 OOMKilled on node-7\n2026-03-02 14:02:19 pod api-1 OOMKilled on node-9\n"
    bundle = _bundle(tmp_path, {"k.log": lines})
    findings = ("- Both pods, api-0 and api-1, were OOMKilled (k.log:1) (k.log:2).\n"
                "- Both pods api-0 and api-1 were OOMKilled on node-7 (k.log:1) (k.log:2).\n")
    assert _statuses(findings, bundle) == ["verified", "unsupported"]


def test_clients_are_counted_by_their_addresses(tmp_path: Path) -> None:
    lines = "".join(f"2026-03-02 14:02:1{i} pgbouncer closing because: client close request client={ip}:5000\n"
                    for i, ip in enumerate(("10.0.0.5", "10.0.0.5", "10.0.0.6", "10.0.0.6")))
    bundle = _bundle(tmp_path, {"pgbouncer.log": lines})
    findings = ("- Two clients closed their connections (pgbouncer.log:1-4).\n"
                "- Three clients closed their connections (pgbouncer.log:1-4).\n")
    assert _statuses(findings, bundle) == ["verified", "contradicted"]


def test_a_stamp_without_a_year_takes_the_year_of_the_others(tmp_path: Path) -> None:
    bundle = _bundle(tmp_path, {"cert.txt": "notAfter=Mar 13 23:01:11 2026 GMT\n",
                                "haproxy.log": "Mar 13 23:29:41 edge-lb-01 haproxy[2314]: [NOTICE] (2314) : Reloading HAProxy\n"})
    findings = ("- HAProxy was reloading about 28 minutes after notAfter (cert.txt:1) (haproxy.log:1).\n"
                "- HAProxy was reloading about 40 minutes after notAfter (cert.txt:1) (haproxy.log:1).\n")
    assert _statuses(findings, bundle) == ["verified", "contradicted"]


def test_the_size_of_a_change_keeps_its_direction(tmp_path: Path) -> None:
    line = "[2026-02-17T09:42:10.575+0000][gc] GC(45) Pause Full (G1 Compaction Pause) 1536M->1120M(1536M) 2977.910ms"
    bundle = _bundle(tmp_path, {"gc.log": line + "\n"})
    report = citeproof.validate("- The heap freed about 416 MB (gc.log:1).\n- The heap grew by about 416 MB (gc.log:1).\n",
                                bundle, now=NOW, use_cache=False)
    quantity = [next(v.code for v in c.checks if v.check == "quantities") for c in report.claims]
    assert quantity == ["quantity.shown", "quantity.absent"]



def test_an_exit_status_is_not_an_http_status(tmp_path: Path) -> None:
    line = "Oct 14 05:00:01 db-backup-01 systemd[1]: pg-backup.service: Main process exited, code=exited, status=143/n/a\n"
    bundle = _bundle(tmp_path, {"journal.log": line})
    report = citeproof.validate("- The main process exited with status 143 (journal.log:1).\n"
                                "- The main process exited with status 137 (journal.log:1).\n", bundle, now=NOW, use_cache=False)
    assert report.claims[0].status.value == "verified"
    assert report.claims[1].status.value != "verified"
    assert all(v.check != "statuses" for c in report.claims for v in c.checks)


def test_a_thousands_separator_does_not_make_a_status(tmp_path: Path) -> None:
    entries = [{"startedDateTime": f"2026-03-14T09:1{i}:52.240Z", "time": 40,
                "request": {"method": "GET", "url": "https://dash.example.com/api/fleet/summary", "headers": []},
                "response": {"status": 200, "statusText": "OK", "headers": [],
                             "content": {"text": json.dumps({"devices_online": n}), "mimeType": "application/json"}}}
               for i, n in enumerate((1184, 1171))]
    bundle = _bundle(tmp_path, {"d.har": json.dumps({"log": {"version": "1.2", "entries": entries}})})
    report = citeproof.validate("- Devices reported online fell from 1,184 to 1,171 (d.har:entry-1) (d.har:entry-2).\n",
                                bundle, now=NOW, use_cache=False)
    assert all(v.check != "statuses" for v in report.claims[0].checks)
    assert report.claims[0].status.value != "contradicted"


def test_kubernetes_events_are_kubelets(tmp_path: Path) -> None:
    row = ("2026-10-14T10:15:32Z   2026-10-14T10:15:32Z   1   kube-system   Normal   Killing   Pod   coredns-7db6d8ff4d-h8m2t   "
           "Container coredns failed liveness probe, will be restarted\n")
    bundle = _bundle(tmp_path, {"events.txt": row})
    findings = ("- At 10:15:32 kubelet killed the coredns container in h8m2t after the failed liveness probe (events.txt:1).\n"
                "- At 10:15:32 containerd killed the coredns container in h8m2t after the failed liveness probe (events.txt:1).\n")
    assert _statuses(findings, bundle) == ["verified", "unsupported"]


def test_an_event_in_another_verb_form_is_not_its_opposite(tmp_path: Path) -> None:
    lines = ("2026-03-14T09:04:58: mosquitto version 2.0.18 terminating\n"
             "2026-03-14T09:05:01: mosquitto version 2.0.18 starting\n")
    bundle = _bundle(tmp_path, {"mosquitto.log": lines})
    findings = ("- Mosquitto 2.0.18 shut down at 09:04:58 and was starting again at 09:05:01 (mosquitto.log:1-2).\n"
                "- Mosquitto 2.0.18 crashed at 09:04:58 (mosquitto.log:1).\n")
    assert _statuses(findings, bundle) == ["verified", "unsupported"]


def _har(statuses: list[int]) -> str:
    entries = [{"startedDateTime": f"2026-03-14T09:16:{i:02d}.000Z", "time": 20,
                "request": {"method": "GET", "url": f"https://dash.example.com/api/fleet/{i}", "headers": []},
                "response": {"status": st, "statusText": "", "headers": [], "content": {}}} for i, st in enumerate(statuses)]
    return json.dumps({"log": {"version": "1.2", "entries": entries}})


def test_a_counted_status_over_a_range_is_not_every_entry(tmp_path: Path) -> None:
    bundle = _bundle(tmp_path, {"d.har": _har([200, 503, 503, 200, 503])})
    findings = ("- The dashboard received 3 HTTP 503 responses (d.har:entries-1-5).\n"
                "- The dashboard received HTTP 503 responses (d.har:entries-1-5).\n"
                "- The API started answering HTTP 503 at 09:16:01 (d.har:entries-1-5).\n")
    assert _statuses(findings, bundle) == ["verified", "unsupported", "verified"]


def test_an_exception_is_left_out_of_an_absence(tmp_path: Path) -> None:
    lines = ("09:08:17: Client sensor-gw-07 closed its connection.\n"
             "09:14:02: Client ingest-worker-1 has exceeded timeout, disconnecting.\n"
             "09:20:11: Client sensor-gw-12 has exceeded timeout, disconnecting.\n")
    bundle = _bundle(tmp_path, {"mosquitto.log": lines})
    findings = ("- Apart from sensor-gw-12, no sensor gateway exceeded its timeout (mosquitto.log:1) (mosquitto.log:3).\n"
                "- No sensor gateway exceeded its timeout (mosquitto.log:1) (mosquitto.log:3).\n")
    assert _statuses(findings, bundle) == ["verified", "contradicted"]


def test_bare_lines_belong_to_the_file_the_paragraph_cited(tmp_path: Path) -> None:
    bundle = _bundle(tmp_path, {"access.log": "a\nb\nc ERROR HTTP 429\nd HTTP 429\n"})
    findings = ("The access log shows the limit being hit (access.log:3). Lines 3-4 are two HTTP 429 responses.\n\n"
                "Lines 3-4 are two HTTP 429 responses.\n")
    assert _statuses(findings, bundle) == ["verified", "verified", "uncited"]


def test_uncited_sentences_under_action_items_are_not_claims(tmp_path: Path) -> None:
    bundle = _bundle(tmp_path, {"app.log": "2026-01-15 10:30:45 ERROR HTTP 429 Too Many Requests\n"})
    findings = ("## Findings\n\n- The vendor API answered HTTP 429 (app.log:1).\n- The vendor API has a quota of 100 requests.\n\n"
                "## 5. Action items\n\n- Replace the API key and raise the quota.\n- Assumption: the quota is per key.\n")
    report = citeproof.validate(findings, bundle, now=NOW, use_cache=False)
    assert [(c.claim[:24], c.status.value) for c in report.claims] == [
        ("The vendor API answered ", "verified"), ("The vendor API has a quo", "uncited")]
    assert [c.claim for c in report.unverified_observations] == ["Assumption: the quota is per key."]


def test_a_structured_question_or_plan_is_not_a_claim(tmp_path: Path) -> None:
    bundle = _bundle(tmp_path, {"app.log": "2026-01-15 10:30:45 ERROR HTTP 429 Too Many Requests\n"})
    findings = json.dumps([{"id": "c1", "claim": "Findings for the vendor outage investigation, one per entry."},
                           {"id": "c2", "claim": "The vendor API answered HTTP 429.", "citations": ["app.log:1"]},
                           {"id": "c3", "claim": "Was the quota lowered last week?"},
                           {"id": "c4", "claim": "Next I will ask the vendor for their quota logs."},
                           {"id": "c5", "claim": "The quota is 100 requests per minute."}])
    report = citeproof.validate(findings, bundle, now=NOW, use_cache=False)
    assert [(c.id, c.status.value) for c in report.claims] == [("c2", "verified"), ("c5", "uncited")]


@pytest.mark.parametrize(("line", "claim"), [
    ("[Wed May 20 09:05:16.203447 2015] [mpm_event:error] [pid 2161:tid 1398] AH00484: server reached MaxRequestWorkers setting",
     "Apache reached its MaxRequestWorkers setting at 09:05:16"),
    ('{"level":50,"msg":"idempotency write failed","err":"ReplyError: OOM command not allowed when used memory > \'maxmemory\'."}',
     "The idempotency write failed because Redis was out of memory"),
])
def test_software_named_by_the_shape_of_its_messages(tmp_path: Path, line: str, claim: str) -> None:
    bundle = _bundle(tmp_path, {"e.log": line + "\n"})
    assert _statuses(f"- {claim} (e.log:1).\n- {claim.replace('Apache', 'Nginx').replace('Redis', 'MySQL')} (e.log:1).\n",
                     bundle) == ["verified", "unsupported"]


def test_an_event_in_a_har_body_is_shown(tmp_path: Path) -> None:
    entry = {"startedDateTime": "2026-11-24T10:20:45.000Z", "time": 40,
             "request": {"method": "GET", "url": "https://dash.example.com/api/webhooks/health", "headers": []},
             "response": {"status": 200, "statusText": "OK", "headers": [],
                          "content": {"mimeType": "application/json", "text": json.dumps({"consecutive_failures": 58})}}}
    bundle = _bundle(tmp_path, {"d.har": json.dumps({"log": {"version": "1.2", "entries": [entry]}})})
    findings = ("- Webhook health reports 58 consecutive failures (d.har:entry-1).\n"
                "- Webhook health reports 85 consecutive failures (d.har:entry-1).\n")
    assert _statuses(findings, bundle)[0] == "verified"
    assert _statuses(findings, bundle)[1] != "verified"


def test_every_one_of_a_count_the_line_reports(tmp_path: Path) -> None:
    line = "2026-10-14T10:05:46.121556+0000 mgr.ceph-mon01 (mgr.14152) 9013 : cluster [DBG] pgmap v913413: 2048 pgs: 2048 active+clean\n"
    bundle = _bundle(tmp_path, {"ceph.log": line})
    findings = ("- Every one of the 2048 placement groups was active+clean (ceph.log:1).\n"
                "- Every placement group of the cluster was active+clean (ceph.log:1).\n")
    assert _statuses(findings, bundle) == ["verified", "unsupported"]


def test_an_hour_is_a_window(tmp_path: Path) -> None:
    lines = "".join(f'10.0.0.1 - - [20/May/2015:09:{m:02d}:48 +0000] "GET /a HTTP/1.1" 200 512 "-" "curl"\n' for m in (5, 35))
    bundle = _bundle(tmp_path, {"access.log": lines})
    findings = ("- The 09:00 UTC hour served 2 requests (access.log:1-2).\n- The 10:00 UTC hour served 2 requests (access.log:1-2).\n")
    assert _statuses(findings, bundle)[0] == "verified"
    assert _statuses(findings, bundle)[1] != "verified"


def test_a_total_and_its_subset_are_counted_apart(tmp_path: Path) -> None:
    lines = "".join(f'10.0.0.1 - - [20/May/2015:09:05:{i:02d} +0000] "GET /p{i} HTTP/1.1" {404 if i < 3 else 200} 512 "-" "bot"\n'
                    for i in range(8))
    bundle = _bundle(tmp_path, {"access.log": lines})
    findings = ("- Lines 1-8 of access.log hold 8 requests, 3 of them 404s.\n"
                "- Lines 1-8 of access.log hold 8 requests, 4 of them 404s.\n")
    assert _statuses(findings, bundle) == ["verified", "contradicted"]


_ACCESS = "".join(
    f'203.0.113.{7 + i % 2} - - [02/Mar/2026:14:02:{10 + i} +0000] "{method} /objects/{i} HTTP/1.1" {status} 311 "-" "aws-sdk/2"\n'
    for i, (method, status) in enumerate([("PUT", 503), ("PUT", 503), ("GET", 503), ("PUT", 200), ("GET", 404), ("PUT", 503)]))


@pytest.mark.parametrize(("right", "wrong"), [
    # "N of the M": N counts what M counts; M is the whole, not a count of the status
    ("4 of the 6 requests failed with 503 (access.log:1-6).", "5 of the 6 requests failed with 503 (access.log:1-6)."),
    # a count by method: the requests of that method among those with the status
    ("The range holds four responses with status 503: 3 PUTs and 1 GETs (access.log:1-6).",
     "The range holds four responses with status 503: 2 PUTs and 2 GETs (access.log:1-6)."),
    # "all" over the cited lines: each line records the status; over the ones of a client, each of those
    ("All requests from 203.0.113.7 returned 503 (access.log:1-3).", "Every request in lines 1-6 returned 503 (access.log:1-6)."),
    # the status itself is what "all" ranges over: "all of the 503s", "the 503s were ..." (a fact about those items)
    ("All of the 503s were answered with a 311-byte body (access.log:1-6).", "All responses were 503s (access.log:1-6)."),
])
def test_counts_and_universals_over_an_access_log(tmp_path: Path, right: str, wrong: str) -> None:
    bundle = _bundle(tmp_path, {"access.log": _ACCESS})
    right_status, wrong_status = _statuses(f"- {right}\n- {wrong}\n", bundle)
    assert right_status == "verified"
    assert wrong_status == "contradicted"


def test_a_slash_timestamp_keeps_its_offset_and_a_bare_offset_is_no_time(tmp_path: Path) -> None:
    bundle = _bundle(tmp_path, {"tikv.log": '[2026/09/02 14:03:11.482 +08:00] [INFO] [raft.rs:1550] ["became leader at term 12"] '
                                            "[term=12] [raft_id=4012] [region_id=4009]\n"})
    findings = ("- Peer 4012 became leader of region 4009 in term 12 at 06:03:11 UTC (tikv.log:1).\n"
                "- Peer 4012 became leader of region 4009 in term 12 at 14:03:11 (+08:00) (tikv.log:1).\n"
                "- Peer 4012 became leader of region 4009 in term 12 at 14:03:11 UTC (tikv.log:1).\n")
    assert _statuses(findings, bundle) == ["verified", "verified", "unsupported"]


@pytest.mark.parametrize(("line", "right", "wrong", "refuted"), [
    # the head words of a negated clause said by the line itself refute it; a line that says they are absent agrees
    ("2026-03-27 14:09:57 INFO   ci-runner-07-1 Heartbeat sent at 2026-03-27T14:09:57Z",
     "A heartbeat was sent at 14:09:57", "No heartbeat was sent at 14:09:57", "contradicted"),
    ('time="2026-08-21T11:00:07Z" level=info msg="Endpoints restored" failed=0 restored=42 subsys=daemon',
     "The agent restored 42 endpoints and none failed", "On startup the agent did not restore any endpoints", "contradicted"),
    ("INFO  2026-08-12 03:33:40,882 [shard 2:main] hints_manager - Finished sending hints to 10.20.0.13: 3811 hints sent",
     "3811 hints were sent to 10.20.0.13", "No hints were sent to 10.20.0.13 after it came back", "contradicted"),
    # a word-number name shortened from the evidence's longer one, or joined in the file name
    ("ledger-worker-3 | 2026-07-21 03:14:22,509 INFO [Consumer clientId=consumer-payments-ledger-3, groupId=payments-ledger] "
     "(Re-)joining group", "consumer-3 rejoined the group", "consumer-1 rejoined the group", "unsupported"),
    # a CamelCase term of the operations lexicon, said in other words
    ("Mar 03 03:14:07 worker-a1 kernel: Memory cgroup out of memory: Killed process 24811 (java) total-vm:3841220kB",
     "The java process 24811 was OOMKilled", "The java process 24811 went into CrashLoopBackOff", "unsupported"),
])
def test_negated_clauses_and_shortened_names(tmp_path: Path, line: str, right: str, wrong: str, refuted: str) -> None:
    bundle = _bundle(tmp_path, {"app.log": line + "\n"})
    assert _statuses(f"- {right} (app.log:1).\n- {wrong} (app.log:1).\n", bundle) == ["verified", refuted]


def test_an_absence_after_a_time_is_read_on_the_lines_after_it(tmp_path: Path) -> None:
    events = ("2026-03-03T03:40:28Z   Warning  OOMKilling         node/worker-a1   kernel-monitor  Memory cgroup out of memory\n"
              "2026-03-03T03:45:31Z   Normal   ScalingReplicaSet  deployment/payments-api  deployment-controller  Scaled down\n"
              "2026-03-03T03:46:20Z   Normal   ScalingReplicaSet  deployment/payments-api  deployment-controller  Scaled down\n")
    bundle = _bundle(tmp_path, {"events.log": events})
    findings = ("- No OOM kill was recorded after the rollback began at 03:45:31 (events.log:1-3).\n"
                "- No OOM kill was recorded before 03:45:31 (events.log:1-3).\n"
                "- No OOM kill was recorded, since the rollback finished by 03:46:20 (events.log:1-3).\n")  # a reason, not a window
    assert _statuses(findings, bundle) == ["verified", "contradicted", "contradicted"]


def test_a_table_time_column_names_the_zone_of_its_rows(tmp_path: Path) -> None:
    bundle = _bundle(tmp_path, {"events.txt": "2026-11-05T22:02:14Z  search  Normal  SuccessfulRescale  hpa/search-api  "
                                              "New size: 8; reason: cpu resource utilization above target\n"
                                              "2026-11-05T22:03:58Z  search  Normal  NodeReady  node/ip-10-0-3-7  Node is ready\n"
                                              "2026-11-05T22:04:00Z  search  Normal  NodeReady  node/ip-10-0-3-9  Node is ready\n"})
    findings = ("| Time (PT, UTC-8) | Event | Source |\n|---|---|---|\n"
                "| 2:02:14 PM | The HPA rescaled search-api to 8 | events.txt:1 |\n"
                "| 2:03:58–2:04:00 PM | Nodes ip-10-0-3-7 and ip-10-0-3-9 became ready | events.txt:2-3 |\n"
                "| 3:02:14 PM | The HPA rescaled search-api to 8 | events.txt:1 |\n")
    assert _statuses(findings, bundle) == ["verified", "verified", "unsupported"]


def test_both_with_names_each_item_gives_in_its_file_name(tmp_path: Path) -> None:
    bundle = _bundle(tmp_path, {"mysqld-db1.err": "2026-05-12T02:40:00.000000Z 0 [System] [MY-010116] mysqld (mysqld 8.0.36) starting\n",
                                "mysqld-db2.err": "2026-05-12T02:40:01.000000Z 0 [System] [MY-010116] mysqld (mysqld 8.0.36) starting\n"})
    findings = ("- db-1 and db-2 both run MySQL 8.0.36 (mysqld-db1.err:1, mysqld-db2.err:1).\n"
                "- db-1 and db-3 both run MySQL 8.0.36 (mysqld-db1.err:1, mysqld-db2.err:1).\n")
    assert _statuses(findings, bundle) == ["verified", "unsupported"]


@pytest.mark.parametrize(("lines", "claim", "status"), [
    # found by the review of session 6: each reading must not overreach
    (["2026-03-03T03:40:28Z node-a1 kubelet: Started container app"], "node-1 started container app", "unsupported"),
    (["2026-03-03T03:40:28Z Warning Evicted pod/payments-api-x2k4q The node was low on resource: ephemeral-storage."],
     "The payments-api container was OOMKilled", "unsupported"),
    ([f"2026-03-03T03:40:{i:02d}Z upstream request to 10.0.0.{i} {'timed out' if i < 3 else 'ok'}" for i in range(8)],
     "3 of the 8 upstream requests timed out", "verified"),
    (["2026-03-03T03:40:28Z kubelet: Killing container app in pod payments-api-9zz1q"],
     "The kubelet did not kill any container in pod payments-api-x2k4q", "verified"),
    (["2026-09-02T06:19:05Z pool exhausted on orders-db"], "The pool was exhausted at 2026-09-02T14:19+08:00", "verified"),
])
def test_readings_do_not_overreach(tmp_path: Path, lines: list[str], claim: str, status: str) -> None:
    bundle = _bundle(tmp_path, {"app.log": "\n".join(lines) + "\n"})
    assert _statuses(f"- {claim} (app.log:1-{len(lines)}).\n", bundle) == [status]


def test_every_line_is_not_waived_by_an_unrelated_part(tmp_path: Path) -> None:
    bundle = _bundle(tmp_path, {"access.log": _ACCESS})
    assert _statuses("- All requests returned 503 after one of the pods restarted (access.log:1-6).\n", bundle) == ["contradicted"]


def test_a_table_zone_ends_with_the_table(tmp_path: Path) -> None:
    bundle = _bundle(tmp_path, {"events.txt": "2026-11-05T22:02:14Z  search  Normal  SuccessfulRescale  hpa/search-api  New size: 8\n"})
    findings = ("| Time (PT, UTC-8) | Event | Source |\n|---|---|---|\n| 2:02:14 PM | The HPA rescaled search-api to 8 | events.txt:1 |\n"
                "\n## Other notes\n\n| 22:02:14 | The HPA rescaled search-api to 8 | events.txt:1 |\n")
    assert _statuses(findings, bundle) == ["verified", "verified"]


def test_kept_vocabularies_stay_within_their_size_and_read_the_same() -> None:
    from citeproof.model import Evidence
    from citeproof.support.anchor import _evidence_vocabulary, _KeptVocabularies

    kept = _KeptVocabularies(limit=500)
    lines = [Evidence(kind="log", text=f"2026-03-03 03:40:{i:02d} ERROR upstream {i} timed out after retry", items=("x",))
             for i in range(40)]
    for e in lines + lines[:5]:
        assert kept.get(e) == _evidence_vocabulary(e)
        assert kept.size <= 500 and kept.size == sum(w for _, w in kept.kept.values())
    assert lines[0] in kept.kept and lines[10] not in kept.kept  # least recently used dropped first


def test_the_zone_grammar_docstring_examples_run() -> None:
    import doctest

    from citeproof import zones

    failed, attempted = doctest.testmod(zones)
    assert attempted >= 3 and not failed


def test_all_of_the_status_ranges_over_the_entries_with_it(tmp_path: Path) -> None:
    """"All 94 of the 503s come from loremflickr.com" over a whole capture: each 503 entry names the host, not each entry."""
    har = {"log": {"version": "1.2", "entries": [
        {"startedDateTime": f"2026-01-15T10:30:4{i}.000Z", "time": 10,
         "request": {"method": "GET", "url": url, "headers": []},
         "response": {"status": status, "statusText": "", "headers": [], "content": {}}}
        for i, (url, status) in enumerate([("https://www.example.com/", 200), ("http://loremflickr.com/a", 503),
                                           ("http://loremflickr.com/b", 503), ("https://cdn.example.com/x.js", 304)])]}}
    bundle = _bundle(tmp_path, {"c.har": json.dumps(har)})
    findings = ("- All of the 503s come from loremflickr.com (c.har:entries-1-4).\n"
                "- All of the 304s come from loremflickr.com (c.har:entries-1-4).\n")
    assert _statuses(findings, bundle) == ["verified", "unsupported"]


def test_a_time_before_a_colon_is_read_and_checked(tmp_path: Path) -> None:
    bundle = _bundle(tmp_path, {"kafka.log": "[2026-03-01 03:14:04,112] INFO [GroupCoordinator 2]: Member consumer-3 left group ledger\n"})
    right, wrong = "First rebalance 03:14:04: consumer-3 left (kafka.log:1).", "First rebalance 03:19:09: consumer-3 left (kafka.log:1)."
    assert _statuses(f"- {right}\n- {wrong}\n", bundle) == ["verified", "unsupported"]


def test_a_snapshot_file_names_the_minute_it_was_taken(tmp_path: Path) -> None:
    table = ("GROUP   TOPIC   PARTITION  CURRENT-OFFSET  LOG-END-OFFSET  LAG\n"
             "ledger  orders  7          100             61304           61204\n")
    bundle = _bundle(tmp_path, {"consumer-groups-0330.txt": table})
    assert _statuses("- Partition 7 lag at 03:30: 61,204 (consumer-groups-0330.txt:2).\n"
                     "- Partition 7 lag at 04:30: 61,204 (consumer-groups-0330.txt:2).\n", bundle) == ["verified", "unsupported"]


def test_a_dotted_number_indexes_a_list_in_a_config_key(tmp_path: Path) -> None:
    taskdef = json.dumps({"containerDefinitions": [{"name": "orders-api", "memory": 1024}]})
    bundle = _bundle(tmp_path, {"taskdef.json": taskdef})
    assert _statuses("- The hard memory limit is 1024 MiB (config:taskdef.json#containerDefinitions.0.memory).\n"
                     "- The hard memory limit is 1024 MiB (config:taskdef.json#containerDefinitions[0].memory).\n"
                     "- The hard memory limit is 1024 MiB (config:taskdef.json#containerDefinitions.1.memory).\n",
                     bundle) == ["verified", "verified", "missing_evidence"]


def test_php_fpm_times_and_numbers_that_are_no_instants(tmp_path: Path) -> None:
    bundle = _bundle(tmp_path, {
        "www.slow.log": "[14-Oct-2026 02:13:57]  [pool www] pid 31874\nscript_filename = /var/www/index.php\n",
        "console.log": "[19:15:39.548] downloadable font: download failed: status=2152398850 source: http://example.com/a.woff\n",
    })
    assert _statuses("- The slow log's first trace is pid 31874 (timestamp:2026-10-14T02:13:57Z).\n"
                     "- The font download failed at 19:15:39.548 (console.log:1).\n"
                     "- The font download failed at 19:17:39.548 (console.log:1).\n", bundle) == ["verified", "verified", "unsupported"]


def test_each_cited_key_is_read_where_the_claim_names_it(tmp_path: Path) -> None:
    bundle = _bundle(tmp_path, {"patroni.yml": "bootstrap:\n  dcs:\n    ttl: 30\n    loop_wait: 10\n",
                                "env.log": "os: Ubuntu 22.04.3 LTS\nsystemd.version: 249.11-0ubuntu3.10\n"})
    cites = "(config:patroni.yml#bootstrap.dcs.ttl, config:patroni.yml#bootstrap.dcs.loop_wait)"
    assert _statuses(f"- Patroni runs with ttl 30 and loop_wait 10 {cites}.\n"
                     f"- Patroni runs with ttl 10 and loop_wait 30 {cites}.\n"
                     "- The host runs Ubuntu 22.04.3 LTS with systemd 249 (env:os, env:systemd.version).\n"
                     "- The host runs Ubuntu 22.04.3 LTS with systemd 250 (env:os, env:systemd.version).\n",
                     bundle) == ["verified", "contradicted", "verified", "contradicted"]
