from blurapp.start import main

raise SystemExit(main())
