<?php

declare(strict_types=1);

namespace Spindle\Bridge\Laravel;

use Spindle\Http\Request;
use Spindle\Http\Response;
use Spindle\Http\RunningRequest;

/**
 * 103 Early Hints for a Laravel app without a line of it changed (opt-in: `spindle.early_hints`
 * in config, or SPINDLE_EARLY_HINTS=1): the preload links of the last response to the same route
 * (its `Link` fields with rel=preload or modulepreload, as Laravel's
 * AddLinkHeadersForPreloadedAssets middleware adds them for Vite's assets) go out as a 103 as
 * soon as the next request for it arrives, while the app is still working on the page.
 *
 * The route is the method and path. Remembered per worker, for at most SIZE routes (the oldest
 * forgotten first); a response without such links forgets its route's.
 */
final class EarlyHintsMemory
{
    public const SIZE = 512;
    /** @var array<string, list<string>> the preload Link values by "METHOD /path" */
    private array $links = [];

    /** Sends the links remembered for $request's route, if any. */
    public function hint(Request $request): void
    {
        $links = $this->links[$request->method . ' ' . $request->path] ?? null;
        if ($links !== null) {
            RunningRequest::current()?->sendInformational(103, ['Link' => $links]);
        }
    }

    /** Remembers the preload links of $response for the next request to $request's route. */
    public function remember(Request $request, Response $response): void
    {
        if ($request->method !== 'GET' || $response->status !== 200) {
            return;
        }
        $key = $request->method . ' ' . $request->path;
        $preload = [];
        foreach ($response->headers as $name => $values) {
            if (\strcasecmp((string) $name, 'link') !== 0) {
                continue;
            }
            foreach ((array) $values as $value) {
                // One field may hold several links: "<a.css>; rel=preload; as=style, <b.js>; …".
                foreach (\preg_split('/,(?=\s*<)/', (string) $value) ?: [] as $link) {
                    if (\preg_match('/;\s*rel="?(?:[^";,]*\s)?(?:preload|modulepreload)\b/i', $link) === 1) {
                        $preload[] = \trim($link);
                    }
                }
            }
        }
        unset($this->links[$key]);
        if ($preload === []) {
            return;
        }
        if (\count($this->links) >= self::SIZE) {
            unset($this->links[\array_key_first($this->links)]);
        }
        $this->links[$key] = $preload;
    }
}
