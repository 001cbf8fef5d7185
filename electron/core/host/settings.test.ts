// Proxy settings and the recent list: defaults, validation with messages a user can act
// on, persistence across restarts, and a broken file that is reported, not overwritten.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { RecentRecordings, MAX_RECENT } from './recent.js';
import { DEFAULT_SETTINGS, parseSettings, SettingsFile } from './settings.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-settings-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('proxy settings', () => {
  it('default to port 7455 and the OpenAI API', () => {
    expect(DEFAULT_SETTINGS).toEqual({ port: 7455, upstream: 'https://api.openai.com' });
    expect(new SettingsFile(path.join(dir, 'missing.json')).load()).toEqual({
      settings: DEFAULT_SETTINGS,
      problem: null,
    });
  });

  it('persist and come back on the next start', () => {
    const file = path.join(dir, 'a', 'settings.json');
    new SettingsFile(file).save({ port: 0, upstream: 'http://localhost:8080/openai' });
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual({ port: 0, upstream: 'http://localhost:8080/openai' });
    expect(new SettingsFile(file).load()).toEqual({
      settings: { port: 0, upstream: 'http://localhost:8080/openai' },
      problem: null,
    });
    expect(fs.readdirSync(path.dirname(file))).toEqual(['settings.json']);
  });

  it('complete a partial change from the current values', () => {
    expect(parseSettings({ port: 9000 }, { port: 1, upstream: 'https://x.example' })).toEqual({
      port: 9000,
      upstream: 'https://x.example',
    });
    expect(parseSettings({ upstream: 'https://x.example/v1/' })).toEqual({
      port: 7455,
      upstream: 'https://x.example/v1',
    });
  });

  it('refuse bad values with what is wrong', () => {
    expect(() => parseSettings({ port: 70000 })).toThrow(
      '"port" must be a whole number from 0 to 65535 (0 picks a free port); got 70000',
    );
    expect(() => parseSettings({ port: '7455' })).toThrow(/"port" must be a whole number/);
    expect(() => parseSettings({ upstream: 'ftp://x' })).toThrow(/"upstream" must be an http:\/\/ or https:\/\/ URL/);
    expect(() => parseSettings([1])).toThrow(/must be a JSON object/);
  });

  it('carry the names to redact, checked, saved and kept across a partial change', () => {
    const file = path.join(dir, 'redact', 'settings.json');
    const settings = parseSettings({ redact: ['x-my-key', 'client_ref'] });
    expect(settings).toEqual({ port: 7455, upstream: 'https://api.openai.com', redact: ['x-my-key', 'client_ref'] });
    new SettingsFile(file).save(settings);
    expect(new SettingsFile(file).load()).toEqual({ settings, problem: null });
    expect(parseSettings({ port: 0 }, settings).redact).toEqual(['x-my-key', 'client_ref']);
    expect(() => parseSettings({ redact: 'x-my-key' })).toThrow(
      '"redact" must be a list of names such as ["x-my-key", "client_secret"]; got "x-my-key"',
    );
    expect(() => parseSettings({ redact: ['ok', 7] })).toThrow(
      '"redact": 7 is not a name; give names such as ["x-my-key", "client_secret"]',
    );
    expect(() => parseSettings({ redact: ['--'] })).toThrow(/"--" is not a header, query parameter or JSON key name/);
  });

  it('report a broken file and start on the defaults without overwriting it', () => {
    const file = path.join(dir, 'broken.json');
    fs.writeFileSync(file, '{"port": 80,');
    const loaded = new SettingsFile(file).load();
    expect(loaded.settings).toEqual(DEFAULT_SETTINGS);
    expect(loaded.problem).toMatch(/broken\.json is not valid JSON/);
    fs.writeFileSync(file, '{"port": -1}');
    expect(new SettingsFile(file).load().problem).toMatch(/"port" must be a whole number/);
    expect(fs.readFileSync(file, 'utf8')).toBe('{"port": -1}');
  });
});

describe('recent recordings', () => {
  it('keep the newest first, without duplicates, at most ten, across restarts', () => {
    const file = path.join(dir, 'recent.json');
    const recent = new RecentRecordings(file);
    for (let i = 0; i < 12; i++) recent.add(path.join(dir, `r${i}.loupe`));
    recent.add(path.join(dir, 'r5.loupe'));
    const list = new RecentRecordings(file).list();
    expect(list).toHaveLength(MAX_RECENT);
    expect(list.slice(0, 3)).toEqual([
      path.join(dir, 'r5.loupe'),
      path.join(dir, 'r11.loupe'),
      path.join(dir, 'r10.loupe'),
    ]);
    recent.remove(path.join(dir, 'r5.loupe'));
    expect(new RecentRecordings(file).list()[0]).toBe(path.join(dir, 'r11.loupe'));
    recent.clear();
    expect(new RecentRecordings(file).list()).toEqual([]);
  });

  it('start empty from a broken file', () => {
    const file = path.join(dir, 'recent-broken.json');
    fs.writeFileSync(file, 'nope');
    expect(new RecentRecordings(file).list()).toEqual([]);
  });
});
