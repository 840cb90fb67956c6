<?php

declare(strict_types=1);

/*
 * Where Spindle\Database\Pdo spends a query, layer by layer, for the queries of
 * benchmarks/mysql-query.php (emulated prepares; the binary protocol's row decoding too):
 *
 *   round trip      a blocking socket that sends the query and reads the whole answer without
 *                   decoding it: the server and the network, the floor for any client
 *   connection      SocketConnection::query() in a fiber: I/O through the event loop + decoding
 *   codec           the captured answer pushed again through a session in phase Ready
 *                   (ClientProtocol), no I/O; split into packet framing (PacketReader), column
 *                   definitions and row decoding (RowDecoder)
 *   Pdo layer       Spindle\Database\Pdo prepare + execute + fetch over an in-memory Connection
 *                   that returns the decoded Result at once: the PDO emulation alone
 *   native / Spindle the whole prepare + execute + fetch, as in mysql-query.php
 *
 * A second table times what-if prototypes defined here (not Spindle's code) on the same bytes:
 * the decoding and fetching done the cheaper ways the numbers suggest, checked to give the same
 * rows. A third does the binary protocol (native prepares).
 *
 *   php [-d opcache.enable_cli=1 -d opcache.jit=tracing -d opcache.jit_buffer_size=64M] benchmarks/mysql-profile.php [layers [CASE]]
 *   php -d extension=excimer benchmarks/mysql-profile.php excimer [CASE]   # PHP functions by self CPU time (sampled)
 *
 * CASE: point, rows20 or rows1000. Excimer: apt-get install php-excimer (phpdismod excimer keeps it
 * out of other runs; -d extension=excimer loads it for this one).
 *
 * It creates (and drops) the table bench_profile with the same 10,000 rows as mysql-query.php.
 */

require __DIR__ . '/../vendor/autoload.php';

use Revolt\EventLoop;
use Spindle\Database\Mysql\Connection;
use Spindle\Database\Mysql\ConnectionConfig;
use Spindle\Database\Mysql\PreparedStatement;
use Spindle\Database\Mysql\Protocol\ClientProtocol;
use Spindle\Database\Mysql\Protocol\PacketReader;
use Spindle\Database\Mysql\Protocol\Phase;
use Spindle\Database\Mysql\Protocol\RowDecoder;
use Spindle\Database\Mysql\Result;
use Spindle\Database\Mysql\SocketConnection;
use Spindle\Database\Pdo as SpindlePdo;

/** @return array<string, string> */
function profileEnv(): array
{
    $file = (getenv('SPINDLE_MYSQL_DIR') ?: '/tmp/spindle-mariadb') . '/env';
    $env = [];
    foreach (@file($file, FILE_IGNORE_NEW_LINES | FILE_SKIP_EMPTY_LINES) ?: [] as $line) {
        if (preg_match('/^(?:export\s+)?([A-Z_]+)=(.*)$/', $line, $m) === 1) {
            $env[$m[1]] = $m[2];
        }
    }
    foreach (['MYSQL_HOST', 'MYSQL_PORT', 'MYSQL_USER', 'MYSQL_PASSWORD', 'MYSQL_DATABASE'] as $key) {
        $env[$key] = getenv($key) ?: ($env[$key] ?? null) ?? throw new RuntimeException("$key unknown: run scripts/mariadb first");
    }

    return $env;
}

function inFiber(Closure $work): mixed
{
    $result = null;
    EventLoop::queue(static function () use ($work, &$result): void {
        $result = $work();
    });
    EventLoop::run();

    return $result;
}

/** µs per call of $work, best of $rounds runs of $n calls (in a fiber). */
function timeIt(int $n, Closure $work, int $rounds = 3): float
{
    return inFiber(static function () use ($n, $work, $rounds): float {
        for ($i = 0, $warm = max(1, intdiv($n, 10)); $i < $warm; ++$i) {
            $work($i);
        }
        $best = INF;
        for ($r = 0; $r < $rounds; ++$r) {
            $started = hrtime(true);
            for ($i = 0; $i < $n; ++$i) {
                $work($i);
            }
            $best = min($best, (hrtime(true) - $started) / $n / 1000);
        }

        return $best;
    });
}

/**
 * A session on a plain blocking socket, driven by the sans-I/O ClientProtocol: used to capture
 * the server's exact answer bytes and to time the bare round trip.
 */
final class RawSession
{
    /** @var resource */
    public $socket;
    public ClientProtocol $protocol;

    public function __construct(ConnectionConfig $config)
    {
        $socket = stream_socket_client("tcp://{$config->host}:{$config->port}", $errno, $error, 5.0);
        if ($socket === false) {
            throw new RuntimeException("connect: $error");
        }
        stream_set_read_buffer($socket, 0);
        $this->socket = $socket;
        $this->protocol = new ClientProtocol($config);
        while (true) {
            fwrite($this->socket, $this->protocol->takeOutgoing());
            if ($this->protocol->phase() === Phase::Ready) {
                $this->protocol->takeOutcome();
                break;
            }
            $this->protocol->push((string) fread($this->socket, 65536));
        }
    }

    /**
     * Sends a command and returns the raw bytes of its whole answer and the decoded outcome.
     *
     * @return array{string, mixed}
     */
    public function capture(Closure $start): array
    {
        $start($this->protocol);
        fwrite($this->socket, $this->protocol->takeOutgoing());
        $bytes = '';
        while (($outcome = $this->protocol->takeOutcome()) === null) {
            $chunk = (string) fread($this->socket, 262144);
            $bytes .= $chunk;
            $this->protocol->push($chunk);
        }

        return [$bytes, $outcome];
    }

    /** The bare round trip: send the query, read until the answer's length is there, decode nothing. */
    public function roundTrip(string $request, int $answerLength): void
    {
        fwrite($this->socket, $request);
        $read = 0;
        while ($read < $answerLength) {
            $read += \strlen((string) fread($this->socket, 262144));
        }
    }
}

/** A Connection that answers every query with one ready Result (no I/O, no decoding). */
final class ReadyConnection implements Connection
{
    public function __construct(private readonly Result $result)
    {
    }

    public function query(string $sql): array
    {
        return [$this->result];
    }

    public function prepare(string $sql): PreparedStatement
    {
        return new PreparedStatement(1, $sql, [], $this->result->columns);
    }

    public function execute(PreparedStatement $statement, array $params): array
    {
        return [$this->result];
    }

    public function closeStatement(PreparedStatement $statement): void
    {
    }

    public function ping(): void
    {
    }

    public function serverVersion(): string
    {
        return '10.11.6-MariaDB';
    }

    public function connectionId(): int
    {
        return 1;
    }

    public function statusFlags(): int
    {
        return 2;
    }

    public function isBroken(): bool
    {
        return false;
    }

    public function close(): void
    {
    }
}

/**
 * What-if prototype (not Spindle's code): a text row decoded in one function, the
 * length-encoded strings read inline from the payload, with each column's kind worked out once
 * per result (0 string, 1 integer, 2 float, 3 NULL type) instead of per value. Integers take a
 * fast path when the text is canonical and fall back to RowDecoder's rules otherwise.
 *
 * @param list<int> $kinds
 *
 * @return list<int|float|string|null>
 */
function prototypeTextRow(string $p, array $kinds): array
{
    $row = [];
    $o = 0;
    $end = \strlen($p);
    foreach ($kinds as $kind) {
        if ($o >= $end) {
            throw new RuntimeException('malformed: row shorter than its columns');
        }
        $b = \ord($p[$o]);
        if ($b < 0xFB) {
            $length = $b;
            ++$o;
        } elseif ($b === 0xFB) {
            $row[] = null;
            ++$o;
            continue;
        } elseif ($b === 0xFC) {
            $length = \ord($p[$o + 1]) | (\ord($p[$o + 2]) << 8);
            $o += 3;
        } elseif ($b === 0xFD) {
            $length = \ord($p[$o + 1]) | (\ord($p[$o + 2]) << 8) | (\ord($p[$o + 3]) << 16);
            $o += 4;
        } else {
            $length = unpack('P', $p, $o + 1)[1];
            $o += 9;
        }
        if ($o + $length > $end) {
            throw new RuntimeException('malformed: value past the end of the row');
        }
        $v = substr($p, $o, $length);
        $o += $length;
        if ($kind === 0) {
            $row[] = $v;
        } elseif ($kind === 1) {
            $i = (int) $v;
            $row[] = (string) $i === $v ? $i : (preg_match('/^-?[0-9]{1,18}$/D', $v) === 1 ? $i : $v);
        } elseif ($kind === 2) {
            $row[] = is_numeric($v) ? (float) $v : $v;
        } else {
            $row[] = null;
        }
    }
    if ($o !== $end) {
        throw new RuntimeException('malformed: row longer than its columns');
    }

    return $row;
}

/**
 * What-if prototype (not Spindle's code): a whole text result (DEPRECATE_EOF) decoded in one loop:
 * packet headers read inline, column definitions cached by their bytes, rows through
 * prototypeTextRow(). No multi-packet payloads, no errors: only to show what the work costs.
 *
 * @param array<string, Spindle\Database\Mysql\ColumnDefinition> $definitions the cache
 *
 * @return list<list<int|float|string|null>>
 */
function prototypeTextResult(string $answer, array &$definitions): array
{
    $o = 0;
    $sequence = 1;
    $next = static function () use ($answer, &$o, &$sequence): string {
        $length = \ord($answer[$o]) | (\ord($answer[$o + 1]) << 8) | (\ord($answer[$o + 2]) << 16);
        if (\ord($answer[$o + 3]) !== $sequence) {
            throw new RuntimeException('malformed: sequence');
        }
        $sequence = ($sequence + 1) & 0xFF;
        $payload = substr($answer, $o + 4, $length);
        $o += 4 + $length;

        return $payload;
    };
    $count = \ord($next());
    $columns = [];
    for ($i = 0; $i < $count; ++$i) {
        $payload = $next();
        $columns[] = $definitions[$payload] ??= RowDecoder::columnDefinition($payload);
    }
    $kinds = prototypeKinds($columns);
    $rows = [];
    while (true) {
        $payload = $next();
        if ($payload[0] === "\xFE" && \strlen($payload) < 0xFFFFFF) {
            return $rows;
        }
        $rows[] = prototypeTextRow($payload, $kinds);
    }
}

/**
 * @param list<Spindle\Database\Mysql\ColumnDefinition> $columns
 *
 * @return list<int>
 */
function prototypeKinds(array $columns): array
{
    return array_map(static function (Spindle\Database\Mysql\ColumnDefinition $c): int {
        $type = Spindle\Database\Mysql\Protocol\ColumnType::tryFrom($c->type);

        return match (true) {
            $type === null => 0,
            $type->isInteger() => 1,
            $type->isFloat() => 2,
            $type === Spindle\Database\Mysql\Protocol\ColumnType::Null => 3,
            default => 0,
        };
    }, $columns);
}

$env = profileEnv();
$config = new ConnectionConfig(
    host: $env['MYSQL_HOST'],
    port: (int) $env['MYSQL_PORT'],
    user: $env['MYSQL_USER'],
    password: $env['MYSQL_PASSWORD'],
    database: $env['MYSQL_DATABASE'],
);
$dsn = sprintf('mysql:host=%s;port=%d;dbname=%s;charset=utf8mb4', $env['MYSQL_HOST'], (int) $env['MYSQL_PORT'], $env['MYSQL_DATABASE']);
$native = new PDO($dsn, $env['MYSQL_USER'], $env['MYSQL_PASSWORD'], [PDO::ATTR_ERRMODE => PDO::ERRMODE_EXCEPTION]);
$spindle = inFiber(static fn (): SpindlePdo => new SpindlePdo($dsn, $env['MYSQL_USER'], $env['MYSQL_PASSWORD'], [PDO::ATTR_ERRMODE => PDO::ERRMODE_EXCEPTION]));

$native->exec('DROP TABLE IF EXISTS bench_profile');
$native->exec('CREATE TABLE bench_profile (
    id INT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY, name VARCHAR(64) NOT NULL, email VARCHAR(128) NOT NULL,
    score INT NOT NULL, balance DECIMAL(12,2) NOT NULL, ratio DOUBLE NOT NULL, active TINYINT(1) NOT NULL,
    created_at DATETIME NOT NULL, note VARCHAR(255) NULL) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4');
mt_srand(42);
for ($start = 1; $start <= 10000; $start += 500) {
    $values = [];
    for ($id = $start; $id < $start + 500; ++$id) {
        $values[] = sprintf(
            "('user %d', 'user%d@example.com', %d, %d.%02d, %F, %d, '2024-%02d-%02d 12:%02d:%02d', %s)",
            $id, $id, mt_rand(0, 1000000), mt_rand(0, 99999), mt_rand(0, 99), mt_rand() / mt_getrandmax(), $id % 2,
            $id % 12 + 1, $id % 28 + 1, $id % 60, ($id * 7) % 60,
            $id % 5 === 0 ? 'NULL' : "'a note about user $id, long enough to look like a real column'",
        );
    }
    $native->exec('INSERT INTO bench_profile (name, email, score, balance, ratio, active, created_at, note) VALUES ' . implode(',', $values));
}

$cases = [
    'point' => ['SELECT * FROM bench_profile WHERE id = ?', [4242], 3000, false],
    'rows20' => ['SELECT * FROM bench_profile WHERE id BETWEEN ? AND ?', [4242, 4261], 2000, true],
    'rows1000' => ['SELECT * FROM bench_profile WHERE id BETWEEN ? AND ?', [4242, 5241], 200, true],
];
$mode = $argv[1] ?? 'layers';
if (isset($argv[2])) {
    $cases = array_intersect_key($cases, [$argv[2] => true]);
}

if ($mode === 'excimer') {
    if (!class_exists(ExcimerProfiler::class)) {
        fwrite(STDERR, "excimer is not loaded: apt-get install php-excimer, then php -d extension=excimer ...\n");
        exit(1);
    }
    foreach ($cases as $name => [$sql, $params, $n, $all]) {
        $profiler = new ExcimerProfiler();
        $profiler->setPeriod(0.0001);
        $profiler->setEventType(EXCIMER_CPU);
        $run = static function () use ($spindle, $sql, $params, $all): void {
            $statement = $spindle->prepare($sql);
            $statement->execute($params);
            $all ? $statement->fetchAll(PDO::FETCH_ASSOC) : $statement->fetch(PDO::FETCH_ASSOC);
        };
        inFiber(static function () use ($run, $n, $profiler): void {
            for ($i = 0; $i < $n; ++$i) {
                $run();
            }
            $profiler->start();
            for ($i = 0; $i < $n * 3; ++$i) {
                $run();
            }
            $profiler->stop();
        });
        $byFunction = $profiler->getLog()->aggregateByFunction();
        $total = array_sum(array_column($byFunction, 'self'));
        uasort($byFunction, static fn (array $a, array $b): int => $b['self'] <=> $a['self']);
        printf("\n%s: %d CPU samples; functions by self time (inclusive in brackets)\n", $name, $total);
        foreach (array_slice($byFunction, 0, 25, true) as $function => $counts) {
            printf("  %5.1f%%  (%5.1f%%)  %s\n", 100 * $counts['self'] / $total, 100 * $counts['inclusive'] / $total, $function);
        }
    }
    $native->exec('DROP TABLE IF EXISTS bench_profile');
    exit(0);
}

$jit = function_exists('opcache_get_status') ? (opcache_get_status(false) ?: []) : [];
printf("PHP %s, JIT %s\n\n", PHP_VERSION, ($jit['jit']['on'] ?? false) ? 'on' : 'off');
$raw = new RawSession($config);
$connection = inFiber(static fn (): SocketConnection => SocketConnection::connect($config));
$rows = [];
foreach ($cases as $name => [$sql, $params, $n, $all]) {
    $text = str_replace('?', '%d', $sql);
    $literal = vsprintf($text, $params);

    // The exact answer bytes, and the request bytes for the bare round trip.
    [$answer] = $raw->capture(static fn (ClientProtocol $p) => $p->query($literal));
    $request = (static function () use ($literal): string {
        $payload = "\x03" . $literal;

        return PacketReader::frame($payload, 0)[0];
    })();

    $row = ['case' => $name, 'bytes' => strlen($answer)];
    $row['round trip'] = timeIt($n, static fn () => $raw->roundTrip($request, strlen($answer)));
    $row['connection'] = timeIt($n, static fn () => $connection->query($literal));

    // Codec: the captured bytes through a session in phase Ready (the raw session's protocol).
    $protocol = $raw->protocol;
    $row['codec'] = timeIt($n, static function () use ($protocol, $literal, $answer): void {
        $protocol->query($literal);
        $protocol->takeOutgoing();
        $protocol->push($answer);
        $protocol->takeOutcome();
    });
    $row['framing'] = timeIt($n, static function () use ($answer): void {
        $reader = new PacketReader();
        $reader->setSequence(1);
        $reader->push($answer);
        while ($reader->next() !== null) {
        }
    });
    // Row decoding alone: the row payloads of the answer through RowDecoder::textRow().
    $reader = new PacketReader();
    $reader->setSequence(1);
    $reader->push($answer);
    $payloads = [];
    while (($payload = $reader->next()) !== null) {
        $payloads[] = $payload;
    }
    $result = $connection->query($literal)[0];
    $columnCount = count($result->columns);
    $rowPayloads = array_slice($payloads, 1 + $columnCount, count($result->rows));
    $columns = $result->columns;
    $row['row decoding'] = timeIt($n, static function () use ($rowPayloads, $columns): void {
        foreach ($rowPayloads as $payload) {
            RowDecoder::textRow($payload, $columns);
        }
    });
    $row['column defs'] = timeIt($n, static function () use ($payloads, $columnCount): void {
        for ($i = 1; $i <= $columnCount; ++$i) {
            RowDecoder::columnDefinition($payloads[$i]);
        }
    });

    // What-if prototypes: the same work done the cheaper ways the report suggests.
    $kinds = prototypeKinds($columns);
    foreach ($rowPayloads as $payload) {
        if (prototypeTextRow($payload, $kinds) !== RowDecoder::textRow($payload, $columns)) {
            throw new RuntimeException('prototypeTextRow disagrees with RowDecoder::textRow');
        }
    }
    $row['proto rows'] = timeIt($n, static function () use ($rowPayloads, $kinds): void {
        foreach ($rowPayloads as $payload) {
            prototypeTextRow($payload, $kinds);
        }
    });
    $definitionCache = [];
    $row['proto defs'] = timeIt($n, static function () use ($payloads, $columnCount, &$definitionCache): void {
        for ($i = 1; $i <= $columnCount; ++$i) {
            $definitionCache[$payloads[$i]] ??= RowDecoder::columnDefinition($payloads[$i]);
        }
    });
    $definitionCache = [];
    if (prototypeTextResult($answer, $definitionCache) !== $result->rows) {
        throw new RuntimeException('prototypeTextResult disagrees with ClientProtocol');
    }
    $row['proto codec'] = timeIt($n, static function () use ($answer, &$definitionCache): void {
        prototypeTextResult($answer, $definitionCache);
    });
    $names = array_map(static fn ($c): string => $c->name, $columns);
    $decodedRows = $result->rows;
    $row['proto fetch'] = timeIt($n, static function () use ($names, $decodedRows, $all): void {
        $out = [];
        foreach ($decodedRows as $r) {
            $out[] = array_combine($names, $r);
            if (!$all) {
                break;
            }
        }
    });

    // The Pdo layer alone, over a Connection that hands back the decoded Result at once.
    $pdo = SpindlePdo::fromConnection(new ReadyConnection($result), [PDO::ATTR_ERRMODE => PDO::ERRMODE_EXCEPTION]);
    $pdoRun = static function (PDO $pdo) use ($sql, $params, $all): void {
        $statement = $pdo->prepare($sql);
        $statement->execute($params);
        $all ? $statement->fetchAll(PDO::FETCH_ASSOC) : $statement->fetch(PDO::FETCH_ASSOC);
    };
    $row['Pdo layer'] = timeIt($n, static fn () => $pdoRun($pdo));
    $row['native'] = timeIt($n, static fn () => $pdoRun($native));
    $row['Spindle'] = timeIt($n, static fn () => $pdoRun($spindle));

    // Binary protocol (native prepares): the captured COM_STMT_EXECUTE answer through the
    // session, and its rows through RowDecoder::binaryRow().
    [, $prepared] = $raw->capture(static fn (ClientProtocol $p) => $p->prepare($sql));
    [$binaryAnswer] = $raw->capture(static fn (ClientProtocol $p) => $p->execute($prepared, $params));
    $row['binary codec'] = timeIt($n, static function () use ($protocol, $prepared, $params, $binaryAnswer): void {
        $protocol->execute($prepared, $params);
        $protocol->takeOutgoing();
        $protocol->push($binaryAnswer);
        $protocol->takeOutcome();
    });
    $reader = new PacketReader();
    $reader->setSequence(1);
    $reader->push($binaryAnswer);
    $binaryPayloads = [];
    while (($payload = $reader->next()) !== null) {
        $binaryPayloads[] = $payload;
    }
    $binaryRows = array_slice($binaryPayloads, 1 + $columnCount, count($result->rows));
    $binaryColumns = $prepared->columns;
    $row['binary rows'] = timeIt($n, static function () use ($binaryRows, $binaryColumns): void {
        foreach ($binaryRows as $payload) {
            RowDecoder::binaryRow($payload, $binaryColumns);
        }
    });
    $nativePrepared = new PDO($dsn, $env['MYSQL_USER'], $env['MYSQL_PASSWORD'], [PDO::ATTR_ERRMODE => PDO::ERRMODE_EXCEPTION, PDO::ATTR_EMULATE_PREPARES => false]);
    $spindlePrepared = inFiber(static fn (): SpindlePdo => new SpindlePdo($dsn, $env['MYSQL_USER'], $env['MYSQL_PASSWORD'], [PDO::ATTR_ERRMODE => PDO::ERRMODE_EXCEPTION, PDO::ATTR_EMULATE_PREPARES => false]));
    $row['native prep.'] = timeIt($n, static fn () => $pdoRun($nativePrepared));
    $row['Spindle prep.'] = timeIt($n, static fn () => $pdoRun($spindlePrepared));
    // COM_STMT_CLOSE has no answer: a ping after it gives capture() one to wait for.
    $raw->capture(static function (ClientProtocol $p) use ($prepared): void {
        $p->closeStatement($prepared->id);
        $p->ping();
    });
    $rows[] = $row;
}

$table = static function (array $rows, array $columns, Closure $extra, string $extraHeader): void {
    echo '| ' . implode(' | ', $columns) . " | $extraHeader |\n";
    echo '|' . str_repeat(' ---: |', count($columns) + 1) . "\n";
    foreach ($rows as $row) {
        $cells = [];
        foreach ($columns as $column) {
            $cells[] = is_float($row[$column]) ? sprintf('%.1f', $row[$column]) : (string) $row[$column];
        }
        $cells[] = $extra($row);
        echo '| ' . implode(' | ', $cells) . " |\n";
    }
    echo "\n";
};
echo "Text protocol (emulated prepares), µs per query:\n\n";
$table($rows, ['case', 'bytes', 'round trip', 'connection', 'codec', 'framing', 'column defs', 'row decoding', 'Pdo layer', 'native', 'Spindle'],
    static fn (array $r): string => sprintf(
        '%.0f = codec %.0f + Pdo %.0f + I/O %.0f - native decode %.0f',
        $r['Spindle'] - $r['native'], $r['codec'], $r['Pdo layer'], $r['connection'] - $r['codec'] - $r['round trip'],
        $r['native'] - $r['round trip'],
    ), 'Spindle - native');
echo "What-if prototypes in this script (not Spindle's code), µs per query, against the current code:\n\n";
$table($rows, ['case', 'codec', 'proto codec', 'row decoding', 'proto rows', 'column defs', 'proto defs', 'Pdo layer', 'proto fetch'],
    static fn (array $r): string => sprintf('%.0f', $r['codec'] - $r['proto codec'] + $r['Pdo layer'] - $r['proto fetch']), 'codec + Pdo saved (upper bound)');
echo "proto codec: the whole answer in one loop (prototypeTextResult(): inline packet headers, cached definitions, prototypeTextRow()).\n";
echo "proto rows: prototypeTextRow() (one function, inline length-encoded reads, column kinds per result).\n";
echo "proto defs: column definitions cached by their packet bytes. proto fetch: FETCH_ASSOC rows as array_combine(names, row),\n";
echo "the fast path when no bound columns, CASE, ORACLE_NULLS, STRINGIFY or BIT/ZEROFILL adjustment apply (not the whole Pdo layer).\n\n";
echo "Binary protocol (native prepares: prepare + execute + close per query), µs per query:\n\n";
$table($rows, ['case', 'binary codec', 'binary rows', 'native prep.', 'Spindle prep.'],
    static fn (array $r): string => sprintf('%.2fx', $r['Spindle prep.'] / $r['native prep.']), 'ratio');
echo "round trip: blocking socket, answer read but not decoded (server + network). connection: SocketConnection::query()\n";
echo "in a fiber. codec: the captured answer through ClientProtocol (framing + column defs + row decoding + results).\n";
echo "I/O = connection - codec - round trip: the event-loop overhead of waiting for the socket. native decode = native - round trip\n";
echo "(mysqlnd's and PDO's C code, plus the prepare).\n";
$native->exec('DROP TABLE IF EXISTS bench_profile');
