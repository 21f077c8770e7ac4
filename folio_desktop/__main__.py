from folio_desktop.cli import main

raise SystemExit(main())
