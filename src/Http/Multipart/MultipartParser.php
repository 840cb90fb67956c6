<?php

declare(strict_types=1);

namespace Spindle\Http\Multipart;

use Spindle\Http\FormNames;
use Spindle\Http\HttpException;
use Spindle\Http\UploadedFile;

/**
 * Streaming parser for multipart/form-data bodies (RFC 7578 on top of RFC 2046). It never
 * reads anything itself: the body goes in through {@see push()} in pieces of any size, and
 * {@see finish()} returns the fields and files once the whole body was pushed. Feeding the
 * body whole, byte by byte or split anywhere gives the same result.
 *
 * Memory: at most the delimiter length of look-behind is held back between pushes, plus
 * the header section of the current part (bounded by maxPartHeaderSize) and the values of
 * form fields (each bounded by maxFieldSize). File contents go straight to the UploadSink
 * (temporary files, for the server: TempFileSink); the parser itself touches no file.
 *
 * Wire format accepted:
 *  - lines end in CRLF; the preamble before the first delimiter and the epilogue after the
 *    closing delimiter are ignored; spaces and tabs after a delimiter are allowed;
 *  - part headers are "Name: value" lines (names case-insensitive, folded lines joined);
 *    control characters, a line without a colon or an invalid header name are a 400;
 *  - every part needs "Content-Disposition: form-data; name=..."; a quoted parameter value
 *    may escape '"' and '\' with a backslash; a repeated parameter, or a repeated
 *    Content-Disposition or Content-Type header, is a 400;
 *  - a part with a filename parameter (or filename*, decoded from its percent-encoding) is
 *    a file, any other part is a field. Content-Transfer-Encoding is ignored (RFC 7578 4.7).
 *
 * Files, following what PHP does for $_FILES:
 *  - the client filename loses everything up to the last "/" or "\";
 *  - filename="" means "no file chosen": UPLOAD_ERR_NO_FILE, no temporary file, the
 *    content (normally none) is discarded;
 *  - a file larger than maxFileSize is not an error for the request: its temporary file is
 *    deleted, the rest of its content is discarded, and the UploadedFile carries
 *    UPLOAD_ERR_INI_SIZE with tmpPath "" and size 0; the other parts are still parsed;
 *  - a temporary file that cannot be created or written gives UPLOAD_ERR_CANT_WRITE;
 *  - a file whose field name has unbalanced brackets or text after a "]" is dropped;
 *  - once maxFiles files were taken (a part with filename="" takes none), every later file
 *    part is dropped: it appears nowhere in the result, its content is read past, and the
 *    fields after it are still parsed (PHP's max_file_uploads; PHP also warns);
 *  - a client Content-Type is passed through as sent, or null when absent.
 *
 * Errors: malformed input is an {@see HttpException} 400; more than maxParts parts or a
 * field larger than maxFieldSize is a 413. No other exception and no PHP warning comes out
 * of push() or finish() for any input. After an HttpException the parser is dead (further
 * calls rethrow it); the caller should call {@see abort()} to delete the temporary files.
 * After a successful finish() the files listed by {@see tempFiles()} belong to the caller.
 * Calling push() after finish() or abort() is a programming error (\LogicException).
 */
final class MultipartParser
{
    private const PREAMBLE = 0;
    private const AFTER_DELIMITER = 1;
    private const DELIMITER_PADDING = 2;
    private const HEADERS = 3;
    private const BODY = 4;
    private const EPILOGUE = 5;
    private const FINISHED = 6;
    private const ABORTED = 7;

    private const PART_NONE = 0;
    private const PART_FIELD = 1;
    private const PART_FILE = 2;
    private const PART_SKIPPED = 3;

    private readonly string $delimiter;
    private readonly int $lookBehind;

    /** Starts with a CRLF so that a delimiter at the very start of the body is found like any other. */
    private string $buffer = "\r\n";
    private int $state = self::PREAMBLE;
    private int $partCount = 0;
    /** Files taken so far, counted against maxFiles. */
    private int $fileCount = 0;
    private ?HttpException $failure = null;
    private ?MultipartResult $result = null;

    /** @var array<array-key, mixed> */
    private array $fields = [];
    /** @var array<array-key, mixed> */
    private array $files = [];
    /** @var list<string> */
    private array $tempFiles = [];

    private int $partKind = self::PART_NONE;
    private string $partName = '';
    private string $fieldValue = '';
    private ?string $clientFilename = null;
    private ?string $clientMediaType = null;
    private string $tmpPath = '';
    /** Whether the current file is open in the sink. */
    private bool $open = false;
    private int $fileSize = 0;
    private int $fileError = \UPLOAD_ERR_OK;

    /**
     * @throws HttpException 400 when the boundary is not a valid RFC 2046 boundary
     */
    public function __construct(
        string $boundary,
        private readonly UploadSink $uploads,
        private readonly MultipartLimits $limits,
    ) {
        if (!PartHeaders::isValidBoundary($boundary)) {
            throw new HttpException(400, 'Invalid multipart boundary');
        }
        $this->delimiter = "\r\n--" . $boundary;
        $this->lookBehind = \strlen($this->delimiter) - 1;
    }

    /**
     * Returns the boundary parameter of a multipart Content-Type header value. The
     * parameter name is case-insensitive and the value may be quoted; it must be 1 to 70
     * printable ASCII characters, not ending in a space.
     *
     * @throws HttpException 400 when the boundary is missing or invalid
     */
    public static function boundaryFromContentType(string $contentType): string
    {
        $semicolon = \strpos($contentType, ';');
        if ($semicolon === false) {
            throw new HttpException(400, 'Multipart Content-Type has no boundary parameter');
        }
        $params = PartHeaders::parseParameters(\substr($contentType, $semicolon + 1));
        if ($params === null) {
            throw new HttpException(400, 'Malformed parameters in multipart Content-Type');
        }
        if (!isset($params['boundary'])) {
            throw new HttpException(400, 'Multipart Content-Type has no boundary parameter');
        }
        if (!PartHeaders::isValidBoundary($params['boundary'])) {
            throw new HttpException(400, 'Invalid multipart boundary');
        }

        return $params['boundary'];
    }

    /**
     * Feeds the next piece of the body.
     *
     * @throws HttpException 400 for malformed input, 413 when a limit is exceeded
     */
    public function push(string $bytes): void
    {
        if ($this->failure !== null) {
            throw $this->failure;
        }
        if ($this->state === self::FINISHED || $this->state === self::ABORTED) {
            throw new \LogicException('push() called after finish() or abort()');
        }
        if ($this->state === self::EPILOGUE || $bytes === '') {
            return;
        }
        $this->buffer .= $bytes;
        try {
            $this->process();
        } catch (HttpException $e) {
            $this->failure = $e;
            $this->closeHandle();
            throw $e;
        }
    }

    /**
     * Ends the body and returns what it held.
     *
     * @throws HttpException 400 when the body ended before the closing delimiter
     */
    public function finish(): MultipartResult
    {
        if ($this->failure !== null) {
            throw $this->failure;
        }
        if ($this->result !== null) {
            return $this->result;
        }
        if ($this->state === self::ABORTED) {
            throw new \LogicException('finish() called after abort()');
        }
        if ($this->state !== self::EPILOGUE) {
            $this->closeHandle();
            $this->failure = new HttpException(400, 'Multipart body ended before its closing boundary');
            throw $this->failure;
        }
        $this->state = self::FINISHED;
        $this->buffer = '';

        return $this->result = new MultipartResult($this->fields, $this->files);
    }

    /** Deletes every temporary file created so far. Safe to call more than once. */
    public function abort(): void
    {
        $this->closeHandle();
        foreach ($this->tempFiles as $path) {
            $this->uploads->discard($path);
        }
        $this->tempFiles = [];
        $this->buffer = '';
        $this->fieldValue = '';
        if ($this->state !== self::FINISHED) {
            $this->state = self::ABORTED;
        }
    }

    /**
     * Temporary files created by this parser that are still on disk (files discarded for
     * exceeding a limit are already deleted and not listed).
     *
     * @return list<string>
     */
    public function tempFiles(): array
    {
        return $this->tempFiles;
    }

    private function process(): void
    {
        while (true) {
            switch ($this->state) {
                case self::PREAMBLE:
                    $pos = \strpos($this->buffer, $this->delimiter);
                    if ($pos === false) {
                        if (\strlen($this->buffer) > $this->lookBehind) {
                            $this->buffer = \substr($this->buffer, -$this->lookBehind);
                        }

                        return;
                    }
                    $this->buffer = \substr($this->buffer, $pos + $this->lookBehind + 1);
                    $this->state = self::AFTER_DELIMITER;
                    break;

                case self::AFTER_DELIMITER:
                    if ($this->buffer === '') {
                        return;
                    }
                    if ($this->buffer[0] === '-') {
                        if (\strlen($this->buffer) < 2) {
                            return;
                        }
                        if ($this->buffer[1] !== '-') {
                            throw new HttpException(400, 'Malformed multipart boundary line');
                        }
                        $this->state = self::EPILOGUE;
                        $this->buffer = '';

                        return;
                    }
                    $this->state = self::DELIMITER_PADDING;
                    break;

                case self::DELIMITER_PADDING:
                    $this->buffer = \ltrim($this->buffer, " \t");
                    if ($this->buffer === '') {
                        return;
                    }
                    if ($this->buffer[0] !== "\r") {
                        throw new HttpException(400, 'Malformed multipart boundary line');
                    }
                    if (\strlen($this->buffer) < 2) {
                        return;
                    }
                    if ($this->buffer[1] !== "\n") {
                        throw new HttpException(400, 'Malformed multipart boundary line');
                    }
                    $this->buffer = \substr($this->buffer, 2);
                    if (++$this->partCount > $this->limits->maxParts) {
                        throw new HttpException(413, \sprintf('Multipart body has more than %d parts', $this->limits->maxParts));
                    }
                    $this->state = self::HEADERS;
                    break;

                case self::HEADERS:
                    // A part may have no headers at all, so its blank line can follow the delimiter line directly.
                    $end = \strpos("\r\n" . $this->buffer, "\r\n\r\n");
                    $max = $this->limits->maxPartHeaderSize;
                    if ($end === false) {
                        if (\strlen($this->buffer) - 3 > $max) {
                            throw new HttpException(400, \sprintf('Multipart part headers exceed %d bytes', $max));
                        }

                        return;
                    }
                    $block = $end === 0 ? '' : \substr($this->buffer, 0, $end - 2);
                    if (\strlen($block) > $max) {
                        throw new HttpException(400, \sprintf('Multipart part headers exceed %d bytes', $max));
                    }
                    $this->buffer = \substr($this->buffer, $end + 2);
                    $this->startPart($block);
                    $this->state = self::BODY;
                    break;

                case self::BODY:
                    $pos = \strpos($this->buffer, $this->delimiter);
                    if ($pos === false) {
                        $length = \strlen($this->buffer);
                        if ($length > $this->lookBehind) {
                            $this->content(\substr($this->buffer, 0, $length - $this->lookBehind));
                            $this->buffer = \substr($this->buffer, $length - $this->lookBehind);
                        }

                        return;
                    }
                    if ($pos > 0) {
                        $this->content(\substr($this->buffer, 0, $pos));
                    }
                    $this->buffer = \substr($this->buffer, $pos + $this->lookBehind + 1);
                    $this->endPart();
                    $this->state = self::AFTER_DELIMITER;
                    break;

                default:
                    $this->buffer = '';

                    return;
            }
        }
    }

    private function startPart(string $block): void
    {
        $headers = PartHeaders::parseHeaders($block);
        $disposition = $headers['content-disposition'] ?? null;
        if ($disposition === null) {
            throw new HttpException(400, 'Multipart part without Content-Disposition header');
        }
        $semicolon = \strpos($disposition, ';');
        $type = \trim($semicolon === false ? $disposition : \substr($disposition, 0, $semicolon), " \t");
        if (\strtolower($type) !== 'form-data') {
            throw new HttpException(400, 'Multipart part Content-Disposition is not form-data');
        }
        $params = $semicolon === false ? [] : PartHeaders::parseParameters(\substr($disposition, $semicolon + 1));
        if ($params === null) {
            throw new HttpException(400, 'Malformed multipart Content-Disposition parameters');
        }
        if (!isset($params['name'])) {
            throw new HttpException(400, 'Multipart Content-Disposition without a name');
        }

        $this->partName = $params['name'];
        $filename = $params['filename'] ?? PartHeaders::decodeExtendedValue($params['filename*'] ?? null);
        if ($filename === null) {
            $this->partKind = self::PART_FIELD;
            $this->fieldValue = '';

            return;
        }

        if ($this->fileCount >= $this->limits->maxFiles) {
            $this->partKind = self::PART_SKIPPED;

            return;
        }
        $this->partKind = self::PART_FILE;
        $this->clientFilename = PartHeaders::basename($filename);
        $this->clientMediaType = $headers['content-type'] ?? null;
        $this->fileSize = 0;
        $this->fileError = \UPLOAD_ERR_OK;
        $this->tmpPath = '';

        if (!PartHeaders::isRepairFreeName($this->partName) || FormNames::parse($this->partName) === null) {
            $this->partKind = self::PART_SKIPPED;

            return;
        }
        if ($filename === '') {
            $this->fileError = \UPLOAD_ERR_NO_FILE;

            return;
        }
        ++$this->fileCount;
        $path = $this->uploads->open();
        if ($path === null) {
            $this->fileError = \UPLOAD_ERR_CANT_WRITE;

            return;
        }
        $this->tempFiles[] = $path;
        $this->tmpPath = $path;
        $this->open = true;
    }

    private function content(string $bytes): void
    {
        if ($this->partKind === self::PART_FIELD) {
            if (\strlen($this->fieldValue) + \strlen($bytes) > $this->limits->maxFieldSize) {
                throw new HttpException(413, \sprintf('Multipart field exceeds %d bytes', $this->limits->maxFieldSize));
            }
            $this->fieldValue .= $bytes;

            return;
        }
        if ($this->partKind !== self::PART_FILE || $this->fileError !== \UPLOAD_ERR_OK || !$this->open) {
            return;
        }
        $length = \strlen($bytes);
        if ($this->fileSize + $length > $this->limits->maxFileSize) {
            $this->discardFile(\UPLOAD_ERR_INI_SIZE);

            return;
        }
        if (!$this->uploads->write($this->tmpPath, $bytes)) {
            $this->discardFile(\UPLOAD_ERR_CANT_WRITE);

            return;
        }
        $this->fileSize += $length;
    }

    private function endPart(): void
    {
        if ($this->partKind === self::PART_FIELD) {
            FormNames::assign($this->fields, $this->partName, $this->fieldValue);
        } elseif ($this->partKind === self::PART_FILE) {
            if ($this->open && !$this->closeHandle()) {
                $this->discardFile(\UPLOAD_ERR_CANT_WRITE);
            }
            $ok = $this->fileError === \UPLOAD_ERR_OK;
            FormNames::assign($this->files, $this->partName, new UploadedFile(
                $ok ? $this->tmpPath : '',
                $ok ? $this->fileSize : 0,
                $this->fileError,
                $this->clientFilename,
                $this->clientMediaType,
            ));
        }
        $this->partKind = self::PART_NONE;
        $this->partName = '';
        $this->fieldValue = '';
        $this->clientFilename = null;
        $this->clientMediaType = null;
        $this->tmpPath = '';
        $this->fileSize = 0;
        $this->fileError = \UPLOAD_ERR_OK;
    }

    /** Gives up on the current file: its temporary file is deleted and the rest of its content ignored. */
    private function discardFile(int $error): void
    {
        $this->closeHandle();
        if ($this->tmpPath !== '') {
            $this->uploads->discard($this->tmpPath);
            $this->tempFiles = \array_values(\array_filter($this->tempFiles, fn (string $p): bool => $p !== $this->tmpPath));
            $this->tmpPath = '';
        }
        $this->fileSize = 0;
        $this->fileError = $error;
    }

    private function closeHandle(): bool
    {
        if (!$this->open) {
            return true;
        }
        $this->open = false;

        return $this->uploads->close($this->tmpPath);
    }
}
