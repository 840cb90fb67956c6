<?php

declare(strict_types=1);

namespace Spindle\Loop;

/** What went wrong opening a client socket. */
enum ClientSocketFailure
{
    /** The socket could not be created or the connect not started (bad address, no such unix socket). */
    case Open;
    /** The connect did not complete by the deadline. */
    case TimedOut;
    /** The peer refused or the connect failed (SO_ERROR). */
    case Refused;
    /** The TLS handshake failed. */
    case Tls;
    /** The TLS handshake did not complete by the deadline. */
    case TlsTimedOut;
}
