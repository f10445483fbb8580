// Plays one corpus scenario against Sidekiq (Debian's ruby-sidekiq) through
// sidekiq_driver.rb on the given Redis, and returns the observed trace.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const DRIVER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'sidekiq_driver.rb');

export function runSidekiqScenario(redis, scenario) {
  return new Promise((resolve, reject) => {
    const child = spawn('ruby', [DRIVER], { env: { ...process.env, REDIS_URL: redis.url }, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => { out += d; });
    child.stderr.on('data', (d) => { err += d; });
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (code !== 0) return reject(new Error(`sidekiq_driver.rb exited (${code ?? signal}):\n${err}`));
      try {
        const { sidekiq, options, ...trace } = JSON.parse(out.trim().split('\n').pop());
        // With a loaded snippet, also the Sidekiq.options it configured.
        resolve({ ...trace, version: sidekiq, ...(scenario.config.snippet ? { options } : {}) });
      } catch (error) {
        reject(new Error(`sidekiq_driver.rb printed no trace: ${error.message}\n${out}\n${err}`));
      }
    });
    child.stdin.end(JSON.stringify(scenario));
  });
}
