"""The SSH layer: every SSH session gets its own Textual App, in-process, driven over the SSH channel.

- `server.start_server(host, port, keys_dir, app_factory, command_handler=None, limits=Limits(), app_setup=())`
- `session_runner.SessionIdentity`, `terminal.TerminalInfo`: what an app factory is given
- `driver.SSHDriver`: the Textual driver; `keys`: the host key
- `screen_cast`: sessions that show the same frames share one drawing (one app draws, its bytes go to all of them)
- the client side of the project's own connections (bots, benchmark, tests) is `dixit_tui/ssh_client.py`, outside it

No module here imports the tui: `dixit_tui/serve.py` (the composition root, the `dixit-tui serve` command) hands the
server the app factory and the setup every app of the process shares (`tui/shared_work.py`), so the transport never
reaches up (tests/test_import_graph.py).
"""
