<?php

declare(strict_types=1);

namespace Spindle\Tests\Integration\Redis;

use Revolt\EventLoop;

/**
 * A misbehaving Redis server on 127.0.0.1, run by the event loop in the test's own process: for
 * each command it receives it calls $respond with the raw request and the client socket, which
 * writes whatever the test wants (or nothing, or closes).
 */
final class FakeServer
{
    /** @var resource */
    private $server;
    private string $watcher;
    public readonly int $port;
    /** @var list<resource> */
    private array $clients = [];
    /** @var list<string> */
    private array $watchers = [];
    public int $commands = 0;

    /** @param \Closure(string, resource, FakeServer): void $respond */
    public function __construct(private readonly \Closure $respond)
    {
        $server = stream_socket_server('tcp://127.0.0.1:0');
        if ($server === false) {
            throw new \RuntimeException('Could not listen');
        }
        stream_set_blocking($server, false);
        $this->server = $server;
        $name = (string) stream_socket_get_name($server, false);
        $this->port = (int) substr($name, strrpos($name, ':') + 1);
        $this->watcher = EventLoop::unreference(EventLoop::onReadable($server, $this->accept(...)));
    }

    public function url(string $query = ''): string
    {
        return 'redis://127.0.0.1:' . $this->port . ($query !== '' ? '?' . $query : '');
    }

    public function stop(): void
    {
        EventLoop::cancel($this->watcher);
        foreach ($this->watchers as $id) {
            EventLoop::cancel($id);
        }
        foreach ($this->clients as $client) {
            if (\is_resource($client)) {
                fclose($client);
            }
        }
        $this->clients = [];
        if (\is_resource($this->server)) {
            fclose($this->server);
        }
    }

    private function accept(): void
    {
        $client = @stream_socket_accept($this->server, 0);
        if ($client === false) {
            return;
        }
        stream_set_blocking($client, false);
        $this->clients[] = $client;
        $this->watchers[] = EventLoop::unreference(EventLoop::onReadable($client, function (string $id) use ($client): void {
            $data = \is_resource($client) ? @fread($client, 65536) : false;
            if ($data === false || $data === '') {
                EventLoop::cancel($id);

                return;
            }
            ++$this->commands;
            ($this->respond)($data, $client, $this);
        }));
    }
}
