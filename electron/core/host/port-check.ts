// Whether the proxy can listen on a port, and the error that says it cannot. Apart from the
// core so the desktop's main thread can tell the error apart without loading the relay
// (the core runs in a worker there, ADR 16).
import net from 'node:net';

export class PortInUseError extends Error {
  override readonly name = 'PortInUseError';
  constructor(readonly port: number) {
    super(
      `Port ${port} is already in use by another program, so Loupe's proxy cannot listen on it. Quit that program, or choose another port (Proxy menu, or "port" in settings.json; 0 picks any free port).`,
    );
  }
}

/** True when nothing listens on 127.0.0.1:port (the proxy's own address). Port 0 is always free. */
export function portIsFree(port: number): Promise<boolean> {
  if (port === 0) return Promise.resolve(true);
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}
