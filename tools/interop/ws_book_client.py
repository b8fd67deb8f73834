#!/usr/bin/env python3
"""A second client of the venue's WebSocket streams, written from docs/WEBSOCKET.md alone, in another language than
the venue: Python's standard library only (the WebSocket handshake and framing of RFC 6455 are written out here).

It subscribes to one book channel, builds the book from the snapshot and the deltas, and checks every frame's seq
(contiguous) and checksum (CRC-32 of the best 25 levels a side). Once it has the snapshot it prints
{"subscribed":seq} and reads a line from standard input: the seq to stop at (--until-seq instead gives it at once).
Once the book reaches it, it prints {"seq":..,"checksum":..,"bids":[[p,q],..],"asks":[[p,q],..],"frames":n}. Exit
status 0 when every check passed, 1 otherwise (the reason on standard error).

    python3 ws_book_client.py --url ws://127.0.0.1:8080/api/v1/ws/public --channel book.1 --until-seq 42
"""
import argparse
import base64
import hashlib
import json
import os
import socket
import struct
import sys
import zlib
from urllib.parse import urlparse

GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"


class Connection:
    def __init__(self, url, timeout):
        parts = urlparse(url)
        if parts.scheme != "ws":
            raise SystemExit("only ws:// URLs: " + url)
        self.sock = socket.create_connection((parts.hostname, parts.port or 80), timeout=timeout)
        key = base64.b64encode(os.urandom(16)).decode()
        request = ("GET %s HTTP/1.1\r\nHost: %s:%d\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                   "Sec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\n\r\n"
                   % (parts.path or "/", parts.hostname, parts.port or 80, key))
        self.sock.sendall(request.encode("ascii"))
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.sock.recv(1)
            if not chunk:
                raise SystemExit("the server closed during the handshake")
            head += chunk
        lines = head.decode("latin-1").split("\r\n")
        if " 101 " not in lines[0]:
            raise SystemExit("no upgrade: " + lines[0])
        accept = base64.b64encode(hashlib.sha1((key + GUID).encode()).digest()).decode()
        headers = {l.split(":", 1)[0].strip().lower(): l.split(":", 1)[1].strip() for l in lines[1:] if ":" in l}
        if headers.get("sec-websocket-accept") != accept:
            raise SystemExit("wrong Sec-WebSocket-Accept")

    def _exact(self, n):
        data = b""
        while len(data) < n:
            chunk = self.sock.recv(n - len(data))
            if not chunk:
                raise SystemExit("the server closed the connection")
            data += chunk
        return data

    def send(self, opcode, payload):
        mask = os.urandom(4)
        head = bytes([0x80 | opcode])
        n = len(payload)
        if n < 126:
            head += bytes([0x80 | n])
        elif n < 65536:
            head += bytes([0x80 | 126]) + struct.pack(">H", n)
        else:
            head += bytes([0x80 | 127]) + struct.pack(">Q", n)
        self.sock.sendall(head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))

    def send_text(self, text):
        self.send(0x1, text.encode("utf-8"))

    def receive_text(self):
        """The next whole text message; answers pings, fails on a close."""
        message = b""
        while True:
            first, second = self._exact(2)
            opcode, fin = first & 0x0F, first & 0x80
            n = second & 0x7F
            if n == 126:
                n = struct.unpack(">H", self._exact(2))[0]
            elif n == 127:
                n = struct.unpack(">Q", self._exact(8))[0]
            if second & 0x80:
                raise SystemExit("a server frame must not be masked")
            payload = self._exact(n)
            if opcode == 0x9:
                self.send(0xA, payload)
                continue
            if opcode == 0xA:
                continue
            if opcode == 0x8:
                code = struct.unpack(">H", payload[:2])[0] if len(payload) >= 2 else 1005
                raise SystemExit("closed by the server: %d %s" % (code, payload[2:].decode("utf-8", "replace")))
            message += payload
            if fin:
                return message.decode("utf-8")


def checksum(bids, asks):
    """CRC-32 (IEEE) of the best 25 bid levels best first, '|', the best 25 ask levels best first, 'price:qty'."""
    best_bids = sorted(bids.items(), key=lambda level: -level[0])[:25]
    best_asks = sorted(asks.items(), key=lambda level: level[0])[:25]
    text = (",".join("%d:%d" % level for level in best_bids) + "|" +
            ",".join("%d:%d" % level for level in best_asks))
    return zlib.crc32(text.encode("ascii")) & 0xFFFFFFFF


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", required=True)
    parser.add_argument("--channel", default="book.1")
    parser.add_argument("--until-seq", type=int)
    parser.add_argument("--timeout", type=float, default=30)
    args = parser.parse_args()

    connection = Connection(args.url, args.timeout)
    session = json.loads(connection.receive_text())
    if session.get("type") != "session":
        raise SystemExit("the first frame is not the session frame: %r" % session)
    connection.send_text(json.dumps({"method": "subscribe", "id": 1, "channels": [args.channel]}))
    bids, asks, seq, frames = {}, {}, None, 0
    until = args.until_seq
    while seq is None or until is None or seq < until:
        frame = json.loads(connection.receive_text())
        if frame.get("type") == "error":
            raise SystemExit("error frame: %r" % frame)
        if frame.get("ch") != args.channel or frame.get("type") not in ("snapshot", "delta"):
            continue
        if frame["type"] == "snapshot":
            bids, asks = {}, {}
        elif frame["seq"] != seq + 1:
            raise SystemExit("a gap: seq %d after %d" % (frame["seq"], seq))
        for side, levels in ((bids, frame["bids"]), (asks, frame["asks"])):
            for price, qty in levels:
                if qty == 0:
                    side.pop(price, None)
                else:
                    side[price] = qty
        seq = frame["seq"]
        frames += 1
        if checksum(bids, asks) != frame["checksum"]:
            raise SystemExit("checksum mismatch at seq %d" % seq)
        if until is None:
            print(json.dumps({"subscribed": seq}), flush=True)
            until = int(sys.stdin.readline())
    print(json.dumps({"seq": seq, "checksum": checksum(bids, asks), "frames": frames,
                      "bids": sorted([list(l) for l in bids.items()], key=lambda l: -l[0]),
                      "asks": sorted([list(l) for l in asks.items()], key=lambda l: l[0])}))


if __name__ == "__main__":
    main()
