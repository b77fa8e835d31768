"""Conformance suites: one per memory protocol, run against every backend."""
