"""Squash-chain risk: which hunks of a sync silently dropped dev work, and why."""

from __future__ import annotations
