// SSE framing exactly as OpenAI sends it. Responses events are named
// (`event: <type>\ndata: <json>\n\n`); Chat Completions sends bare `data:` lines and
// ends with `data: [DONE]`.
import { CHAT_DONE, type ChatStreamItem } from './chat.js';
import type { WireStreamEvent } from './wire.js';

export function frameResponseEvent(event: WireStreamEvent): string {
  return `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
}

export function frameChatItem(item: ChatStreamItem): string {
  return `data: ${item === CHAT_DONE ? CHAT_DONE : JSON.stringify(item)}\n\n`;
}

export function* mapFrames<T>(items: Iterable<T>, frame: (item: T) => string): Generator<string> {
  for (const item of items) yield frame(item);
}
