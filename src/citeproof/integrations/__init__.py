"""Entry points for agent frameworks and tools; each calls the library and re-implements no check.

- :mod:`citeproof.integrations.langgraph_node`: a node and a router for LangGraph-style pipelines
  (plain functions over a state dict; LangGraph itself is not required).
- :mod:`citeproof.integrations.hook`: ``citeproof hook``, the Claude Code hook (payload and
  transcript reading in :mod:`.hook_input`, the answer in :mod:`.hook_protocol`, the loop guard in
  :mod:`.hook_state`).
- :mod:`citeproof.integrations.claude_init`: ``citeproof init``, the ``validate`` skill
  (:mod:`.skill_md`) and the hook configuration for a project.
- :mod:`citeproof.integrations.mcp_server`: ``citeproof mcp``, an MCP server over stdio (extra ``mcp``).
- :mod:`citeproof.integrations.inv_context`: the ``verification`` block of ``inv_context.json``.
- :mod:`citeproof.integrations.validator_hook`: ``ClaimValidatorHook.trigger`` for agents that
  count their claims themselves.
- :mod:`citeproof.integrations.cli`: the click commands of the above.
"""
