<?php

declare(strict_types=1);

namespace Spindle\Tests\Integration\Doctrine;

use Doctrine\DBAL\ArrayParameterType;
use Doctrine\DBAL\Connection;
use Doctrine\DBAL\Driver\Exception\NoIdentityValue;
use Doctrine\DBAL\Exception\DriverException;
use Doctrine\DBAL\ParameterType;
use Doctrine\DBAL\Types\Types;

/** Queries through DBAL, with emulated and with server-side prepares. */
final class QueryTest extends DoctrineTestCase
{
    protected array $tables = ['doctrine_posts'];

    /** @return iterable<string, array{bool}> */
    public static function prepares(): iterable
    {
        yield 'emulated prepares' => [true];
        yield 'native prepares' => [false];
    }

    private function posts(bool $emulate): Connection
    {
        $db = $this->dbal(['driverOptions' => [\PDO::ATTR_EMULATE_PREPARES => $emulate]]);
        $db->executeStatement(<<<'SQL'
            CREATE TABLE doctrine_posts (
                id INT AUTO_INCREMENT PRIMARY KEY,
                title VARCHAR(200) NOT NULL,
                views INT NOT NULL DEFAULT 0,
                summary TEXT NULL,
                published TINYINT(1) NOT NULL DEFAULT 0,
                created_at DATETIME NULL,
                body LONGBLOB NULL
            ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4
            SQL);

        return $db;
    }

    /** @dataProvider prepares */
    public function testCrudWithTheQueryBuilder(bool $emulate): void
    {
        $db = $this->posts($emulate);

        $inserted = $db->createQueryBuilder()
            ->insert('doctrine_posts')
            ->values(['title' => ':title', 'views' => ':views'])
            ->setParameter('title', 'Hello, wörld')
            ->setParameter('views', 3, ParameterType::INTEGER)
            ->executeStatement();
        self::assertSame(1, $inserted);
        $id = (int) $db->lastInsertId();
        self::assertGreaterThan(0, $id);
        $db->insert('doctrine_posts', ['title' => 'Second', 'views' => 10]);
        self::assertSame($id + 1, (int) $db->lastInsertId());

        $updated = $db->createQueryBuilder()
            ->update('doctrine_posts')
            ->set('views', 'views + 1')
            ->where('id = :id')
            ->setParameter('id', $id, ParameterType::INTEGER)
            ->executeStatement();
        self::assertSame(1, $updated);

        $rows = $db->createQueryBuilder()
            ->select('id', 'title', 'views')
            ->from('doctrine_posts')
            ->where('views > :min')
            ->orderBy('id')
            ->setParameter('min', 0, ParameterType::INTEGER)
            ->executeQuery()
            ->fetchAllAssociative();
        self::assertSame([
            ['id' => $id, 'title' => 'Hello, wörld', 'views' => 4],
            ['id' => $id + 1, 'title' => 'Second', 'views' => 10],
        ], $rows);

        $in = $db->fetchFirstColumn(
            'SELECT title FROM doctrine_posts WHERE id IN (?) ORDER BY id',
            [[$id, $id + 1]],
            [ArrayParameterType::INTEGER],
        );
        self::assertSame(['Hello, wörld', 'Second'], $in);

        $deleted = $db->createQueryBuilder()
            ->delete('doctrine_posts')
            ->where('id = ?')
            ->setParameter(0, $id, ParameterType::INTEGER)
            ->executeStatement();
        self::assertSame(1, $deleted);
        self::assertSame(1, $db->fetchOne('SELECT COUNT(*) FROM doctrine_posts'));
    }

    /** @dataProvider prepares */
    public function testTypedParametersRoundTrip(bool $emulate): void
    {
        $db = $this->posts($emulate);
        $created = new \DateTimeImmutable('2024-02-29 13:14:15');

        $db->insert('doctrine_posts', [
            'title' => "It's \"quoted\" \\ and ? and :name",
            'views' => 42,
            'summary' => null,
            'published' => true,
            'created_at' => $created,
        ], [
            'title' => Types::STRING,
            'views' => Types::INTEGER,
            'summary' => Types::TEXT,
            'published' => Types::BOOLEAN,
            'created_at' => Types::DATETIME_IMMUTABLE,
        ]);
        $id = (int) $db->lastInsertId();

        $row = $db->fetchAssociative('SELECT title, views, summary, published, created_at FROM doctrine_posts WHERE id = ?', [$id], [ParameterType::INTEGER]);
        self::assertIsArray($row);
        self::assertSame("It's \"quoted\" \\ and ? and :name", $row['title']);
        self::assertSame(42, $row['views']);
        self::assertNull($row['summary']);
        self::assertSame(1, $row['published']);
        self::assertTrue($db->convertToPHPValue($row['published'], Types::BOOLEAN));
        self::assertSame('2024-02-29 13:14:15', $row['created_at']);
        self::assertEquals($created, $db->convertToPHPValue($row['created_at'], Types::DATETIME_IMMUTABLE));

        // A null bound where a value may be null, a false boolean, and a date in a condition.
        self::assertSame(0, $db->executeStatement('UPDATE doctrine_posts SET views = 0 WHERE summary = ?', [null]));
        self::assertSame(1, $db->executeStatement(
            'UPDATE doctrine_posts SET published = ?, summary = ? WHERE created_at = ?',
            [false, null, $created],
            [Types::BOOLEAN, Types::TEXT, Types::DATETIME_IMMUTABLE],
        ));
        self::assertSame([0, null], $db->fetchNumeric('SELECT published, summary FROM doctrine_posts WHERE id = ?', [$id]));
    }

    /** @dataProvider prepares */
    public function testLargeObjectsFromStringsAndStreams(bool $emulate): void
    {
        $db = $this->posts($emulate);
        $bytes = random_bytes(3 * 1024 * 1024);

        $db->insert('doctrine_posts', ['title' => 'string', 'body' => $bytes], ['body' => ParameterType::LARGE_OBJECT]);
        $fromString = (int) $db->lastInsertId();

        $stream = fopen('php://memory', 'w+b');
        self::assertIsResource($stream);
        fwrite($stream, $bytes);
        rewind($stream);
        $db->insert('doctrine_posts', ['title' => 'stream', 'body' => $stream], ['body' => ParameterType::LARGE_OBJECT]);
        $fromStream = (int) $db->lastInsertId();

        $db->insert('doctrine_posts', ['title' => 'binary', 'body' => "\x00\xff\x27\x5c"], ['body' => Types::BLOB]);
        $binary = (int) $db->lastInsertId();

        $sql = 'SELECT body FROM doctrine_posts WHERE id = ?';
        self::assertSame(md5($bytes), md5((string) $db->fetchOne($sql, [$fromString])));
        self::assertSame(md5($bytes), md5((string) $db->fetchOne($sql, [$fromStream])));
        self::assertSame("\x00\xff\x27\x5c", $db->fetchOne($sql, [$binary]));
        self::assertSame(\strlen($bytes), $db->fetchOne('SELECT LENGTH(body) FROM doctrine_posts WHERE id = ?', [$fromStream]));
    }

    /** @dataProvider prepares */
    public function testFetchingRows(bool $emulate): void
    {
        $db = $this->posts($emulate);
        foreach (['a', 'b', 'c'] as $i => $title) {
            $db->insert('doctrine_posts', ['title' => $title, 'views' => $i * 10]);
        }

        self::assertSame(['title' => 'b', 'views' => 10], $db->fetchAssociative('SELECT title, views FROM doctrine_posts WHERE title = ?', ['b']));
        self::assertFalse($db->fetchAssociative('SELECT title FROM doctrine_posts WHERE title = ?', ['none']));
        self::assertSame(
            [['title' => 'a', 'views' => 0], ['title' => 'b', 'views' => 10], ['title' => 'c', 'views' => 20]],
            $db->fetchAllAssociative('SELECT title, views FROM doctrine_posts ORDER BY id'),
        );
        self::assertSame(['a' => 0, 'b' => 10, 'c' => 20], $db->fetchAllKeyValue('SELECT title, views FROM doctrine_posts ORDER BY id'));

        $seen = [];
        foreach ($db->iterateNumeric('SELECT title, views FROM doctrine_posts WHERE views >= ? ORDER BY id', [10]) as $row) {
            $seen[] = $row;
        }
        self::assertSame([['b', 10], ['c', 20]], $seen);

        $result = $db->executeQuery('SELECT title FROM doctrine_posts ORDER BY id');
        self::assertSame(1, $result->columnCount());
        self::assertSame(3, $result->rowCount());
        self::assertSame('a', $result->fetchOne());
        self::assertSame(['b'], $result->fetchNumeric());
        self::assertSame(['c'], $result->fetchFirstColumn());
        self::assertFalse($result->fetchNumeric());
        $result->free();

        $statement = $db->prepare('SELECT views FROM doctrine_posts WHERE title = ?');
        foreach (['a' => 0, 'c' => 20] as $title => $views) {
            $statement->bindValue(1, $title, ParameterType::STRING);
            self::assertSame($views, $statement->executeQuery()->fetchOne());
        }
    }

    public function testLastInsertIdAfterAStatementWithoutOne(): void
    {
        $db = $this->posts(true);
        $db->insert('doctrine_posts', ['title' => 'a']);
        $db->fetchOne('SELECT 1');

        if (!(new \ReflectionMethod(\Doctrine\DBAL\Driver\Connection::class, 'lastInsertId'))->hasReturnType()) {
            self::assertSame('0', $db->lastInsertId()); // DBAL 3 passes on what PDO says

            return;
        }
        try {
            $db->lastInsertId();
            self::fail('DBAL 4 reports a missing id as an error');
        } catch (DriverException $e) {
            self::assertInstanceOf(NoIdentityValue::class, $e->getPrevious());
        }
    }
}
