<?php

declare(strict_types=1);

namespace Spindle\Tests\Integration\Redis;

/**
 * The command and argument shapes the differential suite runs through phpredis and through
 * Spindle's PhpRedisCompat. Each case gets a flushed database and a client (either one) and
 * returns what it saw; the suite compares values, PHP types, exceptions and getLastError().
 */
final class DifferentialCases
{
    /** @return array<string, \Closure(mixed): mixed> */
    public static function all(): array
    {
        return self::strings() + self::keys() + self::lists() + self::sets() + self::hashes()
            + self::sortedSets() + self::streams() + self::scripting() + self::scans() + self::transactions()
            + self::server() + self::errors() + DifferentialCasesPhpRedisSuite::all();
    }

    /** @return array<string, \Closure(mixed): mixed> */
    private static function strings(): array
    {
        return [
            'set get' => static fn ($r) => [$r->set('k', 'v'), $r->get('k')],
            'get missing' => static fn ($r) => $r->get('missing'),
            'set int value' => static fn ($r) => [$r->set('k', 42), $r->get('k')],
            'set float value' => static fn ($r) => [$r->set('k', 1.5), $r->get('k')],
            'set bool and null' => static fn ($r) => [$r->set('a', true), $r->set('b', false), $r->set('c', null), $r->mget(['a', 'b', 'c'])],
            'set ttl int' => static fn ($r) => [$r->set('k', 'v', 100), $r->ttl('k')],
            'set nx new' => static fn ($r) => $r->set('k', 'v', ['nx']),
            'set nx existing' => static fn ($r) => [$r->set('k', 'v'), $r->set('k', 'w', ['nx']), $r->get('k')],
            'set xx missing' => static fn ($r) => $r->set('k', 'v', ['xx']),
            'set nx ex' => static fn ($r) => [$r->set('k', 'v', ['nx', 'ex' => 50]), $r->ttl('k')],
            'set xx px' => static fn ($r) => [$r->set('k', 'v'), $r->set('k', 'w', ['xx', 'px' => 50000]), $r->pttl('k') > 40000],
            'set laravel style' => static fn ($r) => [$r->set('k', 'v', [null, 'EX' => 30]), $r->ttl('k')],
            'set get option' => static fn ($r) => [$r->set('k', 'old'), $r->set('k', 'new', ['get'])],
            'setex' => static fn ($r) => [$r->setex('k', 60, 'v'), $r->ttl('k'), $r->get('k')],
            'psetex' => static fn ($r) => [$r->psetex('k', 60000, 'v'), $r->get('k')],
            'setnx twice' => static fn ($r) => [$r->setnx('k', 'a'), $r->setnx('k', 'b'), $r->get('k')],
            'getset' => static fn ($r) => [$r->getSet('k', 'a'), $r->getSet('k', 'b')],
            'append' => static fn ($r) => [$r->append('k', 'ab'), $r->append('k', 'cd'), $r->get('k')],
            'getrange setrange' => static fn ($r) => [$r->set('k', 'Hello World'), $r->getRange('k', 0, 4), $r->setRange('k', 6, 'Redis'), $r->get('k')],
            'strlen' => static fn ($r) => [$r->set('k', 'abc'), $r->strlen('k'), $r->strlen('missing')],
            'incr decr' => static fn ($r) => [$r->incr('n'), $r->incr('n'), $r->decr('n'), $r->incrBy('n', 10), $r->decrBy('n', 3)],
            'incrbyfloat' => static fn ($r) => [$r->incrByFloat('f', 1.5), $r->incrByFloat('f', 0.25), $r->get('f')],
            'incr not integer' => static fn ($r) => [$r->set('k', 'abc'), $r->incr('k'), $r->getLastError()],
            'mset mget' => static fn ($r) => [$r->mset(['a' => '1', 'b' => '2']), $r->mget(['a', 'b', 'missing'])],
            'msetnx' => static fn ($r) => [$r->msetnx(['a' => '1']), $r->msetnx(['a' => '2', 'b' => '3']), $r->mget(['a', 'b'])],
            'mget empty values' => static fn ($r) => [$r->set('e', ''), $r->mget(['e'])],
            'getbit setbit' => static fn ($r) => [$r->setBit('b', 7, true), $r->getBit('b', 7), $r->getBit('b', 100), $r->get('b')],
            'bitcount bitpos' => static fn ($r) => [$r->set('b', 'foobar'), $r->bitCount('b'), $r->bitpos('b', 1)],
            'bitop' => static fn ($r) => [$r->set('a', 'abc'), $r->set('b', 'xyz'), $r->bitOp('AND', 'dest', 'a', 'b'), $r->get('dest')],
            'binary key and value' => static fn ($r) => [$r->set("k\0\r\n\xff", "v\0\r\n\xfe"), $r->get("k\0\r\n\xff"), $r->exists("k\0\r\n\xff")],
            'utf8 value' => static fn ($r) => [$r->set('ключ', 'значение ✓'), $r->get('ключ')],
            'large value 1 MiB' => static fn ($r) => [$r->set('big', str_repeat("ab\r\n", 262144)), \strlen((string) $r->get('big')), md5((string) $r->get('big'))],
            'getdel' => static fn ($r) => [$r->set('k', 'v'), $r->rawCommand('GETDEL', 'k'), $r->get('k')],
        ];
    }

    /** @return array<string, \Closure(mixed): mixed> */
    private static function keys(): array
    {
        return [
            'del variadic' => static fn ($r) => [$r->mset(['a' => 1, 'b' => 2, 'c' => 3]), $r->del('a', 'b', 'x')],
            'del array' => static fn ($r) => [$r->mset(['a' => 1, 'b' => 2]), $r->del(['a', 'b'])],
            'unlink' => static fn ($r) => [$r->set('a', 1), $r->unlink('a', 'b')],
            'exists' => static fn ($r) => [$r->set('a', 1), $r->exists('a'), $r->exists('a', 'a', 'b'), $r->exists('b')],
            'expire ttl persist' => static fn ($r) => [$r->set('k', 'v'), $r->expire('k', 100), $r->ttl('k'), $r->persist('k'), $r->ttl('k'), $r->ttl('missing')],
            'expire missing' => static fn ($r) => $r->expire('missing', 10),
            'pexpire pttl' => static fn ($r) => [$r->set('k', 'v'), $r->pexpire('k', 100000), $r->pttl('k') > 90000],
            'expireat' => static fn ($r) => [$r->set('k', 'v'), $r->expireAt('k', time() + 100), $r->ttl('k') > 90],
            'pexpireat' => static fn ($r) => [$r->set('k', 'v'), $r->pexpireAt('k', (time() + 100) * 1000), $r->ttl('k') > 90],
            'type of each' => static fn ($r) => [$r->set('s', 1), $r->lpush('l', 1), $r->sadd('t', 1), $r->zadd('z', 1, 'a'), $r->hset('h', 'f', 1), $r->xadd('x', '*', ['a' => 1]) !== false,
                $r->type('s'), $r->type('l'), $r->type('t'), $r->type('z'), $r->type('h'), $r->type('x'), $r->type('none')],
            'rename' => static fn ($r) => [$r->set('a', 1), $r->rename('a', 'b'), $r->get('b'), $r->exists('a')],
            'rename missing' => static fn ($r) => [$r->rename('nope', 'b'), $r->getLastError()],
            'renamenx' => static fn ($r) => [$r->mset(['a' => 1, 'b' => 2]), $r->renameNx('a', 'b'), $r->renameNx('a', 'c')],
            'keys pattern' => static fn ($r) => [$r->mset(['user:1' => 1, 'user:2' => 2, 'post:1' => 3]), self::sorted($r->keys('user:*'))],
            'keys none' => static fn ($r) => $r->keys('nothing*'),
            'randomkey empty' => static fn ($r) => $r->randomKey(),
            'randomkey one' => static fn ($r) => [$r->set('only', 1), $r->randomKey()],
            'dump restore' => static fn ($r) => [$r->set('a', 'v'), $r->restore('b', 0, $r->dump('a')), $r->get('b')],
            'dump missing' => static fn ($r) => $r->dump('missing'),
            'touch' => static fn ($r) => [$r->set('a', 1), $r->rawCommand('TOUCH', 'a', 'b')],
            'object encoding' => static fn ($r) => [$r->set('n', 123), $r->object('encoding', 'n'), $r->object('refcount', 'n')],
            'move' => static fn ($r) => [$r->set('a', 1), $r->move('a', 1), $r->exists('a')],
            'copy' => static fn ($r) => [$r->set('a', 1), $r->rawCommand('COPY', 'a', 'b'), $r->get('b')],
        ];
    }

    /** @return array<string, \Closure(mixed): mixed> */
    private static function lists(): array
    {
        return [
            'lpush rpush lrange' => static fn ($r) => [$r->lpush('l', 'a', 'b'), $r->rpush('l', 'c'), $r->lrange('l', 0, -1)],
            'lpush array value' => static fn ($r) => [$r->rpush('l', 'x', 'y', 'z'), $r->lLen('l')],
            'lpushx rpushx' => static fn ($r) => [$r->lpushx('l', 'a'), $r->rpush('l', 'b'), $r->lpushx('l', 'a'), $r->rpushx('l', 'c'), $r->lrange('l', 0, -1)],
            'lpop rpop' => static fn ($r) => [$r->rpush('l', 'a', 'b', 'c'), $r->lpop('l'), $r->rpop('l'), $r->lpop('missing')],
            'lpop count' => static fn ($r) => [$r->rpush('l', 'a', 'b', 'c'), $r->rawCommand('LPOP', $r->_prefix('l'), 2)],
            'llen' => static fn ($r) => [$r->rpush('l', 1, 2), $r->llen('l'), $r->llen('missing')],
            'lindex lset' => static fn ($r) => [$r->rpush('l', 'a', 'b'), $r->lindex('l', 1), $r->lindex('l', 5), $r->lset('l', 0, 'z'), $r->lrange('l', 0, -1)],
            'lset out of range' => static fn ($r) => [$r->rpush('l', 'a'), $r->lset('l', 5, 'x'), $r->getLastError()],
            'ltrim' => static fn ($r) => [$r->rpush('l', 1, 2, 3, 4), $r->ltrim('l', 1, 2), $r->lrange('l', 0, -1)],
            'lrem' => static fn ($r) => [$r->rpush('l', 'a', 'b', 'a', 'a'), $r->lrem('l', 'a', 2), $r->lrange('l', 0, -1)],
            'linsert' => static fn ($r) => [$r->rpush('l', 'a', 'c'), $r->lInsert('l', 'before', 'c', 'b'), $r->lInsert('l', 'after', 'zz', 'x'), $r->lrange('l', 0, -1)],
            'rpoplpush' => static fn ($r) => [$r->rpush('a', 1, 2), $r->rpoplpush('a', 'b'), $r->lrange('b', 0, -1), $r->rpoplpush('none', 'b')],
            'lmove' => static fn ($r) => [$r->rpush('a', 1, 2), $r->rawCommand('LMOVE', $r->_prefix('a'), $r->_prefix('b'), 'LEFT', 'RIGHT'), $r->lrange('b', 0, -1)],
            'lrange empty' => static fn ($r) => $r->lrange('missing', 0, -1),
            'blpop ready' => static fn ($r) => [$r->rpush('q', 'job'), $r->blpop(['q'], 1)],
            'blpop variadic' => static fn ($r) => [$r->rpush('q2', 'job'), $r->blpop('q1', 'q2', 1)],
            'brpop ready' => static fn ($r) => [$r->rpush('q', 'a', 'b'), $r->brpop('q', 1)],
            'blpop timeout' => static fn ($r) => $r->blpop(['empty'], 1),
            'brpoplpush' => static fn ($r) => [$r->rpush('a', 'x'), $r->brpoplpush('a', 'b', 1), $r->lrange('b', 0, -1)],
            'lpos' => static fn ($r) => [$r->rpush('l', 'a', 'b', 'c'), $r->rawCommand('LPOS', 'l', 'c'), $r->rawCommand('LPOS', 'l', 'z')],
        ];
    }

    /** @return array<string, \Closure(mixed): mixed> */
    private static function sets(): array
    {
        return [
            'sadd smembers' => static fn ($r) => [$r->sadd('s', 'a', 'b', 'a'), self::sorted($r->smembers('s'))],
            'srem' => static fn ($r) => [$r->sadd('s', 'a', 'b'), $r->srem('s', 'a', 'z'), $r->smembers('s')],
            'sismember' => static fn ($r) => [$r->sadd('s', 'a'), $r->sismember('s', 'a'), $r->sismember('s', 'b')],
            'scard' => static fn ($r) => [$r->sadd('s', 1, 2, 3), $r->scard('s'), $r->scard('missing')],
            'spop one' => static fn ($r) => [$r->sadd('s', 'only'), $r->spop('s'), $r->spop('s')],
            'spop count' => static fn ($r) => [$r->sadd('s', 'a', 'b', 'c'), \count($r->spop('s', 2))],
            'srandmember' => static fn ($r) => [$r->sadd('s', 'only'), $r->srandmember('s'), $r->srandmember('s', 2), $r->srandmember('missing')],
            'smove' => static fn ($r) => [$r->sadd('a', 'x'), $r->smove('a', 'b', 'x'), $r->smove('a', 'b', 'x'), $r->smembers('b')],
            'sinter sunion sdiff' => static fn ($r) => [$r->sadd('a', 1, 2, 3), $r->sadd('b', 2, 3, 4), self::sorted($r->sinter('a', 'b')), self::sorted($r->sunion(['a', 'b'])), self::sorted($r->sdiff('a', 'b'))],
            'store variants' => static fn ($r) => [$r->sadd('a', 1, 2), $r->sadd('b', 2, 3), $r->sinterstore('i', 'a', 'b'), $r->sunionstore('u', 'a', 'b'), $r->sdiffstore('d', 'a', 'b')],
            'smismember' => static fn ($r) => [$r->sadd('s', 'a'), $r->rawCommand('SMISMEMBER', 's', 'a', 'b')],
            'pfadd pfcount' => static fn ($r) => [$r->pfadd('h', ['a', 'b', 'c']), $r->pfadd('h', ['a']), $r->pfcount('h'), $r->pfadd('h2', ['d']), $r->pfmerge('m', ['h', 'h2']), $r->pfcount('m')],
        ];
    }

    /** @return array<string, \Closure(mixed): mixed> */
    private static function hashes(): array
    {
        return [
            'hset hget' => static fn ($r) => [$r->hset('h', 'f', 'v'), $r->hset('h', 'f', 'w'), $r->hget('h', 'f'), $r->hget('h', 'none'), $r->hget('missing', 'f')],
            'hsetnx' => static fn ($r) => [$r->hsetnx('h', 'f', 'a'), $r->hsetnx('h', 'f', 'b'), $r->hget('h', 'f')],
            'hmset hmget' => static fn ($r) => [$r->hmset('h', ['a' => 1, 'b' => 'two']), $r->hmget('h', ['a', 'b', 'c'])],
            'hmget numeric fields' => static fn ($r) => [$r->hmset('h', ['1' => 'one', '2' => 'two']), $r->hmget('h', [1, 2, 3])],
            'hgetall' => static fn ($r) => [$r->hmset('h', ['a' => 1, 'b' => 2, '10' => 'ten']), $r->hgetall('h'), $r->hgetall('missing')],
            'hdel' => static fn ($r) => [$r->hmset('h', ['a' => 1, 'b' => 2]), $r->hdel('h', 'a', 'z'), $r->hkeys('h')],
            'hlen hkeys hvals' => static fn ($r) => [$r->hmset('h', ['a' => 1, 'b' => 2]), $r->hlen('h'), $r->hkeys('h'), $r->hvals('h')],
            'hexists' => static fn ($r) => [$r->hset('h', 'f', 1), $r->hexists('h', 'f'), $r->hexists('h', 'g')],
            'hincrby hincrbyfloat' => static fn ($r) => [$r->hincrby('h', 'n', 5), $r->hincrby('h', 'n', -2), $r->hincrbyfloat('h', 'f', 1.25), $r->hgetall('h')],
            'hstrlen' => static fn ($r) => [$r->hset('h', 'f', 'abcd'), $r->hstrlen('h', 'f')],
            'hgetall binary fields' => static fn ($r) => [$r->hset('h', "f\0x", "v\r\n"), $r->hgetall('h')],
        ];
    }

    /** @return array<string, \Closure(mixed): mixed> */
    private static function sortedSets(): array
    {
        $seed = static fn ($r) => $r->zadd('z', 1, 'one', 2.5, 'two', 3, 'three');

        return [
            'zadd zrange' => static fn ($r) => [$seed($r), $r->zrange('z', 0, -1)],
            'zrange withscores' => static fn ($r) => [$seed($r), $r->zrange('z', 0, -1, true)],
            'zrevrange withscores' => static fn ($r) => [$seed($r), $r->zrevrange('z', 0, 1, true)],
            'zadd options nx' => static fn ($r) => [$seed($r), $r->zadd('z', ['nx'], 10, 'one', 4, 'four'), $r->zscore('z', 'one')],
            'zadd options xx ch' => static fn ($r) => [$seed($r), $r->zadd('z', ['xx', 'ch'], 10, 'one', 4, 'four'), $r->zscore('z', 'one')],
            'zadd incr' => static fn ($r) => [$seed($r), $r->zadd('z', ['incr'], 5, 'one')],
            'zadd float scores' => static fn ($r) => [$r->zadd('z', 0.1, 'a', -1e10, 'b', 1.0, 'c'), $r->zrange('z', 0, -1, true)],
            'zadd inf scores' => static fn ($r) => [$r->zadd('z', INF, 'hi', -INF, 'lo'), $r->zrange('z', 0, -1, true)],
            'zincrby' => static fn ($r) => [$seed($r), $r->zincrby('z', 1.5, 'one'), $r->zincrby('z', 1, 'new')],
            'zscore missing' => static fn ($r) => [$seed($r), $r->zscore('z', 'none'), $r->zscore('missing', 'x')],
            'zrank zrevrank' => static fn ($r) => [$seed($r), $r->zrank('z', 'two'), $r->zrevrank('z', 'two'), $r->zrank('z', 'none')],
            'zrem' => static fn ($r) => [$seed($r), $r->zrem('z', 'one', 'none'), $r->zcard('z')],
            'zcount' => static fn ($r) => [$seed($r), $r->zcount('z', '2', '+inf'), $r->zcount('z', '(1', '3')],
            'zrangebyscore' => static fn ($r) => [$seed($r), $r->zrangebyscore('z', '2', '3')],
            'zrangebyscore withscores' => static fn ($r) => [$seed($r), $r->zrangebyscore('z', '-inf', '+inf', ['withscores' => true])],
            'zrangebyscore limit' => static fn ($r) => [$seed($r), $r->zrangebyscore('z', '-inf', '+inf', ['withscores' => true, 'limit' => [1, 1]])],
            'zrevrangebyscore' => static fn ($r) => [$seed($r), $r->zrevrangebyscore('z', '+inf', '-inf', ['limit' => [0, 2]])],
            'zremrangebyscore rank' => static fn ($r) => [$seed($r), $r->zremrangebyscore('z', '0', '1'), $r->zremrangebyrank('z', 0, 0), $r->zrange('z', 0, -1)],
            'zcard' => static fn ($r) => [$seed($r), $r->zcard('z'), $r->zcard('missing')],
            'zinterstore' => static fn ($r) => [$seed($r), $r->zadd('y', 5, 'one', 7, 'two'), $r->zinterstore('out', ['z', 'y']), $r->zrange('out', 0, -1, true)],
            'zinterstore weights' => static fn ($r) => [$seed($r), $r->zadd('y', 5, 'one'), $r->zinterstore('out', ['z', 'y'], [2, 3], 'max'), $r->zrange('out', 0, -1, true)],
            'zunionstore' => static fn ($r) => [$seed($r), $r->zadd('y', 5, 'one', 9, 'nine'), $r->zunionstore('out', ['z', 'y']), $r->zrange('out', 0, -1, true)],
            'zunionstore aggregate min' => static fn ($r) => [$seed($r), $r->zadd('y', 0, 'one'), $r->zunionstore('out', ['z', 'y'], null, 'min'), $r->zrange('out', 0, -1, true)],
            'zrangebylex' => static fn ($r) => [$r->zadd('l', 0, 'a', 0, 'b', 0, 'c'), $r->zrangebylex('l', '[a', '(c'), $r->zlexcount('l', '-', '+'), $r->zremrangebylex('l', '[a', '[a')],
            'zpopmin zpopmax' => static fn ($r) => [$seed($r), $r->zpopmin('z'), $r->zpopmax('z', 2), $r->zpopmin('missing')],
            'bzpopmin' => static fn ($r) => [$seed($r), $r->bzpopmin('z', 1)],
            'zmscore' => static fn ($r) => [$seed($r), $r->rawCommand('ZMSCORE', 'z', 'one', 'none')],
            'zrange empty' => static fn ($r) => [$r->zrange('missing', 0, -1), $r->zrange('missing', 0, -1, true)],
        ];
    }

    /** @return array<string, \Closure(mixed): mixed> */
    private static function streams(): array
    {
        return [
            'xadd xlen' => static fn ($r) => [$r->xadd('s', '1-1', ['a' => '1']), $r->xadd('s', '2-1', ['b' => 'x', 'c' => 'y']), $r->xlen('s')],
            'xadd maxlen' => static fn ($r) => [$r->xadd('s', '1-1', ['a' => 1]), $r->xadd('s', '2-1', ['a' => 2], 1), $r->xlen('s')],
            'xrange' => static fn ($r) => [$r->xadd('s', '1-1', ['a' => '1']), $r->xadd('s', '2-1', ['b' => '2']), $r->xrange('s', '-', '+'), $r->xrange('s', '-', '+', 1)],
            'xrevrange' => static fn ($r) => [$r->xadd('s', '1-1', ['a' => '1']), $r->xadd('s', '2-1', ['b' => '2']), $r->xrevrange('s', '+', '-')],
            'xrange empty' => static fn ($r) => $r->xrange('missing', '-', '+'),
            'xread' => static fn ($r) => [$r->xadd('s', '1-1', ['a' => '1']), $r->xread(['s' => '0'])],
            'xread count' => static fn ($r) => [$r->xadd('s', '1-1', ['a' => '1']), $r->xadd('s', '2-1', ['a' => '2']), $r->xread(['s' => '0'], 1)],
            'xread block ready' => static fn ($r) => [$r->xadd('s', '1-1', ['a' => '1']), $r->xread(['s' => '0'], 10, 100)],
            'xread block timeout' => static fn ($r) => [$r->xadd('s', '1-1', ['a' => '1']), $r->xread(['s' => '$'], 1, 200)],
            'xdel xtrim' => static fn ($r) => [$r->xadd('s', '1-1', ['a' => 1]), $r->xadd('s', '2-1', ['a' => 2]), $r->xadd('s', '3-1', ['a' => 3]), $r->xdel('s', ['1-1']), $r->xtrim('s', 1), $r->xlen('s')],
            'xgroup xreadgroup xack' => static fn ($r) => [$r->xadd('s', '1-1', ['a' => 1]), $r->xgroup('CREATE', 's', 'g', '0'),
                $r->xreadgroup('g', 'c', ['s' => '>'], 10), $r->xpending('s', 'g'), $r->xack('s', 'g', ['1-1'])],
            'xgroup mkstream busygroup' => static fn ($r) => [$r->xgroup('CREATE', 's', 'g', '$', true), $r->xgroup('CREATE', 's', 'g', '$', true), $r->getLastError()],
            'xgroup destroy' => static fn ($r) => [$r->xgroup('CREATE', 's', 'g', '$', true), $r->xgroup('DESTROY', 's', 'g')],
        ];
    }

    /** @return array<string, \Closure(mixed): mixed> */
    private static function scripting(): array
    {
        return [
            'eval string' => static fn ($r) => $r->eval("return 'hello'"),
            'eval integer' => static fn ($r) => $r->eval('return 42'),
            'eval nil' => static fn ($r) => $r->eval('return nil'),
            'eval table' => static fn ($r) => $r->eval("return {1, 'two', {3}}"),
            'eval table with nil' => static fn ($r) => $r->eval("return {1, nil, 3}"),
            'eval status' => static fn ($r) => $r->eval("return redis.status_reply('FINE')"),
            'eval ok status' => static fn ($r) => $r->eval("return redis.call('SET', KEYS[1], ARGV[1])", ['k', 'v'], 1),
            'eval keys and args' => static fn ($r) => $r->eval('return {KEYS[1], KEYS[2], ARGV[1]}', ['a', 'b', 'c'], 2),
            'eval boolean' => static fn ($r) => [$r->eval('return true'), $r->eval('return false')],
            'eval error reply' => static fn ($r) => [$r->eval("return redis.error_reply('MYERR custom')"), $r->getLastError()],
            'eval error ERR' => static fn ($r) => [$r->eval("return redis.error_reply('ERR custom')"), $r->getLastError()],
            'eval syntax error' => static fn ($r) => [$r->eval('this is not lua'), \is_string($r->getLastError())],
            'eval laravel lock release' => static fn ($r) => [$r->set('lock', 'owner'), $r->eval("if redis.call('get',KEYS[1]) == ARGV[1] then return redis.call('del',KEYS[1]) else return 0 end", ['lock', 'owner'], 1)],
            'script load evalsha' => static fn ($r) => [$sha = $r->script('load', 'return ARGV[1]'), $r->evalSha($sha, ['x'], 0), $r->script('exists', $sha, str_repeat('0', 40))],
            'evalsha missing' => static fn ($r) => [$r->evalSha(str_repeat('a', 40)), $r->getLastError()],
            'script flush' => static fn ($r) => $r->script('flush'),
        ];
    }

    /** @return array<string, \Closure(mixed): mixed> */
    private static function scans(): array
    {
        $seed = static function ($r): void {
            for ($i = 0; $i < 60; ++$i) {
                $r->set('key:' . $i, $i);
            }
            $r->hmset('h', array_combine(array_map(static fn ($i) => 'f' . $i, range(0, 29)), range(0, 29)));
            $r->sadd('s', ...range(0, 29));
            for ($i = 0; $i < 30; ++$i) {
                $r->zadd('z', $i / 2, 'm' . $i);
            }
        };
        $drain = static function (callable $step): array {
            $all = [];
            $it = null;
            $rounds = 0;
            while (($batch = $step($it)) !== false && ++$rounds < 1000) {
                foreach ($batch as $k => $v) {
                    $all[] = \is_int($k) ? $v : [$k, $v];
                }
            }
            sort($all);

            return [$all, $it];
        };

        return [
            'scan all' => static fn ($r) => [$seed($r), $drain(static fn (&$it) => $r->scan($it, 'key:*', 7))],
            'scan no pattern' => static fn ($r) => [$seed($r), \count($drain(static fn (&$it) => $r->scan($it))[0])],
            'hscan' => static fn ($r) => [$seed($r), $drain(static fn (&$it) => $r->hscan('h', $it, 'f1*', 5))],
            'sscan' => static fn ($r) => [$seed($r), $drain(static fn (&$it) => $r->sscan('s', $it))],
            'zscan scores' => static fn ($r) => [$seed($r), $drain(static fn (&$it) => $r->zscan('z', $it, null, 100))],
            'scan finished iterator' => static function ($r) {
                $it = 0;

                return [$r->scan($it), $it];
            },
            'scan missing hash' => static function ($r) {
                $it = null;

                return [$r->hscan('none', $it), $it];
            },
        ];
    }

    /** @return array<string, \Closure(mixed): mixed> */
    private static function transactions(): array
    {
        return [
            'multi exec' => static fn ($r) => $r->multi()->set('a', 1)->incr('a')->get('a')->get('none')->exec(),
            'multi exec error inside' => static fn ($r) => $r->multi()->set('a', 'x')->incr('a')->lpush('a', 1)->get('a')->exec(),
            'multi returns self' => static fn ($r) => [$r->multi() === $r, $r->set('a', 1) === $r, $r->exec()],
            'pipeline' => static fn ($r) => $r->pipeline()->set('a', 1)->incr('a')->hset('h', 'f', 'v')->hgetall('h')->zadd('z', 1, 'm')->zrange('z', 0, -1, true)->exec(),
            'pipeline with errors' => static fn ($r) => $r->pipeline()->set('a', 'x')->incr('a')->get('a')->exec(),
            'discard' => static fn ($r) => [$r->multi()->set('a', 1)->discard(), $r->get('a')],
            'watch unchanged' => static fn ($r) => [$r->set('w', 1), $r->watch('w'), $r->multi()->incr('w')->exec()],
            'watch unwatch' => static fn ($r) => [$r->watch('w'), $r->unwatch(), $r->multi()->set('w', 1)->exec()],
            'exec without multi' => static fn ($r) => $r->exec(),
            'multi exec empty' => static fn ($r) => $r->multi()->exec(),
            'multi hgetall zrange scores' => static fn ($r) => $r->multi()->hmset('h', ['a' => 1])->hgetall('h')->zadd('z', 1.5, 'm')->zrange('z', 0, -1, true)->zscore('z', 'm')->exec(),
            'publish no subscribers' => static fn ($r) => $r->publish('nobody', 'hi'),
            'pubsub channels' => static fn ($r) => [$r->pubsub('channels'), $r->pubsub('numsub', ['a', 'b']), $r->pubsub('numpat')],
        ];
    }

    /** @return array<string, \Closure(mixed): mixed> */
    private static function server(): array
    {
        return [
            'ping' => static fn ($r) => $r->ping(),
            'ping message' => static fn ($r) => $r->ping('hello'),
            'echo' => static fn ($r) => $r->echo('hi'),
            'dbsize' => static fn ($r) => [$r->mset(['a' => 1, 'b' => 2]), $r->dbSize()],
            'flushdb' => static fn ($r) => [$r->set('a', 1), $r->flushDB(), $r->dbSize()],
            'flushdb async' => static fn ($r) => [$r->set('a', 1), $r->flushDB(true), $r->dbSize()],
            'time shape' => static fn ($r) => array_map('gettype', $r->time()),
            'info keys' => static fn ($r) => [isset($r->info()['redis_version']), \is_int($r->info()['connected_clients'] ?? null), array_keys($r->info('keyspace'))],
            'config get' => static fn ($r) => $r->config('GET', 'maxmemory-policy'),
            'config set' => static fn ($r) => [$r->config('SET', 'slowlog-max-len', '200'), $r->config('GET', 'slowlog-max-len')],
            'client setname getname' => static fn ($r) => [$r->client('SETNAME', 'differential'), $r->client('GETNAME')],
            'client list shape' => static fn ($r) => [\is_array($r->client('LIST')), isset($r->client('LIST')[0]['addr'])],
            'rawcommand set get' => static fn ($r) => [$r->rawCommand('SET', 'a', 'b'), $r->rawCommand('GET', 'a'), $r->rawCommand('GET', 'none')],
            'rawcommand integer array' => static fn ($r) => [$r->rawCommand('RPUSH', 'l', 'x', 'y'), $r->rawCommand('LRANGE', 'l', 0, -1), $r->rawCommand('HGETALL', 'nope')],
            'rawcommand status' => static fn ($r) => $r->rawCommand('PING'),
            'select other database' => static fn ($r) => [$r->select(1), $r->set('db1', 'x'), $r->select(0), $r->get('db1'), $r->select(1), $r->get('db1'), $r->flushDB(), $r->select(0)],
            'getLastError cleared' => static fn ($r) => [$r->set('k', 'a'), $r->incr('k'), \is_string($r->getLastError()), $r->clearLastError(), $r->getLastError()],
        ];
    }

    /** @return array<string, \Closure(mixed): mixed> */
    private static function errors(): array
    {
        return [
            'wrongtype get' => static fn ($r) => [$r->lpush('l', 1), $r->get('l'), $r->getLastError()],
            'wrongtype lpush' => static fn ($r) => [$r->set('s', 1), $r->lpush('s', 1), $r->getLastError()],
            'wrongtype hgetall' => static fn ($r) => [$r->set('s', 1), $r->hgetall('s')],
            'wrongtype zrange' => static fn ($r) => [$r->set('s', 1), $r->zrange('s', 0, -1, true)],
            'unknown command' => static fn ($r) => [$r->rawCommand('NOSUCHCOMMAND'), $r->getLastError()],
            'wrong arity' => static fn ($r) => [$r->rawCommand('GET'), $r->getLastError()],
            'syntax error set' => static fn ($r) => [$r->rawCommand('SET', 'k', 'v', 'EX', '0'), $r->getLastError()],
            'noscript' => static fn ($r) => [$r->evalSha(str_repeat('b', 40), [], 0), $r->getLastError()],
            'eval runtime error' => static fn ($r) => [$r->eval("return redis.call('INCR', KEYS[1])", ['s'], 1), $r->set('s', 'x'), \is_string($r->getLastError())],
            'oom error throws' => static function ($r) {
                $r->config('SET', 'maxmemory', '1');
                try {
                    return $r->set('k', 'v');
                } finally {
                    $r->config('SET', 'maxmemory', '0');
                }
            },
            'readonly kind throws' => static fn ($r) => $r->eval("return redis.error_reply('READONLY You cannot write')"),
            'multi runtime script error' => static fn ($r) => [$r->multi()->set('a', 1)->eval('not lua')->get('a')->exec(), $r->get('a')],
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
