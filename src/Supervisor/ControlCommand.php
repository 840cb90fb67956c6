<?php

declare(strict_types=1);

namespace Spindle\Supervisor;

use Symfony\Component\Console\Command\Command;
use Symfony\Component\Console\Input\InputInterface;
use Symfony\Component\Console\Input\InputOption;
use Symfony\Component\Console\Output\ConsoleOutputInterface;
use Symfony\Component\Console\Output\OutputInterface;

/**
 * `spindle status|stop|reload`: asks a running master over its control socket, found next to
 * its pid file (`--pid-file`, or for `--port` the one in this user's runtime directories).
 */
final class ControlCommand extends Command
{
    public function __construct(
        private readonly string $verb,
        private readonly string $summary,
    ) {
        parent::__construct($verb);
    }

    protected function configure(): void
    {
        $this
            ->setDescription($this->summary)
            ->addOption('pid-file', null, InputOption::VALUE_REQUIRED, 'The pid file the server was started with')
            ->addOption('port', null, InputOption::VALUE_REQUIRED, 'The port the server listens on, to find its pid file in the runtime directory', '8080')
            ->addOption('timeout', null, InputOption::VALUE_REQUIRED, 'Seconds to wait for the answer', '60');
        if ($this->verb === 'status') {
            $this->addOption('json', null, InputOption::VALUE_NONE, 'Print the status as JSON');
        }
    }

    protected function execute(InputInterface $input, OutputInterface $output): int
    {
        $errors = $output instanceof ConsoleOutputInterface ? $output->getErrorOutput() : $output;
        $pidFile = $input->getOption('pid-file');
        $port = (string) $input->getOption('port');
        if (!\is_string($pidFile)) {
            if (\preg_match('/^\d+$/D', $port) !== 1) {
                $errors->writeln(\sprintf('<error>--port must be a whole number, got "%s"</error>', $port));

                return 2;
            }
            $pidFile = PidFile::find((int) $port);
        }
        $timeout = (string) $input->getOption('timeout');
        if (!\is_numeric($timeout) || (float) $timeout <= 0) {
            $errors->writeln(\sprintf('<error>--timeout must be a number of seconds above 0, got "%s"</error>', $timeout));

            return 2;
        }
        try {
            $reply = (new ControlClient())->send(PidFile::socketPath($pidFile), $this->verb, [], (float) $timeout);
        } catch (ControlError $e) {
            $errors->writeln('<error>' . $e->getMessage() . '</error>');

            return 1;
        }
        if (($reply['ok'] ?? false) !== true) {
            $errors->writeln(\sprintf('<error>%s failed: %s</error>', \ucfirst($this->verb), \is_string($reply['error'] ?? null) ? $reply['error'] : 'unknown error'));

            return 1;
        }
        switch ($this->verb) {
            case 'status':
                $status = \is_array($reply['status'] ?? null) ? $reply['status'] : [];
                if ((bool) $input->getOption('json')) {
                    $output->writeln((string) \json_encode($status, \JSON_PRETTY_PRINT | \JSON_UNESCAPED_SLASHES));
                } else {
                    $this->printStatus($output, $status);
                }
                break;
            case 'reload':
                $output->writeln(\sprintf('Reloaded: generation %d is serving', \is_int($reply['generation'] ?? null) ? $reply['generation'] : 0));
                break;
            default:
                $output->writeln('Stopping');
        }

        return 0;
    }

    /** @param array<mixed> $status */
    private function printStatus(OutputInterface $output, array $status): void
    {
        foreach (self::statusLines($status) as $line) {
            $output->writeln($line, OutputInterface::OUTPUT_RAW);
        }
    }

    /**
     * @internal the text `status` prints for the master's status (what `status --json` prints)
     *
     * @param array<mixed> $status
     *
     * @return list<string>
     */
    public static function statusLines(array $status): array
    {
        $s = static fn (string $key): string => \is_scalar($status[$key] ?? null) ? (string) $status[$key] : '';
        $lines = [\sprintf(
            'Spindle %s: master %s, %s, generation %s, up %ds',
            $s('address'),
            $s('pid'),
            $s('phase'),
            $s('generation'),
            (int) $s('uptime'),
        )];
        if (\is_bool($status['ready'] ?? null)) {
            $lines[] = \sprintf(
                'Ready: %s, %s accepting%s',
                $status['ready'] ? 'yes' : 'no',
                $s('ready_workers') === '1' ? '1 worker' : ((int) $s('ready_workers')) . ' workers',
                $s('metrics') !== '' ? '; metrics on ' . $s('metrics') : '',
            );
        }
        if ($s('last_reload_error') !== '') {
            $lines[] = 'Last reload failed: ' . $s('last_reload_error');
        }
        $lines[] = \sprintf('%-8s %-4s %-9s %9s %8s %6s %6s %9s %11s %8s %s', 'pid', 'gen', 'state', 'requests', 'inflight', 'conns', 'ws', 'memory', 'db', 'restarts', 'started');
        foreach (\is_array($status['workers'] ?? null) ? $status['workers'] : [] as $worker) {
            if (!\is_array($worker)) {
                continue;
            }
            $w = static fn (string $key): string => \is_scalar($worker[$key] ?? null) ? (string) $worker[$key] : '';
            // A worker reports once a second; before its first report the master knows no figures
            // (memory_get_usage(true) is never 0 once a worker runs).
            $reported = (int) $w('memory') > 0;
            $lines[] = \sprintf(
                '%-8s %-4s %-9s %9s %8s %6s %6s %9s %11s %8s %s',
                $w('pid'),
                $w('generation'),
                $w('state'),
                $reported ? $w('requests') : '-',
                $reported ? $w('inflight') : '-',
                $reported ? $w('connections') : '-',
                // WebSocket connections, of the connections (a worker of an older checkout reports none).
                $reported ? ($w('websockets') !== '' ? $w('websockets') : '0') : '-',
                $reported ? \sprintf('%.1fM', (int) $w('memory') / 1048576) : '-',
                // Database sessions: held by requests / open, and requests waiting for one.
                $reported && ((int) $w('db_busy') + (int) $w('db_idle')) > 0 ? \sprintf('%d/%d%s', (int) $w('db_busy'), (int) $w('db_busy') + (int) $w('db_idle'), (int) $w('db_waiting') > 0 ? ' w' . (int) $w('db_waiting') : '') : '-',
                $w('restarts'),
                \gmdate('Y-m-d H:i:s', (int) $w('started_at')),
            );
        }

        return $lines;
    }
}
