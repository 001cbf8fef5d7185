// Calls made across a thread boundary and answered later, by number (api-port.ts). Once
// the other side is gone, every open call and every later one fails with why.

type Waiter<T> = { resolve(value: T): void; reject(err: Error): void };

export class PendingCalls<T = unknown> {
  private readonly open = new Map<number, Waiter<T>>();
  private nextId = 0;
  private gone: Error | null = null;

  /** Why calls fail, once the other side is gone; null while it is there. */
  get failure(): Error | null {
    return this.gone;
  }

  /** Numbers a call and hands the number to `send`; resolves with the answer to it. */
  start(send: (id: number) => void): Promise<T> {
    if (this.gone) return Promise.reject(this.gone);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.open.set(id, { resolve, reject });
      send(id);
    });
  }

  /** The answer to call `id`: an error, or else the value. */
  settle(id: number, error: Error | null, value?: T): void {
    const waiter = this.open.get(id);
    this.open.delete(id);
    if (error) waiter?.reject(error);
    else waiter?.resolve(value as T);
  }

  /** The other side is gone: every call fails with the first reason given. */
  failAll(reason: Error): void {
    this.gone ??= reason;
    for (const waiter of this.open.values()) waiter.reject(this.gone);
    this.open.clear();
  }
}
