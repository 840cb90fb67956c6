<?php

declare(strict_types=1);

namespace Spindle\Database\Pgsql;

use Spindle\Database\Pgsql\Protocol\CopyResponse;
use Spindle\Database\Pgsql\Protocol\Frontend;
use Spindle\Database\Pgsql\Protocol\MessageType;
use Spindle\Database\Pgsql\Protocol\Notification;
use Spindle\Database\Pgsql\Protocol\ProtocolError;

/**
 * The traffic outside plain commands: COPY FROM STDIN (the data streamed in answer to
 * CopyInResponse), COPY TO STDOUT (the CopyData collected), and NOTIFY arrivals read as they
 * come, suspending the calling fiber while none is there.
 *
 * @internal
 */
final class CopyAndNotify
{
    private function __construct()
    {
    }

    /**
     * COPY … FROM STDIN: sends the chunks (lines in the COPY format) and returns the rows copied.
     *
     * @param iterable<string> $data
     *
     * @throws PgsqlException
     */
    public static function copyFrom(Session $session, string $sql, iterable $data): int
    {
        $session->copyIn = $data;
        try {
            $results = $session->command(Frontend::query($sql), $sql);
        } finally {
            $session->copyIn = null;
        }

        return ($results[\count($results) - 1] ?? new Result([], [], ''))->affectedRows();
    }

    /**
     * COPY … TO STDOUT: the data the server sent, one chunk (usually a line) each.
     *
     * @return list<string>
     *
     * @throws PgsqlException
     */
    public static function copyTo(Session $session, string $sql): array
    {
        $session->copyOut = [];
        $session->command(Frontend::query($sql), $sql);
        $data = $session->copyOut;
        $session->copyOut = [];

        return $data;
    }

    /**
     * NOTIFY arrivals, as they come: waiting for the next one suspends the calling fiber. The
     * iteration ends after $timeout seconds without one (null: never). While it waits the
     * connection is busy: give listening a connection of its own.
     *
     * @return \Generator<int, Notification>
     *
     * @throws PgsqlException
     */
    public static function notifications(Session $session, ?float $timeout = null): \Generator
    {
        while (true) {
            while ($session->notifications !== []) {
                yield array_shift($session->notifications);
            }
            $session->enter();
            $session->busy = true;
            try {
                $deadline = $timeout === null ? null : Session::now() + $timeout;
                $data = $session->transport->read($deadline);
                if ($data === '') {
                    return;
                }
                $session->reader->push($data);
                while (($message = $session->reader->next()) !== null) {
                    $session->background($message);
                }
            } catch (PgsqlException|ProtocolError $e) {
                $session->fail();
                throw $e instanceof PgsqlException ? $e : new PgsqlException($e->getMessage(), '08P01', null, $e);
            } finally {
                $session->busy = false;
            }
        }
    }

    /**
     * The next NOTIFY arrival: one already received, else what the socket holds now, else the
     * first to come within $timeout seconds (0: no wait); null when none came.
     *
     * @throws PgsqlException
     */
    public static function nextNotification(Session $session, float $timeout = 0.0): ?Notification
    {
        if ($session->notifications === []) {
            $session->enter();
            try {
                $data = $session->transport->readNow();
                if ($data !== '') {
                    $session->reader->push($data);
                    while (($message = $session->reader->next()) !== null) {
                        $session->background($message);
                    }
                }
            } catch (PgsqlException|ProtocolError $e) {
                $session->fail();
                throw $e instanceof PgsqlException ? $e : new PgsqlException($e->getMessage(), '08P01', null, $e);
            }
        }
        if ($session->notifications === [] && $timeout > 0) {
            foreach (self::notifications($session, $timeout) as $notification) {
                return $notification;
            }

            return null;
        }

        return array_shift($session->notifications);
    }

    /** Answers a CopyInResponse with the data given to copyFrom() (or a CopyFail). */
    public static function answerCopyIn(Session $session, CopyResponse $response, ?float $deadline): void
    {
        if ($response->type !== MessageType::CopyInResponse) {
            return;
        }
        if ($session->copyIn === null) {
            $session->transport->write(Frontend::copyFail('COPY FROM STDIN needs Connection::copyFrom()'), $deadline);

            return;
        }
        $buffer = '';
        try {
            foreach ($session->copyIn as $chunk) {
                $buffer .= Frontend::copyData($chunk);
                if (\strlen($buffer) >= 65536) {
                    $session->transport->write($buffer, $deadline);
                    $buffer = '';
                }
            }
        } catch (\Throwable $e) {
            $session->transport->write($buffer . Frontend::copyFail('the data source failed: ' . $e->getMessage()), $deadline);

            return;
        }
        $session->transport->write($buffer . Frontend::copyDone(), $deadline);
    }
}
