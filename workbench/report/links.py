"""Links to commits on a known forge, from the repository's ``origin`` remote; anything else stays plain.

The remote URL is repository configuration (untrusted): only a URL of a
known host whose owner and name are plain path words becomes a link
template, so nothing from it can break out of a Markdown link.
"""

from __future__ import annotations

import re

_FORGES = {
    "github.com": "https://github.com/{path}/commit/{{sha}}",
    "gitlab.com": "https://gitlab.com/{path}/-/commit/{{sha}}",
    "bitbucket.org": "https://bitbucket.org/{path}/commits/{{sha}}",
}
_URL = re.compile(
    r"^(?:(?:https?|ssh|git)://(?:[^@/]+@)?(?P<host1>[A-Za-z0-9.-]+)(?::\d+)?/|(?:[^@/]+@)?(?P<host2>[A-Za-z0-9.-]+):)"
    r"(?P<path>[A-Za-z0-9_.-]+(?:/[A-Za-z0-9_.-]+)+)/?$"
)


def commit_link_template(remote: str | None) -> str | None:
    """``https://github.com/OWNER/NAME/commit/{sha}`` for a known forge's remote URL, else None."""
    if not remote:
        return None
    match = _URL.match(remote.strip())
    if match is None:
        return None
    host = (match.group("host1") or match.group("host2") or "").lower()
    template = _FORGES.get(host)
    path = match.group("path").removesuffix(".git")
    if template is None or ".." in path or (host != "gitlab.com" and path.count("/") != 1):
        return None
    return template.format(path=path)


def commit_link(template: str | None, sha: str) -> str | None:
    """The commit's URL, when there is a template and ``sha`` is a full or short hex id."""
    if template is None or not re.fullmatch(r"[0-9a-f]{7,64}", sha):
        return None
    return template.format(sha=sha)
