<?php

declare(strict_types=1);

namespace Spindle\Bridge\Symfony;

use Spindle\Bridge\Symfony\Session\SessionSetup;
use Spindle\Bridge\Symfony\Session\SessionWiring;
use Symfony\Component\EventDispatcher\Debug\WrappedListener;
use Symfony\Component\EventDispatcher\EventDispatcherInterface;
use Symfony\Component\HttpKernel\EventListener\StreamedResponseListener;
use Symfony\Component\HttpKernel\HttpKernelInterface;
use Symfony\Component\HttpKernel\Kernel;
use Symfony\Component\HttpKernel\KernelEvents;
use Symfony\Component\HttpKernel\KernelInterface;
use Symfony\Component\Runtime\RuntimeInterface;
use Symfony\Component\Runtime\SymfonyRuntime;

/**
 * Creates the kernels of a Symfony app the way symfony/runtime does: public/index.php returns
 * a closure, a SymfonyRuntime (which loads .env with Dotenv and sets APP_ENV / APP_DEBUG)
 * resolves its arguments, and each call of the closure gives a new kernel.
 *
 * An app whose front controller does not use the runtime gets App\Kernel, built from APP_ENV
 * and APP_DEBUG as symfony/runtime would set them.
 */
final class KernelFactory
{
    /** What the last kernel's session wiring did (null before the first kernel). */
    private ?SessionSetup $sessions = null;
    /** Whether the last kernel got Spindle's clients (null before the first kernel, or for a kernel that is not Symfony's Kernel). */
    private ?KernelWiring $clients = null;

    /** @param \Closure(): HttpKernelInterface $create */
    private function __construct(
        private readonly \Closure $create,
        public readonly string $frontController,
    ) {
    }

    public static function forProject(string $projectDir): self
    {
        $projectDir = \rtrim($projectDir, '/');
        if (\is_file($projectDir . '/vendor/autoload.php')) {
            // Usually loaded already (by bin/spindle or the front controller); then this is a no-op.
            require_once $projectDir . '/vendor/autoload.php';
        }
        if (!\class_exists(SymfonyRuntime::class)) {
            throw new \RuntimeException(\sprintf('%s: symfony/runtime is not installed (its autoloader does not know %s)', $projectDir, SymfonyRuntime::class));
        }
        $frontController = $projectDir . '/public/index.php';
        self::declareWebWorker();
        $runtime = new SymfonyRuntime(self::runtimeOptions($projectDir));
        if (self::usesRuntime($frontController)) {
            $app = self::requireFrontController($frontController);
            if (!\is_object($app) || !\is_callable($app)) {
                throw new \RuntimeException(\sprintf('%s returned %s, not a closure', $frontController, \get_debug_type($app)));
            }

            return new self(self::fromClosure(\Closure::fromCallable($app), $runtime, $frontController), $frontController);
        }

        return new self(self::appKernel(), $frontController);
    }

    /**
     * Tells the kernels (Symfony 6.4 and later: the `kernel.runtime_mode.*` parameters) that they
     * serve web requests in a long-running worker, as FrankenPHP's worker mode does. Without it
     * a kernel in the CLI SAPI takes itself for a console command and renders errors for the
     * terminal: a dump of the exception, trace included, in the response body. An
     * APP_RUNTIME_MODE set by the environment is kept.
     */
    private static function declareWebWorker(): void
    {
        $mode = $_SERVER['APP_RUNTIME_MODE'] ?? $_ENV['APP_RUNTIME_MODE'] ?? \getenv('APP_RUNTIME_MODE');
        if (!\is_string($mode) || $mode === '') {
            $_SERVER['APP_RUNTIME_MODE'] = $_ENV['APP_RUNTIME_MODE'] = 'web=1&worker=1';
        }
    }

    /** A new kernel, booted. */
    public function create(): HttpKernelInterface
    {
        $kernel = ($this->create)();
        if ($kernel instanceof Kernel) {
            $this->clients = KernelWiring::install($kernel);
        }
        if ($kernel instanceof KernelInterface) {
            $kernel->boot();
            self::detachStreamedResponseListener($kernel);
            $this->sessions = SessionWiring::install($kernel);
        }

        return $kernel;
    }

    /** Whether the kernels made so far use Spindle's clients (see KernelWiring). */
    public function clients(): ?KernelWiring
    {
        return $this->clients;
    }

    /** How the sessions of the kernels made so far are kept (see SessionWiring). */
    public function sessions(): ?SessionSetup
    {
        return $this->sessions;
    }

    /**
     * Symfony 5.4's StreamedResponseListener sends a StreamedResponse (prints it) while the
     * kernel handles the request; under Spindle the response converter streams it to the client
     * instead, so the listener comes off each kernel's dispatcher.
     */
    private static function detachStreamedResponseListener(KernelInterface $kernel): void
    {
        $container = $kernel->getContainer();
        if (!\class_exists(StreamedResponseListener::class) || !$container->has('event_dispatcher')) {
            return;
        }
        $dispatcher = $container->get('event_dispatcher');
        if (!$dispatcher instanceof EventDispatcherInterface) {
            return;
        }
        foreach ($dispatcher->getListeners(KernelEvents::RESPONSE) as $listener) {
            $callable = $listener instanceof WrappedListener ? $listener->getWrappedListener() : $listener;
            if (\is_array($callable) && ($callable[0] ?? null) instanceof StreamedResponseListener && \is_callable($listener)) {
                $dispatcher->removeListener(KernelEvents::RESPONSE, $listener);
            }
        }
    }

    /** Whether the front controller hands its app to symfony/runtime (requires autoload_runtime.php). */
    public static function usesRuntime(string $frontController): bool
    {
        $source = @\file_get_contents($frontController);

        return \is_string($source) && \str_contains($source, 'autoload_runtime.php');
    }

    /** @return \Closure(): HttpKernelInterface */
    private static function fromClosure(\Closure $app, RuntimeInterface $runtime, string $frontController): \Closure
    {
        [$resolved, $arguments] = $runtime->getResolver($app)->resolve();

        return static function () use ($resolved, $arguments, $frontController): HttpKernelInterface {
            $kernel = $resolved(...$arguments);
            if (!$kernel instanceof HttpKernelInterface) {
                throw new \RuntimeException(\sprintf('The closure of %s returned %s, not an HTTP kernel', $frontController, \get_debug_type($kernel)));
            }

            return $kernel;
        };
    }

    /** @return \Closure(): HttpKernelInterface */
    private static function appKernel(): \Closure
    {
        $class = 'App\\Kernel';
        if (!\class_exists($class) || !\is_subclass_of($class, KernelInterface::class)) {
            throw new \RuntimeException('The front controller does not use symfony/runtime and there is no App\\Kernel');
        }

        return static function () use ($class): HttpKernelInterface {
            $env = $_SERVER['APP_ENV'] ?? 'dev';
            $debug = (bool) ($_SERVER['APP_DEBUG'] ?? false);

            return new $class(\is_string($env) ? $env : 'dev', $debug);
        };
    }

    /**
     * The options the app's vendor/autoload_runtime.php would pass: APP_RUNTIME_OPTIONS, then the
     * "extra.runtime" entries of its composer.json, and the project directory.
     *
     * @return array<string, mixed>
     */
    private static function runtimeOptions(string $projectDir): array
    {
        $options = $_SERVER['APP_RUNTIME_OPTIONS'] ?? $_ENV['APP_RUNTIME_OPTIONS'] ?? [];
        $options = \is_array($options) ? $options : [];
        $composer = @\file_get_contents($projectDir . '/composer.json');
        $json = \is_string($composer) ? \json_decode($composer, true) : null;
        $extra = \is_array($json) && \is_array($json['extra']['runtime'] ?? null) ? $json['extra']['runtime'] : [];
        unset($extra['class'], $extra['autoload_template']);

        /** @var array<string, mixed> */
        return $options + $extra + ['project_dir' => $projectDir];
    }

    /**
     * Requires the front controller for the closure it returns. Its first line requires
     * vendor/autoload_runtime.php, which returns at once when the app's autoloader is already
     * loaded, as it is here.
     */
    private static function requireFrontController(string $frontController): mixed
    {
        return (static fn (): mixed => require $frontController)();
    }
}
