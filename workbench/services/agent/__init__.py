"""The sync agent's instrument: the worklist as a queue, decisions with checked claims, one record, a gate.

Front ends (``commands/queue.py``, ``show``, ``decide``, ``gate``, ``recall``,
``agent_guide``, ``mcp``) call these services; each returns plain data the
command prints as text or as ``workbench.agent/1`` JSON.
"""
