"""`clacks serve`: the whole companion in one process.

The Flask app runs behind waitress, a pure-Python production WSGI server that installs
and runs the same on a Raspberry Pi as on a laptop. Why waitress for server-sent events:

* Each open page holds one event stream. Waitress serves each request on a thread from
  a fixed pool, so a stream costs one mostly idle thread (its stack pages are touched
  only a little: well under 1 MB resident each) and no extra process. About 55 streams
  (4 phones, a table screen, 50 spectators at a convention) fit in a pool of 80 threads
  on 2 cores, with threads to spare for the phones' ordinary requests.
* A change wakes the waiting streams through one condition variable; each stream writes
  its message at once. Waitress (3.0 and later) flushes every write straight to the socket
  (its ``send_bytes`` threshold is 1 byte), so nothing waits in a buffer. Connections
  use ``StreamingChannel`` (clacks/serve_channel.py), which keeps waitress's main loop
  from spinning while the stream threads write. tests/test_web_stream.py measures that an event
  reaches a client promptly.
* An async server would use less memory per stream, but would need an async framework
  instead of Flask or a second server; at this table size threads are simpler and fast.

Saved games live in the state directory (``--data-dir``; by default systemd's
``$STATE_DIRECTORY``, else ``$CLACKS_STATE_DIR``, else ``~/.local/state/clacks``), and
every table with its game comes back as it was when the companion starts again.

The exchange board comes from ``firmware.create_board()``: the LED matrix and the tower
buttons on a Raspberry Pi, the simulator elsewhere (the table screen draws its lamps and
its buttons can be clicked). A driver that cannot start leaves a warning that the table
screen shows, and the game goes on.
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import signal
import socket
import struct
import sys
import time
from pathlib import Path
from typing import Any

from clacks.process_age import ready_after

THREADS = 80
STREAM_LIMIT = 64  # leaves 16 threads for ordinary requests when every stream is open


def seconds(text: str) -> float:
    """A length of time given on the command line: a number of seconds, 0 or more."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not 0 <= value <= 3600:
        raise argparse.ArgumentTypeError(f"give 0 to 3600 seconds, not {text}")
    return value


def hours(text: str) -> float:
    """A length of time given on the command line in hours, more than 0 (up to a week)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of hours") from None
    if not 0 < value <= 168:
        raise argparse.ArgumentTypeError(f"give more than 0 and at most 168 hours, not {text}")
    return value


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", default="0.0.0.0", help="address to listen on (default: all)")
    parser.add_argument("--port", type=int, default=8000, help="port (0: any free port)")
    parser.add_argument("--language", choices=("en", "cs"), default="en", help="table language")
    parser.add_argument("--threads", type=int, default=THREADS, help="server threads")
    parser.add_argument("--no-qr", action="store_true", help="do not draw the QR code")
    parser.add_argument(
        "--data-dir",
        type=Path,
        help="where saved games live (default: $STATE_DIRECTORY, $CLACKS_STATE_DIR or "
        "~/.local/state/clacks)",
    )
    # the defaults are web.bots.PAUSE_SECONDS and THINK_SECONDS (not imported here: the
    # web side loads Flask, which the other commands do without)
    parser.add_argument(
        "--bot-pause",
        type=seconds,
        metavar="SECONDS",
        help="how long bots wait after each change of the game before they act, so "
        "people can follow (default: 0.6)",
    )
    parser.add_argument(
        "--bot-think",
        type=seconds,
        metavar="SECONDS",
        help="the most a bot may think over one action before the weakest level's "
        "choice is played instead (default: 3)",
    )
    parser.add_argument(
        "--table-idle",
        type=hours,
        metavar="HOURS",
        help="close a table other than the main one after this long with no page open and "
        "nobody playing; its game stays saved (default: 2)",
    )
    parser.add_argument(
        "--allowed-host",
        action="append",
        default=[],
        metavar="NAME",
        help="another name the companion answers to (e.g. one a local DNS gives it), besides "
        "its host name, NAME.local, localhost and its addresses; repeat for more",
    )
    parser.add_argument(
        "--config",
        metavar="FILE",
        help="exchange board settings (default: $CLACKS_CONFIG or /etc/clacks/config.toml)",
    )


def lan_address() -> str:
    """This machine's address on the local network, as phones on the same Wi-Fi reach
    it: the first non-loopback IPv4 address of a network interface, found without
    sending anything; 127.0.0.1 when there is none."""
    candidates: list[str] = []
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        for _, name in socket.if_nameindex():
            if name == "lo":
                continue
            request = struct.pack("256s", name.encode()[:15])
            with contextlib.suppress(OSError):
                answer = fcntl.ioctl(probe.fileno(), 0x8915, request)  # SIOCGIFADDR
                candidates.append(socket.inet_ntoa(answer[20:24]))
    with contextlib.suppress(OSError):
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            candidates.append(str(info[4][0]))
    for address in candidates:
        if not address.startswith("127."):
            return address
    return "127.0.0.1"


def build(
    host: str,
    port: int,
    language: str,
    threads: int,
    board: Any = None,
    data_dir: Path | None = None,
    bot_pause: float | None = None,
    bot_think: float | None = None,
    table_idle: float | None = None,
    allowed_hosts: list[str] | None = None,
    stall_seconds: float | None = None,
) -> tuple[Any, Any, str]:
    """The waitress server (bound and listening), the hub, and the public base address.
    Saved games are kept in ``data_dir`` (None: in memory only, for this run); bots
    wait ``bot_pause`` seconds after each change and think at most ``bot_think``; a
    table other than the main one closes after ``table_idle`` seconds idle (None: the
    companion's defaults); ``allowed_hosts`` are names it answers to besides its own; a
    connection whose client takes nothing for ``stall_seconds`` is closed (None: the
    default, clacks/serve_channel.py)."""
    from waitress.server import create_server  # type: ignore[import-untyped]

    from clacks.serve_channel import STALL_SECONDS, use_streaming_channels
    from web import create_app
    from web.bots import PAUSE_SECONDS, THINK_SECONDS
    from web.hub import TABLE_IDLE_SECONDS, Hub
    from web.store import Store

    hub = Hub(
        language=language,
        store=Store(data_dir),
        bot_pause=PAUSE_SECONDS if bot_pause is None else bot_pause,
        bot_think=THINK_SECONDS if bot_think is None else bot_think,
        table_idle=TABLE_IDLE_SECONDS if table_idle is None else table_idle,
    )
    # bind first, so the address printed (and put in the QR code) has the real port
    app_holder: dict[str, Any] = {}

    def application(environ: dict[str, Any], start_response: Any) -> Any:
        return app_holder["app"](environ, start_response)

    server = create_server(
        application,
        host=host,
        port=port,
        threads=threads,
        connection_limit=max(250, threads * 3),  # a page keeps its stream and a fetch or two open
        channel_timeout=60,  # streams send a keep-alive every 15 s
        # read on while a request is served, so a page that goes is noticed at once (its
        # stream ends at its next message) rather than after some writes into the void
        channel_request_lookahead=1,
        clear_untrusted_proxy_headers=True,
        ident="clacks-exchange",
    )
    use_streaming_channels(
        server, stall_seconds=STALL_SECONDS if stall_seconds is None else stall_seconds
    )
    bound_port = server.effective_port
    shown_host = lan_address() if host in ("0.0.0.0", "") else host
    base = f"http://{shown_host}:{bound_port}"
    app_holder["app"] = create_app(
        hub,
        board=board,
        public_url=base,
        stream_limit=min(STREAM_LIMIT, threads - 8),
        allowed_hosts=allowed_hosts or (),
    )
    hub.start()
    return server, hub, base


def create_board(args: argparse.Namespace) -> Any:
    """The exchange this machine can run (simulated unless a Raspberry Pi is detected)."""
    from firmware.factory import create_board as create

    config = getattr(args, "config", None)
    return create(config_file=Path(config) if config else None)


def run(args: argparse.Namespace, board: Any = None) -> int:
    from web.store import StoreError, default_data_dir

    started = time.perf_counter()
    data_dir = args.data_dir or default_data_dir()
    if board is None:
        board = create_board(args)
    try:
        server, hub, base = build(
            args.host,
            args.port,
            args.language,
            args.threads,
            board,
            data_dir,
            args.bot_pause,
            args.bot_think,
            args.table_idle * 3600 if args.table_idle else None,
            args.allowed_host,
        )
    except StoreError as exc:
        print(f"clacks serve: {exc}", file=sys.stderr)
        return 1
    except OSError as exc:
        print(f"clacks serve: cannot listen on {args.host}:{args.port}: {exc}", file=sys.stderr)
        return 1
    board.start()
    code = hub.main.code
    join = f"{base}/join/{code}"
    print(f"Clacks Exchange is ready, {ready_after(started)}.")
    print(f"  Table screen:  {base}/")
    print(f"  Phones join:   {join}   (or {base}/join with room code {code})")
    print(f"  Table PIN:     {hub.main.pin}   (new game, saved games, freeing a seat)")
    print(f"  Saved games:   {data_dir}")
    for room in hub.rooms.values():
        if room.session is not None and room.record is not None:
            moves = len(room.record.actions)
            print(f"  Table {room.code}: its saved game goes on ({moves} actions so far)")
            for seat, level in room.seats.bots.items():
                print(f"  Table {room.code}: a {level} bot plays {seat}")
    for problem in hub.problems:
        print(f"  Warning: {problem}")
    if not args.no_qr:
        import segno

        segno.make(join, error="m").terminal(compact=True, border=2)
    for warning in board.status()["warnings"]:
        print(f"  Warning: {warning}")
    print("Press Ctrl+C to stop.", flush=True)

    def stop(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stop)
    try:
        server.run()
    except KeyboardInterrupt:
        pass
    finally:
        hub.stop()
        server.close()
        board.stop()
    return 0
