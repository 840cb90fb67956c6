<?php

/*
| Closure-based console commands; the blog's command (blog:seed) is a class in app/Console/Commands.
*/
