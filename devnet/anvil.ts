// Starts and stops one anvil process (the native binary shipped in @foundry-rs/anvil-<platform>).
// A tiny watchdog shell kills anvil when our process goes away, even on SIGKILL: it blocks reading a
// pipe whose only writer is this process, so the pipe closing is the signal.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer, type Socket } from 'node:net';
import { dirname, join } from 'node:path';
import { TEST_MNEMONIC } from './accounts.ts';

export interface AnvilOptions {
  chainId: number;
  host: string;
  /** 0 picks a free port. */
  port: number;
  loadState?: string;
  log?: (line: string) => void;
}

export interface AnvilProcess {
  url: string;
  port: number;
  pid: number;
  stop(): Promise<void>;
}

const live = new Set<ChildProcess>();
let hooksInstalled = false;

export function anvilBinary(): string {
  const require = createRequire(import.meta.url);
  const arch = process.arch === 'x64' ? 'amd64' : process.arch;
  const exe = process.platform === 'win32' ? 'anvil.exe' : 'anvil';
  try {
    const pkg = require.resolve(`@foundry-rs/anvil-${process.platform}-${arch}/package.json`);
    const binary = join(dirname(pkg), 'bin', exe);
    if (existsSync(binary)) return binary;
  } catch {
    // fall back to the npm wrapper below
  }
  return join(dirname(require.resolve('@foundry-rs/anvil/package.json')), 'bin.mjs');
}

export async function freePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, host, () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Starts anvil and resolves once it answers JSON-RPC; retries another port if a picked one was taken. */
export async function startAnvil(options: AnvilOptions): Promise<AnvilProcess> {
  for (let attempt = 1; ; attempt++) {
    const port = options.port === 0 ? await freePort(options.host) : options.port;
    try {
      return await launch({ ...options, port });
    } catch (error) {
      if (options.port !== 0 || attempt >= 3 || !String(error).includes('in use')) throw error;
    }
  }
}

async function launch(options: AnvilOptions): Promise<AnvilProcess> {
  installExitHooks();
  const args = [
    '--host',
    options.host,
    '--port',
    String(options.port),
    '--chain-id',
    String(options.chainId),
    '--mnemonic',
    TEST_MNEMONIC,
    '--silent',
    ...(options.loadState ? ['--load-state', options.loadState] : []),
  ];
  const binary = anvilBinary();
  const child = binary.endsWith('.mjs')
    ? spawn(process.execPath, [binary, ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
    : spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  live.add(child);
  const output: string[] = [];
  const onData = (chunk: Buffer) => {
    for (const line of chunk.toString().split('\n')) {
      if (!line.trim()) continue;
      output.push(line);
      if (output.length > 50) output.shift();
      options.log?.(`anvil ${options.chainId}: ${line}`);
    }
  };
  child.stdout?.on('data', onData);
  child.stderr?.on('data', onData);
  const exited = new Promise<number | null>((resolve) => {
    child.once('exit', (code) => {
      live.delete(child);
      resolve(code);
    });
  });
  const watchdog = spawnWatchdog(child.pid as number);

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    }
    watchdog.kill('SIGKILL');
    watchdog.stdin?.destroy();
  };

  const url = `http://${options.host}:${options.port}`;
  try {
    await waitForRpc(url, exited, 30_000);
  } catch (error) {
    await stop();
    const detail = output.join('\n');
    throw new Error(
      `anvil (chain ${options.chainId}, port ${options.port}) did not start: ${error}\n${detail}`,
    );
  }
  return { url, port: options.port, pid: child.pid as number, stop };
}

function spawnWatchdog(pid: number): ChildProcess {
  const watchdog = spawn(
    'sh',
    ['-c', 'cat >/dev/null; kill -TERM "$1" 2>/dev/null', 'anvil-watchdog', String(pid)],
    {
      stdio: ['pipe', 'ignore', 'ignore'],
    },
  );
  // Do not keep the event loop alive just for the watchdog.
  watchdog.unref();
  (watchdog.stdin as Socket | null)?.unref();
  return watchdog;
}

async function waitForRpc(url: string, exited: Promise<number | null>, timeoutMs: number): Promise<void> {
  let dead: number | null | undefined;
  void exited.then((code) => {
    dead = code;
  });
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (dead !== undefined) throw new Error(`anvil exited with code ${dead}`);
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
      });
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`no answer within ${timeoutMs} ms`);
}

/** Kills every anvil still running when the process exits or is told to stop. */
function installExitHooks(): void {
  if (hooksInstalled) return;
  hooksInstalled = true;
  const killAll = () => {
    for (const child of live) child.kill('SIGTERM');
  };
  process.once('exit', killAll);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    const onSignal = () => {
      killAll();
      process.off(signal, onSignal);
      // Nobody else handles it: keep Node's default (exit) behaviour.
      if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
    };
    process.on(signal, onSignal);
  }
}
