"""`python -m scent`: the same as the `scent` command."""
from .cli import command

if __name__ == "__main__":  # a reader process started by the fork server imports this module again
    command()
