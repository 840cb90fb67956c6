<?php

declare(strict_types=1);

namespace Spindle\Http\Http1;

use Spindle\Http\ConnectionDriver;
use Spindle\Http\ConnectionEvents;
use Spindle\Http\ConnectionServices;
use Spindle\Http\ErrorAnswer;
use Spindle\Http\Http2\Http2Connection;
use Spindle\Http\Http2\Http2Session;
use Spindle\Http\Peer;
use Spindle\Http\Request;
use Spindle\Http\Response;
use Spindle\Http\UpgradeHandler;
use Spindle\Http\UpgradedSocket;

/**
 * Where an HTTP/1.1 connection stops being one: a client that speaks HTTP/2 by prior knowledge
 * (h2c: its first bytes are HTTP/2's preface) goes to an Http2Connection, and a request answered
 * with a 101 hands its socket to the driver its response's UpgradeHandler makes. The server then
 * holds that driver in the connection's place (ConnectionEvents::replaced()).
 *
 * Http1Connection decides when (its phases, its queue, what it read past the request and has not
 * written yet); this class makes the next driver from that. Made only for a connection that
 * hands over: none of it is on the path of a request that does not.
 */
final class Http1Handover
{
    /**
     * @param resource $socket
     */
    public function __construct(
        private readonly mixed $socket,
        private readonly ConnectionServices $set,
        private readonly ConnectionEvents $events,
        private readonly Peer $peer,
    ) {
    }

    /** Whether a connection's first $bytes are HTTP/2's preface: true, false, or null while too few came to tell. */
    public static function isHttp2(string $bytes): ?bool
    {
        return Http2Session::startsWithPreface($bytes);
    }

    /**
     * The bytes that answer $request's upgrade $response, and whether they switch protocols: the
     * 101 head, or (an upgrade the request cannot take: not HTTP/1.1, a status other than 101, a
     * header that could split the head) a 500, logged, which is the connection's last response.
     *
     * @return array{string, bool}
     */
    public function switchingHead(Request $request, Response $response): array
    {
        try {
            if ($request->protocolVersion !== '1.1' || $response->status !== 101) {
                throw new \UnexpectedValueException(\sprintf('an upgrade answers an HTTP/1.1 request with 101, not HTTP/%s with %d', $request->protocolVersion, $response->status));
            }

            return [$this->set->serializer->informational(101, $response->headers), true];
        } catch (\UnexpectedValueException $e) {
            $this->set->logger->error(\sprintf('%s %s: invalid response: %s', $request->method, $request->path, $e->getMessage()));

            return [ErrorAnswer::failure($e, $this->set->debug)->http1($this->set->serializer, $request->protocolVersion, false), false];
        }
    }

    /**
     * The client speaks HTTP/2 by prior knowledge: the socket and the $bytes read go to an HTTP/2
     * driver, which the server holds in $from's place ($from released the socket).
     */
    public function toHttp2(ConnectionDriver $from, string $bytes): void
    {
        $this->events->replaced($from, new Http2Connection($this->socket, $this->set, $this->events, $this->peer, $bytes));
    }

    /**
     * The request that switched protocols has ended: the socket goes to $upgrade's driver, with
     * the bytes read past the request ($readAhead) and those of the 101 not written yet
     * ($unwritten), and the server holds that driver in $from's place. A driver that cannot be
     * made is logged, and the connection closed.
     */
    public function toUpgrade(ConnectionDriver $from, UpgradeHandler $upgrade, Request $request, string $readAhead, string $unwritten): void
    {
        $socket = new UpgradedSocket($this->socket, $readAhead, $unwritten, $this->peer, $this->set, $this->events, $request);
        try {
            $driver = $upgrade->takeOver($socket);
        } catch (\Throwable $e) {
            $this->set->logger->error(\sprintf('%s %s: the upgraded connection could not be taken over: %s', $request->method, $request->path, $e->getMessage()), ['exception' => $e]);
            @\fclose($this->socket);
            $this->events->closed($from);

            return;
        }
        $this->events->replaced($from, $driver);
    }
}
