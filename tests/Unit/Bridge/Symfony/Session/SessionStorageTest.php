<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Bridge\Symfony\Session;

use PHPUnit\Framework\TestCase;
use Spindle\Bridge\Symfony\Session\FileSessionHandler;
use Spindle\Bridge\Symfony\Session\SessionOptions;
use Spindle\Bridge\Symfony\Session\SessionStorage;
use Spindle\Bridge\Symfony\Session\SessionStorageFactory;
use Symfony\Component\HttpFoundation\Session\Session;
use Symfony\Component\HttpFoundation\Session\Storage\MetadataBag;

final class SessionStorageTest extends TestCase
{
    private string $directory;
    private FileSessionHandler $handler;

    protected function setUp(): void
    {
        $this->directory = \sys_get_temp_dir() . '/spindle-session-storage-' . \bin2hex(\random_bytes(4));
        $this->handler = FileSessionHandler::fromSavePath($this->directory);
    }

    protected function tearDown(): void
    {
        foreach ((array) \glob($this->directory . '/*') as $file) {
            \unlink((string) $file);
        }
        @\rmdir($this->directory);
    }

    public function testNewSessionGetsAnIdOfTheConfiguredForm(): void
    {
        foreach ([[4, '0-9a-f'], [5, '0-9a-v'], [6, '0-9a-zA-Z,-']] as [$bits, $class]) {
            $storage = $this->storage(new SessionOptions(sidLength: 40, sidBitsPerCharacter: $bits));
            self::assertSame('', $storage->getId());
            $storage->start();
            self::assertMatchesRegularExpression("/^[{$class}]{40}$/", $storage->getId());
        }
    }

    public function testValuePersistsThroughTheHandlerAndOnlyItsOwnIdSeesIt(): void
    {
        $first = new Session($this->storage());
        $first->set('value', 'apple');
        $first->getFlashBag()->add('notice', 'saved');
        $id = $first->getId();
        $first->save();
        self::assertStringStartsWith('_sf2_attributes|a:1:{s:5:"value";s:5:"apple";}', (string) \file_get_contents($this->directory . '/sess_' . $id));

        $again = new Session($this->storage());
        $again->setId($id);
        self::assertSame('apple', $again->get('value'));
        self::assertSame(['saved'], $again->getFlashBag()->get('notice'));
        self::assertSame($id, $again->getId());

        $other = new Session($this->storage());
        self::assertNull($other->get('value'));
        self::assertNotSame($id, $other->getId());
    }

    public function testSessionsOfInterleavedRequestsStayApart(): void
    {
        // Two requests that run at once: each starts, changes and saves its own session in turn.
        $a = new Session($this->storage());
        $b = new Session($this->storage());
        $a->set('who', 'a');
        $b->set('who', 'b');
        self::assertSame('a', $a->get('who'));
        $b->save();
        self::assertSame('a', $a->get('who'));
        $a->save();
        $check = new Session($this->storage());
        $check->setId($b->getId());
        self::assertSame('b', $check->get('who'));
    }

    public function testUnknownOrMalformedIdsAreReplaced(): void
    {
        foreach (['unknownunknownunknownunknown', 'short', '../../../../etc/passwd/xxxxxxxxxxxxxx'] as $id) {
            $storage = $this->storage();
            $storage->setId($id);
            $storage->start();
            self::assertNotSame($id, $storage->getId());
            self::assertTrue(SessionStorage::validId($storage->getId()));
        }
        // Without strict mode an unknown id of the right form is taken.
        $lax = $this->storage(new SessionOptions(strictMode: false));
        $lax->setId('unknownunknownunknownunknown');
        $lax->start();
        self::assertSame('unknownunknownunknownunknown', $lax->getId());
    }

    public function testEmptySessionIsNotStored(): void
    {
        $session = new Session($this->storage());
        self::assertNull($session->get('nothing'));
        $session->save();
        self::assertSame([], (array) \glob($this->directory . '/sess_*'));
        self::assertTrue($this->storageOf($session)->savedEmpty());
    }

    public function testMigrateWithDestroyMovesTheDataToANewIdAndRemovesTheOld(): void
    {
        $session = new Session($this->storage());
        self::assertFalse($session->migrate(), 'a session not started cannot be migrated');
        $session->set('value', 'cart');
        $session->save();
        $old = $session->getId();

        $session = new Session($this->storage());
        $session->setId($old);
        $session->start();
        self::assertTrue($session->migrate(true, 3600));
        self::assertNotSame($old, $session->getId());
        self::assertSame('cart', $session->get('value'));
        self::assertSame(3600, $session->getMetadataBag()->getLifetime());
        $session->save();
        self::assertFileDoesNotExist($this->directory . '/sess_' . $old);
        self::assertFileExists($this->directory . '/sess_' . $session->getId());
        self::assertSame(3600, $this->storageOf($session)->cookieLifetime());
    }

    public function testMigrateWithoutDestroyKeepsTheOldSession(): void
    {
        $session = new Session($this->storage());
        $session->set('value', 'kept');
        $old = $session->getId();
        self::assertTrue($session->migrate(false));
        $session->save();
        self::assertStringContainsString('kept', (string) \file_get_contents($this->directory . '/sess_' . $old));
        self::assertStringContainsString('kept', (string) \file_get_contents($this->directory . '/sess_' . $session->getId()));
    }

    public function testInvalidateClearsAndGivesANewId(): void
    {
        $session = new Session($this->storage());
        $session->set('value', 'x');
        $session->save();
        $old = $session->getId();
        $session = new Session($this->storage());
        $session->setId($old);
        self::assertTrue($session->invalidate());
        self::assertNull($session->get('value'));
        self::assertNotSame($old, $session->getId());
        $session->save();
        self::assertFileDoesNotExist($this->directory . '/sess_' . $old);
    }

    public function testUnchangedDataOnlyRefreshesTheTimestamp(): void
    {
        $handler = new RecordingHandler();
        // The metadata's "updated" stamp is rewritten only after the update threshold.
        $storage = new SessionStorage(new SessionOptions(gcProbability: 0), $handler, new MetadataBag('_sf2_meta', 3600));
        $now = \time();
        $handler->sessions['knownknownknownknownknown1'] = "a|i:1;_sf2_meta|a:3:{s:1:\"c\";i:{$now};s:1:\"u\";i:{$now};s:1:\"l\";i:0;}";
        $storage->setId('knownknownknownknownknown1');
        $storage->start();
        $storage->save();
        self::assertSame(['updateTimestamp knownknownknownknownknown1'], \array_values(\array_filter($handler->calls, static fn (string $call): bool => \str_starts_with($call, 'write') || \str_starts_with($call, 'update'))));
    }

    public function testGarbageIsCollectedWithTheConfiguredProbability(): void
    {
        $always = new RecordingHandler();
        (new SessionStorage(new SessionOptions(gcProbability: 1, gcDivisor: 1, gcMaxLifetime: 77), $always))->start();
        self::assertContains('gc 77', $always->calls);
        $never = new RecordingHandler();
        (new SessionStorage(new SessionOptions(gcProbability: 0), $never))->start();
        self::assertSame([], \array_filter($never->calls, static fn (string $call): bool => \str_starts_with($call, 'gc')));
    }

    public function testIdAndNameCannotChangeWhileStarted(): void
    {
        $storage = $this->storage();
        $storage->start();
        try {
            $storage->setId('anotheranotheranotheranother');
            self::fail('setId');
        } catch (\LogicException) {
        }
        $this->expectException(\LogicException::class);
        $storage->setName('OTHER');
    }

    public function testResetForgetsTheRequestsSession(): void
    {
        $factory = new SessionStorageFactory(new SessionOptions(), $this->handler, new MetadataBag());
        $session = new Session($factory->createStorage(null));
        $session->set('value', 'previous request');
        $session->save();
        self::assertCount(1, $factory->used());
        $id = $session->getId();
        \file_put_contents($this->directory . '/sess_' . $id, '_sf2_attributes|a:1:{s:5:"value";s:1:"x";}_sf2_meta|a:3:{s:1:"c";i:1000;s:1:"u";i:1000;s:1:"l";i:0;}');
        $session = new Session($factory->createStorage(null));
        $session->setId($id);
        $session->start();
        self::assertSame(1000, $session->getMetadataBag()->getCreated());

        $factory->reset();
        self::assertSame([], $factory->used());
        // Symfony 5.4 reuses the Session object for the next request on the same kernel.
        self::assertSame('', $session->getId());
        self::assertNotSame(1000, $session->getMetadataBag()->getCreated(), 'the metadata bag is shared by the storages of a factory');
        self::assertNull($session->get('value'));
    }

    public function testOptionsFromFrameworkSessionAndIni(): void
    {
        $ini = static fn (string $key): string => ['name' => 'PHPSESSID', 'cookie_lifetime' => '0', 'cookie_path' => '/', 'cookie_domain' => '', 'cookie_secure' => '', 'cookie_httponly' => '', 'cookie_samesite' => '', 'gc_maxlifetime' => '1440', 'gc_probability' => '0', 'gc_divisor' => '1000', 'sid_length' => '26', 'sid_bits_per_character' => '5', 'serialize_handler' => 'php'][$key] ?? '';
        $options = SessionOptions::fromArray(['cache_limiter' => '0', 'cookie_secure' => 'auto', 'cookie_samesite' => 'lax', 'cookie_httponly' => true, 'gc_probability' => 1, 'name' => 'APPSESS'], $ini);
        self::assertSame('APPSESS', $options->name);
        self::assertTrue($options->cookieSecureAuto);
        self::assertFalse($options->secureFor(false));
        self::assertTrue($options->secureFor(true));
        self::assertSame('lax', $options->cookieSameSite);
        self::assertTrue($options->cookieHttpOnly);
        self::assertSame([1, 1000, 26, 5], [$options->gcProbability, $options->gcDivisor, $options->sidLength, $options->sidBitsPerCharacter]);
        self::assertTrue($options->strictMode, 'NativeSessionStorage turns strict mode on');
        self::assertTrue($options->useCookies);
        self::assertNull($options->cookieDomain);

        $secure = SessionOptions::fromArray(['cookie_secure' => true, 'cookie_domain' => 'example.com', 'cookie_lifetime' => '3600'], $ini);
        self::assertTrue($secure->secureFor(false));
        self::assertSame('example.com', $secure->cookieDomain);
        self::assertSame(3600, $secure->cookieLifetime);
    }

    private function storage(?SessionOptions $options = null): SessionStorage
    {
        return new SessionStorage($options ?? new SessionOptions(gcProbability: 0), $this->handler);
    }

    private function storageOf(Session $session): SessionStorage
    {
        $storage = (\Closure::bind(static fn (Session $s): mixed => $s->storage, null, Session::class))($session);
        self::assertInstanceOf(SessionStorage::class, $storage);

        return $storage;
    }
}
