"""Reflection: the trait engine of seed 001 §3–§5 (triggers, the nine steps, detectors, trait math)."""
