"""The online game server (``sushigo serve``): lobby, browser table, WebSocket protocol, storage.

Needs the ``server`` extra (FastAPI, uvicorn, SQLAlchemy, pydantic).  Layers,
each depending only on the ones before it and on the engine:

- :mod:`sushigo.server.store`: the database (SQLAlchemy 2 Core), its group-commit writer,
  and the schema's revisions (:mod:`sushigo.server.migrations`, Alembic);
- :mod:`sushigo.server.protocol`: the messages, checked strictly;
- :mod:`sushigo.server.tables`: live tables in rooms (life cycle, seats, drivers: bots, timers
  and stand-ins, talk, decisions, jobs: hints and analyses, frames: what each watcher may see);
- :mod:`sushigo.server.replays`: finished games told again, and uploaded records;
- :mod:`sushigo.server.routes`: the HTTP routers (typed request bodies, one error mapping) and
  the WebSocket loop; :mod:`sushigo.server.app` builds the app from them;
- :mod:`sushigo.server.serve`: binding a socket and running uvicorn.
"""
