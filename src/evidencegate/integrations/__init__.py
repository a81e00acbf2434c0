"""Entry points for agent frameworks and tools; each calls the library and re-implements no check.

- :mod:`evidencegate.integrations.langgraph_node`: a node and a router for LangGraph-style pipelines
  (plain functions over a state dict; LangGraph itself is not required).
"""
