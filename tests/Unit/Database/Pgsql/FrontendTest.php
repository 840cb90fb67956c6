<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Database\Pgsql;

use PHPUnit\Framework\TestCase;
use Spindle\Database\Pgsql\Protocol\Frontend;
use Spindle\Database\Pgsql\Protocol\Md5Password;
use Spindle\Database\Pgsql\Protocol\ProtocolError;
use Spindle\Database\Pgsql\Protocol\Scram;

final class FrontendTest extends TestCase
{
    public function testStartupAndSpecialRequests(): void
    {
        self::assertSame(
            pack('N', 4 + 4 + 22 + 1) . pack('N', 196608) . "user\0bob\0database\0app\0\0",
            Frontend::startup(['user' => 'bob', 'database' => 'app']),
        );
        self::assertSame("\0\0\0\x08\x04\xd2\x16\x2f", Frontend::sslRequest());
        self::assertSame(pack('NNNN', 16, 80877102, 4242, 99), Frontend::cancelRequest(4242, 99));
    }

    public function testSimpleAndExtendedQueryMessages(): void
    {
        self::assertSame("Q\0\0\0\x0dSELECT 1\0", Frontend::query('SELECT 1'));
        self::assertSame('P' . pack('N', 4 + 3 + 10 + 2 + 4) . "s1\0SELECT \$1\0" . pack('nN', 1, 23), Frontend::parse('s1', 'SELECT $1', [23]));
        self::assertSame(
            'B' . pack('N', 4 + 1 + 3 + 2 + 2 + 4 + 1 + 4 + 2 + 2) . "\0s1\0" . pack('n', 0) . pack('n', 2) . pack('N', 1) . '7' . "\xFF\xFF\xFF\xFF" . pack('nn', 1, 1),
            Frontend::bind('', 's1', ['7', null], [], [1]),
        );
        self::assertSame("D\0\0\0\x08Ss1\0", Frontend::describe('S', 's1'));
        self::assertSame("E\0\0\0\x09\0\0\0\0\0", Frontend::execute());
        self::assertSame("C\0\0\0\x08Ss1\0", Frontend::close('S', 's1'));
        self::assertSame("S\0\0\0\x04", Frontend::sync());
        self::assertSame("X\0\0\0\x04", Frontend::terminate());
        self::assertSame("d\0\0\0\x06ab", Frontend::copyData('ab'));
        self::assertSame("c\0\0\0\x04", Frontend::copyDone());
        self::assertSame("f\0\0\0\x08bad\0", Frontend::copyFail('bad'));
        self::assertSame("p\0\0\0\x08pwd\0", Frontend::password('pwd'));
    }

    public function testNulBytesAreRefused(): void
    {
        $this->expectException(\InvalidArgumentException::class);
        Frontend::query("SELECT '\0'");
    }

    public function testMd5(): void
    {
        self::assertSame('md5' . md5(md5('secretbob') . 'salt'), Md5Password::hash('bob', 'secret', 'salt'));
    }

    public function testScramRfc7677Vector(): void
    {
        $scram = new Scram('pencil', 'rOprNGfwEbeRWgbNEkqO', 'user');
        self::assertSame('n,,n=user,r=rOprNGfwEbeRWgbNEkqO', $scram->clientFirst());
        $final = $scram->clientFinal('r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096');
        self::assertSame('c=biws,r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,p=dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ=', $final);
        $scram->verifyServerFinal('v=6rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4=');
        $this->expectException(ProtocolError::class);
        $scram->verifyServerFinal('v=AAAA');
    }

    public function testScramRefusesAChallengeThatDropsOurNonce(): void
    {
        $scram = new Scram('pencil', 'abc');
        $this->expectException(ProtocolError::class);
        $scram->clientFinal('r=xyz123,s=c2FsdA==,i=4096');
    }
}
