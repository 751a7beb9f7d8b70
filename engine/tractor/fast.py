"""The simulator at compiled speed, streaming: byte chunks through the numba kernel, and the
pure-Python simulator for whatever the kernel does not handle (errors above all), from the
case where it stopped. Output is byte-identical to simulate.run's (tests/tractor)."""

import io
import re

import numpy as np

from engine.tractor import _kernels as K
from engine.tractor.protocol import InputError, case_count
from engine.tractor.rules import MAIN_LETTERS, RANKS, SEATS
from engine.tractor.simulate import run

CHUNK = 1 << 20  # bytes read at a time
_FIRST = re.compile(rb"[ \t\n\r\x0b\x0c]*([0-9]+)[ \t\n\r\x0b\x0c]")


def _bytes(text: str) -> np.ndarray:
    return np.frombuffer(text.encode(), np.uint8).copy()


_WORDS = (_bytes(MAIN_LETTERS), _bytes(RANKS), tuple(_bytes(s) for s in SEATS), _bytes("Case #"),
          _bytes("Winner: Team "))
_CODES = K.code_tables()
_CARDS = K.card_table()


def _line_breaks(data: bytes) -> int:
    """Lines ended in `data`, counted as str.splitlines counts them (for the ASCII the kernel takes)."""
    return data.count(b"\n") + data.count(b"\r") - data.count(b"\r\n") + data.count(b"\x0b") + data.count(b"\x0c")


class _TextOut:
    """The pure-Python simulator's text writes, onto the binary output."""

    def __init__(self, out):
        self.out = out

    def write(self, text: str) -> None:
        self.out.write(text.encode())

    def flush(self) -> None:
        self.out.flush()


def run_fast(stdin, out, *, chunk: int = CHUNK) -> InputError | None:
    """Simulate a binary input stream onto a binary output stream; return the input error, if any."""
    data = stdin.read(chunk)
    eof = not data
    while not eof and not _FIRST.match(data) and len(data) < 64:  # T must be complete to start
        more = stdin.read(chunk)
        eof = not more
        data += more
    first = _FIRST.match(data)
    if first is None:  # odd or missing T: the pure-Python reader says what is wrong
        return _fallback(data, stdin, out, resume=None)
    try:
        count = case_count((first.group(1).decode(), 1 + _line_breaks(data[:first.start(1)])))
    except InputError:
        return _fallback(data, stdin, out, resume=None)
    consumed_lines = _line_breaks(data[:first.end(1)])
    data = data[first.end(1):]
    case = 1
    while case <= count:
        if not eof:
            more = stdin.read(chunk)
            eof = not more
            data += more
        # give the kernel whole lines unless the input ended (a token is never cut)
        end = len(data) if eof else data.rfind(b"\n") + 1
        if end <= 0 and not eof:
            continue
        buf = np.frombuffer(data, np.uint8, count=end)
        out_buf = np.empty(end // 2 + 1024, np.uint8)
        pos, case, written, status = K.simulate_chunk(buf, 0, end, eof, case, count, _CODES, _CARDS,
                                                      K.POINTS_ARRAY, _WORDS, out_buf)
        out.write(out_buf[:written].tobytes())
        if status == K.FALLBACK or (status == K.MORE and eof):
            return _fallback(data[pos:], stdin, out, resume=(case, count, consumed_lines + _line_breaks(data[:pos])))
        consumed_lines += _line_breaks(data[:pos])
        data = data[pos:]
    out.flush()
    return None


def _fallback(data: bytes, stdin, out, *, resume) -> InputError | None:
    """The rest of the input (`data`, then stdin) through the pure-Python simulator."""
    rest = io.TextIOWrapper(io.BufferedReader(_Joined(data, stdin)), encoding="utf-8", errors="replace", newline="")
    text_out = _TextOut(out)
    error = run(rest, text_out, resume=resume)
    text_out.flush()
    return error


class _Joined(io.RawIOBase):
    """bytes already read, then the rest of a binary stream, as one raw stream."""

    def __init__(self, head: bytes, tail):
        self.head, self.tail = head, tail

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        if self.head:
            n = min(len(buffer), len(self.head))
            buffer[:n] = self.head[:n]
            self.head = self.head[n:]
            return n
        data = self.tail.read(len(buffer))
        buffer[:len(data)] = data
        return len(data)
