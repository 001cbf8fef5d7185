// Which command-line arguments are recordings to open (double-click on Windows/Linux, a
// second instance), and that requests made before the shell is ready wait for it.
import { EventEmitter } from 'node:events';
import path from 'node:path';
import type { App } from 'electron';
import { describe, expect, it } from 'vitest';
import { OpenRequests, recordingPathsIn } from './open-requests.js';

describe('recordings the OS asks to open', () => {
  it('takes .loupe arguments only, resolved against the working directory', () => {
    expect(
      recordingPathsIn(['.', '--inspect', 'a.loupe', 'B.LOUPE', '/abs/c.loupe', 'notes.txt', '--x=y.loupe'], '/work'),
    ).toEqual([path.resolve('/work', 'a.loupe'), path.resolve('/work', 'B.LOUPE'), path.resolve('/abs/c.loupe')]);
  });

  it('queues requests until the shell is ready, then delivers them straight away', () => {
    const app = new EventEmitter();
    const requests = new OpenRequests(app as unknown as App, ['/work/app', 'first.loupe'], '/work');
    let prevented = false;
    app.emit('open-file', { preventDefault: () => (prevented = true) }, '/x/mac.loupe');
    expect(prevented).toBe(true);
    const opened: string[] = [];
    let focused = 0;
    requests.deliver(
      (f) => opened.push(f),
      () => focused++,
    );
    expect(opened).toEqual([path.resolve('/work/first.loupe'), '/x/mac.loupe']);
    app.emit('second-instance', {}, ['/opt/loupe', 'second.loupe'], '/home/u');
    expect(focused).toBe(1);
    expect(opened.at(-1)).toBe(path.resolve('/home/u', 'second.loupe'));
  });
});
