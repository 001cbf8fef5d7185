// How a command that serves without a CMD (serve-or-run.ts) waits for the signal that ends
// it. The first SIGINT or SIGTERM starts the shutdown; the ones after it are absorbed until
// the process exits, so the flush finishes. Repeats are common and not meant as "stop at
// once": Ctrl-C pressed again while the flush runs, or a script in front that passes its
// own copy on (`npm start`'s headless fallback does). By Node's default a second signal
// ended the server in the middle of its flush, leaving the recording's WAL unmerged and
// its session marked open.
// Not SIGHUP: a listener would undo `nohup loupe serve`.

/** Resolves on the first SIGINT or SIGTERM; listen before anyone can signal (before the ready line). */
export function untilShutdownSignal(
  log: (line: string) => void = (line) => process.stderr.write(`${line}\n`),
): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    let received: NodeJS.Signals | null = null;
    let told = false;
    const onSignal = (signal: NodeJS.Signals) => {
      if (received === null) {
        received = signal;
        resolve(signal);
        return;
      }
      if (told) return;
      told = true;
      log(
        `loupe: ${signal} again; still flushing the recording, it stops when done (SIGKILL stops it now; the next start repairs the file)`,
      );
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });
}
