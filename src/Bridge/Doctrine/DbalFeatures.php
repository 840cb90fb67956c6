<?php

declare(strict_types=1);

namespace Spindle\Bridge\Doctrine;

use Doctrine\DBAL\Driver\Middleware;

/**
 * What the installed DBAL (and DoctrineBundle) offers, asked before any class of this namespace
 * that extends or implements one of DBAL's is loaded (loading DriverMiddleware where DBAL has no
 * middlewares would be a fatal error). The framework bridges ask here, so only this namespace
 * names Doctrine's classes.
 */
final class DbalFeatures
{
    private function __construct()
    {
    }

    /** Whether DBAL has driver middlewares (DBAL 3.2 and later): where DriverMiddleware can be used. */
    public static function driverMiddlewares(): bool
    {
        return \interface_exists(Middleware::class);
    }

    /**
     * Whether the installed DoctrineBundle gives its connections the services tagged
     * doctrine.middleware (its MiddlewaresPass, DoctrineBundle 2.6 and later); before that, whoever
     * adds a middleware calls the connection configuration's setMiddlewares() itself.
     */
    public static function bundleMiddlewares(): bool
    {
        return \class_exists('Doctrine\Bundle\DoctrineBundle\DependencyInjection\Compiler\MiddlewaresPass');
    }
}
