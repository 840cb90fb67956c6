<?php

declare(strict_types=1);

namespace Spindle\Tests\E2E;

/**
 * The tests of SymfonySessionTest on the Symfony 7.4 fixture app (tests/fixtures/symfony74-app).
 *
 * @group frameworks
 */
final class Symfony74SessionTest extends SymfonySessionTest
{
    protected static function app(): string
    {
        return \dirname(__DIR__) . '/fixtures/symfony74-app';
    }
}
