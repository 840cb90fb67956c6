<?php

declare(strict_types=1);

namespace Spindle\Http\StaticFiles;

/**
 * Maps file extensions to the Content-Type the static file handler sends.
 *
 * Textual types (text/*, JSON, XML, YAML, JavaScript and the +json / +xml suffixes) get
 * "; charset=utf-8" appended; unknown extensions map to application/octet-stream. Extensions
 * are matched case-insensitively on the last dot of the file name.
 */
final class MimeTypes
{
    public const DEFAULT_TYPE = 'application/octet-stream';

    /** @var array<string, string> */
    private const BUILT_IN = [
        // Documents and text
        'html' => 'text/html',
        'htm' => 'text/html',
        'xhtml' => 'application/xhtml+xml',
        'css' => 'text/css',
        'js' => 'text/javascript',
        'mjs' => 'text/javascript',
        'cjs' => 'text/javascript',
        'json' => 'application/json',
        'map' => 'application/json',
        'jsonld' => 'application/ld+json',
        'webmanifest' => 'application/manifest+json',
        'txt' => 'text/plain',
        'text' => 'text/plain',
        'xml' => 'application/xml',
        'xsl' => 'application/xml',
        'rss' => 'application/rss+xml',
        'atom' => 'application/atom+xml',
        'csv' => 'text/csv',
        'tsv' => 'text/tab-separated-values',
        'md' => 'text/markdown',
        'markdown' => 'text/markdown',
        'yaml' => 'application/yaml',
        'yml' => 'application/yaml',
        'ics' => 'text/calendar',
        'vtt' => 'text/vtt',
        'pdf' => 'application/pdf',
        'wasm' => 'application/wasm',
        // Images
        'svg' => 'image/svg+xml',
        'png' => 'image/png',
        'apng' => 'image/apng',
        'jpg' => 'image/jpeg',
        'jpeg' => 'image/jpeg',
        'gif' => 'image/gif',
        'webp' => 'image/webp',
        'avif' => 'image/avif',
        'ico' => 'image/x-icon',
        'bmp' => 'image/bmp',
        'tif' => 'image/tiff',
        'tiff' => 'image/tiff',
        // Fonts
        'woff' => 'font/woff',
        'woff2' => 'font/woff2',
        'ttf' => 'font/ttf',
        'otf' => 'font/otf',
        'eot' => 'application/vnd.ms-fontobject',
        // Archives
        'zip' => 'application/zip',
        'gz' => 'application/gzip',
        'tgz' => 'application/gzip',
        'tar' => 'application/x-tar',
        'bz2' => 'application/x-bzip2',
        'xz' => 'application/x-xz',
        '7z' => 'application/x-7z-compressed',
        // Audio and video
        'mp4' => 'video/mp4',
        'm4v' => 'video/mp4',
        'webm' => 'video/webm',
        'ogv' => 'video/ogg',
        'mov' => 'video/quicktime',
        'mp3' => 'audio/mpeg',
        'm4a' => 'audio/mp4',
        'aac' => 'audio/aac',
        'ogg' => 'audio/ogg',
        'oga' => 'audio/ogg',
        'opus' => 'audio/ogg',
        'wav' => 'audio/wav',
        'flac' => 'audio/flac',
    ];

    /** @var array<string, string> lower-case extension => full Content-Type value */
    private readonly array $types;

    /**
     * @param array<string, string> $overrides extension (without the dot) => media type; replaces
     *                                         or extends the built-in map. A textual type without
     *                                         parameters gets "; charset=utf-8" like the built-ins.
     */
    public function __construct(array $overrides = [])
    {
        $types = [];
        foreach (self::BUILT_IN as $extension => $type) {
            $types[$extension] = self::withCharset($type);
        }
        foreach ($overrides as $extension => $type) {
            $extension = \strtolower(\ltrim((string) $extension, '.'));
            if ($extension === '' || \preg_match('/[\x00-\x1F\x7F]/', $type) === 1 || \trim($type) === '') {
                throw new \InvalidArgumentException(\sprintf('Invalid MIME type override for extension "%s".', $extension));
            }
            $types[$extension] = self::withCharset(\trim($type));
        }
        $this->types = $types;
    }

    /** The Content-Type header value for a file path (only the extension is looked at). */
    public function forPath(string $path): string
    {
        $name = \basename($path);
        $dot = \strrpos($name, '.');
        if ($dot === false) {
            return self::DEFAULT_TYPE;
        }

        return $this->types[\strtolower(\substr($name, $dot + 1))] ?? self::DEFAULT_TYPE;
    }

    private static function withCharset(string $type): string
    {
        if (\str_contains($type, ';')) {
            return $type;
        }
        $lower = \strtolower($type);
        $textual = \str_starts_with($lower, 'text/')
            || \in_array($lower, ['application/json', 'application/xml', 'application/yaml', 'application/javascript'], true)
            || \str_ends_with($lower, '+json')
            || \str_ends_with($lower, '+xml');

        return $textual ? $type . '; charset=utf-8' : $type;
    }
}
