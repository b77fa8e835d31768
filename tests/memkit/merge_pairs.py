"""Hand-made pairs for merge quality: paraphrases (should merge) and distinct entries (should stay apart)."""

PARAPHRASES: list[tuple[str, str]] = [
    ("A retrospective cohort study cannot establish causation.", "Causation cannot be established by a retrospective cohort study."),
    ("Check renal function before dosing metformin.", "Before prescribing metformin, assess kidney function."),
    ("In a febrile infant under 28 days, do a full sepsis workup.", "Febrile neonates younger than 28 days need a complete sepsis evaluation."),
    ("Painless jaundice with a palpable gallbladder suggests pancreatic cancer.", "A palpable gallbladder with painless jaundice points to pancreatic head cancer."),
    ("Small sample sizes make a 'maybe' answer more likely.", "When the sample is small, the answer is more often 'maybe'."),
    ("Do not confuse statistical significance with clinical importance.", "Statistical significance is not the same as clinical importance."),
    ("Tension pneumothorax needs immediate needle decompression.", "Treat a tension pneumothorax with immediate needle decompression."),
    ("Warfarin's effect is monitored with the INR.", "The INR is used to monitor warfarin therapy."),
]

DISTINCT: list[tuple[str, str]] = [
    ("A retrospective cohort study cannot establish causation.", "Check renal function before dosing metformin."),
    ("Tension pneumothorax needs immediate needle decompression.", "Tension pneumothorax is diagnosed clinically, not by chest X-ray."),
    ("Warfarin's effect is monitored with the INR.", "Heparin's effect is monitored with the aPTT."),
    ("In a febrile infant under 28 days, do a full sepsis workup.", "Febrile seizures in toddlers rarely need an EEG."),
    ("Small sample sizes make a 'maybe' answer more likely.", "Randomised trials with blinding usually support a 'yes' answer."),
    ("Painless jaundice with a palpable gallbladder suggests pancreatic cancer.", "Painful jaundice with fever suggests ascending cholangitis."),
    ("Do not confuse statistical significance with clinical importance.", "Subgroup analyses are hypothesis generating only."),
    ("Lithium toxicity causes tremor and confusion.", "Hypothyroidism causes weight gain and cold intolerance."),
]
