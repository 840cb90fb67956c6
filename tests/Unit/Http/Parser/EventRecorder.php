<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Http\Parser;

use Spindle\Http\HttpLimits;
use Spindle\Http\Parser\RequestHead;
use Spindle\Http\Parser\RequestParser;

/**
 * Collects what a RequestParser emits: the heads, the body of each request (all onBody pieces
 * concatenated) and how many requests completed. Also notes callback sequences the parser must
 * never produce (a body piece outside a request, an empty piece, a head while one is still open).
 */
final class EventRecorder
{
    /** @var list<RequestHead> */
    public array $heads = [];

    /** @var list<string> one entry per head */
    public array $bodies = [];

    public int $completed = 0;

    /** @var list<string> */
    public array $violations = [];

    private bool $open = false;

    public function parser(?HttpLimits $limits = null): RequestParser
    {
        return new RequestParser(
            $limits ?? new HttpLimits(),
            function (RequestHead $head): void {
                if ($this->open) {
                    $this->violations[] = 'onHead while the previous request is not complete';
                }
                $this->heads[] = $head;
                $this->bodies[] = '';
                $this->open = true;
            },
            function (string $piece): void {
                if (!$this->open) {
                    $this->violations[] = 'onBody outside a request';

                    return;
                }
                if ($piece === '') {
                    $this->violations[] = 'empty onBody piece';
                }
                $this->bodies[] = \array_pop($this->bodies) . $piece;
            },
            function (): void {
                if (!$this->open) {
                    $this->violations[] = 'onComplete without an open request';
                }
                $this->open = false;
                ++$this->completed;
            },
        );
    }

    /**
     * Everything recorded, in a form assertSame can compare between two runs.
     *
     * @return list<array{head: array<string, mixed>, body: string, complete: bool}>
     */
    public function requests(): array
    {
        $out = [];
        foreach ($this->heads as $i => $head) {
            $out[] = ['head' => \get_object_vars($head), 'body' => $this->bodies[$i], 'complete' => $i < $this->completed];
        }

        return $out;
    }
}
