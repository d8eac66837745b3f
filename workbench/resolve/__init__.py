"""Deciding hunks and writing results: splice, session, journal, write."""
