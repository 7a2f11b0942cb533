"""Event streams are bounded, over real HTTP through waitress: 200 streams opened from
four devices and never read while a phone plays normally; the pages of one device and
the streams of one seat; a full server makes room fairly; a page that does not read is
let go, and what waits for it is bounded and never spills to the disk."""

from __future__ import annotations

import contextlib
import socket
import time
from urllib.parse import urlsplit

from clacks_setup import seat_label
from live_server import LiveServer
from test_web_api import act, claim, start
from test_web_bots import wait_for
from web_client import EventStream, call

from engine.clacks.selfplay import next_action
from engine.core.rng import Rng
from web.server_channel import CONNECTIONS_PER_DEVICE, UNSENT_MAX_BYTES
from web.stream import STREAMS_PER_DEVICE


def silent_stream(server: LiveServer, device: str, path: str) -> socket.socket:
    """A stream asked for from ``device`` (a loopback address of its own) and never read."""
    parts = urlsplit(server.base)
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # it soon takes no more
    sock.bind((device, 0))
    sock.connect((parts.hostname, parts.port))
    sock.sendall(f"GET {path} HTTP/1.1\r\nHost: {parts.netloc}\r\n\r\n".encode())
    return sock


def stream_from(server: LiveServer, device: str, query: str = "") -> EventStream:
    """A stream read like a page reads it, from ``device``."""
    watcher = EventStream.__new__(EventStream)
    parts = urlsplit(server.base)
    watcher.sock = socket.create_connection(
        (parts.hostname, parts.port), source_address=(device, 0)
    )
    path = f"/api/rooms/{server.code}/stream{query}"
    watcher.sock.sendall(f"GET {path} HTTP/1.1\r\nHost: {parts.netloc}\r\n\r\n".encode())
    watcher.buffer = watcher.raw = b""
    watcher.seq, watcher.last = -1, None
    head = watcher._read_until(b"\r\n\r\n")
    watcher.status = int(head.split(b" ", 2)[1])
    return watcher


def ended(watcher: EventStream, seconds: float = 10.0) -> bool:
    """Whether the server ends the stream (within ``seconds``)."""
    watcher.sock.settimeout(seconds)
    try:
        while watcher.sock.recv(65536):
            pass
    except TimeoutError:
        return False
    except OSError:
        pass
    return True


def test_200_silent_streams_never_keep_a_phone_from_playing() -> None:
    server = LiveServer(stall_seconds=3.0)  # 24 threads: 16 streams at most
    hostile: list[socket.socket] = []
    try:
        start(server)
        tokens = {"south": claim(server, "south"), "north": claim(server, "north")}
        path = f"/api/rooms/{server.code}/stream"
        hostile = [silent_stream(server, f"127.0.0.{2 + n % 4}", path) for n in range(200)]
        time.sleep(1.0)  # every one answered, or refused
        room = server.room
        assert room.fanout.spectators <= 16
        # a phone plays normally: its page, its stream, the table screen's too
        assert call(server.base, "GET", f"/join/{server.code}")[0] == 200
        phone = EventStream(
            server.base, f"{path}?seat=south&token={tokens['south']}"
        )  # a seat's stream always gets in
        screen = stream_from(server, "127.0.0.1")  # and so does a device with no page yet
        assert phone.status == 200 and screen.status == 200
        phone.catch_up(room.seq)
        session = room.session
        assert session is not None
        rng = Rng(7)
        for _ in range(30):
            planned = next_action(session.clacks, rng)  # type: ignore[attr-defined]
            seat = seat_label(planned)
            status, body = act(server, seat, tokens[seat], planned.to_json())
            assert status == 200, body
            while phone.next_state(timeout=5)["revision"] < body["revision"]:
                pass
        # the silent pages fell behind, and were let go: only the phone and the screen
        # are followed once each stream has been written to again
        time.sleep(3.5)
        planned = next_action(session.clacks, rng)  # type: ignore[attr-defined]
        assert (
            act(server, seat_label(planned), tokens[seat_label(planned)], planned.to_json())[0] == 200
        )
        wait_for(lambda: room.fanout.spectators == 1, seconds=20)
        # nothing waiting for a slow reader ever went to a temporary file, and no
        # connection holds more than its share
        for channel in list(server.server.active_channels.values()):
            assert not any(getattr(b, "overflowed", False) for b in channel.outbufs)
            assert channel.total_outbufs_len <= UNSENT_MAX_BYTES + 64 * 1024
        phone.close()
        screen.close()
    finally:
        for sock in hostile:
            sock.close()
        server.close()


def test_one_device_one_seat_and_a_full_server_each_get_their_share(server: LiveServer) -> None:
    start(server)
    token = claim(server, "south")
    pages = [stream_from(server, "127.0.0.9") for _ in range(STREAMS_PER_DEVICE)]
    assert [p.status for p in pages] == [200] * STREAMS_PER_DEVICE
    refused = stream_from(server, "127.0.0.9")
    assert refused.status == 429 and b"too_many_streams" in refused._read_until(b"}")
    # a seat's newest stream ends its oldest but one (a phone that reloads)
    query = f"?seat=south&token={token}"
    seat_streams = [stream_from(server, "127.0.0.1", query) for _ in range(3)]
    assert [s.status for s in seat_streams] == [200, 200, 200]
    assert ended(seat_streams[0])
    # the server is full (16 streams): a device with no page gets in by ending the
    # oldest page of the device with the most; that device cannot win it back
    others = [stream_from(server, "127.0.0.10") for _ in range(16 - STREAMS_PER_DEVICE - 2)]
    assert all(o.status == 200 for o in others)
    newcomer = stream_from(server, "127.0.0.11")
    assert newcomer.status == 200 and ended(pages[0])
    again = stream_from(server, "127.0.0.9")
    assert again.status == 503
    for watcher in (*pages, *seat_streams, *others, newcomer, refused, again):
        watcher.close()


def test_a_table_screen_following_the_board_makes_room_at_once() -> None:
    from firmware.config import BoardConfig
    from firmware.factory import create_board
    from firmware.sinks import RecordingSink

    board = create_board(BoardConfig(), model=None, sink=RecordingSink())
    server = LiveServer(board=board)  # 24 threads: 16 streams at most
    board.start()
    screens: list[EventStream] = []
    try:
        start(server)
        # the server full of table screens that draw the board, from two devices
        screens = [
            stream_from(server, f"127.0.0.{2 + n // STREAMS_PER_DEVICE}", "?board=1")
            for n in range(16)
        ]
        assert all(s.status == 200 for s in screens)
        wait_for(lambda: server.room.fanout.spectators == 16)
        time.sleep(0.5)  # the board is quiet: every screen waits for its next frame
        # a device with no page yet gets in (nothing changes at the table): the oldest
        # screen lets go of its thread now, not at its next keep-alive
        newcomer = stream_from(server, "127.0.0.7", "?board=1")
        assert newcomer.status == 200
        assert ended(screens[0], seconds=3.0)
        assert not ended(screens[1], seconds=0.5)
        newcomer.close()
    finally:
        for screen in screens:
            screen.close()
        server.close()
        board.stop()


def test_one_address_holds_at_most_its_share_of_connections(server: LiveServer) -> None:
    parts = urlsplit(server.base)
    held = [
        socket.create_connection((parts.hostname, parts.port), source_address=("127.0.0.20", 0))
        for _ in range(CONNECTIONS_PER_DEVICE)
    ]
    try:
        wait_for(
            lambda: (
                sum(
                    getattr(c, "device", None) == "127.0.0.20"
                    for c in list(server.server.active_channels.values())
                )
                == CONNECTIONS_PER_DEVICE
            )
        )
        # one more from the same address is closed as it is accepted
        extra = socket.create_connection(
            (parts.hostname, parts.port), source_address=("127.0.0.20", 0)
        )
        extra.settimeout(5)
        extra.sendall(
            f"GET /api/rooms/{server.code} HTTP/1.1\r\nHost: {parts.netloc}\r\n\r\n".encode()
        )
        with contextlib.suppress(ConnectionResetError):  # closed, whichever way
            assert extra.recv(65536) == b""
        extra.close()
        # another device is served as ever, and so are the held ones
        assert call(server.base, "GET", f"/api/rooms/{server.code}")[0] == 200
        held[0].sendall(
            f"GET /api/rooms/{server.code} HTTP/1.1\r\nHost: {parts.netloc}\r\n\r\n".encode()
        )
        held[0].settimeout(5)
        assert held[0].recv(65536).startswith(b"HTTP/1.1 200")
    finally:
        for sock in held:
            sock.close()
