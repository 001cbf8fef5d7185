// The part of the capture core the service relies on. Structural, so tests and the desktop
// shell can hand in a Core without the service reaching into recorder or store internals.
import type { EventEmitter } from 'node:events';
import type { RecordingHealth } from '../../../shared/api/types.js';
import type { CoreEvents } from '../core.js';
import type { Db } from '../store/db.js';

export interface ServiceCore {
  db: Db;
  dbPath: string;
  proxy: { baseUrl: string };
  recorder: { health: RecordingHealth };
  events: EventEmitter<CoreEvents>;
}
