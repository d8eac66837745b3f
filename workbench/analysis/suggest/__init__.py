"""Suggested resolutions: for each conflict hunk a short menu of exact resolutions, and one suggestion where
the evidence stands behind it; for lock files and measured values one choice per file.

Pure functions of a hunk, its file and a few facts about the whole analysis
(``SuggestFacts``), so a pipeline stage, the JSON and the front ends all ask
the same ``suggest_file_hunks``.
"""
