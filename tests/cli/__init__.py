"""The command-line tests (a package, so that its conftest.py has a name of its own)."""
