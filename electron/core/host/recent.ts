// Recent Recordings, newest first, for the File menu (the OS's own list, where there is
// one, is fed through app.addRecentDocument by the caller). Kept in recent.json in the
// user data folder; a broken file just starts the list afresh.
import path from 'node:path';
import { readJson, writeJson } from './json-file.js';

export const MAX_RECENT = 10;

export class RecentRecordings {
  private items: string[];

  constructor(private readonly file: string) {
    let saved: unknown;
    try {
      saved = readJson(file);
    } catch {
      saved = undefined;
    }
    this.items = Array.isArray(saved)
      ? saved.filter((p): p is string => typeof p === 'string').slice(0, MAX_RECENT)
      : [];
  }

  list(): string[] {
    return [...this.items];
  }

  add(file: string): void {
    const abs = path.resolve(file);
    this.items = [abs, ...this.items.filter((p) => p !== abs)].slice(0, MAX_RECENT);
    writeJson(this.file, this.items);
  }

  remove(file: string): void {
    this.items = this.items.filter((p) => p !== path.resolve(file));
    writeJson(this.file, this.items);
  }

  clear(): void {
    this.items = [];
    writeJson(this.file, this.items);
  }
}
