"""Parametric memory: torch modules that hold experience in weights (LION memory layer, objectives).

Modules (imported directly, so that importing this package costs nothing):

- ``product_key_memory``: the product-key memory layer and its optimizer helpers;
- ``semantic_ids``: item vectors from interactions, residual k-means semantic ids, the prefix trie;
- ``recommender``: the TIGER-style generative recommender, with the LION memory as an option;
- ``decoding``: beam search constrained to valid semantic ids.
"""
