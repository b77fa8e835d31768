"""Parametric memory: torch modules that hold experience in weights (LION memory layer, objectives)."""
