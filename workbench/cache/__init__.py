"""A persistent, content-addressed cache of analyses in the user's cache directory.

Never needed for correctness: every entry is keyed by what the analysis is a
function of (commit ids, the tool's version and source, the policy, options,
git's version and settings), checked on read, and recomputed when missing,
corrupt or unreadable.  It never lives in the repository: ``analyze`` and
``report`` stay read-only on ``.git`` and the work tree.
"""

from workbench.cache.keys import cache_key, source_digest
from workbench.cache.store import DiskCache, default_cache_dir

__all__ = ["DiskCache", "cache_key", "default_cache_dir", "source_digest"]
# workbench.cache.analyses (load_analysis, save_analysis) loads the analysis model: import it where needed.
