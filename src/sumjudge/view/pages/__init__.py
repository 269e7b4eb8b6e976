"""The viewer's pages, one module each: runs, run, item, compare. Each is a function from what it
shows to an HTML string (through :func:`sumjudge.view.markup.page`)."""
