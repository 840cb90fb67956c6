<?php

/*
| Closure-based console commands; the blog's commands are classes in app/Console/Commands.
*/
