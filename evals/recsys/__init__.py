"""Streaming recommendation benchmark for LION parametric memory (``memkit lion run``)."""
