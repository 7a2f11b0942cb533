"""The troubleshooting table in hardware/README.md: every warning the companion can show
on the table screen and in `clacks hardware status`, its cause and its fix.

The rows for drivers that cannot start come from firmware/diagnose.py's PROBLEMS; the
others are the warnings raised elsewhere (the settings file, a Klackers layout, a driver
that fails while running, a stuck button). A test keeps the README's block equal to
``troubleshooting_markdown()`` and checks that each warning below is one the code gives.
"""

from __future__ import annotations

from firmware.diagnose import PROBLEMS

# (words the warning contains, its cause, its fix)
OTHER_WARNINGS = (
    (
        "using the default settings",
        "the settings file has a mistake; the warning names the file and the setting",
        "correct that setting (`clacks hardware config` shows the file as read), then "
        "sudo systemctl restart clacks",
    ),
    (
        "Klackers uses the shipped layout",
        "the Klackers layout (`klackers.layout`) cannot be used; the warning names the "
        "file and the entry",
        "correct the layout, or remove `klackers.layout` from the settings",
    ),
    (
        "LED driver stopped working",
        "the LED driver raised an error while running (its device went away, or the "
        "driver failed); the lamps went to the table screen",
        "sudo systemctl restart clacks; if the warning comes back, clacks hardware status "
        "names the cause",
    ),
    (
        "is it stuck?",
        "a button has been held down for `buttons.stuck_s` seconds: a jammed switch, or "
        "its wire shorted to ground",
        "free the switch or the wire; the warning goes when the button is up again",
    ),
)


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def troubleshooting_markdown() -> str:
    lines = [
        "| the warning says | cause (as the warning puts it, with example names) | fix |",
        "|---|---|---|",
    ]
    for problem in PROBLEMS.values():
        values = dict(problem.example)
        lines.append(
            f"| … {_cell(problem.summary)} … | {_cell(problem.cause.format(**values))} | "
            f"{_cell(problem.fix.format(**values))} |"
        )
    for summary, cause, fix in OTHER_WARNINGS:
        lines.append(f"| … {_cell(summary)} … | {_cell(cause)} | {_cell(fix)} |")
    return "\n".join(lines) + "\n"
