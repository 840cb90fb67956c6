#!/usr/bin/python3
"""The independent side of Spindle's WebSocket cross-check: Debian's python3-wsproto.

Speaks one JSON object per line on stdin/stdout, bytes as hex.

  client [deflate]: wsproto is the client (offering permessage-deflate with "deflate"). It prints its handshake request, reads Spindle's 101, prints the
          frames of a fixed conversation (messages, fragmented ones, a ping, a close) with the
          events Spindle must see, then reads Spindle's answer and prints the events wsproto
          decodes from it.
  decode: wsproto's server-side frame layer decodes one input per line ({"hex": ...}) and prints
          the messages and control frames it got, up to a close frame, and the close code of the
          error it found (null: none).
  server: wsproto is the server. It reads Spindle's handshake request, prints its 101, then reads
          Spindle's client frames and prints the events it decodes.
"""
import json
import sys

from wsproto import ConnectionType, WSConnection
from wsproto.extensions import PerMessageDeflate
from wsproto.events import (AcceptConnection, BytesMessage, CloseConnection, Message, Ping, Pong,
                            RejectConnection, Request, TextMessage)


def say(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def hear():
    line = sys.stdin.readline()
    if not line:
        sys.exit("stdin closed")
    return json.loads(line)


def describe(events):
    """wsproto events as plain data; message fragments joined."""
    out, text, data = [], [], []
    for event in events:
        if isinstance(event, TextMessage):
            text.append(event.data)
            if event.message_finished:
                out.append({"type": "Text", "hex": "".join(text).encode("utf-8").hex()})
                text = []
        elif isinstance(event, BytesMessage):
            data.append(bytes(event.data))
            if event.message_finished:
                out.append({"type": "Binary", "hex": b"".join(data).hex()})
                data = []
        elif isinstance(event, Ping):
            out.append({"type": "Ping", "hex": bytes(event.payload).hex()})
        elif isinstance(event, Pong):
            out.append({"type": "Pong", "hex": bytes(event.payload).hex()})
        elif isinstance(event, CloseConnection):
            out.append({"type": "Close", "hex": (event.reason or "").encode("utf-8").hex(), "code": event.code})
        else:
            out.append({"type": type(event).__name__})
    return out


def client(deflate=False):
    ws = WSConnection(ConnectionType.CLIENT)
    request = ws.send(Request(host="127.0.0.1:8080", target="/chat?room=1", subprotocols=["v1.chat", "v2.chat"],
                              extra_headers=[(b"origin", b"https://app.example.com")],
                              extensions=[PerMessageDeflate()] if deflate else []))
    say({"request": request.hex()})
    ws.receive_data(bytes.fromhex(hear()["response"]))
    handshake = list(ws.events())
    if len(handshake) != 1 or not isinstance(handshake[0], AcceptConnection):
        say({"error": "handshake not accepted: %r" % handshake})
        return
    say({"subprotocol": handshake[0].subprotocol, "extensions": [repr(e) for e in handshake[0].extensions]})

    big = "".join(chr(0x20 + (i % 0x5f)) for i in range(70000))
    out, expected = b"", []

    def message(parts, binary=False):
        nonlocal out
        for i, part in enumerate(parts):
            out += ws.send(Message(data=part, message_finished=i == len(parts) - 1))
        whole = b"".join(parts) if binary else "".join(parts).encode("utf-8")
        expected.append({"type": "Binary" if binary else "Text", "hex": whole.hex()})

    message(["hello"])
    message([""])
    message(["héllo ", "wörld ", "✓ 😀"])
    message([bytes(range(256))], binary=True)
    message([b"\x00\x01", b"", b"\xff" * 300], binary=True)
    message([big])
    out += ws.send(Ping(payload=b"ping-payload"))
    expected.append({"type": "Ping", "hex": b"ping-payload".hex()})
    message(["after the ping"])
    out += ws.send(CloseConnection(code=1000, reason="bye ✓"))
    expected.append({"type": "Close", "hex": "bye ✓".encode("utf-8").hex(), "code": 1000})
    say({"frames": out.hex(), "expected": expected})

    ws.receive_data(bytes.fromhex(hear()["server"]))
    say({"events": describe(ws.events())})


def server():
    ws = WSConnection(ConnectionType.SERVER)
    ws.receive_data(bytes.fromhex(hear()["request"]))
    events = list(ws.events())
    if len(events) != 1 or not isinstance(events[0], Request):
        say({"error": "not a WebSocket request: %r" % events})
        return
    request = events[0]
    chosen = "v2.chat" if "v2.chat" in request.subprotocols else None
    say({"response": ws.send(AcceptConnection(subprotocol=chosen)).hex(), "target": request.target,
         "subprotocols": request.subprotocols})
    ws.receive_data(bytes.fromhex(hear()["frames"]))
    say({"events": describe(ws.events())})


def decode():
    from wsproto.frame_protocol import FrameProtocol, Opcode, ParseFailed
    for line in sys.stdin:
        proto = FrameProtocol(client=False, extensions=[])
        proto.receive_bytes(bytes.fromhex(json.loads(line)["hex"]))
        events, code, message, text = [], None, [], None
        try:
            for frame in proto.received_frames():
                if frame.opcode in (Opcode.TEXT, Opcode.BINARY, Opcode.CONTINUATION):
                    if frame.opcode is not Opcode.CONTINUATION:
                        text = frame.opcode is Opcode.TEXT
                    message.append(frame.payload.encode("utf-8") if text else bytes(frame.payload))
                    if frame.message_finished:
                        events.append(["Text" if text else "Binary", b"".join(message).hex()])
                        message = []
                elif frame.opcode is Opcode.CLOSE:
                    events.append(["Close", frame.payload[1].encode("utf-8").hex(), int(frame.payload[0])])
                    break
                else:
                    events.append(["Ping" if frame.opcode is Opcode.PING else "Pong", bytes(frame.payload).hex()])
        except ParseFailed as exc:
            code = int(exc.code)
        say({"events": events, "code": code})


if __name__ == "__main__":
    if sys.argv[1] == "client":
        client(len(sys.argv) > 2 and sys.argv[2] == "deflate")
    elif sys.argv[1] == "decode":
        decode()
    else:
        server()
