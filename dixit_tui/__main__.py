from dixit_tui.cli import main

raise SystemExit(main())
