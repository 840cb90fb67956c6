<?php

declare(strict_types=1);

namespace Spindle\Tests\Integration\Doctrine;

use Doctrine\DBAL\Connection;

final class TransactionTest extends DoctrineTestCase
{
    protected array $tables = ['doctrine_ledger'];

    private function ledger(): Connection
    {
        $db = $this->dbal();
        // DBAL 3 only nests transactions with savepoints when asked to; DBAL 4 always does.
        if (method_exists($db, 'setNestTransactionsWithSavepoints')) {
            $db->setNestTransactionsWithSavepoints(true);
        }
        $db->executeStatement('CREATE TABLE doctrine_ledger (id INT AUTO_INCREMENT PRIMARY KEY, entry VARCHAR(20) NOT NULL) ENGINE=InnoDB');

        return $db;
    }

    /** @return list<string> what another connection sees, i.e. what was committed */
    private function committed(): array
    {
        $other = $this->dbal();

        /** @var list<string> */
        return $other->fetchFirstColumn('SELECT entry FROM doctrine_ledger ORDER BY id');
    }

    public function testCommitAndRollback(): void
    {
        $db = $this->ledger();

        $db->beginTransaction();
        $db->insert('doctrine_ledger', ['entry' => 'kept']);
        self::assertSame([], $this->committed());
        $db->commit();
        self::assertSame(['kept'], $this->committed());

        $db->beginTransaction();
        self::assertTrue($db->isTransactionActive());
        $db->insert('doctrine_ledger', ['entry' => 'dropped']);
        $db->rollBack();
        self::assertFalse($db->isTransactionActive());
        self::assertSame(['kept'], $this->committed());
        self::assertSame(['kept'], $db->fetchFirstColumn('SELECT entry FROM doctrine_ledger'));
    }

    public function testNestedTransactionsUseSavepoints(): void
    {
        $db = $this->ledger();

        $db->beginTransaction();
        $db->insert('doctrine_ledger', ['entry' => 'outer']);
        $db->beginTransaction();
        self::assertSame(2, $db->getTransactionNestingLevel());
        $db->insert('doctrine_ledger', ['entry' => 'inner rolled back']);
        $db->rollBack();
        $db->beginTransaction();
        $db->insert('doctrine_ledger', ['entry' => 'inner kept']);
        $db->commit();
        self::assertSame(1, $db->getTransactionNestingLevel());
        self::assertSame([], $this->committed());
        $db->commit();

        self::assertSame(['outer', 'inner kept'], $this->committed());
    }

    public function testTransactionalRollsBackWhenTheClosureThrows(): void
    {
        $db = $this->ledger();

        self::assertSame('done', $db->transactional(static function (Connection $db): string {
            $db->insert('doctrine_ledger', ['entry' => 'first']);

            return 'done';
        }));
        try {
            $db->transactional(static function (Connection $db): void {
                $db->insert('doctrine_ledger', ['entry' => 'second']);
                throw new \DomainException('changed my mind');
            });
            self::fail('the exception was swallowed');
        } catch (\DomainException $e) {
            self::assertSame('changed my mind', $e->getMessage());
        }

        self::assertFalse($db->isTransactionActive());
        self::assertSame(['first'], $this->committed());
    }

    public function testAnOuterRollbackDropsCommittedInnerWork(): void
    {
        $db = $this->ledger();

        $db->beginTransaction();
        $db->transactional(static function (Connection $db): void {
            $db->insert('doctrine_ledger', ['entry' => 'inner']);
        });
        $db->rollBack();

        self::assertSame([], $this->committed());
    }
}
