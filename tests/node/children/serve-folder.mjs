// Run by server.test.mjs in a child process, as `npm start` runs the server: serves
// the folder named by argv[2] on 127.0.0.1, port 0, and prints the port on one line.
// A request that stopped the server would end this process, and the test would see it.
import { serve } from '../../../scripts/serve.mjs';

const server = await serve({ dir: process.argv[2] });
process.stdout.write(`${server.address().port}\n`);
