// Picks the transport: the desktop bridge when the preload put one on window, else the
// headless server this page came from, with the token from the page URL.
import type { LoupeApi } from '../../shared/api/contract.js';
import { bridgeClient, type ApiClient } from './api-client.js';
import { HttpApiClient, type SocketCtor } from './http-client.js';
import { parseJsonSteps } from '../../shared/json-steps.js';
import { runStepsApart } from '../lib/next-task.js';

declare global {
  interface Window {
    loupe?: LoupeApi;
  }
}

const TOKEN_KEY = 'loupe.token';

export function createApiClient(win: Window & typeof globalThis = window): ApiClient {
  if (win.loupe) return bridgeClient(win.loupe);
  const url = new URL(win.location.href);
  const token = url.searchParams.get('token') ?? win.sessionStorage.getItem(TOKEN_KEY) ?? '';
  if (token) win.sessionStorage.setItem(TOKEN_KEY, token);
  return new HttpApiClient({
    origin: url.origin,
    token,
    fetch: (input, init) => win.fetch(input, init),
    WebSocket: win.WebSocket as unknown as SocketCtor,
    parseText: (text) => runStepsApart(parseJsonSteps(text)),
  });
}
