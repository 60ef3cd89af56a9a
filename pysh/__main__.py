from pysh.cli import main

raise SystemExit(main())
