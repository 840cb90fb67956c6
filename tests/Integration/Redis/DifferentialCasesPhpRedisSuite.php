<?php

declare(strict_types=1);

namespace Spindle\Tests\Integration\Redis;

/**
 * More differential cases (see DifferentialCases): what phpredis's own test suite showed
 * missing — the serializer and compression options, arguments phpredis converts, the state after
 * a refused SELECT or AUTH, SORT, GEO, XCLAIM, XINFO and ACL replies, MULTI inside a pipeline.
 */
final class DifferentialCasesPhpRedisSuite
{
    /** @return array<string, \Closure(mixed): mixed> */
    public static function all(): array
    {
        return self::serializers() + self::conversions() + self::commands();
    }

    /** @return array<string, \Closure(mixed): mixed> */
    private static function serializers(): array
    {
        $cases = [];
        foreach (['php' => 1, 'igbinary' => 2, 'json' => 4] as $name => $serializer) {
            $values = ['hello world', 42, 1.5, true, ['<tag>' => 1729, 'list' => [1, 2]]];
            if ($name === 'json') {
                $values[2] = 2.25;
            }
            // Each value type through each kind of command, then the stored bytes read raw.
            $cases["serializer $name: strings"] = static function ($r) use ($serializer, $values): array {
                $out = [$r->setOption($r::OPT_SERIALIZER, $serializer), $r->getOption($r::OPT_SERIALIZER)];
                foreach ($values as $i => $value) {
                    $out[] = [$r->set("k$i", $value), $r->get("k$i"), $r->getSet("k$i", [$i]), $r->get("k$i")];
                }
                $out[] = [$r->mset(['a' => $values[4], 'b' => $values[1]]), $r->mget(['a', 'b', 'none']), $r->setex('e', 100, $values[0]), $r->get('e'), $r->setnx('n', $values[3]), $r->get('n')];
                $out[] = [$r->incr('counter'), $r->get('counter'), $r->set('plain', 'x'), $r->get('plain')];
                $r->setOption($r::OPT_SERIALIZER, $r::SERIALIZER_NONE);
                $out[] = $r->mget(['k0', 'k1', 'k2', 'k3', 'k4', 'a', 'e', 'n']);

                return $out;
            };
            $cases["serializer $name: lists sets hashes"] = static function ($r) use ($serializer, $values): array {
                $r->setOption($r::OPT_SERIALIZER, $serializer);
                $out = [];
                foreach ($values as $value) {
                    $out[] = $r->rPush('l', $value);
                }
                $out[] = [$r->lrange('l', 0, -1), $r->lIndex('l', 4), $r->lrem('l', $values[4]), $r->lSet('l', 0, ['k' => 'v']), $r->lInsert('l', $r::BEFORE, ['k' => 'v'], [1, 2, 3]), $r->lrange('l', 0, -1), $r->lPop('l'), $r->rPop('l')];
                $out[] = [$r->sAdd('s', $values[4], $values[1]), $r->sIsMember('s', $values[4]), $r->sIsMember('s', 'nope'), self::sorted($r->sMembers('s')), $r->sRem('s', $values[1]), $r->sMembers('s')];
                $out[] = [$r->hSet('h', 'f', $values[4]), $r->hSetNx('h', 'g', $values[3]), $r->hMSet('h', ['x' => $values[0], 'y' => $values[1]]), $r->hGet('h', 'f'), $r->hMGet('h', ['f', 'x', 'none']), $r->hGetAll('h'), $r->hVals('h'), $r->hKeys('h')];
                $out[] = [$r->zAdd('z', 1, $values[4], 2, $values[0], 3, $values[1]), $r->zRange('z', 0, -1), $r->zRange('z', 1, -1, true), $r->zScore('z', $values[4]), $r->zRank('z', $values[0]), $r->zIncrBy('z', 1.5, $values[0]), $r->zRem('z', $values[4]), $r->zRangeByScore('z', '-inf', '+inf')];
                $r->setOption($r::OPT_SERIALIZER, $r::SERIALIZER_NONE);
                $out[] = [$r->lrange('l', 0, -1), self::sorted($r->sMembers('s')), $r->hGetAll('h'), $r->zRange('z', 0, -1)];

                return $out;
            };
            $cases["serializer $name: helpers"] = static function ($r) use ($serializer): array {
                $r->setOption($r::OPT_SERIALIZER, $serializer);
                $out = [];
                foreach ([1, 1.5, 'one', ['an', 'array'], null, false] as $value) {
                    $out[] = [bin2hex($r->_serialize($value)), $r->_unserialize($r->_serialize($value)), bin2hex($r->_pack($value)), $r->_unpack($r->_pack($value))];
                }
                try {
                    $out[] = $r->_unserialize('not serialized');
                } catch (\RedisException $e) {
                    $out[] = $e->getMessage();
                }

                return $out;
            };
            $cases["serializer $name: multi and scans"] = static function ($r) use ($serializer, $values): array {
                $r->setOption($r::OPT_SERIALIZER, $serializer);
                $out = [$r->multi()->set('a', $values[4])->get('a')->rPush('l', $values[1])->lrange('l', 0, -1)->exec()];
                $r->sAdd('s', $values[4]);
                $r->hSet('h', 'f', $values[4]);
                $it = null;
                $out[] = $r->sScan('s', $it);
                $it = null;
                $out[] = $r->hScan('h', $it);

                return $out;
            };
        }
        // Which arguments are values and which replies hold them, command by command (JSON: readable).
        $cases['serializer json: every kind of command'] = static function ($r): array {
            $r->setOption($r::OPT_SERIALIZER, $r::SERIALIZER_JSON);
            $v = ['k' => 'v'];
            $out = [$r->append('a', 'x'), $r->append('a', 'y'), $r->get('a'), $r->setRange('r', 0, 'abc'), $r->get('r'), $r->getRange('a', 0, -1), $r->publish('channel', 'message')];
            $out[] = [$r->sAdd('s', $v, 'm'), $r->sMove('s', 't', $v), $r->sMembers('t'), $r->sRandMember('t'), $r->sRandMember('t', 2), $r->sPop('t'), $r->sMisMember('s', 'm', $v)];
            $out[] = [$r->hSetNx('h', 'f', $v), $r->hSetNx('h', 'f', 2), $r->hGet('h', 'f'), $r->hDel('h', 'nope'), $r->hKeys('h'), $r->hVals('h'), $r->hIncrBy('n', 'c', 2), $r->hGetAll('n')];
            $out[] = [$r->rPush('l', 'p'), $r->lInsert('l', $r::AFTER, 'p', $v), $r->lInsert('l', $r::BEFORE, $v, 1), $r->lrange('l', 0, -1), $r->rPushx('l', 2), $r->lPushx('none', 2), $r->rpoplpush('l', 'm'), $r->brpoplpush('l', 'm', 1), $r->lrange('m', 0, -1), $r->blPop(['m'], 1), $r->brPop(['m'], 1)];
            $out[] = [$r->zAdd('z', 1, 'a', 2, 'b', 3, 'c'), $r->zIncrBy('z', 5, 'a'), $r->zRevRank('z', 'a'), $r->zRangeByScore('z', '0', '10', ['withscores' => true]), $r->zRevRangeByScore('z', '10', '0'), $r->zPopMin('z'), $r->zPopMax('z'), $r->bzPopMin(['z'], 1)];
            $out[] = [$r->zAdd('lex', 0, 'a', 0, 'b'), $r->zRangeByLex('lex', '-', '+'), $r->zRevRangeByLex('lex', '+', '-'), $r->pfAdd('hll', ['x', $v]), $r->pfCount('hll')];
            $out[] = [$r->geoadd('g', 13.361389, 38.115556, 'p', 15.087269, 37.502669, 'q'), $r->geopos('g', 'p'), $r->geohash('g', 'p', 'q'), $r->geodist('g', 'p', 'q'), $r->georadius('g', 15, 37, 200, 'km'), $r->sort('l', ['alpha' => true])];
            $out[] = [$id = $r->xAdd('x', '1-1', ['f' => $v, 'g' => 2]), $r->xRange('x', '-', '+'), $r->xRevRange('x', '+', '-'), $r->xRead(['x' => '0']), $r->xGroup('CREATE', 'x', 'grp', '0'), $r->xReadGroup('grp', 'c', ['x' => '>']), $r->xClaim('x', 'grp', 'd', 0, [$id])];
            $out[] = [$r->eval('return ARGV[1]', ['plain'], 0), $r->rawCommand('GET', 'a'), $r->set('e', 1), $r->incrBy('e', 2), $r->get('e'), $r->incrByFloat('e', 0.5), $r->get('e')];

            return $out;
        };
        $cases['serializer none helpers'] = static fn ($r) => [$r->_serialize('test'), $r->_serialize(1), $r->_serialize([]), $r->_serialize(true), $r->_serialize(null), $r->_unserialize('x'), $r->getOption($r::OPT_SERIALIZER)];
        $cases['serializer refused values'] = static fn ($r) => [$r->setOption($r::OPT_SERIALIZER, 9), $r->setOption($r::OPT_COMPRESSION, 9), $r->getOption($r::OPT_SERIALIZER), $r->getOption($r::OPT_COMPRESSION)];
        // LZF's bytes depend on the compressor's match finder: round trips and what each reads compared.
        $cases['compression lzf'] = static function ($r): array {
            $out = [$r->setOption($r::OPT_COMPRESSION, $r::COMPRESSION_LZF), $r->getOption($r::OPT_COMPRESSION), $r->setOption($r::OPT_COMPRESSION_LEVEL, 5), $r->getOption($r::OPT_COMPRESSION_LEVEL)];
            foreach (['', 'x', 'xxxxxxxxxx', str_repeat('abc', 1000), 'not repeated at all'] as $i => $value) {
                $out[] = [$r->set("c$i", $value), $r->get("c$i") === $value, $r->_uncompress($r->_compress($value)) === $value];
            }
            $out[] = [bin2hex($r->_compress('a')), bin2hex($r->_compress('')), $r->_uncompress('')];
            $r->setOption($r::OPT_COMPRESSION, $r::COMPRESSION_NONE);
            $out[] = [$r->set('bad', 'not-actually-lzf-compressed')];
            $r->setOption($r::OPT_COMPRESSION, $r::COMPRESSION_LZF);
            $out[] = $r->get('bad');
            try {
                $out[] = $r->_uncompress('zzz');
            } catch (\RedisException $e) {
                $out[] = $e->getMessage();
            }

            return $out;
        };
        // LZ4: for these values, the same bytes as phpredis.
        $cases['compression lz4'] = static function ($r): array {
            $out = [$r->setOption($r::OPT_COMPRESSION, $r::COMPRESSION_LZ4), $r->getOption($r::OPT_COMPRESSION)];
            foreach (['', 'x', 'hello hello hello hello', str_repeat('abc', 1000), str_repeat('Lorem ipsum dolor sit amet ', 500)] as $i => $value) {
                $out[] = [$r->set("c$i", $value), $r->get("c$i") === $value, bin2hex($r->_compress($value)), $r->_uncompress($r->_compress($value)) === $value];
            }
            $r->setOption($r::OPT_COMPRESSION, $r::COMPRESSION_NONE);
            $out[] = array_map(static fn (int $i): string => bin2hex((string) $r->get("c$i")), range(0, 4));
            $r->set('bad', 'not lz4 at all');
            $r->setOption($r::OPT_COMPRESSION, $r::COMPRESSION_LZ4);
            $out[] = $r->get('bad');

            return $out;
        };
        // ZSTD: libzstd's bytes differ from Spindle's compressor's; round trips and what each reads.
        $cases['compression zstd'] = static function ($r): array {
            $out = [$r->setOption($r::OPT_COMPRESSION, $r::COMPRESSION_ZSTD), $r->getOption($r::OPT_COMPRESSION), $r->setOption($r::OPT_COMPRESSION_LEVEL, $r::COMPRESSION_ZSTD_MAX), $r->getOption($r::OPT_COMPRESSION_LEVEL)];
            foreach (['', 'x', 'hello hello hello hello', str_repeat('abc', 1000), random_bytes(100)] as $i => $value) {
                $out[] = [$r->set("c$i", $value), $r->get("c$i") === $value, $r->_uncompress($r->_compress($value)) === $value];
            }
            $r->setOption($r::OPT_COMPRESSION, $r::COMPRESSION_NONE);
            $r->set('bad', '123');
            $r->setOption($r::OPT_COMPRESSION, $r::COMPRESSION_ZSTD);
            $out[] = $r->get('bad');
            try {
                $out[] = $r->_uncompress('not zstd');
            } catch (\RedisException $e) {
                $out[] = $e->getMessage();
            }

            return $out;
        };
        $cases['compression lzf with serializer'] = static function ($r): array {
            $r->setOption($r::OPT_SERIALIZER, $r::SERIALIZER_PHP);
            $r->setOption($r::OPT_COMPRESSION, $r::COMPRESSION_LZF);

            return [$r->set('k', ['a' => str_repeat('x', 100)]), $r->get('k'), $r->rPush('l', [1, 2], 'x'), $r->lrange('l', 0, -1), $r->hMSet('h', ['f' => [true]]), $r->hGetAll('h')];
        };
        $cases['options defaults and values'] = static function ($r): array {
            $options = [$r::OPT_COMPRESSION_LEVEL, $r::OPT_MAX_RETRIES, $r::OPT_BACKOFF_ALGORITHM, $r::OPT_BACKOFF_BASE, $r::OPT_BACKOFF_CAP, $r::OPT_NULL_MULTIBULK_AS_NULL, $r::OPT_REPLY_LITERAL, $r::OPT_TCP_KEEPALIVE];
            $out = array_map(static fn (int $o): mixed => $r->getOption($o), $options);
            $out[] = [$r->setOption($r::OPT_MAX_RETRIES, 5), $r->getOption($r::OPT_MAX_RETRIES), $r->setOption($r::OPT_BACKOFF_ALGORITHM, 99), $r->setOption($r::OPT_BACKOFF_ALGORITHM, $r::BACKOFF_ALGORITHM_EXPONENTIAL), $r->getOption($r::OPT_BACKOFF_ALGORITHM)];
            $out[] = [$r->setOption($r::OPT_REPLY_LITERAL, true), $r->getOption($r::OPT_REPLY_LITERAL), $r->setOption($r::OPT_SCAN, 99), $r->getOption($r::OPT_SCAN)];

            return $out;
        };

        return $cases;
    }

    /** @return array<string, \Closure(mixed): mixed> */
    private static function conversions(): array
    {
        return [
            // (this file is strict: phpredis's coercion of strings and floats is in its own suite's tests)
            'incr decr by amount' => static fn ($r) => [$r->incr('n', 5), $r->incr('n', -3), $r->decr('n', 2), $r->decr('n'), $r->incr('n'), $r->get('n')],
            'expire at zero' => static fn ($r) => [$r->set('k', 'v'), $r->expire('k', 100), $r->ttl('k'), $r->expireAt('k', 0), $r->exists('k')],
            'setbit' => static fn ($r) => [$r->setBit('b', 0, true), $r->get('b'), $r->setBit('b', 1, true), $r->setBit('b', 0, false), $r->get('b')],
            'ping null and message' => static fn ($r) => [$r->ping(), $r->ping(null), $r->ping('BEEP')],
            'set invalid options' => static fn ($r) => [@$r->set('k', 'v', 'baz'), @$r->set('k', 'v', new \stdClass()), $r->exists('k'), $r->set('k', 'v', ['not-valid', 'nx', 'invalid', 'ex' => 200]), $r->ttl('k'), $r->set('k', 'w', [null, new \stdClass(), 'EX' => 60]), @$r->set('k', 'x', [null, 'EX' => []]), $r->get('k'), $r->set('k', 'y', 20.5), $r->ttl('k')],
            'sinterstore one array' => static fn ($r) => [$r->sAdd('x', 1, 2, 3), $r->sAdd('y', 2, 3, 4), $r->sInterStore(['d', 'x', 'y']), self::sorted($r->sMembers('d')), $r->sUnionStore('u', 'x', 'y')],
            'zrangebylex limit' => static fn ($r) => [$r->zAdd('z', 0, 'a', 0, 'b', 0, 'c', 0, 'd'), $r->zRangeByLex('z', '-', '[c', 1, 2), $r->zRangeByLex('z', '-', '(c', 1, 2), $r->zRevRangeByLex('z', '+', '-', 0, 1), $r->zRangeByLex('z', '-', '+')],
            'hmget invalid fields' => static fn ($r) => [$r->hMSet('h', ['x' => 1, 'y' => 2, 123 => 'n']), $r->hMGet('h', ['x', null, 'y', '', 'z', false]), $r->hMGet('h', [false, null, false]), $r->hMGet('h', [123]), $r->hMGet('h', [])],
            'pubsub invalid calls' => static fn ($r) => [$r->pubsub('numsub', 'not-an-array'), $r->pubsub('notacommand')],
            'scan type' => static function ($r) {
                $r->mset(['a' => 1, 'b' => 2]);
                $r->rPush('l', 1);
                $it = null;
                $keys = [];
                while (($batch = $r->scan($it, '*', 0, 'string')) !== false) {
                    $keys = array_merge($keys, $batch);
                }

                return self::sorted($keys);
            },
            'select refused' => static fn ($r) => [$r->select(-1), $r->set('k', 'v'), $r->select(99), $r->get('k'), $r->select(0), $r->get('k')],
            'auth refused keeps the connection' => static function ($r) {
                try {
                    $result = $r->auth('wrong-password');
                } catch (\RedisException $e) {
                    $result = $e->getMessage();
                }

                return [$result, $r->getAuth(), $r->set('k', 'v'), $r->get('k'), $r->ping()];
            },
            'auth wrong user' => static function ($r) {
                try {
                    $result = $r->auth(['nobody', 'nothing']);
                } catch (\RedisException $e) {
                    $result = $e->getMessage();
                }

                return [$result, $r->getAuth(), $r->ping()];
            },
            'getauth before auth' => static fn ($r) => $r->getAuth(),
        ];
    }

    /** @return array<string, \Closure(mixed): mixed> */
    private static function commands(): array
    {
        $people = static function ($r): void {
            $r->rPush('ids', 1, 2, 3, 4);
            $r->mset(['age_1' => 25, 'age_2' => 41, 'age_3' => 33, 'age_4' => 7, 'name_1' => 'Alice', 'name_2' => 'Bob', 'name_3' => 'Carol', 'name_4' => 'Dan']);
        };
        $geo = static fn ($r) => $r->geoadd('g', -121.837478, 39.728494, 'Chico', -121.494400, 38.581572, 'Sacramento', -122.032182, 37.322998, 'Cupertino');

        return [
            'sort plain' => static fn ($r) => [$r->rPush('l', 3, 1, 2), $r->sort('l'), $r->sort('l', ['sort' => 'desc']), $r->sort('l', ['sort' => 'ASC', 'limit' => [1, 1]]), $r->sort('none')],
            'sort by get' => static fn ($r) => [$people($r), $r->sort('ids', ['by' => 'age_*', 'get' => 'name_*']), $r->sort('ids', ['by' => 'age_*', 'get' => ['#', 'name_*'], 'limit' => ['0', 2]]), $r->sort('ids', ['by' => null, 'get' => null])],
            'sort alpha store' => static fn ($r) => [$r->rPush('w', 'pear', 'apple', 'fig'), $r->sort('w', ['alpha' => true]), $r->sort('w', ['alpha' => true, 'sort' => 'desc', 'store' => 'sorted']), $r->lrange('sorted', 0, -1), $r->sort('w'), $r->getLastError()],
            'geo add pos hash dist' => static fn ($r) => [$geo($r), $r->geopos('g', 'Chico', 'nowhere'), $r->geohash('g', 'Chico', 'nowhere'), $r->geodist('g', 'Chico', 'Sacramento'), $r->geodist('g', 'Chico', 'Sacramento', 'km'), $r->geodist('g', 'Chico', 'nowhere')],
            'geo radius' => static fn ($r) => [$geo($r), $r->georadius('g', -121.8, 39.7, 200, 'km'), $r->georadius('g', -121.8, 39.7, 300, 'km', ['withcoord', 'withdist', 'withhash', 'count' => 2, 'desc']), $r->georadius_ro('g', -121.8, 39.7, 200, 'mi', ['withdist', 'asc']), @$r->georadius('g', -121.8, 39.7, 200, 'km', ['count' => 0])],
            // (phpredis 5.3 crashes on 'store' with a prefix: without one only)
            'geo radius by member' => static fn ($r) => [$geo($r), $r->georadiusbymember('g', 'Chico', 150, 'km', ['withdist', 'asc']), $r->georadiusbymember_ro('g', 'Chico', 150, 'km')],
            'geo radius store' => static fn ($r) => $r->getOption($r::OPT_PREFIX) !== null ? 'phpredis 5.3 crashes' : [$geo($r), $r->georadius('g', -121.8, 39.7, 500, 'km', ['store' => 'near']), $r->zCard('near'), $r->georadius('g', -121.8, 39.7, 500, 'km', ['storedist' => 'dist']), $r->zRange('dist', 0, -1)],
            'xclaim' => static function ($r) {
                $id = $r->xAdd('s', '1-1', ['f' => 'v']);
                $r->xGroup('CREATE', 's', 'g', '0');
                $r->xReadGroup('g', 'c', ['s' => '>']);

                return [$r->xClaim('s', 'g', 'c2', 0, [$id]), $r->xClaim('s', 'g', 'c3', 0, [$id], ['JUSTID']), $r->xClaim('s', 'g', 'c4', 0, [$id], ['IDLE' => 5, 'RETRYCOUNT' => 2, 'FORCE']), $r->xClaim('s', 'g', 'c5', 3600000, [$id])];
            },
            'xinfo shapes' => static function ($r) {
                $r->xAdd('s', '1-1', ['f' => 'v']);
                $r->xAdd('s', '2-1', ['g' => 'w']);
                $r->xGroup('CREATE', 's', 'g', '0');
                $r->xReadGroup('g', 'c', ['s' => '>'], 1);
                $stream = $r->xInfo('STREAM', 's');
                $consumers = $r->xInfo('CONSUMERS', 's', 'g');

                return [$stream, $r->xInfo('GROUPS', 's'), array_map(static fn ($c) => array_keys($c), $consumers), array_keys($r->xInfo('STREAM', 's', 'FULL')), \count($r->xInfo('STREAM', 's', 'FULL', 1)['entries'])];
            },
            'xinfo empty stream' => static fn ($r) => [$r->xAdd('s', '1-1', ['a' => 'b']), $r->xDel('s', ['1-1']), $r->xInfo('STREAM', 's')],
            'xreadgroup negative count' => static fn ($r) => [$r->xGroup('CREATE', 's', 'g', '0', true), @$r->xReadGroup('g', 'c', ['s' => '>'], -1), @$r->xReadGroup('g', 'c', ['s' => '>'], null, -1)],
            'acl shapes' => static function ($r) {
                $out = [$r->acl('SETUSER', 'differential', 'on', '>secret', '+@all', '~*'), $r->acl('GETUSER', 'differential'), \in_array('differential', $r->acl('USERS'), true), $r->acl('WHOAMI'), $r->acl('DELUSER', 'differential'), \is_array($r->acl('CAT'))];
                try {
                    $r->auth(['differential', 'wrong']);
                } catch (\RedisException $e) {
                    $out[] = $e->getMessage();
                }
                $log = $r->acl('LOG');
                $out[] = \is_array($log) && isset($log[0]) ? [array_keys($log[0]), is_numeric($log[0]['age-seconds']), \gettype($log[0]['count'])] : $log;
                $out[] = $r->acl('LOG', 'RESET');

                return $out;
            },
            'pipeline with multi inside' => static fn ($r) => $r->pipeline()->ping()->multi()->set('x', 42)->incr('x')->exec()->ping()->multi()->get('x')->del('x')->exec()->ping()->exec(),
            'pipeline empty multi' => static fn ($r) => $r->pipeline()->multi()->exec()->exec(),
            'reply literal' => static fn ($r) => [$r->setOption($r::OPT_REPLY_LITERAL, true), $r->rawCommand('SET', 'k', 'v'), $r->eval("return {redis.call('set', KEYS[1], 'bar'), redis.call('ping')}", ['k'], 1), $r->set('k', 'v'), $r->ping()],
            'null multibulk geopos' => static fn ($r) => [$r->geoPos('none', 'a', 'b'), $r->setOption($r::OPT_NULL_MULTIBULK_AS_NULL, true), $r->geoPos('none', 'a', 'b'), $r->multi()->geoPos('none', 'a')->exec()],
        ];
    }

    /**
     * @param mixed $values
     *
     * @return mixed
     */
    private static function sorted($values)
    {
        if (\is_array($values)) {
            sort($values);
        }

        return $values;
    }
}
