<?php

declare(strict_types=1);

namespace Spindle\Redis\PhpRedis;

/**
 * @internal phpredis methods that map to one command by a simple rule: the Redis command, where
 * the keys are (so OPT_PREFIX applies to them), and how the reply reads.
 *
 * Key shapes: '' none · 'k' first argument · 'K' every argument (or one array of them) ·
 * 'kk' the first two · 'kv' a key then values (variadic or one array) · 'Kt' keys (variadic or an
 * array) then a timeout · 'kK' a destination key then keys (variadic or an array)
 */
final class CommandTable
{
    public const COMMANDS = [
        // strings
        'get' => ['GET', 'k', Reply::Str], 'getset' => ['GETSET', 'k', Reply::Str], 'getdel' => ['GETDEL', 'k', Reply::Str],
        'setex' => ['SETEX', 'k', Reply::Bool], 'psetex' => ['PSETEX', 'k', Reply::Bool], 'setnx' => ['SETNX', 'k', Reply::Bool],
        'append' => ['APPEND', 'k', Reply::Int], 'getrange' => ['GETRANGE', 'k', Reply::Str], 'setrange' => ['SETRANGE', 'k', Reply::Int],
        'strlen' => ['STRLEN', 'k', Reply::Int], 
        'incrby' => ['INCRBY', 'k', Reply::Int], 'decrby' => ['DECRBY', 'k', Reply::Int], 'incrbyfloat' => ['INCRBYFLOAT', 'k', Reply::Float],
        'mget' => ['MGET', 'K', Reply::List], 'getbit' => ['GETBIT', 'k', Reply::Int], 
        'bitcount' => ['BITCOUNT', 'k', Reply::Int], 'bitpos' => ['BITPOS', 'k', Reply::Int], 'bitop' => ['BITOP', 'opK', Reply::Int],
        // keys
        'del' => ['DEL', 'K', Reply::Int], 'delete' => ['DEL', 'K', Reply::Int], 'unlink' => ['UNLINK', 'K', Reply::Int],
        'exists' => ['EXISTS', 'K', Reply::Int], 'touch' => ['TOUCH', 'K', Reply::Int],
        
        'persist' => ['PERSIST', 'k', Reply::Bool],
        'ttl' => ['TTL', 'k', Reply::Int], 'pttl' => ['PTTL', 'k', Reply::Int], 'type' => ['TYPE', 'k', Reply::Type],
        'rename' => ['RENAME', 'kk', Reply::Bool], 'renamekey' => ['RENAME', 'kk', Reply::Bool], 'renamenx' => ['RENAMENX', 'kk', Reply::Bool],
        'keys' => ['KEYS', 'k', Reply::List], 'randomkey' => ['RANDOMKEY', '', Reply::Str], 'dump' => ['DUMP', 'k', Reply::Str],
        'restore' => ['RESTORE', 'k', Reply::Bool], 'move' => ['MOVE', 'k', Reply::Bool], 'copy' => ['COPY', 'kk', Reply::Bool],
        // lists
        'lpush' => ['LPUSH', 'kv', Reply::Int], 'rpush' => ['RPUSH', 'kv', Reply::Int], 'lpushx' => ['LPUSHX', 'kv', Reply::Int],
        'rpushx' => ['RPUSHX', 'kv', Reply::Int], 'llen' => ['LLEN', 'k', Reply::Int], 'lsize' => ['LLEN', 'k', Reply::Int],
        'lindex' => ['LINDEX', 'k', Reply::Str], 'lget' => ['LINDEX', 'k', Reply::Str], 'lset' => ['LSET', 'k', Reply::Bool],
        'lrange' => ['LRANGE', 'k', Reply::List], 'lgetrange' => ['LRANGE', 'k', Reply::List], 'ltrim' => ['LTRIM', 'k', Reply::Bool],
        'listtrim' => ['LTRIM', 'k', Reply::Bool], 'linsert' => ['LINSERT', 'k', Reply::Int],
        'rpoplpush' => ['RPOPLPUSH', 'kk', Reply::Str], 'brpoplpush' => ['BRPOPLPUSH', 'kk', Reply::Str], 'lmove' => ['LMOVE', 'kk', Reply::Str],
        'blmove' => ['BLMOVE', 'kk', Reply::Str], 'blpop' => ['BLPOP', 'Kt', Reply::List], 'brpop' => ['BRPOP', 'Kt', Reply::List],
        'lpos' => ['LPOS', 'k', Reply::Rank],
        // sets
        'sadd' => ['SADD', 'kv', Reply::Int], 'srem' => ['SREM', 'kv', Reply::Int], 'sremove' => ['SREM', 'kv', Reply::Int],
        'smembers' => ['SMEMBERS', 'k', Reply::List], 'sgetmembers' => ['SMEMBERS', 'k', Reply::List], 'sismember' => ['SISMEMBER', 'k', Reply::Bool],
        'scard' => ['SCARD', 'k', Reply::Int], 'ssize' => ['SCARD', 'k', Reply::Int], 'smove' => ['SMOVE', 'kk', Reply::Bool],
        'sinter' => ['SINTER', 'K', Reply::List], 'sunion' => ['SUNION', 'K', Reply::List], 'sdiff' => ['SDIFF', 'K', Reply::List],
        'sinterstore' => ['SINTERSTORE', 'kK', Reply::Int], 'sunionstore' => ['SUNIONSTORE', 'kK', Reply::Int], 'sdiffstore' => ['SDIFFSTORE', 'kK', Reply::Int],
        'smismember' => ['SMISMEMBER', 'kv', Reply::List],
        // hashes
        'hset' => ['HSET', 'k', Reply::Int], 'hsetnx' => ['HSETNX', 'k', Reply::Bool], 'hget' => ['HGET', 'k', Reply::Str],
        'hdel' => ['HDEL', 'kv', Reply::Int], 'hlen' => ['HLEN', 'k', Reply::Int], 'hkeys' => ['HKEYS', 'k', Reply::List],
        'hvals' => ['HVALS', 'k', Reply::List], 'hgetall' => ['HGETALL', 'k', Reply::Assoc], 'hexists' => ['HEXISTS', 'k', Reply::Bool],
        'hincrby' => ['HINCRBY', 'k', Reply::Int], 'hincrbyfloat' => ['HINCRBYFLOAT', 'k', Reply::Float], 'hstrlen' => ['HSTRLEN', 'k', Reply::Int],
        'hrandfield' => ['HRANDFIELD', 'k', Reply::Raw],
        // sorted sets
        'zincrby' => ['ZINCRBY', 'k', Reply::Float], 'zscore' => ['ZSCORE', 'k', Reply::Float], 'zrank' => ['ZRANK', 'k', Reply::Rank],
        'zrevrank' => ['ZREVRANK', 'k', Reply::Rank], 'zrem' => ['ZREM', 'kv', Reply::Int], 'zdelete' => ['ZREM', 'kv', Reply::Int],
        'zcard' => ['ZCARD', 'k', Reply::Int], 'zsize' => ['ZCARD', 'k', Reply::Int], 'zcount' => ['ZCOUNT', 'k', Reply::Int],
        'zremrangebyscore' => ['ZREMRANGEBYSCORE', 'k', Reply::Int], 'zremrangebyrank' => ['ZREMRANGEBYRANK', 'k', Reply::Int],
        'zremrangebylex' => ['ZREMRANGEBYLEX', 'k', Reply::Int], 'zlexcount' => ['ZLEXCOUNT', 'k', Reply::Int],
        
        'zpopmin' => ['ZPOPMIN', 'k', Reply::Scores], 'zpopmax' => ['ZPOPMAX', 'k', Reply::Scores],
        'bzpopmin' => ['BZPOPMIN', 'Kt', Reply::List], 'bzpopmax' => ['BZPOPMAX', 'Kt', Reply::List], 'zmscore' => ['ZMSCORE', 'kv', Reply::List],
        // hyperloglog
        'pfadd' => ['PFADD', 'kv', Reply::Int], 'pfcount' => ['PFCOUNT', 'K', Reply::Int], 'pfmerge' => ['PFMERGE', 'kK', Reply::Bool],
        // streams
        'xlen' => ['XLEN', 'k', Reply::Int], 'xdel' => ['XDEL', 'kv', Reply::Int],
        // server and connection
        'echo' => ['ECHO', '', Reply::Str], 'dbsize' => ['DBSIZE', '', Reply::Int],
        'time' => ['TIME', '', Reply::List], 'lastsave' => ['LASTSAVE', '', Reply::Int], 'publish' => ['PUBLISH', 'k', Reply::Int],
        'save' => ['SAVE', '', Reply::Bool], 'bgsave' => ['BGSAVE', '', Reply::Bool], 'swapdb' => ['SWAPDB', '', Reply::Bool],
        'wait' => ['WAIT', '', Reply::Int], 'role' => ['ROLE', '', Reply::Raw], 'slowlog' => ['SLOWLOG', '', Reply::Raw],
        'command' => ['COMMAND', '', Reply::Raw],
    ];

    private function __construct()
    {
    }
}
