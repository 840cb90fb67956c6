<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Architecture;

use PHPUnit\Framework\TestCase;

/**
 * No file of src/ over 500 lines without a reason in its header: a file that grows past it is
 * split by responsibility, or its class's doc comment says why it is one class, in a paragraph
 * that begins "Over 500 lines:".
 */
final class FileSizeTest extends TestCase
{
    private const LIMIT = 500;
    private const SRC = __DIR__ . '/../../../src';

    public function testEveryFileOverTheLimitSaysWhyInItsHeader(): void
    {
        $unexplained = [];
        foreach (self::files() as $path => $source) {
            $lines = self::lines($source);
            if ($lines > self::LIMIT && self::reason($source) === null) {
                $unexplained[] = \sprintf('src/%s (%d lines)', $path, $lines);
            }
        }

        self::assertSame([], $unexplained, \sprintf('files of src/ over %d lines: split them, or say why not in the class\'s doc comment ("Over %d lines: …")', self::LIMIT, self::LIMIT));
    }

    public function testAReasonIsAParagraphOfTheClassDocComment(): void
    {
        $explained = "<?php\n/**\n * A thing.\n *\n * Over 500 lines: it is one state machine whose phases\n * share every field.\n */\nfinal class A {}\n";
        self::assertSame('it is one state machine whose phases share every field.', self::reason($explained));

        self::assertNull(self::reason("<?php\n/** A thing. */\nfinal class A {}\n"), 'no reason');
        self::assertNull(self::reason("<?php\n/**\n * Over 500 lines: it is.\n */\nfinal class A {}\n"), 'too short to be a reason');
        self::assertNull(self::reason("<?php\nfinal class A\n{\n    /** Over 500 lines: a reason in a method's comment is not the header's. */\n    public function f(): void {}\n}\n"));
        self::assertSame(3, self::lines("a\nb\nc\n"));
        self::assertSame(3, self::lines("a\nb\nc"));
    }

    /** The reason the doc comment of $source's first class, interface, trait or enum gives, or null. */
    private static function reason(string $source): ?string
    {
        $comment = null;
        foreach (\token_get_all($source) as $token) {
            if (!\is_array($token)) {
                continue;
            }
            if ($token[0] === \T_DOC_COMMENT) {
                $comment = $token[1];
            } elseif (\in_array($token[0], [\T_CLASS, \T_INTERFACE, \T_TRAIT, \T_ENUM], true)) {
                break;
            }
        }
        if ($comment === null) {
            return null;
        }
        $text = (string) \preg_replace('~^\s*(/\*\*|\*/|\*) ?~m', '', $comment);
        if (\preg_match('/^Over \d+ lines: (.+?)(?:\n\s*\n|\z)/ms', $text, $match) !== 1) {
            return null;
        }
        $reason = \trim((string) \preg_replace('/\s+/', ' ', $match[1]));

        return \strlen($reason) >= 40 ? $reason : null;
    }

    private static function lines(string $source): int
    {
        return \substr_count($source, "\n") + (\str_ends_with($source, "\n") || $source === '' ? 0 : 1);
    }

    /** @return array<string, string> source by path under src/ */
    private static function files(): array
    {
        $files = [];
        $iterator = new \RecursiveIteratorIterator(new \RecursiveDirectoryIterator(self::SRC, \FilesystemIterator::SKIP_DOTS));
        foreach ($iterator as $file) {
            \assert($file instanceof \SplFileInfo);
            if ($file->getExtension() === 'php') {
                $files[\substr($file->getPathname(), \strlen(self::SRC) + 1)] = (string) \file_get_contents($file->getPathname());
            }
        }
        \ksort($files);

        return $files;
    }
}
