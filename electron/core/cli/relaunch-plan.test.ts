import { describe, expect, it } from 'vitest';
import { RELAY_HEAP_FLAGS } from '../capture/relay-heap.js';
import { relaunchPlan } from './relaunch-plan.js';

describe('relaunchPlan', () => {
  it('relaunches the commands that run the relay, in a group of their own but for record', () => {
    expect(relaunchPlan(['serve', '--port', '0'], [], 'linux')).toEqual({
      detached: true,
      forward: ['SIGINT', 'SIGTERM'],
      ignore: [],
    });
    expect(relaunchPlan(['demo'], ['--no-warnings'], 'darwin')).toEqual({
      detached: true,
      forward: ['SIGINT', 'SIGTERM'],
      ignore: [],
    });
    expect(relaunchPlan(['record', '--', 'node', 'agent.js'], [], 'linux')).toEqual({
      detached: false,
      forward: ['SIGTERM'],
      ignore: ['SIGINT', 'SIGHUP'],
    });
  });

  it('runs everything else in the first process', () => {
    for (const argv of [['export', 'f.loupe'], ['reindex', 'f.loupe'], ['--help'], ['--version'], [], ['nonsense']]) {
      expect(relaunchPlan(argv, [], 'linux')).toBeNull();
    }
  });

  it('does not relaunch a process that already has the flags, nor on Windows', () => {
    expect(relaunchPlan(['serve'], [...RELAY_HEAP_FLAGS, '--expose-gc'], 'linux')).toBeNull();
    expect(relaunchPlan(['serve'], [RELAY_HEAP_FLAGS[0]!], 'linux')).not.toBeNull();
    expect(relaunchPlan(['serve'], [], 'win32')).toBeNull();
  });
});
