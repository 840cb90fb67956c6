<?php

declare(strict_types=1);

namespace Spindle\Server;

/**
 * The directory a worker runs the app in, and the directory of files it serves ahead of the
 * app: where php-fpm behind nginx would put them for the same app.
 *
 * An app directory (Laravel, Symfony) has its front controller in `public/index.php`, as both
 * framework bridges assume. Its requests run in `public/` (php-fpm's working directory for
 * that script, so `move('uploads/…')` stores a file where it is then served from), `public/`
 * is its static directory unless told otherwise, and a relative `--static-dir` names a
 * directory of the app.
 *
 * A single-file app runs in the directory the server was started in, and a relative
 * `--static-dir` is resolved against that directory, like every other path option.
 */
final class AppPaths
{
    /** The `--static-dir` that serves no files. */
    public const NO_STATIC_DIR = 'none';

    /** An app directory's document root: the directory of its front controller. */
    public const PUBLIC_DIR = 'public';

    /**
     * @param string $workingDirectory absolute; the directory the worker changes to before it boots the app
     * @param string|null $staticDir absolute; null: no files are served ahead of the app
     */
    private function __construct(
        public readonly string $workingDirectory,
        public readonly ?string $staticDir,
    ) {
    }

    /**
     * @param string $app the app's absolute path: a PHP file or an app directory
     * @param string|null $staticDir `--static-dir` as given: null when not given, "none" for no files
     * @param string $cwd the directory the server was started in
     */
    public static function resolve(string $app, ?string $staticDir, string $cwd): self
    {
        if (!\is_dir($app)) {
            return new self($cwd, self::staticDir($staticDir, $cwd, null));
        }
        $app = \rtrim($app, '/');
        $public = \is_dir($app . '/' . self::PUBLIC_DIR) ? $app . '/' . self::PUBLIC_DIR : null;

        return new self($public ?? $app, self::staticDir($staticDir, $app, $public));
    }

    /** The static directory, absolute, from the option as given ($default when not given). */
    private static function staticDir(?string $given, string $base, ?string $default): ?string
    {
        if ($given === null) {
            return $default;
        }
        if ($given === self::NO_STATIC_DIR) {
            return null;
        }
        $path = \str_starts_with($given, '/') ? $given : $base . '/' . $given;
        $real = \str_contains($path, "\0") ? false : \realpath($path);
        if ($real === false || !\is_dir($real)) {
            throw new ServerError($path === $given
                ? \sprintf('--static-dir %s is not a directory', $given)
                : \sprintf('--static-dir %s is not a directory (looked for %s)', $given, $path));
        }

        return $real;
    }
}
