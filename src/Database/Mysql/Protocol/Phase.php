<?php

declare(strict_types=1);

namespace Spindle\Database\Mysql\Protocol;

/** Where a client session stands. */
enum Phase
{
    /** Connected, waiting for the server's initial handshake. */
    case AwaitingHandshake;
    /** The SSL request is queued: write it, then enable TLS and call tlsEstablished(). */
    case TlsRequested;
    /** The handshake response is out; authentication packets go back and forth. */
    case Authenticating;
    /** Idle: a command may be started. */
    case Ready;
    /** A command is out; its response is being read. */
    case AwaitingResponse;
    /** The server asked for a LOCAL INFILE: answer with sendLocalInfile(). */
    case LocalInfileRequested;
    /** COM_QUIT was sent. */
    case Closed;
    /** A protocol error happened: the session can never be used again. */
    case Broken;
}
