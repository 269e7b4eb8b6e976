"""Scorers: the pipeline base and one package per scorer."""

from .pipeline import PipelineScorer, RunContext

__all__ = ["PipelineScorer", "RunContext"]
