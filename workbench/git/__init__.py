"""Git access: the only package that imports pygit2 or runs the git binary."""
