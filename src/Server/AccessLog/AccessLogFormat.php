<?php

declare(strict_types=1);

namespace Spindle\Server\AccessLog;

/** `--access-log-format`. */
enum AccessLogFormat: string
{
    /** nginx's and Apache's "combined" line, then the request id, the duration in µs and the worker pid. */
    case Combined = 'combined';
    /** One JSON object per line. */
    case Json = 'json';
}
