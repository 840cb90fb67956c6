<?php

declare(strict_types=1);

namespace Spindle\Supervisor;

use Spindle\Http\Tls\TlsSettings;
use Psr\Log\LogLevel;
use Spindle\Http\HttpLimits;
use Spindle\Loop\EventLoopKind;
use Spindle\Server\AccessLog\AccessLogFormat;
use Spindle\Server\AppPaths;
use Spindle\Server\ServerError;
use Spindle\Server\ServerOptions;
use Spindle\Server\StreamLogger;
use Spindle\Server\TrustedProxies;
use Spindle\Server\ApplicationFactory;
use Symfony\Component\Console\Attribute\AsCommand;
use Symfony\Component\Console\Command\Command;
use Symfony\Component\Console\Input\InputArgument;
use Symfony\Component\Console\Input\InputInterface;
use Symfony\Component\Console\Input\InputOption;
use Symfony\Component\Console\Output\ConsoleOutputInterface;
use Symfony\Component\Console\Output\OutputInterface;

#[AsCommand(name: 'serve', description: 'Serve an application from resident worker processes')]
final class ServeCommand extends Command
{
    public function __construct(
        private readonly string $defaultApp,
        /** Boots the app in each worker: the composition root gives Bridge\AppFactory. */
        private readonly ApplicationFactory $applications,
    ) {
        parent::__construct();
    }

    protected function configure(): void
    {
        $this
            ->addArgument('app', InputArgument::OPTIONAL, 'PHP file returning a PSR-15 handler or a closure, or the directory of a Laravel or Symfony app', $this->defaultApp)
            ->addOption('host', null, InputOption::VALUE_REQUIRED, 'Address to listen on', '127.0.0.1')
            ->addOption('port', null, InputOption::VALUE_REQUIRED, 'Port to listen on (0 picks a free one)', '8080')
            ->addOption('workers', null, InputOption::VALUE_REQUIRED, 'Worker processes', (string) self::cpuCount())
            ->addOption('concurrency', null, InputOption::VALUE_REQUIRED, 'Requests one worker runs at once', '100')
            ->addOption('db-pool', null, InputOption::VALUE_REQUIRED, 'Database sessions one worker holds per connection configuration, shared by its requests (default: SPINDLE_DB_POOL, else 16, of which 4 open as requests ask and the rest while sessions wait on slow queries; a connection\'s own "pool" setting wins)')
            ->addOption('db-pool-timeout', null, InputOption::VALUE_REQUIRED, 'Seconds a request waits for a free database session before it fails (default: SPINDLE_DB_POOL_TIMEOUT, else 10)')
            ->addOption('max-connections', null, InputOption::VALUE_REQUIRED, 'Connections one worker holds open at once; more wait in the listen queue (default: 512 with select, 10000 with epoll)')
            ->addOption('event-loop', null, InputOption::VALUE_REQUIRED, 'auto, select or epoll (default: $SPINDLE_EVENT_LOOP, else auto: epoll when --max-connections is above 1000 and epoll can run, else select)')
            ->addOption('ws-max-connections', null, InputOption::VALUE_REQUIRED, 'WebSocket connections one worker holds open at once; a handshake past them gets 503 with Retry-After (0: only --max-connections bounds them)', '0')
            ->addOption('ws-max-per-ip', null, InputOption::VALUE_REQUIRED, 'WebSocket connections one client address may hold open on a worker; a handshake past them gets 429 (0: no limit)', '0')
            ->addOption('ws-open-timeout', null, InputOption::VALUE_REQUIRED, 'Seconds a WebSocket client has after the 101 to send its first byte, or it is pinged and dropped if it does not answer within as many again (0: the idle timeout only)', '10')
            ->addOption('static-dir', null, InputOption::VALUE_REQUIRED, 'Serve files from this directory before the app (default: public/ of a Laravel or Symfony app; relative to such an app; "none": no files)')
            ->addOption('max-body-size', null, InputOption::VALUE_REQUIRED, 'Largest request body in bytes', (string) (16 * 1024 * 1024))
            ->addOption('max-file-uploads', null, InputOption::VALUE_REQUIRED, 'Files one multipart request may upload; later ones are dropped, as PHP\'s max_file_uploads does', '20')
            ->addOption('max-header-size', null, InputOption::VALUE_REQUIRED, 'Largest request header section in bytes', '16384')
            ->addOption('max-request-line', null, InputOption::VALUE_REQUIRED, 'Longest request line in bytes', '8192')
            ->addOption('header-timeout', null, InputOption::VALUE_REQUIRED, 'Seconds a client has to send a request head', '15')
            ->addOption('body-timeout', null, InputOption::VALUE_REQUIRED, 'Seconds a body (or a response write) may stall', '60')
            ->addOption('body-min-rate', null, InputOption::VALUE_REQUIRED, 'Bytes per second a request body must average once its grace is over (0: no floor)', '500')
            ->addOption('body-rate-grace', null, InputOption::VALUE_REQUIRED, 'Seconds a request body has before --body-min-rate applies', '20')
            ->addOption('body-buffer-size', null, InputOption::VALUE_REQUIRED, 'Bytes of one request body held in memory (larger ones go to a temporary file), and read ahead of a running request', '65536')
            ->addOption('body-buffer-total', null, InputOption::VALUE_REQUIRED, 'Bytes of request bodies one worker holds in memory; beyond, bodies go to temporary files', (string) (16 * 1024 * 1024))
            ->addOption('keepalive-timeout', null, InputOption::VALUE_REQUIRED, 'Seconds an idle keep-alive connection stays open', '30')
            ->addOption('drain-timeout', null, InputOption::VALUE_REQUIRED, 'Seconds in-flight requests get to finish on stop', '30')
            ->addOption('block-threshold', null, InputOption::VALUE_REQUIRED, 'Warn when a request holds the loop longer than this (seconds)', '0.5')
            ->addOption('tls-cert', null, InputOption::VALUE_REQUIRED | InputOption::VALUE_IS_ARRAY, 'Serve HTTPS (and HTTP/2 by ALPN) with this PEM certificate (chain); repeat with --tls-key for more names (SNI)')
            ->addOption('tls-key', null, InputOption::VALUE_REQUIRED | InputOption::VALUE_IS_ARRAY, "The PEM private key of --tls-cert (not readable by other users)")
            ->addOption('early-hints-http1', null, InputOption::VALUE_NONE, 'Send interim responses (103 Early Hints) to HTTP/1.1 clients too; HTTP/2 always gets them (off: some proxies take a 103 for the final response)')
            ->addOption('upload-dir', null, InputOption::VALUE_REQUIRED, 'Directory for uploaded files (default: the system temp dir)')
            ->addOption('max-requests', null, InputOption::VALUE_REQUIRED, 'Recycle a worker after this many requests, plus up to 10% jitter (0: never)', '0')
            ->addOption('max-memory', null, InputOption::VALUE_REQUIRED, 'Recycle a worker whose memory passes this many MiB after a request (0: never)', '0')
            ->addOption('ttl', null, InputOption::VALUE_REQUIRED, 'Recycle a worker after this many seconds, plus up to 10% jitter (0: never)', '0')
            ->addOption('request-timeout', null, InputOption::VALUE_REQUIRED, 'Answer 504 to a request running longer than this many seconds (0: no limit)', '60')
            ->addOption('kill-grace', null, InputOption::VALUE_REQUIRED, 'Seconds past the request timeout after which a worker that does not respond is killed', '5')
            ->addOption('pid-file', null, InputOption::VALUE_REQUIRED, 'Pid file; the control socket sits next to it (default: PORT.pid in $XDG_RUNTIME_DIR/spindle, /run/spindle for root, else a private spindle-UID in the temp dir)')
            ->addOption('daemon', null, InputOption::VALUE_NONE, 'Detach from the terminal; output goes to --log-file')
            ->addOption('log-file', null, InputOption::VALUE_REQUIRED, 'Log file for --daemon', 'spindle.log')
            ->addOption('access-log', null, InputOption::VALUE_REQUIRED, 'Write an access log line per request to this file ("-": standard output); reopened on SIGUSR1')
            ->addOption('access-log-format', null, InputOption::VALUE_REQUIRED, 'combined or json', 'combined')
            ->addOption('trusted-proxies', null, InputOption::VALUE_REQUIRED, 'Comma-separated addresses or CIDR ranges whose X-Forwarded-For gives the client address in the access log')
            ->addOption('metrics', null, InputOption::VALUE_REQUIRED, 'Serve Prometheus metrics (and health) from the master on HOST:PORT, at /metrics')
            ->addOption('health-path', null, InputOption::VALUE_REQUIRED, 'Answer 200 on this path while the server runs (liveness), without the app')
            ->addOption('task-workers', null, InputOption::VALUE_REQUIRED, 'Processes for CPU-heavy work (Spindle\\task(), password hashing); default SPINDLE_TASK_WORKERS, else 0', self::taskWorkersDefault())
            ->addOption('ready-path', null, InputOption::VALUE_REQUIRED, 'Answer 200 on this path while ready, 503 once a graceful stop began (readiness), without the app')
            ->addOption('watch', null, InputOption::VALUE_NONE, 'Reload when PHP files next to the app change (development)')
            ->addOption('debug', null, InputOption::VALUE_NONE, 'Show error details in 500 responses and traces in the log')
            ->addOption('check-state', null, InputOption::VALUE_NONE, 'Warn about state a Laravel or Symfony app keeps from one request to the next (development; slows every request)');
    }

    protected function execute(InputInterface $input, OutputInterface $output): int
    {
        $debug = (bool) $input->getOption('debug');
        $logger = new StreamLogger(\STDERR, $debug ? LogLevel::DEBUG : LogLevel::INFO, $debug);
        try {
            $app = (string) $input->getArgument('app');
            $resolved = \realpath($app);
            if ($resolved === false || (!\is_file($resolved) && !\is_dir($resolved))) {
                throw new ServerError(\sprintf('Application file or directory %s does not exist', $app));
            }
            self::checkAppDirectory($app, $resolved);
            $staticDir = $input->getOption('static-dir');
            // The workers' database pools read these (Bridge\SessionPools::forWorker()).
            foreach (['db-pool' => 'SPINDLE_DB_POOL', 'db-pool-timeout' => 'SPINDLE_DB_POOL_TIMEOUT'] as $option => $variable) {
                if (\is_string($input->getOption($option))) {
                    $value = self::int($input, $option);
                    if ($value < 1) {
                        throw new ServerError(\sprintf('--%s must be at least 1, got %d', $option, $value));
                    }
                    \putenv($variable . '=' . $value);
                    $_SERVER[$variable] = $_ENV[$variable] = (string) $value;
                }
            }
            [$eventLoop, $maxConnections] = self::eventLoop($input);
            $paths = AppPaths::resolve($resolved, \is_string($staticDir) ? $staticDir : null, (string) \getcwd());
            $options = new ServerOptions(
                app: $resolved,
                host: (string) $input->getOption('host'),
                port: self::int($input, 'port'),
                workers: self::int($input, 'workers'),
                concurrency: self::int($input, 'concurrency'),
                staticDir: $paths->staticDir,
                limits: self::limits($input),
                blockThreshold: self::positive($input, 'block-threshold'),
                drainTimeout: self::float($input, 'drain-timeout'),
                debug: $debug,
                uploadDir: self::uploadDir($input),
                maxRequests: self::int($input, 'max-requests'),
                maxMemory: self::int($input, 'max-memory'),
                ttl: self::float($input, 'ttl'),
                requestTimeout: self::float($input, 'request-timeout'),
                killGrace: self::float($input, 'kill-grace'),
                pidFile: \is_string($input->getOption('pid-file')) ? self::absolute($input->getOption('pid-file')) : null,
                daemon: (bool) $input->getOption('daemon'),
                logFile: self::absolute((string) $input->getOption('log-file')),
                watch: (bool) $input->getOption('watch'),
                maxConnections: $maxConnections,
                workingDirectory: $paths->workingDirectory,
                accessLog: self::accessLog($input),
                accessLogFormat: self::accessLogFormat($input),
                metrics: self::optionalString($input, 'metrics'),
                healthPath: self::optionalString($input, 'health-path'),
                readyPath: self::optionalString($input, 'ready-path'),
                trustedProxies: TrustedProxies::fromList(self::optionalString($input, 'trusted-proxies') ?? ''),
                eventLoop: $eventLoop,
                taskWorkers: self::int($input, 'task-workers'),
                checkState: (bool) $input->getOption('check-state'),
                tls: self::tls($input),
                earlyHintsHttp1: (bool) $input->getOption('early-hints-http1'),
                wsMaxConnections: self::int($input, 'ws-max-connections'),
                wsMaxPerIp: self::int($input, 'ws-max-per-ip'),
                wsOpenTimeout: self::float($input, 'ws-open-timeout'),
            );
            $stdout = \STDOUT;
            if ($options->daemon) {
                \assert($options->logFile !== null);
                Daemon::detach($options->logFile);
                // The standard streams now lead to the log file; open fresh handles on them.
                $stdout = \fopen('php://stdout', 'a') ?: \STDOUT;
                $logger = new StreamLogger(\fopen('php://stderr', 'a') ?: \STDERR, $debug ? LogLevel::DEBUG : LogLevel::INFO, $debug);
            }

            return (new Master($options, $logger, $stdout, $this->applications))->run();
        } catch (ServerError|ControlError|\InvalidArgumentException $e) {
            // Errors go to stderr with the log; stdout only ever carries the readiness line.
            $errors = $output instanceof ConsoleOutputInterface ? $output->getErrorOutput() : $output;
            $errors->writeln('<error>' . $e->getMessage() . '</error>');

            return 2;
        }
    }

    /**
     * A Laravel or Symfony app directory boots from its own Composer autoloader: without it the
     * worker could not even tell the framework, so say what is missing before starting.
     */
    private static function checkAppDirectory(string $app, string $resolved): void
    {
        if (!\is_dir($resolved) || \is_file($resolved . '/vendor/autoload.php')) {
            return;
        }
        $framework = match (true) {
            \is_file($resolved . '/artisan') && \is_file($resolved . '/bootstrap/app.php') => 'Laravel',
            \is_file($resolved . '/bin/console') => 'Symfony',
            default => null,
        };
        if ($framework !== null) {
            throw new ServerError(\sprintf('%s is a %s app without vendor/autoload.php: run `composer install` in it first', $app, $framework));
        }
    }

    /**
     * The workers' loop driver and connection cap: --event-loop (or SPINDLE_EVENT_LOOP) resolved
     * against --max-connections, whose default follows the driver.
     *
     * @return array{EventLoopKind, int}
     */
    private static function eventLoop(InputInterface $input): array
    {
        $env = \getenv('SPINDLE_EVENT_LOOP');
        $value = self::optionalString($input, 'event-loop') ?? (\is_string($env) && $env !== '' ? $env : 'auto');
        $kind = EventLoopKind::tryFrom($value)
            ?? throw new ServerError(\sprintf('--event-loop must be auto, select or epoll, got "%s"', $value));
        $max = $input->getOption('max-connections') === null ? null : self::int($input, 'max-connections');
        $kind = $kind->resolve($max);
        if ($kind === EventLoopKind::Epoll && ($problem = EventLoopKind::epollProblem()) !== null) {
            throw new ServerError('--event-loop=epoll cannot run here: ' . $problem);
        }

        return [$kind, $max ?? $kind->defaultConnections()];
    }

    /** The HTTP limits, with HttpLimits' refusals worded with the option names. */
    private static function limits(InputInterface $input): HttpLimits
    {
        try {
            return new HttpLimits(
                maxRequestLine: self::int($input, 'max-request-line'),
                maxHeaderSize: self::int($input, 'max-header-size'),
                maxBodySize: self::int($input, 'max-body-size'),
                headerTimeout: self::float($input, 'header-timeout'),
                bodyTimeout: self::float($input, 'body-timeout'),
                keepAliveTimeout: self::float($input, 'keepalive-timeout'),
                maxFileUploads: self::int($input, 'max-file-uploads'),
                bodyMinRate: self::int($input, 'body-min-rate'),
                bodyRateGrace: self::float($input, 'body-rate-grace'),
                bodyBufferSize: self::int($input, 'body-buffer-size'),
                bodyBufferTotal: self::int($input, 'body-buffer-total'),
            );
        } catch (\InvalidArgumentException $e) {
            throw new ServerError(\strtr($e->getMessage(), [
                'maxRequestLine' => '--max-request-line',
                'maxHeaderSize' => '--max-header-size',
                'maxBodySize' => '--max-body-size',
                'headerTimeout' => '--header-timeout',
                'bodyTimeout' => '--body-timeout',
                'keepAliveTimeout' => '--keepalive-timeout',
                'maxFileUploads' => '--max-file-uploads',
                'bodyMinRate' => '--body-min-rate',
                'bodyRateGrace' => '--body-rate-grace',
                'bodyBufferSize' => '--body-buffer-size',
                'bodyBufferTotal' => '--body-buffer-total',
            ]), 0, $e);
        }
    }

    /**
     * An upload directory that is missing or not writable would not fail anything visible:
     * tempnam() falls back to the system temp directory. Absolute: workers run in the app's
     * working directory (see AppPaths).
     */
    /** @throws ServerError */
    private static function tls(InputInterface $input): ?TlsSettings
    {
        $certs = \array_values(\array_map(self::absolute(...), (array) $input->getOption('tls-cert')));
        $keys = \array_values(\array_map(self::absolute(...), (array) $input->getOption('tls-key')));
        if ($certs === [] && $keys === []) {
            return null;
        }
        try {
            return TlsSettings::fromFiles($certs, $keys);
        } catch (\InvalidArgumentException $e) {
            throw new ServerError($e->getMessage());
        }
    }

    private static function uploadDir(InputInterface $input): ?string
    {
        $dir = $input->getOption('upload-dir');
        if (!\is_string($dir)) {
            return null;
        }
        if (!\is_dir($dir)) {
            throw new ServerError(\sprintf('--upload-dir %s is not a directory', $dir));
        }
        if (!\is_writable($dir)) {
            throw new ServerError(\sprintf('--upload-dir %s is not writable', $dir));
        }

        return (string) \realpath($dir);
    }

    /** The access log path, absolute (workers run in the app's directory), checked for appending now. */
    private static function accessLog(InputInterface $input): ?string
    {
        $path = self::optionalString($input, 'access-log');
        if ($path === null || $path === '-') {
            return $path;
        }
        $path = self::absolute($path);
        $handle = @\fopen($path, 'a');
        if ($handle === false) {
            throw new ServerError(\sprintf('--access-log %s cannot be opened for appending', $path));
        }
        \fclose($handle);

        return $path;
    }

    private static function accessLogFormat(InputInterface $input): AccessLogFormat
    {
        $value = (string) $input->getOption('access-log-format');

        return AccessLogFormat::tryFrom($value)
            ?? throw new ServerError(\sprintf('--access-log-format must be combined or json, got "%s"', $value));
    }

    private static function optionalString(InputInterface $input, string $name): ?string
    {
        $value = $input->getOption($name);

        return \is_string($value) && $value !== '' ? $value : null;
    }

    private static function positive(InputInterface $input, string $name): float
    {
        $value = self::float($input, $name);
        if ($value <= 0) {
            throw new ServerError(\sprintf('--%s must be above 0, got %s', $name, $input->getOption($name)));
        }

        return $value;
    }

    private static function int(InputInterface $input, string $name): int
    {
        $value = (string) $input->getOption($name);
        if (\preg_match('/^\d+$/D', $value) !== 1) {
            throw new ServerError(\sprintf('--%s must be a whole number, got "%s"', $name, $value));
        }

        return (int) $value;
    }

    private static function float(InputInterface $input, string $name): float
    {
        $value = (string) $input->getOption($name);
        if (!\is_numeric($value)) {
            throw new ServerError(\sprintf('--%s must be a number, got "%s"', $name, $value));
        }

        return (float) $value;
    }

    private static function absolute(string $path): string
    {
        return \str_starts_with($path, '/') ? $path : \getcwd() . '/' . $path;
    }

    /** SPINDLE_TASK_WORKERS when set, so that a deployment can give task workers without a new flag. */
    private static function taskWorkersDefault(): string
    {
        $value = \getenv('SPINDLE_TASK_WORKERS');

        return \is_string($value) && $value !== '' ? $value : '0';
    }

    private static function cpuCount(): int
    {
        $info = @\file_get_contents('/proc/cpuinfo');
        $count = \is_string($info) ? \substr_count($info, "\nprocessor") + (\str_starts_with($info, 'processor') ? 1 : 0) : 0;

        return \max(1, $count);
    }
}
