/**
 * Runs `task` once the popup is idle (after its first frames), at most `timeoutMs` later: requests
 * the first frame does not need (USD prices, which networks are served) never compete with it.
 * Returns a cancel function.
 */
export function whenIdle(task: () => void, timeoutMs = 500): () => void {
  if (typeof requestIdleCallback === 'function') {
    const id = requestIdleCallback(task, { timeout: timeoutMs });
    return () => cancelIdleCallback(id);
  }
  const id = setTimeout(task, 0);
  return () => clearTimeout(id);
}
