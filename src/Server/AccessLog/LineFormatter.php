<?php

declare(strict_types=1);

namespace Spindle\Server\AccessLog;

use Spindle\Http\Request;

/**
 * Formats one access log line. The time strings are made once per second: the formatter runs
 * for every request and its cost is on the request path.
 *
 * combined: `203.0.113.7 - - [24/Nov/2026:06:43:42 +0000] "GET /a?b=1 HTTP/1.1" 200 11 "-" "curl/7.88.1" "3f1c2a9e04b7-1" 183 4121`
 * (nginx's combined format, then the request id, the duration in µs and the worker pid; an
 * upgraded connection's line, written when it closes, ends with the WebSocket close code)
 *
 * json: `{"time":"2026-11-24T06:43:42.123Z","method":"GET","path":"/a","query":"b=1","status":200,"bytes":11,"duration_us":183,"pid":4121,"remote_addr":"203.0.113.7","user_agent":"curl/7.88.1","referer":"","request_id":"3f1c2a9e04b7-1","protocol":"HTTP/1.1"}`
 */
final class LineFormatter
{
    /** Bytes a log field cannot hold as they are: `"`, `\\`, control and non-ASCII bytes. */
    private const UNSAFE = '/[^\x20-\x21\x23-\x5b\x5d-\x7e]/';

    private int $second = -1;
    private string $clf = '';
    private string $iso = '';
    private readonly string $pid;

    public function __construct(private readonly AccessLogFormat $format, ?int $pid = null)
    {
        $this->pid = (string) ($pid ?? \getmypid());
    }

    /**
     * @param float $time the request's start (microtime)
     * @param int|null $closeCode an upgraded connection's WebSocket close code, written last (combined) or as "close_code" (json)
     */
    public function format(Request $request, int $status, int $bytes, int $durationUs, string $remote, string $requestId, float $time, ?int $closeCode = null): string
    {
        $second = (int) $time;
        if ($second !== $this->second) {
            $this->second = $second;
            $this->clf = \gmdate('d/M/Y:H:i:s +0000', $second);
            $this->iso = \gmdate('Y-m-d\TH:i:s', $second);
        }
        $agent = $request->headers['user-agent'][0] ?? '';
        $referer = $request->headers['referer'][0] ?? '';
        $method = $request->method;
        $version = $request->protocolVersion;
        // One check over every field that may need escaping; almost always nothing does.
        $clean = \preg_match(self::UNSAFE, "{$request->target}{$request->path}{$request->query}{$agent}{$referer}{$remote}{$requestId}") === 0;
        if ($this->format === AccessLogFormat::Combined) {
            $target = $request->target;
            if (!$clean) {
                [$target, $agent, $referer, $remote, $requestId] = \array_map(self::clf(...), [$target, $agent, $referer, $remote, $requestId]);
            }
            $agent = $agent === '' ? '-' : $agent;
            $referer = $referer === '' ? '-' : $referer;

            $close = $closeCode === null ? '' : " {$closeCode}";

            return "{$remote} - - [{$this->clf}] \"{$method} {$target} HTTP/{$version}\" {$status} {$bytes} \"{$referer}\" \"{$agent}\" \"{$requestId}\" {$durationUs} {$this->pid}{$close}\n";
        }
        $ms = \str_pad((string) (int) (($time - $second) * 1000), 3, '0', \STR_PAD_LEFT);
        $path = $request->path;
        $query = $request->query;
        $close = $closeCode === null ? '' : ",\"close_code\":{$closeCode}";
        if ($clean) {
            return "{\"time\":\"{$this->iso}.{$ms}Z\",\"method\":\"{$method}\",\"path\":\"{$path}\",\"query\":\"{$query}\",\"status\":{$status},\"bytes\":{$bytes},\"duration_us\":{$durationUs},\"pid\":{$this->pid},\"remote_addr\":\"{$remote}\",\"user_agent\":\"{$agent}\",\"referer\":\"{$referer}\",\"request_id\":\"{$requestId}\",\"protocol\":\"HTTP/{$version}\"{$close}}\n";
        }

        return \json_encode([
            'time' => "{$this->iso}.{$ms}Z",
            'method' => $method,
            'path' => $path,
            'query' => $query,
            'status' => $status,
            'bytes' => $bytes,
            'duration_us' => $durationUs,
            'pid' => (int) $this->pid,
            'remote_addr' => $remote,
            'user_agent' => $agent,
            'referer' => $referer,
            'request_id' => $requestId,
            'protocol' => "HTTP/{$version}",
        ] + ($closeCode === null ? [] : ['close_code' => $closeCode]), \JSON_UNESCAPED_SLASHES | \JSON_UNESCAPED_UNICODE | \JSON_INVALID_UTF8_SUBSTITUTE) . "\n";
    }

    /** As nginx escapes a log field: `"`, `\`, control and non-ASCII bytes as \xHH. */
    private static function clf(string $value): string
    {
        return (string) \preg_replace_callback(self::UNSAFE, static fn (array $m): string => \sprintf('\\x%02X', \ord($m[0])), $value);
    }
}
