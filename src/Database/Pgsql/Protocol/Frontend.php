<?php

declare(strict_types=1);

namespace Spindle\Database\Pgsql\Protocol;

/**
 * Encodes frontend messages (protocol 3.0). Each method returns the bytes of one message; the
 * caller concatenates what it sends in one write (Parse, Bind, Describe, Execute and Sync of a
 * statement go out together).
 */
final class Frontend
{
    public const PROTOCOL_VERSION = 196608; // 3.0
    private const SSL_REQUEST_CODE = 80877103;
    private const CANCEL_REQUEST_CODE = 80877102;

    private function __construct()
    {
    }

    /** @param array<string, string> $parameters user, database, application_name, client_encoding, options, … */
    public static function startup(array $parameters): string
    {
        $body = pack('N', self::PROTOCOL_VERSION);
        foreach ($parameters as $name => $value) {
            self::checkCString($name, 'parameter name');
            self::checkCString($value, 'parameter ' . $name);
            $body .= $name . "\0" . $value . "\0";
        }
        $body .= "\0";

        return pack('N', \strlen($body) + 4) . $body;
    }

    public static function sslRequest(): string
    {
        return pack('NN', 8, self::SSL_REQUEST_CODE);
    }

    public static function cancelRequest(int $processId, int $secretKey): string
    {
        return pack('NNNN', 16, self::CANCEL_REQUEST_CODE, $processId, $secretKey);
    }

    /** PasswordMessage: a cleartext or md5 password. */
    public static function password(string $password): string
    {
        self::checkCString($password, 'password');

        return self::message('p', $password . "\0");
    }

    public static function saslInitialResponse(string $mechanism, string $data): string
    {
        return self::message('p', $mechanism . "\0" . pack('N', \strlen($data)) . $data);
    }

    public static function saslResponse(string $data): string
    {
        return self::message('p', $data);
    }

    /** Query (simple protocol): one or more statements, text results. */
    public static function query(string $sql): string
    {
        if (str_contains($sql, "\0")) {
            self::checkCString($sql, 'query');
        }

        return 'Q' . pack('N', \strlen($sql) + 5) . $sql . "\0";
    }

    /** @param list<int> $typeOids 0 lets the server infer a parameter's type */
    public static function parse(string $statement, string $sql, array $typeOids = []): string
    {
        // The checks and the framing are written out here and in bind(): they run on every
        // statement, where a call per helper costs more than the message's own bytes.
        if (str_contains($statement, "\0")) {
            self::checkCString($statement, 'statement name');
        }
        if (str_contains($sql, "\0")) {
            self::checkCString($sql, 'query');
        }
        if ($typeOids === []) {
            return 'P' . pack('N', \strlen($statement) + \strlen($sql) + 8) . $statement . "\0" . $sql . "\0\0\0";
        }
        $body = $statement . "\0" . $sql . "\0" . pack('n', \count($typeOids)) . pack('N*', ...$typeOids);

        return 'P' . pack('N', \strlen($body) + 4) . $body;
    }

    /**
     * @param list<string|null> $values       as text (or binary where $formats says 1); null is SQL NULL
     * @param list<int>         $formats      per parameter, or one for all, or none for all text
     * @param list<int>         $resultFormats per column, or one for all, or none for all text
     */
    public static function bind(string $portal, string $statement, array $values, array $formats = [], array $resultFormats = []): string
    {
        if (str_contains($portal, "\0")) {
            self::checkCString($portal, 'portal name');
        }
        if (str_contains($statement, "\0")) {
            self::checkCString($statement, 'statement name');
        }
        $count = \count($values);
        if ($count > 65535) {
            throw new \InvalidArgumentException('A statement takes at most 65535 parameters');
        }
        $body = $portal . "\0" . $statement . "\0" . ($formats === [] ? "\0\0" : pack('n*', \count($formats), ...$formats)) . pack('n', $count);
        foreach ($values as $value) {
            $body .= $value === null ? "\xFF\xFF\xFF\xFF" : pack('N', \strlen($value)) . $value;
        }
        $body .= $resultFormats === [] ? "\0\0" : pack('n*', \count($resultFormats), ...$resultFormats);

        return 'B' . pack('N', \strlen($body) + 4) . $body;
    }

    /**
     * Describe of the unnamed portal, Execute of all its rows and Sync: the end of every
     * extended-protocol statement, as one constant.
     */
    public static function describeExecuteSync(): string
    {
        return "D\0\0\0\6P\0E\0\0\0\x09\0\0\0\0\0S\0\0\0\4";
    }

    /** Execute of all the unnamed portal's rows and Sync, as one constant. */
    public static function executeSync(): string
    {
        return "E\0\0\0\x09\0\0\0\0\0S\0\0\0\4";
    }

    /** @param 'S'|'P' $what a statement or a portal */
    public static function describe(string $what, string $name): string
    {
        self::checkCString($name, 'name');

        return self::message('D', $what . $name . "\0");
    }

    /** @param int $maxRows 0 for all */
    public static function execute(string $portal = '', int $maxRows = 0): string
    {
        self::checkCString($portal, 'portal name');

        return self::message('E', $portal . "\0" . pack('N', $maxRows));
    }

    /** @param 'S'|'P' $what */
    public static function close(string $what, string $name): string
    {
        // Framed in place, as parse() and bind(): a dropped statement closes on every prepare().
        if (str_contains($name, "\0")) {
            self::checkCString($name, 'name');
        }

        return 'C' . pack('N', \strlen($name) + 6) . $what . $name . "\0";
    }

    public static function sync(): string
    {
        return "S\0\0\0\4";
    }

    public static function flush(): string
    {
        return "H\0\0\0\4";
    }

    public static function terminate(): string
    {
        return "X\0\0\0\4";
    }

    public static function copyData(string $data): string
    {
        return self::message('d', $data);
    }

    public static function copyDone(): string
    {
        return "c\0\0\0\4";
    }

    public static function copyFail(string $reason): string
    {
        return self::message('f', str_replace("\0", '', $reason) . "\0");
    }

    private static function message(string $type, string $body): string
    {
        return $type . pack('N', \strlen($body) + 4) . $body;
    }

    private static function checkCString(string $value, string $what): void
    {
        if (str_contains($value, "\0")) {
            throw new \InvalidArgumentException(sprintf('The %s may not contain a NUL byte', $what));
        }
    }
}
