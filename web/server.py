"""The whole companion in one process, as `clacks serve` starts it (clacks/serve_args.py reads
its command line).

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
  use ``StreamingChannel`` (web/server_channel.py), which keeps waitress's main loop
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

from web.process_age import ready_after

THREADS = 80
STREAM_LIMIT = 64  # leaves 16 threads for ordinary requests when every stream is open
CONNECTION_LIMIT = 250  # past this many open connections waitress accepts no more
HEADER_LIMIT_BYTES = 32 * 1024  # a browser's headers with its cookies are a few KB


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
    request_seconds: float | None = None,
    stand: Any = None,
) -> tuple[Any, Any, str]:
    """The waitress server (bound and listening), the hub, and the public base address.
    Saved games are kept in ``data_dir`` (None: in memory only, for this run); bots
    wait ``bot_pause`` seconds after each change and think at most ``bot_think``; a
    table other than the main one closes after ``table_idle`` seconds idle (None: the
    companion's defaults); ``allowed_hosts`` are names it answers to besides its own; a
    connection whose client takes nothing for ``stall_seconds``, or does not send a whole
    request within ``request_seconds``, is closed (None: the defaults,
    web/server_channel.py); ``stand`` (a ``web.stand.StandSettings``) runs the main
    table as a convention stand."""
    from waitress.server import BaseWSGIServer, create_server

    from web import create_app
    from web.bots import PAUSE_SECONDS, THINK_SECONDS
    from web.hub import TABLE_IDLE_SECONDS, Hub
    from web.server_channel import (
        IMPORT_LIMIT_BYTES,
        REQUEST_SECONDS,
        STALL_SECONDS,
        use_streaming_channels,
    )
    from web.store import Store

    hub = Hub(
        language=language,
        store=Store(data_dir),
        bot_pause=PAUSE_SECONDS if bot_pause is None else bot_pause,
        bot_think=THINK_SECONDS if bot_think is None else bot_think,
        table_idle=TABLE_IDLE_SECONDS if table_idle is None else table_idle,
        stand=stand,
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
        connection_limit=max(CONNECTION_LIMIT, threads * 3),  # a page: its stream, a fetch or two
        channel_timeout=60,  # streams send a keep-alive every 15 s
        # bodies are limited by path (web/server_channel.py) to at most the import's;
        # waitress's own limit refuses this size and above
        max_request_body_size=IMPORT_LIMIT_BYTES + 1,
        max_request_header_size=HEADER_LIMIT_BYTES,
        # what waitress holds of a request in memory before it spills to a temporary
        # file: above every limit, so nothing a client sends is written to the disk
        inbuf_overflow=2 * (IMPORT_LIMIT_BYTES + HEADER_LIMIT_BYTES),
        # read on while a request is served, so a page that goes is noticed at once (its
        # stream ends at its next message) rather than after some writes into the void
        channel_request_lookahead=1,
        clear_untrusted_proxy_headers=True,
        ident="clacks-exchange",
    )
    use_streaming_channels(
        server,
        stall_seconds=STALL_SECONDS if stall_seconds is None else stall_seconds,
        request_seconds=REQUEST_SECONDS if request_seconds is None else request_seconds,
    )
    # one address to listen on, so one server (a MultiSocketServer serves several)
    assert isinstance(server, BaseWSGIServer)
    bound_port = int(server.getsockname()[1])
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


def stand_settings(args: argparse.Namespace) -> Any:
    """The stand the command line or the settings file's ``[stand]`` asks for (the
    command line wins), or None; ``ValueError`` names what is wrong."""
    from firmware.config import ConfigError, config_path, load_config
    from web.stand import IDLE_SECONDS, StandSettings, stand_entries

    config = getattr(args, "config", None)
    try:
        settings = load_config(Path(config) if config else config_path()).stand
    except ConfigError as exc:
        if getattr(args, "stand", False):
            raise ValueError(str(exc)) from None
        return None  # the board says what is wrong with the file
    if not (getattr(args, "stand", False) or settings.enabled):
        return None
    games = tuple(getattr(args, "stand_game", None) or settings.games)
    idle = getattr(args, "stand_idle", None)
    stand = StandSettings(
        games=games,
        idle_seconds=idle if idle is not None else settings.idle_seconds or IDLE_SECONDS,
    )
    stand_entries(stand.games)  # a game or mode the box lacks is named now
    return stand


def create_board(args: argparse.Namespace) -> Any:
    """The exchange this machine can run (simulated unless a Raspberry Pi is detected)."""
    from firmware.factory import create_board as create

    config = getattr(args, "config", None)
    return create(config_file=Path(config) if config else None)


def run(args: argparse.Namespace, board: Any = None) -> int:
    from web.store import StoreError, default_data_dir

    started = time.perf_counter()
    data_dir = args.data_dir or default_data_dir()
    try:
        stand = stand_settings(args)
    except ValueError as exc:
        print(f"clacks serve: {exc}", file=sys.stderr)
        return 2
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
            stand=stand,
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
    if hub.stand is not None:
        entries = ", ".join(hub.stand.entries)
        idle = f"{stand.idle_seconds:g} s"
        print(f"  Stand mode:    visitors choose on their phones ({entries}); idle games end after {idle}")
    else:
        print(f"  Table PIN:     {hub.main.pin}   (new game, saved games, freeing a seat)")
    for room in hub.rooms.values():
        if room is not hub.main and hub.stand is None:
            print(f"  Table {room.code} PIN: {room.pin}   (that table's own, new at every start)")
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
        # waitress waits up to 5 s for its threads to finish before it exits, and each open
        # page holds one in its event stream: end them first, so the server stops at once
        hub.let_pages_go()
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    try:
        server.run()
    except KeyboardInterrupt:
        pass
    finally:
        hub.stop()
        server.close()
        board.stop()
    return 0
