<?php

declare(strict_types=1);

namespace Spindle\Supervisor;

/**
 * Where a server started without --pid-file keeps its pid file and control socket: a directory
 * that only the user running it can write, so no other local user can plant a symlink or a
 * socket of their own there.
 *
 * In order: $XDG_RUNTIME_DIR/spindle when $XDG_RUNTIME_DIR is set and is a private directory
 * of this user (systemd's /run/user/UID); /run/spindle for root; else spindle-UID in the
 * system temp directory. A missing directory is created with mode 0700. Before use each one is
 * checked with lstat(): a real directory (not a symlink), owned by this user, writable by no
 * one else. One that fails (another user made /tmp/spindle-UID first, say) is refused, never
 * repaired.
 */
final class RuntimeDirectory
{
    private const S_IFMT = 0170000;
    private const S_IFDIR = 0040000;
    private const MISSING = 'it does not exist';

    /**
     * The directory for this server's runtime files, created when missing.
     *
     * @throws ControlError when it exists but is not private to this user, or cannot be made
     */
    public static function forServer(): string
    {
        $directory = self::candidates()[0];
        $uid = \posix_geteuid();
        $problem = self::problem($directory, $uid);
        if ($problem === self::MISSING) {
            // mkdir() never follows a symlink at the last component: an existing name fails.
            \error_clear_last();
            $made = @\mkdir($directory, 0700);
            $error = \error_get_last()['message'] ?? 'unknown error';
            $problem = self::problem($directory, $uid);
            if (!$made && $problem === self::MISSING) {
                throw new ControlError(\sprintf('Cannot create the runtime directory %s: %s (give --pid-file)', $directory, $error));
            }
        }
        if ($problem !== null) {
            throw new ControlError(\sprintf(
                'Refusing to keep the pid file and control socket in %s: %s. Remove it, or give --pid-file',
                $directory,
                $problem,
            ));
        }

        return $directory;
    }

    /**
     * Every directory a server of this user may have used, the preferred one first; nothing is
     * created. The list depends on the environment ($XDG_RUNTIME_DIR, $TMPDIR), so a client looks
     * in each of them.
     *
     * @return non-empty-list<string>
     */
    public static function candidates(): array
    {
        $uid = \posix_geteuid();
        $candidates = [];
        $xdg = \getenv('XDG_RUNTIME_DIR');
        if (\is_string($xdg) && \str_starts_with($xdg, '/') && self::problem(\rtrim($xdg, '/') ?: '/', $uid) === null) {
            $candidates[] = \rtrim($xdg, '/') . '/spindle';
        }
        if ($uid === 0 && self::problem('/run', 0) === null) {
            $candidates[] = '/run/spindle';
        }
        $candidates[] = \rtrim(\sys_get_temp_dir(), '/') . '/spindle-' . $uid;

        return $candidates;
    }

    /**
     * Why $directory is not private to $uid, or null when it is: checked with lstat(), so a
     * symlink is refused whatever it points to.
     */
    public static function problem(string $directory, int $uid): ?string
    {
        \clearstatcache(true, $directory);
        $stat = @\lstat($directory);
        if ($stat === false) {
            return self::MISSING;
        }
        if (($stat['mode'] & self::S_IFMT) !== self::S_IFDIR) {
            return @\is_link($directory) ? 'it is a symbolic link' : 'it is not a directory';
        }
        if ($stat['uid'] !== $uid) {
            return \sprintf('it belongs to uid %d, not to uid %d', $stat['uid'], $uid);
        }
        if (($stat['mode'] & 0022) !== 0) {
            return \sprintf('other users can write to it (mode %o)', $stat['mode'] & 07777);
        }

        return null;
    }
}
