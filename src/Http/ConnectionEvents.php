<?php

declare(strict_types=1);

namespace Spindle\Http;

/**
 * What a connection driver tells the server that accepted it: that it closed, or that it handed
 * its socket to another driver (an upgrade). Made by the server, given to each driver it makes.
 */
interface ConnectionEvents
{
    public function closed(ConnectionDriver $connection): void;

    /** $old handed its socket to $new, which the server now holds in its place. */
    public function replaced(ConnectionDriver $old, ConnectionDriver $new): void;
}
