<?php

declare(strict_types=1);

namespace Spindle\Http\StaticFiles;

/** Why a Range header does not yield a single servable byte range. */
enum RangeRejection
{
    /** Not a usable single bytes range (malformed, another unit, several ranges): serve the whole file with 200. */
    case Ignore;

    /** A well-formed bytes range that lies entirely beyond the file: 416 with "Content-Range: bytes *\/size". */
    case Unsatisfiable;
}
