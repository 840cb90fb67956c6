<?php

declare(strict_types=1);

// bin/spindle serve examples/hello.php
// A closure may return a string: Spindle sends it as 200 text/plain.
return static fn (): string => 'Hello World';
