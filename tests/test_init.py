"""`citeproof init`: the validate skill and the hook configuration, merged and idempotent."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from citeproof.citations import REGISTRY
from citeproof.integrations.claude_init import merge_hooks
from citeproof.integrations.cli import init_command

EXISTING = {
    "model": "opus",
    "permissions": {"allow": ["Bash(npm test:*)"], "deny": ["Read(./.env)"]},
    "hooks": {
        "Stop": [{"hooks": [{"type": "command", "command": "./notify.sh"}]}],
        "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "./guard.sh"}]}],
    },
}


def init(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(init_command, list(args))
    return result.exit_code, result.output


def frontmatter(text: str) -> dict[str, str]:
    m = re.match(r"^---\n(.*?)\n---\n", text, re.S)
    assert m, "SKILL.md must start with YAML frontmatter"
    data = yaml.safe_load(m.group(1))
    assert isinstance(data, dict)
    return data


def test_fresh_project(tmp_path: Path) -> None:
    code, out = init(str(tmp_path))
    assert code == 0 and out.count("created: ") == 2
    skill = tmp_path / ".claude" / "skills" / "validate" / "SKILL.md"
    meta = frontmatter(skill.read_text(encoding="utf-8"))
    assert meta["name"] == "validate" == skill.parent.name and re.fullmatch(r"[a-z0-9-]+", meta["name"])
    assert 0 < len(meta["description"]) <= 1024 and "when" in meta["description"].lower()
    assert meta["allowed-tools"].startswith("Bash(citeproof:*)")
    assert len(skill.read_text(encoding="utf-8").splitlines()) < 500
    settings = json.loads((tmp_path / ".claude" / "settings.json").read_text(encoding="utf-8"))
    for event in ("Stop", "SubagentStop", "PostToolUse"):
        [group] = settings["hooks"][event]
        assert group["hooks"] == [{"type": "command", "command": "citeproof hook", "timeout": 120}]
    assert settings["hooks"]["PostToolUse"][0]["matcher"] == "Write|Edit|MultiEdit"


def test_skill_documents_every_citation_format(tmp_path: Path) -> None:
    init(str(tmp_path))
    text = (tmp_path / ".claude" / "skills" / "validate" / "SKILL.md").read_text(encoding="utf-8")
    for fmt in REGISTRY.values():
        assert f"| {fmt.id} |" in text and all(example in text for example in fmt.examples)
    assert "Unverified assumption" in text and "citeproof check" in text


def test_merge_keeps_existing_settings_and_is_idempotent(tmp_path: Path) -> None:
    path = tmp_path / ".claude" / "settings.json"
    path.parent.mkdir()
    path.write_text(json.dumps(EXISTING), encoding="utf-8")
    code, out = init(str(tmp_path), "--evidence", "cases/bundle dir")
    assert code == 0 and f"updated: {path}" in out
    merged = json.loads(path.read_text(encoding="utf-8"))
    assert {k: v for k, v in merged.items() if k != "hooks"} == {k: v for k, v in EXISTING.items() if k != "hooks"}
    assert merged["hooks"]["PreToolUse"] == EXISTING["hooks"]["PreToolUse"]
    assert merged["hooks"]["Stop"][0] == EXISTING["hooks"]["Stop"][0]
    assert merged["hooks"]["Stop"][1]["hooks"][0]["command"] == "citeproof hook --evidence 'cases/bundle dir'"
    before = path.read_bytes()
    code, out = init(str(tmp_path))
    assert code == 0 and out.count("unchanged: ") == 2 and path.read_bytes() == before


def test_existing_citeproof_hook_is_not_duplicated() -> None:
    settings = {"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "/opt/bin/citeproof hook --fail-open"}]}]}}
    merged = merge_hooks(settings)
    assert merged["hooks"]["Stop"] == settings["hooks"]["Stop"] and len(merged["hooks"]["SubagentStop"]) == 1


def test_an_edited_skill_is_kept_unless_forced(tmp_path: Path) -> None:
    init(str(tmp_path))
    skill = tmp_path / ".claude" / "skills" / "validate" / "SKILL.md"
    skill.write_text(skill.read_text(encoding="utf-8") + "\nOur team's note.\n", encoding="utf-8")
    code, out = init(str(tmp_path))
    assert code == 0 and "kept (differs; --force to overwrite)" in out and "Our team's note." in skill.read_text(encoding="utf-8")
    code, out = init(str(tmp_path), "--force")
    assert f"updated: {skill}" in out and "Our team's note." not in skill.read_text(encoding="utf-8")


@pytest.mark.parametrize("content", ["{not json", "[1, 2]", '{"hooks": []}', '{"hooks": {"Stop": {}}}'])
def test_unmergeable_settings_are_left_alone(tmp_path: Path, content: str) -> None:
    path = tmp_path / ".claude" / "settings.json"
    path.parent.mkdir()
    path.write_text(content, encoding="utf-8")
    code, out = init(str(tmp_path))
    assert code == 1 and "cannot merge the hook configuration" in out  # ClickException; main() maps it to exit 2
    assert path.read_text(encoding="utf-8") == content
    assert not (tmp_path / ".claude" / "skills").exists()  # nothing half-done


def test_missing_directory_is_an_error(tmp_path: Path) -> None:
    code, out = init(str(tmp_path / "nope"))
    assert code != 0 and "project directory not found" in out
