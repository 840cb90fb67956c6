<?php

declare(strict_types=1);

namespace Spindle\Server\AccessLog;

use Spindle\Http\Request;

/**
 * Formats one access log line. The time strings are made once per second: the formatter runs
 * for every request and its cost is on the request path.
 *
 * combined: `203.0.113.7 - - [24/Nov/2026:06:43:42 +0000] "GET /a?b=1 HTTP/1.1" 200 11 "-" "curl/7.88.1" "3f1c2a9e00000001" 183 4121`
 * (nginx's combined format, then the request id, the duration in µs and the worker pid)
 *
 * json: `{"time":"2026-11-24T06:43:42.123Z","method":"GET","path":"/a","query":"b=1","status":200,"bytes":11,"duration_us":183,"pid":4121,"remote_addr":"203.0.113.7","user_agent":"curl/7.88.1","referer":"","request_id":"3f1c2a9e00000001","protocol":"HTTP/1.1"}`
 */
final class LineFormatter
{
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
     */
    public function format(Request $request, int $status, int $bytes, int $durationUs, string $remote, string $requestId, float $time): string
    {
        $second = (int) $time;
        if ($second !== $this->second) {
            $this->second = $second;
            $this->clf = \gmdate('d/M/Y:H:i:s +0000', $second);
            $this->iso = \gmdate('Y-m-d\TH:i:s', $second);
        }
        $agent = $request->headers['user-agent'][0] ?? '';
        $referer = $request->headers['referer'][0] ?? '';
        if ($this->format === AccessLogFormat::Combined) {
            return $remote . ' - - [' . $this->clf . '] "' . self::clf($request->method . ' ' . $request->target . ' HTTP/' . $request->protocolVersion)
                . '" ' . $status . ' ' . $bytes . ' "' . ($referer === '' ? '-' : self::clf($referer)) . '" "' . ($agent === '' ? '-' : self::clf($agent))
                . '" "' . self::clf($requestId) . '" ' . $durationUs . ' ' . $this->pid . "\n";
        }
        $ms = (int) (($time - $second) * 1000);

        return '{"time":"' . $this->iso . '.' . ($ms < 10 ? '00' : ($ms < 100 ? '0' : '')) . $ms . 'Z","method":' . self::json($request->method)
            . ',"path":' . self::json($request->path) . ',"query":' . self::json($request->query)
            . ',"status":' . $status . ',"bytes":' . $bytes . ',"duration_us":' . $durationUs . ',"pid":' . $this->pid
            . ',"remote_addr":' . self::json($remote) . ',"user_agent":' . self::json($agent) . ',"referer":' . self::json($referer)
            . ',"request_id":' . self::json($requestId) . ',"protocol":"HTTP/' . $request->protocolVersion . "\"}\n";
    }

    /** A JSON string; json_encode() only for what needs escaping (rare: it costs more than the check). */
    private static function json(string $value): string
    {
        if (\preg_match('/[^\x20-\x21\x23-\x5b\x5d-\x7e]/', $value) === 0) {
            return '"' . $value . '"';
        }

        return (string) \json_encode($value, \JSON_UNESCAPED_SLASHES | \JSON_UNESCAPED_UNICODE | \JSON_INVALID_UTF8_SUBSTITUTE);
    }

    /** As nginx escapes a log field: `"`, `\`, control and non-ASCII bytes as \xHH. */
    private static function clf(string $value): string
    {
        if (\preg_match('/[^\x20-\x21\x23-\x5b\x5d-\x7e]/', $value) === 0) {
            return $value;
        }

        return (string) \preg_replace_callback('/[^\x20-\x21\x23-\x5b\x5d-\x7e]/', static fn (array $m): string => \sprintf('\\x%02X', \ord($m[0])), $value);
    }
}
