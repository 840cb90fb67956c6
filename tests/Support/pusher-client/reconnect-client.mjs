// pusher-js from npm, unmodified, through a reload and a crash of `spindle serve`'s workers
// (tests/E2E/PusherReconnectTest.php). Usage: node reconnect-client.mjs PORT KEY
//
// One client subscribes to the public channel "news" on ws://127.0.0.1:PORT/app/KEY. Each line
// on stdout is one JSON observation: a state change, "subscribed" with the socket id each time
// pusher-js (re)subscribes, a "Story" event's data. A line "stop" on stdin ends it.
import Pusher from 'pusher-js';
import readline from 'node:readline';

const [port, key] = process.argv.slice(2);
const out = (observation) => process.stdout.write(JSON.stringify(observation) + '\n');

const pusher = new Pusher(key, {
    cluster: '',
    wsHost: '127.0.0.1',
    wsPort: Number(port),
    forceTLS: false,
    enabledTransports: ['ws'],
    disableStats: true,
});
pusher.connection.bind('state_change', (states) => out({ state: states.current }));
const news = pusher.subscribe('news');
news.bind('pusher:subscription_succeeded', () => out({ subscribed: pusher.connection.socket_id }));
news.bind('Story', (data) => out({ story: data }));

readline.createInterface({ input: process.stdin }).on('line', (line) => {
    if (line.trim() === 'stop') {
        pusher.disconnect();
        process.exit(0);
    }
});
