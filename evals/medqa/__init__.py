"""MedQA-style evaluation of the EMR experience library: loaders, splits, runner, CLI, bench."""
