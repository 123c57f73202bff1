"""`python -m scent`: the same as the `scent` command."""
from .cli import command

command()
