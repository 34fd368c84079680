"""The guardrail lab's studio side without Qt: ``processor-studio lab`` and what the lab needs of a design (its worker
processes import this, never Qt). The lab's engine is the top-level ``lab`` package."""
