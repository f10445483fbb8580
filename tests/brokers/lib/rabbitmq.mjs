// A private RabbitMQ node without systemd: unique node name, every port free and on
// 127.0.0.1 (AMQP, distribution, its own epmd), mnesia, logs, cookie (HOME) and config in
// one temp dir. It is stopped with `rabbitmqctl stop`, then by the beam PID and the
// epmd PID it started.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { alive, freePort, killOnExit, reapLeftovers, record, run, stopPid, tempDir, waitUntil } from './processes.mjs';

const BIN = '/usr/lib/rabbitmq/bin';  // the scripts themselves; /usr/sbin wraps them in `su rabbitmq`

export async function startRabbitMQ() {
  reapLeftovers();
  const dir = tempDir('rabbitmq');
  const [amqpPort, distPort, epmdPort] = [await freePort(), await freePort(), await freePort()];
  const nodename = `dlqlab-${process.pid}@localhost`;
  for (const sub of ['mnesia', 'log', 'home']) mkdirSync(path.join(dir, sub));
  writeFileSync(path.join(dir, 'enabled_plugins'), '[].\n');
  writeFileSync(path.join(dir, 'rabbitmq-env.conf'), '');
  writeFileSync(path.join(dir, 'rabbitmq.conf'), 'log.console = false\nlog.file.level = warning\n');
  const pidFile = path.join(dir, 'beam.pid');
  const env = {
    PATH: process.env.PATH,
    HOME: path.join(dir, 'home'),  // the Erlang cookie is made here, for the server and rabbitmqctl alike
    LANG: 'C.UTF-8',
    RABBITMQ_NODENAME: nodename,
    RABBITMQ_NODE_IP_ADDRESS: '127.0.0.1',
    RABBITMQ_NODE_PORT: String(amqpPort),
    RABBITMQ_DIST_PORT: String(distPort),
    RABBITMQ_MNESIA_BASE: path.join(dir, 'mnesia'),
    RABBITMQ_LOG_BASE: path.join(dir, 'log'),
    RABBITMQ_PID_FILE: pidFile,
    RABBITMQ_ENABLED_PLUGINS_FILE: path.join(dir, 'enabled_plugins'),
    RABBITMQ_CONF_ENV_FILE: path.join(dir, 'rabbitmq-env.conf'),
    RABBITMQ_CONFIG_FILE: path.join(dir, 'rabbitmq'),
    ERL_EPMD_ADDRESS: '127.0.0.1',
    ERL_EPMD_PORT: String(epmdPort),
  };
  // Our own epmd in the foreground, so its PID is ours and no system epmd is shared.
  const epmd = spawn('/usr/bin/epmd', ['-address', '127.0.0.1', '-port', String(epmdPort)], { env, stdio: 'ignore' });
  const server = spawn(path.join(BIN, 'rabbitmq-server'), [], { env, stdio: ['ignore', 'pipe', 'pipe'], cwd: dir });
  let log = '';
  server.stdout.on('data', (d) => { log += d; });
  server.stderr.on('data', (d) => { log += d; });
  let beamPid = 0;
  const pids = () => [server.pid, epmd.pid, beamPid].filter(Boolean);
  const ledger = record({ broker: 'rabbitmq', dir, pids: [
    { pid: server.pid, command: 'rabbitmq-server' }, { pid: epmd.pid, command: 'epmd' }] });
  const forgetExit = killOnExit(pids);
  const ctl = (...args) => run(path.join(BIN, 'rabbitmqctl'), ['-n', nodename, ...args], { env, timeout: 60000 });

  async function stop() {
    if (beamPid && alive(beamPid)) {
      try { ctl('stop'); } catch { /* fall through to the PID */ }
    }
    await stopPid(beamPid, { graceMs: 10000 });
    await stopPid(server.pid);
    await stopPid(epmd.pid);
    forgetExit();
    rmSync(dir, { recursive: true, force: true });
    ledger.forget();
  }

  try {
    beamPid = await waitUntil('the RabbitMQ pid file', () => {
      if (server.exitCode !== null) throw new Error(`rabbitmq-server exited (${server.exitCode}):\n${log}`);
      return existsSync(pidFile) && Number(readFileSync(pidFile, 'utf8').trim());
    }, { timeoutMs: 60000 });
    ledger.update({ pids: [{ pid: server.pid, command: 'rabbitmq-server' }, { pid: epmd.pid, command: 'epmd' },
      { pid: beamPid, command: 'beam' }] });
    ctl('await_startup', '--timeout', '60');
  } catch (error) {
    await stop();
    throw new Error(`RabbitMQ did not start: ${error.message}\n${log}`);
  }
  return {
    nodename,
    port: amqpPort,
    url: `amqp://guest:guest@127.0.0.1:${amqpPort}`,
    pid: beamPid,
    // What rabbitmqctl needs to reach this node (cookie in HOME, epmd port), with the scripts first on PATH.
    ctlEnv: { ...env, PATH: `${BIN}:${env.PATH}` },
    ctl,
    stop,
  };
}
