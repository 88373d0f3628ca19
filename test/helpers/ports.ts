import type { ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

/**
 * The port `pid` listens on over TCP (IPv4 loopback), read from /proc: its sockets' inodes, then
 * the listening entry with one of them. Undefined until it listens.
 */
export function listeningPort(pid: number): number | undefined {
  const inodes = new Set<string>();
  try {
    for (const fd of readdirSync(`/proc/${pid}/fd`)) {
      try {
        const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
        if (m) inodes.add(m[1]!);
      } catch {
        // Closed meanwhile.
      }
    }
    for (const line of readFileSync(`/proc/${pid}/net/tcp`, 'utf8').split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      // f[1] is address:port in hex, f[3] the state (0A: listening), f[9] the inode.
      if (f[3] === '0A' && inodes.has(f[9]!)) return parseInt(f[1]!.split(':')[1]!, 16);
    }
  } catch {
    // The process is gone; the caller sees it exit.
  }
  return undefined;
}

/**
 * The port `child` listens on, once it does (a server started with PORT=0 chooses its own);
 * undefined if it exits first or `deadline` (epoch ms) passes.
 */
export async function portOnceListening(child: ChildProcess, deadline: number): Promise<number | undefined> {
  for (;;) {
    const port = listeningPort(child.pid!);
    if (port !== undefined || child.exitCode !== null || Date.now() > deadline) return port;
    await new Promise((r) => setTimeout(r, 25));
  }
}
