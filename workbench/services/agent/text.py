"""The agent commands' readable text, rendered from their JSON documents (one content, two forms).

Repository text goes through ``visible`` (control characters spelled out),
so a commit subject cannot move the cursor or retitle the terminal.
"""

from __future__ import annotations

from typing import Any

from workbench.analysis.display.safe_text import visible


def _loss(lost: dict[str, int]) -> str:
    parts = [f"{lost[side]} of {side}'s" for side in ("dev", "main") if lost.get(side)]
    return "loses " + " and ".join(parts) + " lines" if parts else "loses nothing"


def _sync(doc: dict[str, Any]) -> str:
    sync = doc["sync"]
    if sync["mode"] == "in-progress":
        return f"the merge in progress of {sync['main'][:10]} into {sync['dev'][:10]}"
    if sync["mode"] == "merge-commit":
        result = sync["result"] or sync["merge"]
        tail = f" (result {result[:10]})" if result != sync["merge"] else ""
        return f"merge {sync['merge'][:10]}{tail}"
    return f"the preview of {sync['main'][:10]} into {sync['dev'][:10]}"


def queue_text(doc: dict[str, Any]) -> str:
    summary = doc["summary"]
    lines = [f"Queue of {_sync(doc)}: {summary['items']} items ({summary['open']} open, {summary['partly']} partly "
             f"decided, {summary['decided']} decided; {summary['high']} high)."]
    for item in doc["items"]:
        lines.append("")
        lines.append(f"{item['level'].upper():6} {item['id']}  {item['state']}, {_loss(item['lost_lines'])}, "
                     f"{len(item['members'])} member{'s' if len(item['members']) != 1 else ''}")
        lines.append(f"       {visible(item['why'])}")
        choices = [f"{c['take']} ({_loss(c['lost_lines'])})" for c in item["choices"] if c["applies"]]
        if choices:
            lines.append(f"       takes: {', '.join(choices)}")
        lines.append(f"       claims: {', '.join(item['claims'])}; next: workbench show {item['id']}")
    return "\n".join(lines) + "\n"


def show_text(doc: dict[str, Any]) -> str:
    item = doc["item"]
    lines = [f"{item['id']}: {item['kind']}, {item['level']}, {item['state']} ({_sync(doc)})", visible(item["why"])]
    for commit in item["commits"]:
        subject = visible(commit["subject"]) if commit.get("subject") else "(not found)"
        pr = f" (#{commit['pr']})" if commit.get("pr") and f"#{commit['pr']}" not in subject else ""
        lines.append(f"  commit {commit['sha'][:10]} {subject}{pr}")
    for member, texts in zip(item["members"], item["texts"], strict=True):
        lines.append("")
        where = "the whole file" if member["hunk"] is None else f"hunk {member['hunk'] + 1} ({member['kind']})"
        lines.append(f"member {member['member']}: {visible(member['path'])}, {where}, {member['level']}, "
                     f"{member['state']}" + (f" by {member['decided_by']}" if member["decided_by"] else ""))
        lost = member["lost_lines"]
        for side in ("dev", "main"):
            if lost[side]:
                shown = ", ".join(f"{a}" if a == b else f"{a}-{b}" for a, b in lost[side])
                lines.append(f"  lost {side} lines: {shown}")
        if member["claim"]:
            claim = member["claim"]
            lines.append(f"  claim {claim['claim']}: {claim['status']} ({visible(claim['reason'])})")
        for side in ("base", "dev", "main", "result", "merged"):
            text = texts.get(side)
            if text is None:
                continue
            span = texts.get(f"{side}_lines")
            label = f"{side} {span[0]}-{span[1]}" if span else side
            lines.append(f"  --- {label}")
            lines.extend(f"  | {visible(line)}" for line in text)
        if member["takes"]:
            lines.append(f"  takes: {', '.join(member['takes'])}")
    lines.append("")
    lines.append("Decide it:")
    for command in item["commands"]:
        lines.append(f"  [{command['status']}] {visible(command['command'])}")
    for command in item.get("member_commands", ()):
        lines.append(f"  member {command['member']} ({', '.join(command['takes'])}): {visible(command['command'])}")
    return "\n".join(lines) + "\n"
