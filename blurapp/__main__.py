from blurapp.cli import main

raise SystemExit(main())
