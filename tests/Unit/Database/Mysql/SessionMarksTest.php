<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Database\Mysql;

use PHPUnit\Framework\TestCase;
use Spindle\Database\Mysql\Protocol\ClientProtocol;
use Spindle\Database\Mysql\Protocol\ServerStatus;

/**
 * What the server's answers tell ClientProtocol of the session (sessionMarks()): a tracked state
 * change, an insert id, warnings, an error; nothing for a plain answer. They add up until
 * clearSessionMarks().
 */
final class SessionMarksTest extends TestCase
{
    public function testAPlainResultMarksNothing(): void
    {
        $p = ClientProtocolResultTest::ready();
        $p->query('SELECT 1');
        $p->push(Wire::packets(1, "\x01", Wire::column('1', 8), Wire::lstr('1'), Wire::ok(0, 0, 0x0002, 0, '', "\xFE")));
        self::assertIsArray($p->takeOutcome());
        self::assertSame(0, $p->sessionMarks());
        $p->query('DO 1');
        $p->push(Wire::packet(Wire::ok(0, 0, 0x0002, 0), 1));
        $p->takeOutcome();
        self::assertSame(0, $p->sessionMarks());
    }

    public function testEachKindOfMarkAndThatTheyAddUp(): void
    {
        $p = ClientProtocolResultTest::ready();
        // SET @a = 1 under session_track_state_change: SERVER_SESSION_STATE_CHANGED and the change ("1").
        $p->query('SET @a = 1');
        $p->push(Wire::packet(Wire::ok(0, 0, 0x4002, 0, Wire::lstr('') . Wire::lstr("\x02" . Wire::lstr(Wire::lstr('1')))), 1));
        $p->takeOutcome();
        self::assertSame(ServerStatus::SESSION_STATE_CHANGED, $p->sessionMarks());

        $p->query('INSERT INTO t VALUES ()');
        $p->push(Wire::packet(Wire::ok(1, 7, 0x0002, 0), 1));
        $p->takeOutcome();
        self::assertSame(ServerStatus::SESSION_STATE_CHANGED | ClientProtocol::MARK_INSERT_ID, $p->sessionMarks());

        $p->clearSessionMarks();
        self::assertSame(0, $p->sessionMarks());
        // Warnings on the OK ending a result set (textResultBytes(): 1 warning).
        $p->query('SELECT id, name, score');
        $p->push(ClientProtocolResultTest::textResultBytes(true));
        $p->takeOutcome();
        self::assertSame(ClientProtocol::MARK_WARNINGS, $p->sessionMarks());

        $p->clearSessionMarks();
        $p->query('SELECT * FROM nope');
        $p->push(Wire::packet(Wire::err(1146, '42S02', "Table 'db.nope' doesn't exist"), 1));
        $p->takeOutcome();
        self::assertSame(ClientProtocol::MARK_ERROR, $p->sessionMarks());
    }

    public function testClassicEofPacketsMarkWarningsAndChangesToo(): void
    {
        $p = ClientProtocolResultTest::ready(false);
        $p->query('SELECT id, name, score');
        $p->push(ClientProtocolResultTest::textResultBytes(false));
        $p->takeOutcome();
        self::assertSame(ClientProtocol::MARK_WARNINGS, $p->sessionMarks());
    }
}
