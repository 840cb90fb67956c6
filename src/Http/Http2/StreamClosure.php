<?php

declare(strict_types=1);

namespace Spindle\Http\Http2;

/** How a stream closed, which decides what frames arriving on it later mean (RFC 9113 §5.1). */
enum StreamClosure
{
    /** Both sides sent END_STREAM: more DATA or HEADERS from the peer is a connection error. */
    case Ended;
    /** The peer reset it: more DATA or HEADERS from the peer is a stream error. */
    case PeerReset;
    /** We reset it (a reset, a refusal, a 431): the peer's frames may be in flight, and are ignored. */
    case Ours;
}
