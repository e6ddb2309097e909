// What a test asks of a process it started or found by pid.

/** Whether a process with this pid exists (signal 0 only checks; a zombie still counts). */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
