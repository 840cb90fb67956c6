<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Bridge\Laravel;

use PHPUnit\Framework\TestCase;
use Spindle\Bridge\Laravel\ServeArtisanCommand;
use Symfony\Component\Console\Input\ArgvInput;

final class ServeArtisanCommandTest extends TestCase
{
    public function testServesTheAppWithTheOptionsGiven(): void
    {
        $command = new ServeArtisanCommand('/srv/app');
        $input = new ArgvInput(['artisan', '--port=0', '--workers', '2', '--debug', '--static-dir=public'], $command->getDefinition());
        self::assertSame(
            [ServeArtisanCommand::spindleBinary(), 'serve', '/srv/app', '--port=0', '--workers=2', '--static-dir=public', '--debug'],
            $command->arguments($input),
        );
        self::assertFileExists(ServeArtisanCommand::spindleBinary());
    }

    public function testWithoutOptionsOnlyTheAppIsPassed(): void
    {
        $command = new ServeArtisanCommand('/srv/app');
        $input = new ArgvInput(['artisan'], $command->getDefinition());
        self::assertSame([ServeArtisanCommand::spindleBinary(), 'serve', '/srv/app'], $command->arguments($input));
    }
}
