<?php

declare(strict_types=1);

namespace Spindle\Server\Peers;

/** What a frame on the master's relay carries (RelayCodec). */
enum RelayKind: string
{
    /** Worker to master, first frame: the worker's origin (PeerLink::origin()); not relayed. */
    case Hello = 'H';
    /** Worker to master to every other worker, unchanged: the sender's origin and a message. */
    case Message = 'M';
    /** Master to workers: the origin of a worker that exited. */
    case Gone = 'G';
}
