<?php

declare(strict_types=1);

namespace Spindle\HttpClient;

/** Incremental Content-Encoding decoding: gzip, x-gzip, deflate (zlib or raw). */
final class Decoder
{
    private ?\InflateContext $context = null;
    private string $pending = '';

    private function __construct(private readonly string $encoding)
    {
    }

    /** A decoder for the Content-Encoding value, or null when it is none this client decodes. */
    public static function for(?string $contentEncoding): ?self
    {
        $encoding = \strtolower(\trim((string) $contentEncoding));

        return \in_array($encoding, ['gzip', 'x-gzip', 'deflate'], true) && \function_exists('inflate_init') ? new self($encoding) : null;
    }

    /** @throws HttpClientException on a corrupt stream */
    public function push(string $bytes): string
    {
        if ($this->context === null) {
            $this->pending .= $bytes;
            if ($this->encoding === 'deflate' && \strlen($this->pending) < 2) {
                return '';
            }
            $raw = $this->encoding === 'deflate' && !$this->isZlibHeader($this->pending);
            $context = \inflate_init($raw ? \ZLIB_ENCODING_RAW : ($this->encoding === 'deflate' ? \ZLIB_ENCODING_DEFLATE : \ZLIB_ENCODING_GZIP));
            if ($context === false) {
                throw new HttpClientException('Could not start decoding the response body');
            }
            $this->context = $context;
            $bytes = $this->pending;
            $this->pending = '';
        }
        $out = @\inflate_add($this->context, $bytes, \ZLIB_SYNC_FLUSH);
        if ($out === false) {
            throw new HttpClientException(\sprintf('The %s-encoded response body is corrupt', $this->encoding));
        }

        return $out;
    }

    public function finish(): string
    {
        if ($this->context === null) {
            return $this->pending === '' ? '' : $this->push('');
        }
        $out = @\inflate_add($this->context, '', \ZLIB_FINISH);

        return $out === false ? '' : $out;
    }

    private function isZlibHeader(string $bytes): bool
    {
        $cmf = \ord($bytes[0]);

        return ($cmf & 0x0f) === 8 && ((($cmf << 8) | \ord($bytes[1])) % 31) === 0;
    }
}
