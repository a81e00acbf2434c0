"""Entry points for agent frameworks and tools; each calls the library and re-implements no check.

- :mod:`evidencegate.integrations.langgraph_node`: a node and a router for LangGraph-style pipelines
  (plain functions over a state dict; LangGraph itself is not required).
- :mod:`evidencegate.integrations.hook`: ``evidencegate hook``, the Claude Code hook (payload and
  transcript reading in :mod:`.hook_input`, the answer in :mod:`.hook_protocol`, the loop guard in
  :mod:`.hook_state`).
- :mod:`evidencegate.integrations.claude_init`: ``evidencegate init``, the ``validate`` skill
  (:mod:`.skill_md`) and the hook configuration for a project.
- :mod:`evidencegate.integrations.mcp_server`: ``evidencegate mcp``, an MCP server over stdio (extra ``mcp``).
- :mod:`evidencegate.integrations.inv_context`: the ``verification`` block of ``inv_context.json``.
- :mod:`evidencegate.integrations.jira_live`: opt-in live JIRA lookups over REST.
- :mod:`evidencegate.integrations.validator_hook`: ``ClaimValidatorHook.trigger`` for agents that
  count their claims themselves.
- :mod:`evidencegate.integrations.cli`: the click commands of the above.
"""
