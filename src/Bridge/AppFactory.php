<?php

declare(strict_types=1);

namespace Spindle\Bridge;

use Psr\Log\LoggerInterface;
use Spindle\Bridge\Psr15\Psr7Bridge;
use Spindle\HttpClient\Stream\StreamWrappers;
use Spindle\Http\RequestHandler;
use Spindle\Server\ApplicationFactory;
use Spindle\Http\ClosureHandler;
use Spindle\Server\ServerError;
use Spindle\Server\ServerOptions;
use Spindle\Server\Tasks\TaskCaller;
use Spindle\Server\WorkerServices;

/**
 * The applications Spindle can serve: a directory holding a Laravel or Symfony app (Frameworks),
 * or a PHP file returning a closure or a PSR-15 handler (AppLoader). It also puts the fiber-aware
 * http:// and https:// stream wrappers in place, which the app's URL reads then go through.
 */
final class AppFactory implements ApplicationFactory
{
    public function create(ServerOptions $options, LoggerInterface $logger, WorkerServices $services): RequestHandler
    {
        StreamWrappers::install();
        $app = $options->app;
        if (!\is_dir($app)) {
            return (new AppLoader(Psr7Bridge::withNyholm()))->load($app);
        }
        $framework = Frameworks::detect($app);
        if ($framework === null) {
            throw new ServerError(\sprintf('%s is a directory but no Laravel or Symfony app; give a PHP file that returns the app', $app));
        }
        $logger->info(\sprintf('Booting the %s app in %s', $framework::name(), $app));

        return new ClosureHandler($framework::boot($app, $options, $logger, $services));
    }

    /**
     * A Laravel app boots in each task worker (Laravel\TaskWorkerApp), in the workers' working
     * directory; other apps need nothing there. SPINDLE_TASK_APP=0: no app in the task workers
     * (their tasks see only what they are sent, and cannot broadcast).
     */
    public function prepareTaskWorker(ServerOptions $options, LoggerInterface $logger, TaskCaller $caller): void
    {
        $app = $options->app;
        if (WorkerEnvironment::value('SPINDLE_TASK_APP') === '0' || !\is_dir($app) || Frameworks::detect($app) !== Laravel\LaravelApp::class) {
            return;
        }
        if ($options->workingDirectory !== null && !@\chdir($options->workingDirectory)) {
            throw new ServerError(\sprintf('Cannot change to the working directory %s', $options->workingDirectory));
        }
        Laravel\TaskWorkerApp::boot($app, $caller);
    }
}
