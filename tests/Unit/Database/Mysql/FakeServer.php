<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Database\Mysql;

use Revolt\EventLoop;

/**
 * A scripted MySQL server on 127.0.0.1:<random port>, driven by the same event loop as the
 * client: each accepted connection runs its script in a loop callback fiber. Its watchers are
 * unreferenced (they never keep the loop alive) and all cancelled by stop().
 */
final class FakeServer
{
    /** @var resource */
    private $server;
    public readonly int $port;
    /** @var list<string> */
    private array $watchers = [];
    /** @var list<FakePeer> */
    private array $peers = [];
    /** @var list<\Throwable> */
    public array $errors = [];
    private bool $stopped = false;

    public function __construct()
    {
        $server = stream_socket_server('tcp://127.0.0.1:0', $errno, $errstr);
        if ($server === false) {
            throw new \RuntimeException("cannot listen: $errstr");
        }
        stream_set_blocking($server, false);
        $this->server = $server;
        $name = (string) stream_socket_get_name($server, false);
        $this->port = (int) substr($name, (int) strrpos($name, ':') + 1);
    }

    /** Runs $script(FakePeer) for the next client that connects. */
    public function serve(\Closure $script): void
    {
        $id = EventLoop::onReadable($this->server, function (string $id) use ($script): void {
            $client = @stream_socket_accept($this->server, 0);
            if ($client === false) {
                return;
            }
            EventLoop::cancel($id);
            stream_set_blocking($client, false);
            $peer = new FakePeer($client, $this);
            $this->peers[] = $peer;
            try {
                $script($peer);
            } catch (\Throwable $e) {
                $this->errors[] = $e;
            }
        });
        $this->track($id);
    }

    public function track(string $watcherId): void
    {
        EventLoop::unreference($watcherId);
        $this->watchers[] = $watcherId;
    }

    public function stop(): void
    {
        if ($this->stopped) {
            return;
        }
        $this->stopped = true;
        foreach ($this->watchers as $id) {
            EventLoop::cancel($id);
        }
        $this->watchers = [];
        foreach ($this->peers as $peer) {
            $peer->close();
        }
        @fclose($this->server);
    }

    /** Suspends the current fiber (or runs the loop) for $seconds. */
    public static function pause(float $seconds): void
    {
        $suspension = EventLoop::getSuspension();
        EventLoop::delay($seconds, static fn () => $suspension->resume());
        $suspension->suspend();
    }
}
