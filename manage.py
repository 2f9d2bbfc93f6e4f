#!/usr/bin/env python
"""Django's command-line utility for administrative tasks."""

import os
import sys


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "backgammon_site.settings")
    if sys.argv[1:2] in (["serve"], ["rehearsal"]):
        # `serve` runs on embedded defaults with nothing set; settings are read before any
        # command runs, so DEBUG (and with it the development secret) is defaulted here.
        # `rehearsal` sets its own processes' environment (production settings) itself.
        os.environ.setdefault("DJANGO_DEBUG", "1")
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
