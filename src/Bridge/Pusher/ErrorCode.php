<?php

declare(strict_types=1);

namespace Spindle\Bridge\Pusher;

/**
 * The Pusher protocol's error codes that pusher-js acts on: 4000–4099 make it give up (no
 * reconnection), 4100–4199 reconnect after a back-off, 4200–4299 reconnect at once; 4300–4399 are
 * errors a connection survives.
 */
enum ErrorCode: int
{
    case ApplicationDoesNotExist = 4001;
    case OverCapacity = 4004;
    case Unauthorized = 4009;
    case GenericReconnect = 4200;
    case PongNotReceived = 4201;
    case ClosedAfterInactivity = 4202;
    case ClientEventRejected = 4301;

    public function message(): string
    {
        return match ($this) {
            self::ApplicationDoesNotExist => 'Application does not exist',
            self::OverCapacity => 'Application is over connection quota',
            self::Unauthorized => 'Connection is unauthorized',
            self::GenericReconnect => 'Generic reconnect immediately',
            self::PongNotReceived => 'Pong reply not received in time',
            self::ClosedAfterInactivity => 'Closed after inactivity',
            self::ClientEventRejected => 'Client event rejected',
        };
    }
}
