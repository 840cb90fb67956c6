<?php

declare(strict_types=1);

namespace Spindle\Tests\E2E;

/**
 * The isolation suite of SymfonyIsolationSuiteTest on the Symfony 7.4 fixture app (tests/fixtures/symfony74-app).
 *
 * @group frameworks
 */
final class Symfony74IsolationSuiteTest extends SymfonyIsolationSuiteTest
{
    protected static function app(): string
    {
        return \dirname(__DIR__) . '/fixtures/symfony74-app';
    }
}
