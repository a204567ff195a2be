/**
 * A local attacker for race tests: a separate process that swaps two directory entries as fast as it can
 * (renameat2 RENAME_EXCHANGE, so at every instant each name exists), until stopped. Built at test time:
 * a tiny C program compiled with `cc` when there is one, else python3 with ctypes, else a Node loop of plain
 * renames (not atomic, still a race). `stop()` ends it and resolves to the number of swaps it made.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';

const C_SOURCE = `
#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>
#ifndef RENAME_EXCHANGE
#define RENAME_EXCHANGE (1 << 1)
#endif
static volatile sig_atomic_t stop = 0;
static void on_term(int sig) { (void)sig; stop = 1; }
int main(int argc, char **argv) {
  if (argc != 3) return 2;
  signal(SIGTERM, on_term);
  unsigned long swaps = 0;
  printf("ready\\n");
  fflush(stdout);
  while (!stop) {
    if (syscall(SYS_renameat2, AT_FDCWD, argv[1], AT_FDCWD, argv[2], RENAME_EXCHANGE) == 0) swaps++;
    else { perror("renameat2"); return 1; }
  }
  /* An even number of swaps leaves both names as they started. */
  if (swaps % 2) { syscall(SYS_renameat2, AT_FDCWD, argv[1], AT_FDCWD, argv[2], RENAME_EXCHANGE); swaps++; }
  printf("%lu\\n", swaps);
  return 0;
}
`;

const PY_SOURCE = `
import ctypes, os, signal, sys
libc = ctypes.CDLL(None, use_errno=True)
a, b = (os.fsencode(p) for p in sys.argv[1:3])
stop = False
def on_term(*_):
    global stop
    stop = True
signal.signal(signal.SIGTERM, on_term)
swaps = 0
print("ready", flush=True)
while not stop:
    if libc.renameat2(-100, a, -100, b, 2) != 0:
        sys.exit("renameat2: " + os.strerror(ctypes.get_errno()))
    swaps += 1
if swaps % 2:
    libc.renameat2(-100, a, -100, b, 2)
    swaps += 1
print(swaps, flush=True)
`;

const NODE_SOURCE = `
const { renameSync } = require('node:fs');
const [a, b] = process.argv.slice(2);
const spare = a + '.swap';
let stop = false, swaps = 0;
process.on('SIGTERM', () => (stop = true));
console.log('ready');
const loop = () => {
  for (let i = 0; i < 200; i++) {
    renameSync(a, spare); renameSync(b, a); renameSync(spare, b); swaps++;
  }
  if (!stop) setImmediate(loop);
  else { if (swaps % 2) { renameSync(a, spare); renameSync(b, a); renameSync(spare, b); swaps++; } console.log(swaps); }
};
loop();
`;

export interface Swapper {
  /** How the swaps are made: 'c', 'python' or 'node'. */
  kind: 'c' | 'python' | 'node';
  stop(): Promise<number>;
}

/** Builds the swapper in `workDir` and starts it on `a` and `b`; resolves once it is swapping. */
export async function startSwapper(workDir: string, a: string, b: string): Promise<Swapper> {
  let command: string[];
  let kind: Swapper['kind'];
  const cSource = path.join(workDir, 'swap.c');
  const binary = path.join(workDir, 'swap');
  await writeFile(cSource, C_SOURCE);
  if (spawnSync('cc', ['-O2', '-o', binary, cSource], { stdio: 'ignore' }).status === 0) {
    command = [binary, a, b];
    kind = 'c';
  } else if (spawnSync('python3', ['-c', 'import ctypes; ctypes.CDLL(None).renameat2'], { stdio: 'ignore' }).status === 0) {
    const script = path.join(workDir, 'swap.py');
    await writeFile(script, PY_SOURCE);
    command = ['python3', script, a, b];
    kind = 'python';
  } else {
    const script = path.join(workDir, 'swap.cjs');
    await writeFile(script, NODE_SOURCE);
    command = [process.execPath, script, a, b];
    kind = 'node';
  }
  const child: ChildProcess = spawn(command[0]!, command.slice(1), { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    const check = () => (out.includes('ready\n') ? resolve() : undefined);
    child.stdout!.on('data', check);
    void exited.then((code) => reject(new Error(`the ${kind} swapper exited (${code}) before starting: ${err}`)));
  });
  return {
    kind,
    async stop() {
      child.kill('SIGTERM');
      const code = await exited;
      if (code !== 0) throw new Error(`the ${kind} swapper failed (${code}): ${err}`);
      return Number(out.split('\n').filter(Boolean).at(-1));
    },
  };
}
