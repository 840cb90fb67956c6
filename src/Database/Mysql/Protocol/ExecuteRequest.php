<?php

declare(strict_types=1);

namespace Spindle\Database\Mysql\Protocol;

use Spindle\Database\Mysql\Blob;
use Spindle\Database\Mysql\MysqlException;

/**
 * Builds COM_STMT_EXECUTE: no cursor, one iteration, the NULL bitmap, new-params-bound = 1,
 * the types and the values. null → NULL bit, bool → TINY, int → LONGLONG, float → DOUBLE,
 * string → VAR_STRING, Blob → LONG_BLOB.
 */
final class ExecuteRequest
{
    private function __construct()
    {
    }

    /**
     * @param list<mixed> $params
     *
     * @throws MysqlException 2031 when the count is wrong, 2036 for an unsupported value
     */
    public static function build(int $statementId, int $paramCount, array $params): string
    {
        if (\count($params) !== $paramCount) {
            throw new MysqlException(
                sprintf('The statement has %d parameter(s) but %d value(s) were given', $paramCount, \count($params)),
                Errors::PARAMS_NOT_BOUND,
            );
        }
        $payload = \chr(Command::StmtExecute->value) . Buffer::writeInt4($statementId) . "\x00" . Buffer::writeInt4(1);
        if ($paramCount === 0) {
            return $payload;
        }
        $bitmap = str_repeat("\0", intdiv($paramCount + 7, 8));
        $types = '';
        $values = '';
        foreach (array_values($params) as $i => $value) {
            [$type, $bytes] = match (true) {
                $value === null => [ColumnType::Null, ''],
                \is_bool($value) => [ColumnType::Tiny, $value ? "\x01" : "\x00"],
                \is_int($value) => [ColumnType::LongLong, Buffer::writeInt8($value)],
                \is_float($value) => [ColumnType::Double, pack('e', $value)],
                \is_string($value) => [ColumnType::VarString, Buffer::writeLenencString($value)],
                $value instanceof Blob => [ColumnType::LongBlob, Buffer::writeLenencString($value->bytes)],
                default => throw new MysqlException(
                    sprintf('Unsupported parameter type %s at position %d', get_debug_type($value), $i),
                    Errors::UNSUPPORTED_PARAM_TYPE,
                ),
            };
            if ($value === null) {
                $bitmap[$i >> 3] = \chr(\ord($bitmap[$i >> 3]) | (1 << ($i & 7)));
            }
            $types .= \chr($type->value) . "\x00";
            $values .= $bytes;
        }

        return $payload . $bitmap . "\x01" . $types . $values;
    }
}
