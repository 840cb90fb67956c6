<?php

declare(strict_types=1);

namespace Spindle\Bridge\Symfony\Session;

use Symfony\Component\HttpFoundation\Session\Storage\Handler\AbstractSessionHandler;

/**
 * PHP's "files" session save handler without PHP's session module: the same save_path syntax
 * (`/dir`, `N;/dir`, `N;MODE;/dir`), the same file names (`sess_<id>`, under N levels of
 * one-character directories) and contents, so PHP-FPM and Spindle can serve the same sessions.
 *
 * Unlike PHP's handler it takes no lock for the length of a request: under Spindle a request
 * holding a session lock while it waits would block, in its own worker, every other request
 * for the same session. Writes go to a temporary file renamed over the session file, so a
 * reader sees the old or the new data, never half of it; of two requests that change one
 * session at once, the last to finish wins (as with Symfony's Redis or PDO handlers without
 * locking).
 *
 * As a Symfony AbstractSessionHandler it validates ids (strict mode) with the read that follows,
 * and writing empty data deletes the file. An unchanged session only gets its file's time
 * updated (updateTimestamp(), PHP's lazy_write), which costs far less than replacing the file.
 */
final class FileSessionHandler extends AbstractSessionHandler
{
    private const PREFIX = 'sess_';

    private function __construct(
        public readonly string $directory,
        private readonly int $depth,
        private readonly int $mode,
    ) {
    }

    /** From a session.save_path value; empty means the system's temporary directory, as in PHP. */
    public static function fromSavePath(string $savePath): self
    {
        $parts = \explode(';', $savePath);
        if (\count($parts) > 3) {
            throw new \InvalidArgumentException(\sprintf('Invalid session save path "%s"', $savePath));
        }
        $directory = (string) \array_pop($parts);
        $depth = 0;
        $mode = 0600;
        if ($parts !== []) {
            $depth = \filter_var($parts[0], \FILTER_VALIDATE_INT, ['options' => ['min_range' => 0]]);
            if ($depth === false) {
                throw new \InvalidArgumentException(\sprintf('Invalid session save path "%s": bad depth', $savePath));
            }
        }
        if (\count($parts) === 2) {
            if (\preg_match('/^[0-7]{1,4}$/', $parts[1]) !== 1) {
                throw new \InvalidArgumentException(\sprintf('Invalid session save path "%s": bad mode', $savePath));
            }
            $mode = (int) \octdec($parts[1]);
        }
        $directory = \rtrim($directory === '' ? \sys_get_temp_dir() : $directory, '/');
        if ($depth === 0 && !\is_dir($directory) && !@\mkdir($directory, 0777, true) && !\is_dir($directory)) {
            throw new \RuntimeException(\sprintf('The session directory "%s" cannot be created', $directory));
        }

        return new self($directory === '' ? '/' : $directory, $depth, $mode);
    }

    public function close(): bool
    {
        return true;
    }

    protected function doRead(string $sessionId): string
    {
        $file = $this->file($sessionId);
        $data = $file === null ? false : @\file_get_contents($file);

        return $data === false ? '' : $data;
    }

    protected function doWrite(string $sessionId, string $data): bool
    {
        $file = $this->file($sessionId);
        if ($file === null) {
            return false;
        }
        $temporary = $file . '.' . \bin2hex(\random_bytes(6)) . '.tmp';
        if (@\file_put_contents($temporary, $data) !== \strlen($data)) {
            @\unlink($temporary);

            return false;
        }
        @\chmod($temporary, $this->mode);
        if (!@\rename($temporary, $file)) {
            @\unlink($temporary);

            return false;
        }

        return true;
    }

    protected function doDestroy(string $sessionId): bool
    {
        $file = $this->file($sessionId);
        if ($file !== null && \is_file($file)) {
            return @\unlink($file);
        }

        return true;
    }

    public function updateTimestamp(string $sessionId, string $data): bool
    {
        $file = $this->file($sessionId);
        if ($file !== null && \is_file($file)) {
            return @\touch($file);
        }

        return $this->write($sessionId, $data);
    }

    /** Removes session files not written for $maxLifetime seconds; as in PHP, only without subdirectories. */
    public function gc(int $maxLifetime): int|false
    {
        if ($this->depth > 0) {
            return 0;
        }
        $entries = @\scandir($this->directory);
        if ($entries === false) {
            return false;
        }
        $limit = \time() - $maxLifetime;
        $removed = 0;
        foreach ($entries as $entry) {
            if (!\str_starts_with($entry, self::PREFIX)) {
                continue;
            }
            $file = $this->directory . '/' . $entry;
            $modified = @\filemtime($file);
            if ($modified !== false && $modified < $limit && @\unlink($file)) {
                ++$removed;
            }
        }

        return $removed;
    }

    /** The file of a session id, or null for an id that could name another file. */
    private function file(string $id): ?string
    {
        if (\preg_match('/^[a-zA-Z0-9,-]+$/D', $id) !== 1 || \strlen($id) < $this->depth) {
            return null;
        }
        $directory = $this->directory;
        for ($i = 0; $i < $this->depth; ++$i) {
            $directory .= '/' . $id[$i];
        }

        return $directory . '/' . self::PREFIX . $id;
    }
}
