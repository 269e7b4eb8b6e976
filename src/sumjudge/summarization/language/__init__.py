"""What every judge reads (the source's sentences, the summary's claims, the passages of each
claim, the source's key facts) and the language tools that reading needs. No verdicts here."""

from .questions import FactRanking, fact_of_question, phrase_question
from .read import DraftClaim, Drafts, Passage, Reading

__all__ = ["DraftClaim", "Drafts", "FactRanking", "Passage", "Reading", "fact_of_question", "phrase_question"]
