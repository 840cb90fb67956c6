<?php

declare(strict_types=1);

namespace Spindle\Bridge\Laravel;

use Illuminate\Contracts\Http\Kernel;
use Illuminate\Foundation\Application;
use Psr\Log\LoggerInterface;
use Spindle\Bridge\Laravel\Reset;
use Spindle\Bridge\Laravel\Reset\Resetter;
use Symfony\Component\HttpFoundation\Request as SymfonyRequest;

/** One booted Laravel application of a worker, with its HTTP kernel and the resetters that clean it between requests. */
final class AppInstance
{
    /** @param list<Resetter> $resetters run in this order after every request */
    public function __construct(
        public readonly int $number,
        public readonly Application $app,
        public readonly Kernel $kernel,
        public readonly StaticState $state,
        private readonly array $resetters,
        /** `--check-state`: compares the app's state after each reset with the state before the request. */
        private readonly ?StateCheck $stateCheck = null,
        /** Laravel 8's HandleExceptions of this instance, which PHP's shutdown functions hold. */
        public readonly ?object $exceptionBootstrapper = null,
        /** Lets go of the last request when FinishedRequests says so, not after every request. */
        private readonly ?Reset\RequestResetter $requestResetter = null,
    ) {
    }

    /**
     * Makes this instance let go of its last request (Reset\RequestResetter); a failure is
     * logged (the next request's kernel binds its own request all the same). Call it while this
     * instance owns the statics and is not lent out.
     */
    public function letRequestGo(LoggerInterface $logger): void
    {
        try {
            $this->requestResetter?->reset();
        } catch (\Throwable $e) {
            $logger->error(\sprintf('Laravel instance %d: %s failed: %s', $this->number, Reset\RequestResetter::class, $e->getMessage()), ['exception' => $e]);
        }
    }

    /**
     * Runs every resetter; returns false when one failed (the instance is then in an unknown
     * state and should be thrown away). Call it while this instance owns the statics.
     *
     * @param SymfonyRequest|null $request the request that ran, named by `--check-state`'s warnings
     */
    public function reset(LoggerInterface $logger, ?SymfonyRequest $request = null): bool
    {
        $clean = true;
        foreach ($this->resetters as $resetter) {
            try {
                $resetter->reset();
            } catch (\Throwable $e) {
                $clean = false;
                $logger->error(\sprintf('Laravel instance %d: %s failed: %s', $this->number, $resetter instanceof Reset\AppResetter ? $resetter->class : $resetter::class, $e->getMessage()), ['exception' => $e]);
            }
        }
        if ($clean && $this->stateCheck !== null) {
            $this->stateCheck->check($this->app, $request);
        }

        return $clean;
    }
}
