<?php

declare(strict_types=1);

namespace Spindle\Database\Pgsql\Protocol;

/** The type byte of each backend message. */
enum MessageType: string
{
    case Authentication = 'R';
    case BackendKeyData = 'K';
    case BindComplete = '2';
    case CloseComplete = '3';
    case CommandComplete = 'C';
    case CopyData = 'd';
    case CopyDone = 'c';
    case CopyInResponse = 'G';
    case CopyOutResponse = 'H';
    case CopyBothResponse = 'W';
    case DataRow = 'D';
    case EmptyQueryResponse = 'I';
    case ErrorResponse = 'E';
    case FunctionCallResponse = 'V';
    case NegotiateProtocolVersion = 'v';
    case NoData = 'n';
    case NoticeResponse = 'N';
    case NotificationResponse = 'A';
    case ParameterDescription = 't';
    case ParameterStatus = 'S';
    case ParseComplete = '1';
    case PortalSuspended = 's';
    case ReadyForQuery = 'Z';
    case RowDescription = 'T';
}
