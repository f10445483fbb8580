// A private redis-server on 127.0.0.1: free port, no persistence, temp dir, stopped by its PID.
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import net from 'node:net';
import { freePort, killOnExit, reapLeftovers, record, stopPid, tempDir, waitUntil } from './processes.mjs';

const BINARY = '/usr/bin/redis-server';

function ping(port) {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.setTimeout(500);
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (data) => { socket.destroy(); resolve(data.toString().startsWith('+PONG')); });
    socket.on('error', () => resolve(false));
    socket.on('timeout', () => { socket.destroy(); resolve(false); });
  });
}

export async function startRedis() {
  reapLeftovers();
  const dir = tempDir('redis');
  const port = await freePort();
  const child = spawn(BINARY, ['--bind', '127.0.0.1', '--port', String(port), '--save', '', '--appendonly', 'no',
    '--dir', dir, '--daemonize', 'no', '--logfile', ''], { stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  child.stdout.on('data', (d) => { log += d; });
  child.stderr.on('data', (d) => { log += d; });
  const ledger = record({ broker: 'redis', dir, pids: [{ pid: child.pid, command: 'redis-server' }] });
  const forgetExit = killOnExit(() => [child.pid]);
  try {
    await waitUntil(`redis-server on 127.0.0.1:${port}`, async () => {
      if (child.exitCode !== null) throw new Error(`redis-server exited (${child.exitCode}):\n${log}`);
      return ping(port);
    }, { timeoutMs: 15000 });
  } catch (error) {
    await stopPid(child.pid);
    throw error;
  }
  return {
    host: '127.0.0.1',
    port,
    pid: child.pid,
    url: `redis://127.0.0.1:${port}`,
    async stop() {
      await stopPid(child.pid);
      forgetExit();
      rmSync(dir, { recursive: true, force: true });
      ledger.forget();
    },
  };
}
