"""The online game server (``sushigo serve``): lobby, browser table, WebSocket protocol, storage.

Needs the ``server`` extra (FastAPI, uvicorn, SQLAlchemy, pydantic).  Layers,
each depending only on the ones before it and on the engine:

- :mod:`sushigo.server.store`: the database (SQLAlchemy 2 Core) and its group-commit writer;
- :mod:`sushigo.server.protocol`: the messages, checked strictly;
- :mod:`sushigo.server.tables`: live tables, seats, bots, timers, what each watcher may see;
- :mod:`sushigo.server.app`: the FastAPI routes and the WebSocket loop;
- :mod:`sushigo.server.serve`: binding a socket and running uvicorn.
"""
