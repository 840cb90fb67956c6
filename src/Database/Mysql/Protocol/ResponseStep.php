<?php

declare(strict_types=1);

namespace Spindle\Database\Mysql\Protocol;

/** Where the client stands inside one command response. */
enum ResponseStep
{
    /** The first packet of a (next) result: OK, ERR, LOCAL INFILE, column count, PREPARE_OK. */
    case First;
    case Columns;
    case ColumnsEof;
    case Rows;
    case Params;
    case ParamsEof;
}
