<?php

declare(strict_types=1);

namespace Spindle\Server;

use Psr\Log\LoggerInterface;
use Spindle\Http\RequestHandler;
use Spindle\Server\Tasks\TaskCaller;

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

    /**
     * Makes a task worker (Tasks\TaskPool) ready for its tasks, before the first: what the app
     * needs there (a Laravel app boots, as for a queue worker), with $caller for what its tasks
     * send back to the HTTP worker ahead of their result. Nothing for an app that needs nothing.
     *
     * @throws \Throwable when the app cannot be prepared (the task worker logs it and runs its tasks without it)
     */
    public function prepareTaskWorker(ServerOptions $options, LoggerInterface $logger, TaskCaller $caller): void;
}
