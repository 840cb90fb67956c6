<?php

declare(strict_types=1);

namespace Spindle\Http\WebSocket;

/**
 * One connection's permessage-deflate state (RFC 7692 §7.2): inflates the peer's compressed
 * messages frame by frame, never past the room the message has left, and compresses this side's
 * messages. The zlib contexts (about 300 KiB together with 15-bit windows) are made when first
 * needed; without context takeover a context lives only for one message, so an idle connection
 * keeps none (server_no_context_takeover: the deflater's; client_no_context_takeover: the inflater's).
 */
final class Deflater
{
    /** Compressed input is inflated this many bytes at a time, so one call cannot make more than about 1 MiB. */
    private const INFLATE_SLICE = 1024;

    private ?\InflateContext $inflate = null;
    private ?\DeflateContext $deflate = null;

    public function __construct(public readonly DeflateParams $params)
    {
    }

    /**
     * Inflates one frame's payload of a compressed message ($last: the message's final frame).
     * $room is how many more bytes the message may grow to.
     *
     * @throws ProtocolError 1007 for data that does not inflate, 1009 past $room
     */
    public function inflate(string $payload, bool $last, int $room): string
    {
        $this->inflate ??= \inflate_init(\ZLIB_ENCODING_RAW, ['window' => 15])
            ?: throw new \RuntimeException('zlib cannot make an inflate context');
        if ($last) {
            $payload .= "\x00\x00\xff\xff";
        }
        $out = '';
        for ($offset = 0, $length = \strlen($payload); $offset < $length; $offset += self::INFLATE_SLICE) {
            $piece = @\inflate_add($this->inflate, \substr($payload, $offset, self::INFLATE_SLICE), \ZLIB_SYNC_FLUSH);
            if ($piece === false) {
                throw new ProtocolError(CloseCode::InvalidPayload, 'Compressed data does not inflate');
            }
            $out .= $piece;
            if (\strlen($out) > $room) {
                throw new ProtocolError(CloseCode::MessageTooBig, 'Message inflates past the limit');
            }
        }
        if ($last && $this->params->clientNoContextTakeover) {
            $this->inflate = null;
        }

        return $out;
    }

    /** $payload compressed as one message's data (without the final 0x00 0x00 0xff 0xff). */
    public function deflate(string $payload): string
    {
        $context = $this->deflate ?? \deflate_init(\ZLIB_ENCODING_RAW, ['window' => $this->params->serverMaxWindowBits])
            ?: throw new \RuntimeException('zlib cannot make a deflate context');
        if (!$this->params->serverNoContextTakeover) {
            $this->deflate = $context;
        }
        $compressed = \deflate_add($context, $payload, \ZLIB_SYNC_FLUSH);
        if ($compressed === false) {
            throw new \RuntimeException('zlib failed to deflate');
        }

        return \substr($compressed, 0, -4);
    }
}
