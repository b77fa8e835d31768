"""Tests of the learned rule model (memkit.rules.model)."""
