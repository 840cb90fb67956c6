#!/usr/bin/python3
"""An echo WebSocket server built on Debian's python3-wsproto, the reference the Autobahn case
list runs against over a socket (autobahn-report.php --wsproto). Listens on 127.0.0.1, port 0,
prints "listening on 127.0.0.1:PORT" when ready, echoes every message, answers pings and closes,
fails the connection as wsproto decides, and exits when its standard input closes.
"""
import os
import socket
import sys
import threading

from wsproto import ConnectionType, WSConnection
from wsproto.events import (AcceptConnection, BytesMessage, CloseConnection, Message, Ping, Request,
                            TextMessage)
from wsproto.utilities import LocalProtocolError


def serve(conn):
    ws = WSConnection(ConnectionType.SERVER)
    parts = []
    try:
        while True:
            chunk = conn.recv(65536)
            if not chunk:
                return
            ws.receive_data(chunk)
            for event in ws.events():
                if isinstance(event, Request):
                    conn.sendall(ws.send(AcceptConnection()))
                elif isinstance(event, (TextMessage, BytesMessage)):
                    parts.append(event.data)
                    if event.message_finished:
                        whole = "".join(parts) if isinstance(event, TextMessage) else b"".join(parts)
                        parts = []
                        conn.sendall(ws.send(Message(data=whole)))
                elif isinstance(event, Ping):
                    conn.sendall(ws.send(event.response()))
                elif isinstance(event, CloseConnection):
                    try:
                        conn.sendall(ws.send(CloseConnection(code=event.code, reason=None if event.code >= 1005 else event.reason)))
                    except LocalProtocolError:
                        pass
                    return
    except (OSError, LocalProtocolError):
        return
    finally:
        try:
            conn.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        conn.close()


def main():
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    threading.Thread(target=lambda: (sys.stdin.read(), os._exit(0)), daemon=True).start()
    print("listening on 127.0.0.1:%d" % listener.getsockname()[1], flush=True)
    while True:
        conn, _ = listener.accept()
        conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        threading.Thread(target=serve, args=(conn,), daemon=True).start()


if __name__ == "__main__":
    main()
