<?php

declare(strict_types=1);

namespace Spindle\Http\Http1;

/** Which of an HTTP/1.1 connection's own timeouts comes next (Http1Deadlines::due()). */
enum Http1Timeout
{
    /** Nothing can time out now (a request runs: its limit is the RequestRunner's; or closed). */
    case None;
    /** The client has taken nothing of what was written for --body-timeout: cut. */
    case WriteStalled;
    /** A draining worker's idle connection had its grace: closed. */
    case DrainGrace;
    /** The body stalled between two reads for --body-timeout: 408. */
    case BodyStalled;
    /** The body fell behind the minimum rate: 408. */
    case BodyTooSlow;
    /** The head took longer than --header-timeout: 408. */
    case HeadTooSlow;
    /** A new connection sent no request within --header-timeout: closed. */
    case NoFirstRequest;
    /** Idle between requests for --keep-alive-timeout: closed. */
    case KeepAlive;
}
