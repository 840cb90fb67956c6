<?php

declare(strict_types=1);

namespace Spindle\Bridge\Symfony;

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
    public function reset(object $kernel): void
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
    }
}
