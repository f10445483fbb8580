// What every broker module needs to own its processes: a free port on 127.0.0.1, a
// temporary data directory, a ledger of the PIDs it started (so a later run can stop
// what a killed run left behind, by PID), and stop-by-PID with a deadline.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

const LEDGER = path.join(os.tmpdir(), 'dlqlab-brokers');

export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

export function tempDir(broker) {
  return mkdtempSync(path.join(os.tmpdir(), `dlqlab-${broker}-`));
}

export function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

function commandOf(pid) {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
  } catch {
    return '';
  }
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export async function waitUntil(what, check, { timeoutMs = 30000, everyMs = 50 } = {}) {
  const deadline = Date.now() + timeoutMs;
  let lastError;
  while (Date.now() < deadline) {
    try {
      const value = await check();
      if (value) return value;
    } catch (error) {
      lastError = error;
    }
    await sleep(everyMs);
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${lastError ? `: ${lastError.message}` : ''}`);
}

// Sends `signal`, waits up to graceMs, then SIGKILL. Only ever the PID given.
export async function stopPid(pid, { signal = 'SIGTERM', graceMs = 5000 } = {}) {
  if (!pid || !alive(pid)) return;
  try { process.kill(pid, signal); } catch { /* gone already */ }
  const deadline = Date.now() + graceMs;
  while (alive(pid) && Date.now() < deadline) await sleep(25);
  if (alive(pid)) {
    try { process.kill(pid, 'SIGKILL'); } catch { /* gone already */ }
    while (alive(pid)) await sleep(10);
  }
}

// The ledger: one file per started broker naming the test process that owns it, the
// PIDs it started (each with the command it must still be running, so a reused PID is
// never killed), and its temp dir.
export function record(entry) {
  mkdirSync(LEDGER, { recursive: true });
  const file = path.join(LEDGER, `${entry.broker}-${process.pid}-${Date.now()}.json`);
  writeFileSync(file, JSON.stringify({ owner: process.pid, ...entry }));
  return {
    update(more) { Object.assign(entry, more); writeFileSync(file, JSON.stringify({ owner: process.pid, ...entry })); },
    forget() { rmSync(file, { force: true }); },
  };
}

// Stops, by PID, what a test process that no longer runs left behind.
export function reapLeftovers() {
  if (!existsSync(LEDGER)) return;
  for (const name of readdirSync(LEDGER)) {
    const file = path.join(LEDGER, name);
    let entry;
    try { entry = JSON.parse(readFileSync(file, 'utf8')); } catch { rmSync(file, { force: true }); continue; }
    if (alive(entry.owner)) continue;  // still running (this process included): not a leftover
    for (const { pid, command } of entry.pids ?? []) {
      if (alive(pid) && commandOf(pid).includes(command)) {
        try { process.kill(pid, 'SIGKILL'); } catch { /* gone already */ }
      }
    }
    if (entry.dir) rmSync(entry.dir, { recursive: true, force: true });
    rmSync(file, { force: true });
  }
}

// Synchronous last resort when the test process exits without stopping its broker.
export function killOnExit(pids) {
  const handler = () => {
    for (const pid of pids()) {
      try { process.kill(pid, 'SIGKILL'); } catch { /* gone already */ }
    }
  };
  process.on('exit', handler);
  return () => process.off('exit', handler);
}

export function run(command, args, options = {}) {
  return execFileSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], ...options });
}
