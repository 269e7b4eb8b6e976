"""``sumjudge view``: a local web app over the run store, where people read runs and label the
judge's verdicts (``pip install "sumjudge[view]"``: Starlette and uvicorn).

:func:`create_app` builds the ASGI app (:mod:`.app`); the pages are plain escaped HTML builders
(:mod:`.pages`), the charts inline SVG (:mod:`.charts`), the one script and style sheet are served
from the app itself (``static/``), so no request leaves the machine.
"""

from typing import TYPE_CHECKING

from .._lazy import lazy_exports

_EXPORTS = {"create_app": ".app", "ViewSettings": ".app"}
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)

if TYPE_CHECKING:
    from .app import ViewSettings, create_app

__all__ = ["ViewSettings", "create_app"]
