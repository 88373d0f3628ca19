import { readdirSync, readFileSync } from 'node:fs';

/** User plus system CPU of a process so far, all threads, in ms. */
export function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

/** CPU ms per thread name (main thread: the process's own name), summed over threads of one name. */
export function threadCpuMs(pid: number): Map<string, number> {
  const out = new Map<string, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const fields = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
      out.set(
        Number(tid) === pid ? 'main' : name,
        (out.get(Number(tid) === pid ? 'main' : name) ?? 0) + ((Number(fields[11]) + Number(fields[12])) * 1000) / 100,
      );
    } catch {
      /* the thread ended */
    }
  }
  return out;
}

/** Busy CPU ms of the whole machine so far (all cores, /proc/stat). */
export function machineBusyMs(): number {
  const [, ...ticks] = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!.trim().split(/\s+/).map(Number);
  // user nice system idle iowait irq softirq steal: busy is all but idle and iowait.
  return ((ticks.reduce((a, b) => a + b, 0) - ticks[3]! - ticks[4]!) * 1000) / 100;
}
