"""``workbench mcp``: the agent's commands as MCP tools, one per command, answering the commands' own JSON.

In process (the SDK's in-memory client) a ``queue`` call returns the items ``workbench queue --json``
prints, a ``decide`` call writes what the command writes, and bad input is a tool error with the
command's one line; over stdio the server answers ``initialize`` and ``tools/list``.
"""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import anyio
import pytest
from helpers.agent import workbench

from workbench.sample import SampleSync

pytest.importorskip("mcp")
TOOLS = {"queue", "show", "decide", "gate", "recall", "agent-guide"}


def _call(repo: str, calls: list[tuple[str, dict[str, Any]]]) -> tuple[set[str], list[Any]]:
    from mcp import Client

    from workbench.commands.mcp import build_server

    async def session() -> tuple[set[str], list[Any]]:
        async with Client(build_server(repo), raise_exceptions=True) as client:
            listed = {tool.name for tool in (await client.list_tools()).tools}
            return listed, [await client.call_tool(name, args) for name, args in calls]

    return anyio.run(session)


def test_the_tools_are_the_commands_and_queue_answers_as_the_cli(sample_merge_commit: SampleSync) -> None:
    repo = str(sample_merge_commit.path)
    cli = workbench("queue", "--json", "--repo", repo).json()
    listed, (queued, shown) = _call(repo, [("queue", {}), ("show", {"id": cli["items"][0]["id"]})])
    assert listed == TOOLS
    assert not queued.is_error
    assert queued.structured_content["items"] == cli["items"]
    assert queued.structured_content["schema"] == "workbench.agent/1"
    assert json.loads(queued.content[0].text)["items"] == cli["items"]
    assert shown.structured_content["item"]["id"] == cli["items"][0]["id"]


def test_decide_through_the_tool_is_checked_and_recorded(sample_merge_commit: SampleSync) -> None:
    repo = str(sample_merge_commit.path)
    _listed, (refused, decided) = _call(repo, [
        ("decide", {"ids": ["commit-1692976f51"], "take": "result", "claim": "restored", "reason": "r"}),
        ("decide", {"ids": ["commit-9a3c14db0e"], "take": "result", "claim": "intentional-removal",
                    "evidence": ["9bf380a"], "reason": "main removed it"}),
    ])
    assert refused.structured_content["outcome"] == "refused"
    assert decided.structured_content["outcome"] == "decided"
    assert (sample_merge_commit.path / ".workbench" / "acks.toml").is_file()


def test_bad_input_is_a_tool_error_with_the_commands_line(sample_merge_commit: SampleSync) -> None:
    _listed, (answer,) = _call(str(sample_merge_commit.path), [("show", {"id": "commit-0000000000"})])
    assert answer.is_error
    assert "no item 'commit-0000000000'" in answer.content[0].text


def test_the_server_answers_initialize_and_tools_list_over_stdio(sample_merge_commit: SampleSync) -> None:
    server = subprocess.Popen([sys.executable, "-m", "workbench", "mcp", "--repo", str(sample_merge_commit.path)],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert server.stdin is not None and server.stdout is not None

    def send(message: dict[str, Any]) -> None:
        assert server.stdin is not None
        server.stdin.write((json.dumps(message) + "\n").encode())
        server.stdin.flush()

    def answer() -> dict[str, Any]:
        assert server.stdout is not None
        return dict(json.loads(server.stdout.readline()))

    try:
        send({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "test", "version": "1"}}})
        initialized = answer()
        assert initialized["id"] == 1 and initialized["result"]["serverInfo"]["name"] == "workbench"
        assert "tools" in initialized["result"]["capabilities"]
        send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        send({"jsonrpc": "2.0", "id": 2, "method": "tools/list"})
        tools = answer()["result"]["tools"]
        assert {tool["name"] for tool in tools} == TOOLS
        decide = next(tool for tool in tools if tool["name"] == "decide")
        assert set(decide["inputSchema"]["required"]) == {"ids", "take", "claim", "reason"}
        send({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "queue", "arguments": {}}})
        queued = answer()["result"]
        assert queued["structuredContent"]["items"] == workbench(
            "queue", "--json", "--repo", str(sample_merge_commit.path)).json()["items"]
    finally:
        server.stdin.close()
        server.wait(timeout=30)
    assert server.returncode == 0
