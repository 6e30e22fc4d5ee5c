"""``ddsolver play``: double-dummy analysis of the play recorded in PBN files (being written)."""


def add_parser(commands, formatter):
    return None
