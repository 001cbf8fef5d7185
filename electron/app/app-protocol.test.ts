// The loupe-app:// handler: only files inside the renderer folder, only for the app's own
// host, every answer with the CSP; and the origin test the IPC guard relies on.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_URL, isAppUrl, rendererResponse } from './app-protocol.js';
import { CONTENT_SECURITY_POLICY } from './csp.js';

describe('the loupe-app:// protocol', () => {
  let dir: string;
  let renderer: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-protocol-'));
    renderer = path.join(dir, 'renderer');
    fs.mkdirSync(path.join(renderer, 'assets'), { recursive: true });
    fs.writeFileSync(path.join(renderer, 'index.html'), '<!doctype html><title>Loupe page</title>');
    fs.writeFileSync(path.join(renderer, 'assets', 'index-abc.js'), 'console.log(1)');
    fs.writeFileSync(path.join(dir, 'secret.txt'), 'outside the renderer folder');
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('serves the page and its assets with the strict CSP', async () => {
    const page = await rendererResponse(renderer, APP_URL);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Loupe page');
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    const asset = await rendererResponse(renderer, 'loupe-app://renderer/assets/index-abc.js');
    expect(asset.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(await asset.text()).toBe('console.log(1)');
    expect((await rendererResponse(renderer, 'loupe-app://renderer/')).status).toBe(200);
  });

  it('never serves a file outside the renderer folder, nor for another host', async () => {
    for (const url of [
      'loupe-app://renderer/../secret.txt',
      'loupe-app://renderer/%2e%2e/secret.txt',
      'loupe-app://renderer/assets/..%2f..%2fsecret.txt',
      'loupe-app://renderer/missing.js',
      'loupe-app://elsewhere/index.html',
      'https://renderer/index.html',
    ]) {
      const res = await rendererResponse(renderer, url);
      expect(res.status, url).toBe(404);
      expect(await res.text()).not.toContain('outside the renderer folder');
    }
    expect((await rendererResponse(renderer, 'loupe-app://renderer/%E0%A4%A.js')).status).toBe(400);
    expect((await rendererResponse(renderer, APP_URL, 'POST')).status).toBe(405);
  });

  it('explains how to build the UI when it is missing', async () => {
    const res = await rendererResponse(path.join(dir, 'nothing'), APP_URL);
    expect(res.status).toBe(503);
    expect(await res.text()).toContain('npm run build');
  });

  it('has a CSP that allows no remote script, no inline script, no network and no framing', () => {
    expect(CONTENT_SECURITY_POLICY).toContain("default-src 'none'");
    expect(CONTENT_SECURITY_POLICY).toContain("script-src 'self'");
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/script-src[^;]*unsafe/);
    expect(CONTENT_SECURITY_POLICY).toContain("connect-src 'self'");
    expect(CONTENT_SECURITY_POLICY).toContain("frame-ancestors 'none'");
    expect(CONTENT_SECURITY_POLICY).toContain("object-src 'none'");
  });

  it('recognises only its own page as the app', () => {
    expect(isAppUrl(APP_URL)).toBe(true);
    expect(isAppUrl('loupe-app://renderer/assets/x.js#run=1')).toBe(true);
    for (const url of [
      'loupe-app://renderer.evil/index.html',
      'loupe-app://x@renderer/',
      'file:///index.html',
      'http://renderer/',
      'not a url',
    ]) {
      expect(isAppUrl(url), url).toBe(false);
    }
  });
});
