<?php

declare(strict_types=1);

namespace Spindle\Http\WebSocket;

/**
 * The registered close status codes (RFC 6455 §7.4.1 and the IANA registry). A close frame may
 * also carry a code the enum does not name (3000–4999, for libraries and applications): those
 * travel as plain ints, and isValidOnWire() says which ints a peer may send.
 */
enum CloseCode: int
{
    case Normal = 1000;
    case GoingAway = 1001;
    case ProtocolError = 1002;
    case UnsupportedData = 1003;
    /** Never on the wire: a close frame without a code. */
    case NoStatus = 1005;
    /** Never on the wire: the connection was lost without a closing handshake. */
    case Abnormal = 1006;
    case InvalidPayload = 1007;
    case PolicyViolation = 1008;
    case MessageTooBig = 1009;
    case MandatoryExtension = 1010;
    case InternalError = 1011;
    case ServiceRestart = 1012;
    case TryAgainLater = 1013;
    case BadGateway = 1014;
    /** Never on the wire: the TLS handshake failed. */
    case TlsHandshake = 1015;

    /**
     * Whether a peer may send $code in a close frame: 1000–1003, 1007–1014 (1012–1014 are
     * registered with IANA after RFC 6455 and sent by servers that restart), 3000–4999. Anything
     * else (0–999, 1004–1006, 1015, 1016–2999, 5000 and up) fails the connection with 1002.
     */
    public static function isValidOnWire(int $code): bool
    {
        return ($code >= 1000 && $code <= 1003)
            || ($code >= 1007 && $code <= 1014)
            || ($code >= 3000 && $code <= 4999);
    }
}
