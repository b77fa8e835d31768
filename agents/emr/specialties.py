"""The specialties a question can need, and a model-free planner that picks them by embedding similarity."""

from __future__ import annotations

import numpy as np

from memkit.embeddings import Embedder

__all__ = ["SPECIALTIES", "EmbeddingPlanner"]

SPECIALTIES: dict[str, str] = {
    "internal_medicine": "internal medicine: adult disease, diagnosis and management, hospital medicine",
    "cardiology": "cardiology: heart, blood pressure, arrhythmia, myocardial infarction, heart failure",
    "neurology": "neurology: brain, stroke, seizures, nerves, headache, dementia",
    "pediatrics": "pediatrics: infants, children, neonates, growth and development, vaccination",
    "obstetrics_gynecology": "obstetrics and gynecology: pregnancy, delivery, menstruation, ovaries, uterus",
    "surgery": "surgery: operations, trauma, postoperative care, acute abdomen, fractures",
    "infectious_disease": "infectious disease: bacteria, viruses, antibiotics, fever, sepsis, HIV",
    "pharmacology": "pharmacology: drugs, mechanisms of action, adverse effects, dosing, interactions",
    "psychiatry": "psychiatry: depression, anxiety, psychosis, substance use, behaviour",
    "oncology": "oncology: cancer, tumours, chemotherapy, screening for malignancy",
    "basic_science": "basic science: anatomy, physiology, biochemistry, genetics, histology, pathology",
    "epidemiology": "epidemiology and biostatistics: study design, cohort, trial, bias, risk, statistics",
    "ethics": "medical ethics: consent, disclosure, confidentiality, professionalism, law",
}


class EmbeddingPlanner:
    """Pick the ``k`` specialties whose descriptions are nearest the question."""

    def __init__(self, embedder: Embedder, k: int = 2) -> None:
        self.embedder = embedder
        self.k = k
        self.names = list(SPECIALTIES)
        self._matrix: np.ndarray | None = None

    def plan(self, question: str) -> list[str]:
        """The chosen specialties, nearest first."""
        if self._matrix is None:
            self._matrix = self.embedder.embed(list(SPECIALTIES.values()))
        scores = self._matrix @ self.embedder.embed([question])[0]
        return [self.names[i] for i in np.argsort(-scores)[: self.k]]
