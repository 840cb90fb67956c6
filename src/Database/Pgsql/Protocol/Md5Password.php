<?php

declare(strict_types=1);

namespace Spindle\Database\Pgsql\Protocol;

/** The answer to AuthenticationMD5Password: "md5" . md5(md5(password . user) . salt). */
final class Md5Password
{
    private function __construct()
    {
    }

    public static function hash(string $user, #[\SensitiveParameter] string $password, string $salt): string
    {
        return 'md5' . md5(md5($password . $user) . $salt);
    }
}
