<?php

declare(strict_types=1);

namespace Spindle\Tests\Integration\Doctrine;

use Doctrine\DBAL\Schema\Schema;
use Doctrine\DBAL\Schema\Table;
use Doctrine\DBAL\Types\BigIntType;
use Doctrine\DBAL\Types\StringType;
use Doctrine\DBAL\Types\Types;

final class SchemaTest extends DoctrineTestCase
{
    protected array $tables = ['doctrine_orders', 'doctrine_customers'];

    public function testCreateIntrospectAlterAndDrop(): void
    {
        $db = $this->dbal();
        $schema = new Schema();
        $customers = $schema->createTable('doctrine_customers');
        $customers->addColumn('id', Types::BIGINT, ['autoincrement' => true, 'unsigned' => true]);
        $customers->addColumn('email', Types::STRING, ['length' => 190]);
        $customers->setPrimaryKey(['id']);
        $customers->addUniqueIndex(['email'], 'doctrine_customers_email');
        $orders = $schema->createTable('doctrine_orders');
        $orders->addColumn('id', Types::INTEGER, ['autoincrement' => true]);
        $orders->addColumn('customer_id', Types::BIGINT, ['unsigned' => true]);
        $orders->addColumn('total', Types::DECIMAL, ['precision' => 10, 'scale' => 2]);
        $orders->setPrimaryKey(['id']);
        $orders->addForeignKeyConstraint('doctrine_customers', ['customer_id'], ['id'], [], 'doctrine_orders_customer');
        foreach ($schema->toSql($db->getDatabasePlatform()) as $sql) {
            $db->executeStatement($sql);
        }

        $manager = $db->createSchemaManager();
        $names = array_map('strtolower', $manager->listTableNames());
        self::assertContains('doctrine_customers', $names);
        self::assertContains('doctrine_orders', $names);
        self::assertTrue($manager->tablesExist(['doctrine_customers', 'doctrine_orders']));

        $table = $manager->introspectTable('doctrine_customers');
        self::assertSame(['id', 'email'], array_values(array_map(static fn ($c) => $c->getName(), $table->getColumns())));
        self::assertInstanceOf(BigIntType::class, $table->getColumn('id')->getType());
        self::assertTrue($table->getColumn('id')->getAutoincrement());
        self::assertTrue($table->getColumn('id')->getUnsigned());
        self::assertInstanceOf(StringType::class, $table->getColumn('email')->getType());
        self::assertSame(190, $table->getColumn('email')->getLength());
        self::assertTrue($table->getIndex('doctrine_customers_email')->isUnique());
        $foreignKeys = array_values($manager->introspectTable('doctrine_orders')->getForeignKeys());
        self::assertCount(1, $foreignKeys);
        self::assertSame(['customer_id'], $foreignKeys[0]->getLocalColumns());

        // Alter through the comparator: add a column.
        $changed = new Table('doctrine_customers', $table->getColumns(), $table->getIndexes());
        $changed->addColumn('name', Types::STRING, ['length' => 100, 'notnull' => false]);
        $diff = $manager->createComparator()->compareTables($table, $changed);
        $manager->alterTable($diff);
        self::assertTrue($manager->introspectTable('doctrine_customers')->hasColumn('name'));

        $manager->dropTable('doctrine_orders');
        $manager->dropTable('doctrine_customers');
        self::assertFalse($manager->tablesExist(['doctrine_customers']));
        self::assertFalse($manager->tablesExist(['doctrine_orders']));
    }
}
