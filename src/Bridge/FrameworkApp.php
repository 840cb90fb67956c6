<?php

declare(strict_types=1);

namespace Spindle\Bridge;

use Psr\Log\LoggerInterface;
use Spindle\Http\Request;
use Spindle\Http\Response;
use Spindle\Server\ServerOptions;
use Spindle\Server\WorkerServices;

/**
 * A framework that `spindle serve <directory>` recognises: Laravel, Symfony.
 *
 * The worker asks each known framework in turn whether the directory holds one of its apps;
 * the first that does boots it and hands back the request handler.
 */
interface FrameworkApp
{
    /** The framework's name, for log lines and errors: "Laravel". */
    public static function name(): string;

    /** Whether $directory is the root of an app of this framework. */
    public static function detect(string $directory): bool;

    /**
     * Boots the app of $directory in this worker and returns the handler that serves its
     * requests, with what the worker shares between requests ($services: the metrics, the ticks;
     * BridgeServices::of($services) the database pools and the rest the bridge keeps). Throws when
     * the app cannot be booted: the worker then fails to start.
     *
     * @return \Closure(Request): Response
     */
    public static function boot(string $directory, ServerOptions $options, LoggerInterface $logger, WorkerServices $services): \Closure;
}
