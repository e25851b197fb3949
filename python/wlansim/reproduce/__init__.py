"""Paper reproductions: one module per paper with ``add_arguments(parser)`` and
``run(args)`` for the CLI (``wlansim reproduce PAPER``), and ``reproduce(out, quick)``
for Python."""
