"""Rows for the probe's tests: sources and faithful summaries written for them (news-like, English,
with figures, dates, names, auxiliaries and opposites for the rules to find; one in Arabic script)."""

from __future__ import annotations

from sumjudge.analysis.probe.variants import ProbeRow

ROWS = [
    ProbeRow(
        id="harbour",
        source=(
            "The city council of Portsmouth approved a new harbour wall on Tuesday. The wall will cost 14 million "
            "pounds and will be finished in 2027. Mayor Helen Ward said the old wall was damaged by storms in "
            "March. Engineers from Atkins will build the wall. Local fishermen welcomed the decision."
        ),
        summary=(
            "Portsmouth council approved a new harbour wall that will cost 14 million pounds. "
            "Mayor Helen Ward said storms damaged the old wall in March. The wall will be finished in 2027."
        ),
    ),
    ProbeRow(
        id="final",
        source=(
            "In the final in Santiago on Sunday, Brazil beat Chile 3-1. Neymar scored twice and Casemiro added a "
            "third goal. Chile had won the previous two meetings. Coach Tite said his team was stronger in the "
            "second half. About 45,000 fans watched the match."
        ),
        summary=(
            "Brazil beat Chile 3-1 in the final on Sunday. Neymar scored twice. "
            "About 45,000 fans watched the match in Santiago."
        ),
    ),
    ProbeRow(
        id="study",
        source=(
            "A study by researchers at Oxford found that children who sleep more are happier. The researchers "
            "followed 2,400 children for six years. Professor Anna Lind led the study, which was published in "
            "the journal Pediatrics in May 2019. A second author, Tom Berg, also works at Oxford. The effect was larger "
            "for younger children."
        ),
        summary=(
            "Oxford researchers found that children who sleep more are happier. The study followed 2,400 "
            "children and was published in Pediatrics in 2019. Professor Anna Lind led it."
        ),
    ),
    ProbeRow(
        id="arabic",
        source="افتتحت الحكومة ٣ مستشفيات جديدة في عام ٢٠٢١ بتكلفة ٤٥٠ مليون دينار.",
        summary="افتتحت الحكومة ٣ مستشفيات جديدة في عام ٢٠٢١.",
    ),
    ProbeRow(
        id="plain",
        source="the river flooded the valley after heavy rain and the farmers lost their crops",
        summary="the river flooded the valley and the farmers lost their crops",
    ),
]
