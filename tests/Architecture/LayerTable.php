<?php

declare(strict_types=1);

namespace Spindle\Tests\Architecture;

/**
 * The one table of what may use what in src/: LayerRules turns it into phpat rules (checked by
 * PHPStan in the test command) and DocsLayerTableTest checks that docs/architecture.md shows the
 * same table. Everything not listed here is forbidden.
 *
 * A place is written relative to `Spindle\`: a layer (`Bridge`), a namespace below it
 * (`Bridge\Laravel`) or one class (`Bridge\Symfony\ServerRunner`); a folder of src/ of that
 * name makes it a namespace, a file a class.
 */
final class LayerTable
{
    /**
     * Spindle's layers, each a namespace under `Spindle\` and a folder of src/, with the other
     * layers its classes may use (a layer may always use itself).
     */
    public const LAYERS = [
        'Loop' => [],
        'Metrics' => [],
        'Http' => ['Loop'],
        'Database' => ['Loop'],
        'Redis' => ['Loop'],
        'HttpClient' => ['Loop'],
        'Server' => ['Loop', 'Http', 'Metrics'],
        'Supervisor' => ['Server', 'Metrics'],
        'Bridge' => ['Loop', 'Http', 'Server', 'Metrics', 'Database', 'Redis', 'HttpClient'],
    ];

    /**
     * Classes that may use more than their layer does: the class => the layers or classes it may
     * use besides its layer's.
     */
    public const WIDER = [
        'Supervisor\ServeCommand' => ['Http\HttpLimits', 'Http\Tls\TlsSettings', 'Loop\EventLoopKind'],
        'HttpClient\Protocol\ResponseParser' => ['Http\Parser\ChunkedDecoder', 'Http\HttpException'],
        'Bridge\Laravel\ServeArtisanCommand' => ['Supervisor'],
        'Bridge\Laravel\SpindleServiceProvider' => ['Supervisor'],
        'Bridge\Symfony\ServerRunner' => ['Supervisor'],
    ];

    /**
     * Every third-party namespace src/ uses and the only places that may use it. PHP's own
     * classes (SPL, Fiber, FFI, PDO…) are not listed. Where two rows nest, the longer one rules
     * its namespace.
     */
    public const THIRD_PARTY = [
        'Revolt' => ['Loop', 'Http', 'Server', 'Database', 'Redis', 'HttpClient', 'Bridge'],
        'Psr\Log' => ['Http', 'Server', 'Supervisor', 'Bridge'],
        'Psr\Http' => ['HttpClient\Psr18', 'HttpClient\Guzzle', 'Bridge'],
        'Psr\Container' => ['Bridge\Symfony'],
        'Nyholm\Psr7' => ['HttpClient\Psr18', 'Bridge\Psr15'],
        'GuzzleHttp' => ['HttpClient\Guzzle', 'Bridge\Laravel\HttpClient'],
        'Symfony\Component\HttpClient' => ['HttpClient\Symfony', 'Bridge\Symfony\Clients'],
        'Symfony\Contracts\HttpClient' => ['HttpClient\Symfony', 'Bridge\Symfony\Clients'],
        'Symfony\Component\Console' => ['Supervisor', 'Bridge\Laravel\ServeArtisanCommand'],
        'Symfony\Component\HttpFoundation' => ['Bridge\HttpFoundation', 'Bridge\Symfony', 'Bridge\Laravel'],
        'Symfony\Component\HttpKernel' => ['Bridge\Symfony'],
        'Symfony\Component\Runtime' => ['Bridge\Symfony'],
        'Symfony\Component\DependencyInjection' => ['Bridge\Symfony'],
        'Symfony\Component\Config' => ['Bridge\Symfony'],
        'Symfony\Component\EventDispatcher' => ['Bridge\Symfony'],
        'Symfony\Component\Cache' => ['Bridge\Symfony'],
        'Symfony\Component\PasswordHasher' => ['Bridge\Symfony'],
        'Symfony\Contracts\Service' => ['Bridge\Symfony'],
        'Illuminate' => ['Bridge\Laravel'],
        'Carbon' => ['Bridge\Laravel'],
        'Livewire' => ['Bridge\Laravel'],
        'Doctrine' => ['Bridge\Doctrine'],
    ];

    private function __construct()
    {
    }

    /** Whether $place (relative to `Spindle\`) is a namespace (a folder of src/) rather than a class. */
    public static function isNamespace(string $place): bool
    {
        return \is_dir(self::srcPath($place));
    }

    /** Whether $place names a folder or a PHP file of src/. */
    public static function exists(string $place): bool
    {
        return self::isNamespace($place) || \is_file(self::srcPath($place) . '.php');
    }

    /** Whether $place (relative to `Spindle\`) is what $entry names (a layer, namespace or class) or lies inside it. */
    public static function covers(string $entry, string $place): bool
    {
        return $place === $entry || \str_starts_with($place, $entry . '\\');
    }

    private static function srcPath(string $place): string
    {
        return \dirname(__DIR__, 2) . '/src/' . \str_replace('\\', '/', $place);
    }
}
