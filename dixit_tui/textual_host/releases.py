"""Each private part of Textual listed in `internals.py`, fingerprinted in every Textual release the pin
admits (pyproject.toml), as `check.py` does the installed one: a part matches when its source is the one of
any release checked (the code relying on it works with each: `compat.py` adapts where they differ; None: that
release has no such part). Generated: `python -m dixit_tui.textual_host.check --releases WHEEL...`.
"""

from __future__ import annotations

RELEASES: tuple[str, ...] = (
    "8.0.0",
    "8.0.1",
    "8.0.2",
    "8.1.0",
    "8.1.1",
    "8.2.0",
    "8.2.1",
    "8.2.2",
    "8.2.3",
    "8.2.4",
    "8.2.5",
    "8.2.6",
    "8.2.7",
    "8.2.8",
)

# each part -> each of its sources (None: not there) -> the releases that have it
PARTS: dict[str, dict[str | None, str]] = {
    "textual/screen.py:Screen._on_screen_resume": {
        "e00b4ec53a62a57c": "8.0.0-8.2.8",
    },
    "textual/screen.py:Screen.focused": {
        "113be365bd5fcd46": "8.0.0-8.2.8",
    },
    "textual/css/stylesheet.py:Stylesheet._parse_rules": {
        "01a7957fb176d1ba": "8.0.0-8.2.8",
    },
    "textual/_compositor.py:Compositor.render_partial_update": {
        "b61a8d73910172a0": "8.0.0-8.2.8",
    },
    "textual/widget.py:Widget._size_updated": {
        "2819b3f84f2abd0d": "8.0.0-8.2.8",
    },
    "textual/_xterm_parser.py:XTermParser._parse_extended_key": {
        None: "8.0.0-8.2.6",
        "520f660eb07e65fd": "8.2.7",
        "7b39f7d9703a4356": "8.2.8",
    },
    "textual/_xterm_parser.py:XTermParser.__init__": {
        "eb8d975102a567ef": "8.0.0-8.2.8",
    },
    "textual/_ansi_sequences.py:ANSI_SEQUENCES_KEYS": {
        "cf365064027e076e": "8.0.0-8.2.8",
    },
    "textual/app.py:App.__init__": {
        "0227f6f2c04dcd49": "8.0.0-8.0.2",
        "53f10235ab579815": "8.1.0-8.1.1",
        "84544065ac1928b3": "8.2.0-8.2.2",
        "0e137cf34a118a55": "8.2.3-8.2.4",
        "c7c9165bbb6390aa": "8.2.5-8.2.8",
    },
    "textual/widget.py:Widget.__init__": {
        "3b39426f67200d32": "8.0.0-8.2.8",
    },
    "textual/_compositor.py:ChopsUpdate.__init__": {
        "15a3cd9221702a5a": "8.0.0-8.2.8",
    },
    "textual/_compositor.py:Compositor.render_full_update": {
        "a1994e4646023125": "8.0.0-8.2.8",
    },
    "textual/_compositor.py:Compositor.render_update": {
        "0ad323b7518105ce": "8.0.0-8.2.8",
    },
    "textual/_compositor.py:LayoutUpdate.__init__": {
        "d82109e4a94910c0": "8.0.0-8.2.8",
    },
    "textual/app.py:App._display": {
        "a28efe0d48ef1300": "8.0.0-8.2.8",
    },
    "textual/strip.py:Strip.render_style": {
        "1c9d39eec67991a5": "8.0.0-8.2.8",
    },
    "textual/app.py:App._get_screen": {
        "3661ae3cd02783d1": "8.0.0-8.2.8",
    },
    "textual/widget.py:AwaitMount.__await__": {
        "05816ca4ba646c86": "8.0.0-8.2.8",
    },
    "textual/widget.py:Widget._check_refresh": {
        "a3731b142875c20c": "8.0.0-8.2.8",
    },
    "textual/css/stylesheet.py:Stylesheet.parse": {
        "a28a3042b4f9cb09": "8.0.0-8.2.8",
    },
    "textual/css/stylesheet.py:Stylesheet.apply": {
        "fe49c5cda8e14b12": "8.0.0-8.2.8",
    },
    "textual/css/stylesheet.py:Stylesheet.replace_rules": {
        "9430861a7ae3bc32": "8.0.0-8.2.8",
    },
    "textual/css/model.py:RuleSet._post_parse": {
        "ac9d28ea211661f6": "8.0.0-8.2.8",
    },
    "textual/css/match.py:_check_selectors": {
        "eb6e130d0c244e96": "8.0.0-8.2.8",
    },
    "textual/dom.py:DOMNode._selector_names": {
        "13f9bedcdc01f16e": "8.0.0-8.2.8",
    },
    "textual/_styles_cache.py:StylesCache.render_widget": {
        "6055d71d628f4a44": "8.0.0-8.2.6",
        "f75ee33a87886cb1": "8.2.7-8.2.8",
    },
    "textual/_styles_cache.py:StylesCache.render": {
        "63ae1d3e5df2c24e": "8.0.0-8.2.6",
        "41a402e58b23ce64": "8.2.7-8.2.8",
    },
    "textual/_styles_cache.py:StylesCache.render_line": {
        "4b0a65d35c64ab9e": "8.0.0-8.2.6",
        "1a5a0244a4028e98": "8.2.7-8.2.8",
    },
    "textual/widget.py:Widget._PSEUDO_CLASSES": {
        "45717fd9927d37ad": "8.0.0-8.2.4",
        "c126b79d467e03fd": "8.2.5-8.2.8",
    },
    "textual/widget.py:Widget.is_disabled": {
        "25a5cbfee75b88b4": "8.0.0-8.2.8",
    },
    "textual/strip.py:Strip.render": {
        "bf9d28edf4f44cb1": "8.0.0-8.2.8",
    },
    "textual/app.py:redirect_stdout": {
        "9d35fe7af0a2257f": "8.0.0-8.2.8",
    },
    "textual/app.py:App._process_messages": {
        "d9a5f220527c9109": "8.0.0-8.2.8",
    },
    "textual/message_pump.py:MessagePump._parent": {
        None: "8.0.0-8.0.2",
        "e52667bcc30c36fa": "8.1.0-8.2.8",
    },
    "textual/message.py:Message.__init__": {
        "1687d1a95458c167": "8.0.0-8.2.8",
    },
    "textual/message_pump.py:MessagePump._on_message": {
        "5bf00996a4e75b03": "8.0.0-8.2.8",
    },
    "textual/_context.py:active_app": {
        "02a7961030224682": "8.0.0-8.2.8",
    },
}

# each module's whole file -> the releases that have it
MODULES: dict[str, dict[str, str]] = {
    "textual/screen.py": {
        "84cf2f7774430fd0": "8.0.0-8.1.1",
        "1367ba13a5c076a4": "8.2.0",
        "d0f9fef2a06a2ecf": "8.2.1",
        "6b33ae06a79f22d7": "8.2.2-8.2.3",
        "fc5e45ebd50b767b": "8.2.4",
        "fce6f4a937e7539a": "8.2.5",
        "e644a2c48f2a7a44": "8.2.6-8.2.7",
        "b5ace323f3b7607d": "8.2.8",
    },
    "textual/css/stylesheet.py": {
        "3f70ebc0d7aca401": "8.0.0-8.2.8",
    },
    "textual/_compositor.py": {
        "3ff12d337199235a": "8.0.0-8.2.5",
        "6c1220002d6b1973": "8.2.6-8.2.7",
        "820ca6940bec3a42": "8.2.8",
    },
    "textual/widget.py": {
        "774b0b93cdc26eb3": "8.0.0-8.0.1",
        "522d02802e49c17e": "8.0.2",
        "3b043528874c78c3": "8.1.0-8.1.1",
        "56b3c50296048f39": "8.2.0",
        "9b0d2d38332aec3c": "8.2.1-8.2.3",
        "ff3031023fac8ead": "8.2.4",
        "962dbb32409191bc": "8.2.5-8.2.8",
    },
    "textual/_xterm_parser.py": {
        "104fcaaa24e27708": "8.0.0-8.2.6",
        "a12c2542fcd3b6ae": "8.2.7",
        "7e279d11dee84514": "8.2.8",
    },
    "textual/_ansi_sequences.py": {
        "0b4037a3f36997ca": "8.0.0-8.2.8",
    },
    "textual/app.py": {
        "6e66ae0ed4c48d11": "8.0.0-8.0.2",
        "9fb2d447c82fa0cd": "8.1.0-8.1.1",
        "60228e7b1853338c": "8.2.0-8.2.1",
        "6b5044d02c5c35b9": "8.2.2",
        "9f5c289cc20bc695": "8.2.3-8.2.4",
        "98e03f04c60a00e5": "8.2.5",
        "a1c04e978716b9e3": "8.2.6-8.2.8",
    },
    "textual/strip.py": {
        "b58d946c8b0cbabc": "8.0.0-8.2.8",
    },
    "textual/css/model.py": {
        "a2076b0ea531bce0": "8.0.0-8.2.8",
    },
    "textual/css/match.py": {
        "34247ea90eaaa406": "8.0.0-8.2.8",
    },
    "textual/dom.py": {
        "62aca1a1be79338f": "8.0.0",
        "1657e4d1b61bff5a": "8.0.1-8.2.1",
        "0fc79d44ae9bceaf": "8.2.2-8.2.3",
        "c82d88213c827197": "8.2.4-8.2.8",
    },
    "textual/_styles_cache.py": {
        "b03d31381605e7ca": "8.0.0-8.2.6",
        "7a197dfa0517d22f": "8.2.7-8.2.8",
    },
    "textual/message_pump.py": {
        "f9ba9a28069fd037": "8.0.0-8.0.2",
        "b580554a43fdfd14": "8.1.0-8.2.8",
    },
    "textual/message.py": {
        "50816fcfe0098159": "8.0.0-8.2.8",
    },
    "textual/_context.py": {
        "523b25f71607193b": "8.0.0-8.2.8",
    },
}
