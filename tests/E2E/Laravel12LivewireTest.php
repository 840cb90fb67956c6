<?php

declare(strict_types=1);

namespace Spindle\Tests\E2E;

use Spindle\Tests\E2E\Support\E2ETestCase;
use Spindle\Tests\E2E\Support\LaravelFixture;
use Spindle\Tests\E2E\Support\ServerProcess;

/**
 * Livewire 3 on the Laravel 12 fixture app (FIXTURE_LIVEWIRE=1 registers it), one worker that starts with a single instance, so
 * that instances boot while other requests render: 20 clients at once load a mix of pages with
 * a Livewire counter (whose render waits) and plain pages (which wait as long), then post an
 * update of each counter at once. Every Livewire page carries Livewire's script exactly once, no
 * plain page carries it, nothing fails, and the component stack seen inside each render holds
 * that component alone.
 *
 * @group frameworks
 */
final class Laravel12LivewireTest extends E2ETestCase
{
    private const CLIENTS = 20;
    private const SCRIPT = '/livewire/livewire.min.js';
    private const END = "\n@@status=%{http_code}@@\n";

    private static ?ServerProcess $server = null;

    public static function setUpBeforeClass(): void
    {
        LaravelFixture::useTestDatabase();
        \putenv('SPINDLE_WARM_INSTANCES=1');
        \putenv('FIXTURE_LIVEWIRE=1');
        try {
            self::$server = ServerProcess::start(LaravelFixture::path(LaravelFixture::LARAVEL_12), ['--workers=1']);
        } finally {
            \putenv('SPINDLE_WARM_INSTANCES');
            \putenv('FIXTURE_LIVEWIRE');
        }
    }

    public static function tearDownAfterClass(): void
    {
        self::$server?->stop();
        self::$server = null;
        parent::tearDownAfterClass();
    }

    private static function server(): ServerProcess
    {
        \assert(self::$server !== null);

        return self::$server;
    }

    /**
     * Splits one curl run's output (-w self::END after each transfer) into its responses.
     *
     * @return list<array{status: int, body: string}>
     */
    private static function responses(string $output): array
    {
        \preg_match_all('/(.*?)\n@@status=(\d+)@@\n/s', $output, $matches, \PREG_SET_ORDER);
        $responses = [];
        foreach ($matches as $match) {
            $responses[] = ['status' => (int) $match[2], 'body' => $match[1]];
        }

        return $responses;
    }

    public function testPagesAndUpdatesOfTwentyConcurrentClients(): void
    {
        $jars = [];
        $runs = [];
        for ($client = 0; $client < self::CLIENTS; ++$client) {
            $jars[$client] = $this->cookieJar();
            $arguments = ['-c', $jars[$client], '-b', $jars[$client]];
            // Each client loads three pages of each kind, starting with one or the other.
            for ($page = 0; $page < 6; ++$page) {
                $kind = ($client + $page) % 2 === 0 ? 'page' : 'plain';
                \array_push($arguments, '-w', self::END, self::server()->url("/lw/$kind/c{$client}p{$page}"));
            }
            $runs[] = $arguments;
        }
        $snapshots = [];
        $pages = 0;
        foreach (LaravelFixture::curlAll($runs, 60.0) as $client => $output) {
            $responses = self::responses($output);
            self::assertCount(6, $responses, "client $client: " . $output . "\n" . self::server()->stderr());
            foreach ($responses as $page => $response) {
                $tag = "c{$client}p{$page}";
                self::assertSame(200, $response['status'], "$tag: " . $response['body'] . "\n" . self::server()->stderr());
                self::assertStringContainsString("<p>page $tag</p>", $response['body']);
                if (($client + $page) % 2 === 0) {
                    ++$pages;
                    self::assertSame(1, \substr_count($response['body'], self::SCRIPT), "Livewire page $tag must load Livewire's script once: " . $response['body']);
                    self::assertSame(1, \substr_count($response['body'], '<!-- Livewire Styles -->'), "Livewire page $tag must carry Livewire's styles once");
                    self::assertStringContainsString('depth=1', $response['body'], "$tag rendered with other requests' components on the stack");
                    self::assertSame(1, \preg_match('/wire:snapshot="([^"]+)"/', $response['body'], $snapshot), $tag);
                    self::assertSame(1, \preg_match('/data-csrf="([^"]+)"/', $response['body'], $csrf), $tag);
                    $snapshots[$client] = [\html_entity_decode($snapshot[1], \ENT_QUOTES | \ENT_HTML5), $csrf[1]];
                    // The component's hooks all ran (an instance booting meanwhile reset none of
                    // them): its nesting hook recorded its (no) children, which an update reads.
                    $memo = \json_decode($snapshots[$client][0], true)['memo'] ?? null;
                    self::assertIsArray($memo, $snapshots[$client][0]);
                    self::assertSame([], $memo['children'] ?? null, "$tag: " . $snapshots[$client][0]);
                } else {
                    self::assertStringNotContainsString('livewire', \strtolower($response['body']), "plain page $tag got Livewire's assets");
                }
            }
        }
        self::assertSame(self::CLIENTS * 3, $pages);

        // Each client clicks its counter's button once, all at the same time.
        $updates = [];
        foreach ($snapshots as $client => [$snapshot, $csrf]) {
            $payload = \json_encode([
                '_token' => $csrf,
                'components' => [['snapshot' => $snapshot, 'updates' => new \stdClass(), 'calls' => [['path' => '', 'method' => 'increment', 'params' => []]]]],
            ], \JSON_THROW_ON_ERROR);
            $updates[] = [
                '-b', $jars[$client], '-w', self::END,
                '-H', 'Content-Type: application/json', '-H', 'X-Livewire: 1',
                '--data-binary', $payload, self::server()->url('/livewire/update'),
            ];
        }
        foreach (LaravelFixture::curlAll($updates, 60.0) as $i => $output) {
            $responses = self::responses($output);
            self::assertCount(1, $responses, $output);
            self::assertSame(200, $responses[0]['status'], "update $i: " . $responses[0]['body'] . "\n" . self::server()->stderr());
            $data = \json_decode($responses[0]['body'], true);
            self::assertIsArray($data, $responses[0]['body']);
            $component = $data['components'][0] ?? null;
            self::assertIsArray($component, $responses[0]['body']);
            $html = $component['effects']['html'] ?? '';
            self::assertIsString($html);
            self::assertStringContainsString('<span class="count">1</span>', $html);
            self::assertStringContainsString('depth=1', $html);
        }
    }

    public function testAComponentThatFailsLeavesNothingOnTheStackForTheNextRequest(): void
    {
        // Once the pool has its spare instance booted, requests that do not overlap run on the
        // instance given back last.
        for ($i = 0; $i < 3; ++$i) {
            self::curl(['-s', self::server()->url("/lw/page/before$i")]);
        }
        $failed = self::curl(['-s', '-o', '/dev/null', '-w', '%{http_code}', self::server()->url('/lw/failing')]);
        self::assertSame('500', $failed['out']);
        // The failed request's instance serves these.
        for ($i = 0; $i < 3; ++$i) {
            $page = self::curl(['-s', self::server()->url("/lw/page/after$i")]);
            self::assertStringContainsString('depth=1', $page['out'], self::server()->stderr());
            self::assertSame(1, \substr_count($page['out'], self::SCRIPT));
        }
    }
}
