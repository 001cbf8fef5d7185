// Recordings the OS asks the app to open: a double-clicked `.loupe` file arrives as
// macOS's `open-file` event (possibly before the app is ready), as a command-line
// argument on Windows and Linux, or in the argv of a second instance, which the single
// instance lock turns into a `second-instance` event here. Requests wait in a queue until
// the shell can open them.
import path from 'node:path';
import type { App } from 'electron';

export function recordingPathsIn(args: readonly string[], cwd: string): string[] {
  return args.filter((a) => !a.startsWith('-') && /\.loupe$/i.test(a)).map((a) => path.resolve(cwd, a));
}

export class OpenRequests {
  private readonly queue: string[] = [];
  private handler: ((file: string) => void) | null = null;
  private onSecondInstance: (() => void) | null = null;

  /** `argv` without the executable: Electron's own (dev: the app folder first) or the packaged app's. */
  constructor(app: Pick<App, 'on'>, argv: readonly string[], cwd: string) {
    for (const file of recordingPathsIn(argv, cwd)) this.push(file);
    app.on('open-file', (event, file) => {
      event.preventDefault();
      this.push(file);
    });
    app.on('second-instance', (_event, secondArgv, workingDirectory) => {
      this.onSecondInstance?.();
      for (const file of recordingPathsIn(secondArgv.slice(1), workingDirectory)) this.push(file);
    });
  }

  /** From now on files go straight to `open`; queued ones first. `focus` runs when a second instance starts. */
  deliver(open: (file: string) => void, focus: () => void): void {
    this.handler = open;
    this.onSecondInstance = focus;
    for (const file of this.queue.splice(0)) open(file);
  }

  private push(file: string): void {
    if (this.handler) this.handler(file);
    else this.queue.push(file);
  }
}
