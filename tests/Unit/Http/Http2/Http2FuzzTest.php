<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Http\Http2;

use PHPUnit\Framework\TestCase;
use Spindle\Http\Http2\ErrorCode;
use Spindle\Http\Http2\Event\ConnectionError;
use Spindle\Http\Http2\Event\StreamOpened;
use Spindle\Http\Http2\Event\StreamReset;
use Spindle\Http\Http2\FrameWriter;
use Spindle\Http\Http2\Http2Session;
use Spindle\Http\Http2\Http2Settings;

/**
 * Random but well-formed frames from a client, and random app actions between them: whatever
 * happens, the session raises nothing, its counts stay consistent, and its output parses.
 */
final class Http2FuzzTest extends TestCase
{
    public function testRandomFramesAndAppActions(): void
    {
        for ($seed = 1; $seed <= 60; $seed++) {
            mt_srand($seed);
            $session = new Http2Session(new Http2Settings(maxConcurrentStreams: 5, initialWindowSize: 3000, streamOutputLimit: 5000, connectionOutputLimit: 12000));
            $peer = new Peer();
            $session->push(Peer::preface([0x4 => mt_rand(0, 70000)]));
            $open = [];
            $responded = [];
            // The client's side: streams it may still send on (no END_STREAM or RST_STREAM sent).
            $sending = [];
            $next = 1;
            for ($step = 0; $step < 300; $step++) {
                $known = $next > 1 ? 2 * mt_rand(0, ($next - 3) >> 1) + 1 : 1;
                $live = $sending !== [] ? array_rand($sending) : null;
                $choice = mt_rand(0, 11);
                if ($live === null && \in_array($choice, [2, 8, 10], true)) {
                    $choice = 0;
                }
                $end = (bool) mt_rand(0, 1);
                switch ($choice) {
                    case 0:
                    case 1:
                        $frame = $peer->get($next, '/' . $step, [], $end);
                        if (!$end) {
                            $sending[$next] = true;
                        }
                        $next += 2;
                        break;
                    case 2:
                        $frame = FrameWriter::data($live, str_repeat('d', mt_rand(0, 2000)), $end, mt_rand(0, 3) === 0 ? mt_rand(1, 20) : 0);
                        if ($end) {
                            unset($sending[$live]);
                        }
                        break;
                    case 3:
                        $frame = FrameWriter::windowUpdate(mt_rand(0, 1) ? 0 : $known, mt_rand(1, 40000));
                        break;
                    case 4:
                        $frame = $next > 1 ? FrameWriter::rstStream($known, ErrorCode::Cancel) : FrameWriter::ping('abcdefgh', false);
                        unset($sending[$known]);
                        break;
                    case 5:
                        $frame = FrameWriter::settings([0x4 => mt_rand(0, 70000), 0x5 => 16384 * mt_rand(1, 2), 0x1 => mt_rand(0, 4096)]);
                        break;
                    case 6:
                        $frame = FrameWriter::ping('abcdefgh', false);
                        break;
                    case 7:
                        $frame = FrameWriter::priority($known, $known + 2, 16);
                        break;
                    case 8:
                        $frame = $peer->headers($live, [['x-trailer', 'v']], true);
                        unset($sending[$live]);
                        break;
                    case 9:
                        $frame = FrameWriter::frame(0xbb, 0, $known, 'x');
                        break;
                    case 10:
                        // Sometimes wrong: a content-length the body will not match.
                        $frame = $peer->headers($next, [[':method', 'POST'], [':scheme', 'http'], [':path', '/'], ['content-length', (string) mt_rand(0, 10)]], false);
                        $sending[$next] = true;
                        $next += 2;
                        break;
                    default:
                        // Now and then a frame the client may not send.
                        $frame = mt_rand(0, 9) === 0 ? FrameWriter::windowUpdate($known, 0) : FrameWriter::settingsAck();
                }
                foreach ($session->push($frame) as $event) {
                    if ($event instanceof StreamOpened) {
                        $open[$event->streamId] = true;
                    } elseif ($event instanceof StreamReset) {
                        unset($open[$event->streamId]);
                    } elseif ($event instanceof ConnectionError) {
                        $open = [];
                    }
                }
                // The app: answer, write on, reset or read, at random.
                foreach (array_keys($open) as $sid) {
                    switch (mt_rand(0, 5)) {
                        case 0:
                            if (!isset($responded[$sid])) {
                                $session->sendHeaders($sid, 200, [['x-step', (string) $step]]);
                                $responded[$sid] = true;
                            }
                            break;
                        case 1:
                            if (isset($responded[$sid]) && $session->canSend($sid)) {
                                $session->sendData($sid, str_repeat('r', mt_rand(0, 6000)), (bool) mt_rand(0, 1));
                            }
                            break;
                        case 2:
                            if (isset($responded[$sid]) && mt_rand(0, 1)) {
                                $session->sendTrailers($sid, [['x-done', '1']]);
                            }
                            break;
                        case 3:
                            if (mt_rand(0, 4) === 0) {
                                $session->resetStream($sid);
                                unset($open[$sid]);
                            }
                            break;
                        default:
                            $session->consumed($sid, mt_rand(0, 3000));
                    }
                }
                self::assertGreaterThanOrEqual(0, $session->pendingOutput(), "seed $seed step $step");
                self::assertLessThanOrEqual(5, $session->activeStreams());
                if (mt_rand(0, 2) === 0) {
                    $peer->read($session);
                }
                if ($session->isClosed()) {
                    break;
                }
            }
            $peer->read($session);
        }
        $this->addToAssertionCount(1);
    }
}
