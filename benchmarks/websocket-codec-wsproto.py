#!/usr/bin/python3
"""A reference beside benchmarks/websocket-codec.php: the same frames through Debian's
python3-wsproto (FrameProtocol, the sans-I/O frame layer), frames per second, median of ROUNDS.

    /usr/bin/python3 benchmarks/websocket-codec-wsproto.py [rounds=5] [seconds=0.5]
"""
import os
import statistics
import sys
import time

from wsproto.frame_protocol import FrameProtocol

rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 5
seconds = float(sys.argv[2]) if len(sys.argv) > 2 else 0.5

small = ('{"event":"App\\\\Events\\\\OrderShipped","channel":"private-orders.42","data":"{\\"order\\":{\\"id\\":42,'
         '\\"status\\":\\"shipped\\",\\"carrier\\":\\"Höfner & Söhne\\",\\"eta\\":\\"2026-11-30T10:00:00Z\\"}}"}')
small = small.encode("utf-8").ljust(200, b" ").decode("utf-8")
big = os.urandom(65536)
client = FrameProtocol(client=True, extensions=[])
small_frame = client.send_data(small)
big_frame = client.send_data(big)
big_segments = [big_frame[i:i + 1460] for i in range(0, len(big_frame), 1460)]
server_side = FrameProtocol(client=False, extensions=[])
encoder = FrameProtocol(client=False, extensions=[])


def parse_small():
    server_side.receive_bytes(small_frame)
    for _ in server_side.received_frames():
        pass


def parse_small_batch():
    server_side.receive_bytes(small_frame * 32)
    for _ in server_side.received_frames():
        pass


def parse_big():
    server_side.receive_bytes(big_frame)
    for _ in server_side.received_frames():
        pass


def parse_big_segments():
    for segment in big_segments:
        server_side.receive_bytes(segment)
        for _ in server_side.received_frames():
            pass


measures = [
    ("parse small text, 1 frame a read", parse_small, 1, 200),
    ("parse small text, 32 frames a read", parse_small_batch, 32, 200),
    ("parse 64 KiB binary, 1 frame a read", parse_big, 1, 65536),
    ("parse 64 KiB binary, in 1460-byte reads", parse_big_segments, 1, 65536),
    ("encode small text", lambda: encoder.send_data(small), 1, 200),
    ("encode 64 KiB binary", lambda: encoder.send_data(big), 1, 65536),
]

results = {name: [] for name, _, _, _ in measures}
for _ in range(rounds):
    for name, body, per_call, _ in measures:
        calls = 0
        start = time.perf_counter()
        deadline = start + seconds
        while True:
            for _ in range(20):
                body()
            calls += 20
            now = time.perf_counter()
            if now >= deadline:
                break
        results[name].append(calls * per_call / (now - start))

print("Python %s, wsproto FrameProtocol, %d rounds of %.1f s, median:" % (sys.version.split()[0], rounds, seconds))
for name, _, _, size in measures:
    rate = statistics.median(results[name])
    print("  %-58s %12s frames/s  %8.1f MB/s payload  (%.2f µs a frame)" % (name, format(int(rate), ","), rate * size / 1e6, 1e6 / rate))
