"""The SSH layer: every SSH session gets its own Textual App, in-process, driven over the SSH channel.

`server.start_server(...)` takes an app factory (given a `SessionIdentity` and a `TerminalInfo`); `driver.SSHDriver`
is the Textual driver. No module here imports the tui: `serve.py`, the composition root, hands the server the app
factory (tests/test_import_graph.py). The client side of the project's own connections is `dixit_tui/ssh_client.py`.
"""
