<?php

declare(strict_types=1);

namespace Spindle\Tests\Integration\HttpClient;

/**
 * nginx serving HTTPS on 127.0.0.1 with a certificate signed by a CA made for the test (openssl),
 * for localhost and 127.0.0.1; client certificates are asked for (optional) and reported in
 * X-Client-Verify, the SNI name in X-Sni, the connection number in X-Connection. Also plain
 * HTTP on a second port (for the keep-alive benchmark). Stopped by its pid.
 */
final class TlsNginx
{
    /** @param resource $process */
    private function __construct(
        private $process,
        public readonly string $dir,
        public readonly int $port,
        public readonly int $plainPort,
    ) {
    }

    public static function binary(): ?string
    {
        foreach (['/usr/sbin/nginx', '/usr/local/sbin/nginx', '/usr/bin/nginx'] as $candidate) {
            if (\is_executable($candidate)) {
                return $candidate;
            }
        }

        return null;
    }

    public static function start(): self
    {
        $binary = self::binary() ?? throw new \RuntimeException('nginx is not installed');
        $dir = \sys_get_temp_dir() . '/spindle-tls-' . \getmypid() . '-' . \bin2hex(\random_bytes(3));
        \mkdir($dir . '/logs', 0777, true);
        self::makeCertificates($dir);
        [$port, $plainPort] = [self::freePort(), self::freePort()];
        $paths = '';
        foreach (['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'] as $kind) {
            $paths .= "    {$kind}_temp_path {$dir}/{$kind};\n";
        }
        $user = \posix_geteuid() === 0 ? "user root;\n" : '';
        \file_put_contents($dir . '/nginx.conf', <<<CONF
            {$user}worker_processes 1;
            daemon off;
            pid {$dir}/nginx.pid;
            error_log {$dir}/logs/error.log;
            events { worker_connections 512; }
            http {
                access_log off;
                keepalive_requests 100000;
            {$paths}
                server {
                    listen 127.0.0.1:{$port} ssl;
                    ssl_certificate {$dir}/server.pem;
                    ssl_certificate_key {$dir}/server.key;
                    ssl_client_certificate {$dir}/ca.pem;
                    ssl_verify_client optional;
                    location / {
                        add_header X-Client-Verify \$ssl_client_verify always;
                        add_header X-Sni "\$ssl_server_name" always;
                        add_header X-Connection \$connection always;
                        return 200 "tls ok";
                    }
                }
                server {
                    listen 127.0.0.1:{$plainPort};
                    location / {
                        add_header X-Connection \$connection always;
                        return 200 "hello";
                    }
                }
            }
            CONF);
        $process = \proc_open(
            [$binary, '-e', $dir . '/logs/error.log', '-p', $dir, '-c', $dir . '/nginx.conf'],
            [0 => ['file', '/dev/null', 'r'], 1 => ['file', $dir . '/logs/stdout', 'w'], 2 => ['file', $dir . '/logs/stderr', 'w']],
            $pipes,
        );
        if ($process === false) {
            throw new \RuntimeException('nginx could not be started');
        }
        $server = new self($process, $dir, $port, $plainPort);
        // nginx prints no readiness line: it is ready once its sockets take connections.
        $deadline = \microtime(true) + 10.0;
        foreach ([$port, $plainPort] as $p) {
            while (($socket = @\stream_socket_client('tcp://127.0.0.1:' . $p, $errno, $errstr, 0.5)) === false) {
                if (!\proc_get_status($process)['running'] || \microtime(true) > $deadline) {
                    $server->stop();
                    throw new \RuntimeException('nginx did not start: ' . \file_get_contents($dir . '/logs/error.log'));
                }
                \usleep(20000);
            }
            \fclose($socket);
        }

        return $server;
    }

    public function url(string $host = '127.0.0.1', string $path = '/'): string
    {
        return 'https://' . $host . ':' . $this->port . $path;
    }

    public function stop(): void
    {
        $status = \proc_get_status($this->process);
        if ($status['running']) {
            \posix_kill($status['pid'], \SIGTERM);
        }
        \proc_close($this->process);
        \exec('rm -rf ' . \escapeshellarg($this->dir));
    }

    private static function makeCertificates(string $dir): void
    {
        $run = static function (string $command) use ($dir): void {
            \exec('cd ' . \escapeshellarg($dir) . ' && ' . $command . ' 2>&1', $output, $code);
            if ($code !== 0) {
                throw new \RuntimeException('openssl failed: ' . \implode("\n", $output));
            }
        };
        \file_put_contents($dir . '/san.ext', "subjectAltName=DNS:localhost,IP:127.0.0.1\nextendedKeyUsage=serverAuth\n");
        \file_put_contents($dir . '/client.ext', "extendedKeyUsage=clientAuth\n");
        $run('openssl req -x509 -newkey rsa:2048 -nodes -keyout ca.key -out ca.pem -days 2 -subj "/CN=Spindle Test CA"');
        $run('openssl req -newkey rsa:2048 -nodes -keyout server.key -out server.csr -subj "/CN=localhost"');
        $run('openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out server.pem -days 2 -extfile san.ext');
        $run('openssl req -newkey rsa:2048 -nodes -keyout client.key -out client.csr -subj "/CN=spindle-client"');
        $run('openssl x509 -req -in client.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out client.pem -days 2 -extfile client.ext');
    }

    private static function freePort(): int
    {
        $socket = \stream_socket_server('tcp://127.0.0.1:0');
        if ($socket === false) {
            throw new \RuntimeException('no free port');
        }
        $name = (string) \stream_socket_get_name($socket, false);
        \fclose($socket);

        return (int) \substr($name, (int) \strrpos($name, ':') + 1);
    }
}
