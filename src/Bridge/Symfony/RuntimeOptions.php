<?php

declare(strict_types=1);

namespace Spindle\Bridge\Symfony;

use Spindle\Loop\EventLoopKind;
use Spindle\Server\AppPaths;
use Spindle\Server\ServerOptions;

/**
 * The server options of a Symfony app started through the Runtime (`php public/index.php`).
 *
 * Each comes from the runtime option of its name (APP_RUNTIME_OPTIONS, or "extra.runtime" in
 * composer.json), else from the SPINDLE_* environment variable, else from the default:
 *
 * | runtime option    | variable                | default            |
 * |-------------------|-------------------------|--------------------|
 * | host              | SPINDLE_HOST            | 127.0.0.1          |
 * | port              | SPINDLE_PORT            | 8080 (0: any free) |
 * | workers           | SPINDLE_WORKERS         | number of CPUs     |
 * | concurrency       | SPINDLE_CONCURRENCY     | 100                |
 * | max_requests      | SPINDLE_MAX_REQUESTS    | 0 (never recycle)  |
 * | max_memory        | SPINDLE_MAX_MEMORY      | 0 (MiB; no limit)  |
 * | request_timeout   | SPINDLE_REQUEST_TIMEOUT | 60 (s; 0: none)    |
 * | static_dir        | SPINDLE_STATIC_DIR      | public/ ("none")   |
 * | pid_file          | SPINDLE_PID_FILE        | temp dir, by port  |
 * | debug             | SPINDLE_DEBUG           | false              |
 * | event_loop        | SPINDLE_EVENT_LOOP      | auto (as `serve`)  |
 * | max_connections   | SPINDLE_MAX_CONNECTIONS | the event loop's   |
 *
 * As with `spindle serve <directory>` (see AppPaths), the workers run in public/, and a
 * relative static_dir is a directory of the project.
 */
final class RuntimeOptions
{
    private const VARIABLES = [
        'host' => 'SPINDLE_HOST',
        'port' => 'SPINDLE_PORT',
        'workers' => 'SPINDLE_WORKERS',
        'concurrency' => 'SPINDLE_CONCURRENCY',
        'max_requests' => 'SPINDLE_MAX_REQUESTS',
        'max_memory' => 'SPINDLE_MAX_MEMORY',
        'request_timeout' => 'SPINDLE_REQUEST_TIMEOUT',
        'static_dir' => 'SPINDLE_STATIC_DIR',
        'pid_file' => 'SPINDLE_PID_FILE',
        'debug' => 'SPINDLE_DEBUG',
        'event_loop' => 'SPINDLE_EVENT_LOOP',
        'max_connections' => 'SPINDLE_MAX_CONNECTIONS',
    ];

    /**
     * @param array<mixed> $options the runtime's options (with project_dir)
     * @param array<mixed> $environment $_SERVER + $_ENV
     */
    public static function serverOptions(array $options, array $environment, int $cpus = 0): ServerOptions
    {
        $projectDir = $options['project_dir'] ?? null;
        $resolved = \is_string($projectDir) ? \realpath($projectDir) : false;
        if ($resolved === false || !\is_dir($resolved)) {
            throw new \InvalidArgumentException('The runtime option project_dir must name the app directory');
        }
        $value = static function (string $name) use ($options, $environment): ?string {
            $value = $options[$name] ?? $environment[self::VARIABLES[$name]] ?? null;
            if ($value === null || $value === '') {
                return null;
            }
            if (\is_bool($value)) {
                return $value ? '1' : '0';
            }
            if (!\is_scalar($value)) {
                throw new \InvalidArgumentException(\sprintf('The Spindle option %s must be a scalar', $name));
            }

            return (string) $value;
        };
        $int = static function (string $name, int $default) use ($value): int {
            $given = $value($name);
            if ($given === null) {
                return $default;
            }
            if (\preg_match('/^\d+$/D', $given) !== 1) {
                throw new \InvalidArgumentException(\sprintf('The Spindle option %s (%s) must be a whole number, got "%s"', $name, self::VARIABLES[$name], $given));
            }

            return (int) $given;
        };
        $requestTimeout = $value('request_timeout');
        if ($requestTimeout !== null && !\is_numeric($requestTimeout)) {
            throw new \InvalidArgumentException(\sprintf('The Spindle option request_timeout (SPINDLE_REQUEST_TIMEOUT) must be a number, got "%s"', $requestTimeout));
        }

        $paths = AppPaths::resolve($resolved, $value('static_dir'), (string) \getcwd());
        $loop = $value('event_loop') ?? 'auto';
        $maxConnections = $value('max_connections') === null ? null : $int('max_connections', 0);
        $eventLoop = (EventLoopKind::tryFrom($loop)
            ?? throw new \InvalidArgumentException(\sprintf('The Spindle option event_loop (SPINDLE_EVENT_LOOP) must be auto, select or epoll, got "%s"', $loop)))
            ->resolve($maxConnections);
        if ($eventLoop === EventLoopKind::Epoll && ($problem = EventLoopKind::epollProblem()) !== null) {
            throw new \InvalidArgumentException('The Spindle option event_loop=epoll cannot run here: ' . $problem);
        }

        return new ServerOptions(
            app: $resolved,
            host: $value('host') ?? '127.0.0.1',
            port: $int('port', 8080),
            workers: \max(1, $int('workers', $cpus > 0 ? $cpus : self::cpuCount())),
            concurrency: \max(1, $int('concurrency', 100)),
            staticDir: $paths->staticDir,
            debug: \filter_var($value('debug') ?? '0', \FILTER_VALIDATE_BOOL),
            maxRequests: $int('max_requests', 0),
            maxMemory: $int('max_memory', 0),
            requestTimeout: $requestTimeout === null ? 60.0 : (float) $requestTimeout,
            pidFile: $value('pid_file'),
            workingDirectory: $paths->workingDirectory,
            maxConnections: $maxConnections ?? $eventLoop->defaultConnections(),
            eventLoop: $eventLoop,
        );
    }

    private static function cpuCount(): int
    {
        $info = @\file_get_contents('/proc/cpuinfo');

        return \max(1, \is_string($info) ? \preg_match_all('/^processor\s*:/m', $info) : 1);
    }
}
