<?php

declare(strict_types=1);

namespace Spindle\HttpClient\Guzzle;

/** @internal Writing the response body to the `sink` failed (curl's error 23). */
final class SinkFailed extends \RuntimeException
{
}
