<?php

declare(strict_types=1);

// A minimal TCP echo server around WebSocketSession, for running the Autobahn case list over real
// sockets before Spindle's own WebSocket driver exists (autobahn-report.php --session-server,
// AutobahnOverTcpTest). Not the server's driver: one process, stream_select, blocking writes.
// Listens on 127.0.0.1, port 0, prints "listening on 127.0.0.1:PORT" when ready, and exits when
// its standard input closes.

use Spindle\Http\WebSocket\ClientHandshake;
use Spindle\Http\WebSocket\EventType;
use Spindle\Http\WebSocket\ServerHandshake;
use Spindle\Http\WebSocket\SessionState;
use Spindle\Http\WebSocket\WebSocketLimits;
use Spindle\Http\WebSocket\WebSocketSession;

require __DIR__ . '/../../../vendor/autoload.php';

$server = \stream_socket_server('tcp://127.0.0.1:0', $errno, $error);
if ($server === false) {
    \fwrite(\STDERR, "Cannot listen: {$error}\n");
    exit(1);
}
echo 'listening on ', \stream_socket_get_name($server, false), "\n";
$limits = new WebSocketLimits(16 << 20, 16 << 20, 65536);
$handshake = new ServerHandshake();
/** @var array<int, array{resource, string, ?WebSocketSession}> $clients socket, bytes before the handshake ends, session */
$clients = [];
$close = static function (int $id) use (&$clients): void {
    \fclose($clients[$id][0]);
    unset($clients[$id]);
};
while (true) {
    $read = [\STDIN, $server];
    foreach ($clients as [$socket]) {
        $read[] = $socket;
    }
    $write = $except = null;
    if (\stream_select($read, $write, $except, null) === false) {
        exit(1);
    }
    foreach ($read as $stream) {
        if ($stream === \STDIN) {
            if (\fread(\STDIN, 8192) === '' && \feof(\STDIN)) {
                exit(0);
            }
            continue;
        }
        if ($stream === $server) {
            $socket = \stream_socket_accept($server, 0);
            if ($socket !== false) {
                $clients[(int) $socket] = [$socket, '', null];
            }
            continue;
        }
        $id = (int) $stream;
        $bytes = \fread($stream, 262144);
        if ($bytes === false || $bytes === '') {
            $clients[$id][2]?->connectionLost();
            $close($id);
            continue;
        }
        [$socket, $head, $session] = $clients[$id];
        if ($session === null) {
            $head .= $bytes;
            $end = \strpos($head, "\r\n\r\n");
            if ($end === false) {
                $clients[$id] = [$socket, $head, null];
                continue;
            }
            $lines = \explode("\r\n", \substr($head, 0, $end));
            $headers = [];
            foreach (\array_slice($lines, 1) as $line) {
                [$name, $value] = \array_pad(\explode(':', $line, 2), 2, '');
                $headers[\strtolower($name)][] = \trim($value);
            }
            [$method, , $version] = \array_pad(\explode(' ', $lines[0]), 3, '');
            $result = $handshake->evaluate($method, \str_replace('HTTP/', '', $version), $headers);
            $response = \sprintf("HTTP/1.1 %d %s\r\n", $result->isAccepted() ? 101 : ($result->status ?: 400), $result->isAccepted() ? 'Switching Protocols' : 'Bad Request');
            foreach ($result->headers as $name => $value) {
                $response .= "{$name}: {$value}\r\n";
            }
            \fwrite($socket, $response . "\r\n");
            if (!$result->isAccepted()) {
                $close($id);
                continue;
            }
            $session = new WebSocketSession($limits);
            $clients[$id] = [$socket, '', $session];
            $bytes = (string) \substr($head, $end + 4);
        }
        foreach ($session->receive($bytes) as $event) {
            if ($session->state() !== SessionState::Open) {
                continue;
            }
            if ($event->type === EventType::Text) {
                $session->sendText($event->payload);
            } elseif ($event->type === EventType::Binary) {
                $session->sendBinary($event->payload);
            }
        }
        $output = $session->takeOutput();
        for ($written = 0; $written < \strlen($output);) {
            $n = @\fwrite($socket, \substr($output, $written));
            if ($n === false || $n === 0) {
                break;
            }
            $written += $n;
        }
        if ($session->shouldCloseTransport()) {
            $close($id);
        }
    }
}
