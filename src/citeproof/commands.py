"""The click pieces every ``citeproof`` command shares, kept light so the command line starts fast.

:class:`LazyGroup` imports a sub-command's module only when that command runs (or when ``--help``
lists them); :class:`ConfigOption` and :class:`ConfigCommand` say which config file a run here would
use. Nothing here imports the checking code: ``citeproof hook`` and ``citeproof check`` load what they
need when they are invoked.
"""

from __future__ import annotations

import os
from importlib import import_module
from pathlib import Path

import click


class LazyGroup(click.Group):
    """A group whose ``lazy`` commands (name -> ``module:attribute``) are imported when first asked for."""

    def __init__(self, *args: object, lazy: dict[str, str] | None = None, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.lazy = dict(lazy or {})

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *self.lazy})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in self.lazy and cmd_name not in self.commands:
            module, _, attribute = self.lazy[cmd_name].partition(":")
            command = getattr(import_module(module, "citeproof"), attribute)
            if not isinstance(command, click.Command):  # pragma: no cover - a wrong table entry is a bug
                raise TypeError(f"{self.lazy[cmd_name]} is not a click command")
            self.add_command(command, cmd_name)
        return super().get_command(ctx, cmd_name)


class ConfigOption(click.Option):
    """``--config``: its help says where a run without it looks for one."""

    def get_help_record(self, ctx: click.Context) -> tuple[str, str] | None:
        from .config import CONFIG_NAMES

        record = super().get_help_record(ctx)
        if record is None:  # pragma: no cover - hidden options only
            return None
        return record[0], f"{record[1]} [default: the nearest {', '.join(CONFIG_NAMES[:3])} or pyproject.toml with " \
                          "[tool.citeproof], from the current directory upward: see below]"


class ConfigCommand(click.Command):
    """A command whose ``--help`` ends with the config file a run here would use (unwrapped, so it can be copied)."""

    def format_epilog(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        from .config import discover_config

        super().format_epilog(ctx, formatter)
        found = discover_config()
        formatter.write_paragraph()
        if found is not None:
            formatter.write(f"  Config file: {found} (without --config)\n")
        else:
            formatter.write(f"  Config file: none found from {os.getcwd()} upward\n")


def config_or_discovered(config: Path | None, start: Path | None = None) -> Path | None:
    """``--config`` when given, else the config file discovered from ``start`` (default: the current directory)."""
    from .config import discover_config

    return config if config is not None else discover_config(start)


__all__ = ["ConfigCommand", "ConfigOption", "LazyGroup", "config_or_discovered"]
