/**
 * A worker for `Threads` tests: holds its thread for `ms`, as a render does, and gives back `id`;
 * with `leak`, keeps allocating until its heap runs out.
 */
const kept: number[][] = [];

export default function busy(task: { id: number; ms: number; leak?: boolean }): number {
  while (task.leak) kept.push(new Array<number>(100_000).fill(task.id));
  const end = Date.now() + task.ms;
  while (Date.now() < end);
  return task.id;
}
