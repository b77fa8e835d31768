"""Tiny CPU experiments that check each learning objective's paper claim against that paper's baseline."""
