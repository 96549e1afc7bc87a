"""The web app's routes, one module per room of the site (``docs/server.md``, "HTTP").

Each module holds one FastAPI :class:`~fastapi.APIRouter`:
:mod:`~sushigo.server.routes.pages` (the HTML pages and ``/static/words.js``),
:mod:`~sushigo.server.routes.tables` (the lobby's tables),
:mod:`~sushigo.server.routes.games` (a finished table's replay and analyses),
:mod:`~sushigo.server.routes.uploads` (the replay viewer's uploaded records),
:mod:`~sushigo.server.routes.sheets` (the scorekeeper),
:mod:`~sushigo.server.routes.info` (options and counters) and
:mod:`~sushigo.server.routes.socket` (the table WebSocket).  They share
:mod:`~sushigo.server.routes.deps` (what a route is given: the app's
:class:`~sushigo.server.routes.deps.Site`), :mod:`~sushigo.server.routes.bodies`
(the typed JSON bodies) and :mod:`~sushigo.server.routes.errors` (the one error
answer).  :func:`sushigo.server.app.create_app` puts them together.
"""
