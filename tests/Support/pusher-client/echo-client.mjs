// Laravel Echo and pusher-js from npm, unmodified, against a Laravel app served by `spindle serve`
// (tests/E2E/LaravelEchoTest.php). Usage: node echo-client.mjs PORT KEY
//
// Two clients, users 1 ("ann") and 2 ("bob"), connect to ws://127.0.0.1:PORT/app/KEY as Echo's
// `reverb` broadcaster does. Each line on stdout is one JSON observation; the test reads them.
// "ready" says every subscription settled; then the test triggers broadcasts; on a line "stop" on
// stdin the clients disconnect and the script exits.
import Echo from 'laravel-echo';
import Pusher from 'pusher-js';
import readline from 'node:readline';

const [port, key] = process.argv.slice(2);
const out = (observation) => process.stdout.write(JSON.stringify(observation) + '\n');

function client(userId) {
    return new Echo({
        broadcaster: 'reverb',
        key,
        wsHost: '127.0.0.1',
        wsPort: Number(port),
        wssPort: Number(port),
        forceTLS: false,
        enabledTransports: ['ws'],
        Pusher,
        authEndpoint: `http://127.0.0.1:${port}/broadcasting/auth`,
        auth: { headers: { 'X-Fixture-User': String(userId) } },
    });
}

const ann = client(1);
const bob = client(2);
const pending = new Set(['ann:news', 'bob:news', 'ann:vault.1', 'ann:orders.1', 'ann:room', 'bob:orders.1 denied', 'bob:room']);
const settle = (what) => {
    out({ settled: what });
    pending.delete(what);
    if (pending.size === 0) {
        out({ ready: { ann: ann.socketId(), bob: bob.socketId() } });
    }
};

ann.channel('news')
    .subscribed(() => settle('ann:news'))
    .listen('FixtureBroadcast', (event) => out({ who: 'ann', channel: 'news', event }));
ann.private('orders.1')
    .subscribed(() => settle('ann:orders.1'))
    .listen('FixtureBroadcast', (event) => out({ who: 'ann', channel: 'private-orders.1', event }));
ann.encryptedPrivate('vault.1')
    .subscribed(() => settle('ann:vault.1'))
    .listen('FixtureBroadcast', (event) => out({ who: 'ann', channel: 'private-encrypted-vault.1', event }));
bob.channel('news')
    .subscribed(() => settle('bob:news'))
    .listen('FixtureBroadcast', (event) => out({ who: 'bob', channel: 'news', event }));
bob.private('orders.1')
    .subscribed(() => out({ who: 'bob', wrongly: 'subscribed to private-orders.1' }))
    .error((error) => {
        out({ who: 'bob', channel: 'private-orders.1', error: error.status ?? error.type ?? String(error) });
        settle('bob:orders.1 denied');
    });

ann.join('room')
    .here((users) => {
        out({ who: 'ann', here: users });
        settle('ann:room');
        // Bob joins once Ann is in: she sees him arrive, then his whisper.
        bob.join('room')
            .here((users) => {
                out({ who: 'bob', here: users });
                settle('bob:room');
            })
            .leaving((user) => out({ who: 'bob', leaving: user }));
    })
    .joining((user) => {
        out({ who: 'ann', joining: user });
        bob.join('room').whisper('typing', { from: 'bob' });
    })
    .listenForWhisper('typing', (event) => out({ who: 'ann', whisper: event }));

readline.createInterface({ input: process.stdin }).on('line', (line) => {
    if (line.trim() === 'leave') {
        ann.leave('room');
    }
    if (line.trim() === 'stop') {
        ann.disconnect();
        bob.disconnect();
        setTimeout(() => process.exit(0), 100);
    }
});
setTimeout(() => {
    out({ timeout: [...pending] });
    process.exit(1);
}, 15000);
