<?php

declare(strict_types=1);

namespace Spindle\Bridge\Pusher;

use Revolt\EventLoop;
use Spindle\Http\WebSocket\WebSocket;

/**
 * The Pusher protocol's liveness check: a connection that sent nothing for its app's ping
 * interval (Reverb's ping_interval; the activity_timeout when not set) gets a pusher:ping; one
 * that then sends nothing for the app's pong timeout is closed with 4201 (pusher-js reconnects at once). pusher-js answers a pusher:ping whatever else
 * it receives, so a client that only listens is not mistaken for a vanished one. One timer per
 * worker, running only while there are connections, and never keeping the loop alive.
 */
final class ActivityMonitor
{
    /** @var array<int, array{WebSocket, PusherApp, float, bool}> connection id => connection, app, last heard from, pinged */
    private array $watched = [];
    private ?string $timerId = null;
    private float $interval = \INF;

    public function watch(WebSocket $socket, PusherApp $app): void
    {
        $this->watched[$socket->id] = [$socket, $app, \microtime(true), false];
        $interval = \max(0.5, \min($app->pingInterval, $app->pongTimeout) / 2);
        if ($this->timerId === null || $interval < $this->interval) {
            $this->stopTimer();
            $this->interval = $interval;
            $this->timerId = EventLoop::unreference(EventLoop::repeat($interval, $this->sweep(...)));
        }
    }

    /** The client sent something: it is alive. */
    public function heard(WebSocket $socket): void
    {
        if (isset($this->watched[$socket->id])) {
            $this->watched[$socket->id][2] = \microtime(true);
            $this->watched[$socket->id][3] = false;
        }
    }

    public function forget(WebSocket $socket): void
    {
        unset($this->watched[$socket->id]);
        if ($this->watched === []) {
            $this->stopTimer();
        }
    }

    private function sweep(): void
    {
        $now = \microtime(true);
        foreach ($this->watched as $id => [$socket, $app, $heardAt, $pinged]) {
            if (!$pinged && $now - $heardAt >= $app->pingInterval) {
                $this->watched[$id][2] = $now;
                $this->watched[$id][3] = true;
                $socket->send(Frames::event('pusher:ping'));
            } elseif ($pinged && $now - $heardAt >= $app->pongTimeout) {
                unset($this->watched[$id]);
                $socket->send(Frames::error(ErrorCode::PongNotReceived));
                $socket->close(ErrorCode::PongNotReceived->value, ErrorCode::PongNotReceived->message());
            }
        }
    }

    private function stopTimer(): void
    {
        if ($this->timerId !== null) {
            EventLoop::cancel($this->timerId);
            $this->timerId = null;
            $this->interval = \INF;
        }
    }
}
