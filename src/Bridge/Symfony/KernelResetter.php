<?php

declare(strict_types=1);

namespace Spindle\Bridge\Symfony;

use Symfony\Component\HttpFoundation\Request;
use Symfony\Component\HttpFoundation\RequestStack;
use Symfony\Component\HttpKernel\KernelInterface;
use Symfony\Contracts\Service\ResetInterface;

/**
 * Puts a kernel back into the state of a fresh one between two requests, as Symfony's own
 * runtime does for long-running kernels: the container's services resetter resets every
 * service tagged kernel.reset (every ResetInterface service, with autoconfiguration), and
 * requests left on the request stack are removed.
 */
final class KernelResetter
{
    /** @param StateCheck|null $stateCheck `--check-state`: compares the kernel's state after each reset with the state before the request */
    public function __construct(private readonly ?StateCheck $stateCheck = null)
    {
    }

    /** @param Request|null $request the request that ran, named by `--check-state`'s warnings */
    public function reset(object $kernel, ?Request $request = null): void
    {
        if (!$kernel instanceof KernelInterface) {
            return;
        }
        $container = $kernel->getContainer();
        if ($container->has('services_resetter')) {
            $resetter = $container->get('services_resetter');
            if ($resetter instanceof ResetInterface) {
                $resetter->reset();
            }
        }
        if ($container->has('request_stack')) {
            $stack = $container->get('request_stack');
            if ($stack instanceof RequestStack) {
                while ($stack->pop() !== null) {
                    // Requests an aborted handle() left behind.
                }
            }
        }
        $this->stateCheck?->check($kernel, $request);
    }
}
