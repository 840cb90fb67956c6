<?php

declare(strict_types=1);

namespace Spindle\Database\Mysql;

/**
 * A connection was used while another fiber was still running a statement on it. One
 * connection serves one statement at a time: give each fiber its own connection.
 */
final class ConnectionBusy extends \LogicException
{
}
