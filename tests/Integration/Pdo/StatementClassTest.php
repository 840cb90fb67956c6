<?php

declare(strict_types=1);

namespace Spindle\Tests\Integration\Pdo;

/** ATTR_STATEMENT_CLASS with a class that extends \PDOStatement directly, as with native PDO. */
final class StatementClassTest extends DifferentialTestCase
{
    public function testPdoStatementSubclass(): void
    {
        foreach ([true, false] as $emulate) {
            $this->differential(static function (\PDO $db, Trace $t): void {
                $t->call('set', fn () => $db->setAttribute(\PDO::ATTR_STATEMENT_CLASS, [UserPdoStatement::class, ['tag']]));
                $t->call('get', fn () => $db->getAttribute(\PDO::ATTR_STATEMENT_CLASS));
                /** @var UserPdoStatement $st */
                $st = $db->query('SELECT 1 AS a UNION SELECT 2');
                $t->call('instanceof', fn () => [$st instanceof UserPdoStatement, $st instanceof \PDOStatement, $st instanceof \IteratorAggregate]);
                $t->call('constructor saw', fn () => [$st->tag, $st->seen, $st->queryString]);
                $t->call('own method using fetchAll', fn () => $st->column(0));
                $t->call('overridden rowCount', fn () => $st->rowCount());
                $t->call('log', fn () => $st->log);
                $t->call('var_dump', function () use ($st): string {
                    ob_start();
                    var_dump($st);

                    return preg_replace('/^object\([^)]*\)#\d+/', 'object', (string) ob_get_clean()) ?? '';
                });
                $st = $db->prepare('SELECT ? AS a, ? AS b', [\PDO::ATTR_STATEMENT_CLASS => [UserPdoStatement::class, ['per prepare']]]);
                $a = 1;
                $t->call('bindParam by reference', fn () => $st->bindParam(1, $a, \PDO::PARAM_INT));
                $a = 5;
                $t->call('bindValue', fn () => $st->bindValue(2, 'x'));
                $t->call('execute', fn () => $st->execute());
                $t->call('fetch', fn () => $st->fetch(\PDO::FETCH_ASSOC));
                $t->call('tag', fn () => $st->tag);
                $t->call('foreach', function () use ($db): array {
                    $rows = [];
                    foreach ($db->query('SELECT 3 AS c UNION SELECT 4', \PDO::FETCH_NUM) as $row) {
                        $rows[] = $row;
                    }

                    return $rows;
                });
                $t->call('errorInfo after an error', function () use ($db): array {
                    $db->setAttribute(\PDO::ATTR_ERRMODE, \PDO::ERRMODE_SILENT);
                    $st = $db->prepare('SELECT * FROM pdo_diff_nope');

                    return [$st === false ? false : $st->execute(), $st === false ? null : $st->errorInfo()];
                });
            }, [\PDO::ATTR_EMULATE_PREPARES => $emulate]);
        }
    }

    public function testRefusedClasses(): void
    {
        $this->differential(static function (\PDO $db, Trace $t): void {
            $t->call('not a statement', fn () => $db->setAttribute(\PDO::ATTR_STATEMENT_CLASS, [\ArrayObject::class]));
            $t->call('public constructor', fn () => $db->setAttribute(\PDO::ATTR_STATEMENT_CLASS, [PublicConstructorPdoStatement::class]));
            $t->call('abstract', function () use ($db): mixed {
                $db->setAttribute(\PDO::ATTR_STATEMENT_CLASS, [AbstractPdoStatement::class]);

                return $db->query('SELECT 1');
            });
        });
    }
}

class PublicConstructorPdoStatement extends \PDOStatement
{
    public function __construct()
    {
    }
}

abstract class AbstractPdoStatement extends \PDOStatement
{
}
