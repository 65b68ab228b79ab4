"""The SSH layer: every SSH session gets its own Textual App, in-process, driven over the SSH channel.

- `server.start_server(host, port, keys_dir, app_factory, command_handler=None, limits=Limits())`
- `session_runner.SessionIdentity`, `terminal.TerminalInfo`: what an app factory is given
- `driver.SSHDriver`: the Textual driver; `keys`: the host key; `serve`: the `dixit-tui serve` command
- `client`: the client side of the project's own connections (bots, benchmark, tests)
"""
