"""How long the client waited on a kernel that had already finished a cell (an idle wait).

A client executing a notebook sends each cell's request and waits for two messages: the
``execute_reply`` on the shell channel and ``status: idle`` on IOPub. Both are stamped by the kernel
when it sends them. When the client has seen both, the cell is done; the time from the kernel's
stamp to the client's arrival is a wait with nothing left to do: milliseconds normally, the cell's
whole time limit when a wake-up was missed and the reply lay unread in the client's socket.
"""

from __future__ import annotations

from datetime import datetime, timezone

LOST_REPLY_SECONDS = 5.0
"""An idle wait longer than this is a lost reply: the kernel had finished, the client slept on."""


class Waits:
    """For each cell: when the kernel finished it and when this process saw that it had.

    The kernel stamps every message it sends (``header["date"]``); a cell is finished when its
    ``execute_reply`` and its ``status: idle`` are both sent, and seen when both have arrived here.
    The difference is time spent waiting on a kernel with nothing left to do: milliseconds,
    unless a wake-up was missed and the reply lay unread until a poll ended.
    """

    def __init__(self):
        self.cells: dict[str, int] = {}  # request id -> cell index
        self.done: dict[str, datetime] = {}
        self.seen: dict[str, datetime] = {}
        self.started: set[str] = set()  # requests the kernel answered at all

    def sent(self, msg_id: str, cell_index: int) -> None:
        self.cells[msg_id] = cell_index

    def note(self, msg: dict, now: datetime) -> None:
        """Record ``msg``, which this process received at ``now`` (an aware datetime)."""
        request = msg.get("parent_header", {}).get("msg_id")
        finishing = msg.get("msg_type") == "execute_reply" or (
            msg.get("msg_type") == "status"
            and msg.get("content", {}).get("execution_state") == "idle"
        )
        if request not in self.cells:
            return
        self.started.add(request)
        if not finishing:
            return
        sent = _aware(msg["header"]["date"])
        self.done[request] = max(self.done.get(request, sent), sent)
        self.seen[request] = max(self.seen.get(request, now), now)

    def waits(self) -> list[tuple[float, int]]:
        """(idle wait in seconds, cell index) for each cell the kernel finished."""
        return [((self.seen[r] - self.done[r]).total_seconds(), self.cells[r]) for r in self.seen]

    def longest(self) -> tuple[float, int | None]:
        """The longest idle wait in seconds, and the index of the cell where it happened."""
        return max(self.waits(), default=(0.0, None))

    def over(self, seconds: float) -> list[int]:
        """The cells whose idle wait was longer than ``seconds`` (their replies were lost)."""
        return [cell for wait, cell in self.waits() if wait > seconds]

    def unread_request(self) -> int | None:
        """The cell whose request the kernel never answered (a lost request), if the last one."""
        last = next(reversed(self.cells), None)
        return None if last is None or last in self.started else self.cells[last]


def _aware(date: datetime | str) -> datetime:
    date = datetime.fromisoformat(date) if isinstance(date, str) else date
    return date if date.tzinfo else date.replace(tzinfo=timezone.utc)
