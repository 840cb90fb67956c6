<?php

declare(strict_types=1);

namespace Spindle\Http\Http2\Hpack;

use Spindle\Http\Http2\Http2Exception;

/**
 * A header block that decodes to a list larger than SETTINGS_MAX_HEADER_LIST_SIZE allows (the sum of
 * name + value + 32 over the fields, RFC 9113 §6.5.2). The block was still decoded to its end, so the
 * dynamic table stays in step with the peer's encoder; only the stream is refused (431).
 */
final class HeaderListTooLarge extends Http2Exception
{
    public function __construct(public readonly int $limit)
    {
        parent::__construct("Header list larger than the limit of $limit bytes");
    }
}
