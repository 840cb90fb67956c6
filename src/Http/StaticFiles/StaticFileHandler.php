<?php

declare(strict_types=1);

namespace Spindle\Http\StaticFiles;

use Spindle\Http\FileBody;
use Spindle\Http\Request;
use Spindle\Http\Response;

/**
 * Serves regular files below a document root, ahead of the application.
 *
 * handle() returns null whenever the request is not for a servable file (other methods than
 * GET/HEAD, missing files, directories without index.html, dotfiles, anything resolving outside
 * the root), so the server can pass the request on to the application. The one exception is
 * an obvious traversal attempt — a ".." segment (with "/" or "\" as separator) or a NUL byte
 * in the percent-decoded path — which is answered with 404 directly and never reaches the app.
 *
 * Path handling: the path is percent-decoded exactly once ("%252e" stays the literal "%2e"),
 * then resolved below the root one segment at a time with lstat(), as the kernel would, not
 * trusting PHP's realpath cache (which could answer with where a symlink led minutes ago; it only
 * serves as a first, quiet test that the path exists at all). A symlink on
 * the way is followed only when the link and the file or directory it leads to have the same
 * owner (nginx's "disable_symlinks if_not_owner"; each link of a chain is checked the same
 * way), wherever it leads: `php artisan storage:link`'s public/storage -> storage/app/public is
 * served, a link that another user planted is not. Any segment starting with "." is treated as
 * hidden and not served, in the request path and in the resolved path below the directory it
 * shares with the root; that includes "/.well-known/". Paths containing a backslash are never
 * served as files. A path naming a directory serves that directory's index.html when it exists.
 *
 * PHP sources are never served: a request path or a resolved file whose name ends in .php (any
 * case; also .phtml, .pht, .phar, .phps and .php3 to .php8) goes to the application, so that a
 * framework's public/index.php, or a script beside it, is run by the app or not at all, never
 * shown as source.
 *
 * Responses carry Content-Type, Last-Modified, a strong ETag ("<hex mtime>-<hex size>"),
 * Accept-Ranges and X-Content-Type-Options: nosniff, plus the configured Cache-Control. The
 * body is a FileBody (also for HEAD: the server strips it but uses its length); Content-Length
 * is left to the server's serializer.
 *
 * Conditional requests follow RFC 9110 §13.2.2: If-Match, then If-Unmodified-Since (412 on
 * failure), then If-None-Match (weak comparison, "*" allowed) or — only when If-None-Match
 * is absent — If-Modified-Since (304 on match), then If-Range.
 *
 * Range requests (GET only): one "bytes=" range yields 206 with Content-Range; a range wholly
 * past the end yields 416 with "Content-Range: bytes *\/size". Malformed headers, other units
 * and multiple ranges are ignored and the full file is served with 200 (multipart/byteranges
 * is not produced). Ranges on empty files are ignored as well.
 */
final class StaticFileHandler
{
    /** Seconds a path found to be no servable file is remembered as such. */
    public const MISS_TTL = 1.0;
    /** Paths remembered at most; the memory is emptied when it is full. */
    private const MISS_LIMIT = 1024;

    private const S_IFMT = 0o170000;
    private const S_IFREG = 0o100000;
    private const S_IFDIR = 0o040000;
    private const S_IFLNK = 0o120000;
    /** Symlinks followed for one path at most (Linux's MAXSYMLINKS): more is a loop. */
    private const MAX_LINKS = 40;

    private readonly string $root;
    private readonly MimeTypes $mimeTypes;
    /**
     * Request paths that named no servable file lately, with the hrtime (ns) until which that
     * answer stands. Nearly every request of an app behind a static root is for a path that is
     * no file (/api/users/5): without this memory each would cost realpath() a failed lstat(), a
     * system call on every request that the app's own routes never need, where nginx in front of
     * PHP-FPM makes it on nginx's side. A file created meanwhile is served at most MISS_TTL later.
     *
     * @var array<string, int>
     */
    private array $missing = [];

    /**
     * @param \Closure(): int|null $clock monotonic nanoseconds for the memory of missing paths
     *                                   (hrtime(true) when null; a test passes its own)
     */
    public function __construct(
        string $root,
        ?MimeTypes $mimeTypes = null,
        private readonly ?string $cacheControl = null,
        private readonly ?\Closure $clock = null,
    ) {
        $real = \str_contains($root, "\0") || !\is_dir($root) ? false : \realpath($root);
        if ($real === false) {
            throw new \InvalidArgumentException(\sprintf('Static file root "%s" is not an existing directory.', \str_replace("\0", '\0', $root)));
        }
        if ($cacheControl !== null && \preg_match('/[\x00-\x1F\x7F]/', $cacheControl) === 1) {
            throw new \InvalidArgumentException('Cache-Control value must not contain control characters.');
        }
        $this->root = $real;
        $this->mimeTypes = $mimeTypes ?? new MimeTypes();
    }

    public function root(): string
    {
        return $this->root;
    }

    public function handle(Request $request): ?Response
    {
        if ($request->method !== 'GET' && $request->method !== 'HEAD') {
            return null;
        }

        $file = $this->locate($request->path);
        if (!\is_array($file)) {
            return $file;
        }
        [$path, $size, $mtime] = $file;

        $etag = \sprintf('"%x-%x"', $mtime, $size);
        $lastModified = HttpDate::format($mtime);
        $validators = ['ETag' => $etag, 'Last-Modified' => $lastModified];
        if ($this->cacheControl !== null) {
            $validators['Cache-Control'] = $this->cacheControl;
        }

        $precondition = $this->evaluatePreconditions($request, $etag, $mtime, $validators);
        if ($precondition !== null) {
            return $precondition;
        }

        $headers = [
            'Content-Type' => $this->mimeTypes->forPath($path),
            'Accept-Ranges' => 'bytes',
            'X-Content-Type-Options' => 'nosniff',
        ] + $validators;

        $rangeHeader = $request->header('range');
        if ($request->method === 'GET' && $rangeHeader !== null && $this->ifRangeHolds($request, $etag, $mtime)) {
            $range = ByteRange::fromHeader($rangeHeader, $size);
            if ($range instanceof ByteRange) {
                $headers['Content-Range'] = $range->contentRange($size);

                return new Response(206, $headers, new FileBody($path, $range->first, $range->length()));
            }
            if ($range === RangeRejection::Unsatisfiable) {
                return new Response(416, [
                    'Content-Range' => \sprintf('bytes */%d', $size),
                    'Accept-Ranges' => 'bytes',
                    'X-Content-Type-Options' => 'nosniff',
                ]);
            }
        }

        return new Response(200, $headers, new FileBody($path, 0, $size));
    }

    /**
     * Resolves a raw request path to [real path, size, mtime] of a servable regular file,
     * null when there is none, or a 404 response for a traversal attempt.
     *
     * @return array{string, int, int}|Response|null
     */
    private function locate(string $rawPath): array|Response|null
    {
        if ($rawPath === '' || $rawPath[0] !== '/') {
            return null;
        }
        $path = \rawurldecode($rawPath);
        if (\str_contains($path, "\0")) {
            return self::notFound();
        }
        $segments = \preg_split('#[/\\\\]#', $path);
        if ($segments === false || \in_array('..', $segments, true)) {
            return self::notFound();
        }
        if (\str_contains($path, '\\') || self::hasHiddenSegment($segments) || self::isPhpSource($path)) {
            return null;
        }

        /** @var int $now hrtime(true) is an int on the 64-bit builds Spindle runs on */
        $now = $this->clock === null ? \hrtime(true) : ($this->clock)();
        if (isset($this->missing[$path]) && $this->missing[$path] > $now) {
            return null;
        }
        // A first, quiet look: realpath() fails without a warning (a failed lstat() raises one,
        // which costs even when silenced) and with one system call for the directories its cache
        // knows, so the many paths that are no file cost what they did. Its cache may say where a
        // link led minutes ago: a path it finds is walked afresh, link by link.
        $found = \realpath($this->root . $path) === false ? null : $this->resolve($this->root, $segments);
        if ($found === null) {
            $this->remember($path, $now);

            return null;
        }
        [$real, $stat] = $found;
        if (($stat['mode'] & self::S_IFMT) === self::S_IFDIR) {
            $found = $this->resolve($real, ['index.html']);
            if ($found === null) {
                return null;
            }
            [$real, $stat] = $found;
        } elseif (\str_ends_with($path, '/')) {
            return null;
        }
        if (($stat['mode'] & self::S_IFMT) !== self::S_IFREG || !\is_readable($real) || self::isPhpSource($real)) {
            return null;
        }

        return [$real, $stat['size'], $stat['mtime']];
    }

    /** $path named no file at $now (hrtime, ns). */
    private function remember(string $path, int $now): void
    {
        if (\count($this->missing) >= self::MISS_LIMIT) {
            $this->missing = [];
        }
        $this->missing[$path] = $now + (int) (self::MISS_TTL * 1e9);
    }

    /**
     * The real path that $segments name below $base (a real path), with the stat() of what it
     * names, when it exists, every symlink on the way has the owner of what it leads to, and
     * the path has no hidden segment below the directory it shares with the root; else null.
     *
     * @param list<string> $segments
     *
     * @return array{string, array<array-key, int>}|null
     */
    private function resolve(string $base, array $segments): ?array
    {
        \clearstatcache();
        $links = 0;
        $found = $this->walk($base, $segments, $links);
        if ($found === null || ($links > 0 && $this->hiddenOutsideTheRoot($found[0]))) {
            return null;
        }

        return $found;
    }

    /**
     * Follows $segments from $base (a real path) one lstat() at a time. A segment that is a
     * symlink is followed when its owner is the owner of what it finally leads to (stat() of
     * the link), by walking its target the same way, so that every link of a chain is checked.
     *
     * @param list<string> $segments
     *
     * @return array{string, array<array-key, int>}|null
     */
    private function walk(string $base, array $segments, int &$links): ?array
    {
        $current = $base;
        $stat = null;
        foreach ($segments as $segment) {
            if ($segment === '' || $segment === '.') {
                continue;
            }
            if ($segment === '..') {
                // $current is a real path: its parent is its dirname (only a link target has "..").
                $current = \dirname($current);
                $stat = null;
                continue;
            }
            $next = ($current === '/' ? '' : $current) . '/' . $segment;
            $stat = @\lstat($next);
            if ($stat === false) {
                return null;
            }
            if (($stat['mode'] & self::S_IFMT) === self::S_IFLNK) {
                $target = @\stat($next);
                $to = @\readlink($next);
                if ($target === false || $target['uid'] !== $stat['uid'] || !\is_string($to) || $to === '' || ++$links > self::MAX_LINKS) {
                    return null;
                }
                $followed = $this->walk($to[0] === '/' ? '/' : $current, \explode('/', $to), $links);
                if ($followed === null) {
                    return null;
                }
                [$next, $stat] = $followed;
            }
            $current = $next;
        }
        if ($stat === null) {
            $stat = @\stat($current);
            if ($stat === false) {
                return null;
            }
        }

        return [$current, $stat];
    }

    /**
     * Whether $real has a hidden segment below the directory it shares with the root: inside
     * the root, below the root; for a symlink's target elsewhere (storage/app/public), below the
     * directory above both (the app's), so that the app's own location may hold a dot.
     */
    private function hiddenOutsideTheRoot(string $real): bool
    {
        $path = \explode('/', $real);
        $root = \explode('/', $this->root);
        $shared = 0;
        while (isset($path[$shared], $root[$shared]) && $path[$shared] === $root[$shared]) {
            ++$shared;
        }

        return self::hasHiddenSegment(\array_slice($path, $shared));
    }

    /** @param list<string> $segments */
    private static function hasHiddenSegment(array $segments): bool
    {
        foreach ($segments as $segment) {
            if ($segment !== '' && $segment[0] === '.') {
                return true;
            }
        }

        return false;
    }

    /** Whether $path names a PHP script by its extension (as php-fpm's usual nginx and Apache setups run them). */
    private static function isPhpSource(string $path): bool
    {
        return \preg_match('/\.(?:php[3-8]?|phtml?|phar|phps)$/iD', $path) === 1;
    }

    /**
     * RFC 9110 §13.2.2 steps 1–4: 412 or 304 when a precondition decides, otherwise null.
     *
     * @param array<string, string> $validators
     */
    private function evaluatePreconditions(Request $request, string $etag, int $mtime, array $validators): ?Response
    {
        $ifMatch = $request->header('if-match');
        if ($ifMatch !== null) {
            if (!self::tagListMatches($ifMatch, $etag, weak: false)) {
                return self::preconditionFailed();
            }
        } else {
            $ifUnmodifiedSince = $request->header('if-unmodified-since');
            $since = $ifUnmodifiedSince === null ? null : HttpDate::parse($ifUnmodifiedSince);
            if ($since !== null && $mtime > $since) {
                return self::preconditionFailed();
            }
        }

        $ifNoneMatch = $request->header('if-none-match');
        if ($ifNoneMatch !== null) {
            return self::tagListMatches($ifNoneMatch, $etag, weak: true) ? new Response(304, $validators) : null;
        }

        $ifModifiedSince = $request->header('if-modified-since');
        $since = $ifModifiedSince === null ? null : HttpDate::parse($ifModifiedSince);
        if ($since !== null && $mtime <= $since) {
            return new Response(304, $validators);
        }

        return null;
    }

    /** If-Range (RFC 9110 §13.1.5): true when absent or when it matches strongly. */
    private function ifRangeHolds(Request $request, string $etag, int $mtime): bool
    {
        $ifRange = $request->header('if-range');
        if ($ifRange === null) {
            return true;
        }
        $ifRange = \trim($ifRange, " \t");
        if (\str_starts_with($ifRange, 'W/')) {
            return false;
        }
        if (\str_starts_with($ifRange, '"')) {
            return $ifRange === $etag;
        }

        return HttpDate::parse($ifRange) === $mtime;
    }

    /**
     * Whether an If-Match / If-None-Match list contains $etag ("*" matches any file).
     * Weak comparison ignores the W/ prefix; strong comparison needs both tags strong.
     */
    private static function tagListMatches(string $header, string $etag, bool $weak): bool
    {
        if (\trim($header, " \t") === '*') {
            return true;
        }
        if (\preg_match_all('#(W/)?("[^"]*")#', $header, $matches, \PREG_SET_ORDER) === false) {
            return false;
        }
        foreach ($matches as [, $weakPrefix, $tag]) {
            if ($tag === $etag && ($weak || $weakPrefix === '')) {
                return true;
            }
        }

        return false;
    }

    private static function notFound(): Response
    {
        return new Response(404, [
            'Content-Type' => 'text/plain; charset=utf-8',
            'X-Content-Type-Options' => 'nosniff',
        ], "Not Found\n");
    }

    private static function preconditionFailed(): Response
    {
        return new Response(412, ['X-Content-Type-Options' => 'nosniff']);
    }
}
