<?php

declare(strict_types=1);

namespace Spindle\Tests\E2E;

use Spindle\Tests\E2E\Support\RawClient;
use Spindle\Tests\E2E\Support\RawResponse;
use Spindle\Tests\E2E\Support\ServerProcess;
use Spindle\Tests\E2E\Support\SymfonyFixtureTestCase;

/**
 * SecurityBundle's password hashing in the task workers, on the Symfony 7.4 fixture
 * (config/packages/security.php: bcrypt at cost 12, a JSON login): with task workers, hashes and
 * logins are computed there (the worker's spindle_tasks_total{outcome="ok"} counts each one),
 * give what PHP's own password_verify() accepts, and leave the worker free for other requests
 * meanwhile; without task workers, or with SPINDLE_HASH_OFFLOAD=0, they are computed in the worker.
 *
 * @group frameworks
 */
final class Symfony74PasswordHasherTest extends SymfonyFixtureTestCase
{
    private const PASSWORD = 'correct horse battery staple';

    protected static function app(): string
    {
        return \dirname(__DIR__) . '/fixtures/symfony74-app';
    }

    public function testHashesAndLoginsRunInTheTaskWorkers(): void
    {
        $server = ServerProcess::start(static::app(), ['--workers=1', '--task-workers=2']);
        try {
            $made = self::hash($server, 'päss wörd 1');
            self::assertSame('Spindle\Bridge\Symfony\PasswordHasher\TaskPasswordHasher', $made['hasher']);
            self::assertStringStartsWith('$2y$12$', $made['hash'], 'the cost of the app\'s configuration');
            self::assertTrue(\password_verify('päss wörd 1', $made['hash']), 'PHP\'s own password_verify() accepts the hash');
            self::assertFalse(\password_verify('päss wörd 2', $made['hash']));
            self::assertTrue($made['verified']);
            self::assertFalse($made['wrong']);
            self::assertSame(3.0, (float) $made['tasks'], 'hash() and both verify() ran in a task worker');

            $first = self::login($server, self::PASSWORD);
            self::assertSame(200, $first->status, $first->raw . $server->stderr());
            self::assertSame('alice', $first->json()['user']);
            $refused = self::login($server, 'wrong horse');
            self::assertSame(401, $refused->status, $refused->raw);
            self::assertSame(['error' => 'Invalid credentials.'], $refused->json());
            $second = self::login($server, self::PASSWORD);
            self::assertSame(200, $second->status, $second->raw);
            self::assertSame(
                (float) $first->json()['tasks'] + 2,
                (float) $second->json()['tasks'],
                'the refused login\'s check and this one\'s ran in a task worker',
            );
        } finally {
            $server->stop();
        }
    }

    public function testLoginsInTaskWorkersDoNotHoldUpOtherRequests(): void
    {
        $server = ServerProcess::start(static::app(), ['--workers=1', '--task-workers=2']);
        try {
            self::assertServerAnswers($server, '/hello');
            // Six logins at once (bcrypt at cost 12: about 0.25 s of CPU each) and, meanwhile, /hello.
            $logins = [];
            for ($i = 0; $i < 6; ++$i) {
                $client = new RawClient($server->port(), 60.0);
                $client->send(self::loginRequest(self::PASSWORD));
                $logins[] = $client;
            }
            $hellos = [];
            for ($i = 0; $i < 10; ++$i) {
                self::assertSame('Hello World', self::assertServerAnswers($server, '/hello')->body);
                $hellos[] = \microtime(true);
            }
            $loggedIn = [];
            foreach ($logins as $client) {
                $response = $client->readResponse(false, 60.0);
                self::assertSame(200, $response->status, $response->raw . $server->stderr());
                self::assertSame('alice', $response->json()['user']);
                $loggedIn[] = (float) $response->json()['done'];
            }
            // Hashed in the worker, the first /hello would wait for all six logins (about 1.5 s of
            // CPU); the first three are compared, as ten one after the other on a loaded machine
            // may take as long as the logins' share of two task workers.
            self::assertLessThan(\max($loggedIn), \max(\array_slice($hellos, 0, 3)), 'the first /hello requests were answered before the last login');
        } finally {
            $server->stop();
        }
    }

    public function testWithoutTaskWorkersOrWithTheOptOutTheWorkerHashes(): void
    {
        foreach ([['--task-workers=0'], ['--task-workers=1', 'SPINDLE_HASH_OFFLOAD=0']] as $case) {
            $optOut = \in_array('SPINDLE_HASH_OFFLOAD=0', $case, true);
            if ($optOut) {
                \putenv('SPINDLE_HASH_OFFLOAD=0');
            }
            try {
                $server = ServerProcess::start(static::app(), ['--workers=1', $case[0]]);
            } finally {
                \putenv('SPINDLE_HASH_OFFLOAD');
            }
            try {
                $made = self::hash($server, 'secret');
                self::assertSame(0.0, (float) $made['tasks'], \implode(' ', $case) . ': hashed in the worker');
                self::assertTrue(\password_verify('secret', $made['hash']));
                self::assertTrue($made['verified']);
                self::assertFalse($made['wrong']);
                self::assertSame(200, self::login($server, self::PASSWORD)->status);
                self::assertSame(401, self::login($server, 'wrong horse')->status);
            } finally {
                $server->stop();
            }
        }
    }

    /** @return array<mixed> POST /password/hash's answer */
    private static function hash(ServerProcess $server, string $password): array
    {
        $body = \http_build_query(['password' => $password]);
        $response = self::rawRequest($server, "POST /password/hash HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
            . "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: " . \strlen($body) . "\r\n\r\n" . $body);
        self::assertSame(200, $response->status, $response->raw . $server->stderr());

        return $response->json();
    }

    private static function login(ServerProcess $server, string $password): RawResponse
    {
        $client = new RawClient($server->port(), 30.0);
        $client->send(self::loginRequest($password));
        $response = $client->readResponse(false, 30.0);
        $client->close();

        return $response;
    }

    private static function loginRequest(string $password): string
    {
        $body = (string) \json_encode(['username' => 'alice', 'password' => $password]);

        return "POST /login HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Type: application/json\r\n"
            . 'Content-Length: ' . \strlen($body) . "\r\n\r\n" . $body;
    }
}
