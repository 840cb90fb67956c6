<?php

declare(strict_types=1);

namespace Spindle\Tests\Architecture;

use PHPat\Selector\Selector;
use PHPat\Test\Builder\Rule;
use PHPat\Test\PHPat;

/**
 * The request path reads in one direction, checked by PHPStan through phpat in the test command.
 *
 * A connection driver (Http\Http1 today) runs each request's task and writes what the request
 * handler returns: nothing outside Http holds a driver to answer through it. Server\Protocols
 * chooses and makes the drivers; HttpServer holds them as ConnectionDriver only (it counts, drains
 * and closes them); everything else a server does per request is middleware (it sees the request
 * and the response) or goes through Http\RequestRunner.
 */
final class RequestPathRules
{
    public function testOnlyHttpAndTheProtocolChoiceUseConnectionDrivers(): Rule
    {
        return PHPat::rule()
            ->classes(Selector::inNamespace('Spindle'))
            ->excluding(Selector::inNamespace('Spindle\Http'), Selector::classname('Spindle\Server\Protocols'))
            ->shouldNotDependOn()
            ->classes(Selector::inNamespace('Spindle\Http\Http1'))
            ->because('a connection writes what the handler returns; nothing calls back into it');
    }
}
