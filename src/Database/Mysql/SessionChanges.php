<?php

declare(strict_types=1);

namespace Spindle\Database\Mysql;

/**
 * Whether a statement may leave something in its session that a new session would not have, read
 * from its text before it runs: what a pooled session's reset can be skipped for
 * (SocketConnection::resetSessionIfChanged()).
 *
 * The server's session tracker (session_track_state_change) reports user variables set by SET or
 * inside a stored function, session variables, the default database, temporary tables and SQL
 * prepared statements, and the status flags an open transaction; the OK packets report an insert
 * id and warnings. None of them reports a named lock (GET_LOCK), LAST_INSERT_ID(expr), a sequence
 * advanced (NEXTVAL, NEXT VALUE FOR), LOCK TABLES, an open HANDLER, SET TRANSACTION, a user
 * variable assigned in a SELECT (`@a := 1`, `INTO @a`), nor what a stored function or a trigger
 * does that the tracker misses (a named lock). So only these statements are taken as changing
 * nothing:
 *
 *  - SELECT, SHOW and DESCRIBE whose function calls are all built-in functions that change no
 *    session state (a stored function, a qualified or quoted name, GET_LOCK, LAST_INSERT_ID(expr),
 *    NEXTVAL… count as a change), without a user variable (`@name`), without INTO, without
 *    NEXT/PREVIOUS VALUE FOR, without an executable comment and with nothing after a `;`;
 *  - BEGIN, START TRANSACTION, COMMIT, ROLLBACK, SAVEPOINT and RELEASE SAVEPOINT (a transaction
 *    left open is seen in the status flags).
 *
 * Everything else counts as a change: SET, USE, DDL, LOCK, HANDLER, CALL, DO, XA, and INSERT,
 * UPDATE, DELETE and REPLACE (a trigger may take a named lock). What stays out of reach of a
 * statement's text is a view it reads (a view may call GET_LOCK or a stored function):
 * SocketConnection::trackSessionChanges() reads every view's definition the same way when the
 * session opens, and tracks nothing if one may change a session or cannot be read.
 *
 * @internal SocketConnection's
 */
final class SessionChanges
{
    /** Classifications kept, by SQL text, before the memo is emptied. */
    private const MEMO_SIZE = 512;
    /**
     * Quoted names (`…`, group 1 the opening backtick), string literals ('…' and "…", quotes
     * doubled inside) and comments (-- and # to the end of the line, /* … *\/ but not the
     * executable /*! … *\/ and /*M! … *\/), read left to right as the server does.
     */
    private const NOISE = '/(`)(?:[^`]|``)*`|\'(?:[^\']|\'\')*\'|"(?:[^"]|"")*"|\/\*(?!M?!)[\s\S]*?\*\/|(?:#|--[ \t\r\n])[^\n]*/';

    /** Built-in functions that change no session state, and keywords that may precede "(". */
    private const HARMLESS = [
        // keywords
        'all' => true, 'and' => true, 'any' => true, 'as' => true, 'between' => true, 'by' => true, 'case' => true,
        'distinct' => true, 'div' => true, 'else' => true, 'escape' => true, 'exists' => true, 'for' => true,
        'force' => true, 'from' => true, 'having' => true, 'ignore' => true, 'in' => true, 'index' => true,
        'interval' => true, 'is' => true, 'join' => true, 'key' => true, 'lateral' => true, 'like' => true,
        'mod' => true, 'not' => true, 'on' => true, 'or' => true, 'over' => true, 'partition' => true,
        'regexp' => true, 'rlike' => true, 'row' => true, 'select' => true, 'some' => true, 'then' => true,
        'union' => true, 'use' => true, 'using' => true, 'values' => true, 'when' => true, 'where' => true,
        'with' => true, 'xor' => true, 'except' => true, 'intersect' => true, 'limit' => true, 'offset' => true,
        'against' => true, 'match' => true, 'natural' => true, 'straight_join' => true, 'asc' => true,
        'desc' => true, 'window' => true, 'order' => true, 'group' => true, 'rows' => true, 'range' => true,
        // aggregate and window functions
        'avg' => true, 'bit_and' => true, 'bit_or' => true, 'bit_xor' => true, 'count' => true,
        'group_concat' => true, 'max' => true, 'min' => true, 'std' => true, 'stddev' => true,
        'stddev_pop' => true, 'stddev_samp' => true, 'sum' => true, 'var_pop' => true, 'var_samp' => true,
        'variance' => true, 'json_arrayagg' => true, 'json_objectagg' => true, 'row_number' => true,
        'rank' => true, 'dense_rank' => true, 'percent_rank' => true, 'cume_dist' => true, 'ntile' => true,
        'lag' => true, 'lead' => true, 'first_value' => true, 'last_value' => true, 'nth_value' => true,
        // control flow, comparison, casts
        'coalesce' => true, 'if' => true, 'ifnull' => true, 'isnull' => true, 'nullif' => true, 'nvl' => true,
        'greatest' => true, 'least' => true, 'cast' => true, 'convert' => true, 'binary' => true,
        'field' => true, 'find_in_set' => true, 'elt' => true, 'strcmp' => true,
        // strings
        'ascii' => true, 'bin' => true, 'bit_length' => true, 'char' => true, 'char_length' => true,
        'character_length' => true, 'concat' => true, 'concat_ws' => true, 'format' => true, 'hex' => true,
        'insert' => true, 'instr' => true, 'lcase' => true, 'left' => true, 'length' => true, 'locate' => true,
        'lower' => true, 'lpad' => true, 'ltrim' => true, 'mid' => true, 'oct' => true, 'octet_length' => true,
        'ord' => true, 'position' => true, 'quote' => true, 'repeat' => true, 'replace' => true,
        'reverse' => true, 'right' => true, 'rpad' => true, 'rtrim' => true, 'soundex' => true, 'space' => true,
        'substr' => true, 'substring' => true, 'substring_index' => true, 'trim' => true, 'ucase' => true,
        'unhex' => true, 'upper' => true, 'regexp_replace' => true, 'regexp_substr' => true,
        'regexp_instr' => true, 'collate' => true, 'weight_string' => true, 'to_base64' => true,
        'from_base64' => true, 'md5' => true, 'sha' => true, 'sha1' => true, 'sha2' => true, 'crc32' => true,
        'uuid' => true, 'uuid_short' => true, 'inet_aton' => true, 'inet_ntoa' => true, 'inet6_aton' => true,
        'inet6_ntoa' => true,
        // numbers
        'abs' => true, 'acos' => true, 'asin' => true, 'atan' => true, 'atan2' => true, 'ceil' => true,
        'ceiling' => true, 'conv' => true, 'cos' => true, 'cot' => true, 'degrees' => true, 'exp' => true,
        'floor' => true, 'ln' => true, 'log' => true, 'log10' => true, 'log2' => true, 'pi' => true,
        'pow' => true, 'power' => true, 'radians' => true, 'rand' => true, 'round' => true, 'sign' => true,
        'sin' => true, 'sqrt' => true, 'tan' => true, 'truncate' => true,
        // dates and times
        'adddate' => true, 'addtime' => true, 'convert_tz' => true, 'curdate' => true, 'current_date' => true,
        'current_time' => true, 'current_timestamp' => true, 'curtime' => true, 'date' => true,
        'date_add' => true, 'date_format' => true, 'date_sub' => true, 'datediff' => true, 'day' => true,
        'dayname' => true, 'dayofmonth' => true, 'dayofweek' => true, 'dayofyear' => true, 'extract' => true,
        'from_days' => true, 'from_unixtime' => true, 'hour' => true, 'last_day' => true, 'localtime' => true,
        'localtimestamp' => true, 'makedate' => true, 'maketime' => true, 'microsecond' => true,
        'minute' => true, 'month' => true, 'monthname' => true, 'now' => true, 'period_add' => true,
        'period_diff' => true, 'quarter' => true, 'sec_to_time' => true, 'second' => true,
        'str_to_date' => true, 'subdate' => true, 'subtime' => true, 'sysdate' => true, 'time' => true,
        'time_format' => true, 'time_to_sec' => true, 'timediff' => true, 'timestamp' => true,
        'timestampadd' => true, 'timestampdiff' => true, 'to_days' => true, 'to_seconds' => true,
        'unix_timestamp' => true, 'utc_date' => true, 'utc_time' => true, 'utc_timestamp' => true,
        'week' => true, 'weekday' => true, 'weekofyear' => true, 'year' => true, 'yearweek' => true,
        // JSON
        'json_array' => true, 'json_array_append' => true, 'json_array_insert' => true, 'json_compact' => true,
        'json_contains' => true, 'json_contains_path' => true, 'json_depth' => true, 'json_detailed' => true,
        'json_exists' => true, 'json_extract' => true, 'json_insert' => true, 'json_keys' => true,
        'json_length' => true, 'json_merge' => true, 'json_merge_patch' => true, 'json_merge_preserve' => true,
        'json_object' => true, 'json_overlaps' => true, 'json_query' => true, 'json_quote' => true,
        'json_remove' => true, 'json_replace' => true, 'json_search' => true, 'json_set' => true,
        'json_table' => true, 'json_type' => true, 'json_unquote' => true, 'json_valid' => true,
        'json_value' => true, 'columns' => true, 'path' => true,
        // types (CAST(x AS DECIMAL(10, 2)))
        'datetime' => true, 'decimal' => true, 'double' => true, 'float' => true, 'int' => true,
        'integer' => true, 'json' => true, 'nchar' => true, 'numeric' => true, 'real' => true,
        'signed' => true, 'unsigned' => true, 'varchar' => true,
        // information that reads the session without changing it
        'charset' => true, 'coercibility' => true, 'collation' => true, 'connection_id' => true,
        'current_role' => true, 'current_user' => true, 'database' => true, 'found_rows' => true,
        'is_free_lock' => true, 'is_used_lock' => true, 'row_count' => true, 'schema' => true,
        'session_user' => true, 'system_user' => true, 'user' => true, 'version' => true,
    ];

    /** @var array<string, bool> */
    private static array $memo = [];

    private function __construct()
    {
    }

    /**
     * Whether $sql may read FOUND_ROWS() or ROW_COUNT(), which answer for the session's previous
     * statement (SocketConnection::firstOfHolder()). A mention in a string or a comment counts too.
     */
    public static function readsLastStatement(string $sql): bool
    {
        return \preg_match('/\b(?:FOUND_ROWS|ROW_COUNT)\s*\(/i', $sql) === 1;
    }

    /** Whether $sql may change its session in a way a new session would not show (see the class). */
    public static function mayChange(string $sql): bool
    {
        $known = self::$memo[$sql] ?? null;
        if ($known !== null) {
            return $known;
        }
        if (\count(self::$memo) >= self::MEMO_SIZE) {
            self::$memo = [];
        }

        return self::$memo[$sql] = self::classify($sql);
    }

    private static function classify(string $sql): bool
    {
        // Whether a backslash escapes depends on NO_BACKSLASH_ESCAPES: such text is not read further.
        if (\str_contains($sql, '\\')) {
            return true;
        }
        // Under ANSI_QUOTES "name"( is a quoted name called as a function: a stored function.
        if (\str_contains($sql, '"') && \preg_match('/"(?:[^"]|"")*"\s*\(/', $sql) === 1) {
            return true;
        }
        // Each quoted name down to one backtick, literals and comments out (an executable
        // comment stays), then system variables (@@name) out.
        $text = \preg_replace(self::NOISE, '$1 ', $sql);
        $text = $text === null ? null : \preg_replace('/@@(?:(?:session|global|local)\.)?[A-Za-z0-9_$]+/i', ' ', $text);
        if ($text === null || \preg_match('/^[\s(]*([A-Za-z]+)/', $text, $first) !== 1) {
            // Nothing but comments (the server answers with an error), or no statement word.
            return true;
        }
        $word = \strtolower($first[1]);
        $rest = \substr($text, \strlen($first[0]));
        if (!self::startsHarmlessStatement($word, $rest, 0)) {
            return true;
        }
        if (self::isTransactionControl($word)) {
            return false;
        }
        // A user variable, an unclosed literal or comment, an executable comment, a second
        // statement, a quoted name called as a function (a stored function).
        if (\preg_match('/[@\'"]|\/\*|;\s*\S|`\s*\(/', $text) === 1) {
            return true;
        }
        if (\preg_match('/\b(?:into|setval|nextval|lastval)\b|\b(?:next|previous)\s+value\b/i', $text) === 1) {
            return true;
        }
        if (\preg_match_all('/(\.\s*)?\b([A-Za-z_$\x80-\xff][A-Za-z0-9_$\x80-\xff]*)\s*\((\s*\))?/', $text, $calls, \PREG_SET_ORDER) > 0) {
            foreach ($calls as $call) {
                $name = \strtolower($call[2]);
                // A qualified name (db.f) is a stored function; so is any unknown name.
                // LAST_INSERT_ID() reads; LAST_INSERT_ID(expr) sets.
                if ($call[1] !== '' || (!isset(self::HARMLESS[$name]) && !($name === 'last_insert_id' && ($call[3] ?? '') !== ''))) {
                    return true;
                }
            }
        }

        return false;
    }

    /** Whether a statement that begins with $word may change nothing (read further). */
    private static function startsHarmlessStatement(string $word, string $sql, int $offset): bool
    {
        return match ($word) {
            'select', 'show', 'describe', 'desc', 'begin', 'commit', 'rollback', 'savepoint' => true,
            'start' => self::nextWord($sql, $offset) === 'transaction',
            'release' => self::nextWord($sql, $offset) === 'savepoint',
            default => false,
        };
    }

    private static function isTransactionControl(string $word): bool
    {
        return match ($word) {
            'begin', 'start', 'commit', 'rollback', 'savepoint', 'release' => true,
            default => false,
        };
    }

    private static function nextWord(string $sql, int $offset): string
    {
        return \preg_match('/\G\s*([A-Za-z_]+)/', $sql, $match, 0, $offset) === 1 ? \strtolower($match[1]) : '';
    }
}
