<?php

declare(strict_types=1);

namespace Spindle\Bridge\Laravel;

use Spindle\Supervisor\ServeCommand;
use Spindle\Bridge\AppFactory;
use Symfony\Component\Console\Command\Command;
use Symfony\Component\Console\Input\InputInterface;
use Symfony\Component\Console\Output\OutputInterface;

/**
 * `php artisan spindle:serve [options]`: the options of `spindle serve`, serving this app. It
 * replaces the artisan process with `bin/spindle serve <base path>` (same process id), so that
 * the server starts fresh instead of inside an app that artisan already booted.
 */
final class ServeArtisanCommand extends Command
{
    public function __construct(private readonly string $basePath)
    {
        parent::__construct('spindle:serve');
    }

    protected function configure(): void
    {
        $serve = new ServeCommand($this->basePath, new AppFactory());
        $this->setDescription('Serve this app with Spindle');
        $this->setDefinition($serve->getDefinition());
    }

    protected function execute(InputInterface $input, OutputInterface $output): int
    {
        $arguments = $this->arguments($input);
        if (!\function_exists('pcntl_exec')) {
            $output->writeln('<error>spindle:serve needs the pcntl extension</error>');

            return 1;
        }
        \pcntl_exec(\PHP_BINARY, $arguments);
        $output->writeln(\sprintf('<error>Cannot run %s %s</error>', \PHP_BINARY, \implode(' ', $arguments)));

        return 1;
    }

    /**
     * The command line for bin/spindle: the app (this app unless given) and every option that
     * was given on the artisan command line.
     *
     * @return list<string>
     */
    public function arguments(InputInterface $input): array
    {
        $app = $input->getArgument('app');
        $arguments = [self::spindleBinary(), 'serve', \is_string($app) && $app !== '' ? $app : $this->basePath];
        // Only serve's own options: artisan adds global ones (--env) that bin/spindle does not know.
        $definition = (new ServeCommand($this->basePath, new AppFactory()))->getDefinition();
        foreach ($input->getOptions() as $name => $value) {
            if (!$definition->hasOption((string) $name) || !$input->hasParameterOption('--' . $name, true)) {
                continue;
            }
            if ($definition->getOption((string) $name)->acceptValue()) {
                if (\is_scalar($value)) {
                    $arguments[] = '--' . $name . '=' . $value;
                }
            } elseif ($value === true) {
                $arguments[] = '--' . $name;
            }
        }

        return $arguments;
    }

    public static function spindleBinary(): string
    {
        return \dirname(__DIR__, 3) . '/bin/spindle';
    }
}
