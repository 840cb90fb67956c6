<?php

declare(strict_types=1);

namespace Spindle\Bridge;

use Spindle\Http\Request;
use Spindle\Http\Response;

/**
 * A framework's side of PooledHandler: how an instance is borrowed, and how a request is handled
 * with it (converted, run, its response converted).
 *
 * @template TLease of InstanceLease
 */
interface PooledKernel
{
    /**
     * Borrows an instance from the pool (waiting for one if need be) and makes it current.
     *
     * @return TLease
     */
    public function borrow(): InstanceLease;

    /**
     * Handles $request with the instance $lease holds. An exception that escapes is the
     * request's error: PooledHandler ends the lease and lets it through.
     *
     * @param TLease $lease
     */
    public function handle(InstanceLease $lease, Request $request): Response;
}
