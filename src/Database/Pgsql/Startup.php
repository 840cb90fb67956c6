<?php

declare(strict_types=1);

namespace Spindle\Database\Pgsql;

use Spindle\Database\Pgsql\Protocol\Authentication;
use Spindle\Database\Pgsql\Protocol\Frontend;
use Spindle\Database\Pgsql\Protocol\Md5Password;
use Spindle\Database\Pgsql\Protocol\ProtocolError;
use Spindle\Database\Pgsql\Protocol\ReadyForQuery;
use Spindle\Database\Pgsql\Protocol\Scram;
use Spindle\Database\Pgsql\Protocol\ServerMessage;

/**
 * A session's handshake: SSLRequest and TLS as sslmode asks, StartupMessage, then cleartext,
 * md5 or SCRAM-SHA-256 authentication, up to the first ReadyForQuery.
 *
 * @internal
 */
final class Startup
{
    private function __construct()
    {
    }

    public static function run(Session $session, ?float $deadline): void
    {
        $config = $session->config;
        if ($config->sslMode !== SslMode::Disable && !$config->isUnixSocket()) {
            $session->send(Frontend::sslRequest(), $deadline, true);
            $answer = null;
            while ($answer === null) {
                $session->receive($deadline, true);
                $answer = $session->reader->sslAnswer();
            }
            if ($answer) {
                if ($session->reader->buffered() > 0) {
                    throw new PgsqlException('received unencrypted data after SSL response', '08P01');
                }
                $session->transport->enableTls(self::tlsOptions($session->config), $deadline);
            } elseif ($config->sslMode !== SslMode::Prefer) {
                throw new PgsqlException(Transport::where($config) . ' failed: server does not support SSL, but SSL was required', '08001');
            }
        }
        $parameters = ['user' => $config->user, 'database' => $config->database ?? $config->user, 'client_encoding' => 'UTF8']
            + $config->parameters;
        $session->send(Frontend::startup($parameters), $deadline, true);
        $scram = null;
        while (true) {
            $message = $session->nextMessage($deadline, true);
            if ($message instanceof Authentication) {
                switch ($message->code) {
                    case Authentication::OK:
                        $session->authenticated = true;
                        break;
                    case Authentication::CLEARTEXT:
                        $session->send(Frontend::password($config->password), $deadline, true);
                        break;
                    case Authentication::MD5:
                        $session->send(Frontend::password(Md5Password::hash($config->user, $config->password, $message->data)), $deadline, true);
                        break;
                    case Authentication::SASL:
                        if (!\in_array(Scram::MECHANISM, $message->mechanisms(), true)) {
                            throw new PgsqlException(Transport::where($config) . ' failed: none of the server\'s SASL authentication mechanisms are supported', '08001');
                        }
                        $scram = new Scram($config->password);
                        $session->send(Frontend::saslInitialResponse(Scram::MECHANISM, $scram->clientFirst()), $deadline, true);
                        break;
                    case Authentication::SASL_CONTINUE:
                        if ($scram === null) {
                            throw new ProtocolError('SASL continuation without a SASL exchange');
                        }
                        $session->send(Frontend::saslResponse($scram->clientFinal($message->data)), $deadline, true);
                        break;
                    case Authentication::SASL_FINAL:
                        if ($scram === null) {
                            throw new ProtocolError('SASL final message without a SASL exchange');
                        }
                        $scram->verifyServerFinal($message->data);
                        break;
                    default:
                        throw new PgsqlException(sprintf('%s failed: authentication method requested by the server (%d) is not supported', Transport::where($config), $message->code), '08001');
                }
                continue;
            }
            if ($message instanceof ServerMessage && $message->isError) {
                throw new PgsqlException(Transport::where($config) . ' failed: ' . $message->severity() . ':  ' . $message->message(), $message->sqlState() === '28P01' || $message->sqlState() === '28000' ? '08006' : $message->sqlState(), $message);
            }
            if ($message instanceof ReadyForQuery) {
                $session->status = $message->status;

                return;
            }
            $session->background($message);
        }
    }

    /** @return array<string, mixed> */
    private static function tlsOptions(ConnectionConfig $config): array
    {
        $verify = $config->sslMode === SslMode::VerifyCa || $config->sslMode === SslMode::VerifyFull;
        $options = [
            'verify_peer' => $verify,
            'verify_peer_name' => $config->sslMode === SslMode::VerifyFull,
            'allow_self_signed' => !$verify,
            'SNI_enabled' => !$config->isUnixSocket() && filter_var($config->host, FILTER_VALIDATE_IP) === false,
            'peer_name' => $config->host,
        ];
        if ($config->sslRootCert !== null) {
            $options['cafile'] = $config->sslRootCert;
        }

        return $config->tls + $options;
    }
}
