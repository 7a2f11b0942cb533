"""waitress's HTTP channel without a busy loop while event streams are written.

When a task thread writes to a connection (an event-stream message, say), waitress
appends the bytes to the channel's output buffer and the task thread sends them itself,
holding the buffer's lock. Meanwhile the main loop sees a channel with output pending,
finds the lock taken, and asks again at once: for as long as the write lasts, and every
time it goes round it asks each of the open connections whether it is readable or
writable. With 54 streams written after every change that spin cost more processor time
than everything else the companion does for an action (some 110 rounds of the main loop
per action, against 2 with this channel).

Here a channel whose buffer lock a task thread holds is not writable (the task is
sending), and after each write the task thread wakes the main loop if anything is left
to send (a slow client's full socket buffer), so nothing waits for the loop's timeout.
"""

from __future__ import annotations

from typing import Any

from waitress.channel import HTTPChannel  # type: ignore[import-untyped]


class StreamingChannel(HTTPChannel):  # type: ignore[misc]
    def writable(self) -> Any:
        if self.requests and self.total_outbufs_len:
            if not self.outbuf_lock.acquire(False):
                return False  # a task thread is sending right now
            self.outbuf_lock.release()
        return super().writable()

    def write_soon(self, data: Any) -> int:
        written: int = super().write_soon(data)
        if self.total_outbufs_len:
            self.server.pull_trigger()  # what the task thread could not send, the loop will
        return written


def use_streaming_channels(server: Any) -> None:
    """Make ``server`` (as waitress's ``create_server`` returns it) accept connections
    as StreamingChannel, on every socket it listens on."""
    listeners = [server, *getattr(server, "map", {}).values()]
    for listener in listeners:
        if hasattr(listener, "channel_class"):
            listener.channel_class = StreamingChannel
