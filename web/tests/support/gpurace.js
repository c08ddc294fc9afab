// Runs the real gpurace program for the browser tests: a server on
// 127.0.0.1 with a fresh SQLite file, tokens, and uploads of the fixtures.

import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { freePort } from './freePort.js';

const run = promisify(execFile);
const here = path.dirname(fileURLToPath(import.meta.url));
export const WEB_ROOT = path.resolve(here, '..', '..');
export const FIXTURES = path.join(WEB_ROOT, 'tests', 'fixtures');

export function gpuraceBinary() {
  const binary = process.env.GPURACE_BINARY;
  if (!binary) {
    throw new Error('GPURACE_BINARY is not set: point it at the built gpurace program ' +
      '(ctest sets it from the gpurace target)');
  }
  if (!fs.existsSync(binary)) throw new Error(`GPURACE_BINARY does not exist: ${binary}`);
  return binary;
}

// Runs one gpurace command; `okCodes` are the exit codes that mean success
// (upload exits 2 when it stored new races).
async function gpurace(args, okCodes = [0]) {
  try {
    return await run(gpuraceBinary(), args, { timeout: 30_000 });
  } catch (error) {
    if (okCodes.includes(error.code)) return error;
    throw new Error(`gpurace ${args.join(' ')} failed (exit ${error.code}):\n${error.stderr}${error.stdout}`);
  }
}

// Polls /healthz until the server answers; gives up after `attempts` tries
// so that a server that never starts fails the test instead of hanging it.
async function waitUntilHealthy(baseUrl, child, attempts = 100) {
  for (let i = 0; i < attempts; i++) {
    if (child.exitCode !== null) break;
    try {
      const response = await fetch(`${baseUrl}/healthz`);
      if (response.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`gpurace serve did not become healthy at ${baseUrl}:\n${child.output}`);
}

export class GpuraceServer {
  static async start({ publicRead = false } = {}) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gpurace-web-'));
    const server = new GpuraceServer(dir, await freePort(), await freePort());
    // Tokens exist before the server starts, so every request needs one.
    server.tokens = {
      read: await server.createToken('read'),
      store: await server.createToken('store'),
    };
    await server.spawn(publicRead);
    return server;
  }

  constructor(dir, grpcPort, httpPort) {
    this.dir = dir;
    this.db = path.join(dir, 'races.db');
    this.grpcAddress = `127.0.0.1:${grpcPort}`;
    this.baseUrl = `http://127.0.0.1:${httpPort}`;
  }

  async createToken(role) {
    const { stdout } = await gpurace(['token', 'create', '--db', this.db, '--project', 'shop',
      '--role', role]);
    return stdout.trim().split(/\s+/).pop();
  }

  async spawn(publicRead) {
    const args = ['serve', '--db', this.db, '--listen', this.grpcAddress,
      '--http', this.baseUrl.replace('http://', ''), '--web-root', WEB_ROOT];
    if (publicRead) args.push('--public-read');
    this.child = spawn(gpuraceBinary(), args, { stdio: ['ignore', 'pipe', 'pipe'] });
    this.child.output = '';
    const collect = (chunk) => { this.child.output += chunk; };
    this.child.stdout.on('data', collect);
    this.child.stderr.on('data', collect);
    await waitUntilHealthy(this.baseUrl, this.child);
  }

  // Uploads an AnalysisResult fixture as one CI run of project "shop".
  async uploadAnalysis(fixture, { commit, branch = 'main' }) {
    const { stdout } = await gpurace(['upload', '--server', this.grpcAddress, '--project', 'shop',
      '--commit', commit, '--branch', branch, '--token', this.tokens.store,
      path.join(FIXTURES, fixture)], [0, 2]);
    return stdout;
  }

  async stop() {
    if (this.child && this.child.exitCode === null) {
      const exited = new Promise((resolve) => this.child.once('exit', resolve));
      this.child.kill('SIGTERM');
      await exited;
    }
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}
