/**
 * `npm run web`: Parley in the browser host, whether or not Electron is installed — launched as
 * `npm start` launches it (scripts/start.ts: its V8 flags, malloc settings, compile cache). Extra
 * arguments go to the host (`npm run web -- --port 4321 --data-dir ./.parley-data`).
 */
import { startBrowserHost } from './start.ts';

startBrowserHost(process.argv.slice(2));
