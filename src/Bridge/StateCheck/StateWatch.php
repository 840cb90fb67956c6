<?php

declare(strict_types=1);

namespace Spindle\Bridge\StateCheck;

use Psr\Log\LoggerInterface;

/**
 * The state-leak detector of `--check-state` (a development tool): after each request, once
 * Spindle and the framework have reset what they know, compares the static properties of the
 * app's own classes, and the properties (declared by app classes) of the services that existed
 * before the request, with their values before it. A property that changed would carry one
 * request's value into the next: it is logged once per worker as a warning naming
 * `Class::$property`, the request that changed it and how to reset it.
 *
 * A scope is what keeps services between requests (a Laravel app instance, a Symfony kernel);
 * observe() reads its services without reporting (after a boot), check() compares and reads
 * again. Statics belong to the process: each check compares them with the previous check of any
 * scope, so with requests running at once a change may be named after a request that ran beside
 * the one that made it. A class first loaded during a request is compared with its declared
 * defaults.
 */
final class StateWatch
{
    /** @var array<string, mixed> "Class::$property" => value at the last check */
    private array $statics = [];
    /** @var array<string, true> "Class::$property" already reported */
    private array $reported = [];
    /** @var array<string, true> statics the framework bridge swaps or resets itself */
    private readonly array $covered;
    /** @var \WeakMap<object, list<array{object, array<string, mixed>}>> scope => its services and their values */
    private \WeakMap $scopes;
    private bool $started = false;

    /** @param list<string> $covered statics ("Class::$property") that Spindle keeps per instance or resets */
    public function __construct(
        private readonly AppClasses $classes,
        private readonly LoggerInterface $logger,
        private readonly ResetAdvice $advice,
        array $covered = [],
    ) {
        $this->covered = \array_fill_keys($covered, true);
        /** @var \WeakMap<object, list<array{object, array<string, mixed>}>> $scopes */
        $scopes = new \WeakMap();
        $this->scopes = $scopes;
    }

    /** Whether a switch (an option, a config value, an environment variable) says on: true, 1, "1", "true", "yes", "on". */
    public static function switchedOn(mixed $value): bool
    {
        return \is_bool($value) ? $value : (\is_scalar($value) && \filter_var($value, \FILTER_VALIDATE_BOOL));
    }

    /**
     * Reads the statics and $scope's services as they are now, without comparing: the state a
     * new scope starts from.
     *
     * @param iterable<mixed> $services
     */
    public function observe(object $scope, iterable $services): void
    {
        $this->compareStatics(null);
        $this->scopes[$scope] = $this->read($services);
    }

    /**
     * After a request on $scope (reset done): warns about every static and every property of a
     * service of $scope that changed since the last look, then takes the new values as the
     * state the next request starts from.
     *
     * @param iterable<mixed> $services the scope's services now
     * @param string $request the request, as the warning names it ("GET /path (route name)")
     */
    public function check(object $scope, iterable $services, string $request): void
    {
        $this->compareStatics($request);
        foreach ($this->scopes[$scope] ?? [] as [$service, $before]) {
            $keys = $this->classes->instanceKeys($service);
            \assert($keys !== null);
            $after = \array_intersect_key((array) $service, $keys);
            if ($after === $before) {
                continue;
            }
            foreach ($keys as $key => $label) {
                $old = \array_key_exists($key, $before) ? $before[$key] : NoValue::Value;
                $new = \array_key_exists($key, $after) ? $after[$key] : NoValue::Value;
                if ($old !== $new) {
                    $this->report($label, $old, $new, $request, $this->advice->forService($service::class), 'a service kept between requests');
                }
            }
        }
        $this->scopes[$scope] = $this->read($services);
    }

    /** @return list<string> the "Class::$property" reported so far */
    public function reported(): array
    {
        return \array_keys($this->reported);
    }

    /**
     * @param iterable<mixed> $services
     *
     * @return list<array{object, array<string, mixed>}>
     */
    private function read(iterable $services): array
    {
        // (The classes were just refreshed: compareStatics() runs first.)
        $read = [];
        $seen = [];
        foreach ($services as $service) {
            if (!\is_object($service) || isset($seen[\spl_object_id($service)])) {
                continue;
            }
            $seen[\spl_object_id($service)] = true;
            $keys = $this->classes->instanceKeys($service);
            if ($keys !== null) {
                $read[] = [$service, \array_intersect_key((array) $service, $keys)];
            }
        }

        return $read;
    }

    /** Compares the app's statics with the last look (reports when $request is given), and keeps them. */
    private function compareStatics(?string $request): void
    {
        $new = $this->classes->refresh();
        if (!$this->started) {
            // The classes loaded before the first look (at boot) start from their values now.
            $this->started = true;
            $new = [];
        }
        $fresh = \array_fill_keys($new, true);
        foreach ($this->classes->statics() as $class => $properties) {
            foreach ($properties as $property) {
                $label = $class . '::$' . $property->name;
                if (isset($this->covered[$label])) {
                    continue;
                }
                $value = $property->isInitialized() ? $property->getValue() : NoValue::Value;
                if (isset($fresh[$class])) {
                    $old = $property->hasDefaultValue() ? $property->getDefaultValue() : NoValue::Value;
                } elseif (\array_key_exists($label, $this->statics)) {
                    $old = $this->statics[$label];
                } else {
                    $old = $value;
                }
                if ($request !== null && $old !== $value) {
                    $this->report($label, $old, $value, $request, $this->advice->forStatic(), 'a static property');
                }
                $this->statics[$label] = $value;
            }
        }
    }

    private function report(string $label, mixed $old, mixed $new, string $request, string $advice, string $what): void
    {
        if (isset($this->reported[$label])) {
            return;
        }
        $this->reported[$label] = true;
        $this->logger->warning(\sprintf(
            'State kept across requests: %s (%s) changed during %s, from %s to %s, and the next request sees the new value; %s.',
            $label,
            $what,
            $request,
            self::describe($old),
            self::describe($new),
            $advice,
        ));
    }

    private static function describe(mixed $value): string
    {
        return match (true) {
            $value === NoValue::Value => 'unset',
            \is_array($value) => \sprintf('an array of %d', \count($value)),
            \is_object($value) => $value instanceof \Closure ? 'a closure' : 'a ' . $value::class,
            \is_string($value) => "'" . \addcslashes(\substr($value, 0, 60), "\0..\37'") . "'" . (\strlen($value) > 60 ? '…' : ''),
            default => \var_export($value, true),
        };
    }
}
