<?php

declare(strict_types=1);

namespace Spindle\Server;

use Spindle\Http\WebSocket\WebSocketConnections;
use Spindle\Metrics\Family;
use Spindle\Metrics\MetricType;
use Spindle\Metrics\Registry;

/**
 * The WebSocket families of `--metrics`, read from the worker's WebSocketConnections when the
 * worker reports (nothing is called on the connections' path but the tally's increments).
 */
final class WebSocketMetrics
{
    private function __construct()
    {
    }

    public static function export(Registry $registry, WebSocketConnections $tally): void
    {
        $registry->collectWith('spindle_websocket', static fn (): array => self::families($tally));
    }

    /** @return list<Family> */
    public static function families(WebSocketConnections $tally): array
    {
        // Keyed by the code's digits (PHP keeps such keys as ints; the text output reads them back as strings).
        /** @var array<string, float> $closed */
        $closed = \array_map('floatval', $tally->closed);
        $refused = [];
        foreach (['worker', 'address'] as $reason) {
            $refused[$reason] = (float) ($tally->refused[$reason] ?? 0);
        }
        $in = 'in';
        $out = 'out';

        return [
            new Family('spindle_websocket_connections', MetricType::Gauge, 'Open WebSocket connections', [], [], ['' => (float) $tally->open()]),
            new Family('spindle_websocket_opened_total', MetricType::Counter, 'WebSocket connections opened (handshakes answered 101)', [], [], ['' => (float) $tally->opened]),
            new Family('spindle_websocket_closed_total', MetricType::Counter, 'WebSocket connections closed, by close code (1006: lost without a closing handshake)', ['code'], [], $closed),
            new Family('spindle_websocket_refused_total', MetricType::Counter, 'WebSocket handshakes refused at a limit: the worker\'s (--ws-max-connections, 503) or the client address\'s (--ws-max-per-ip, 429)', ['limit'], [], $refused),
            new Family('spindle_websocket_messages_total', MetricType::Counter, 'WebSocket messages received (in) and sent (out)', ['direction'], [], [$in => (float) $tally->messagesIn, $out => (float) $tally->messagesOut]),
            new Family('spindle_websocket_bytes_total', MetricType::Counter, 'WebSocket bytes on the wire after the handshake, control frames included', ['direction'], [], [$in => (float) $tally->bytesIn, $out => (float) $tally->bytesOut]),
            new Family('spindle_websocket_dropped_total', MetricType::Counter, 'WebSocket connections dropped: a client that did not read (slow) or did not answer a ping (silent)', ['reason'], [], ['slow' => (float) $tally->slowDropped, 'silent' => (float) $tally->silentDropped]),
            new Family('spindle_websocket_messages_dropped_total', MetricType::Counter, 'Messages the app sent to a WebSocket connection that was closing or closed, not sent', [], [], ['' => (float) $tally->messagesDropped]),
        ];
    }
}
