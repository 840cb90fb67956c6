<?php

declare(strict_types=1);

namespace Spindle\Server;

use Psr\Log\LoggerInterface;
use Spindle\Http\RequestHandler;

/**
 * Boots the application a worker serves, as `serve APP` names it (a PHP file, or a directory of a
 * framework app), and returns it. The worker knows no framework: the composition
 * root (bin/spindle, the framework runners) hands it Bridge\AppFactory.
 */
interface ApplicationFactory
{
    /**
     * @param WorkerServices $services what the worker shares between requests (the app's
     *                                 framework bridge keeps its own there too)
     *
     * @throws ServerError when the app cannot be loaded
     */
    public function create(ServerOptions $options, LoggerInterface $logger, WorkerServices $services): RequestHandler;
}
