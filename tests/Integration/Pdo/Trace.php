<?php

declare(strict_types=1);

namespace Spindle\Tests\Integration\Pdo;

/**
 * What one side of a differential test observed: every call's return value (or the throwable it
 * threw) and the warnings it raised, in order, made comparable with assertSame.
 *
 * Normalisations (each forced, see DifferentialTestCase):
 * - statements become ['statement', queryString]: the classes differ on purpose
 *   (PDOStatement vs Spindle\Database\Pdo\Statement, a documented difference);
 * - a warning's level becomes 'warning'/'deprecated': Spindle raises E_USER_WARNING and
 *   E_USER_DEPRECATED where PHP raises E_WARNING and E_DEPRECATED (documented; the raw levels
 *   are kept in $levels for the test that asserts that difference);
 * - the file and line of a throwable are compared only for PDOException: errors that PHP's
 *   internal functions throw (ValueError, TypeError, …) point at the caller, Spindle's at the
 *   library line that throws them;
 * - streams become ['stream', their contents].
 */
final class Trace
{
    /** @var array<string, mixed> "NN label" => observation */
    public array $entries = [];
    /** @var list<int> the raw E_* level of every warning, in order */
    public array $levels = [];

    public function __construct(public readonly string $side)
    {
    }

    public function isNative(): bool
    {
        return $this->side === 'native';
    }

    /** The observation recorded under $label (the first one, if several share it). */
    public function get(string $label): mixed
    {
        foreach ($this->entries as $key => $observed) {
            if (substr($key, 4) === $label) {
                return $observed;
            }
        }
        throw new \LogicException("nothing recorded as '$label'");
    }

    /** Records a value as it is (after normalisation). */
    public function add(string $label, mixed $value): void
    {
        $this->entries[sprintf('%03d %s', \count($this->entries), $label)] = self::normalise($value);
    }

    /**
     * Calls $action, records what it returned or threw and the warnings it raised, and returns
     * its result (null when it threw).
     *
     * @template T
     *
     * @param \Closure(): T $action
     *
     * @return T|null
     */
    public function call(string $label, \Closure $action): mixed
    {
        $warnings = [];
        set_error_handler(function (int $level, string $message) use (&$warnings): bool {
            if ((error_reporting() & $level) === 0) {
                return true; // silenced with @
            }
            $this->levels[] = $level;
            $warnings[] = [self::level($level), $message];

            return true;
        });
        try {
            $result = $action();
            $observed = ['return' => self::normalise($result)];
        } catch (\Throwable $e) {
            $result = null;
            $observed = ['throws' => self::throwable($e)];
        } finally {
            restore_error_handler();
        }
        if ($warnings !== []) {
            $observed['warnings'] = $warnings;
        }
        $this->entries[sprintf('%03d %s', \count($this->entries), $label)] = $observed;

        return $result;
    }

    /** @return array<string, mixed> */
    public static function throwable(\Throwable $e): array
    {
        $out = ['class' => $e::class, 'message' => $e->getMessage(), 'code' => $e->getCode()];
        if ($e instanceof \PDOException) {
            $out['errorInfo'] = $e->errorInfo;
            $out['file'] = basename($e->getFile());
            $out['line'] = $e->getLine();
        }
        if ($e->getPrevious() !== null) {
            $out['previous'] = self::throwable($e->getPrevious());
        }

        return $out;
    }

    public static function normalise(mixed $value): mixed
    {
        if (\is_array($value)) {
            $out = [];
            foreach ($value as $key => $item) {
                $out[$key] = self::normalise($item);
            }

            return $out;
        }
        if ($value instanceof \PDOStatement) {
            return ['statement', $value->queryString];
        }
        if ($value instanceof \PDO) {
            return ['pdo'];
        }
        if ($value instanceof \PDORow) {
            return ['PDORow', self::normalise(get_object_vars($value))];
        }
        if (\is_object($value)) {
            return ['object', $value::class, self::normalise((array) $value)];
        }
        if (\is_resource($value)) {
            if (get_resource_type($value) === 'stream') {
                $contents = stream_get_contents($value, -1, 0);

                return ['stream', $contents];
            }

            return ['resource', get_resource_type($value)];
        }

        return $value;
    }

    /** A one-line rendering that keeps types apart (1 vs "1" vs 1.0 vs true). */
    public static function export(mixed $value): string
    {
        if (\is_array($value)) {
            $items = [];
            $list = array_is_list($value);
            foreach ($value as $key => $item) {
                $items[] = ($list ? '' : self::export($key) . ' => ') . self::export($item);
            }

            return '[' . implode(', ', $items) . ']';
        }
        if (\is_string($value)) {
            return '"' . addcslashes($value, "\0..\37\"\\\177..\377") . '"';
        }
        if (\is_float($value)) {
            $text = var_export($value, true);

            return str_contains($text, '.') || str_contains($text, 'E') || str_contains($text, 'N') ? $text : $text . '.0';
        }

        return var_export($value, true);
    }

    private static function level(int $level): string
    {
        return match ($level) {
            E_WARNING, E_USER_WARNING => 'warning',
            E_DEPRECATED, E_USER_DEPRECATED => 'deprecated',
            E_NOTICE, E_USER_NOTICE => 'notice',
            default => 'level ' . $level,
        };
    }
}
