<?php

declare(strict_types=1);

namespace Spindle\Tests\Architecture;

use PHPat\Selector\Selector;
use PHPat\Test\Builder\Rule;
use PHPat\Test\PHPat;

/**
 * The request path reads in one direction, checked by PHPStan through phpat in the test command.
 *
 * A connection runs each request's task and writes what the request handler returns: nothing
 * outside Http holds a connection to answer through it. Server's HttpServer makes the connections
 * and closes or drains them; everything else a server does per request is middleware (it sees
 * the request and the response) or goes through Http\RequestRunner.
 */
final class RequestPathRules
{
    public function testOnlyHttpAndTheServerThatAcceptsUseConnections(): Rule
    {
        return PHPat::rule()
            ->classes(Selector::inNamespace('Spindle'))
            ->excluding(Selector::inNamespace('Spindle\Http'), Selector::classname('Spindle\Server\HttpServer'))
            ->shouldNotDependOn()
            ->classes(Selector::classname('Spindle\Http\Connection'))
            ->because('a connection writes what the handler returns; nothing calls back into it');
    }
}
