<?php

declare(strict_types=1);

namespace Spindle\HttpClient\Guzzle;

use GuzzleHttp\Promise\CancellationException;
use Spindle\HttpClient\Transfer;
use Spindle\Loop\Context;

/**
 * @internal The asynchronous transfers a server request started, cancelled when that request
 * ends (after its response and its deferred work (Context::defer())): a request never waited for does not run
 * on, holding a connection, once nothing can use its answer. Held weakly: a transfer that ended
 * and was let go is gone from here too.
 */
final class RequestTransfers
{
    /** @var \WeakMap<Transfer<mixed>, true> */
    private \WeakMap $transfers;

    private function __construct()
    {
        $this->transfers = new \WeakMap();
    }

    public static function of(Context $context): self
    {
        $transfers = $context->get(self::class);
        if (!$transfers instanceof self) {
            $transfers = new self();
            $context->set(self::class, $transfers);
            $context->onEnd($transfers->cancelAll(...));
        }

        return $transfers;
    }

    /** @param Transfer<mixed> $transfer */
    public function add(Transfer $transfer): void
    {
        $this->transfers[$transfer] = true;
    }

    private function cancelAll(): void
    {
        foreach ($this->transfers as $transfer => $_) {
            $transfer->cancel(new CancellationException('The request that started this transfer has ended'));
        }
        $this->transfers = new \WeakMap();
    }
}
