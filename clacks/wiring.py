"""hardware/wiring.svg, drawn from the exchange's layout: the pixels where they lie,
joined in the chain's order, each button at its tower position with its GPIO, the Pi's
header and the level shifter. ``python -m clacks.wiring`` rewrites the file; a test
fails while the committed drawing differs from what the layout draws."""

from __future__ import annotations

import sys
from pathlib import Path
from xml.sax.saxutils import escape

from engine.clacks.geometry import Colour
from firmware.config import DEFAULT_BUTTON_PINS
from firmware.layout import Layout, built_layout

SCALE = 2.6  # px per mm
CENTRE = (290.0, 360.0)  # where the exchange's centre is drawn
WIDTH, HEIGHT = 1000, 780
# BCM GPIO -> physical header pin, for the pins the exchange uses
HEADER_PIN = {4: 7, 17: 11, 27: 13, 22: 15, 5: 29, 6: 31, 23: 16, 24: 18, 25: 22, 12: 32}
HEADER_PIN |= {16: 36, 20: 38, 10: 19, 18: 12, 21: 40, 26: 37, 13: 33, 19: 35}
GROUND_PINS = (6, 9, 14, 20, 25, 30, 34, 39)
HEADER = (760.0, 120.0)  # pin 1
PIN_STEP = 14.0


def _xy(point: tuple[float, float]) -> tuple[float, float]:
    return CENTRE[0] + point[0] * SCALE, CENTRE[1] - point[1] * SCALE


def _pin_xy(pin: int) -> tuple[float, float]:
    row, column = (pin - 1) // 2, (pin - 1) % 2
    return HEADER[0] + column * PIN_STEP, HEADER[1] + row * PIN_STEP


def _text(x: float, y: float, text: str, cls: str = "small", anchor: str = "middle") -> str:
    return (
        f'<text x="{x:.1f}" y="{y:.1f}" class="{cls}" text-anchor="{anchor}">{escape(text)}</text>'
    )


def wiring_svg(layout: Layout, pins: dict[str, int] | None = None) -> str:
    pins = dict(DEFAULT_BUTTON_PINS if pins is None else pins)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
        f'viewBox="0 0 {WIDTH} {HEIGHT}" font-family="DejaVu Sans, Arial, sans-serif">',
        "<title>Clacks Exchange wiring, drawn from hardware/exchange.toml: 16 x WS2812B in "
        "chain order, the tower buttons with their GPIOs, the Pi's header</title>",
        "<style>.small{font-size:10px}.tiny{font-size:8px}.pin{font-size:6px}.label{font-size:12px}.title{font-size:16px;"
        "font-weight:bold}.data{fill:none;stroke:#1565c0;stroke-width:2.5}"
        ".v5{fill:none;stroke:#c62828;stroke-width:1.5}.gnd{fill:none;stroke:#111;"
        "stroke-width:1.5}.button{fill:none;stroke:#777;stroke-width:1;stroke-dasharray:3 3}"
        "</style>",
        '<defs><marker id="arrow" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="6" '
        'markerHeight="6" orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="#1565c0"/></marker></defs>',
        f'<rect width="{WIDTH}" height="{HEIGHT}" fill="#fff"/>',
        _text(
            20, 28, "Clacks Exchange wiring, seen from above (North at the top)", "title", "start"
        ),
        _text(
            20,
            46,
            f"Lamp pitch {layout.exchange.pitch:g} mm. 16 x WS2812B, wired in the chain's "
            "order (blue: data, LED 0 first); 5 V and ground run beside the data, pixel to pixel.",
            "small",
            "start",
        ),
    ]
    parts += _panel(layout)
    parts += _chain(layout)
    parts += _buttons(layout, pins)
    parts += _header(pins)
    parts += _shifter(layout)
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def _panel(layout: Layout) -> list[str]:
    width, depth = layout.panel.size
    x0, y0 = _xy((-width / 2, depth / 2))
    out = [
        f'<rect x="{x0:.1f}" y="{y0:.1f}" width="{width * SCALE:.1f}" height="{depth * SCALE:.1f}" '
        f'rx="{layout.panel.corner_radius * SCALE:.1f}" fill="#f4f4f4" stroke="#333"/>'
    ]
    for seat, (dx, dy, angle) in {
        "South": (0, -1, 0),
        "North": (0, 1, 0),
        "West": (-1, 0, -90),
        "East": (1, 0, 90),
    }.items():
        px, py = _xy((dx * (width / 2 + 6), dy * (depth / 2 + 6)))
        out.append(
            f'<text x="{px:.1f}" y="{py + 4:.1f}" class="label" text-anchor="middle" '
            f'transform="rotate({angle} {px:.1f} {py:.1f})">{seat}</text>'
        )
    radius = layout.panel.window / 2 * SCALE
    for name, centre in layout.lamps.items():
        x, y = _xy(centre)
        out.append(
            f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{radius:.1f}" fill="#fff3d6" stroke="#b8860b"/>'
        )
        out.append(_text(x, y - 2, name, "label"))
        out.append(_text(x, y + 11, f"LED {layout.chain.index(name)}"))
    return out


def _chain(layout: Layout) -> list[str]:
    out = []
    lamps = layout.lamps
    radius = layout.panel.window / 2 + 1.0
    for first, second in zip(layout.chain, layout.chain[1:], strict=False):
        (x1, y1), (x2, y2) = lamps[first], lamps[second]
        length = ((x2 - x1) ** 2 + (y2 - y1) ** 2) ** 0.5
        ux, uy = (x2 - x1) / length, (y2 - y1) / length
        start = _xy((x1 + ux * radius, y1 + uy * radius))
        end = _xy((x2 - ux * radius, y2 - uy * radius))
        for cls, shift in (("v5", -3.0), ("gnd", 3.0)):
            ox, oy = -uy * shift, -ux * shift
            out.append(
                f'<line x1="{start[0] + ox:.1f}" y1="{start[1] + oy:.1f}" x2="{end[0] + ox:.1f}" '
                f'y2="{end[1] + oy:.1f}" class="{cls}"/>'
            )
        out.append(
            f'<line x1="{start[0]:.1f}" y1="{start[1]:.1f}" x2="{end[0]:.1f}" y2="{end[1]:.1f}" '
            'class="data" marker-end="url(#arrow)"/>'
        )
    return out


def _buttons(layout: Layout, pins: dict[str, int]) -> list[str]:
    out = []
    switch = layout.switch
    for name, button in layout.buttons.items():
        x, y = _xy(button.centre)
        gpio = pins[name]
        if button.colour is Colour.RED:
            side = switch.square_cap * SCALE
            out.append(
                f'<rect x="{x - side / 2:.1f}" y="{y - side / 2:.1f}" width="{side:.1f}" '
                f'height="{side:.1f}" fill="#e53935" stroke="#8e0000"/>'
            )
        else:
            r = switch.round_cap / 2 * SCALE
            out.append(
                f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{r:.1f}" fill="#43a047" stroke="#1b5e20"/>'
            )
        half = max(switch.square_cap, switch.round_cap) / 2 * SCALE
        out.append(_text(x, y + 3, name, "small"))
        out.append(_text(x, y + half + 9, f"GPIO{gpio} (pin {HEADER_PIN[gpio]})", "tiny"))
    return out


def _header(pins: dict[str, int]) -> list[str]:
    x0, y0 = HEADER
    out = [
        f'<rect x="{x0 - 12:.1f}" y="{y0 - 12:.1f}" width="{PIN_STEP + 24:.1f}" '
        f'height="{20 * PIN_STEP + 10:.1f}" rx="6" fill="#e8f5e9" stroke="#2e7d32"/>',
        _text(x0 + PIN_STEP / 2, y0 - 22, "Pi header (pin 1 at top)", "label"),
    ]
    uses = {HEADER_PIN[gpio]: f"{button}: GPIO{gpio}" for button, gpio in pins.items()}
    uses |= {19: "LED data: GPIO10", 2: "5 V", 4: "5 V"}
    uses |= {pin: "ground" for pin in GROUND_PINS}
    for pin in range(1, 41):
        x, y = _pin_xy(pin)
        fill = "#ffd54f" if pin == 1 else "#fff"
        out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="5.5" fill="{fill}" stroke="#333"/>')
        out.append(_text(x, y + 2, str(pin), "pin"))
        if pin in uses:
            left = pin % 2 == 1
            out.append(
                _text(
                    x + (-10 if left else 10),
                    y + 3,
                    f"{uses[pin]} (pin {pin})",
                    "small",
                    "end" if left else "start",
                )
            )
    return out


def _shifter(layout: Layout) -> list[str]:
    """GPIO10 through the 74AHCT125 and the 330 ohm resistor to LED 0's data input."""
    first = _xy(layout.lamps[layout.chain[0]])
    box = (600.0, 620.0)
    out = [
        f'<rect x="{box[0]:.1f}" y="{box[1]:.1f}" width="120" height="50" rx="4" fill="#fafafa" stroke="#333"/>',
        _text(box[0] + 60, box[1] + 20, "74AHCT125", "label"),
        _text(box[0] + 60, box[1] + 36, "1Y out (3) to LED 0", "small"),
        _text(box[0] + 125, box[1] + 22, "1A in (2) from", "small", "start"),
        _text(box[0] + 125, box[1] + 35, "GPIO10 (pin 19)", "small", "start"),
        f'<polyline points="{box[0]:.1f},{box[1] + 25:.1f} {first[0] - 60:.1f},{box[1] + 25:.1f} '
        f'{first[0] - 60:.1f},{first[1]:.1f} {first[0] - 20:.1f},{first[1]:.1f}" class="data" '
        'marker-end="url(#arrow)"/>',
        _text((box[0] + first[0]) / 2 - 20, box[1] + 18, "330 Ω, at LED 0", "small"),
        _text(
            box[0] - 120,
            box[1] + 70,
            "1000 µF across 5 V and ground at LED 0; "
            "100 nF across the 74AHCT125's VCC (14) and GND (7).",
            "small",
            "start",
        ),
        _text(
            20,
            HEIGHT - 16,
            "Every button's other leg goes to ground (any ground pin); the "
            "Pi's pull-ups hold the GPIOs high. The LED chain's 5 V and ground come from "
            "header pins 2 and 25.",
            "small",
            "start",
        ),
    ]
    return out


def main(argv: list[str] | None = None) -> int:
    target = Path(argv[0] if argv else sys.argv[1] if len(sys.argv) > 1 else "hardware/wiring.svg")
    target.write_text(wiring_svg(built_layout()), encoding="utf-8")
    print(target)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
