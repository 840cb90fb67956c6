<?php

declare(strict_types=1);

namespace Spindle\Bridge\Laravel;

use Illuminate\Contracts\Http\Kernel;
use Illuminate\Foundation\Application;
use Illuminate\Http\Request;
use Psr\Log\LoggerInterface;
use Spindle\Bridge\Laravel\Reset;

/**
 * Boots one more instance of the app in $directory: bootstrap/app.php, then the HTTP kernel's
 * bootstrappers (environment, configuration, providers), as a first request under PHP-FPM would.
 */
final class InstanceFactory
{
    private int $created = 0;

    public function __construct(
        private readonly string $directory,
        private readonly ProcessGlobals $globals,
        private readonly LoggerInterface $logger,
    ) {
    }

    public function create(): AppInstance
    {
        $number = ++$this->created;
        $instance = null;
        $this->globals->boot(function () use ($number, &$instance): StaticState {
            SupportStatics::all()->restoreDefaults();
            $app = require $this->directory . '/bootstrap/app.php';
            if (!$app instanceof Application) {
                throw new \RuntimeException(\sprintf('%s/bootstrap/app.php returned %s, not an Illuminate\Foundation\Application', $this->directory, \get_debug_type($app)));
            }
            $app->bind('db.connector.mysql', SpindleMySqlConnector::class);
            // Providers may look at the request while they boot; the real one replaces it.
            $app->instance('request', Request::create('http://localhost/'));
            $kernel = $app->make(Kernel::class);
            if (!$kernel instanceof \Illuminate\Foundation\Http\Kernel) {
                throw new \RuntimeException(\sprintf('The HTTP kernel of %s is %s, not an Illuminate\Foundation\Http\Kernel', $this->directory, \get_debug_type($kernel)));
            }
            $kernel->bootstrap();
            $state = new StaticState($app);
            $instance = new AppInstance($number, $app, $kernel, $state, $this->resetters($app));

            return $state;
        });
        \assert($instance instanceof AppInstance);

        return $instance;
    }

    /** @return list<Reset\Resetter> */
    private function resetters(Application $app): array
    {
        return [
            new Reset\TransactionResetter($app, $this->logger),
            new Reset\QueryLogResetter($app),
            new Reset\ConfigResetter($app),
            new Reset\LocaleResetter($app),
            new Reset\AuthResetter($app),
            new Reset\SessionResetter($app),
            new Reset\CookieResetter($app),
            // Laravel 9 to 12 (each skips what the running Laravel lacks):
            new Reset\ContextResetter($app),
            new Reset\LogContextResetter($app),
            new Reset\DeferredCallbacksResetter($app),
            new Reset\OnceResetter(),
            new Reset\SupportHooksResetter(),
            new Reset\ViteResetter($app),
            new Reset\CarbonTestNowResetter(),
            new Reset\ScopedInstancesResetter($app),
            new Reset\EventListenerResetter($app),
            new Reset\ViewResetter($app),
            new Reset\ValidatorResetter($app),
            new Reset\PaginationResetter(),
            new Reset\TerminatingCallbackResetter($app),
            new Reset\RequestResetter($app),
            new Reset\FacadeResetter(),
        ];
    }
}
