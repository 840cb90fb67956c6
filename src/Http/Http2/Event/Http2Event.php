<?php

declare(strict_types=1);

namespace Spindle\Http\Http2\Event;

/** What Http2Session::push() reports to the connection driver. */
interface Http2Event
{
}
